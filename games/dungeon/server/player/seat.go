package player

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/internal/checks"
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
	key   ed25519.PrivateKey // nil: the key is held elsewhere (see ExternalSeat)
	pub   engine.Hash32
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
	return &Seat{sec: sec, chain: ch, key: priv, pub: engine.Hash32(priv.Public().(ed25519.PublicKey)), f: NewFollower(rules)}, nil
}

// RestoreSeat rebuilds a seat from its secrets (after a restart); its
// follower starts from an empty log, to be fed the game's log again.
func RestoreSeat(rules *engine.Ruleset, sec Secrets) (*Seat, error) {
	ch, err := trustless.NewChain(sec.GameID, uint32(sec.Seat), sec.ChainLength, [32]byte(sec.ChainSecret))
	if err != nil {
		return nil, err
	}
	key := ed25519.NewKeyFromSeed(sec.KeySeed[:])
	return &Seat{sec: sec, chain: ch, key: key, pub: engine.Hash32(key.Public().(ed25519.PublicKey)), f: NewFollower(rules)}, nil
}

// ExternalSeat is a seat whose signing key is held elsewhere (a browser's
// non-extractable WebCrypto key): it holds the chain (sec.KeySeed is
// ignored), its public key pub, and follows the game with f, which may
// have read part of the log already. It does not sign: SignMessage and
// PrepareReveal return the bytes the key holder signs.
func ExternalSeat(sec Secrets, pub engine.Hash32, f *Follower) (*Seat, error) {
	ch, err := trustless.NewChain(sec.GameID, uint32(sec.Seat), sec.ChainLength, [32]byte(sec.ChainSecret))
	if err != nil {
		return nil, err
	}
	if f == nil {
		return nil, errors.New("player: an external seat needs a follower")
	}
	sec.KeySeed = engine.Hash32{}
	return &Seat{sec: sec, chain: ch, pub: pub, f: f}, nil
}

// Secrets returns what the seat must keep (see [Secrets]); save them after
// every Reveal.
func (s *Seat) Secrets() Secrets { return s.sec }

// UID returns the seat's player.
func (s *Seat) UID() string { return s.sec.UID }

// Head returns the chain's head x_0, published at join.
func (s *Seat) Head() engine.Hash32 { return engine.Hash32(s.chain.Head()) }

// PublicKey returns the seat's Ed25519 public key, published at join.
func (s *Seat) PublicKey() engine.Hash32 { return s.pub }

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
	msg, err := s.SignMessage(a)
	if err != nil {
		return err
	}
	if s.key == nil {
		return ErrKeyElsewhere
	}
	a.Signature = hex.EncodeToString(ed25519.Sign(s.key, msg))
	return nil
}

// ErrKeyElsewhere says the seat's key is held elsewhere (ExternalSeat):
// sign SignMessage's or PrepareReveal's bytes with it.
var ErrKeyElsewhere = errors.New("player: this seat's signing key is held elsewhere")

// SignMessage returns the bytes the seat signs to submit its own action a
// (Actor its uid; Version the game version it is made against):
// rng/trustless.ActionMessage of a's canonical encoding.
func (s *Seat) SignMessage(a *engine.Action) ([]byte, error) {
	if a.Actor != s.sec.UID {
		return nil, fmt.Errorf("player: seat %s does not sign an action of %s", s.sec.UID, a.Actor)
	}
	if a.Version == 0 {
		return nil, errors.New("player: an action names the version it is made against")
	}
	return engine.ActionMessage(s.sec.GameID, a)
}

// ActReveal returns the reveal to send with the seat's own signed action
// a (Actor its uid, Version the checked game's, Signature set), and
// whether a draws (docs/fairness.md, "An action with its reveal"): it
// applies a to a copy of the checked game; if a becomes pending there,
// at the index after the last this seat revealed, it records that index
// and the pending action's digest in the Secrets, as Reveal does (save
// them before sending), and returns the link for it signed over that
// action's digest and transcript. An action that draws nothing gets no
// reveal (false, nothing recorded); one the rules refuse returns their
// refusal. Once it has returned a reveal for an action, the seat never
// reveals that index for another: send a again (same action id) until
// it is answered, and never another action at that version.
func (s *Seat) ActReveal(a *engine.Action) (engine.Action, bool, error) {
	if s.key == nil {
		return engine.Action{}, false, ErrKeyElsewhere
	}
	rv, msg, draws, err := s.PrepareActReveal(a)
	if err != nil || !draws {
		return engine.Action{}, false, err
	}
	rv.Signature = hex.EncodeToString(ed25519.Sign(s.key, msg))
	return rv, true, nil
}

// PrepareActReveal is ActReveal without the signature: the reveal (its
// Signature empty) and the bytes its signature covers
// (rng/trustless.RevealMessage), after the same checks, with the index
// and the digest recorded in the Secrets as ActReveal records them. The
// caller signs msg with the seat's key (a WebCrypto key, say).
func (s *Seat) PrepareActReveal(a *engine.Action) (rv engine.Action, msg []byte, draws bool, err error) {
	if a.Actor != s.sec.UID || a.Signature == "" {
		return engine.Action{}, nil, false, fmt.Errorf("player: seat %s reveals with its own signed action only", s.sec.UID)
	}
	pd, err := s.f.Pending(a)
	if err != nil || pd == nil {
		return engine.Action{}, nil, false, err
	}
	v := pd.Index
	switch {
	case v == s.sec.Revealed && pd.Digest == s.sec.Digest:
		// the same action again (a retry): the same reveal
	case v == s.sec.Revealed:
		return engine.Action{}, nil, false, fmt.Errorf("player: index %d was revealed for the action of digest %s; %s by %s has digest %s: a revealed index serves that action or none",
			v, s.sec.Digest, a.Kind, a.Actor, pd.Digest)
	case v != s.sec.Revealed+1:
		return engine.Action{}, nil, false, fmt.Errorf("player: %s would use index %d, not the next after %d, the last this seat revealed", a.Kind, v, s.sec.Revealed)
	}
	link, err := s.chain.Link(v)
	if err != nil {
		return engine.Action{}, nil, false, err
	}
	s.sec.Revealed, s.sec.Digest = v, pd.Digest
	msg = trustless.RevealMessage(s.sec.GameID, v, (*[32]byte)(&pd.Digest), (*[32]byte)(&pd.Transcript))
	return engine.Action{Kind: engine.ActReveal, Actor: s.sec.UID, Seat: s.sec.Seat, Index: v,
		Link: engine.Hash32(link).String(), Digest: pd.Digest.String(), Transcript: pd.Transcript.String()}, msg, true, nil
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
	a, msg, err := s.PrepareReveal(pub, at)
	if err != nil {
		return a, err
	}
	if s.key == nil {
		return engine.Action{}, ErrKeyElsewhere
	}
	a.Signature = hex.EncodeToString(ed25519.Sign(s.key, msg))
	return a, nil
}

// PrepareReveal is Reveal without the signature: the reveal (its
// Signature empty) and the bytes its signature covers
// (rng/trustless.RevealMessage), after the same checks, with the index
// and the digest recorded in the seat's Secrets as Reveal records them.
// The caller signs msg with the seat's key (a WebCrypto key, say).
func (s *Seat) PrepareReveal(pub *engine.Public, at int64) (engine.Action, []byte, error) {
	a, pd, err := s.prepare(pub, at)
	if err != nil {
		return engine.Action{}, nil, err
	}
	return a, trustless.RevealMessage(s.sec.GameID, a.Index, (*[32]byte)(&pd.Digest), (*[32]byte)(&pd.Transcript)), nil
}

// prepare checks the pending action shown in pub against the replica's
// and returns the reveal with the pending action it is for.
func (s *Seat) prepare(pub *engine.Public, at int64) (engine.Action, *engine.Pending, error) {
	if err := s.f.Err(); err != nil {
		return engine.Action{}, nil, err
	}
	shown := pub.Trustless
	if shown == nil || shown.Pending == nil {
		return engine.Action{}, nil, ErrNothingToReveal
	}
	for _, m := range shown.Pending.Reveals {
		if m.UID == s.sec.UID {
			return engine.Action{}, nil, ErrNothingToReveal
		}
	}
	sp := shown.Pending
	var pd *engine.Pending
	if mine := s.f.Game().Public.Trustless; mine != nil {
		pd = mine.Pending
	}
	if pd == nil {
		if checks.On(checks.SeatRecorded) {
			return engine.Action{}, nil, fmt.Errorf("player: the server shows %s by %s pending at index %d, which the log has not recorded",
				sp.Action.Kind, sp.Action.Actor, sp.Index)
		}
		pd = sp // a positive control: the server's word taken
	}
	v := pd.Index
	switch {
	case sp.Index != v && checks.On(checks.SeatIndex):
		return engine.Action{}, nil, fmt.Errorf("player: the server asks for index %d; the log's pending action uses %d", sp.Index, v)
	case v == s.sec.Revealed && pd.Digest == s.sec.Digest:
		return engine.Action{}, nil, ErrNothingToReveal // revealed already; the server has not shown it yet
	case v == s.sec.Revealed:
		return engine.Action{}, nil, fmt.Errorf("player: index %d was revealed for the action of digest %s; the log now has %s pending there: a revealed index serves that action or none",
			v, s.sec.Digest, pd.Digest)
	case v != s.sec.Revealed+1:
		return engine.Action{}, nil, fmt.Errorf("player: index %d is not the next after %d, the last this seat revealed", v, s.sec.Revealed)
	case sp.Digest != pd.Digest && checks.On(checks.SeatDigest):
		return engine.Action{}, nil, fmt.Errorf("player: the server's pending action has digest %s; the log's %s", sp.Digest, pd.Digest)
	case sp.Transcript != pd.Transcript && checks.On(checks.SeatTranscript):
		return engine.Action{}, nil, fmt.Errorf("player: the server's transcript is %s; the log's %s", sp.Transcript, pd.Transcript)
	}
	link, err := s.chain.Link(v)
	if err != nil {
		return engine.Action{}, nil, err
	}
	s.sec.Revealed, s.sec.Digest = v, pd.Digest
	return engine.Action{Kind: engine.ActReveal, Actor: s.sec.UID, At: at, Seat: s.sec.Seat, Index: v,
		Link: engine.Hash32(link).String(), Digest: pd.Digest.String(), Transcript: pd.Transcript.String()}, pd, nil
}
