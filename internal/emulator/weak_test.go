package emulator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWeakRules: the project's rules weakened at the staged reveals
// differ from them in that rule only, which lets a signed-in user read;
// a match the rules do not have, or whose rule allows already, is an
// error (a control must weaken the rule its test relies on).
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
	weak, err := WeakRules(rules, "/links/{id}")
	if err != nil {
		t.Fatal(err)
	}
	before, after, ok := strings.Cut(rules, "match /links/{id} {\n        allow read, write: if false;\n      }")
	if !ok {
		t.Fatal("the rules' staged-reveal rule is not the one this test knows")
	}
	want := before + "match /links/{id} {\n        allow read: if request.auth != null; // weakened: a positive control\n      }" + after
	if weak != want {
		t.Fatalf("weakened rules:\n%s\nwant:\n%s", weak, want)
	}
	if _, err := WeakRules(rules, "/nowhere/{id}"); err == nil {
		t.Error("a match the rules lack was weakened")
	}
	if _, err := WeakRules(rules, "/log/{seq}"); err == nil {
		t.Error("a rule that allows was taken for one that denies")
	}
}
