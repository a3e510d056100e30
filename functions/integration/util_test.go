package integration

import (
	"errors"
	"os"

	"github.com/fairboard/fairboard/rng"
)

type rngEntry = rng.Entry

var errInjected = errors.New("injected audit write failure")

func osMkdirTemp() (string, error) { return os.MkdirTemp("", "fairboard-gamectl-") }
