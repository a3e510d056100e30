// Package judge is what the verifier page's WebAssembly runs on a file:
// a game's export (fairboard-export/v1, the dungeon's: the registry's
// dungeon checks it, game.ExportVerifier) or a table game's record (fairboard-game/v1: match.CheckRecord under the
// registry's game of that name), with the same verdicts as gamectl
// verify. It does no I/O, so it is tested on the host
// (web/verify/judge's tests) and compiled into web/verify/wasm as is.
package judge

import (
	"fmt"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

// File judges data: a game record (match.IsRecord) is read strictly
// (match.ReadRecord), its game found in the registry and replayed
// (match.CheckRecord); anything else is judged as an export, which
// names no game and so is the dungeon's (Export). Status "ok" (code 0) with a one-line summary,
// "diverged" (code 1) naming the first divergence, "invalid" (code 2)
// for a file that is neither, or that names a game this verifier does
// not know, or that cannot be replayed at all.
func File(data []byte) game.Verdict {
	if !match.IsRecord(data) {
		return Export(data)
	}
	r, err := match.ReadRecord(data)
	if err != nil {
		return game.Invalid("not a readable game record: " + err.Error())
	}
	def, err := registry.Lookup(r.Game)
	if err != nil {
		return game.Invalid(err.Error())
	}
	d, err := match.CheckRecord(def, r)
	if err != nil {
		return game.Invalid("not a replayable record: " + err.Error())
	}
	if d != nil {
		return game.Diverged("diverges at " + d.Error())
	}
	return game.OK(Summary(r))
}

// Export judges data as an export (fairboard-export/v1): an export
// names no game, so the registry's dungeon, whose format it is, checks
// it (game.ExportVerifier, game.JudgeExport).
func Export(data []byte) game.Verdict {
	v, err := ExportVerifier()
	if err != nil {
		return game.Invalid(err.Error())
	}
	return game.JudgeExport(v, data)
}

// ExportVerifier returns the checker of exports (fairboard-export/v1):
// an export names no game, so it is the registry's dungeon, whose
// definition checks its own format. Errors: the registry has no such
// game, or it checks no exports.
func ExportVerifier() (game.ExportVerifier, error) {
	def, err := registry.Lookup(registry.Dungeon)
	if err != nil {
		return nil, err
	}
	v, ok := def.(game.ExportVerifier)
	if !ok {
		return nil, fmt.Errorf("the %s game checks no exports", def.Name())
	}
	return v, nil
}

// Summary is the one-line summary of a record that checked out, as
// gamectl replay's OK line says it, with what its mode proves.
func Summary(r *match.Record) string {
	s := fmt.Sprintf("ok: %s record (%s game): %d moves replayed, %d events matched, %d audit entries, final state %s",
		r.Game, r.Mode, len(r.Moves), len(r.Log), len(r.Audit), r.StateSHA256[:16])
	switch r.Mode {
	case rng.ModeFair:
		s += "; the server seed opens the commitment " + r.Fairness.CommitmentHex[:16] + "… and, with the players' contributions, makes the game seed every draw came from"
	case rng.ModeSeeded:
		s += "; every draw recomputed from the seed"
	case rng.ModeCrypto:
		s += "; the draws came from the server's generator: their ranges are checked, not their fairness"
	}
	return s
}
