package lint

import (
	"go/types"
	"strings"
)

// rngTypes locates the RNG package's key types as the analysed package sees
// them. A zero rngTypes (the RNG package is not among the package's imports,
// direct or indirect) matches nothing.
type rngTypes struct {
	root   string           // import path of the RNG package
	source *types.Interface // rng.Source, or nil
}

// findRNG looks for the package at path root among pkg and its transitive
// imports.
func findRNG(pkg *types.Package, root string) rngTypes {
	t := rngTypes{root: root}
	seen := map[*types.Package]bool{}
	queue := []*types.Package{pkg}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if seen[p] {
			continue
		}
		seen[p] = true
		if p.Path() == root {
			if obj, ok := p.Scope().Lookup("Source").(*types.TypeName); ok {
				t.source, _ = obj.Type().Underlying().(*types.Interface)
			}
			return t
		}
		queue = append(queue, p.Imports()...)
	}
	return t
}

// isRNGPkg reports whether path is the RNG package or one of its subpackages.
func (t rngTypes) isRNGPkg(path string) bool {
	return t.root != "" && (path == t.root || strings.HasPrefix(path, t.root+"/"))
}

// isNamed reports whether typ is the named type root.name (through any
// pointer if ptr).
func (t rngTypes) isNamed(typ types.Type, name string, ptr bool) bool {
	if ptr {
		p, ok := types.Unalias(typ).(*types.Pointer)
		if !ok {
			return false
		}
		typ = p.Elem()
	}
	n, ok := types.Unalias(typ).(*types.Named)
	if !ok {
		return false
	}
	obj := n.Obj()
	return obj.Pkg() != nil && obj.Pkg().Path() == t.root && obj.Name() == name
}

// isStream reports whether typ is *rng.Stream.
func (t rngTypes) isStream(typ types.Type) bool { return t.isNamed(typ, "Stream", true) }

// isSource reports whether typ implements rng.Source.
func (t rngTypes) isSource(typ types.Type) bool {
	return t.source != nil && types.Implements(typ, t.source)
}

// isConstructor reports whether fn builds an RNG: a function (not a method)
// of an RNG package with a result that is *rng.Stream or implements
// rng.Source. This matches NewSeeded, NewCrypto, New, Restore, NewSFC32,
// SeedSFC32, NewCryptoSource and any constructor added later, but for
// rng.NewRelay: a relay has no entropy of its own, every word of it is a
// draw of the rng.Drawer it is handed (a reducer's own game.Rand), so a
// reducer that relays its Rand to rules written against *rng.Stream builds
// no RNG.
func (t rngTypes) isConstructor(fn *types.Func) bool {
	if fn.Pkg() == nil || !t.isRNGPkg(fn.Pkg().Path()) {
		return false
	}
	if fn.Pkg().Path() == t.root && fn.Name() == "NewRelay" {
		return false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() != nil {
		return false
	}
	for v := range sig.Results().Variables() {
		if t.isStream(v.Type()) || t.isSource(v.Type()) {
			return true
		}
	}
	return false
}

// isDraw reports whether calling fn consumes entropy. A draw is either
//   - a function or method of an RNG package that takes (or is a method of)
//     a *rng.Stream and takes an rng.Tag: every draw is tagged, accessors
//     such as Stream.State and Stream.Seq are not; or
//   - a method of rng.Source's method set (Uint32) called on a value of a
//     type that implements rng.Source, wherever that type is declared.
func (t rngTypes) isDraw(fn *types.Func) bool {
	sig := fn.Type().(*types.Signature)
	if recv := sig.Recv(); recv != nil && t.isSource(recv.Type()) {
		for m := range t.source.Methods() {
			if m.Name() == fn.Name() {
				return true
			}
		}
	}
	if fn.Pkg() == nil || !t.isRNGPkg(fn.Pkg().Path()) {
		return false
	}
	stream := sig.Recv() != nil && t.isStream(sig.Recv().Type())
	tag := false
	for v := range sig.Params().Variables() {
		stream = stream || t.isStream(v.Type())
		tag = tag || t.isNamed(v.Type(), "Tag", false)
	}
	return stream && tag
}
