package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/fairboard/fairboard/rng"
)

// SaveStream records s's state in g after a Dispatch (session.Stream
// rebuilds the stream from it for the next action): Secret.RNGState (in
// seeded and fair modes) and Public.RNG.Seq. It fails only if such a stream
// cannot save its state.
func (g *Game) SaveStream(s *rng.Stream) error {
	g.Public.RNG.Seq = s.Seq()
	if m := g.Public.RNG.Mode; m != rng.ModeSeeded && m != rng.ModeFair {
		return nil
	}
	st, err := s.State()
	if err != nil {
		return err
	}
	g.Secret.RNGState = st
	return nil
}

// CanonicalJSON returns the game as JSON with a fixed field order
// (encoding/json of Game: public then secret, fields in declaration order).
// Two games are the same game exactly when their canonical JSON is equal.
func (g *Game) CanonicalJSON() ([]byte, error) { return json.Marshal(g) }

// Hash returns the hex SHA-256 of the canonical JSON.
func (g *Game) Hash() (string, error) {
	b, err := g.CanonicalJSON()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// Reset makes g the zero Game (a game not yet created) but keeps the
// memory of its lists (players and their items, turn order, decks and their
// piles, shuffle records, the reveal) for the next game to reuse, as a bot runner playing game after game
// does. Every read of g, its JSON included, is then the zero Game's; only
// a shallow copy of g made before (sharing its lists) would see them reused.
func (g *Game) Reset() {
	players, order := g.Public.Players[:0], g.Public.Order[:0]
	decks, secret := g.Public.Decks[:0], g.Secret.Decks[:0]
	shuffles := g.Secret.Shuffles[:0]
	spare := g.Public.Fairness
	if spare == nil {
		spare = g.spare
	}
	*g = Game{spare: spare}
	g.Public.Players, g.Public.Order = players, order
	g.Public.Decks, g.Secret.Decks = decks, secret
	g.Secret.Shuffles = shuffles
}

// Clone returns a deep copy of g.
func (g *Game) Clone() *Game {
	c := *g
	p := &c.Public
	p.Players = cloneSlice(g.Public.Players)
	for i := range p.Players {
		p.Players[i].Items = cloneStrings(p.Players[i].Items)
	}
	p.Order = cloneStrings(p.Order)
	p.Decks = cloneSlice(g.Public.Decks)
	for i := range p.Decks {
		p.Decks[i].Discard = cloneStrings(p.Decks[i].Discard)
		p.Decks[i].Pile = cloneStrings(p.Decks[i].Pile)
	}
	if g.Public.Combat != nil {
		cb := *g.Public.Combat
		cb.Enemies = cloneSlice(cb.Enemies)
		p.Combat = &cb
	}
	if g.Public.Duel != nil {
		d := *g.Public.Duel
		p.Duel = &d
	}
	if g.Public.Bracket != nil {
		b := *g.Public.Bracket
		b.Finalists = cloneStrings(b.Finalists)
		p.Bracket = &b
	}
	p.Fairness = g.Public.Fairness.Clone()
	p.Trustless = g.Public.Trustless.Clone()
	c.spare = nil
	c.Secret.Decks = cloneSlice(g.Secret.Decks)
	for i := range c.Secret.Decks {
		c.Secret.Decks[i].Cards = cloneStrings(c.Secret.Decks[i].Cards)
	}
	c.Secret.Entropy = cloneStrings(g.Secret.Entropy)
	c.Secret.Links = cloneSlice(g.Secret.Links)
	c.Secret.Shuffles = cloneSlice(g.Secret.Shuffles)
	for i := range c.Secret.Shuffles {
		c.Secret.Shuffles[i].Order = cloneStrings(c.Secret.Shuffles[i].Order)
	}
	return &c
}

// cloneSlice copies s, keeping nil and empty apart (they encode to JSON
// null and [] respectively).
func cloneSlice[T any](s []T) []T {
	if s == nil {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}

func cloneStrings(s []string) []string { return cloneSlice(s) }
