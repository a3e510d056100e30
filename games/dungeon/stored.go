package dungeon

import (
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon/server/page"
)

// The dungeon's games stored by its own server (games/dungeon/server) are
// the ones the play page follows and plays.
var _ game.StoredGames = Definition{}

// StoredBoard implements game.StoredGames: the board, cards and classes of
// the default ruleset, as the page draws them (page.Board).
func (Definition) StoredBoard() []byte { return page.Board() }

// FollowStored implements game.StoredGames: a page.Game following the
// stored game id ("" follows nothing).
func (Definition) FollowStored(id string) game.StoredFollower { return page.New(id) }
