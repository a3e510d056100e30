package play_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functions"
)

// wireFields reads the struct types named in src (Go source) and returns,
// for each, its fields' JSON names with their types as written.
func wireFields(t *testing.T, src string, names ...string) map[string]map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "wire.go", src, parser.SkipObjectResolution)
	require.NoError(t, err)
	out := map[string]map[string]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok || !contains(names, ts.Name.Name) {
			return true
		}
		st, ok := ts.Type.(*ast.StructType)
		require.True(t, ok, ts.Name.Name)
		fields := map[string]string{}
		for _, fd := range st.Fields.List {
			tag := ""
			if fd.Tag != nil {
				v, err := strconv.Unquote(fd.Tag.Value)
				require.NoError(t, err)
				tag, _, _ = strings.Cut(reflect.StructTag(v).Get("json"), ",")
			}
			for _, id := range fd.Names {
				name := tag
				if name == "" {
					name = id.Name
				}
				fields[name] = types(fd.Type)
			}
		}
		out[ts.Name.Name] = fields
		return false
	})
	for _, n := range names {
		require.Contains(t, out, n, "type %s in the source", n)
	}
	return out
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// types writes a type expression as Go does (reflect.Type.String's form).
func types(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return types(e.X) + "." + e.Sel.Name
	case *ast.StarExpr:
		return "*" + types(e.X)
	case *ast.ArrayType:
		return "[]" + types(e.Elt)
	case *ast.MapType:
		return "map[" + types(e.Key) + "]" + types(e.Value)
	}
	return fmt.Sprintf("%T", e)
}

// copyDrift names the fields of a copied wire type (fields: JSON name →
// type as written; local maps the copy's own type names to the server's
// types) that the server's type does not send, or sends with another
// type.
func copyDrift(server reflect.Type, fields map[string]string, local map[string]reflect.Type) []string {
	sent := map[string]reflect.Type{}
	for i := 0; i < server.NumField(); i++ {
		f := server.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" {
			name = f.Name
		}
		sent[name] = f.Type
	}
	var bad []string
	for name, typ := range fields {
		st, ok := sent[name]
		switch {
		case !ok:
			bad = append(bad, name+": not sent")
		case strings.HasPrefix(typ, "[]") && local[typ[2:]] != nil:
			if st.Kind() != reflect.Slice || st.Elem() != local[typ[2:]] {
				bad = append(bad, name+": "+typ+", sent as "+st.String())
			}
		case typ != st.String():
			bad = append(bad, name+": "+typ+", sent as "+st.String())
		}
	}
	sort.Strings(bad)
	return bad
}

// TestWasmWireTypesAgree: the page's WebAssembly decodes getView's table
// answer into its own copies of the functions' types (wireView and
// wireSeat in wasm/tableseat.go: it may not import the server), so every
// field it reads must be one the functions send, with the same type. The
// functions' declarations are the independent side; the copy is read as
// source (it builds for js/wasm only). Control: a copy with a field of
// its own and one with a field's type changed are both caught.
func TestWasmWireTypesAgree(t *testing.T) {
	b, err := os.ReadFile("wasm/tableseat.go")
	require.NoError(t, err)
	src := string(b)
	got := wireFields(t, src, "wireView", "wireSeat")
	local := map[string]reflect.Type{"wireSeat": reflect.TypeOf(functions.TableSeat{})}
	require.NotEmpty(t, got["wireView"])
	require.Empty(t, copyDrift(reflect.TypeOf(functions.TableView{}), got["wireView"], local))
	require.Empty(t, copyDrift(reflect.TypeOf(functions.TableSeat{}), got["wireSeat"], local))

	bad := wireFields(t, `package x
type wireView struct {
	Version int    `+"`json:\"version\"`"+`
	Colour  string `+"`json:\"colour\"`"+`
	Seats   []wireSeat `+"`json:\"seats\"`"+`
}`, "wireView")
	require.Equal(t, []string{"colour: not sent", "version: int, sent as uint64"},
		copyDrift(reflect.TypeOf(functions.TableView{}), bad["wireView"], local))
}
