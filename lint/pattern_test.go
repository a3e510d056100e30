package lint

import "testing"

func TestPatterns(t *testing.T) {
	var p patterns
	if err := p.Set(" a.com/rng/... , b.com/seed,,c.com/*/tools/...,d.com/x/*"); err != nil {
		t.Fatal(err)
	}
	if got := p.String(); got != "a.com/rng/...,b.com/seed,c.com/*/tools/...,d.com/x/*" {
		t.Fatalf("String() = %q", got)
	}
	for path, want := range map[string]bool{
		"a.com/rng":          true,  // the root of a subtree
		"a.com/rng/chacha":   true,  // below it
		"a.com/rng_test":     true,  // its external tests
		"a.com/rngx":         false, // a sibling sharing a prefix
		"a.com":              false,
		"b.com/seed":         true,
		"b.com/seed_test":    true,
		"b.com/seed/sub":     false, // exact pattern: no subtree
		"c.com/anything/...": false,
		"c.com/pig/tools":    true, // "*" is any one segment
		"c.com/pig/tools/x":  true,
		"c.com/tools":        false, // "*" is one segment, not none
		"c.com/a/b/tools":    false, // nor two
		"c.com/pig/toolsx":   false,
		"c.com/pig":          false,
		"d.com/x/y":          true,
		"d.com/x/y_test":     true,
		"d.com/x/y/z":        false,
		"d.com/x":            false,
	} {
		if got := p.match(path); got != want {
			t.Errorf("match(%q) = %v, want %v", path, got, want)
		}
	}
	if err := p.Set(""); err != nil || len(p) != 0 || p.match("a.com/rng") {
		t.Errorf(`Set("") left %v`, p)
	}
}
