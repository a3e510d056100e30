package dungeon

import (
	"errors"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon/server/export"
)

// VerifyExport implements game.ExportVerifier: data checked as a
// fairboard-export/v1 file (export.Verify: commitments, seeds, a replay
// of every action, every shuffle; in a trustless game every link,
// signature and draw). Errors: a *game.NotAnExport wrapping the
// *export.FormatError of data that is not a readable export, or the
// error of an export that cannot be checked at all.
func (Definition) VerifyExport(data []byte) (summary string, divergence, err error) {
	rep, err := export.Verify(data)
	var fe *export.FormatError
	var d *export.Divergence
	switch {
	case errors.As(err, &d):
		return "", d, nil
	case errors.As(err, &fe):
		return "", nil, &game.NotAnExport{Err: err}
	case err != nil:
		return "", nil, err
	}
	return rep.Summary(), nil, nil
}
