package lobby_test

import (
	"testing"

	"github.com/fairboard/fairboard/lobby"
	"github.com/fairboard/fairboard/lobby/lobbytest"
)

// The in-memory store passes the lobby.Store contract.
func TestMemoryLobby(t *testing.T) { lobbytest.Run(t, lobby.NewMemory()) }
