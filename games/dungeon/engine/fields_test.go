package engine

import (
	"reflect"
	"testing"

	"github.com/fairboard/fairboard/rng"
)

// Dispatch runs fieldsBelong only for a reveal, an abort, or an action for
// which hasCheckedFields is true. Skipping it must never let through an
// action fieldsBelong would refuse: for every field of Action set alone
// (to a small value and to one past 32 bits), on every kind and an unknown
// one, in a seeded and a trustless game, an action fieldsBelong refuses is
// one Dispatch checks. fieldsBelong's own checks are the oracle, so a field
// added to them and forgotten in hasCheckedFields fails here.
func TestFieldsBelongIsSkippedOnlyWhenItPasses(t *testing.T) {
	kinds := append(append([]ActionKind{}, ActionKinds...), "teleport")
	typ := reflect.TypeFor[Action]()
	refused := 0
	for _, mode := range []rng.Mode{rng.ModeSeeded, rng.ModeTrustless} {
		p := &Public{RNG: RNGInfo{Mode: mode}}
		for _, k := range kinds {
			var bit KindSet
			if i := kindIndex(k); i >= 0 {
				bit = 1 << i
			}
			for f := range typ.NumField() {
				for _, big := range []bool{false, true} {
					a := Action{Kind: k, Actor: "p1"}
					v := reflect.ValueOf(&a).Elem().Field(f)
					switch v.Kind() {
					case reflect.String:
						if typ.Field(f).Name == "Kind" || typ.Field(f).Name == "Actor" {
							continue
						}
						v.SetString("x")
					case reflect.Bool:
						v.SetBool(true)
					case reflect.Int, reflect.Int64:
						v.SetInt(1)
						if big {
							v.SetInt(1 << 32)
						}
					case reflect.Uint32, reflect.Uint64:
						v.SetUint(1)
						if big && v.Kind() == reflect.Uint64 {
							v.SetUint(1 << 32)
						}
					default:
						t.Fatalf("Action.%s: a %s, which this test does not set", typ.Field(f).Name, v.Kind())
					}
					err := fieldsBelong(p, &a, bit)
					if err != nil {
						refused++
					}
					skipped := bit&(kReveal|kAbort) == 0 && !a.hasCheckedFields()
					if skipped && err != nil {
						t.Errorf("%s game, %s with %s set: Dispatch skips fieldsBelong, which refuses it: %v",
							mode, k, typ.Field(f).Name, err)
					}
				}
			}
		}
	}
	if refused == 0 {
		t.Fatal("fieldsBelong refused nothing: the test sets no field it checks")
	}
}
