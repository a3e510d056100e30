package match

import (
	"fmt"
	"strconv"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// PlayConfig is one whole game of a definition played by bots, as
// "gamectl play --game" plays it.
type PlayConfig struct {
	// Config is the match's (Lean is ignored: a played game keeps its
	// log and record).
	Config
	// Bots are bot names (see NewBot), dealt over the seats in turn:
	// seat j plays Bots[j % len(Bots)].
	Bots []string
	// BotSeed seeds the random bots' one stream, and the search bot of
	// seat j its own on BotSeed + "/seat<j>". Empty: Seed + "/bots" in a
	// seeded match (so game i of a simulation with seed S is the game of
	// seed "S#i"), and crypto streams in a crypto match.
	BotSeed string
	// MaxMoves stops a game that has not ended (0: DefaultMaxMoves).
	MaxMoves int
}

// Play plays one whole game: it sets the match up (New) and lets each
// seat's bot choose among the state's legal moves until the game awaits
// nobody. It returns the finished match and each seat's bot name. Errors:
// New's; no bot, or an unknown one (named); a bot seed that is not valid
// UTF-8; a game not over after MaxMoves moves, an awaited seat with no
// legal move, or a refused move, each naming the move.
func Play(def game.Definition, cfg PlayConfig) (*Match, []string, error) {
	if len(cfg.Bots) == 0 {
		return nil, nil, fmt.Errorf("a game needs at least one bot (%v)", BotNames(def))
	}
	for _, b := range cfg.Bots {
		if err := CheckBotRules(def, cfg.Rules, b); err != nil {
			return nil, nil, err
		}
	}
	cfg.Lean = false
	m, err := New(def, cfg.Config)
	if err != nil {
		return nil, nil, err
	}
	seed := cfg.BotSeed
	if seed == "" && cfg.Mode == rng.ModeSeeded {
		seed = cfg.Seed + "/bots"
	}
	bots, names, err := dealBots(def, cfg.Rules, cfg.Bots, len(cfg.Seats), func(sub string) (*rng.Stream, error) {
		if seed == "" {
			return rng.NewCrypto(), nil
		}
		return rng.NewSeeded(seed + sub)
	})
	if err != nil {
		return nil, nil, err
	}
	if _, err := PlayOut(m, bots, cfg.MaxMoves); err != nil {
		return m, names, err
	}
	return m, names, nil
}

// dealBots makes seat j's bot, names[j % len(names)], for n seats of def
// under r. The random bots share one stream, made by stream("") on first
// need; the search bot or the strategy bot of seat j has its own,
// stream("/seat<j>") (so in a seeded game with bot seed B, "B/seat<j>").
func dealBots(def game.Definition, r game.Ruleset, names []string, n int, stream func(sub string) (*rng.Stream, error)) ([]Bot, []string, error) {
	var bs *rng.Stream
	bots := make([]Bot, n)
	dealt := make([]string, n)
	for s := range bots {
		name := names[s%len(names)]
		var err error
		use := bs
		_, search, _ := mctsName(name)
		_, table, _ := cfrName(name)
		switch {
		case search || table:
			if use, err = stream("/seat" + strconv.Itoa(s)); err != nil {
				return nil, nil, err
			}
		case name == "random" && bs == nil:
			if bs, err = stream(""); err != nil {
				return nil, nil, err
			}
			use = bs
		}
		if bots[s], err = NewBotRules(def, r, name, use); err != nil {
			return nil, nil, err
		}
		dealt[s] = bots[s].Name()
	}
	return bots, dealt, nil
}

// PlayOut is the simulations' loop (Simulate's, Play's): each seat's bot
// (bots[seat]) moves until the game awaits nobody, at most maxMoves moves
// (0: DefaultMaxMoves), and it returns the moves made. A style whose
// policy is a game.DirectPolicy chooses without the legal list; any
// other bot chooses from the seat's list. Errors: a seat awaited with no
// legal move, a bot's refused move, a game not over after maxMoves, and
// a bot's own (an Err method, as CFRBot's, reporting one after Choose).
func PlayOut(m *Match, bots []Bot, maxMoves int) (int64, error) {
	if maxMoves == 0 {
		maxMoves = DefaultMaxMoves
	}
	st := m.State()
	// Each seat's direct policy and error report, found once a game
	// rather than by three interface assertions a move.
	var dbuf [8]game.DirectPolicy
	var ebuf [8]interface{ Err() error }
	direct, errs := dbuf[:0], ebuf[:0]
	if len(bots) > len(dbuf) {
		direct, errs = make([]game.DirectPolicy, 0, len(bots)), make([]interface{ Err() error }, 0, len(bots))
	}
	for _, b := range bots {
		var d game.DirectPolicy
		if sb, ok := b.(styleBot); ok {
			d, _ = sb.p.(game.DirectPolicy)
		}
		e, _ := b.(interface{ Err() error })
		direct, errs = append(direct, d), append(errs, e)
	}
	var legal []game.Move // made at the first listing: direct policies need none
	var moves int64
	for {
		seat := st.ToMove()
		if seat == game.Nobody {
			return moves, nil
		}
		if moves == int64(maxMoves) {
			return moves, fmt.Errorf("not over after %d moves", maxMoves)
		}
		if seat < 0 || seat >= len(bots) {
			return moves, fmt.Errorf("the game awaits seat %d, which has no bot", seat)
		}
		var mv game.Move
		if d := direct[seat]; d != nil {
			mv = d.ChooseDirect(st, seat) // no list: Apply checks the move
		} else {
			legal = st.Legal(seat, legal)
			if len(legal) == 0 {
				return moves, fmt.Errorf("seat %d is awaited but has no legal move", seat)
			}
			mv = bots[seat].Choose(st, seat, legal)
		}
		if f := errs[seat]; f != nil && f.Err() != nil {
			return moves, fmt.Errorf("move %d: %w", moves+1, f.Err())
		}
		if _, err := m.apply(mv, seat); err != nil {
			return moves, fmt.Errorf("move %d, %s's %s refused: %w", moves+1, bots[seat].Name(), mv.Kind, err)
		}
		moves++
	}
}
