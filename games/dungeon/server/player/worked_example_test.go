package player_test

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
	"github.com/fairboard/fairboard/games/dungeon/server/session"
)

// example is the worked example of rng/trustless/testdata/vectors.json,
// computed by Node (gen.mjs) from the protocol's definitions.
type example struct {
	GameID      string `json:"gameId"`
	RulesHash   string
	ChainLength uint32
	Seats       []struct {
		Seat                                         int
		UID                                          string `json:"uid"`
		Class                                        engine.Class
		SecretHex, KeySeedHex, PublicKeyHex, HeadHex string
		Link1Hex                                     string
	}
	Records []struct {
		Kind, Actor                            string
		DigestHex, SignatureHex, TranscriptHex string
	}
	Pending struct {
		Index                    uint32
		DigestHex, TranscriptHex string
	}
	Reveals []struct {
		Seat                  int
		LinkHex, SignatureHex string
	}
	R1Hex         string `json:"r1Hex"`
	TurnOrderDice []int
	TieBreakDice  []struct {
		UID   string `json:"uid"`
		Value int
	}
	TurnOrder               []string
	TranscriptAfterRoundHex string
}

func h32(t *testing.T, s string) engine.Hash32 {
	t.Helper()
	h, err := engine.ParseHash32(s, "vector")
	require.NoError(t, err)
	return h
}

// TestWorkedExample plays the worked example of docs/fairness.md through
// the engine, the seats restored from the example's secrets, and requires
// every number Node computed independently: each join's head and key, the
// records' digests, signatures and transcript hashes, the reveals, R_1
// (the stream the server builds for the round), the turn-order dice and
// the transcript after the round.
func TestWorkedExample(t *testing.T) {
	b, err := os.ReadFile("../../../../rng/trustless/testdata/vectors.json")
	require.NoError(t, err)
	var v struct{ Example example }
	require.NoError(t, json.Unmarshal(b, &v))
	e := v.Example
	rules := engine.DefaultRules()
	require.Equal(t, e.RulesHash, rules.Hash())
	eng := engine.NewReference(rules)
	var g engine.Game
	var log []engine.Event
	do := func(a engine.Action) []engine.Event {
		t.Helper()
		var ev []engine.Event
		var err error
		if a.Kind == engine.ActCreate {
			ev, err = eng.Dispatch(&g, &a, nil, nil)
		} else {
			s, serr := session.StreamFor(&g, &a)
			require.NoError(t, serr)
			ev, err = eng.Dispatch(&g, &a, s, nil)
		}
		require.NoError(t, err, "%s by %s", a.Kind, a.Actor)
		log = append(log, ev...)
		return ev
	}
	ev := do(engine.Action{Kind: engine.ActCreate, Actor: "p1", GameID: e.GameID, Mode: "trustless", ChainLength: int(e.ChainLength), DeadlineMs: 60000})
	records := []*engine.TrustRecord{ev[len(ev)-1].Trust}
	var seats []*player.Seat
	for _, s := range e.Seats {
		seat, err := player.RestoreSeat(rules, player.Secrets{GameID: e.GameID, UID: s.UID, Seat: s.Seat, ChainLength: e.ChainLength,
			ChainSecret: h32(t, s.SecretHex), KeySeed: h32(t, s.KeySeedHex)})
		require.NoError(t, err)
		require.Equal(t, s.HeadHex, seat.Head().String())
		require.Equal(t, s.PublicKeyHex, seat.PublicKey().String())
		require.NoError(t, seat.Follow(log))
		seats = append(seats, seat)
		a, err := seat.Join(s.Class, false, g.Public.Version)
		require.NoError(t, err)
		ev := do(a)
		require.Equal(t, s.HeadHex, ev[0].Keys.ChainHead.String(), "PlayerJoined shows the head")
		records = append(records, ev[len(ev)-1].Trust)
		for _, c := range seats {
			require.NoError(t, c.Follow(ev))
		}
	}
	start := engine.Action{Kind: engine.ActStart, Actor: "p1", Version: g.Public.Version}
	require.NoError(t, seats[0].Sign(&start))
	ev = do(start)
	require.Equal(t, engine.EvActionPending, ev[0].Type)
	records = append(records, ev[0].Trust)
	for _, c := range seats {
		require.NoError(t, c.Follow(ev))
	}
	require.Len(t, records, len(e.Records))
	for i, r := range e.Records {
		require.Equal(t, r.DigestHex, records[i].Digest.String(), "record %d (%s)", i, r.Kind)
		require.Equal(t, r.SignatureHex, records[i].Signature, "record %d", i)
		require.Equal(t, r.TranscriptHex, records[i].Transcript.String(), "record %d", i)
	}
	pd := g.Public.Trustless.Pending
	require.Equal(t, e.Pending.Index, pd.Index)
	require.Equal(t, e.Pending.DigestHex, pd.Digest.String())
	require.Equal(t, e.Pending.TranscriptHex, pd.Transcript.String())

	for i, r := range e.Reveals {
		a, err := seats[i].Reveal(&g.Public, 0)
		require.NoError(t, err)
		require.Equal(t, r.LinkHex, a.Link)
		require.Equal(t, r.SignatureHex, a.Signature)
		if i == len(e.Reveals)-1 {
			s, err := session.StreamFor(&g, &a)
			require.NoError(t, err)
			require.Equal(t, e.R1Hex, s.Seed(), "the round's stream is keyed by Node's R_1")
		}
		ev = do(a)
	}
	var dice []int
	var ties []int
	var order []string
	for _, x := range ev {
		switch x.Type {
		case engine.EvTurnOrderRolled:
			dice = append(dice, x.Value)
		case engine.EvTieBreakRerolled:
			ties = append(ties, x.Value)
		case engine.EvGameStarted:
			order = x.Order
		}
	}
	require.Equal(t, e.TurnOrderDice, dice)
	want := []int{}
	for _, d := range e.TieBreakDice {
		want = append(want, d.Value)
	}
	require.Equal(t, want, ties)
	require.Equal(t, e.TurnOrder, order)
	require.Equal(t, e.TranscriptAfterRoundHex, g.Public.Trustless.Transcript.String())
	require.Equal(t, e.Reveals[0].LinkHex, hex.EncodeToString(ev[0].Trust.Reveals[0].Link[:]))
}
