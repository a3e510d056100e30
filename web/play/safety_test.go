package play_test

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/web/play/bundle"
)

// The page's safe defaults, run by Node: the order of the actions, which
// ask first, the status lines that clear, the title
// (test/safety_test.ts).
func TestSafeDefaultsInNode(t *testing.T) {
	out := filepath.Join(t.TempDir(), "safety_test.mjs")
	nodeTools(t, bundle.Esbuild("test/safety_test.ts", "--bundle", "--platform=node", "--format=esm", "--outfile="+out))
	b, err := exec.Command("node", out).CombinedOutput()
	require.NoError(t, err, "%s", b)
	require.Equal(t, "ok\n", string(b))
}

// A fair table's checks on the page, run by Node: its SHA-256 of the
// field encoding against rng/fair's vectors, and the end's checks with
// their positive controls (test/tablefair_test.ts).
func TestTableFairInNode(t *testing.T) {
	out := filepath.Join(t.TempDir(), "tablefair_test.mjs")
	nodeTools(t, bundle.Esbuild("test/tablefair_test.ts", "--bundle", "--platform=node", "--format=esm", "--outfile="+out))
	b, err := exec.Command("node", out).CombinedOutput()
	require.NoError(t, err, "%s", b)
	require.Equal(t, "ok\n", string(b))
}

// A seeded table's checks on the page, run by Node: the seed refused
// before it is sent (empty, over 256 bytes of UTF-8, a lone surrogate),
// and the end's verdict on the record's seed with its positive controls
// (test/tableseed_test.ts).
func TestTableSeedInNode(t *testing.T) {
	out := filepath.Join(t.TempDir(), "tableseed_test.mjs")
	nodeTools(t, bundle.Esbuild("test/tableseed_test.ts", "--bundle", "--platform=node", "--format=esm", "--outfile="+out))
	b, err := exec.Command("node", out).CombinedOutput()
	require.NoError(t, err, "%s", b)
	require.Equal(t, "ok\n", string(b))
}

// A crypto or fair table's record checked at its end, run by Node: the
// verdict against what the page showed (game, mode, seats, rules, the
// fair commitment, the decks' published commitments), each check with a
// changed input that it must catch (test/tablerecord_test.ts).
func TestTableRecordInNode(t *testing.T) {
	out := filepath.Join(t.TempDir(), "tablerecord_test.mjs")
	nodeTools(t, bundle.Esbuild("test/tablerecord_test.ts", "--bundle", "--platform=node", "--format=esm", "--outfile="+out))
	b, err := exec.Command("node", out).CombinedOutput()
	require.NoError(t, err, "%s", b)
	require.Equal(t, "ok\n", string(b))
}

// A table followed by listeners, run by Node: own addressed events in
// place of their traces, and the seat's view of its documents
// (test/tablewatch_test.ts).
func TestTableWatchInNode(t *testing.T) {
	out := filepath.Join(t.TempDir(), "tablewatch_test.mjs")
	nodeTools(t, bundle.Esbuild("test/tablewatch_test.ts", "--bundle", "--platform=node", "--format=esm", "--outfile="+out))
	b, err := exec.Command("node", out).CombinedOutput()
	require.NoError(t, err, "%s", b)
	require.Equal(t, "ok\n", string(b))
}

// A table's seats in its lobby, run by Node: the log's words for a leave
// and a removal, the news of the player's own seat freed, when the seats
// may change, and a leave's or a removal's refusals in words
// (test/tableseats_test.ts).
func TestTableSeatsInNode(t *testing.T) {
	out := filepath.Join(t.TempDir(), "tableseats_test.mjs")
	nodeTools(t, bundle.Esbuild("test/tableseats_test.ts", "--bundle", "--platform=node", "--format=esm", "--outfile="+out))
	b, err := exec.Command("node", out).CombinedOutput()
	require.NoError(t, err, "%s", b)
	require.Equal(t, "ok\n", string(b))
}
