// Command guardgen generates the guard's multilingual data from real app string catalogs
// and from the Unicode CLDR data that golang.org/x/text carries:
//
//   - guard/guard_vocab.yaml: sensitive words, generic confirms, ways out and page
//     words per language, taken from the translated strings.xml of the apps in sources
//     (Thunderbird for Android, the Wikipedia Android app, AOSP Messaging, Nfc ("Pay
//     with"), Mms, Contacts, Dialer, Calendar, Email and Browser, the DuckDuckGo browser,
//     Element, AntennaPod, Mastodon, Tusky, WooCommerce, Nextcloud, the Wikimedia Commons
//     app, Fossify Messages and the strings all Fossify apps share, NewPipe, FairEmail,
//     Delta Chat, QKSMS, Bitcoin Wallet, Firefox for Android (MPL-2.0) — of the GPL
//     ones only
//     translated words, which are facts, are taken), of MediaWiki's Thanks extension's
//     i18n/*.json (MIT: Send thanks, Thank), of its Nuke and MassMessage extensions'
//     (GPL-2.0-or-later, words taken as facts: Delete, Send) and of BlueWallet's loc/*.json (MIT:
//     Pay, Send now, Fee), string by string (the keys are listed below with the category
//     each one names), and the verb, data and view-state words learned from all their
//     strings (learnVerbs);
//   - guard/guard_currency.txt: every currency symbol CLDR gives for every currency in
//     every locale x/text supports (zł, Rp, ر.س., ₫, …), one a line;
//   - guard/testdata/guard/corpus.json: labels and pages for measuring the guard, from
//     other strings of Thunderbird and Wikipedia (held out: no key of the vocabulary is in
//     it, and no other source gives the corpus anything).
//
// Run from the repository root with every repository of sources checked out as a git
// directory, one flag each (the commits the data was made from are in the output's
// provenance):
//
//	go run ./guard/internal/guardgen -thunderbird DIR -wikipedia DIR -messaging DIR -nfc DIR -bluewallet DIR \
//		-antennapod DIR -duckduckgo DIR -woocommerce DIR -mms DIR -contacts DIR -dialer DIR -calendar DIR -email DIR \
//		-mastodon DIR -tusky DIR -element DIR -browser DIR -nextcloud DIR -commons DIR -fossifymessages DIR -newpipe DIR -fossifycommons DIR \
//		-fairemail DIR -deltachat DIR -thanks DIR -firefox DIR -qksms DIR -bitcoinwallet DIR -nuke DIR -massmessage DIR
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func main() {
	dirs := make([]*string, len(sources))
	for i, s := range sources {
		dirs[i] = flag.String(s.flag, "", "git directory of "+s.repo)
	}
	out := flag.String("out", "guard", "the guard package directory")
	flag.Parse()
	var missing []string
	for i, s := range sources {
		if *dirs[i] == "" {
			missing = append(missing, "-"+s.flag)
		}
	}
	if len(missing) > 0 {
		fmt.Fprintf(os.Stderr, "guardgen: give %s (git directories of the %d repositories)\n", strings.Join(missing, ", "), len(sources))
		os.Exit(2)
	}
	cats := []*catalog{}
	for i, s := range sources {
		read := readCatalog
		switch {
		case s.json:
			read = readJSONCatalog
		case s.mediawiki:
			read = readMediaWikiCatalog
		}
		cat, err := read(s.repo, *dirs[i], s.licence)
		if err != nil {
			fmt.Fprintln(os.Stderr, "guardgen:", err)
			os.Exit(1)
		}
		cat.learn = s.learn
		cats = append(cats, cat)
	}
	if err := writeVocabulary(filepath.Join(*out, "guard_vocab.yaml"), cats); err != nil {
		fmt.Fprintln(os.Stderr, "guardgen:", err)
		os.Exit(1)
	}
	if err := writeCurrencies(filepath.Join(*out, "guard_currency.txt")); err != nil {
		fmt.Fprintln(os.Stderr, "guardgen:", err)
		os.Exit(1)
	}
	if err := writeCorpus(filepath.Join(*out, "testdata", "guard", "corpus.json"), cats); err != nil {
		fmt.Fprintln(os.Stderr, "guardgen:", err)
		os.Exit(1)
	}
}

func git(dir string, args ...string) ([]byte, error) {
	out, err := exec.Command("git", append([]string{"--git-dir", dir}, args...)...).Output()
	if err != nil {
		return nil, fmt.Errorf("git %s in %s: %w", strings.Join(args, " "), dir, err)
	}
	return out, nil
}
