package fsstore_test

import (
	"context"
	"os"
	"testing"

	"github.com/fairboard/fairboard/internal/emulator"
	"github.com/fairboard/fairboard/store"
	"github.com/fairboard/fairboard/store/fsstore"
	"github.com/fairboard/fairboard/store/storetest"
)

var emu = emulator.NewSuite(emulator.Config{Firestore: true})

func TestMain(m *testing.M) { os.Exit(emu.Run(m)) }

func newStore(t *testing.T, opts ...fsstore.Option) *fsstore.Store {
	t.Helper()
	emu.Require(t)
	emu.Reset(t)
	return storeOnEmulator(t, opts...)
}

// storeOnEmulator is a store on its own client to the suite's emulator,
// without resetting it (a second instance, or a release after another).
func storeOnEmulator(t *testing.T, opts ...fsstore.Option) *fsstore.Store {
	t.Helper()
	c, err := emu.Firestore().Client(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return fsstore.New(c, append(opts, fsstore.WithCloseClient())...)
}

func TestFirestoreContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return newStore(t) })
}

// The previous layout passes the contract too: a rolling deploy runs it.
func TestFirestoreContractPreviousLayout(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return newStore(t, fsstore.WithPreviousLayout()) },
		storetest.RingsAfterCommit())
}
