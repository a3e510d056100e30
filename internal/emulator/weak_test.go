package emulator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWeakRules: the project's rules weakened at the staged reveals
// differ from them in that rule only, which lets every signed-in user in;
// weakened at a game, in the game's own statements only (not its nested
// matches'); a match the rules do not have, or one that lets every
// signed-in user in already, is an error (a control must weaken the rule
// its test relies on).
func TestWeakRules(t *testing.T) {
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "firestore.rules"))
	if err != nil {
		t.Fatal(err)
	}
	rules := string(b)
	for _, c := range []struct{ match, own string }{
		{"/links/{id}", "\n        allow read, write: if false;\n"},
		{"/games/{gameId}", "\n      allow read: if isSeated(resource.data);\n      allow write: if false;\n"},
	} {
		weak, err := WeakRules(rules, c.match)
		if err != nil {
			t.Fatal(err)
		}
		head := "match " + c.match + " {"
		before, after, ok := strings.Cut(rules, head+c.own)
		if !ok {
			t.Fatalf("the rules' %s rule is not the one this test knows", c.match)
		}
		want := before + head + "\n        allow read, write: if request.auth != null; // weakened: a positive control\n" + after
		if c.match == "/games/{gameId}" {
			want = before + head + "\n      allow read, write: if request.auth != null; // weakened: a positive control\n" + after
		}
		if weak != want {
			t.Fatalf("weakened at %s:\n%s\nwant:\n%s", c.match, weak, want)
		}
		if _, err := WeakRules(weak, c.match); err == nil {
			t.Errorf("%s weakened twice", c.match)
		}
	}
	if _, err := WeakRules(rules, "/nowhere/{id}"); err == nil {
		t.Error("a match the rules lack was weakened")
	}
}
