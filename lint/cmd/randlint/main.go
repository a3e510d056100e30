// Command randlint reports randomness that bypasses the engine's tagged,
// audited RNG. Run it on its own, go run ./lint/cmd/randlint ./..., or under
// go vet, go vet -vettool=$(which randlint) ./...; docs/lint.md explains the
// rules and flags.
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/fairboard/fairboard/lint"
)

func main() { singlechecker.Main(lint.Analyzer) }
