package tablestore_test

import (
	"testing"

	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/tablestore"
	"github.com/fairboard/fairboard/tablestore/storetest"
)

func TestMemoryPlaysPigAsMatch(t *testing.T) {
	s := tablestore.NewMemory(registry.Lookup)
	for _, g := range []string{"m1", "m2"} {
		storetest.CheckAgainstMatch(t, s, pig.Def, g, 2)
	}
	storetest.CheckAgainstMatch(t, s, pig.Def, "m3", 4)
}

func TestMemoryRefusals(t *testing.T) {
	storetest.CheckRefusals(t, tablestore.NewMemory(registry.Lookup), pig.Def, "r")
}

func TestMemoryCreate(t *testing.T) {
	storetest.CheckCreate(t, tablestore.NewMemory(registry.Lookup), pig.Def, "c")
}
