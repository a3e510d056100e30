package trustseat_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
)

// editCP rewrites the checkpoint's field (its first occurrence after
// "checkpoint") to value's JSON, and the check again.
func editCP(t *testing.T, blob []byte, field string, value any) []byte {
	t.Helper()
	i := bytes.Index(blob, []byte(`"checkpoint":`))
	require.Positive(t, i)
	re := regexp.MustCompile(`"` + field + `":("[^"]*"|\[[^\]]*\]|[0-9]+)`)
	loc := re.FindIndex(blob[i:])
	require.NotNil(t, loc, field)
	v, err := json.Marshal(value)
	require.NoError(t, err)
	out := append(append(append([]byte(nil), blob[:i+loc[0]]...), `"`+field+`":`+string(v)...), blob[i+loc[1]:]...)
	return resum(t, out)
}

// A blob written before checkpoints (version 1, by the code of commit
// 0f6ed36, kept in testdata) restores as before: a seat that has checked
// nothing, whose secrets are written back byte for byte, and whose blob
// without a checkpoint is itself.
func TestOldSecretsRestore(t *testing.T) {
	blob, err := os.ReadFile("testdata/secrets-v1.json")
	require.NoError(t, err)
	s, err := trustseat.Restore(pig.Def, "old", "u0", 0, blob)
	require.NoError(t, err)
	require.Zero(t, s.Checked())
	require.Equal(t, string(blob), string(s.Export()))
	bare, err := trustseat.WithoutCheckpoint(blob)
	require.NoError(t, err)
	require.Equal(t, string(blob), string(bare))
	require.True(t, s.Holds(blob))
}

// cpTable plays a trustless Pig table to at least 12 moves and returns
// it, seat 0's secrets with the checkpoint of every move so far (k), and
// the table after 2 more moves.
func cpTable(t *testing.T, g string) (m *table.Memory, seats []*trustseat.Seat, blob []byte, k int) {
	m = table.NewMemory()
	seats = lobby(t, m, g)
	srv := memSrv{m, g}
	_, err := trustseat.Play(srv, seats, roll, func(v *table.View) bool {
		return len(v.Trustless.Moves) >= 12 && v.Trustless.Pending == nil
	}, 1000)
	require.NoError(t, err)
	u := seats[0]
	w, err := m.View(g, u.UID())
	require.NoError(t, err)
	k = w.Trustless.Played()
	// A copy of seat 0 checks the table as it stands (Reveal checks, then
	// finds no round pending), so that its secrets hold k moves.
	bare, err := trustseat.WithoutCheckpoint(u.Export())
	require.NoError(t, err)
	c, err := trustseat.Restore(pig.Def, g, u.UID(), u.Index(), bare)
	require.NoError(t, err)
	_, err = c.Reveal("r", w)
	require.ErrorContains(t, err, "no round is pending")
	require.Equal(t, k, c.Checked())
	blob = c.Export()
	require.Contains(t, string(blob), `{"v":2,`)
	require.Contains(t, string(blob), `"checkpoint":{"moves":`)
	_, err = trustseat.Play(prefixed{srv, "b"}, seats, roll, func(v *table.View) bool {
		return len(v.Trustless.Moves) >= k+2 && v.Trustless.Pending == nil
	}, 1000)
	require.NoError(t, err)
	return m, seats, blob, k
}

// checkView has s check v (Reveal: no round is pending, so nothing is
// signed) and returns the error unless it is only that.
func checkView(s *trustseat.Seat, v *table.View) error {
	_, err := s.Reveal("r", v)
	if err != nil && strings.Contains(err.Error(), "no round is pending") {
		return nil
	}
	return err
}

// A checkpoint that does not fit the table (its transcript, a last
// link, a seat's key, the ruleset's hash, the game's state altered, the
// blob's check written again so that Restore takes it) is refused at the
// restored seat's first view, a view of the moves after it or the whole
// view, by name; the seat then holds no checkpoint and checks the next
// whole view from the first move (the fallback). The blob as written
// (the control) checks the moves after its checkpoint, and the whole
// view.
func TestCheckpointNotTheTableRefused(t *testing.T) {
	m, seats, blob, k := cpTable(t, "cz")
	u := seats[0]
	view := func(after int) *table.View {
		v, err := m.View("cz", u.UID())
		require.NoError(t, err)
		v.Trustless.After(after)
		return v
	}
	n := view(0).Trustless.Played()
	require.Greater(t, n, k)
	restore := func(b []byte) *trustseat.Seat {
		s, err := trustseat.Restore(pig.Def, "cz", u.UID(), u.Index(), b)
		require.NoError(t, err)
		require.Equal(t, k, s.Checked())
		return s
	}
	for _, after := range []int{k, 0} {
		s := restore(blob)
		require.NoError(t, checkView(s, view(after)), "the control, from move %d", after+1)
		require.Equal(t, n, s.Checked())
	}
	// The seat resumed goes on from where it stands: views from its
	// checkpoint on are taken (the moves it checked compared), one from
	// before it is refused, and so is a move it checked shown altered.
	s := restore(blob)
	require.NoError(t, checkView(s, view(k)))
	for _, after := range []int{k, k + 1, n} {
		require.NoError(t, checkView(s, view(after)), "from move %d", after+1)
		require.Equal(t, n, s.Checked())
	}
	bad := view(k)
	bad.Trustless.Moves[1].Signature = strings.Repeat("0", len(bad.Trustless.Moves[1].Signature))
	require.ErrorContains(t, checkView(s, bad), "changed since it was checked")
	s = restore(blob)
	require.NoError(t, checkView(s, view(k)))
	require.ErrorContains(t, checkView(s, view(k-1)), "before the checkpoint this client resumed from")
	var other [32]byte
	other[0] = 7
	otherHex := hex.EncodeToString(other[:])
	var w struct {
		Checkpoint struct {
			Last  []string          `json:"last"`
			Seats []json.RawMessage `json:"seats"`
		} `json:"checkpoint"`
	}
	require.NoError(t, json.Unmarshal(blob, &w))
	seat1 := string(w.Checkpoint.Seats[1])
	key1 := regexp.MustCompile(`"publicKey":"[0-9a-f]{64}"`).FindString(seat1)
	require.NotEmpty(t, key1)
	for _, c := range []struct {
		name      string
		blob      []byte
		whole     string // the whole view's refusal
		tail      string // the view of the moves after the checkpoint's
		tailNoNew bool
	}{
		{"transcript", editCP(t, blob, "transcript", otherHex), "its transcript differs", "does not verify", false},
		{"a last link", editCP(t, blob, "last", []string{w.Checkpoint.Last[0], otherHex}), "its last links differs", "does not hash", false},
		{"the ruleset", editCP(t, blob, "rulesHash", otherHex), "the ruleset's hash", "the ruleset's hash", false},
		{"the state", editCP(t, blob, "public", hex.EncodeToString([]byte(`{"nope":1}`))), "its game state differs", "restore pig's state", false},
		{"seat 1's key", resum(t, bytes.Replace(blob, []byte(key1), []byte(`"publicKey":"`+otherHex+`"`), 1)), "the seats' commitments", "the seats' commitments", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, after := range []int{k, 0} {
				s := restore(c.blob)
				want := c.tail
				if after == 0 {
					want = c.whole
				}
				err := checkView(s, view(after))
				require.ErrorContains(t, err, want, "from move %d", after+1)
				require.Zero(t, s.Checked(), "refused: no checkpoint")
				require.NoError(t, checkView(s, view(0)), "the fallback: the whole view from the first move")
				require.Equal(t, n, s.Checked())
			}
		})
	}
	// A view that starts between the first move and the checkpoint, or
	// past it, is refused; so is a whole view with fewer moves.
	s = restore(blob)
	require.ErrorContains(t, checkView(s, view(k-1)), "the checkpoint is at move")
	s = restore(blob)
	require.ErrorContains(t, checkView(s, view(k+1)), "the checkpoint is at move")
}

// A blob with a checkpoint is refused by name, never with a panic, when
// it is damaged (every prefix, every byte changed), of the wrong version
// for what it holds, or holds a checkpoint that is not one (the check
// written again); the blob as written restores (the control).
func TestCheckpointBlobRefused(t *testing.T) {
	_, _, blob, _ := cpTable(t, "cy")
	_, err := trustseat.Restore(pig.Def, "cy", uid(0), 0, blob)
	require.NoError(t, err)
	bare, err := trustseat.WithoutCheckpoint(blob)
	require.NoError(t, err)
	var w map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(blob, &w))
	for _, c := range []struct {
		name string
		blob []byte
		want string
	}{
		{"version 1 with a checkpoint", resum(t, bytes.Replace(blob, []byte(`{"v":2,`), []byte(`{"v":1,`), 1)), "hold a checkpoint if and only if"},
		{"version 2 without", resum(t, bytes.Replace(bare, []byte(`{"v":1,`), []byte(`{"v":2,`), 1)), "hold a checkpoint if and only if"},
		{"version 3", resum(t, bytes.Replace(blob, []byte(`{"v":2,`), []byte(`{"v":3,`), 1)), "version 3"},
		{"no move", editCP(t, blob, "moves", 0), "0 moves checked"},
		{"next index 0", editCP(t, blob, "next", 0), "next index 0"},
		{"one last link", editCP(t, blob, "last", []string{strings.Repeat("0", 64)}), "1 last links"},
		{"a link not hex", editCP(t, blob, "last", []string{strings.Repeat("0", 64), strings.Repeat("G", 64)}), "seat 1's last link"},
		{"the transcript short", editCP(t, blob, "transcript", "00"), "transcript"},
		{"the public part not hex", editCP(t, blob, "public", "zz"), "public part"},
		{"the public part upper case", editCP(t, blob, "public", "7B7D"), "public part"},
		{"an unknown field", resum(t, bytes.Replace(blob, []byte(`"checkpoint":{`), []byte(`"checkpoint":{"x":1,`), 1)), "unknown field"},
		{"seat 0's key not its own", resum(t, bytes.Replace(blob, []byte(`"publicKey":"`), []byte(`"publicKey":"0`), 1)), "not this seat's uid, key and chain head"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := trustseat.Restore(pig.Def, "cy", uid(0), 0, c.blob)
			require.ErrorContains(t, err, c.want)
		})
	}
	for i := range blob {
		_, err := trustseat.Restore(pig.Def, "cy", uid(0), 0, blob[:i])
		require.Error(t, err, "prefix %d", i)
		for _, b := range []byte{'0', '"', 'x'} {
			if blob[i] == b {
				continue
			}
			bad := append([]byte(nil), blob...)
			bad[i] = b
			_, err := trustseat.Restore(pig.Def, "cy", uid(0), 0, bad)
			require.Error(t, err, "byte %d made %q", i, b)
		}
	}
}

// A dealing table's seat (trustless Kuhn: mental poker) writes no
// checkpoint: its secrets stay version 1 through the hand, and a seat
// restored from them reads the whole view (Checked 0).
func TestDealingSeatWritesNoCheckpoint(t *testing.T) {
	m := table.NewMemory()
	seats := started(t, m, kuhn.Def, "kz")
	srv := memSrv{m, "kz"}
	moves := 0
	end, err := trustseat.Play(srv, seats, firstLegal, func(v *table.View) bool {
		for _, s := range seats {
			require.Contains(t, string(s.Export()), `{"v":1,`)
			require.NotContains(t, string(s.Export()), "checkpoint")
		}
		moves = max(moves, seats[0].Checked())
		return false
	}, 1000)
	require.NoError(t, err)
	require.Equal(t, table.PhaseFinished, end.Phase)
	require.Positive(t, moves, "the seats checked moves")
	back, err := trustseat.Restore(kuhn.Def, "kz", seats[0].UID(), 0, seats[0].Export())
	require.NoError(t, err)
	require.Zero(t, back.Checked())
}
