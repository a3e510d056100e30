package dungeonclient

import (
	"github.com/fairboard/fairboard/client"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

// Result is the answer of createGame, joinGame, startGame, act and
// reveal (service.Result).
type Result struct {
	GameID   string         `json:"gameId"`
	ActionID string         `json:"actionId"`
	Version  uint64         `json:"version"`
	Events   []engine.Event `json:"events"`
	Replayed bool           `json:"replayed"`
	Staged   bool           `json:"staged"`
	// Ack is the server's signed acknowledgement of the reveal the call
	// brought (reveal, act with its reveal), where the server signs them.
	Ack *client.ServerAck `json:"ack,omitempty"`
}

// View is getView's answer (service.View).
type View struct {
	State   engine.Public  `json:"state"`
	Events  []engine.Event `json:"events"`
	More    bool           `json:"more"`
	Reveals []store.Mark   `json:"reveals"`
}
