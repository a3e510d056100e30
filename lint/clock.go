package lint

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// clockFuncs are the functions of package time that read the clock.
var clockFuncs = map[string]bool{"Now": true, "Since": true, "Until": true}

// clockSeeds reports the clock used as seed material: an argument of an RNG
// constructor, or of any function or method of a banned package, that
// contains a call to time.Now (or Since, Until), or names a local variable
// assigned from such an expression earlier in the same function. Package-level
// initialisers are checked too (without the variables).
func (c *checker) clockSeeds(f *ast.File) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Body != nil {
				c.seedSinks(d.Body, c.clockVars(d.Body))
			}
		case *ast.GenDecl:
			c.seedSinks(d, nil)
		}
	}
}

// clockVars returns the variables of body assigned, directly or through
// other such variables, from an expression that reads the clock. It is a
// flow-insensitive fixpoint: a variable assigned from the clock anywhere in
// the function is tainted everywhere in it.
func (c *checker) clockVars(body *ast.BlockStmt) map[types.Object]bool {
	tainted := map[types.Object]bool{}
	taint := func(lhs []ast.Expr, rhs []ast.Expr) bool {
		changed := false
		for i, l := range lhs {
			src := rhs
			if len(lhs) == len(rhs) {
				src = rhs[i : i+1]
			}
			id, ok := ast.Unparen(l).(*ast.Ident)
			if !ok || !c.anyClock(src, tainted) {
				continue
			}
			if obj := c.pass.TypesInfo.ObjectOf(id); obj != nil && !tainted[obj] {
				tainted[obj] = true
				changed = true
			}
		}
		return changed
	}
	for changed := true; changed; {
		changed = false
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				changed = taint(n.Lhs, n.Rhs) || changed
			case *ast.ValueSpec:
				lhs := make([]ast.Expr, len(n.Names))
				for i, name := range n.Names {
					lhs[i] = name
				}
				changed = taint(lhs, n.Values) || changed
			}
			return true
		})
	}
	return tainted
}

// anyClock reports whether any of exprs reads the clock.
func (c *checker) anyClock(exprs []ast.Expr, tainted map[types.Object]bool) bool {
	for _, e := range exprs {
		if c.clockIn(e, tainted) != token.NoPos {
			return true
		}
	}
	return false
}

// clockIn returns the position of the first call of time.Now, time.Since or
// time.Until, or identifier of a tainted variable, in e at any depth (method
// chains, conversions, arguments: time.Now().UnixNano(), fmt.Sprint(t)), or
// token.NoPos if there is none.
func (c *checker) clockIn(e ast.Expr, tainted map[types.Object]bool) token.Pos {
	found := token.NoPos
	ast.Inspect(e, func(n ast.Node) bool {
		if found != token.NoPos {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if fn, ok := typeutil.Callee(c.pass.TypesInfo, n).(*types.Func); ok && isClock(fn) {
				found = n.Pos()
			}
		case *ast.Ident:
			if tainted[c.pass.TypesInfo.Uses[n]] {
				found = n.Pos()
			}
		}
		return found == token.NoPos
	})
	return found
}

// isClock reports whether fn is one of package time's clock readers.
func isClock(fn *types.Func) bool {
	return fn.Pkg() != nil && fn.Pkg().Path() == "time" && clockFuncs[fn.Name()] &&
		fn.Type().(*types.Signature).Recv() == nil
}

// seedSink is an argument that carries the clock into a seed.
type seedSink struct {
	arg ast.Expr
	fn  *types.Func
}

// seedSinks reports the arguments under n that carry the clock into a seed.
// A call is reported once, at its first such argument; when sinks nest
// (rand.New(rand.NewSource(time.Now().UnixNano()))), only the innermost,
// nearest the clock, is reported.
func (c *checker) seedSinks(n ast.Node, tainted map[types.Object]bool) {
	sinks := map[token.Pos]seedSink{} // by the clock read's position
	var order []token.Pos
	ast.Inspect(n, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
		if !ok || fn.Pkg() == nil || !c.rng.isConstructor(fn) && banned[fn.Pkg().Path()] == "" {
			return true
		}
		for _, arg := range call.Args {
			if pos := c.clockIn(arg, tainted); pos != token.NoPos {
				if _, seen := sinks[pos]; !seen {
					order = append(order, pos)
				}
				sinks[pos] = seedSink{arg, fn} // preorder: inner sinks come later
				break                          // one report per call
			}
		}
		return true
	})
	for _, pos := range order {
		s := sinks[pos]
		c.report(s.arg, "clock-seed",
			"the clock is not a seed (it flows into %s.%s): it is guessable and unreplayable; "+
				"play with rng.NewCrypto, or replay from the game's stored seed",
			s.fn.Pkg().Name(), s.fn.Name())
	}
}
