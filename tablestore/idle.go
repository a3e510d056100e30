package tablestore

import (
	"context"

	"github.com/fairboard/fairboard/table"
)

// Idle implements Store (table.Memory.Idle).
func (m *Memory) Idle(_ context.Context, phase table.Phase, before int64, limit int) ([]table.IdleTable, error) {
	return m.mem.Idle(phase, before, limit), nil
}
