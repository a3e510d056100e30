package fsnames_test

import (
	"os"
	"testing"

	"github.com/fairboard/fairboard/internal/emulator"
	"github.com/fairboard/fairboard/names/fsnames"
	"github.com/fairboard/fairboard/names/namestest"
)

var emu = emulator.NewSuite(emulator.Config{Firestore: true})

func TestMain(m *testing.M) { os.Exit(emu.Run(m)) }

// The Firestore store passes the names.Store contract on the emulator.
func TestFirestoreContract(t *testing.T) {
	emu.Require(t)
	emu.Reset(t)
	namestest.Run(t, fsnames.New(emu.Client(t)))
}
