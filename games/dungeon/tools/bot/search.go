package bot

import (
	"strconv"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/rng"
)

// Searcher is a policy that draws randomness of its own: a search bot. It
// is given the public view of the game only (see policy.View) and, before each
// game, its own stream ([StreamFor]), which is never the game's stream nor
// built from the game's seed: in seeded mode that seed fixes every future
// die, in fair mode it is the secret. The same view and the same stream
// state give the same choice.
type Searcher interface {
	policy.Policy
	// NewGame binds the searcher to its stream for the next game (one
	// searcher per seat).
	NewGame(s *rng.Stream)
}

// Joiner is a policy that chooses its standing preferences when it joins
// (today one: KeepSmokeBomb, whether to keep a held Smoke bomb when
// challenged rather than spend it to cancel the duel). The runner asks it
// at the join, with the lobby's view, the seat and class the table gives
// it, and the number of players the table will have. Policies that are
// not Joiners join with KeepSmokeBomb false.
type Joiner interface {
	KeepSmokeBomb(view *engine.Public, r *engine.Ruleset, uid string, seat int, class engine.Class, players int) bool
}

// The tags of a search bot's own draws (from its stream, never the game's).
const (
	// TagSearchSeed draws the four words that seed one decision's search
	// stream, from which the search draws everything else.
	TagSearchSeed rng.Tag = "bot.search.seed"
	// TagSearchDeal shuffles a draw pile into one determinization's order.
	TagSearchDeal rng.Tag = "bot.search.deal"
	// TagSearchStyle draws an opponent's play-out style in a simulation.
	TagSearchStyle rng.Tag = "bot.search.style"
	// TagSearchSeat draws the class of a player not yet seated, at join.
	TagSearchSeat rng.Tag = "bot.search.seat"
)

// DefaultBotSeed is the bot seed of a game whose caller gives none.
const DefaultBotSeed = "bot"

// StreamFor returns the stream of the search bot in seat `seat` of a game
// whose bot seed is botSeed: the seeded stream of botSeed + "/seat<seat>".
// The bot seed must be independent of the game's seed (never the game's
// seed nor computed from it): `gamectl sim` derives one per game from the
// run's seed with SHA-256 (sim.BotSeed), from which the game's seed cannot
// be recovered. It fails only if botSeed is not valid UTF-8.
func StreamFor(botSeed string, seat int) (*rng.Stream, error) {
	return rng.NewSeeded(botSeed + "/seat" + strconv.Itoa(seat))
}
