package engine

import (
	"reflect"
	"testing"
)

// fill sets every exported field reachable from v: a pointer to a new
// filled value, a slice of two filled elements, strings "x", numbers 1,
// bools true.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem())
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fill(s.Index(i))
		}
		v.Set(s)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	case reflect.Array:
		for i := range v.Len() {
			fill(v.Index(i))
		}
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	}
}

// shared returns the path of the first pointer or slice array that a and
// b share, or "".
func shared(path string, a, b reflect.Value) string {
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() {
			return ""
		}
		if a.Pointer() == b.Pointer() {
			return path
		}
		return shared(path, a.Elem(), b.Elem())
	case reflect.Slice:
		if a.Len() == 0 {
			return ""
		}
		if a.Pointer() == b.Pointer() {
			return path
		}
		for i := range a.Len() {
			if p := shared(path+"[]", a.Index(i), b.Index(i)); p != "" {
				return p
			}
		}
	case reflect.Struct:
		for i := range a.NumField() {
			if a.Type().Field(i).IsExported() {
				if p := shared(path+"."+a.Type().Field(i).Name, a.Field(i), b.Field(i)); p != "" {
					return p
				}
			}
		}
	}
	return ""
}

// TestCloneIsDeep: Clone shares no slice or pointer with the original,
// whatever field is set: a trustless game's dry run applies an action to a
// clone and drops it, so a shared list would let it change the game.
func TestCloneIsDeep(t *testing.T) {
	var g Game
	fill(reflect.ValueOf(&g).Elem())
	c := g.Clone()
	if p := shared("Game", reflect.ValueOf(&g).Elem(), reflect.ValueOf(c).Elem()); p != "" {
		t.Errorf("Clone shares %s with the original", p)
	}
	// Positive control: a shallow copy shares them all, and is caught.
	shallow := g
	if p := shared("Game", reflect.ValueOf(&g).Elem(), reflect.ValueOf(&shallow).Elem()); p == "" {
		t.Error("the check misses a shallow copy")
	}
	a, _ := g.CanonicalJSON()
	b, _ := c.CanonicalJSON()
	if string(a) != string(b) {
		t.Error("the clone is not the same game")
	}
}
