package trustless_test

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/trustless"
)

// Vectors is testdata/vectors.json, written by gen.mjs with Node's crypto
// (OpenSSL), independently of this package. Other packages' tests read it
// too (rng/fair's contribution commitments, the engine's trustless start).
type Vectors struct {
	Fields []struct{ Hex, FieldHex string }
	Chains []struct {
		GameID    string `json:"gameId"`
		Seat, N   uint32
		SecretHex string
		LinksHex  []string
	}
	FairCommitments []struct {
		GameID                         string `json:"gameId"`
		Seat                           uint32
		ContributionHex, CommitmentHex string
	}
	Example Example
}

// Example is the worked example of docs/fairness.md.
type Example struct {
	GameID         string `json:"gameId"`
	RulesHash      string
	ChainLength    uint32
	Transcript0Hex string
	Seats          []struct {
		Seat                                uint32
		UID                                 string `json:"uid"`
		Class                               string
		SecretHex, KeySeedHex, PublicKeyHex string
		HeadHex, Link1Hex, Link2Hex         string
		Link256Hex, Link65535Hex            string
	}
	Records []struct {
		Kind, Actor                                          string
		Version                                              uint64
		CanonicalHex, DigestHex, SignatureHex, TranscriptHex string
	}
	Pending struct {
		Index                    uint32
		DigestHex, TranscriptHex string
	}
	Reveals []struct {
		Seat                  uint32
		LinkHex, SignatureHex string
	}
	R1Hex         string `json:"r1Hex"`
	R1Words       []uint32
	TurnOrderDice []int
	TieBreakDice  []struct {
		UID   string `json:"uid"`
		Value int
	}
	TurnOrder               []string
	TranscriptAfterRoundHex string
	Draws                   struct {
		Pile   []string
		KeyHex string
		Draws  []struct {
			Remaining, J int
			CardID       string `json:"cardId"`
		}
		Words int
	}
}

// Load reads the vectors.
func Load(t testing.TB) Vectors {
	t.Helper()
	b, err := os.ReadFile("testdata/vectors.json")
	require.NoError(t, err)
	var v Vectors
	require.NoError(t, json.Unmarshal(b, &v))
	require.NotEmpty(t, v.Chains)
	require.Len(t, v.Example.Seats, 3)
	return v
}

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	require.NoError(t, err)
	return b
}

func h32(t testing.TB, s string) [32]byte {
	t.Helper()
	b := unhex(t, s)
	require.Len(t, b, 32)
	return [32]byte(b)
}

// TestVectorsAreNodes: the committed vectors.json is exactly what gen.mjs
// prints, run now by Node (so nobody edited it by hand, and the Go code
// is checked against OpenSSL's numbers, not its own). Without Node it is
// skipped, but under CI (CI=true), where Node is installed, it fails.
func TestVectorsAreNodes(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is not installed; CI needs it to check the trustless vectors")
		}
		t.Skip("node is not installed")
	}
	cmd := exec.Command(node, "testdata/gen.mjs", "--stdout")
	out, err := cmd.Output()
	require.NoError(t, err, "gen.mjs failed")
	want, err := os.ReadFile("testdata/vectors.json")
	require.NoError(t, err)
	require.True(t, bytes.Equal(out, want), "testdata/vectors.json is not gen.mjs's output: run node rng/trustless/testdata/gen.mjs")
}

func TestFieldVectors(t *testing.T) {
	for _, f := range Load(t).Fields {
		require.Equal(t, f.FieldHex, hex.EncodeToString(trustless.AppendField(nil, unhex(t, f.Hex))))
	}
}

// TestChainVectors: every link of each chain, from Prev, CheckLink and the
// checkpointed Chain alike, in order and out of order.
func TestChainVectors(t *testing.T) {
	for _, c := range Load(t).Chains {
		secret := h32(t, c.SecretHex)
		ch, err := trustless.NewChain(c.GameID, c.Seat, c.N, secret)
		require.NoError(t, err)
		require.Equal(t, c.LinksHex[0], hx(ch.Head()))
		require.Len(t, c.LinksHex, int(c.N)+1)
		for i := c.N; i >= 1; i-- {
			x := h32(t, c.LinksHex[i])
			prev := trustless.Prev(c.GameID, c.Seat, i, &x)
			require.Equal(t, c.LinksHex[i-1], hex.EncodeToString(prev[:]), "%s seat %d: x_%d", c.GameID, c.Seat, i-1)
			want := h32(t, c.LinksHex[i-1])
			require.True(t, trustless.CheckLink(c.GameID, c.Seat, i, &x, &want))
			require.False(t, trustless.CheckLink(c.GameID, c.Seat+1, i, &x, &want), "another seat's chain")
			require.False(t, trustless.CheckLink(c.GameID+"x", c.Seat, i, &x, &want), "another game's chain")
			if i > 1 {
				require.False(t, trustless.CheckLink(c.GameID, c.Seat, i-1, &x, &want), "another index")
			}
		}
		for _, v := range []uint32{c.N, 1, 0, c.N / 2, c.N} {
			got, err := ch.Link(v)
			require.NoError(t, err)
			require.Equal(t, c.LinksHex[v], hex.EncodeToString(got[:]), "link %d", v)
		}
	}
}

// TestExampleVectors: the worked example's heads, keys, links, action
// encodings, digests, signatures, transcript, R_1, its words and draws.
func TestExampleVectors(t *testing.T) {
	e := Load(t).Example
	require.Equal(t, e.Transcript0Hex, hx(trustless.TranscriptStart(e.GameID, e.RulesHash)))
	type seat struct {
		priv  ed25519.PrivateKey
		chain *trustless.Chain
	}
	seats := make([]seat, len(e.Seats))
	for i, s := range e.Seats {
		ch, err := trustless.NewChain(e.GameID, s.Seat, e.ChainLength, h32(t, s.SecretHex))
		require.NoError(t, err)
		require.Equal(t, s.HeadHex, hx(ch.Head()))
		for v, want := range map[uint32]string{1: s.Link1Hex, 2: s.Link2Hex, 256: s.Link256Hex, 65535: s.Link65535Hex} {
			got, err := ch.Link(v)
			require.NoError(t, err)
			require.Equal(t, want, hx(got), "seat %d link %d", s.Seat, v)
		}
		priv := ed25519.NewKeyFromSeed(unhex(t, s.KeySeedHex))
		require.Equal(t, s.PublicKeyHex, hex.EncodeToString(priv.Public().(ed25519.PublicKey)))
		seats[i] = seat{priv, ch}
	}

	// The records: create, three joins, start.
	fields := []trustless.ActionFields{{Kind: "create", Actor: "p1", Mode: "trustless", ChainLength: e.ChainLength, DeadlineMs: 60000}}
	for i, s := range e.Seats {
		head := seats[i].chain.Head()
		fields = append(fields, trustless.ActionFields{Kind: "join", Actor: s.UID, Version: uint64(1 + i), Seat: s.Seat,
			Class: s.Class, ChainHead: head[:], PublicKey: unhex(t, s.PublicKeyHex)})
	}
	fields = append(fields, trustless.ActionFields{Kind: "start", Actor: "p1", Version: 4})
	signers := []int{-1, 0, 1, 2, 0}
	require.Len(t, e.Records, len(fields))
	T := trustless.TranscriptStart(e.GameID, e.RulesHash)
	var digest [32]byte
	for i, r := range e.Records {
		c := fields[i].AppendCanonical(nil)
		require.Equal(t, r.CanonicalHex, hex.EncodeToString(c), "record %d (%s)", i, r.Kind)
		digest = trustless.ActionDigest(e.GameID, c)
		require.Equal(t, r.DigestHex, hx(digest))
		var sig []byte
		if k := signers[i]; k >= 0 {
			sig = ed25519.Sign(seats[k].priv, trustless.ActionMessage(e.GameID, c))
			require.True(t, trustless.Verify(unhex(t, e.Seats[k].PublicKeyHex), trustless.ActionMessage(e.GameID, c), sig))
		}
		require.Equal(t, r.SignatureHex, hex.EncodeToString(sig), "record %d", i)
		T = trustless.TranscriptAction(&T, &digest, sig)
		require.Equal(t, r.TranscriptHex, hx(T), "record %d", i)
	}
	require.Equal(t, e.Pending.DigestHex, hx(digest))
	require.Equal(t, e.Pending.TranscriptHex, hx(T))

	// The reveals of round 1 and R_1.
	var links [][32]byte
	for i, r := range e.Reveals {
		l, err := seats[i].chain.Link(1)
		require.NoError(t, err)
		require.Equal(t, r.LinkHex, hx(l))
		msg := trustless.RevealMessage(e.GameID, 1, &digest, &T)
		require.Equal(t, r.SignatureHex, hex.EncodeToString(ed25519.Sign(seats[i].priv, msg)))
		links = append(links, l)
	}
	r1 := trustless.Randomness(e.GameID, 1, &digest, links)
	require.Equal(t, e.R1Hex, hx(r1))
	after := trustless.TranscriptRound(&T, 1, links)
	require.Equal(t, e.TranscriptAfterRoundHex, hx(after))

	s := trustless.Stream(r1, 0)
	for i, want := range e.R1Words {
		require.Equal(t, want, s.Uint32(rng.TagTestOnly, nil), "word %d", i)
	}
	s = trustless.Stream(r1, 0)
	for i, want := range e.TurnOrderDice {
		d, err := s.Dice(6, rng.TagTestOnly, nil)
		require.NoError(t, err)
		require.Equal(t, want, d.Value, "die %d", i)
	}

	// The draws of the whole treasure.t1 pile.
	require.Equal(t, e.R1Hex, e.Draws.KeyHex)
	s = trustless.Stream(r1, 0)
	pile := append([]string{}, e.Draws.Pile...)
	for i, d := range e.Draws.Draws {
		require.Len(t, pile, d.Remaining)
		card, rest, err := trustless.DrawFromPile(s, pile, rng.TagDrawTreasureT1, nil)
		require.NoError(t, err)
		require.Equal(t, d.CardID, card, "draw %d", i)
		pile = rest
	}
	require.Empty(t, pile)
	off, err := s.State()
	require.NoError(t, err)
	require.Equal(t, "chacha20:"+strconv.Itoa(4*e.Draws.Words), off, "the draws consumed exactly the words Node's did")
}

func hx(b [32]byte) string { return hex.EncodeToString(b[:]) }
