package main

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/fairy-go/fairy/internal/testenv"
)

// gitRepo makes a git repository holding files, committed, and returns its git directory
// and commit.
func gitRepo(t *testing.T, files map[string]string) (string, string) {
	t.Helper()
	testenv.MustHaveFullTier(t, "runs git")
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("init", "-q")
	run("add", ".")
	run("commit", "-q", "-m", "strings")
	return filepath.Join(dir, ".git"), run("rev-parse", "HEAD")
}

func stringsXML(kv ...string) string {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<resources>\n")
	for i := 0; i+1 < len(kv); i += 2 {
		b.WriteString(`  <string name="` + kv[i] + `">` + kv[i+1] + "</string>\n")
	}
	b.WriteString("</resources>\n")
	return b.String()
}

// TestReadCatalog: every translated strings.xml of the commit is read, its resource
// qualifier turned into a BCP 47 tag (pt-rBR, b+sr+Latn, iw), escapes and tags undone;
// test resources are left out; the commit is recorded.
func TestReadCatalog(t *testing.T) {
	dir, commit := gitRepo(t, map[string]string{
		"app/src/main/res/values/strings.xml":           stringsXML("delete_action", "Delete", "quote", `Don\'t <b>send</b>`),
		"app/src/main/res/values-pt-rBR/strings.xml":    stringsXML("delete_action", "Excluir"),
		"app/src/main/res/values-b+sr+Latn/strings.xml": stringsXML("delete_action", "Obriši"),
		"app/src/main/res/values-iw/strings.xml":        stringsXML("delete_action", "מחק"),
		"app/src/test/res/values-de/strings.xml":        stringsXML("delete_action", "Testen"),
	})
	c, err := readCatalog("x/y", dir, "MIT")
	if err != nil {
		t.Fatal(err)
	}
	if c.commit != commit || c.repo != "x/y" || c.licence != "MIT" {
		t.Errorf("provenance %s@%s (%s), want x/y@%s (MIT)", c.repo, c.commit, c.licence, commit)
	}
	want := map[string]string{"en": "Delete", "pt-BR": "Excluir", "sr-Latn": "Obriši", "he": "מחק"}
	for loc, v := range want {
		if got := c.strings["delete_action"][loc]; got != v {
			t.Errorf("delete_action[%s] = %q, want %q", loc, got, v)
		}
	}
	if _, ok := c.strings["delete_action"]["de"]; ok {
		t.Errorf("a test resource was read: %v", c.strings["delete_action"])
	}
	if got := c.strings["quote"]["en"]; got != "Don't send" {
		t.Errorf("quote = %q, want %q", got, "Don't send")
	}
}

// TestLearnVerbs: the word that recurs in the translations of the strings starting with a
// verb, and rarely elsewhere, is learned as the verb's form in that language; the words
// of the objects are not, nor is any corpus string's.
func TestLearnVerbs(t *testing.T) {
	c := &catalog{repo: "thunderbird/thunderbird-android", strings: map[string]map[string]string{}}
	add := func(key, en, pl string) { c.strings[key] = map[string]string{"en": en, "pl": pl} }
	add("k1", "Delete list", "Usuń listę")
	add("k2", "Delete tag", "Usuń etykietę")
	add("k3", "Delete file", "Usuń plik")
	add("k4", "Show list", "Pokaż listę")
	add("k5", "Send message", "Wyślij wiadomość")
	add("k6", "Send now", "Wyślij teraz")
	add("k7", "Loading messages", "Ładowanie wiadomości")
	add("k8", "New messages", "Nowe wiadomości")
	add("k9", "Clear messages", "Wyczyść wiadomości")
	add("k10", "Clear cache", "Wyczyść pamięć podręczną")
	for i := range 40 {
		add("other"+string(rune('a'+i%26))+string(rune('a'+i/26)), "Other thing", "Inna rzecz")
	}
	// A corpus string of this repository teaches nothing: its key is held out.
	add("notification_action_delete_all", "Delete all", "Skasuj wszystko")
	add("notification_action_delete_all_2", "Delete all", "Skasuj wszystko") // not held out, but one string: no recurrence
	words := map[string]map[string][]string{}
	learnVerbs(c, words, nil)
	for _, tc := range []struct {
		cat, word string
		want      bool
	}{
		{"delete", "usuń", true}, {"send", "wyślij", true}, {"clear", "wyczyść", true}, {"data", "wiadomości", true},
		{"delete", "listę", false}, {"delete", "plik", false}, {"delete", "skasuj", false}, {"send", "teraz", false},
	} {
		if got := slices.Contains(words[tc.cat]["pl"], tc.word); got != tc.want {
			t.Errorf("%s learned %q: %v, want %v (learned %v)", tc.cat, tc.word, got, tc.want, words[tc.cat]["pl"])
		}
	}
}

// TestWriteVocabulary: the vocabulary file records where every word came from, reads as
// the guard reads it (category → locale → words), and leaves out a word that also
// translates a harmless action in the same language, or is a harmless action's whole
// translation in another.
func TestWriteVocabulary(t *testing.T) {
	c := &catalog{repo: "thunderbird/thunderbird-android", commit: "abc123", licence: "Apache-2.0", strings: map[string]map[string]string{}}
	for _, r := range vocabulary[c.repo] {
		c.strings[r.key] = map[string]string{"en": r.key}
	}
	c.strings["delete_action"] = map[string]string{"en": "Delete", "he": "מחק", "id": "Hapus", "ms": "Batal"}
	c.strings["move_action"] = map[string]string{"en": "Move", "id": "Hapus"}     // ambiguous in this made-up catalog
	c.strings["cancel_action"] = map[string]string{"en": "Cancel", "id": "Batal"} // Cancel in one locale, Delete in another
	path := filepath.Join(t.TempDir(), "vocab.yaml")
	if err := writeVocabulary(path, []*catalog{c}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "github.com/thunderbird/thunderbird-android @ abc123 (Apache-2.0)") {
		t.Errorf("no provenance line:\n%s", data)
	}
	var gen map[string]map[string][]string
	if err := yaml.Unmarshal(data, &gen); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(gen["delete"]["he"], "מחק") {
		t.Errorf("delete[he] = %v, want מחק", gen["delete"]["he"])
	}
	if slices.Contains(gen["delete"]["id"], "hapus") {
		t.Errorf("delete[id] = %v: hapus also translates Move here and must be left out", gen["delete"]["id"])
	}
	if slices.Contains(gen["delete"]["ms"], "batal") {
		t.Errorf("delete[ms] = %v: batal translates Cancel in id, and the guard does not know a label's language", gen["delete"]["ms"])
	}
}

// TestWriteCurrencies: CLDR's symbols for the currencies issue 24 found missed are listed.
func TestWriteCurrencies(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cur.txt")
	if err := writeCurrencies(path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	for _, s := range []string{"zł", "Rp", "₫", "$", "€", "CHF", "PLN"} {
		if !slices.Contains(lines, s) {
			t.Errorf("%q is not listed", s)
		}
	}
}

// TestLearnVerbsPairsAndNouns: a syllable that never occurs without its neighbour, in at
// least minPaired strings, is learned as the pair (Vietnamese loại bỏ, not loại); a word of
// fewer than three letters is not learned (Turkish mi, the question's particle); the translation of a view's state
// (star) is learned as an object; a word that recurs with a noun that is neither data nor
// a view's state (history) is that noun and not learned as the verb.
func TestLearnVerbsPairsAndNouns(t *testing.T) {
	c := &catalog{repo: "x/y", strings: map[string]map[string]string{}}
	add := func(key, en, vi, fr string) { c.strings[key] = map[string]string{"en": en, "vi": vi, "fr": fr} }
	for i, o := range []string{"list", "tag", "file", "photo"} {
		c.strings["tr"+o] = map[string]string{"en": "Delete " + o + "?", "tr": []string{"Liste", "Etiket", "Dosya", "Fotoğraf"}[i] + " sil mi?"}
	}
	c.strings["trnow"] = map[string]string{"en": "Delete now", "tr": "Şimdi sil"}
	add("k1", "Remove list", "Loại bỏ danh sách", "Retirer la liste")
	add("k2", "Remove tag", "Loại bỏ nhãn", "Retirer l'étiquette")
	add("k3", "Remove file", "Loại bỏ tệp", "Retirer le fichier")
	add("k3b", "Remove photo", "Loại bỏ ảnh", "Retirer la photo")
	add("k4", "Add star", "Thêm sao", "Ajouter une étoile")
	add("k5", "Starred", "Có sao", "Avec étoile")
	add("k6", "Clear search history", "Xóa lịch sử tìm kiếm", "Effacer l'historique des recherches")
	add("k7", "Clear call history", "Xóa lịch sử cuộc gọi", "Effacer l'historique des appels")
	add("k8", "Call history", "Lịch sử cuộc gọi", "Historique des appels")
	pad(c, map[string]string{"vi": "Thứ khác", "fr": "Autre chose"})
	words := map[string]map[string][]string{}
	learnVerbs(c, words, nil)
	for _, tc := range []struct {
		cat, loc, word string
		want           bool
	}{
		{"delete", "vi", "loại bỏ", true}, {"delete", "vi", "loại", false}, {"delete", "vi", "bỏ", false}, {"delete", "tr", "mi", false}, {"delete", "tr", "sil", true},
		{"object", "vi", "sao", true}, {"object", "fr", "étoile", true},
		{"clear", "fr", "effacer", true}, {"clear", "fr", "historique", false}, {"clear", "vi", "lịch", false},
	} {
		if got := slices.Contains(words[tc.cat][tc.loc], tc.word); got != tc.want {
			t.Errorf("%s[%s] learned %q: %v, want %v (learned %v)", tc.cat, tc.loc, tc.word, got, tc.want, words[tc.cat][tc.loc])
		}
	}
}

// TestRunsLearnChineseAndJapaneseNouns: in a language written without spaces, the longest
// run of characters that recurs in a noun's strings is learned as the noun (メッセージ, not
// its pieces); a verb's runs are not learned (they hold its objects and particles).
func TestRunsLearnChineseAndJapaneseNouns(t *testing.T) {
	c := &catalog{repo: "x/y", strings: map[string]map[string]string{}}
	add := func(key, en, ja string) { c.strings[key] = map[string]string{"en": en, "ja": ja} }
	add("k1", "Delete messages", "メッセージを削除")
	add("k2", "Send message", "メッセージを送信")
	add("k3", "New message", "新しいメッセージ")
	add("k4", "Remove from offline", "オフラインから削除")
	add("k5", "Remove from list", "リストから削除")
	add("k6", "Remove from queue", "キューから削除")
	pad(c, map[string]string{"ja": "ほかのもの"})
	words := map[string]map[string][]string{}
	learnVerbs(c, words, nil)
	for _, tc := range []struct {
		cat, word string
		want      bool
	}{
		{"data", "メッセージ", true}, {"data", "ッセージ", false}, {"delete", "から削除", false}, {"delete", "ラインから", false},
	} {
		if got := slices.Contains(words[tc.cat]["ja"], tc.word); got != tc.want {
			t.Errorf("%s learned %q: %v, want %v (learned %v)", tc.cat, tc.word, got, tc.want, words[tc.cat]["ja"])
		}
	}
}

// TestLearnThanks: the words that recur in the strings that send thanks are learned as a
// send ("agradecimiento"), unless a thank-you string in any locale holds them (gracias,
// and lb merci, which fr's thank-you holds), or they are short (a preposition: tới); a
// source that teaches only thanks teaches no other verb; a Korean particle after an
// English name (mms로) is no word.
func TestLearnThanks(t *testing.T) {
	c := &catalog{repo: "x/y", strings: map[string]map[string]string{}, learn: []string{"thank"}}
	add := func(key, en string, tr map[string]string) {
		tr["en"] = en
		c.strings[key] = tr
	}
	add("t1", "Send thanks", map[string]string{"es": "Enviar agradecimiento", "lb": "Merci schécken", "vi": "Gửi cảm ơn tới", "ko": "mms로 감사 전송"})
	add("t2", "Sending thanks to %1$s", map[string]string{"es": "Enviando agradecimiento a %1$s", "lb": "Merci gëtt geschéckt", "vi": "Đang gửi cảm ơn tới %1$s", "ko": "mms로 감사 보내는 중"})
	add("t3", "Sent thanks to %1$s", map[string]string{"es": "Agradecimiento enviado a %1$s", "lb": "Merci geschéckt", "vi": "Đã gửi cảm ơn tới %1$s", "ko": "mms로 감사 보냄"})
	add("t4", "Thank the author", map[string]string{"es": "Agradecimiento al autor", "lb": "Dem Auteur Merci soen", "vi": "Cảm ơn tác giả tới"})
	add("g1", "Thank you for uploading!", map[string]string{"es": "¡Gracias por subir!", "fr": "Merci pour le téléversement !"})
	add("g2", "Thanks!", map[string]string{"es": "¡Gracias!", "fr": "Merci !"})
	add("d1", "Delete list", map[string]string{"es": "Borrar lista"})
	add("d2", "Delete tag", map[string]string{"es": "Borrar etiqueta"})
	add("d3", "Delete file", map[string]string{"es": "Borrar archivo"})
	pad(c, map[string]string{"es": "Otra cosa", "lb": "Eppes anescht", "vi": "Thứ khác", "fr": "Autre chose", "ko": "다른 것"})
	words := map[string]map[string][]string{}
	learnVerbs(c, words, nil)
	for _, tc := range []struct {
		cat, loc, word string
		want           bool
	}{
		{"send", "es", "agradecimiento", true}, {"send", "es", "gracias", false}, {"send", "lb", "merci", false},
		{"send", "vi", "tới", false}, {"send", "ko", "mms로", false}, {"delete", "es", "borrar", false},
	} {
		if got := slices.Contains(words[tc.cat][tc.loc], tc.word); got != tc.want {
			t.Errorf("%s[%s] learned %q: %v, want %v (learned %v)", tc.cat, tc.loc, tc.word, got, tc.want, words[tc.cat][tc.loc])
		}
	}
}

// TestWriteVocabularyNamesAcrossLanguages: a sensitive word that is a name of its category
// in another language (Danish sender, sends, is English Sender) is left out, since the
// guard does not know a label's language; a name in a variant of the same language (nb-NO
// for nb) does not take the word away.
func TestWriteVocabularyNamesAcrossLanguages(t *testing.T) {
	c := &catalog{repo: "thunderbird/thunderbird-android", commit: "abc123", licence: "Apache-2.0", strings: map[string]map[string]string{}}
	for _, r := range vocabulary[c.repo] {
		c.strings[r.key] = map[string]string{"en": r.key}
	}
	c.strings["send_action"] = map[string]string{"en": "Send", "da": "Sender", "nb": "Sendt"}
	c.strings["font_size_message_list_sender"] = map[string]string{"en": "Sender"}
	c.strings["special_mailbox_name_sent"] = map[string]string{"en": "Sent", "nb-NO": "Sendt"}
	path := filepath.Join(t.TempDir(), "vocab.yaml")
	if err := writeVocabulary(path, []*catalog{c}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var gen map[string]map[string][]string
	if err := yaml.Unmarshal(data, &gen); err != nil {
		t.Fatal(err)
	}
	if slices.Contains(gen["send"]["da"], "sender") {
		t.Errorf("send[da] = %v: sender is English's name for who sent a message", gen["send"]["da"])
	}
	if !slices.Contains(gen["send"]["nb"], "sendt") {
		t.Errorf("send[nb] = %v: want sendt (its name is nb-NO's, the same language)", gen["send"]["nb"])
	}
	if !slices.Contains(gen["except:send"]["en"], "sender") {
		t.Errorf("except:send[en] = %v, want sender", gen["except:send"]["en"])
	}
	if _, ok := gen["noun"]; ok {
		t.Errorf("the learned nouns are written: %v", gen["noun"])
	}
}

// TestLearnVerbsLeavesEnglishWords: a verb's word learned in another locale that is also a
// word of the catalog's English strings (French don of Faire un don; English Don't) is left
// out: the guard would read it in English labels.
func TestLearnVerbsLeavesEnglishWords(t *testing.T) {
	c := &catalog{repo: "x/y", strings: map[string]map[string]string{}}
	add := func(key, en, fr string) { c.strings[key] = map[string]string{"en": en, "fr": fr} }
	add("d1", "Donate now", "Faire un don maintenant")
	add("d2", "Donate monthly", "Faire un don chaque mois")
	add("d3", "Donate to us", "Faites un don")
	add("n1", "Don't ask again", "Ne plus demander")
	pad(c, map[string]string{"fr": "Autre chose"})
	words := map[string]map[string][]string{}
	learnVerbs(c, words, nil)
	if slices.Contains(words["payment"]["fr"], "don") {
		t.Errorf("payment[fr] = %v: don is also English (Don't)", words["payment"]["fr"])
	}
	delete(c.strings, "n1")
	words = map[string]map[string][]string{}
	learnVerbs(c, words, nil)
	if !slices.Contains(words["payment"]["fr"], "don") {
		t.Errorf("payment[fr] = %v, want don when no English string holds it", words["payment"]["fr"])
	}
}

// pad adds 60 strings that hold none of a test's words, "Other thing" in English and tr in
// the other locales: a word is learned only when it is rare elsewhere in its locale.
func pad(c *catalog, tr map[string]string) {
	for i := range 60 {
		m := map[string]string{"en": "Other thing"}
		maps.Copy(m, tr)
		c.strings["other"+string(rune('a'+i%26))+string(rune('a'+i/26))] = m
	}
}

// writeGen runs writeVocabulary on cats and reads what it wrote.
func writeGen(t *testing.T, cats ...*catalog) map[string]map[string][]string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "vocab.yaml")
	if err := writeVocabulary(path, cats); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var gen map[string]map[string][]string
	if err := yaml.Unmarshal(data, &gen); err != nil {
		t.Fatal(err)
	}
	return gen
}

// TestWriteVocabularyNamesInTheirLanguage: a key's translation that is a name of its
// category in the same locale, and that only one app gives (Delta Chat's Indonesian Send
// is Terkirim, Sent), is left out; given by two apps, it is the language's word (Japanese
// 削除 is Delete and Deleted).
func TestWriteVocabularyNamesInTheirLanguage(t *testing.T) {
	tb := &catalog{repo: "thunderbird/thunderbird-android", strings: map[string]map[string]string{}}
	for _, r := range vocabulary[tb.repo] {
		tb.strings[r.key] = map[string]string{"en": r.key}
	}
	tb.strings["send_action"] = map[string]string{"en": "Send", "id": "Kirim", "ja": "送信"}
	tb.strings["special_mailbox_name_sent"] = map[string]string{"en": "Sent", "id": "Terkirim", "ja": "送信"}
	dc := &catalog{repo: "deltachat/deltachat-android", strings: map[string]map[string]string{}}
	for _, r := range vocabulary[dc.repo] {
		dc.strings[r.key] = map[string]string{"en": r.key}
	}
	dc.strings["menu_send"] = map[string]string{"en": "Send", "id": "Terkirim", "ja": "送信"}
	gen := writeGen(t, tb, dc)
	if slices.Contains(gen["send"]["id"], "terkirim") || !slices.Contains(gen["send"]["id"], "kirim") {
		t.Errorf("send[id] = %v: want kirim, not terkirim (Sent, one app's slip)", gen["send"]["id"])
	}
	if !slices.Contains(gen["send"]["ja"], "送信") {
		t.Errorf("send[ja] = %v: want 送信, which two apps give for Send", gen["send"]["ja"])
	}
}

// TestWriteVocabularyLeavesInflectedData: a word learned for a verb that is a data word
// with an ending (Finnish keskusteluun, into the chat) is the verb's object, not the verb.
func TestWriteVocabularyLeavesInflectedData(t *testing.T) {
	c := &catalog{repo: "x/y", strings: map[string]map[string]string{}}
	add := func(key, en, fi string) { c.strings[key] = map[string]string{"en": en, "fi": fi} }
	add("s1", "Send to chat", "Lähetä keskusteluun")
	add("s2", "Send this to chats", "Lähetä tämä keskusteluun")
	add("s3", "Send files to chat", "Lähetä tiedostot keskusteluun")
	add("c1", "Chat", "Keskustelu")
	add("c2", "Chat settings", "Keskustelu asetukset")
	add("c3", "Open chat", "Avaa keskustelu")
	pad(c, map[string]string{"fi": "Muu asia"})
	gen := writeGen(t, c)
	if !slices.Contains(gen["data"]["fi"], "keskustelu") || !slices.Contains(gen["send"]["fi"], "lähetä") {
		t.Fatalf("data[fi] = %v, send[fi] = %v: want keskustelu and lähetä", gen["data"]["fi"], gen["send"]["fi"])
	}
	if slices.Contains(gen["send"]["fi"], "keskusteluun") {
		t.Errorf("send[fi] = %v: keskusteluun is keskustelu, the chat, with an ending", gen["send"]["fi"])
	}
}

// TestLearnVerbsCompose: the words of a message or an e-mail are learned as data and as
// what is composed; a contact's only as data.
func TestLearnVerbsCompose(t *testing.T) {
	c := &catalog{repo: "x/y", strings: map[string]map[string]string{}}
	add := func(key, en, de string) { c.strings[key] = map[string]string{"en": en, "de": de} }
	add("m1", "New message", "Neue Nachricht")
	add("m2", "Message sent", "Nachricht gesendet")
	add("m3", "Message details", "Nachricht Details")
	add("k1", "New contact", "Neuer Kontakt")
	add("k2", "Contact saved", "Kontakt gespeichert")
	add("k3", "Contact details", "Kontakt Angaben")
	pad(c, map[string]string{"de": "Andere Sache"})
	words := map[string]map[string][]string{}
	learnVerbs(c, words, nil)
	for _, w := range []string{"nachricht", "kontakt"} {
		if !slices.Contains(words["data"]["de"], w) {
			t.Errorf("data[de] = %v, want %s", words["data"]["de"], w)
		}
	}
	if !slices.Contains(words["compose"]["de"], "nachricht") || slices.Contains(words["compose"]["de"], "kontakt") {
		t.Errorf("compose[de] = %v, want nachricht and not kontakt", words["compose"]["de"])
	}
}

// TestUsedOtherwise: a key's translation of three letters or fewer that the app's
// translators use mostly for other things (Russian нет, no, one app's Discard) is left
// out; a short word used for the key's verb (Polish usuń of Delete and Delete all) stays.
func TestUsedOtherwise(t *testing.T) {
	c := &catalog{repo: "x/y", strings: map[string]map[string]string{}}
	add := func(key, en, ru, pl string) { c.strings[key] = map[string]string{"en": en, "ru": ru, "pl": pl} }
	add("discard", "Discard", "Нет", "Usuń")
	add("no1", "No", "Нет", "Nie")
	add("no2", "No, thanks", "Нет, спасибо", "Nie, dziękuję")
	add("no3", "No connection", "Нет соединения", "Brak połączenia")
	add("del1", "Delete all", "Удалить все", "Usuń wszystko")
	add("del2", "Discard draft", "Удалить черновик", "Usuń szkic")
	add("del3", "Discard changes", "Отменить", "Usuń zmiany")
	if !usedOtherwise(c, "discard", "ru", "Нет") {
		t.Errorf("нет, which says no in three other strings, is kept as Discard")
	}
	if usedOtherwise(c, "discard", "pl", "Usuń") {
		t.Errorf("usuń, longer than three letters, is left out")
	}
	c.strings["discard"]["pl"] = "Usu"
	for _, k := range []string{"del1", "del2", "del3"} {
		c.strings[k]["pl"] = strings.Replace(c.strings[k]["pl"], "Usuń", "Usu", 1)
	}
	if usedOtherwise(c, "discard", "pl", "Usu") {
		t.Errorf("a short word used for discarding in the app's other strings is left out")
	}
}

// TestWholeEnglish: the catalogs' English words that a sensitive word's stem would match
// (Public of publicar, Subscribers of subscribe) are listed; the sensitive words
// themselves and words no stem reaches are not.
func TestWholeEnglish(t *testing.T) {
	c := &catalog{repo: "x/y", strings: map[string]map[string]string{
		"a": {"en": "Public profile"}, "b": {"en": "Subscribers and publishers"}, "c": {"en": "Subscribe"},
		"d": {"en": "Settings"},
	}}
	words := map[string]map[string][]string{"send": {"es": {"publicar"}}, "subscription": {"en": {"subscribe"}}}
	got := wholeEnglish(words, []*catalog{c}, filepath.Join(t.TempDir(), "none.yaml"))
	if !slices.Equal(got, []string{"public", "subscribers"}) {
		t.Errorf("wholeEnglish = %v, want [public subscribers]", got)
	}
}

// TestReadMediaWikiCatalog: a MediaWiki extension's i18n/*.json is read key by key, its
// magic words resolved to their first form and $1 written as %s; MediaWiki's language codes
// become BCP 47 tags (sr-ec is Serbian in Cyrillic, sr-el in Latin); qqq, the messages'
// documentation, is no language.
func TestReadMediaWikiCatalog(t *testing.T) {
	dir, commit := gitRepo(t, map[string]string{
		"i18n/en.json":    `{"@metadata": {"authors": ["x"]}, "thanks-submit": "Send thanks", "thanks-button-thank": "{{GENDER:$1|{{GENDER:$2|Thank}}}}", "notice": "You thanked {{GENDER:$2|$1}}."}`,
		"i18n/sr-ec.json": `{"thanks-button-thank": "{{GENDER:$1|{{GENDER:$2|Захвали се}}}}"}`,
		"i18n/sr-el.json": `{"thanks-button-thank": "{{GENDER:$1|{{GENDER:$2|Zahvali se}}}}"}`,
		"i18n/qqq.json":   `{"thanks-submit": "Label of the button that sends thanks."}`,
		"README.md":       "not a catalog",
	})
	c, err := readMediaWikiCatalog("w/thanks", dir, "MIT")
	if err != nil {
		t.Fatal(err)
	}
	if c.commit != commit || c.licence != "MIT" {
		t.Errorf("provenance %s (%s), want %s (MIT)", c.commit, c.licence, commit)
	}
	want := map[string]map[string]string{
		"thanks-submit":       {"en": "Send thanks"},
		"thanks-button-thank": {"en": "Thank", "sr": "Захвали се", "sr-Latn": "Zahvali se"},
		"notice":              {"en": "You thanked %s."},
	}
	for key, tr := range want {
		if !maps.Equal(c.strings[key], tr) {
			t.Errorf("%s = %v, want %v", key, c.strings[key], tr)
		}
	}
	if _, ok := c.strings["@metadata"]; ok {
		t.Error("the metadata was read as a string")
	}
}

// TestWriteVocabularyThanks: the Thanks extension's Send thanks and Thank are sends, unless
// a translation only says thanks — it is the translation of a string that only says thanks
// in some catalog (Romanian Mulțumesc), or one word whose inflected forms hold such a
// string's word (Dutch Bedanken, to thank, and Bedankt!, thanks).
func TestWriteVocabularyThanks(t *testing.T) {
	th := &catalog{repo: thanksRepo, commit: "t1", licence: "MIT", strings: map[string]map[string]string{
		"thanks-submit":       {"en": "Send thanks", "nl": "Bedankje sturen", "ro": "Mulțumesc"},
		"thanks":              {"en": "Send thanks", "nl": "Bedanken"},
		"thanks-button-thank": {"en": "Thank", "sr": "Захвали се", "ro": "Mulțumește"},
	}}
	other := &catalog{repo: "x/other", commit: "o1", licence: "MIT", strings: map[string]map[string]string{
		"done":   {"en": "Thanks!", "nl": "Bedankt!", "ro": "Mulțumesc!"},
		"notice": {"en": "Someone thanks you for an edit", "sr": "Неко вам се захвали"},
	}}
	gen := writeAndRead(t, []*catalog{th, other})
	for _, w := range []string{"bedankje sturen", "захвали се", "mulțumește"} {
		if !slices.ContainsFunc(slices.Collect(maps.Values(gen["send"])), func(ws []string) bool { return slices.Contains(ws, w) }) {
			t.Errorf("send = %v, want %q", gen["send"], w)
		}
	}
	for _, w := range []string{"mulțumesc", "bedanken"} {
		if slices.ContainsFunc(slices.Collect(maps.Values(gen["send"])), func(ws []string) bool { return slices.Contains(ws, w) }) {
			t.Errorf("send = %v: %q only says thanks", gen["send"], w)
		}
	}
}

// TestWriteVocabularyDirections: a send word that is a browser's Forward is a direction
// unless two apps' Forward agree on it and mostly forward with it (Greek Προώθηση); one
// app's (Finnish Eteenpäin, which its translators also write for "from now on") is left
// out, matched by language (Firefox's fi-FI is the other apps' fi).
func TestWriteVocabularyDirections(t *testing.T) {
	mail := func(repo, key string, tr map[string]string) *catalog {
		c := &catalog{repo: repo, commit: "c", licence: "MIT", strings: map[string]map[string]string{}}
		for _, r := range vocabulary[repo] {
			c.strings[r.key] = map[string]string{"en": r.key}
		}
		c.strings[key] = tr
		return c
	}
	tb := mail("thunderbird/thunderbird-android", "forward_action", map[string]string{"en": "Forward", "el": "Προώθηση"})
	tb.strings["forward_as_attachment_action"] = map[string]string{"en": "Forward as attachment", "el": "Προώθηση ως συνημμένο"}
	dc := mail("deltachat/deltachat-android", "forward", map[string]string{"en": "Forward", "el": "Προώθηση", "fi": "Eteenpäin"})
	dc.strings["protected"] = map[string]string{"en": "From now on, messages are encrypted", "fi": "Tästä eteenpäin viestit salataan"}
	ff := mail("mozilla-mobile/firefox-android", "browser_menu_forward", map[string]string{"en": "Forward", "el": "Προώθηση", "fi-FI": "Eteenpäin"})
	ff.strings["browser_menu_back"] = map[string]string{"en": "Back", "el": "Πίσω", "fi-FI": "Taaksepäin"}
	gen := writeAndRead(t, []*catalog{tb, dc, ff})
	if !slices.Contains(gen["send"]["el"], "προώθηση") {
		t.Errorf("send[el] = %v, want προώθηση (two apps' Forward)", gen["send"]["el"])
	}
	if slices.Contains(gen["send"]["fi"], "eteenpäin") {
		t.Errorf("send[fi] = %v: eteenpäin is one app's Forward and the browser's", gen["send"]["fi"])
	}
}

// TestWriteVocabularyShortLatinWords: a learned Latin word of three letters is a particle
// (Dutch uit of "Verwijderen uit …") unless an app's bare verb translates to it (Swedish
// köp, Buy).
func TestWriteVocabularyShortLatinWords(t *testing.T) {
	c := &catalog{repo: "x/y", commit: "c", licence: "MIT", strings: map[string]map[string]string{}}
	add := func(key, en, nl, sv string) { c.strings[key] = map[string]string{"en": en, "nl": nl, "sv": sv} }
	add("r1", "Remove from queue", "Verwijderen uit wachtrij", "Ta bort från kön")
	add("r2", "Remove from favourites", "Verwijderen uit favorieten", "Ta bort från favoriter")
	add("r3", "Remove from list", "Verwijderen uit lijst", "Ta bort från listan")
	add("b1", "Buy", "Kopen", "Köp")
	add("b2", "Buy now", "Nu kopen", "Köp nu")
	add("b3", "Buy premium", "Premium kopen", "Köp premium")
	for i := range 400 {
		add("o"+strconv.Itoa(i), "Other "+strconv.Itoa(i), "Ander "+strconv.Itoa(i), "Annan "+strconv.Itoa(i))
	}
	gen := writeAndRead(t, []*catalog{c})
	if !slices.Contains(gen["delete"]["nl"], "verwijderen") || slices.Contains(gen["delete"]["nl"], "uit") {
		t.Errorf("delete[nl] = %v, want verwijderen and not uit", gen["delete"]["nl"])
	}
	if !slices.Contains(gen["payment"]["sv"], "köp") {
		t.Errorf("payment[sv] = %v, want köp (the bare Buy)", gen["payment"]["sv"])
	}
}

func writeAndRead(t *testing.T, cats []*catalog) map[string]map[string][]string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "vocab.yaml")
	if err := writeVocabulary(path, cats); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var gen map[string]map[string][]string
	if err := yaml.Unmarshal(data, &gen); err != nil {
		t.Fatal(err)
	}
	return gen
}

// TestSharedRoot: the start two Burmese forms of a verb share (ဖျက်ရန်, ဖျက်မည်: ဖျက်), never
// cut inside a syllable, nor a whole word, nor shorter than three characters.
func TestSharedRoot(t *testing.T) {
	for _, tc := range []struct{ a, b, want string }{
		{"ဖျက်ရန်", "ဖျက်မည်", "ဖျက်"},
		{"ပို့ရန်", "ပို့မည်", "ပို့"},
		{"ဖျက်", "ဖျက်မည်", ""}, // one is the other's start: nothing to learn
		{"ပို့ရန်", "တင်မည်", ""},
		{"ကြည့်", "ကြိုး", ""}, // ကြ then a vowel sign: too short once the syllable is kept whole
	} {
		if got := sharedRoot(tc.a, tc.b); got != tc.want {
			t.Errorf("sharedRoot(%q, %q) = %q, want %q", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestWriteVocabularyBurmeseRoot: two Burmese words for one action that share a start
// teach it as the verb; Thai ones do not (ชำระเงิน, payment, is a noun as often).
func TestWriteVocabularyBurmeseRoot(t *testing.T) {
	c := &catalog{repo: "thunderbird/thunderbird-android", commit: "c", licence: "MIT", strings: map[string]map[string]string{}}
	for _, r := range vocabulary[c.repo] {
		c.strings[r.key] = map[string]string{"en": r.key}
	}
	c.strings["delete_action"] = map[string]string{"en": "Delete", "my": "ဖျက်ရန်", "th": "ชำระเงินเลย"}
	c.strings["discard_action"] = map[string]string{"en": "Discard", "my-MM": "ဖျက်မည်", "th-TH": "ชำระเงินด้วย"}
	gen := writeAndRead(t, []*catalog{c})
	if !slices.Contains(gen["delete"]["my"], "ဖျက်") {
		t.Errorf("delete[my] = %v, want ဖျက်", gen["delete"]["my"])
	}
	if slices.Contains(gen["delete"]["th"], "ชำระเงิน") {
		t.Errorf("delete[th] = %v: Thai learns no shared start", gen["delete"]["th"])
	}
}
