package bot

import (
	"crypto/sha256"
	"errors"
	"fmt"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
	"github.com/fairboard/fairboard/games/dungeon/server/session"
	"github.com/fairboard/fairboard/rng"
)

// TrustlessConfig says how [Runner.PlayTrustless] sets a trustless game
// up and plays it.
type TrustlessConfig struct {
	// GameID names the game ("bot-trustless" if empty).
	GameID string
	// ChainLength and DeadlineMs are the create's (0: the defaults).
	ChainLength int
	DeadlineMs  int64
	// Start is the time of the create (unix ms; 0 for 1,700,000,000,000);
	// the clock advances Tick ms per action (0 for 1,000), so that no
	// round ever meets its deadline.
	Start, Tick int64
	// After, if not nil, is called after every applied action (reveals
	// included) with the game as the server holds it and the events the
	// action emitted; an error stops the game.
	After func(g *engine.Game, events []engine.Event) error
	// Stop, if not nil, is asked before every action whether to stop the
	// game there (to export or inspect a game in the middle of its play).
	Stop func(g *engine.Game) bool
	// Auditor, if not nil, receives every RNG audit entry (the draws of
	// every round's stream).
	Auditor rng.Auditor
	// Seed, if not empty, makes every seat's chain secret and signing key
	// a function of it (SHA-256 of a label, the seed and the seat), so
	// that a game of bots is the same game each time it is played: for
	// tests and simulations only. Empty: each seat draws fresh secrets
	// from crypto/rand, as a real client does.
	Seed string
}

// seededSecrets are a seat's secrets derived from cfg.Seed.
func seededSecrets(seed, gameID, uid string, seat int, n uint32) player.Secrets {
	derive := func(label string) engine.Hash32 {
		return engine.Hash32(sha256.Sum256([]byte(fmt.Sprintf("fairboard/bot-secrets/v1\x00%s\x00%s\x00%d", label, seed, seat))))
	}
	return player.Secrets{GameID: gameID, UID: uid, Seat: seat, ChainLength: n,
		ChainSecret: derive("chain"), KeySeed: derive("key")}
}

// PlayTrustless plays one trustless game of bots from create to its end,
// in process: a server (the engine, with session.StreamFor before every
// action, as a server applies actions) and one player.Seat per seat, each
// with its own fresh chain and key, which signs its player's actions,
// follows the public log with its own replica of the game and reveals
// its link for each pending action only once it has checked it. Seats
// reveal in turn starting one further each round, so every order of
// arrival is played. It returns the seats (in seat order); the log is
// r.Events(), the actions (if Record) r.Actions(), reveals included.
func (r *Runner) PlayTrustless(g *engine.Game, cfg TrustlessConfig, seats []Seat) ([]*player.Seat, error) {
	g.Reset()
	r.events, r.actions = r.events[:0], r.actions[:0]
	for len(r.uids) < len(seats) {
		r.uids = append(r.uids, policy.UID(len(r.uids)))
	}
	rules := r.eng.Rules()
	gameID := cfg.GameID
	if gameID == "" {
		gameID = "bot-trustless"
	}
	now, tick := cfg.Start, cfg.Tick
	if now == 0 {
		now = 1_700_000_000_000
	}
	if tick == 0 {
		tick = 1000
	}
	var clients []*player.Seat
	var opts []rng.Option
	if cfg.Auditor != nil {
		opts = append(opts, rng.WithAuditor(cfg.Auditor))
	}
	step := func(a engine.Action) error {
		now += tick
		a.At = now
		var s *rng.Stream
		if a.Kind != engine.ActCreate {
			var err error
			if s, err = session.StreamFor(g, &a, opts...); err != nil {
				return err
			}
		}
		before := len(r.events)
		if err := r.do(g, a, s); err != nil {
			return err
		}
		ev := r.events[before:]
		for _, c := range clients {
			if err := c.Follow(ev); err != nil {
				return fmt.Errorf("bot: %s's client: %w", c.UID(), err)
			}
		}
		if cfg.After != nil {
			return cfg.After(g, ev)
		}
		return nil
	}
	if err := step(engine.Action{Kind: engine.ActCreate, Actor: r.uids[0], GameID: gameID, Mode: string(rng.ModeTrustless),
		ChainLength: cfg.ChainLength, DeadlineMs: cfg.DeadlineMs}); err != nil {
		return nil, err
	}
	n := g.Public.Trustless.ChainLength
	for i, st := range seats {
		var c *player.Seat
		var err error
		if cfg.Seed != "" {
			c, err = player.RestoreSeat(rules, seededSecrets(cfg.Seed, gameID, r.uids[i], i, n))
		} else {
			c, err = player.NewSeat(rules, gameID, r.uids[i], i, n)
		}
		if err != nil {
			return nil, err
		}
		if err := c.Follow(r.events); err != nil {
			return nil, err
		}
		clients = append(clients, c)
		a, err := c.Join(st.Class, false, g.Public.Version)
		if err != nil {
			return nil, err
		}
		if err := step(a); err != nil {
			return nil, err
		}
	}
	act := func(seat int, a engine.Action) error {
		a.Version = g.Public.Version
		if err := clients[seat].Sign(&a); err != nil {
			return err
		}
		return step(a)
	}
	if err := act(0, engine.Action{Kind: engine.ActStart, Actor: r.uids[0]}); err != nil {
		return nil, err
	}
	for n := 0; g.Public.Phase != engine.PhaseFinished; n++ {
		if cfg.Stop != nil && cfg.Stop(g) {
			return clients, nil
		}
		if pd := g.Public.Trustless.Pending; pd != nil {
			stopped, err := r.revealRound(g, clients, pd.Index, step, cfg.Stop)
			if err != nil {
				return nil, err
			}
			if stopped {
				return clients, nil
			}
			continue
		}
		seat, me, err := r.awaited(g, seats, n)
		if err != nil {
			return nil, err
		}
		if err := act(seat, seats[seat].Policy.Choose(&g.Public, rules, me.UID)); err != nil {
			return nil, err
		}
	}
	return clients, nil
}

// revealRound has every seat reveal the pending index v, seat (v+k) mod n
// k-th, each after checking what the server shows against its replica;
// stop, if not nil, may end the play between two reveals.
func (r *Runner) revealRound(g *engine.Game, clients []*player.Seat, v uint32, step func(engine.Action) error, stop func(*engine.Game) bool) (bool, error) {
	n := len(clients)
	for k := range n {
		if k > 0 && stop != nil && stop(g) {
			return true, nil
		}
		c := clients[(int(v)+k)%n]
		a, err := c.Reveal(&g.Public, 0)
		if errors.Is(err, player.ErrNothingToReveal) {
			continue
		}
		if err != nil {
			return false, fmt.Errorf("bot: %s refuses to reveal index %d: %w", c.UID(), v, err)
		}
		if err := step(a); err != nil {
			return false, err
		}
	}
	if pd := g.Public.Trustless.Pending; pd != nil && pd.Index == v {
		return false, fmt.Errorf("bot: round %d did not close", v)
	}
	return false, nil
}
