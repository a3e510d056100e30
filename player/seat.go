package player

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/rng/trustless"
)

// Secrets are what a seat must keep to play on after a restart: its
// chain's secret x_N and its key's seed, with what identifies the chain
// (game, seat, N), and the last index it revealed with that round's
// action digest (a seat reveals each index once, for one action: it
// stores both before it sends the link). A client writes them where they
// survive a restart (a file the caller names) and only there.
type Secrets struct {
	GameID      string        `json:"gameId"`
	UID         string        `json:"uid"`
	Seat        int           `json:"seat"`
	ChainLength uint32        `json:"chainLength"`
	ChainSecret engine.Hash32 `json:"chainSecret"`
	KeySeed     engine.Hash32 `json:"keySeed"`
	// Revealed is the last index revealed (0: none), Digest the digest of
	// the action it was revealed for.
	Revealed uint32        `json:"revealed"`
	Digest   engine.Hash32 `json:"digest"`
}

// Seat is one player of a trustless game: its chain and key, and a
// Follower of the game's public log. Not safe for concurrent use.
type Seat struct {
	sec   Secrets
	chain *trustless.Chain
	key   ed25519.PrivateKey
	f     *Follower
}

// NewSeat makes a seat for uid at seat in game gameID, with a fresh chain
// of chainLength links (the game's N) and a fresh key, both from
// crypto/rand (rng/trustless). Building the chain costs N SHA-256.
func NewSeat(rules *engine.Ruleset, gameID, uid string, seat int, chainLength uint32) (*Seat, error) {
	ch, err := trustless.GenerateChain(gameID, uint32(seat), chainLength)
	if err != nil {
		return nil, err
	}
	_, priv, err := trustless.GenerateKey()
	if err != nil {
		return nil, err
	}
	sec := Secrets{GameID: gameID, UID: uid, Seat: seat, ChainLength: chainLength, ChainSecret: ch.Secret(), KeySeed: engine.Hash32(priv.Seed())}
	return &Seat{sec: sec, chain: ch, key: priv, f: NewFollower(rules)}, nil
}

// RestoreSeat rebuilds a seat from its secrets (after a restart); its
// follower starts from an empty log, to be fed the game's log again.
func RestoreSeat(rules *engine.Ruleset, sec Secrets) (*Seat, error) {
	ch, err := trustless.NewChain(sec.GameID, uint32(sec.Seat), sec.ChainLength, [32]byte(sec.ChainSecret))
	if err != nil {
		return nil, err
	}
	return &Seat{sec: sec, chain: ch, key: ed25519.NewKeyFromSeed(sec.KeySeed[:]), f: NewFollower(rules)}, nil
}

// Secrets returns what the seat must keep (see [Secrets]); save them after
// every Reveal.
func (s *Seat) Secrets() Secrets { return s.sec }

// UID returns the seat's player.
func (s *Seat) UID() string { return s.sec.UID }

// Head returns the chain's head x_0, published at join.
func (s *Seat) Head() engine.Hash32 { return engine.Hash32(s.chain.Head()) }

// PublicKey returns the seat's Ed25519 public key, published at join.
func (s *Seat) PublicKey() engine.Hash32 {
	return engine.Hash32(s.key.Public().(ed25519.PublicKey))
}

// Follower returns the seat's follower of the public log.
func (s *Seat) Follower() *Follower { return s.f }

// Follow feeds the seat's follower the next events of the public log.
func (s *Seat) Follow(events []engine.Event) error { return s.f.Follow(events) }

// Join returns the seat's signed join, made against version.
func (s *Seat) Join(class engine.Class, keepSmokeBomb bool, version uint64) (engine.Action, error) {
	a := engine.Action{Kind: engine.ActJoin, Actor: s.sec.UID, Version: version, Seat: s.sec.Seat, Class: class,
		KeepSmokeBomb: keepSmokeBomb, ChainHead: s.Head().String(), PublicKey: s.PublicKey().String()}
	return a, s.Sign(&a)
}

// Sign signs the seat's own action a (Actor its uid; Version the game
// version it is made against), setting a.Signature.
func (s *Seat) Sign(a *engine.Action) error {
	if a.Actor != s.sec.UID {
		return fmt.Errorf("player: seat %s does not sign an action of %s", s.sec.UID, a.Actor)
	}
	if a.Version == 0 {
		return errors.New("player: an action names the version it is made against")
	}
	msg, err := engine.ActionMessage(s.sec.GameID, a)
	if err != nil {
		return err
	}
	a.Signature = hex.EncodeToString(ed25519.Sign(s.key, msg))
	return nil
}

// ErrNothingToReveal says the game the seat has checked is not waiting for
// its link: no action pending, or this seat has revealed it already.
var ErrNothingToReveal = errors.New("player: nothing to reveal")

// Reveal returns the seat's reveal for the pending action the server
// shows in pub, at time at, after checking it against the seat's own
// replica of the game, rebuilt from the public log (Follow it first):
// the replica must have the same action pending, at the index after the
// last this seat revealed, with the same digest and transcript hash, and
// nothing the log showed may have diverged. It records the index and the
// digest (Secrets) before it returns the link: a seat never reveals an
// index twice, nor one past the next (revealing x_w discloses every
// earlier link). An error other than ErrNothingToReveal names what the
// server shows that the log does not: stop, and tell the player.
func (s *Seat) Reveal(pub *engine.Public, at int64) (engine.Action, error) {
	if err := s.f.Err(); err != nil {
		return engine.Action{}, err
	}
	shown := pub.Trustless
	if shown == nil || shown.Pending == nil {
		return engine.Action{}, ErrNothingToReveal
	}
	for _, m := range shown.Pending.Reveals {
		if m.UID == s.sec.UID {
			return engine.Action{}, ErrNothingToReveal
		}
	}
	mine := s.f.Game().Public.Trustless
	if mine == nil || mine.Pending == nil {
		return engine.Action{}, fmt.Errorf("player: the server shows %s by %s pending at index %d, which the log has not recorded",
			shown.Pending.Action.Kind, shown.Pending.Action.Actor, shown.Pending.Index)
	}
	pd, sp := mine.Pending, shown.Pending
	v := pd.Index
	switch {
	case sp.Index != v:
		return engine.Action{}, fmt.Errorf("player: the server asks for index %d; the log's pending action uses %d", sp.Index, v)
	case v == s.sec.Revealed && pd.Digest == s.sec.Digest:
		return engine.Action{}, ErrNothingToReveal // revealed already; the server has not shown it yet
	case v == s.sec.Revealed:
		return engine.Action{}, fmt.Errorf("player: index %d was revealed for the action of digest %s; the log now has %s pending there: a revealed index serves that action or none",
			v, s.sec.Digest, pd.Digest)
	case v != s.sec.Revealed+1:
		return engine.Action{}, fmt.Errorf("player: index %d is not the next after %d, the last this seat revealed", v, s.sec.Revealed)
	case sp.Digest != pd.Digest:
		return engine.Action{}, fmt.Errorf("player: the server's pending action has digest %s; the log's %s", sp.Digest, pd.Digest)
	case sp.Transcript != pd.Transcript:
		return engine.Action{}, fmt.Errorf("player: the server's transcript is %s; the log's %s", sp.Transcript, pd.Transcript)
	}
	link, err := s.chain.Link(v)
	if err != nil {
		return engine.Action{}, err
	}
	s.sec.Revealed, s.sec.Digest = v, pd.Digest
	msg := trustless.RevealMessage(s.sec.GameID, v, (*[32]byte)(&pd.Digest), (*[32]byte)(&pd.Transcript))
	return engine.Action{Kind: engine.ActReveal, Actor: s.sec.UID, At: at, Seat: s.sec.Seat, Index: v,
		Link: engine.Hash32(link).String(), Digest: pd.Digest.String(), Transcript: pd.Transcript.String(),
		Signature: hex.EncodeToString(ed25519.Sign(s.key, msg))}, nil
}
