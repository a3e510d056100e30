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

// The in-memory backfill stamps an old table with the step's time (the
// memory keeps no other time of a table).
func TestMemoryBackfill(t *testing.T) {
	storetest.CheckBackfill(t, tablestore.NewMemory(registry.Lookup), pig.Def, "b", func(string, int64) int64 { return 5000 })
}
