package fstables

import (
	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/tablestore"
)

// NewChunked is New with the head's chunk size n (tests seal with a
// small one).
func NewChunked(c *firestore.Client, lookup tablestore.Lookup, n int) *Store {
	s := New(c, lookup)
	s.chunk = n
	return s
}
