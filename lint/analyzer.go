package lint

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Module is this repository's module path; the flag defaults hang off it.
const module = "github.com/fairboard/fairboard"

// The flags' values. They are package state because analysis flags are: set
// them with Analyzer.Flags.Set (tests restore them afterwards).
var (
	allow     = patterns{module + "/rng/..."}
	rngRoot   = module + "/rng"
	reducers  = patterns{module + "/game/...", module + "/games/..."}
	drivers   = patterns{module + "/games/*/tools/...", module + "/games/*/server/..."}
	transport = patterns{module + "/functions/...", module + "/games/*/server/store/..."}
)

// Analyzer reports randomness that bypasses the engine's RNG; see the package
// documentation for the rules and docs/lint.md for their use.
var Analyzer = &analysis.Analyzer{
	Name: "randlint",
	Doc: `report randomness that bypasses the engine's tagged, audited RNG

randlint reports uses of math/rand, math/rand/v2, crypto/rand,
golang.org/x/exp/rand and hash/maphash and reads of /dev/urandom outside the
-allow packages; the clock (time.Now) used as seed material anywhere; RNG
construction in -reducers packages (but a game's -drivers); draws in
-transport packages; and map
ranges whose order can reach the RNG, an event or the state.`,
	URL: "https://github.com/fairboard/fairboard/blob/main/docs/lint.md",
	Run: run,
}

func init() {
	Analyzer.Flags.Var(&allow, "allow",
		"comma-separated import-path patterns (\"/...\" for subtrees) where raw randomness is allowed")
	Analyzer.Flags.StringVar(&rngRoot, "rng", rngRoot,
		"import path of the RNG package (its subpackages are RNG packages too)")
	Analyzer.Flags.Var(&reducers, "reducers",
		"comma-separated import-path patterns of packages that must receive, never build, an RNG")
	Analyzer.Flags.Var(&drivers, "drivers",
		"comma-separated import-path patterns, within -reducers, of a game's own tools and server that drive it as callers do (build RNGs; map ranges checked as outside -reducers)")
	Analyzer.Flags.Var(&transport, "transport",
		"comma-separated import-path patterns of packages that must never draw from the RNG")
}

// checker holds one pass and what run learnt about its package.
type checker struct {
	pass      *analysis.Pass
	allowed   bool // the package may use raw randomness
	reducer   bool // the package must not build an RNG
	transport bool // the package must not draw
	rng       rngTypes
}

func run(pass *analysis.Pass) (any, error) {
	path := pass.Pkg.Path()
	c := &checker{
		pass:      pass,
		allowed:   allow.match(path),
		reducer:   reducers.match(path) && !drivers.match(path),
		transport: transport.match(path),
		rng:       findRNG(pass.Pkg, rngRoot),
	}
	for _, f := range pass.Files {
		if ast.IsGenerated(f) {
			continue
		}
		test := strings.HasSuffix(pass.Fset.File(f.Pos()).Name(), "_test.go")
		if !c.allowed {
			c.bannedImports(f)
			c.bannedUses(f)
			c.devRandom(f)
		}
		c.clockSeeds(f)
		if !test {
			c.engineCalls(f)
			c.mapRanges(f)
		}
	}
	return nil, nil
}

// report reports a diagnostic of the given category over node n.
func (c *checker) report(n ast.Node, category, format string, args ...any) {
	c.reportRange(n.Pos(), n.End(), category, format, args...)
}

func (c *checker) reportRange(pos, end token.Pos, category, format string, args ...any) {
	c.pass.Report(analysis.Diagnostic{
		Pos:      pos,
		End:      end,
		Category: category,
		Message:  fmt.Sprintf(format, args...),
	})
}
