package lint

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// mapRanges reports the ranges over a map whose random order could reach the
// RNG, an event or the state: every such range in a -reducers package, and
// in any function (or function literal) with a *rng.Stream parameter or
// nested in one, unless its body is order-safe (see safeStmt).
func (c *checker) mapRanges(f *ast.File) {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			c.rangesIn(fd.Type, fd.Body, c.reducer)
		}
	}
}

// rangesIn checks the map ranges of one function body; inScope says whether
// an enclosing function already put it in scope.
func (c *checker) rangesIn(ft *ast.FuncType, body *ast.BlockStmt, inScope bool) {
	inScope = inScope || c.hasStreamParam(ft)
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			c.rangesIn(n.Type, n.Body, inScope)
			return false
		case *ast.RangeStmt:
			if inScope && c.isMapOrder(n.X) && !c.safeRange(n, body) {
				where := "a reducer package"
				if !c.reducer {
					where = "a function that draws from a *rng.Stream"
				}
				c.reportRange(n.For, n.X.End(), "map-order",
					"range over a map in %s: its random order can reach the RNG, an event or the state; "+
						"collect the keys, sort them (slices.Sort) and range over the sorted keys", where)
			}
		}
		return true
	})
}

// hasStreamParam reports whether ft has a *rng.Stream parameter.
func (c *checker) hasStreamParam(ft *ast.FuncType) bool {
	for _, field := range ft.Params.List {
		if c.rng.isStream(c.pass.TypesInfo.TypeOf(field.Type)) {
			return true
		}
	}
	return false
}

// isMapOrder reports whether ranging over x follows a map's order: x is a
// map, or an iterator over one (maps.Keys, maps.Values, maps.All).
func (c *checker) isMapOrder(x ast.Expr) bool {
	if t := c.pass.TypesInfo.TypeOf(x); t != nil {
		if _, ok := t.Underlying().(*types.Map); ok {
			return true
		}
	}
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == "maps" &&
		(fn.Name() == "Keys" || fn.Name() == "Values" || fn.Name() == "All")
}

// safeRange reports whether the order of the range cannot leak: the loop
// binds neither key nor value, or every statement of its body is safe.
func (c *checker) safeRange(rs *ast.RangeStmt, fnBody *ast.BlockStmt) bool {
	if isBlank(rs.Key) && isBlank(rs.Value) {
		return true
	}
	var key types.Object
	if id, ok := rs.Key.(*ast.Ident); ok && id.Name != "_" {
		key = c.pass.TypesInfo.ObjectOf(id)
	}
	s := &orderSafety{c: c, key: key, loop: rs, fnBody: fnBody}
	return s.stmts(rs.Body.List)
}

func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return e == nil || ok && id.Name == "_"
}

// orderSafety decides whether a map range's body is order-independent.
type orderSafety struct {
	c      *checker
	key    types.Object // the loop's key variable, or nil
	loop   *ast.RangeStmt
	fnBody *ast.BlockStmt // the innermost enclosing function's body
}

func (s *orderSafety) stmts(list []ast.Stmt) bool {
	for _, st := range list {
		if !s.stmt(st) {
			return false
		}
	}
	return true
}

// stmt reports whether one statement of the body is order-safe. The safe
// statements, whose expressions make no calls but conversions and the
// builtins len, cap, min and max, are:
//
//	m2[k] = x             a write to any map at the loop's key k
//	n += x (-=, *=, |=, &=, ^=), n++, n--   on an integer (not a float)
//	delete(m2, k)         a delete at the loop's key k
//	s = append(s, x...)   if s is sorted by package sort or slices later in
//	                      the function
//	if cond { ... } else { ... }   of safe statements
//	continue, { ... } and empty statements
func (s *orderSafety) stmt(st ast.Stmt) bool {
	switch st := st.(type) {
	case *ast.AssignStmt:
		return s.assign(st)
	case *ast.IncDecStmt:
		return s.integer(st.X) && s.callFree(st.X)
	case *ast.ExprStmt:
		call, ok := ast.Unparen(st.X).(*ast.CallExpr)
		return ok && s.builtin(call.Fun, "delete") && len(call.Args) == 2 &&
			s.callFree(call.Args[0]) && s.isKey(call.Args[1])
	case *ast.IfStmt:
		if st.Init != nil || !s.callFree(st.Cond) || !s.stmts(st.Body.List) {
			return false
		}
		return st.Else == nil || s.stmt(st.Else)
	case *ast.BlockStmt:
		return s.stmts(st.List)
	case *ast.BranchStmt:
		return st.Tok == token.CONTINUE && st.Label == nil
	case *ast.EmptyStmt:
		return true
	}
	return false
}

func (s *orderSafety) assign(st *ast.AssignStmt) bool {
	if len(st.Lhs) != 1 || len(st.Rhs) != 1 {
		return false
	}
	lhs, rhs := ast.Unparen(st.Lhs[0]), ast.Unparen(st.Rhs[0])
	switch st.Tok {
	case token.ADD_ASSIGN, token.SUB_ASSIGN, token.MUL_ASSIGN,
		token.OR_ASSIGN, token.AND_ASSIGN, token.XOR_ASSIGN:
		return s.integer(lhs) && s.callFree(lhs) && s.callFree(rhs)
	case token.ASSIGN:
	default:
		return false
	}
	if ix, ok := lhs.(*ast.IndexExpr); ok {
		_, isMap := s.c.pass.TypesInfo.TypeOf(ix.X).Underlying().(*types.Map)
		return isMap && s.isKey(ix.Index) && s.callFree(ix.X) && s.callFree(rhs)
	}
	// s = append(s, ...), s sorted later.
	id, ok := lhs.(*ast.Ident)
	call, isCall := rhs.(*ast.CallExpr)
	if !ok || !isCall || !s.builtin(call.Fun, "append") || len(call.Args) == 0 {
		return false
	}
	obj := s.c.pass.TypesInfo.ObjectOf(id)
	if first, ok := ast.Unparen(call.Args[0]).(*ast.Ident); !ok || s.c.pass.TypesInfo.ObjectOf(first) != obj {
		return false
	}
	for _, a := range call.Args[1:] {
		if !s.callFree(a) {
			return false
		}
	}
	return s.sortedAfter(obj)
}

// isKey reports whether e is the loop's key variable.
func (s *orderSafety) isKey(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && s.key != nil && s.c.pass.TypesInfo.ObjectOf(id) == s.key
}

// integer reports whether e has an integer type.
func (s *orderSafety) integer(e ast.Expr) bool {
	b, ok := s.c.pass.TypesInfo.TypeOf(e).Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// builtin reports whether fun is the named builtin.
func (s *orderSafety) builtin(fun ast.Expr, name string) bool {
	id, ok := ast.Unparen(fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := s.c.pass.TypesInfo.Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}

// pureBuiltins are the builtins an order-safe expression may call.
var pureBuiltins = map[string]bool{"len": true, "cap": true, "min": true, "max": true}

// callFree reports whether e calls nothing but conversions and pure
// builtins, and defines no function literal.
func (s *orderSafety) callFree(e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			ok = false
		case *ast.CallExpr:
			tv := s.c.pass.TypesInfo.Types[n.Fun]
			if tv.IsType() {
				return ok
			}
			id, isID := ast.Unparen(n.Fun).(*ast.Ident)
			b, isB := s.c.pass.TypesInfo.Uses[id].(*types.Builtin)
			ok = isID && isB && pureBuiltins[b.Name()]
		}
		return ok
	})
	return ok
}

// sortFuncs are the functions that sort their first argument in place.
var sortFuncs = map[string]map[string]bool{
	"sort":   {"Strings": true, "Ints": true, "Float64s": true, "Slice": true, "SliceStable": true, "Sort": true, "Stable": true},
	"slices": {"Sort": true, "SortFunc": true, "SortStableFunc": true},
}

// sortedAfter reports whether the variable obj is sorted, after the loop and
// in the same function, by a call of sortFuncs whose first argument is obj or
// a conversion of it (sort.Sort(byName(s))).
func (s *orderSafety) sortedAfter(obj types.Object) bool {
	info := s.c.pass.TypesInfo
	found := false
	ast.Inspect(s.fnBody, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if found || !ok || call.Pos() < s.loop.End() || len(call.Args) == 0 {
			return !found
		}
		fn, ok := typeutil.Callee(info, call).(*types.Func)
		if !ok || fn.Pkg() == nil || !sortFuncs[fn.Pkg().Path()][fn.Name()] {
			return true
		}
		arg := ast.Unparen(call.Args[0])
		if conv, ok := arg.(*ast.CallExpr); ok && len(conv.Args) == 1 && info.Types[conv.Fun].IsType() {
			arg = ast.Unparen(conv.Args[0])
		}
		id, ok := arg.(*ast.Ident)
		found = ok && info.ObjectOf(id) == obj
		return !found
	})
	return found
}
