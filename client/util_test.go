package client_test

import (
	"context"
	"io"
	"log/slog"

	"github.com/fairboard/fairboard/client"
	"github.com/fairboard/fairboard/games/dungeon/engine"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// eng is the dungeon's reference engine, which the functions' server
// under the table tests is built with (its tables are served beside the
// dungeon's games).
var eng = engine.NewReference(engine.DefaultRules())

// devFunctions calls base's functions as uid with a development token.
func devFunctions(base, uid string) *client.Functions {
	return &client.Functions{Base: base, Token: func(context.Context) (string, error) { return "dev:" + uid, nil }}
}
