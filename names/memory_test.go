package names_test

import (
	"testing"

	"github.com/fairboard/fairboard/names"
	"github.com/fairboard/fairboard/names/namestest"
)

func TestMemoryContract(t *testing.T) { namestest.Run(t, names.NewMemory()) }
