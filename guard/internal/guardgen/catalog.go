package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"golang.org/x/text/language"
)

// catalog is one repository's translated strings: key → locale → text.
type catalog struct {
	repo, commit, licence string
	strings               map[string]map[string]string
	learn                 []string // the topics learnVerbs learns from it (verbs, data, view:…); nil: all
}

// newCatalog is the empty catalog of the repository's HEAD, with the files `git ls-tree
// ls…` lists there.
func newCatalog(repo, dir, licence string, ls ...string) (*catalog, []byte, error) {
	head, err := git(dir, "rev-parse", "HEAD")
	if err != nil {
		return nil, nil, err
	}
	files, err := git(dir, append([]string{"ls-tree"}, ls...)...)
	if err != nil {
		return nil, nil, err
	}
	return &catalog{repo: repo, commit: strings.TrimSpace(string(head)), licence: licence, strings: map[string]map[string]string{}}, files, nil
}

var valuesDir = regexp.MustCompile(`/values(-[^/]+)?/strings\.xml$`)

// readCatalog reads every strings.xml of the repository's HEAD.
func readCatalog(repo, dir, licence string) (*catalog, error) {
	c, files, err := newCatalog(repo, dir, licence, "-r", "--name-only", "HEAD")
	if err != nil {
		return nil, err
	}
	var paths, locs []string
	for _, f := range strings.Split(string(files), "\n") {
		m := valuesDir.FindStringSubmatch(f)
		if m == nil || strings.Contains(f, "/test/") {
			continue
		}
		loc, ok := locale(strings.TrimPrefix(m[1], "-"))
		if !ok {
			continue
		}
		paths, locs = append(paths, f), append(locs, loc)
	}
	blobs, err := showAll(dir, paths)
	if err != nil {
		return nil, err
	}
	for i, data := range blobs {
		loc := locs[i]
		var res struct {
			Strings []struct {
				Name  string `xml:"name,attr"`
				Inner string `xml:",innerxml"`
			} `xml:"string"`
		}
		if err := xml.Unmarshal(data, &res); err != nil {
			continue // a file the XML decoder cannot read (a rare entity) is left out
		}
		for _, s := range res.Strings {
			if c.strings[s.Name] == nil {
				c.strings[s.Name] = map[string]string{}
			}
			if v := clean(s.Inner); v != "" {
				if _, dup := c.strings[s.Name][loc]; !dup {
					c.strings[s.Name][loc] = v
				}
			}
		}
	}
	return c, nil
}

// showAll reads the files at HEAD with one git process (a catalog of a hundred modules in
// a hundred locales is thousands of files: one git show each took most of a minute).
func showAll(dir string, paths []string) ([][]byte, error) {
	cmd := exec.Command("git", "--git-dir", dir, "cat-file", "--batch")
	cmd.Stdin = strings.NewReader(func() string {
		var b strings.Builder
		for _, p := range paths {
			b.WriteString("HEAD:" + p + "\n")
		}
		return b.String()
	}())
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git cat-file in %s: %w", dir, err)
	}
	blobs := make([][]byte, 0, len(paths))
	for _, p := range paths {
		header, rest, ok := bytes.Cut(out, []byte("\n"))
		var sha, typ string
		var size int
		if !ok {
			return nil, fmt.Errorf("git cat-file in %s: no output for %s", dir, p)
		}
		if _, err := fmt.Sscanf(string(header), "%s %s %d", &sha, &typ, &size); err != nil || typ != "blob" || size > len(rest) {
			return nil, fmt.Errorf("git cat-file in %s: %s: %q", dir, p, header)
		}
		blobs = append(blobs, rest[:size])
		out = bytes.TrimPrefix(rest[size:], []byte("\n"))
	}
	return blobs, nil
}

// mediaWikiLocales are MediaWiki's language codes that are not the BCP 47 tag they stand
// for (sr-ec is Serbian in Cyrillic, not Serbian of Ecuador).
var mediaWikiLocales = map[string]string{"sr-ec": "sr", "sr-el": "sr-Latn", "be-tarask": "be", "zh-hans": "zh-Hans", "zh-hant": "zh-Hant",
	"pt-br": "pt-BR", "kk-cyrl": "kk", "tg-cyrl": "tg", "tt-cyrl": "tt", "ku-latn": "ku", "crh-latn": "crh"}

// mediaWikiMagic is a MediaWiki message's innermost {{GENDER:$1|…}}, {{PLURAL:$1|…|…}} or
// {{GRAMMAR:…|…}}: its first form is taken.
var mediaWikiMagic = regexp.MustCompile(`\{\{(?i:GENDER|PLURAL|GRAMMAR):[^{}|]*\|([^{}|]*)(?:\|[^{}]*)?\}\}`)

// readMediaWikiCatalog reads a MediaWiki extension's i18n/*.json (key → message, one file
// a language; qqq is the documentation of the messages, not a language): the magic words
// resolved to their first form, $1 written as %s.
func readMediaWikiCatalog(repo, dir, licence string) (*catalog, error) {
	c, files, err := newCatalog(repo, dir, licence, "--name-only", "HEAD", "i18n/")
	if err != nil {
		return nil, err
	}
	var paths, locs []string
	for _, f := range strings.Split(string(files), "\n") {
		code := strings.TrimSuffix(filepath.Base(f), ".json")
		if !strings.HasSuffix(f, ".json") || code == "qqq" || code == "qqx" {
			continue
		}
		loc, ok := mediaWikiLocales[code]
		if !ok {
			t, err := language.Parse(code)
			if err != nil {
				continue
			}
			loc = t.String()
		}
		paths, locs = append(paths, f), append(locs, loc)
	}
	blobs, err := showAll(dir, paths)
	if err != nil {
		return nil, err
	}
	for i, data := range blobs {
		var kv map[string]json.RawMessage
		if err := json.Unmarshal(data, &kv); err != nil {
			continue
		}
		for k, raw := range kv {
			var v string
			if strings.HasPrefix(k, "@") || json.Unmarshal(raw, &v) != nil {
				continue
			}
			for prev := ""; prev != v; {
				prev, v = v, mediaWikiMagic.ReplaceAllString(v, "$1")
			}
			v = mediaWikiParam.ReplaceAllString(tags.ReplaceAllString(v, ""), "%s")
			if v = strings.Join(strings.Fields(v), " "); v == "" {
				continue
			}
			if c.strings[k] == nil {
				c.strings[k] = map[string]string{}
			}
			c.strings[k][locs[i]] = v
		}
	}
	return c, nil
}

var mediaWikiParam = regexp.MustCompile(`\$\d+`)

// jsonLocales are BlueWallet's file names that are not BCP 47 tags.
var jsonLocales = map[string]string{"jp_jp": "ja", "ua": "uk", "zar_afr": "af", "zar_xho": "xh", "be@tarask": "be", "kk@Cyrl": "kk"}

// readJSONCatalog reads BlueWallet's loc/*.json: section → key → text, as "section.key".
func readJSONCatalog(repo, dir, licence string) (*catalog, error) {
	c, files, err := newCatalog(repo, dir, licence, "--name-only", "HEAD", "loc/")
	if err != nil {
		return nil, err
	}
	for _, f := range strings.Split(string(files), "\n") {
		if !strings.HasSuffix(f, ".json") {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		loc, ok := jsonLocales[name]
		if !ok {
			t, err := language.Parse(strings.ReplaceAll(name, "_", "-"))
			if err != nil {
				continue
			}
			loc = t.String()
		}
		data, err := git(dir, "show", "HEAD:"+f)
		if err != nil {
			return nil, err
		}
		var sections map[string]json.RawMessage
		if err := json.Unmarshal(data, &sections); err != nil {
			continue
		}
		for sec, raw := range sections {
			var kv map[string]string
			if json.Unmarshal(raw, &kv) != nil {
				continue
			}
			for k, v := range kv {
				key := sec + "." + k
				if c.strings[key] == nil {
					c.strings[key] = map[string]string{}
				}
				if v = strings.Join(strings.Fields(v), " "); v != "" {
					c.strings[key][loc] = v
				}
			}
		}
	}
	return c, nil
}

// locale turns a resource qualifier (pt-rBR, b+sr+Latn, iw) into a BCP 47 tag; "" is en.
func locale(q string) (string, bool) {
	if q == "" {
		return "en", true
	}
	q = strings.ReplaceAll(q, "-r", "-")
	if strings.HasPrefix(q, "b+") {
		q = strings.ReplaceAll(strings.TrimPrefix(q, "b+"), "+", "-")
	}
	t, err := language.Parse(q)
	if err != nil {
		return "", false
	}
	return t.String(), true
}

var tags = regexp.MustCompile(`<[^>]+>`)

// clean reads an Android string resource's text: tags stripped, escapes undone.
func clean(inner string) string {
	s := tags.ReplaceAllString(inner, "")
	var b strings.Builder
	if err := xml.EscapeText(&b, nil); err == nil {
		_ = b
	}
	s = strings.NewReplacer(`\'`, "'", `\"`, `"`, `\n`, " ", `\t`, " ", `\@`, "@", `\?`, "?", "&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'").Replace(s)
	s = strings.Trim(strings.TrimSpace(s), `"`)
	return strings.Join(strings.Fields(s), " ")
}

var placeholder = regexp.MustCompile(`%(\d+\$)?[sd]`)
