package dungeon

import (
	"encoding/hex"
	"fmt"

	"github.com/fairboard/fairboard/bot"
	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/game"
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
// aggressive (package bot).
func (Definition) Styles() []game.Style { return append([]game.Style(nil), styles...) }

// Setup makes the engine game through the engine's dispatcher, as a bot
// game does (bot.Runner.Play): create by bot.UID(0), the owner; a join per
// seat (uid bot.UID(i), seat i, its class); start, which shuffles the
// decks and rolls the turn order from rnd. The mode follows the Rand: over
// a seeded stream at seq 0 (game.StreamOf) the game is the engine's
// seeded game of the stream's seed; over any other Rand (a crypto stream,
// a Scripted replaying one) a crypto game whose server seed is eight words
// drawn from rnd first (TagServerSeed). Refusals: a ruleset not of the
// dungeon (bad_ruleset); a seat count outside the ruleset's minPlayers to
// maxPlayers, more than one option or a class not of engine.Classes
// (bad_setup), each named.
func (Definition) Setup(r game.Ruleset, seats []game.Seat, rnd game.Rand, ev []game.Event) (game.State, []game.Event, error) {
	rules, ok := r.(*Rules)
	if !ok {
		return nil, ev, game.Reject(game.CodeBadRuleset, fmt.Sprintf("not a dungeon ruleset: %T", r))
	}
	er := rules.r
	if len(seats) < er.MinPlayers || len(seats) > er.MaxPlayers {
		return nil, ev, game.Reject(game.CodeBadSetup, fmt.Sprintf("the dungeon takes %d to %d seats, not %d", er.MinPlayers, er.MaxPlayers, len(seats)))
	}
	classes := make([]engine.Class, len(seats))
	for i, s := range seats {
		switch {
		case len(s.Options) == 0:
			classes[i] = engine.Classes[i%len(engine.Classes)]
		case len(s.Options) > 1:
			return nil, ev, game.Reject(game.CodeBadSetup, fmt.Sprintf("seat %d: one option (class), not %d", i, len(s.Options)))
		case !engine.Class(s.Options[0]).Valid():
			return nil, ev, game.Reject(game.CodeBadSetup, fmt.Sprintf("seat %d: unknown class %q", i, s.Options[0]))
		default:
			classes[i] = engine.Class(s.Options[0])
		}
	}
	// The set-up's engine events at once (about 4 a seat and a few
	// more: 18 for four seats), not by doubling from one: an engine
	// event is some 550 bytes, and Apply reuses the buffer.
	st := &State{rules: rules, g: new(engine.Game), uids: make([]string, len(seats)), buf: make([]engine.Event, 0, 8+4*len(seats))}
	for i := range st.uids {
		st.uids[i] = bot.UID(i)
	}
	create := engine.Action{Kind: engine.ActCreate, Actor: st.uids[0], GameID: CryptoGameID}
	if s, ok := game.StreamOf(rnd); ok && s.Mode() == rng.ModeSeeded && s.Seq() == 0 {
		create.Mode, create.Seed, create.GameID = string(rng.ModeSeeded), s.Seed(), "bot-"+s.Seed()
	} else {
		var seed [32]byte
		for i := 0; i < len(seed); i += 4 {
			w, err := rnd.UniformInt(0, rng.MaxSpan-1, TagServerSeed, nil)
			if err != nil {
				return nil, ev, game.Reject(game.CodeBadSetup, "the server seed: "+err.Error())
			}
			seed[i], seed[i+1], seed[i+2], seed[i+3] = byte(w>>24), byte(w>>16), byte(w>>8), byte(w)
		}
		create.Mode, create.ServerSeed = string(rng.ModeCrypto), hex.EncodeToString(seed[:])
	}
	acts := []engine.Action{create}
	for i, c := range classes {
		acts = append(acts, engine.Action{Kind: engine.ActJoin, Actor: st.uids[i], Seat: i, Class: c})
	}
	acts = append(acts, engine.Action{Kind: engine.ActStart, Actor: st.uids[0]})
	out := ev
	for i := range acts {
		var err error
		if out, err = st.dispatch(&acts[i], rnd, out); err != nil {
			return nil, ev, game.Reject(game.CodeBadSetup, "the engine refused the set-up's "+string(acts[i].Kind)+": "+err.Error())
		}
	}
	return st, out, nil
}
