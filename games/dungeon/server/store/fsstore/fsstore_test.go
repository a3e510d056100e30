package fsstore_test

import (
	"context"
	"os"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/dungeon/server/store/fsstore"
	"github.com/fairboard/fairboard/games/dungeon/server/store/storetest"
	"github.com/fairboard/fairboard/internal/emulator"
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
// without resetting it (a second instance, or a release after another),
// reading with the field mask (fsstore.WithRPC) as a deployed store does;
// libraryRead (an option that is none) makes it read with the library's
// GetAll instead.
func storeOnEmulator(t *testing.T, opts ...fsstore.Option) *fsstore.Store {
	t.Helper()
	ctx := context.Background()
	c, err := emu.Firestore().Client(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := emu.Firestore().RPC(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rc.Close() }) // a second close (WithCloseClient's) does nothing
	return fsstore.New(c, append([]fsstore.Option{fsstore.WithRPC(rc)}, append(opts, fsstore.WithCloseClient())...)...)
}

// libraryRead is the option that takes the raw client away again: the
// store reads with the library's GetAll.
var libraryRead = fsstore.WithRPC(nil)

func TestFirestoreContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return newStore(t) })
}

// The library's GetAll, the read of a store without WithRPC, passes it
// too.
func TestFirestoreContractLibraryRead(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return newStore(t, libraryRead) })
}

// The previous layout passes the contract too: a rolling deploy runs it.
func TestFirestoreContractPreviousLayout(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return newStore(t, fsstore.WithPreviousLayout()) },
		storetest.RingsAfterCommit())
}
