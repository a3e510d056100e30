package reducers

import (
	"encoding/hex"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
)

// createSecrets checks create's ServerSeed for the mode and returns the key
// of the game's deck salts and, in fair mode, the commitment to the server
// seed. A crypto or fair game without a valid server seed is refused: the
// server must supply one (never silently random); a seeded game takes none.
func createSecrets(mode rng.Mode, a *engine.Action) (saltKey, commitment engine.Hash32, err error) {
	if mode == rng.ModeSeeded {
		if a.ServerSeed != "" {
			return saltKey, commitment, reject(engine.CodeInvalidAction, "a seeded game takes no server seed")
		}
		return fair.SaltKeySeeded(a.Seed), commitment, nil
	}
	seed, perr := fair.ParseServerSeed(a.ServerSeed)
	if perr != nil {
		return saltKey, commitment, reject(engine.CodeInvalidAction, "a "+string(mode)+" game needs the server's seed: "+perr.Error())
	}
	if mode == rng.ModeCrypto {
		return seed, commitment, nil
	}
	return fair.SaltKeyFair(seed[:]), fair.Commitment(seed[:]), nil
}

// joinEntropy checks a join's entropy and returns it in lower-case hex: only
// a fair game takes one.
func joinEntropy(c *engine.Ctx, a *engine.Action) (string, error) {
	if c.P.RNG.Mode != rng.ModeFair {
		if a.Entropy != "" {
			return "", reject(engine.CodeInvalidAction, "entropy is only for fair games")
		}
		return "", nil
	}
	h, err := fair.NormalizeEntropy(a.Entropy)
	if err != nil {
		return "", reject(engine.CodeInvalidAction, err.Error())
	}
	return h, nil
}

// fixGameSeed checks, before a fair game starts, that the stream handed in
// is the ChaCha20 stream of the game seed of the players seated now, and
// returns that seed in hex for Secret.GameSeed.
func fixGameSeed(c *engine.Ctx) (string, error) {
	if c.P.RNG.Mode != rng.ModeFair {
		return "", nil
	}
	seed, err := c.G.FairGameSeed()
	if err != nil {
		return "", reject(engine.CodeInvalidAction, err.Error())
	}
	h := hex.EncodeToString(seed[:])
	if c.RNG.Seed() != h || c.RNG.Seq() != 0 {
		return "", reject(engine.CodeBadStream, "the stream is not the fresh stream of the game seed")
	}
	return h, nil
}

// abandon is the owner's end of a game in its lobby or in play: no winner,
// outcome "abandoned", and the reveal. Enemies on the table go to their
// discard piles, so every card stays in one place.
func abandon(c *engine.Ctx, a *engine.Action) error {
	p := c.P
	if a.Actor != p.Owner {
		return reject(engine.CodeNotOwner, "only the owner "+p.Owner+" may abandon the game")
	}
	cleanupCombat(c)
	p.Duel = nil
	p.Phase, p.Step, p.Current, p.Awaiting = engine.PhaseFinished, "", "", ""
	p.FinishedAt = a.At
	ev := c.Add(engine.EvGameFinished)
	ev.Round, ev.Outcome = p.Round, EndAbandoned
	reveal(c)
	return nil
}

// reveal publishes what was secret until the end (Game.Reveal) and logs it
// as the game's last event, FairnessRevealed.
func reveal(c *engine.Ctx) {
	c.Add(engine.EvFairnessRevealed).Fair = c.G.Reveal()
}
