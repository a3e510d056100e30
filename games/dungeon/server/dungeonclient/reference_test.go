package dungeonclient_test

// The dungeon's rules register themselves as the engine's reference game
// (engine.NewReference) when linked in, as games/registry links them into
// the programs.
import _ "github.com/fairboard/fairboard/games/dungeon/reducers"
