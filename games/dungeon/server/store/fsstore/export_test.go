package fsstore

import (
	"context"
	"time"

	"cloud.google.com/go/firestore"
	vkit "cloud.google.com/go/firestore/apiv1"
)

// ReadDoc is docRead for the tests of package fsstore_test.
type ReadDoc struct {
	Exists  bool
	Data    map[string]any
	Updated time.Time
}

// ReadMaskedForTest is readMasked: one BatchGetDocuments of refs with
// the field paths mask.
func ReadMaskedForTest(ctx context.Context, rc *vkit.Client, refs []*firestore.DocumentRef, mask []string) ([]ReadDoc, error) {
	ds, err := readMasked(ctx, rc, refs, mask)
	out := make([]ReadDoc, len(ds))
	for i, d := range ds {
		out[i] = ReadDoc{d.exists, d.data, d.updated}
	}
	return out, err
}
