package store_test

import (
	"testing"

	"github.com/fairboard/fairboard/store"
	"github.com/fairboard/fairboard/store/storetest"
)

func TestMemoryContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return store.NewMemory() })
}
