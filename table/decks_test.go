package table_test

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
)

// The commitment bytes of docs/fairness.md ("A table game's record"),
// written out here with crypto/sha256 alone: the expected values do not
// come from rng/fair or match.

func lenField(b []byte) []byte {
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(b))), b...)
}

func sha(parts ...[]byte) []byte {
	h := sha256.New()
	for _, p := range parts {
		h.Write(p)
	}
	return h.Sum(nil)
}

// wantSaltKey is a seeded table's key (from its seed's UTF-8) or a fair
// table's (from its server seed's 32 bytes).
func wantSaltKey(t *testing.T, mode rng.Mode, seed string) []byte {
	if mode == rng.ModeFair {
		b, err := hex.DecodeString(serverSeed)
		require.NoError(t, err)
		return sha(lenField([]byte("fairboard/salt-key/v1")), lenField(b))
	}
	return sha(lenField([]byte("fairboard/salt-key/v1")), lenField([]byte(seed)))
}

// wantCommitment is salt_k of key and the commitment to deck's order,
// each card its value in decimal.
func wantCommitment(key []byte, k uint32, deck string, order []int) (salt, commit string) {
	s := sha(lenField([]byte("fairboard/deck-salt/v1")), lenField(key), binary.BigEndian.AppendUint32(nil, k))
	parts := [][]byte{lenField([]byte("fairboard/deck/v1")), lenField(s), lenField([]byte(deck)), binary.BigEndian.AppendUint32(nil, uint32(len(order)))}
	for _, c := range order {
		parts = append(parts, lenField([]byte(fmt.Sprint(c))))
	}
	return hex.EncodeToString(s), hex.EncodeToString(sha(parts...))
}

// kuhnDeckTable makes a two-seat Kuhn poker table in mode, joined by u0 and
// u1 and started; after each action it is saved and restored (from its
// snapshot) when restore is set. It returns the table and the start's
// result for u0.
func kuhnDeckTable(t *testing.T, mode rng.Mode, seed string, restore bool) (*table.Table, *table.Result) {
	t.Helper()
	req := table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: mode, Seed: seed}
	switch mode {
	case rng.ModeFair:
		req.Seed, req.ServerSeed = "", serverSeed
	case rng.ModeCrypto:
		req.Seed = ""
	}
	tb, res, err := table.Create(kuhn.Def, req)
	require.NoError(t, err)
	for i := range 2 {
		res, err = tb.Do(table.Action{Actor: uid(i), ActionID: "j", Version: res.Version, Kind: table.KindJoin, Seat: i, Entropy: map[bool]string{true: "0a"}[mode == rng.ModeFair]})
		require.NoError(t, err)
		if restore {
			tb = roundTrip(t, kuhn.Def, tb)
		}
	}
	res, err = tb.Do(table.Action{Actor: uid(0), ActionID: "s", Version: res.Version, Kind: table.KindStart})
	require.NoError(t, err)
	if restore {
		tb = roundTrip(t, kuhn.Def, tb)
	}
	return tb, res
}

// playKuhn plays tb to its end by random legal moves from bots, saving
// and restoring it after each when restore is set; seen (if not nil) is
// called before each move (before the end), and with each move's result.
func playKuhn(t *testing.T, tb *table.Table, bots *rng.Stream, restore bool, seen func(*table.Table, any)) *table.Table {
	t.Helper()
	bot := match.NewRandom(bots)
	for i := 0; tb.Phase() != table.PhaseFinished; i++ {
		require.Less(t, i, 20, "a hand of Kuhn poker ends")
		if seen != nil {
			seen(tb, nil)
		}
		pub := tb.Public()
		v := tb.View(pub.Seats[pub.ToMove].UID)
		mv := bot.Choose(nil, v.Seat, v.Legal)
		res, err := tb.Do(table.Action{Actor: uid(v.Seat), ActionID: fmt.Sprintf("m%d", i), Version: v.Version, Kind: table.KindMove,
			Move: game.AppendMoveJSON(nil, kuhn.Def.Kinds(), mv)})
		require.NoError(t, err)
		if seen != nil {
			seen(tb, res)
		}
		if restore {
			tb = roundTrip(t, kuhn.Def, tb)
		}
	}
	return tb
}

// commitments returns the DeckCommitted events of evs.
func commitments(evs []table.Event) []table.Event {
	var out []table.Event
	for _, e := range evs {
		if !e.Game && e.Type == table.TypeDeckCommitted {
			out = append(out, e)
		}
	}
	return out
}

// A seeded, fair or crypto Kuhn table publishes its deck's commitment at
// the start, to every reader and in the start's result, before the
// deal's events: k 0, 3 cards, deck "kuhn", tag kuhn.deal. At the end
// the record reveals the salt key (a seeded or fair table's the one its
// seed makes), the salt and the order (the seats' dealt cards first),
// and the published commitment is SHA-256 over the documented bytes,
// computed here; the record checks clean, against the log's commitments
// too. The table is saved and restored after every action (but a fair
// one: roundTrip compares views that hold a pointer).
func TestDeckCommittedWhenShuffled(t *testing.T) {
	for _, mode := range []rng.Mode{rng.ModeSeeded, rng.ModeFair, rng.ModeCrypto} {
		t.Run(string(mode), func(t *testing.T) {
			seed := "deck-" + string(mode)
			restore := mode != rng.ModeFair
			tb, res := kuhnDeckTable(t, mode, seed, restore)
			cs := commitments(res.Events)
			require.Len(t, cs, 1, "the start's result holds the commitment")
			c := cs[0]
			require.Equal(t, [game.MaxVals]int64{0, 3}, c.Vals)
			require.Len(t, c.Options, 3)
			require.Equal(t, []string{kuhn.DeckID, string(kuhn.TagDeal)}, c.Options[:2])
			require.Len(t, c.Options[2], 64)
			for _, e := range res.Events {
				if e.Game {
					require.Greater(t, e.Seq, c.Seq, "the commitment comes before the deal's events")
				}
			}
			for _, u := range []string{uid(0), uid(1), ""} {
				require.Equal(t, cs, commitments(tb.View(u).Log), "%q reads the commitment", u)
			}
			bots, err := rng.NewSeeded(seed + "/bots")
			require.NoError(t, err)
			tb = playKuhn(t, tb, bots, restore, nil)
			require.Equal(t, cs, commitments(tb.View("").Log), "one commitment: Kuhn shuffles once")

			rec, err := tb.Record(uid(1))
			require.NoError(t, err)
			require.NotNil(t, rec.Decks)
			require.Len(t, rec.Decks.Shuffles, 1)
			s := rec.Decks.Shuffles[0]
			key, err := hex.DecodeString(rec.Decks.SaltKeyHex)
			require.NoError(t, err)
			if mode != rng.ModeCrypto {
				require.Equal(t, hex.EncodeToString(wantSaltKey(t, mode, seed)), rec.Decks.SaltKeyHex)
			}
			salt, commit := wantCommitment(key, 0, kuhn.DeckID, s.Order)
			require.Equal(t, salt, s.SaltHex)
			require.Equal(t, commit, c.Options[2], "the published commitment opens to the revealed order")
			require.Equal(t, commit, s.CommitmentHex)
			dealt := map[int]int{}
			for _, line := range rec.Log {
				var e struct {
					Type     string
					To, Card int
				}
				require.NoError(t, json.Unmarshal(line, &e))
				if e.Type == kuhn.EventDealt {
					dealt[e.To] = e.Card
				}
			}
			require.Equal(t, map[int]int{0: s.Order[0], 1: s.Order[1]}, dealt, "the order is the one dealt from")
			d, err := match.CheckRecord(kuhn.Def, rec)
			require.NoError(t, err)
			require.NoError(t, d)
			require.NoError(t, match.CheckPublishedDecks(rec, []string{c.Options[2]}))
			require.Error(t, match.CheckPublishedDecks(rec, []string{strings.Repeat("0", 64)}), "another published commitment")
			require.Error(t, match.CheckPublishedDecks(rec, nil), "a record with more commitments than the table published")
		})
	}
}

// viewText is everything of v as text: its JSON and its Go form, with
// its byte fields (the game's state, the private part, the rules) as
// text.
func viewText(v *table.View) string {
	state, priv, rules := v.State, v.Private, v.Rules
	v.State, v.Private, v.Rules = nil, nil, nil
	b, _ := json.Marshal(v)
	return fmt.Sprintf("%s %+v %s %s %s", b, *v, state, priv, rules)
}

// deckLeaks plays Kuhn tables in every mode that commits and gathers
// everything a reader can read before the end (every reader's view
// before each move, each move's result, the refusal of a move out of
// turn and its result); at the end it looks there for what the record
// reveals: the salt key, each salt and each order (as Go and as JSON
// write it). It returns the kinds of secret found ("salt key", "salt",
// "order"), each once.
func deckLeaks(t *testing.T, games int) map[string]bool {
	found := map[string]bool{}
	for g := range games {
		for _, mode := range []rng.Mode{rng.ModeSeeded, rng.ModeFair, rng.ModeCrypto} {
			seed := fmt.Sprintf("leak-%d", g)
			tb, res := kuhnDeckTable(t, mode, seed, false)
			texts := []string{fmt.Sprintf("%+v", *res)}
			seen := func(tb *table.Table, res any) {
				if res != nil {
					texts = append(texts, fmt.Sprintf("%+v", res))
					return
				}
				for _, u := range []string{uid(0), uid(1), "u9", ""} {
					texts = append(texts, viewText(tb.View(u)))
				}
				pub := tb.Public()
				r, err := tb.Do(table.Action{Actor: uid(1 - pub.ToMove), ActionID: "out-of-turn", Version: pub.Version, Kind: table.KindMove, Move: []byte(`{"kind":"pass"}`)})
				texts = append(texts, fmt.Sprintf("%+v %v", r, err))
			}
			bots, err := rng.NewSeeded(seed + "/bots")
			require.NoError(t, err)
			tb = playKuhn(t, tb, bots, false, seen)
			rec, err := tb.Record(uid(0))
			require.NoError(t, err)
			require.NotNil(t, rec.Decks)
			secrets := map[string]string{rec.Decks.SaltKeyHex: "salt key"}
			for _, s := range rec.Decks.Shuffles {
				secrets[s.SaltHex] = "salt"
				o, _ := json.Marshal(s.Order)
				secrets[string(o)], secrets[fmt.Sprint(s.Order)] = "order", "order"
			}
			for _, text := range texts {
				for secret, kind := range secrets {
					if strings.Contains(text, secret) {
						found[kind] = true
					}
				}
			}
		}
	}
	return found
}

// No reader reads a deck's salt key, salt or order before the end, in
// any mode that commits (in views, results or refusals); with the
// table's test switch that puts each shuffle's salt and order into its
// public event, the same check finds both.
func TestDeckSecretsHiddenUntilTheEnd(t *testing.T) {
	require.Empty(t, deckLeaks(t, 10))
	defer table.SetLeakDecks(true)()
	require.Equal(t, map[string]bool{"salt": true, "order": true}, deckLeaks(t, 10))
}

// A record whose named deck's salt key, salt, order or commitment was
// changed is refused, as a divergence that names it; one whose decks
// are malformed is an error. The changed order is also a card the
// server swapped mid-hand: the replay deals from another order than
// the one committed.
func TestDeckRecordTampered(t *testing.T) {
	for _, mode := range []rng.Mode{rng.ModeSeeded, rng.ModeCrypto} {
		tb, _ := kuhnDeckTable(t, mode, "tamper", false)
		bots, err := rng.NewSeeded("tamper/bots")
		require.NoError(t, err)
		tb = playKuhn(t, tb, bots, false, nil)
		rec, err := tb.Record(uid(0))
		require.NoError(t, err)
		other := strings.Repeat("ab", 32)
		for _, c := range []struct {
			name   string
			change func(d *match.RecordDecks)
			want   string // in the divergence; "" for an error
		}{
			{"salt", func(d *match.RecordDecks) { d.Shuffles[0].SaltHex = other }, "is not salt_0 of the salt key"},
			{"order", func(d *match.RecordDecks) { o := d.Shuffles[0].Order; o[0], o[2] = o[2], o[0] }, "the replay makes"},
			{"commitment", func(d *match.RecordDecks) { d.Shuffles[0].CommitmentHex = other }, "do not open its commitment"},
			{"deck", func(d *match.RecordDecks) { d.Shuffles[0].DeckID = "jokers" }, `the replay shuffles deck "kuhn"`},
			{"a shuffle more", func(d *match.RecordDecks) { d.Shuffles = append(d.Shuffles, d.Shuffles[0]); d.Shuffles[1].K = 1 }, "the record has 2, the replay makes 1"},
			{"salt key", func(d *match.RecordDecks) { d.SaltKeyHex = other }, map[rng.Mode]string{rng.ModeSeeded: "is not the one the seeded game's seed makes", rng.ModeCrypto: "is not salt_0 of the salt key"}[mode]},
			{"salt key not hex", func(d *match.RecordDecks) { d.SaltKeyHex = "zz" }, ""},
			{"salt upper case", func(d *match.RecordDecks) { d.Shuffles[0].SaltHex = strings.ToUpper(d.Shuffles[0].SaltHex) }, ""},
			{"k", func(d *match.RecordDecks) { d.Shuffles[0].K = 1 }, ""},
		} {
			bad := *rec
			var d match.RecordDecks
			b, err := json.Marshal(rec.Decks)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(b, &d))
			c.change(&d)
			bad.Decks = &d
			div, err := match.CheckRecord(kuhn.Def, &bad)
			if c.want == "" {
				require.Error(t, err, "%s %s", mode, c.name)
				continue
			}
			require.NoError(t, err, "%s %s", mode, c.name)
			require.ErrorContains(t, div, c.want, "%s %s", mode, c.name)
		}
		trust := *rec
		trust.Mode = rng.ModeTrustless
		_, err = match.CheckRecord(kuhn.Def, &trust)
		require.Error(t, err, "a trustless record with decks")
	}
}

// The salt key is in the saved table (the server's alone): a seeded
// table's is the one its seed makes, and a saved key that is not is
// refused at restore. A table saved without one (started before
// commitments) restores, plays on committing nothing, and its record has
// no decks and checks clean.
func TestDeckKeySaved(t *testing.T) {
	tb, _ := kuhnDeckTable(t, rng.ModeSeeded, "saved-key", false)
	data, err := tb.Save()
	require.NoError(t, err)
	var s map[string]any
	require.NoError(t, json.Unmarshal(data, &s))
	require.Equal(t, hex.EncodeToString(wantSaltKey(t, rng.ModeSeeded, "saved-key")), s["deckKey"])

	s["deckKey"] = strings.Repeat("ab", 32)
	bad, err := json.Marshal(s)
	require.NoError(t, err)
	_, err = table.Restore(kuhn.Def, bad)
	require.ErrorContains(t, err, "salt key")

	delete(s, "deckKey")
	old, err := json.Marshal(s)
	require.NoError(t, err)
	tb, err = table.Restore(kuhn.Def, old)
	require.NoError(t, err)
	bots, err := rng.NewSeeded("saved-key/bots")
	require.NoError(t, err)
	tb = playKuhn(t, tb, bots, false, nil)
	rec, err := tb.Record(uid(0))
	require.NoError(t, err)
	require.Nil(t, rec.Decks)
	d, err := match.CheckRecord(kuhn.Def, rec)
	require.NoError(t, err)
	require.NoError(t, d)
}
