package lint

import (
	"go/ast"
	"go/constant"
	"go/types"
	"path"
	"strconv"
)

// banned maps each package that produces randomness outside the engine's RNG
// to why it is banned.
var banned = map[string]string{
	"math/rand":             "its draws are untagged, unaudited and not replayable",
	"math/rand/v2":          "its draws are untagged, unaudited and not replayable",
	"golang.org/x/exp/rand": "its draws are untagged, unaudited and not replayable",
	"crypto/rand":           "its entropy reaches the game only through rng.NewCrypto",
	"hash/maphash":          "its seeds are random, so its hashes differ between runs and replays",
}

// useRNG is what every banned-package report advises instead.
const useRNG = "use the injected *rng.Stream (rng.Dice, rng.Shuffle, ...) so the draw is tagged, audited and replayable"

// bannedImports reports every import of a banned package, whatever its name
// (blank, dot or renamed), so that an unused or side-effect import is caught.
func (c *checker) bannedImports(f *ast.File) {
	for _, spec := range f.Imports {
		p := importPath(c.pass.TypesInfo, spec)
		if why, ok := banned[p]; ok {
			c.report(spec, "banned-import",
				"import of %s outside the RNG package (%s): %s", p, why, useRNG)
		}
	}
}

// importPath returns the path of the package an import spec imports, from
// type information when there is some.
func importPath(info *types.Info, spec *ast.ImportSpec) string {
	if pn := info.PkgNameOf(spec); pn != nil {
		return pn.Imported().Path()
	}
	p, _ := strconv.Unquote(spec.Path.Value)
	return p
}

// bannedUses reports every identifier that resolves to an object of a banned
// package: a qualified reference (rand.Intn, under any import name) is
// reported once at its selector; a dot-imported name, or a method or field of
// a banned package's type reached through a value (r.Intn), at the name.
func (c *checker) bannedUses(f *ast.File) {
	info := c.pass.TypesInfo
	done := map[*ast.Ident]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ImportSpec:
			return false // reported by bannedImports
		case *ast.SelectorExpr:
			x, ok := n.X.(*ast.Ident)
			if !ok {
				return true
			}
			pn, ok := info.Uses[x].(*types.PkgName)
			if !ok {
				return true
			}
			if p := pn.Imported().Path(); banned[p] != "" {
				c.report(n, "banned-use", "use of %s.%s outside the RNG package: %s",
					p, n.Sel.Name, useRNG)
				done[x], done[n.Sel] = true, true
			}
		case *ast.Ident:
			if done[n] {
				return true
			}
			obj := info.Uses[n]
			if obj == nil || obj.Pkg() == nil {
				return true
			}
			if _, isPkg := obj.(*types.PkgName); isPkg {
				return true
			}
			if p := obj.Pkg().Path(); banned[p] != "" {
				c.report(n, "banned-use", "use of %s.%s outside the RNG package: %s",
					p, n.Name, useRNG)
			}
		}
		return true
	})
}

// devPaths are the kernel's entropy devices.
var devPaths = map[string]bool{"/dev/urandom": true, "/dev/random": true}

// devRandom reports a constant string naming /dev/urandom or /dev/random
// (after constant folding and path cleaning) passed as an argument to any
// function: os.Open, os.ReadFile, os.OpenFile, ioutil.ReadFile,
// syscall.Open or a helper of one's own are all ways to read it.
func (c *checker) devRandom(f *ast.File) {
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		for _, arg := range call.Args {
			tv, ok := c.pass.TypesInfo.Types[arg]
			if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
				continue
			}
			if p := path.Clean(constant.StringVal(tv.Value)); devPaths[p] {
				c.report(arg, "dev-random",
					"read of %s outside the RNG package: %s", p, useRNG)
			}
		}
		return true
	})
}
