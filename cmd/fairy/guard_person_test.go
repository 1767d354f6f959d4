package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/viper"

	"github.com/fairy-go/fairy/perception"
)

// personConfig is a config file a person wrote by hand: other settings, comments above,
// beside and below keys, and a guard section of their own.
const personConfig = `# my fairy settings
model:
  base-url: http://localhost:11434/v1 # ollama on this machine
  default: qwen2.5-vl
agent:
  max-steps: 40 # long tasks
guard:
  # words my bank uses
  keywords:
    payment: [abonar]
# the end
`

// TestGuardAddListRemove: `fairy guard add` writes the person's rule into their config
// file, `list` shows it, `remove N` takes it out; the other settings and the comments stay,
// the file keeps its permissions and no temporary file is left beside it.
func TestGuardAddListRemove(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte(personConfig), 0o640); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": dir}
	run := func(args ...string) (int, string, string) {
		return execRoot(t, env, "", append([]string{"--config", cfg, "guard"}, args...)...)
	}
	for _, add := range [][]string{
		{"add", "never", "delete", "--app", "com.fairy.notes"},
		{"add", "allow", "payment", "--app", "com.fairy.shop", "--up-to", "¥20"},
		{"add", "allow", "send", "--app", "com.fairy.messages", "--to", "Alice Chen"},
		{"add", "allow", "login"},
	} {
		if code, out, errOut := run(add...); code != 0 || !strings.HasPrefix(out, "added ") {
			t.Fatalf("fairy guard %s: exit %d\n%s%s", strings.Join(add, " "), code, out, errOut)
		}
	}
	code, out, errOut := run("list")
	if code != 0 {
		t.Fatalf("list: exit %d\n%s", code, errOut)
	}
	for _, want := range []string{"1  never    delete    com.fairy.notes", "up to ¥20", `to "Alice Chen"`, "4  allow    login     (every app)"} {
		if !strings.Contains(out, want) {
			t.Errorf("list lacks %q:\n%s", want, out)
		}
	}
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, kept := range []string{"# my fairy settings", "# ollama on this machine", "# long tasks", "# words my bank uses", "# the end", "payment: [abonar]"} {
		if !strings.Contains(string(data), kept) {
			t.Errorf("the config file lost %q:\n%s", kept, data)
		}
	}
	v := viper.New()
	v.SetConfigFile(cfg)
	if err := v.ReadInConfig(); err != nil {
		t.Fatal(err)
	}
	if v.GetString("model.default") != "qwen2.5-vl" || v.GetInt("agent.max-steps") != 40 || len(v.GetStringSlice("guard.keywords.payment")) != 1 {
		t.Errorf("the other settings changed:\n%s", data)
	}
	if st, err := os.Stat(cfg); err != nil || st.Mode().Perm() != 0o640 {
		t.Errorf("the config file's mode: %v %v", st.Mode(), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files beside the config: %v", entries)
	}

	// The same rule again is refused; so are rules that cannot be applied.
	for _, bad := range []struct{ args []string }{
		{[]string{"add", "never", "delete", "--app", "com.fairy.notes"}},
		{[]string{"add", "sometimes", "delete"}},
		{[]string{"add", "allow", "paymnet"}},
		{[]string{"add", "never", "payment", "--up-to", "20"}},
		{[]string{"add", "allow", "payment", "--up-to", "lots"}},
		{[]string{"add", "allow", "delete", "--to", "Bob"}},
		{[]string{"remove", "9"}},
		{[]string{"remove", "first"}},
	} {
		before, _ := os.ReadFile(cfg)
		code, out, errOut := run(bad.args...)
		after, _ := os.ReadFile(cfg)
		if code != 2 || errOut == "" || string(before) != string(after) {
			t.Errorf("fairy guard %s: exit %d, want 2 with a reason and the file unchanged\n%s%s", strings.Join(bad.args, " "), code, out, errOut)
		}
	}

	if code, out, errOut := run("remove", "2"); code != 0 || !strings.Contains(out, "removed 2. allow payment up to ¥20 in com.fairy.shop") {
		t.Fatalf("remove 2: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = run("list", "--format", "json")
	var rows []personRuleJSON
	if err := json.Unmarshal([]byte(out), &rows); code != 0 || err != nil {
		t.Fatalf("list --format json: exit %d, %v\n%s", code, err, out)
	}
	if len(rows) != 3 || rows[1].Category != "send" || rows[1].To != "Alice Chen" || rows[2].N != 3 || rows[2].Category != "login" {
		t.Errorf("after remove 2: %+v", rows)
	}
	data, _ = os.ReadFile(cfg)
	if !strings.Contains(string(data), "# the end") || strings.Contains(string(data), "¥20") {
		t.Errorf("after remove 2:\n%s", data)
	}
}

// TestGuardAddMakesTheConfig: with no config file yet, `fairy guard add` makes the default
// one (readable by its owner only), and a run's settings read the rule back.
func TestGuardAddMakesTheConfig(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{"HOME": home}
	if code, out, errOut := execRoot(t, env, "", "guard", "add", "never", "delete", "--app", "com.fairy.notes"); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	path := filepath.Join(home, ".config", "fairy", "config.yaml")
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the config file: %v %v", st, err)
	}
	code, out, _ := execRoot(t, env, "", "guard")
	if code != 0 || !strings.Contains(out, "never    delete    com.fairy.notes") {
		t.Errorf("fairy guard: exit %d\n%s", code, out)
	}
}

// TestGuardPersonConfigChecked: a rule written by hand that cannot be applied stops fairy
// with the file and line (the strict config check) or the rule and what to do.
func TestGuardPersonConfigChecked(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"guard:\n  person:\n    - {category: delete, verdict: sometimes}\n", "config.yaml:3: guard.person[0].verdict"},
		{"guard:\n  person:\n    - {category: delete, verdict: never, when: always}\n", "guard.person[0].when: unknown key"},
		{"guard:\n  person:\n    - {category: paymnet, verdict: allow}\n", `unknown category "paymnet"`},
		{"guard:\n  person:\n    - {category: payment, verdict: allow, up-to: lots}\n", "no number"},
	} {
		cfg := filepath.Join(t.TempDir(), "config.yaml")
		if err := os.WriteFile(cfg, []byte(c.yaml), 0o600); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := execRoot(t, map[string]string{"HOME": t.TempDir()}, "", "--config", cfg, "guard", "list")
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, want 2 with %q\n%s%s", c.yaml, code, c.want, out, errOut)
		}
	}
}

// TestGuardExplain: `fairy guard explain DUMP.xml` says, for each element of a screen the
// virtual phone drew (and of a real phone's dump from the corpus), whether a run would act
// on it unasked, ask first or refuse it, the words or page cues that decided, and which of
// the person's rules changed the verdict and why.
func TestGuardExplain(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte(personRulesConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	phone := personPhone(t)
	dump := func(name string, launch string, taps ...string) string {
		t.Helper()
		var b strings.Builder
		if _, err := phone.Shell(t.Context(), "monkey -p "+launch+" -c android.intent.category.LAUNCHER 1", &b); err != nil {
			t.Fatal(err)
		}
		for _, label := range taps {
			s, err := perception.Parse(phone.Dump())
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(s.Elements, func(e perception.Element) bool { return e.Label == label })
			if i < 0 {
				t.Fatalf("no %q on %s", label, launch)
			}
			c := s.Elements[i].Center
			if _, err := phone.Shell(t.Context(), fmt.Sprintf("input tap %d %d", c.X, c.Y), &b); err != nil {
				t.Fatal(err)
			}
		}
		path := filepath.Join(dir, name+".xml")
		if err := os.WriteFile(path, phone.Dump(), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	corpus := filepath.Join("..", "..", "testdata", "android-corpus", "dumps", "google-messages-720x1536.xml")
	for _, c := range []struct {
		name, path string
		want       []string
	}{
		{"pay18", dump("pay18", "com.fairy.person.pay18"), []string{
			`"Pay ¥18" — free (payment): its words "pay" and its resource id com.fairy.person.pay18:id/pay; your rule allows it: allow payment up to ¥20 in every app (the largest amount shown, ¥18, is within ¥20)`}},
		{"pay36", dump("pay36", "com.fairy.person.pay36"), []string{
			`"Pay ¥36" — held (payment): its words "pay" and its resource id com.fairy.person.pay36:id/pay; your rule allow payment up to ¥20 in every app does not apply: the largest amount shown, ¥36, is more than ¥20`,
			"1 held (asked first), 0 refused by your rules, 0 free"}},
		{"chat", dump("chat", "com.fairy.person.chat"), []string{
			`"Send" — free (send): its words "send"; your rule allows it: allow send to "Alice Chen" in every app (the page's recipient is "Alice Chen")`}},
		{"lookalike", dump("lookalike", "com.fairy.person.lookalike"), []string{
			`"Send" — held (send): its words "send"; your rule allow send to "Alice Chen" in every app does not apply: the page's recipient "Аlice Chen" is not "Alice Chen"`}},
		{"login", dump("login", "com.fairy.person.login"), []string{
			`"Send code" — free (send): its words "send"; your rule allows it: allow login in every app (the page is a sign-in form)`}},
		{"a note", dump("note", "com.fairy.notes", "Shopping list"), []string{
			`"Delete note" — never (delete): its words "delete"; your rule refuses it: never delete in com.fairy.notes`,
			`"Navigate up" — free: a way out`}},
		{"a real phone's conversation", corpus, []string{
			`"Send message" — held (send): its words "send", "send message"; your rule allow send to "Alice Chen" in every app does not apply`,
			`"Back" — free: a way out`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := execRoot(t, map[string]string{"HOME": dir}, "", "--config", cfg, "guard", "explain", c.path)
			if code != 0 {
				t.Fatalf("exit %d\n%s%s", code, out, errOut)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("explain lacks %s\n%s", w, out)
				}
			}
		})
	}
	if code, _, errOut := execRoot(t, map[string]string{"HOME": dir}, "", "--config", cfg, "guard", "explain", filepath.Join(dir, "none.xml")); code != 2 || !strings.Contains(errOut, "none.xml") {
		t.Errorf("a missing dump: exit %d, %s", code, errOut)
	}
}
