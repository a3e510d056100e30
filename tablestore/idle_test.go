package tablestore_test

import (
	"testing"

	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/tablestore"
	"github.com/fairboard/fairboard/tablestore/storetest"
)

func TestMemoryIdle(t *testing.T) {
	storetest.CheckIdle(t, tablestore.NewMemory(registry.Lookup), pig.Def, "i")
}
