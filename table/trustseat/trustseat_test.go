package trustseat_test

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
)

type memSrv struct {
	m *table.Memory
	g string
}

func (s memSrv) Do(a table.Action) (*table.Result, error) { return s.m.Do(s.g, a) }
func (s memSrv) View(uid string) (*table.View, error)     { return s.m.View(s.g, uid) }

func uid(i int) string { return fmt.Sprintf("u%d", i) }

// lobby makes a started 2-seat trustless Pig table g with its seats.
func lobby(t *testing.T, m *table.Memory, g string) []*trustseat.Seat {
	t.Helper()
	_, err := m.Create(g, pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: rng.ModeTrustless, Seats: 2, ChainLength: 256})
	require.NoError(t, err)
	seats := make([]*trustseat.Seat, 2)
	for i := range seats {
		seats[i], err = trustseat.New(pig.Def, g, uid(i), i, 256)
		require.NoError(t, err)
		_, err = m.Do(g, seats[i].Join("j", uint64(1+i), nil, nil))
		require.NoError(t, err)
	}
	_, err = m.Do(g, table.Action{Actor: uid(0), ActionID: "s", Version: 3, Kind: table.KindStart})
	require.NoError(t, err)
	return seats
}

func roll(*table.View) game.Move { return game.Move{Kind: pig.KindRoll} }

// A seat reveals only a round its own replay of the public protocol leads
// to: a pending round shown with another digest, transcript or index, or
// a past round whose link changed, is refused by name; the same view as
// the table shows it is revealed (the control).
func TestSeatRevealsOnlyWhatItChecked(t *testing.T) {
	m := table.NewMemory()
	seats := lobby(t, m, "ck")
	srv := memSrv{m, "ck"}
	// Play until a round is pending after at least one closed round.
	rounds := 0
	_, err := trustseat.Play(srv, seats, roll, func(v *table.View) bool {
		if p := v.Trustless.Pending; p != nil && len(p.Reveals) == 1 {
			rounds++
			return rounds > 3 && len(v.Trustless.Moves) > 0
		}
		return false
	}, 1000)
	require.NoError(t, err)
	v, err := srv.View(uid(1))
	require.NoError(t, err)
	require.NotNil(t, v.Trustless.Pending)
	seat := seats[1]
	if v.Trustless.Pending.Reveals[0].Seat == 1 {
		seat = seats[0]
		v, err = srv.View(uid(0))
		require.NoError(t, err)
	}
	flip := func(h string) string { return map[bool]string{true: "1", false: "0"}[h[0] == '0'] + h[1:] }
	for _, c := range []struct {
		name string
		edit func(v *table.View)
		want string
	}{
		{"another digest", func(v *table.View) { v.Trustless.Pending.Digest = flip(v.Trustless.Pending.Digest) }, "is not the one the log leads to"},
		{"another transcript", func(v *table.View) { v.Trustless.Pending.Transcript = flip(v.Trustless.Pending.Transcript) }, "is not the one the log leads to"},
		{"another index", func(v *table.View) { v.Trustless.Pending.Index++ }, "is not the one the log leads to"},
		{"a move the actor did not sign", func(v *table.View) { v.Trustless.Pending.Signature = v.Trustless.Moves[0].Signature }, "signature does not verify"},
		{"a past link changed", func(v *table.View) {
			for i := range v.Trustless.Moves {
				if v.Trustless.Moves[i].Index > 0 {
					v.Trustless.Moves[i].Reveals[1].Link = flip(v.Trustless.Moves[i].Reveals[1].Link)
					return
				}
			}
		}, "changed since it was checked"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, err := srv.View(seat.UID())
			require.NoError(t, err)
			c.edit(w)
			_, err = seat.Reveal("r", w)
			require.ErrorContains(t, err, c.want)
		})
	}
	// The control: the view as the table shows it is revealed and closes
	// the round.
	w, err := srv.View(seat.UID())
	require.NoError(t, err)
	a, err := seat.Reveal("r", w)
	require.NoError(t, err)
	_, err = m.Do("ck", a)
	require.NoError(t, err)
	b, err := seat.Reveal("r2", w)
	require.NoError(t, err)
	require.Equal(t, a.Reveal, b.Reveal, "asked again for the round it revealed, a seat gives the same reveal, nothing new")
	seat.Forget(w.Trustless.Pending.Index - 1)
	_, err = seat.Reveal("r3", w)
	require.ErrorContains(t, err, "asked for index", "a seat never reveals out of order")
}

// The player's side imports the machinery only (the audit ring's
// package, which the table imports, among it), never a game.
func TestImportsNoGame(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "github.com/fairboard/fairboard/table/trustseat").CombinedOutput()
	require.NoError(t, err, string(out))
	for _, p := range strings.Fields(string(out)) {
		rest, ours := strings.CutPrefix(p, "github.com/fairboard/fairboard/")
		if ours {
			require.True(t, rest == "table" || rest == "table/trustseat" || rest == "table/trustdeal" || rest == "game" || rest == "match" || rest == "ntbea" || rest == "rng" || strings.HasPrefix(rest, "rng/") ||
				rest == "internal/checks" || rest == "audit",
				"trustseat imports %s", p)
		}
	}
}
