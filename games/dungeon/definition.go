package dungeon

import (
	"encoding/hex"
	"fmt"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/rng"
)

// CryptoGameID is the engine GameID of a crypto game the definition sets
// up. A seeded game's is "bot-" and its seed, as bot.Runner names it, so
// that a seeded game is the very game the engine's bots play on that seed
// (and a whole-game golden fixture, fixtures/testdata/05-game-4p.json,
// replays through the definition); the view blanks it (State.AppendView).
const CryptoGameID = "dungeon"

// TagServerSeed is the tag of the eight 32-bit words of a crypto game's
// server seed (the key of its deck salts), drawn at setup.
const TagServerSeed rng.Tag = "dungeon.serverSeed"

// MaxItem is the largest item index a move names: an inventory holds at
// most capacity (20 at most) plus what a step adds before the capacity
// step, well below it.
const MaxItem = 63

// Definition is the dungeon's game definition; Def is its value.
type Definition struct{}

// Def is the dungeon, for the registry.
var Def game.Definition = Definition{}

// Name returns "dungeon".
func (Definition) Name() string { return Name }

// DefaultRuleset returns DefaultRules().
func (Definition) DefaultRuleset() game.Ruleset { return DefaultRules() }

// DecodeRuleset decodes an engine ruleset strictly (see decodeRules): a
// refusal is an *Error of CodeBadRuleset naming the problem.
func (Definition) DecodeRuleset(data []byte) (game.Ruleset, error) {
	r, err := decodeRules(data)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// Params returns the ruleset's numbers at object paths, with their ranges.
func (Definition) Params() []game.Param { return append([]game.Param(nil), params...) }

// classNames are the values of the seat option "class", engine.Classes.
var classNames = func() []string {
	out := make([]string, len(engine.Classes))
	for i, c := range engine.Classes {
		out[i] = string(c)
	}
	return out
}()

// Seats returns 2 to 6 seats, 4 by default, each with the option "class"
// (warrior, monk, duelist, scout; a seat without it takes the default
// rotation, engine.Classes[seat%4]).
func (Definition) Seats() game.Seats {
	return game.Seats{Min: 2, Max: MaxSeats, Default: 4, Options: []game.SeatOption{{Name: "class", Values: classNames,
		Doc: "the player's class; without it, seat i is warrior, monk, duelist, scout for i%4 = 0..3"}}}
}

// The move kinds with arguments: an item by its index in the mover's
// inventory (engine.Player.Items, in order), a target by its seat.
var (
	argItem   = []game.ArgSpec{{Name: "item", Min: 0, Max: MaxItem}}
	argTarget = []game.ArgSpec{{Name: "target", Min: 0, Max: MaxSeats - 1}}
)

// kinds are the engine's turn kinds (engine.TurnKinds), in the order of
// engine.ActionKinds. The lobby's and the protocols' kinds (create, join,
// start, abandon, reveal, abort, open, removeSeat) are no moves: Setup
// makes the create, the joins and the start itself.
var kinds = []game.KindSpec{
	{Name: string(engine.ActUseItem), Args: argItem, Doc: "manage: drink the potion at that inventory index"},
	{Name: string(engine.ActDropItem), Args: argItem, Doc: "manage: drop the item at that inventory index"},
	{Name: string(engine.ActEndManage), Doc: "manage: end the step"},
	{Name: string(engine.ActOfferDuel), Args: argTarget, Doc: "preDuel: challenge the player of that seat on the mover's tile"},
	{Name: string(engine.ActSkipDuel), Doc: "preDuel: challenge no one"},
	{Name: string(engine.ActMove), Doc: "moveOrSleep: roll the movement die and move"},
	{Name: string(engine.ActSleep), Doc: "moveOrSleep: heal instead of moving"},
	{Name: string(engine.ActCombatRound), Doc: "combat: fight one round"},
	{Name: string(engine.ActDuelRound), Doc: "duel: fight one duel round (the challenger)"},
	{Name: string(engine.ActReroll), Doc: "duel or bracket: re-roll the defense die just rolled (a duelist)"},
	{Name: string(engine.ActDeclineReroll), Doc: "duel or bracket: keep the die"},
	{Name: string(engine.ActDiscard), Args: argItem, Doc: "capacity: discard the item at that inventory index"},
}

// Kinds returns the twelve turn kinds.
func (Definition) Kinds() []game.KindSpec { return kinds }

// EventTypes returns the engine's event types of a seeded or crypto game,
// with the values of their summary (events.go).
func (Definition) EventTypes() []game.EventSpec { return eventTypes }

// Styles returns the engine bots' heuristic policies, cautious and
// aggressive (games/dungeon/policy).
func (Definition) Styles() []game.Style { return append([]game.Style(nil), styles...) }

// Setup makes the engine game through the engine's dispatcher, as a bot
// game does (bot.Runner.Play): create by policy.UID(0), the owner; a join per
// seat (uid policy.UID(i), seat i, its class); start, which shuffles the
// decks and rolls the turn order from rnd. The mode follows the Rand: over
// a seeded stream at seq 0 (game.StreamOf) the game is the engine's
// seeded game of the stream's seed; over any other Rand (a crypto stream,
// a Scripted replaying one) a crypto game whose server seed is eight words
// drawn from rnd first (TagServerSeed). Refusals: a ruleset not of the
// dungeon (bad_ruleset); a seat count outside the ruleset's minPlayers to
// maxPlayers, more than one option or a class not of engine.Classes
// (bad_setup), each named.
func (Definition) Setup(r game.Ruleset, seats []game.Seat, rnd game.Rand, ev []game.Event) (game.State, []game.Event, error) {
	// The set-up's engine events at once (about 4 a seat and a few
	// more: 18 for four seats), not by doubling from one: an engine
	// event is some 550 bytes, and Apply reuses the buffer.
	st := &State{g: new(engine.Game), buf: make([]engine.Event, 0, 8+4*len(seats))}
	out, err := st.setup(r, seats, rnd, ev)
	if err != nil {
		return nil, ev, err
	}
	return st, out, nil
}

// SetupAgain implements game.Resetter: Setup in the state's own memory
// (its engine game reset, engine.Game.Reset; its buffers and dispatcher
// kept), for a lean match's next game. A quiet state stays quiet: its
// set-up goes through the lean dispatcher, returns no event and commits
// no shuffle, as its moves do. Refusals as Setup's.
func (s *State) SetupAgain(r game.Ruleset, seats []game.Seat, rnd game.Rand, ev []game.Event) ([]game.Event, error) {
	s.g.Reset()
	s.buf = s.buf[:0]
	return s.setup(r, seats, rnd, ev)
}

// setup checks the ruleset and seats (Setup's refusals) and dispatches
// the set-up's actions on s.g, a zero or reset engine game: create,
// one join per seat, start.
func (s *State) setup(r game.Ruleset, seats []game.Seat, rnd game.Rand, ev []game.Event) ([]game.Event, error) {
	rules, ok := r.(*Rules)
	if !ok {
		return ev, game.Reject(game.CodeBadRuleset, fmt.Sprintf("not a dungeon ruleset: %T", r))
	}
	er := rules.r
	if len(seats) < er.MinPlayers || len(seats) > er.MaxPlayers {
		return ev, game.Reject(game.CodeBadSetup, fmt.Sprintf("the dungeon takes %d to %d seats, not %d", er.MinPlayers, er.MaxPlayers, len(seats)))
	}
	for i, st := range seats {
		switch {
		case len(st.Options) > 1:
			return ev, game.Reject(game.CodeBadSetup, fmt.Sprintf("seat %d: one option (class), not %d", i, len(st.Options)))
		case len(st.Options) == 1 && !engine.Class(st.Options[0]).Valid():
			return ev, game.Reject(game.CodeBadSetup, fmt.Sprintf("seat %d: unknown class %q", i, st.Options[0]))
		}
	}
	if s.rules != rules {
		// The dispatcher is the ruleset's engine's: a state that changes
		// ruleset makes its own again, lean if the state is quiet.
		s.rules, s.disp = rules, nil
		if s.quiet {
			s.disp = rules.eng.NewDispatcher()
			s.disp.Lean(0)
		}
	}
	if len(s.uids) != len(seats) {
		s.uids = make([]string, len(seats)) // never changed in place: clones share it
		for i := range s.uids {
			s.uids[i] = policy.UID(i)
		}
	}
	// The actions are written into s.act, which the dispatcher holds by
	// pointer as Apply's.
	s.act = engine.Action{Kind: engine.ActCreate, Actor: s.uids[0], GameID: CryptoGameID}
	if st, ok := game.StreamOf(rnd); ok && st.Mode() == rng.ModeSeeded && st.Seq() == 0 {
		s.act.Mode, s.act.Seed, s.act.GameID = string(rng.ModeSeeded), st.Seed(), "bot-"+st.Seed()
	} else {
		var seed [32]byte
		for i := 0; i < len(seed); i += 4 {
			w, err := rnd.UniformInt(0, rng.MaxSpan-1, TagServerSeed, nil)
			if err != nil {
				return ev, game.Reject(game.CodeBadSetup, "the server seed: "+err.Error())
			}
			seed[i], seed[i+1], seed[i+2], seed[i+3] = byte(w>>24), byte(w>>16), byte(w>>8), byte(w)
		}
		s.act.Mode, s.act.ServerSeed = string(rng.ModeCrypto), hex.EncodeToString(seed[:])
	}
	out, err := s.dispatch(&s.act, rnd, ev)
	for i := 0; err == nil && i <= len(seats); i++ {
		if i < len(seats) {
			c := engine.Classes[i%len(engine.Classes)]
			if len(seats[i].Options) == 1 {
				c = engine.Class(seats[i].Options[0])
			}
			s.act = engine.Action{Kind: engine.ActJoin, Actor: s.uids[i], Seat: i, Class: c}
		} else {
			s.act = engine.Action{Kind: engine.ActStart, Actor: s.uids[0]}
		}
		out, err = s.dispatch(&s.act, rnd, out)
	}
	if err != nil {
		return ev, game.Reject(game.CodeBadSetup, "the engine refused the set-up's "+string(s.act.Kind)+": "+err.Error())
	}
	return out, nil
}
