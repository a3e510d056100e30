package lint

import "strings"

// patterns is a comma-separated list of import-path patterns, usable as a
// flag. A pattern ending in "/..." matches that path and every path below it;
// any other pattern matches exactly that path. A segment "*" matches any one
// segment ("m/games/*/tools/..." matches "m/games/pig/tools/sim").
type patterns []string

// String returns the patterns joined by commas, as Set accepts them.
func (p *patterns) String() string { return strings.Join(*p, ",") }

// Set replaces the patterns with the comma-separated list s. Empty items are
// ignored, so "" clears the list. It never fails.
func (p *patterns) Set(s string) error {
	*p = nil
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			*p = append(*p, item)
		}
	}
	return nil
}

// match reports whether the import path matches any pattern. The path of an
// external test package ("p_test") is matched as its package ("p"), so a
// package's pattern covers its tests.
func (p patterns) match(path string) bool {
	path = strings.TrimSuffix(path, "_test")
	for _, pat := range p {
		if root, ok := strings.CutSuffix(pat, "/..."); ok {
			if under(path, root) {
				return true
			}
		} else if same(path, pat) {
			return true
		}
	}
	return false
}

// same reports whether path is pat, segment for segment, "*" matching any
// one segment.
func same(path, pat string) bool {
	ps, qs := strings.Split(path, "/"), strings.Split(pat, "/")
	if len(ps) != len(qs) {
		return false
	}
	for i, q := range qs {
		if q != "*" && q != ps[i] {
			return false
		}
	}
	return true
}

// under reports whether path is root or below it ("*" segments as in same).
func under(path, root string) bool {
	n := strings.Count(root, "/") + 1
	ps := strings.SplitN(path, "/", n+1)
	if len(ps) < n {
		return false
	}
	return same(strings.Join(ps[:n], "/"), root)
}
