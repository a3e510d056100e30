package tablestore

import (
	"context"

	"github.com/fairboard/fairboard/audit"
)

// AuditReader is a Store that reads a table's RNG audit ring (a table
// created with table.CreateRequest.Audit: docs/store.md, "A table's
// audit ring"): Audit returns its entries in seq order, the last
// audit.RingSize (500) at most, empty for a table without audit or that
// drew nothing yet; not_created if there is no table. For the server
// and its operators only: no function serves it (as the dungeon's
// ring), and a store keeps it where no client reads it.
type AuditReader interface {
	Audit(ctx context.Context, gameID string) ([]audit.Entry, error)
}

var _ AuditReader = (*Memory)(nil)

// Audit implements AuditReader: the ring the table keeps in memory.
func (m *Memory) Audit(_ context.Context, gameID string) ([]audit.Entry, error) {
	return m.mem.Audit(gameID)
}
