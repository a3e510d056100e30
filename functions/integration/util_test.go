package integration

import (
	"errors"
	"os"

	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

var errInjected = errors.New("injected audit write failure")

func osMkdirTemp() (string, error) { return os.MkdirTemp("", "fairboard-gamectl-") }

func fromDoc(m map[string]any, v any) error { return store.FromDoc(m, v) }
