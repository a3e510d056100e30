package dungeonfn

import (
	"context"

	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
)

// View is getView's answer for the dungeon: service.View and the names
// copied into the game, by uid.
type View struct {
	*service.View
	Names map[string]string `json:"names"`
	// Spectating is true when the caller reads the game as a spectator
	// (not in it; the game is open to spectators).
	Spectating bool `json:"spectating,omitempty"`
}

// gameView is a service.View as a functions.GameView.
type gameView struct{ v *service.View }

// View implements functions.Dungeon: service.Service.View.
func (p *Path) View(ctx context.Context, uid, gameID string, afterSeq uint64) (functions.GameView, error) {
	v, err := p.svc.View(ctx, uid, gameID, afterSeq)
	if err != nil {
		return nil, err
	}
	return gameView{v}, nil
}

// Member reports whether uid is the game's owner or one of its players.
func (g gameView) Member(uid string) bool {
	if g.v.Public.Owner == uid {
		return true
	}
	for _, p := range g.v.Public.Players {
		if p.UID == uid {
			return true
		}
	}
	return false
}

// Answer is the [View] with the names and whether the caller spectates.
func (g gameView) Answer(names map[string]string, spectating bool) any {
	return &View{View: g.v, Names: names, Spectating: spectating}
}
