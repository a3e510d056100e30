package lint

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// engineCalls reports, in a -reducers package, every call that builds an RNG
// and, in a -transport package, every call that draws from one.
func (c *checker) engineCalls(f *ast.File) {
	if !c.reducer && !c.transport {
		return
	}
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
		if !ok {
			return true
		}
		if c.reducer && c.rng.isConstructor(fn) {
			c.report(call.Fun, "reducer-builds-rng",
				"%s.%s builds an RNG in a reducer package: reducers receive the *rng.Stream; only the caller builds it",
				fn.Pkg().Name(), fn.Name())
		}
		if c.transport && c.rng.isDraw(fn) {
			c.report(call.Fun, "transport-draws",
				"%s draws from the RNG in the transport layer: only the engine may call the RNG "+
					"(build or restore the stream here and hand it to the engine)",
				calleeName(fn))
		}
		return true
	})
}

// calleeName names fn for a message: pkg.Func or (Recv).Method.
func calleeName(fn *types.Func) string {
	if recv := fn.Type().(*types.Signature).Recv(); recv != nil {
		return "(" + types.TypeString(recv.Type(), func(p *types.Package) string { return p.Name() }) + ")." + fn.Name()
	}
	return fn.Pkg().Name() + "." + fn.Name()
}
