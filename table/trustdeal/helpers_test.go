package trustdeal_test

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/mentalpoker"
	"github.com/fairboard/fairboard/table/trustdeal"
)

const deadline = 1000

// hand is a 2-seat trustless Kuhn hand with its clients.
type hand struct {
	cfg   trustdeal.Config
	srv   *trustdeal.Server
	seats []*trustdeal.Seat
	privs []ed25519.PrivateKey
}

// detReader is a deterministic byte stream (SHA-256 in counter mode), so
// that a failing hand can be replayed.
type detReader struct {
	seed [32]byte
	ctr  uint64
	buf  []byte
}

func (r *detReader) Read(p []byte) (int, error) {
	for n := 0; n < len(p); {
		if len(r.buf) == 0 {
			b := binary.BigEndian.AppendUint64(r.seed[:], r.ctr)
			h := sha256.Sum256(b)
			r.buf, r.ctr = h[:], r.ctr+1
		}
		c := copy(p[n:], r.buf)
		r.buf, n = r.buf[c:], n+c
	}
	return len(p), nil
}

func newHand(t *testing.T, h uint64) *hand {
	t.Helper()
	return newHandOf(t, kuhn.Def, h)
}

// newHandOf is a 2-seat trustless hand of def (Kuhn or Leduc).
func newHandOf(t *testing.T, def game.Definition, h uint64) *hand {
	t.Helper()
	return newHandSeats(t, def, h, 2)
}

// newHandSeats is newHandOf with n seats.
func newHandSeats(t *testing.T, def game.Definition, h uint64, n int) *hand {
	t.Helper()
	x := &hand{}
	var pubs []ed25519.PublicKey
	for i := range n {
		seed := sha256.Sum256([]byte(fmt.Sprint("seat key ", i, " hand ", h)))
		priv := ed25519.NewKeyFromSeed(seed[:])
		x.privs = append(x.privs, priv)
		pubs = append(pubs, priv.Public().(ed25519.PublicKey))
	}
	x.cfg = trustdeal.Config{Def: def, GameID: def.Name() + "-tl", Hand: h, Keys: pubs, DeadlineMs: deadline, Now: 0}
	var err error
	x.srv, err = trustdeal.NewServer(x.cfg)
	require.NoError(t, err)
	for i := range n {
		r := &detReader{seed: sha256.Sum256([]byte(fmt.Sprint("seat ", i, " hand ", h)))}
		s, err := trustdeal.NewSeat(x.cfg, i, x.privs[i], r)
		require.NoError(t, err)
		x.seats = append(x.seats, s)
	}
	return x
}

// step syncs every seat with the view and sends the first action, at
// time at; false when no seat acts.
func (x *hand) step(t *testing.T, at int64, skip int) bool {
	t.Helper()
	v := x.srv.View()
	for _, s := range x.seats {
		require.NoError(t, s.Sync(v))
		if s.Index() == skip {
			continue
		}
		a, err := s.Act(v, betAll)
		require.NoError(t, err)
		if a != nil {
			a.At = at
			require.NoError(t, x.srv.Do(*a))
			return true
		}
	}
	return false
}

// betAll bets (or calls) whenever it can.
func betAll(_ int, _ map[int]int, legal []game.Move) game.Move {
	for _, m := range legal {
		if m.Kind == kuhn.KindBet {
			return m
		}
	}
	return legal[0]
}

// randomChooser picks uniformly with its own seeded stream (match's
// random bot).
func randomChooser(seed uint64) trustdeal.Choose {
	s, err := rng.NewSeeded(fmt.Sprint("trustdeal-chooser-", seed))
	if err != nil {
		panic(err) // a fixed, non-empty seed
	}
	bot := match.NewRandom(s)
	return func(seat int, _ map[int]int, legal []game.Move) game.Move { return bot.Choose(nil, seat, legal) }
}

// kuhnPayoffs is Kuhn poker's settlement written again from OpenSpiel's
// rules: each seat antes 1, a 'b' adds a chip for the seat acting (seats
// alternate from 0); "bp" and "pbp" end in a fold (the other seat takes
// the pot), every other end is a showdown won by the higher card; the
// winner wins what the loser put in.
func kuhnPayoffs(c0, c1 int, hist string) []float64 {
	in := [2]float64{1, 1}
	for i, ch := range hist {
		if ch == 'b' {
			in[i%2]++
		}
	}
	w := 1
	switch {
	case hist == "bp":
		w = 0
	case hist == "pbp":
		w = 1
	case c0 > c1:
		w = 0
	}
	out := make([]float64, 2)
	out[w], out[1-w] = in[1-w], -in[1-w]
	return out
}

// history is the moves as Kuhn's 'p'/'b' string.
func history(ms []game.Move) string {
	var b []byte
	for _, m := range ms {
		b = append(b, map[string]byte{kuhn.KindPass: 'p', kuhn.KindBet: 'b'}[m.Kind])
	}
	return string(b)
}

// copyRecord is a deep copy through the record's JSON.
func copyRecord(t *testing.T, r *match.RecordDeal) *match.RecordDeal {
	t.Helper()
	b, err := json.Marshal(r)
	require.NoError(t, err)
	var c match.RecordDeal
	require.NoError(t, json.Unmarshal(b, &c))
	return &c
}

// resign signs a tampered pass message again with its seat's key: what a
// cheating seat sends.
func resign(m *mentalpoker.PassMessage, priv ed25519.PrivateKey) {
	m.Sig = ed25519.Sign(priv, m.SignedBytes())
}

// culprit returns the seat an error names and requires one.
func culprit(t *testing.T, err error, sentinel error) int {
	t.Helper()
	require.Error(t, err)
	require.True(t, errors.Is(err, sentinel), "%v is not %v", err, sentinel)
	s, ok := mentalpoker.Culprit(err)
	require.True(t, ok, "%v names no seat", err)
	return s
}
