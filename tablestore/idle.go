package tablestore

import (
	"context"

	"github.com/fairboard/fairboard/table"
)

// Idle implements Store (table.Memory.Idle).
func (m *Memory) Idle(_ context.Context, phase table.Phase, before int64, limit int) ([]table.IdleTable, error) {
	return m.mem.Idle(phase, before, limit), nil
}

// BackfillActed implements Store (table.Memory.BackfillActed: a table
// without a time is stamped with now, the memory keeping no other).
func (m *Memory) BackfillActed(_ context.Context, now int64, limit int) (table.ActedBackfill, error) {
	return m.mem.BackfillActed(now, limit)
}
