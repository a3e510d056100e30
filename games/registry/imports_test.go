package registry_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const module = "github.com/fairboard/fairboard/"

// wiring are the packages outside games/ that may import a game, and
// only the registry: the programs' wiring (gamectl, the functions'
// deployment, the pages' WebAssembly and the verifier's judge).
var wiring = []string{"cmd/gamectl", "functions/deploy", "web/play/wasm", "web/verify/judge"}

// exceptions are the other imports of a game from outside games/ that
// stand: none (gamectl replay reaches the dungeon's golden fixtures
// through its definition, game.FixtureReplayer).
var exceptions []string

// strays returns every import "pkg -> games/..." of imports (each
// package's direct imports, paths without the module prefix) from a
// package outside games/ that is neither the wiring's import of the
// registry nor an exception.
func strays(imports map[string][]string) []string {
	var out []string
	for pkg, imps := range imports {
		if strings.HasPrefix(pkg, "games/") {
			continue
		}
		for _, imp := range imps {
			edge := pkg + " -> " + imp
			if !strings.HasPrefix(imp, "games/") || slices.Contains(exceptions, edge) ||
				imp == "games/registry" && slices.Contains(wiring, pkg) {
				continue
			}
			out = append(out, edge)
		}
	}
	slices.Sort(out)
	return out
}

// importsOf lists the module's packages and their direct imports (tests
// excluded) for the host, and for js/wasm, where the pages' binaries are.
func importsOf(t *testing.T) map[string][]string {
	t.Helper()
	all := map[string][]string{}
	for _, env := range [][]string{nil, {"GOOS=js", "GOARCH=wasm"}} {
		cmd := exec.Command("go", "list", "-e", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", module+"...")
		cmd.Env = append(cmd.Environ(), env...)
		out, err := cmd.Output()
		require.NoError(t, err)
		for line := range strings.Lines(string(out)) {
			f := strings.Fields(line)
			if len(f) == 0 {
				continue
			}
			pkg := strings.TrimPrefix(f[0], module)
			for _, imp := range f[1:] {
				if rest, ok := strings.CutPrefix(imp, module); ok && !slices.Contains(all[pkg], rest) {
					all[pkg] = append(all[pkg], rest)
				}
			}
		}
	}
	return all
}

// TestOnlyTheWiringImportsAGame: the machinery imports no game; the
// programs reach the games through the registry alone. The positive
// control plants an import of the dungeon's rules into export, one of
// the registry into bot and one of the dungeon's fixtures into gamectl:
// strays must name all three.
func TestOnlyTheWiringImportsAGame(t *testing.T) {
	imports := importsOf(t)
	require.Contains(t, imports["web/play/wasm"], "games/registry", "the js/wasm listing is missing")
	require.Empty(t, strays(imports))

	planted := map[string][]string{
		"export":      {"engine", "games/dungeon/reducers"},
		"bot":         {"games/registry"},
		"cmd/gamectl": {"games/registry", "games/dungeon/fixtures"},
	}
	require.Equal(t, []string{"bot -> games/registry", "cmd/gamectl -> games/dungeon/fixtures", "export -> games/dungeon/reducers"}, strays(planted),
		"gamectl reaching the dungeon's fixtures directly is a stray too")
}
