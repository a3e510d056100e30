package game

import (
	"errors"
	"fmt"
)

// ValidateDefinition returns an error naming every problem of def's
// declarations, or nil: a name that is not lower-case letters, digits and
// '-'; a seat range with Min < 1, Default outside [Min, Max]; a move kind,
// argument, event type or field whose name is empty or not [A-Za-z0-9_]
// (their names are written unescaped in canonical bytes), repeated, or
// "seat" or "kind" for an argument; more than MaxArgs arguments or MaxVals
// fields; an argument with Min > Max; a parameter whose default is outside
// its range; a style without a constructor or a default outside its range.
func ValidateDefinition(def Definition) error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if !nameOK(def.Name(), "abcdefghijklmnopqrstuvwxyz0123456789-") {
		bad("game name %q: lower-case letters, digits and '-' only", def.Name())
	}
	s := def.Seats()
	if s.Min < 1 || s.Default < s.Min || s.Default > s.Max {
		bad("seats %d..%d default %d: want 1 <= min <= default <= max", s.Min, s.Max, s.Default)
	}
	const ident = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"
	seen := map[string]bool{}
	for _, o := range s.Options {
		if !nameOK(o.Name, ident) || seen[o.Name] || o.Name == "seat" || len(o.Values) == 0 {
			bad("seat option %q: a unique [A-Za-z0-9_] name other than seat, with values", o.Name)
		}
		seen[o.Name] = true
		for _, v := range o.Values {
			if !nameOK(v, ident+"-") {
				bad("seat option %s value %q: [A-Za-z0-9_-] only", o.Name, v)
			}
		}
	}
	seen = map[string]bool{}
	for _, k := range def.Kinds() {
		if !nameOK(k.Name, ident) || seen[k.Name] {
			bad("move kind %q: a unique [A-Za-z0-9_] name", k.Name)
		}
		seen[k.Name] = true
		if len(k.Args) > MaxArgs {
			bad("move kind %s: %d arguments, at most %d", k.Name, len(k.Args), MaxArgs)
		}
		args := map[string]bool{}
		for _, a := range k.Args {
			if !nameOK(a.Name, ident) || args[a.Name] || a.Name == "seat" || a.Name == "kind" || a.Min > a.Max {
				bad("move kind %s argument %q: a unique [A-Za-z0-9_] name other than seat and kind, with min <= max", k.Name, a.Name)
			}
			args[a.Name] = true
		}
	}
	seen = map[string]bool{}
	for _, e := range def.EventTypes() {
		if !nameOK(e.Type, ident) || seen[e.Type] || len(e.Fields) > MaxVals {
			bad("event type %q: a unique [A-Za-z0-9_] name with at most %d fields", e.Type, MaxVals)
		}
		seen[e.Type] = true
		for _, f := range e.Fields {
			if !nameOK(f, ident) || f == "seq" || f == "type" || f == "to" {
				bad("event type %s field %q: [A-Za-z0-9_], not seq, type or to", e.Type, f)
			}
		}
	}
	for _, p := range def.Params() {
		if p.Path == "" || p.Min > p.Max || CheckParam(p, p.Default) != nil {
			bad("ruleset number %q: default %g outside [%g, %g]", p.Path, p.Default, p.Min, p.Max)
		}
	}
	seen = map[string]bool{}
	for _, st := range def.Styles() {
		if !nameOK(st.Name, "abcdefghijklmnopqrstuvwxyz0123456789-") || seen[st.Name] || st.Name == "random" || st.Name == "mcts" || st.New == nil {
			bad("style %q: a unique lower-case name other than random and mcts (the machinery's bots), with a constructor", st.Name)
		}
		seen[st.Name] = true
		if st.Param != "" && (st.Default < st.Min || st.Default > st.Max) {
			bad("style %s: default %d outside [%d, %d]", st.Name, st.Default, st.Min, st.Max)
		}
	}
	return errors.Join(errs...)
}

func nameOK(s, alphabet string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		ok := false
		for _, a := range alphabet {
			if r == a {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}
