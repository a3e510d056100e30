package fstables

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/internal/repo"
)

// The public document's three readers' types: games/{id} as written
// (publicDoc, firestore tags), getView's answer (functions.TableView,
// json tags: the page's polling and its first read) and the page's own
// TypeScript types of the document (web/play/src/tabledocs.ts, with the
// seats', outcome's and fairness' types of tablewords.ts and
// tablefair.ts), which it turns into the view getView would answer
// (viewOfDocs). A field added to one and not the others is either read
// nowhere or read as absent: TestPublicDocFieldsAgree fails on it.

// tagNames lists the field names of a struct type under the tag key
// (firestore or json): the tag's name, the Go name when it has none;
// "-" fields are left out. Sorted.
func tagNames(t reflect.Type, key string) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get(key), ",")
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// tsMember is one member of a TypeScript object type: its name and its
// type's text.
type tsMember struct{ name, typ string }

// tsMembers reads the members of the object type whose "{" is at
// src[open], up to its "}": each "name:" or "name?:" (readonly or not)
// at its first level, with the text of its type up to the ";". Comments
// and string literals are skipped; nested object, function and generic
// types are part of a member's type. An error if the braces do not close
// or a member is not "name: type".
func tsMembers(src string, open int) ([]tsMember, error) {
	if open >= len(src) || src[open] != '{' {
		return nil, fmt.Errorf("no { at %d", open)
	}
	var out []tsMember
	depth, start := 1, -1 // start: where the current member's type begins
	ident := regexp.MustCompile(`^(?:readonly\s+)?([A-Za-z_$][\w$]*)\s*\??\s*:`)
	for i := open + 1; i < len(src); i++ {
		switch c := src[i]; {
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return nil, fmt.Errorf("comment at %d does not close", i)
			}
			i += 2 + end + 1
		case strings.HasPrefix(src[i:], "//"):
			end := strings.IndexByte(src[i:], '\n')
			if end < 0 {
				return nil, fmt.Errorf("comment at %d does not close", i)
			}
			i += end
		case c == '"' || c == '\'' || c == '`':
			end := strings.IndexByte(src[i+1:], c)
			if end < 0 {
				return nil, fmt.Errorf("string at %d does not close", i)
			}
			i += 1 + end
		case strings.HasPrefix(src[i:], "=>"):
			i++
		case c == '{' || c == '(' || c == '[' || c == '<':
			depth++
		case c == '}' || c == ')' || c == ']' || c == '>':
			depth--
			if depth == 0 {
				if start >= 0 {
					out[len(out)-1].typ = strings.TrimSpace(src[start:i])
				}
				return out, nil
			}
		case depth == 1 && c == ';':
			if start < 0 {
				return nil, fmt.Errorf("a ; without a member at %d", i)
			}
			out[len(out)-1].typ = strings.TrimSpace(src[start:i])
			start = -1
		case depth == 1 && start < 0 && c > ' ':
			m := ident.FindStringSubmatch(src[i:])
			if m == nil {
				return nil, fmt.Errorf("not a member at %d: %.40q", i, src[i:])
			}
			out = append(out, tsMember{name: m[1]})
			i += len(m[0]) - 1
			start = i + 1
		}
	}
	return nil, fmt.Errorf("the { at %d does not close", open)
}

// tsInterface reads the members of the exported interface name in src.
func tsInterface(src, name string) ([]tsMember, error) {
	loc := regexp.MustCompile(`export interface ` + name + `\s*\{`).FindStringIndex(src)
	if loc == nil {
		return nil, fmt.Errorf("no export interface %s", name)
	}
	return tsMembers(src, loc[1]-1)
}

// tsNames are the members' names, sorted.
func tsNames(ms []tsMember) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.name)
	}
	sort.Strings(out)
	return out
}

// tsType is the type of member name, or "" when there is none.
func tsType(ms []tsMember, name string) string {
	for _, m := range ms {
		if m.name == name {
			return m.typ
		}
	}
	return ""
}

// fieldDrift compares two sorted lists of names: what a has and b has
// not, and what b has and a has not, minus the differences allowed (by
// name, each with its reason), which must each be one. renamed maps a's
// names to b's.
func fieldDrift(a, b []string, renamed map[string]string, onlyA, onlyB map[string]string) []string {
	inA, inB := map[string]bool{}, map[string]bool{}
	for _, n := range a {
		if r, ok := renamed[n]; ok {
			n = r
		}
		inA[n] = true
	}
	for _, n := range b {
		inB[n] = true
	}
	var out []string
	for n := range inA {
		if !inB[n] && onlyA[n] == "" {
			out = append(out, "only in the first: "+n)
		}
	}
	for n := range inB {
		if !inA[n] && onlyB[n] == "" {
			out = append(out, "only in the second: "+n)
		}
	}
	for n := range onlyA {
		if !inA[n] || inB[n] {
			out = append(out, "listed as the first's alone, and is not: "+n)
		}
	}
	for n := range onlyB {
		if !inB[n] || inA[n] {
			out = append(out, "listed as the second's alone, and is not: "+n)
		}
	}
	sort.Strings(out)
	return out
}

// pageTypes are the page's TypeScript types of the table: TableDoc, and
// the types its members name.
type pageTypes struct {
	doc, seat, outcome, fairness, openings []tsMember
}

// readPageTypes reads them from the page's sources (tabledocs.ts,
// tablewords.ts, tablefair.ts; src maps each file's name to its text).
func readPageTypes(src map[string]string) (pageTypes, error) {
	var p pageTypes
	var err error
	if p.doc, err = tsInterface(src["tabledocs.ts"], "TableDoc"); err != nil {
		return p, err
	}
	if p.seat, err = tsInterface(src["tablewords.ts"], "TableSeat"); err != nil {
		return p, err
	}
	view, err := tsInterface(src["tablewords.ts"], "TableView")
	if err != nil {
		return p, err
	}
	// TableView's outcome is an object type of its own, "{...} | null".
	out := tsType(view, "outcome")
	if !strings.HasPrefix(out, "{") {
		return p, fmt.Errorf("TableView's outcome is %q, not an object type", out)
	}
	if p.outcome, err = tsMembers(out, 0); err != nil {
		return p, err
	}
	if p.fairness, err = tsInterface(src["tablefair.ts"], "TableFairness"); err != nil {
		return p, err
	}
	p.openings, err = tsInterface(src["tablefair.ts"], "TableOpenings")
	return p, err
}

// publicDocDrift is every disagreement between the three readers' types,
// the page's as read from src.
func publicDocDrift(src map[string]string) ([]string, error) {
	page, err := readPageTypes(src)
	if err != nil {
		return nil, err
	}
	var out []string
	add := func(what string, drift []string) {
		for _, d := range drift {
			out = append(out, what+": "+d)
		}
	}
	fs := func(v any) []string { return tagNames(reflect.TypeOf(v), "firestore") }
	js := func(v any) []string { return tagNames(reflect.TypeOf(v), "json") }

	// The members of TableDoc that name the nested types must name the
	// types compared below.
	for name, want := range map[string]string{"seats": "TableSeat[]", "outcome": `TableView["outcome"]`, "fairness": "TableFairness"} {
		if got := tsType(page.doc, name); got != want {
			out = append(out, fmt.Sprintf("TableDoc's %s is %q, not %q", name, got, want))
		}
	}

	// games/{id} as written, and as the page reads it.
	add("publicDoc vs tabledocs.ts TableDoc", fieldDrift(fs(publicDoc{}), tsNames(page.doc), nil, map[string]string{
		"playerUids":   "the security rules' list of the seated (firestore.rules); the page finds its seat in seats",
		"rules":        "the page takes the ruleset from getView, its first read (tablegame.ts); a view of the documents has none",
		"rulesHash":    "as rules",
		"tableDueAt":   "the sweep's query of due rounds (due.go)",
		"tableActedAt": "the idle sweep's query (idle.go)",
	}, nil))
	// games/{id} as written, and getView's answer, which the page shows
	// the same way (viewOfDocs makes the one of the other).
	add("publicDoc vs functions.TableView", fieldDrift(fs(publicDoc{}), js(functions.TableView{}),
		map[string]string{"ownerUid": "owner"},
		map[string]string{"playerUids": "as above", "tableDueAt": "as above", "tableActedAt": "as above"},
		map[string]string{
			"gameId":     "the document's id",
			"seat":       "the caller's: found in seats",
			"private":    "the seat's own document, games/{id}/seats/{seat}",
			"legal":      "getView's alone: the page reads it once per version at which it is to move",
			"log":        "the log's documents, games/{id}/log",
			"names":      "games/{id}/names/all",
			"spectating": "the caller's",
			"trustless":  "a trustless table's protocol: its page reads getView (tablegame.ts)",
		}))

	// The nested types: the same fields in all three.
	nested := []struct {
		what     string
		doc, api []string
		page     []tsMember
	}{
		{"seats", fs(seatDoc{}), js(functions.TableSeat{}), page.seat},
		{"outcome", fs(outcomeDoc{}), js(functions.TableOutcome{}), page.outcome},
		{"fairness", fs(fairnessDoc{}), js(functions.TableFairness{}), page.fairness},
		{"fairness.openings", fs(openingsDoc{}), js(functions.TableOpenings{}), page.openings},
	}
	for _, n := range nested {
		add(n.what+": the document vs getView", fieldDrift(n.doc, n.api, nil, nil, nil))
		add(n.what+": the document vs the page", fieldDrift(n.doc, tsNames(n.page), nil, nil, nil))
	}
	return out, nil
}

// readPageSources reads the page's sources that hold its table types.
func readPageSources(t *testing.T) map[string]string {
	t.Helper()
	root, err := repo.Root()
	require.NoError(t, err)
	src := map[string]string{}
	for _, f := range []string{"tabledocs.ts", "tablewords.ts", "tablefair.ts"} {
		b, err := os.ReadFile(filepath.Join(root, "web", "play", "src", f))
		require.NoError(t, err)
		src[f] = string(b)
	}
	return src
}

// TestPublicDocFieldsAgree: the public document (publicDoc and its
// nested types), getView's table types (functions.TableView and its
// nested types) and the page's TypeScript types of the document carry
// the same fields, but for the differences listed with their reasons;
// a listed difference that is none fails too. The sides are independent
// declarations (Go tags, TypeScript source). Controls: the page's
// TableDoc without its toMove, the page's openings with a field of its
// own, and a difference listed that is none are each caught.
func TestPublicDocFieldsAgree(t *testing.T) {
	src := readPageSources(t)
	drift, err := publicDocDrift(src)
	require.NoError(t, err)
	require.Empty(t, drift, "the public document's readers disagree")

	// The controls, on altered copies of the page's sources.
	cp := func(file, old, new string) map[string]string {
		t.Helper()
		require.Equal(t, 1, strings.Count(src[file], old), "%s holds %q once", file, old)
		c := map[string]string{}
		for k, v := range src {
			c[k] = v
		}
		c[file] = strings.Replace(src[file], old, new, 1)
		return c
	}
	drift, err = publicDocDrift(cp("tabledocs.ts", "  toMove: number;\n", ""))
	require.NoError(t, err)
	require.Equal(t, []string{"publicDoc vs tabledocs.ts TableDoc: only in the first: toMove"}, drift)
	drift, err = publicDocDrift(cp("tablefair.ts", "  opened: boolean[];\n", "  opened: boolean[];\n  /** a field of the page's own */\n  closedAt?: number;\n"))
	require.NoError(t, err)
	require.Equal(t, []string{"fairness.openings: the document vs the page: only in the second: closedAt"}, drift)
	require.Equal(t, []string{"listed as the first's alone, and is not: toMove"},
		fieldDrift([]string{"toMove"}, []string{"toMove"}, nil, map[string]string{"toMove": "stale"}, nil))
}
