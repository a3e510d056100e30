package trustseat

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"golang.org/x/crypto/chacha20"
	"golang.org/x/crypto/hkdf"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng/trustless"
	"github.com/fairboard/fairboard/table/trustdeal"
)

// A seat's secrets, kept on its device (docs/play.md, "Trustless
// tables"): the chain's secret x_N, the seed of its Ed25519 key, the seed
// its mental-poker keys, permutation and proof nonces are drawn from (a
// deterministic stream, so that a restored seat makes again exactly the
// passes it made, and learns its keys back from them), and the last index
// it revealed with that round's digest and transcript (it never reveals
// an index for two rounds); and, beside them, the evidence its client
// keeps (KeepAck: the server's last acknowledgement of the seat's reveal
// or deal message, which a restart must not lose). Everything else a
// seat holds is rebuilt from the table's view, but for its checkpoint
// (checkpoint.go), which the blob carries where the game allows one.
// Export gives them as a versioned blob; Restore takes one back, refusing
// any blob that is not this game's, table's, uid's and seat's, or not
// exactly in the canonical form Export writes.

// SecretsVersion is the version of the blob Export writes with a
// checkpoint; without one it writes version 1, as before checkpoints.
// Restore reads both.
const SecretsVersion = 2

// secretsBare is the version of a blob without a checkpoint.
const secretsBare = 1

// secretsWire is the blob: JSON, fields in this order, hex lower case.
type secretsWire struct {
	V           int    `json:"v"`
	Game        string `json:"game"`
	GameID      string `json:"gameId"`
	UID         string `json:"uid"`
	Seat        int    `json:"seat"`
	ChainLength uint32 `json:"chainLength"`
	Chain       string `json:"chain"`
	Key         string `json:"key"`
	Deal        string `json:"deal"`
	Revealed    uint32 `json:"revealed"`
	Digest      string `json:"digest,omitempty"`
	Transcript  string `json:"transcript,omitempty"`
	// Ack is the evidence KeepAck kept, a JSON object as its client
	// wrote it (absent: none; a blob written before it existed has none
	// and reads as before).
	Ack json.RawMessage `json:"ack,omitempty"`
	// Checkpoint is where the seat's check of the table stands
	// (checkpoint.go): in a version 2 blob only.
	Checkpoint *checkpointWire `json:"checkpoint,omitempty"`
	// Check is the first 16 hex digits of SHA-256 of the blob written
	// with Check empty: a blob damaged in storage is refused.
	Check string `json:"check"`
}

// sum is w's Check.
func (w secretsWire) sum() string {
	w.Check = ""
	b, _ := json.Marshal(w)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}

// Export returns the seat's secrets as a blob for Restore: whoever holds
// it can sign and reveal for the seat, so it is kept on the seat's device
// alone. It changes when the seat reveals, keeps an acknowledgement
// (KeepAck) or checks moves (its checkpoint, where the game allows one:
// checkpoint.go); nothing else changes it.
func (s *Seat) Export() []byte {
	w := secretsWire{V: secretsBare, Game: s.def.Name(), GameID: s.gameID, UID: s.uid, Seat: s.seat,
		ChainLength: s.chain.Len(), Revealed: s.revealed}
	sec := s.chain.Secret()
	w.Chain = hex.EncodeToString(sec[:])
	w.Key = hex.EncodeToString(s.priv.Seed())
	w.Deal = hex.EncodeToString(s.dealSeed[:])
	if s.revealed > 0 {
		w.Digest, w.Transcript = hex.EncodeToString(s.lastDigest[:]), hex.EncodeToString(s.lastTr[:])
	}
	w.Ack = s.ack
	if cp := s.checkpoint(); cp != nil {
		w.V, w.Checkpoint = SecretsVersion, toWire(cp)
	}
	w.Check = w.sum()
	b, _ := json.Marshal(w) // strings and integers: never fails
	return b
}

// Restore makes the seat again from blob (Export's), for uid at seat of
// the table gameID of def. It refuses, naming what differs, a blob of
// another version (it reads 1 and 2), game, table, uid or seat, and one
// that is corrupt:
// not JSON, an unknown or missing field, trailing data, a secret that is
// not 64 hex digits, a chain of 0 or more than trustless.MaxChainLength
// links, an index revealed past the chain, an acknowledgement that is
// not a JSON object of at most MaxAckBytes, a checkpoint in a version 1
// blob or none in a version 2 one, a checkpoint that is not one (fromWire
// names what), or anything not written exactly as Export writes it. A
// blob without an acknowledgement (one written before KeepAck existed)
// restores a seat that keeps none; one without a checkpoint (version 1:
// written before checkpoints, or of a game without one) a seat that
// checks the table from the first move. A seat restored with a
// checkpoint asks for the moves after it (Checked) and checks its first
// view from it (checked.go). Its passes at a dealing table are made
// again from the view (Move, Reveal, DealTo) and checked against the
// table's: a blob whose passes differ is refused there.
func Restore(def game.Definition, gameID, uid string, seat int, blob []byte) (*Seat, error) {
	w, err := decodeSecrets(blob)
	if err != nil {
		return nil, err
	}
	switch {
	case w.V != secretsBare && w.V != SecretsVersion:
		return nil, fmt.Errorf("trustseat: the seat's secrets are of version %d; this client reads versions %d and %d", w.V, secretsBare, SecretsVersion)
	case w.Check != w.sum():
		return nil, errors.New("trustseat: the seat's secrets are damaged (their check does not match)")
	case (w.V == SecretsVersion) != (w.Checkpoint != nil):
		return nil, fmt.Errorf("trustseat: the seat's secrets of version %d hold a checkpoint if and only if of version %d", w.V, SecretsVersion)
	}
	switch {
	case w.Game != def.Name():
		return nil, fmt.Errorf("trustseat: the seat's secrets are for a game of %q, not %q", w.Game, def.Name())
	case w.GameID != gameID:
		return nil, fmt.Errorf("trustseat: the seat's secrets are table %q's, not %q's", w.GameID, gameID)
	case w.UID != uid:
		return nil, fmt.Errorf("trustseat: the seat's secrets are uid %q's, not %q's", w.UID, uid)
	case w.Seat != seat:
		return nil, fmt.Errorf("trustseat: the seat's secrets are seat %d's, not seat %d's", w.Seat, seat)
	case w.ChainLength < 1 || w.ChainLength > trustless.MaxChainLength:
		return nil, fmt.Errorf("trustseat: the seat's secrets hold a chain of %d links (1 to %d)", w.ChainLength, trustless.MaxChainLength)
	case w.Revealed > w.ChainLength:
		return nil, fmt.Errorf("trustseat: the seat's secrets say index %d was revealed, past its chain of %d", w.Revealed, w.ChainLength)
	case (w.Revealed > 0) != (w.Digest != "") || (w.Revealed > 0) != (w.Transcript != ""):
		return nil, errors.New("trustseat: the seat's secrets hold a last reveal's digest and transcript if and only if an index was revealed")
	case w.Ack != nil && checkAck(w.Ack) != nil:
		return nil, fmt.Errorf("trustseat: the seat's secrets' acknowledgement: %v", checkAck(w.Ack))
	}
	var chainSec, keySeed, dealSeed, digest, tr [32]byte
	for _, f := range []struct {
		name string
		hex  string
		into *[32]byte
	}{{"chain", w.Chain, &chainSec}, {"key", w.Key, &keySeed}, {"deal", w.Deal, &dealSeed}, {"digest", w.Digest, &digest}, {"transcript", w.Transcript, &tr}} {
		if f.hex == "" && (f.name == "digest" || f.name == "transcript") {
			continue
		}
		if err := hex32(f.hex, f.into); err != nil {
			return nil, fmt.Errorf("trustseat: the seat's secrets' %s: %v", f.name, err)
		}
	}
	s, err := build(def, gameID, uid, seat, w.ChainLength, chainSec, keySeed, dealSeed)
	if err != nil {
		return nil, err
	}
	s.revealed, s.lastDigest, s.lastTr, s.ack = w.Revealed, digest, tr, w.Ack
	if w.Checkpoint != nil {
		if s.cp, err = fromWire(s, w.Checkpoint); err != nil {
			return nil, fmt.Errorf("trustseat: the seat's secrets' checkpoint: %v", err)
		}
	}
	if !bytes.Equal(s.Export(), blob) {
		return nil, errors.New("trustseat: the seat's secrets are not in the form this client writes")
	}
	return s, nil
}

// decodeSecrets reads blob strictly: JSON, no unknown field, nothing
// after its end.
func decodeSecrets(blob []byte) (secretsWire, error) {
	var w secretsWire
	dec := json.NewDecoder(bytes.NewReader(blob))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return w, fmt.Errorf("trustseat: the seat's secrets are not readable: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return w, errors.New("trustseat: the seat's secrets have data after their end")
	}
	return w, nil
}

// hex32 reads 64 lower-case hex digits into out.
func hex32(h string, out *[32]byte) error {
	if len(h) != 64 || hex.EncodeToString(mustHex(h)) != h {
		return fmt.Errorf("%q is not 64 lower-case hex digits", h)
	}
	copy(out[:], mustHex(h))
	return nil
}

func mustHex(h string) []byte {
	b, err := hex.DecodeString(h)
	if err != nil {
		return nil
	}
	return b
}

// draw32 draws a 32-byte secret from crypto/rand (trustless.NewSecret).
func draw32() ([32]byte, error) { return trustless.NewSecret() }

// build makes the seat from its secrets.
func build(def game.Definition, gameID, uid string, seat int, n uint32, chainSec, keySeed, dealSeed [32]byte) (*Seat, error) {
	if seat < 0 {
		return nil, fmt.Errorf("trustseat: seat %d", seat)
	}
	c, err := trustless.NewChain(gameID, uint32(seat), n, chainSec)
	if err != nil {
		return nil, err
	}
	priv := ed25519.NewKeyFromSeed(keySeed[:])
	return &Seat{def: def, gameID: gameID, uid: uid, seat: seat, chain: c, pub: priv.Public().(ed25519.PublicKey), priv: priv, dealSeed: dealSeed}, nil
}

// newDealStream is the deterministic stream the seat's deal client
// draws from: ChaCha20's keystream (golang.org/x/crypto/chacha20, zero
// nonce) under a key that HKDF-SHA256 (golang.org/x/crypto/hkdf) derives
// from the deal seed and the table, the hand and the seat, so that each
// hand of each table has its own key. Whoever lacks the seed cannot tell
// it from crypto/rand's output.
func newDealStream(seed [32]byte, gameID string, hand uint64, seat int) io.Reader {
	info := fmt.Appendf(nil, "fairboard/trustseat/deal/v2\x00%s\x00%d\x00%d", gameID, hand, seat)
	var key [chacha20.KeySize]byte
	if _, err := io.ReadFull(hkdf.New(sha256.New, seed[:], nil, info), key[:]); err != nil {
		panic("trustseat: hkdf: " + err.Error()) // 32 bytes of HKDF never fail
	}
	c, err := chacha20.NewUnauthenticatedCipher(key[:], make([]byte, chacha20.NonceSize))
	if err != nil {
		panic("trustseat: chacha20: " + err.Error()) // a key and nonce of the right sizes
	}
	return &keystream{c: c}
}

// keystream reads a stream cipher's keystream.
type keystream struct{ c *chacha20.Cipher }

func (k *keystream) Read(p []byte) (int, error) {
	clear(p)
	k.c.XORKeyStream(p, p)
	return len(p), nil
}

// catchUp makes again, in the deal client d, the seat's own passes that
// the view shows and d has not made (a restored seat: the stream gives
// the same keys, permutation and nonces, so the same signed messages),
// taking in the others' passes between them; a pass that differs from
// the table's is refused (secrets of another seat or table).
func (s *Seat) catchUp(d *trustdeal.Seat, dv *trustdeal.View) error {
	tb, _ := d.Protocol()
	for i := len(tb.Messages()); i < len(dv.Passes); i++ {
		m := dv.Passes[i]
		if m == nil || int(m.Seat) != s.seat {
			if err := d.Sync(&trustdeal.View{Passes: dv.Passes[:i+1]}); err != nil {
				return fmt.Errorf("trustseat: the deal does not check: %w", err)
			}
			continue
		}
		a, err := d.Act(&trustdeal.View{Phase: trustdeal.PhasePass, NextSeat: s.seat}, nil)
		if err != nil || a == nil || a.Pass == nil {
			return fmt.Errorf("trustseat: making again this seat's pass %d: %v", i+1, err)
		}
		if !bytes.Equal(a.Pass.SignedBytes(), m.SignedBytes()) || !bytes.Equal(a.Pass.Sig, m.Sig) {
			return fmt.Errorf("trustseat: the table's pass %d, this seat's, is not the one its secrets make (secrets of another seat or table)", i+1)
		}
	}
	return nil
}
