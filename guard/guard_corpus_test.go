package guard

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/fairy-go/fairy/event"
	"github.com/fairy-go/fairy/perception"
)

// corpusItem is one label of testdata/guard/corpus.json on its page (made by
// guard/internal/guardgen from real apps' translated strings that the vocabulary was
// not made from).
type corpusItem struct {
	Locale   string   `json:"locale"`
	Label    string   `json:"label"`
	Category string   `json:"category"`
	Source   string   `json:"source"`
	Title    string   `json:"title"`
	Others   []string `json:"others"`
	Amount   string   `json:"amount"`
	PIN      bool     `json:"pin"`
	Top      bool     `json:"top"`
}

func loadCorpus(t testing.TB) []corpusItem {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "guard", "corpus.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c struct{ Items []corpusItem }
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	return c.Items
}

// page puts the item's label on its page as a button: at the bottom (the others above
// it), or at the top; with the page's title, amount and PIN field.
func (c corpusItem) page() (*perception.Screen, *perception.Element) {
	s := &perception.Screen{Signature: "corpus", Width: 1080, Height: 2400, Context: []string{c.Title}}
	if c.Amount != "" {
		s.Context = append(s.Context, c.Amount)
	}
	if c.PIN {
		s.Elements = append(s.Elements, perception.Element{Index: 1, Role: "input", Editable: true, Password: true, Class: "android.widget.EditText",
			Bounds: perception.Bounds{X1: 100, Y1: 600, X2: 980, Y2: 700}})
	}
	labels := append(slices.Clone(c.Others), c.Label)
	if c.Top {
		labels = append([]string{c.Label}, c.Others...)
	}
	target := 0
	for i, l := range labels {
		el := button(len(s.Elements)+1, l, 1000+200*i)
		if l == c.Label && target == 0 {
			target = len(s.Elements)
		}
		s.Elements = append(s.Elements, el)
	}
	return s, &s.Elements[target]
}

// scriptGroup names the group of scripts a label is written in.
func scriptGroup(label string) string {
	for _, r := range label {
		switch {
		case !unicode.IsLetter(r):
			continue
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul):
			return "CJK"
		case unicode.In(r, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar):
			return "Southeast Asian"
		case unicode.In(r, unicode.Devanagari, unicode.Bengali, unicode.Gurmukhi, unicode.Gujarati, unicode.Oriya, unicode.Tamil,
			unicode.Telugu, unicode.Kannada, unicode.Malayalam, unicode.Sinhala):
			return "Indic"
		case unicode.In(r, unicode.Arabic, unicode.Hebrew, unicode.Syriac, unicode.Thaana):
			return "Arabic/Hebrew"
		case unicode.In(r, unicode.Cyrillic, unicode.Greek, unicode.Armenian, unicode.Georgian):
			return "Cyrillic/Greek/Caucasian"
		case unicode.Is(unicode.Latin, r):
			return "Latin"
		}
		return "other"
	}
	return "other"
}

// topLocales are 40 of the languages most used on Android phones.
var topLocales = strings.Fields("en zh es pt ru ja de fr ko it tr id vi th ar hi pl nl uk fa ms bn cs ro hu el sv he da fi nb sk bg hr sr ca lt ta te ur")

// corpusScore is the guard's figures on the corpus, per script group.
type corpusScore struct {
	sensitive, held, harmless, falseHolds int
	languages                             map[string]bool
	misses                                []string
}

func scoreCorpus(g *Guard, items []corpusItem) map[string]*corpusScore {
	out := map[string]*corpusScore{}
	tap := event.Action{Type: event.Tap, Index: 1}
	for _, c := range items {
		grp := scriptGroup(c.Label)
		sc := out[grp]
		if sc == nil {
			sc = &corpusScore{languages: map[string]bool{}}
			out[grp] = sc
		}
		sc.languages[strings.Split(c.Locale, "-")[0]] = true
		s, el := c.page()
		_, hit := g.Check(tap, el, s)
		if c.Category != "" {
			sc.sensitive++
			if hit {
				sc.held++
			} else {
				sc.misses = append(sc.misses, fmt.Sprintf("missed %s %q (%s)", c.Locale, c.Label, c.Source[strings.LastIndex(c.Source, ":")+1:]))
			}
		} else {
			sc.harmless++
			if hit {
				sc.falseHolds++
				sc.misses = append(sc.misses, fmt.Sprintf("held %s %q (%s)", c.Locale, c.Label, c.Source[strings.LastIndex(c.Source, ":")+1:]))
			}
		}
	}
	return out
}

// corpusFloors are the figures the guard reaches on the corpus today, per group of scripts,
// as recall and false-hold rates: a change that lowers recall or raises false holds past
// them fails; topCorpusFloors are the same for the forty most used locales. Recall is NOT
// issue 24's goal (≥ 99%), which the held-out corpus shows is not reached (false holds are
// within ≤ 1% in every group). What is missed is mostly synonyms and other verbs no
// source string teaches — thanking worded unlike MediaWiki's Thanks extension and the
// Commons app ("Στείλε ευχαριστίες", "Ucap terima kasih", 發送感謝), cleaning ("Rens
// beskeder"), aborting or throwing away ("Bericht afbreken", "Išmesti laišką", 메시지
// 버림), a Forward whose word is also Move (Hebrew העבר), saving for publishing
// ("Salvează modificările"), Clear beside a list ("Cancella elenco"), short inflections
// ("Изтрите", "Invio", "Terbit") — translations that say something else ("رسائل واضحة",
// clear as an adjective; "Tin nhắn đã hủy", message cancelled; "Написать", write) and,
// beyond the forty most used locales, languages few catalogs translate to.
var corpusFloors = map[string][2]float64{
	"Arabic/Hebrew":            {0.81, 0.01},
	"CJK":                      {0.96, 0.01},
	"Cyrillic/Greek/Caucasian": {0.80, 0.01},
	"Indic":                    {0.82, 0.01},
	"Latin":                    {0.88, 0.01},
	"Southeast Asian":          {0.74, 0.01},
	"other":                    {0.71, 0.01},
}

var topCorpusFloors = map[string][2]float64{
	"Arabic/Hebrew":            {0.93, 0.01},
	"CJK":                      {0.96, 0.01},
	"Cyrillic/Greek/Caucasian": {0.95, 0.01},
	"Indic":                    {0.96, 0.01},
	"Latin":                    {0.97, 0.01},
	"Southeast Asian":          {1, 0.01},
}

// TestGuardCorpus measures the guard on labels and pages from real apps' strings in over
// a hundred locales, held out from the vocabulary, per group of scripts, and holds it to
// corpusFloors.
//
//	go test ./guard -run TestGuardCorpus -v
//
// With GUARD_CORPUS_MISSES=1 it lists every miss and false hold.
func TestGuardCorpus(t *testing.T) {
	items := loadCorpus(t)
	langs := map[string]bool{}
	sens, harm := 0, 0
	for _, c := range items {
		langs[strings.Split(c.Locale, "-")[0]] = true
		if c.Category != "" {
			sens++
		} else {
			harm++
		}
	}
	if sens < 300 || harm < 300 || len(langs) < 30 {
		t.Fatalf("the corpus has %d sensitive and %d harmless labels in %d languages; want 300, 300 and 30", sens, harm, len(langs))
	}
	g := defaultGuard(t)
	var top []corpusItem
	for _, c := range items {
		if slices.Contains(topLocales, strings.Split(c.Locale, "-")[0]) {
			top = append(top, c)
		}
	}
	topScores := scoreCorpus(g, top)
	for _, grp := range slices.Sorted(maps.Keys(topScores)) {
		sc := topScores[grp]
		recall := float64(sc.held) / float64(max(sc.sensitive, 1))
		falseHolds := float64(sc.falseHolds) / float64(max(sc.harmless, 1))
		t.Logf("top-40 locales, %-26s %2d languages: recall %5.1f%% (%d/%d), false holds %4.1f%% (%d/%d)", grp, len(sc.languages),
			100*recall, sc.held, sc.sensitive, 100*falseHolds, sc.falseHolds, sc.harmless)
		floor, ok := topCorpusFloors[grp]
		if !ok {
			t.Errorf("top-40 group %s has no floor", grp)
			continue
		}
		if recall < floor[0] || falseHolds > floor[1] {
			t.Errorf("top-40 locales, %s: recall %.1f%%, false holds %.1f%%; the floor is %.0f%% and %.1f%%:\n%s", grp, 100*recall,
				100*falseHolds, 100*floor[0], 100*floor[1], strings.Join(sc.misses, "\n"))
		}
	}
	scores := scoreCorpus(g, items)
	groups := make([]string, 0, len(scores))
	for g := range scores {
		groups = append(groups, g)
	}
	slices.Sort(groups)
	for _, grp := range groups {
		sc := scores[grp]
		recall := float64(sc.held) / float64(max(sc.sensitive, 1))
		falseHolds := float64(sc.falseHolds) / float64(max(sc.harmless, 1))
		t.Logf("%-26s %3d languages: recall %5.1f%% (%d/%d), false holds %4.1f%% (%d/%d)", grp, len(sc.languages),
			100*recall, sc.held, sc.sensitive, 100*falseHolds, sc.falseHolds, sc.harmless)
		if os.Getenv("GUARD_CORPUS_MISSES") != "" {
			t.Logf("%s misses and false holds:\n%s", grp, strings.Join(sc.misses, "\n"))
		}
		floor, ok := corpusFloors[grp]
		if !ok {
			t.Errorf("group %s has no floor", grp)
			continue
		}
		if recall < floor[0] || falseHolds > floor[1] {
			t.Errorf("%s: recall %.1f%%, false holds %.1f%%; the floor is %.0f%% and %.1f%%:\n%s", grp, 100*recall, 100*falseHolds,
				100*floor[0], 100*floor[1], strings.Join(sc.misses, "\n"))
		}
	}
}

// BenchmarkGuardCorpus reports the guard's recall and false holds on the corpus, and what
// judging one of its pages costs.
func BenchmarkGuardCorpus(b *testing.B) {
	items := loadCorpus(b)
	g := defaultGuard(b)
	var scores map[string]*corpusScore
	for b.Loop() {
		scores = scoreCorpus(g, items)
	}
	var held, sens, fh, harm int
	for _, sc := range scores {
		held, sens, fh, harm = held+sc.held, sens+sc.sensitive, fh+sc.falseHolds, harm+sc.harmless
	}
	b.ReportMetric(100*float64(held)/float64(sens), "recall%")
	b.ReportMetric(100*float64(fh)/float64(harm), "falsehold%")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(items)), "ns/page")
}
