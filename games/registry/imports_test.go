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
var wiring = []string{"cmd/gamectl", "deploy", "web/play/wasm", "web/verify/judge"}

// toolWiring are the packages that may import the games' own command-line
// tools (games/registry/tools): gamectl alone.
var toolWiring = []string{"cmd/gamectl"}

// serverWiring are the packages that may import the dungeon's server's
// wiring (games/registry/server and its Firestore half,
// games/registry/server/fsserver): the programs that serve the
// functions, gamectl (serve) and the deployment. Package functions
// reaches the dungeon through its interface (functions.Dungeon) alone.
var serverWiring = []string{"cmd/gamectl", "deploy"}

// serverWiringPkgs are the server's wiring packages (serverWiring).
var serverWiringPkgs = []string{"games/registry/server", "games/registry/server/fsserver"}

// exceptions are the other imports of a game from outside games/ that
// stand: none. The dungeon's own server (games/dungeon/engine and
// games/dungeon/server/..., on which its stored games of both layouts
// play) is reached by package functions through its interface
// (functions.Dungeon), by gamectl serve and the deployment through the
// server's wiring (serverWiring), and by gamectl verify, gamectl replay
// and the pages through the dungeon's definition (game.ExportVerifier,
// game.FixtureReplayer, game.StoredGames); gamectl play and sim reach
// the dungeon's bots through the tools' wiring. An edge listed here
// would be one to remove.
var exceptions []string

// isTestHelper reports whether pkg is a package of test helpers (its
// name ends in "test", as functest and trustlesstest): code
// the tests share, which TestTestHelpersServeOnlyTests keeps out of
// every program. Like a _test.go file it may import a game and its tools
// (the dungeon's bots play the games those tests need).
func isTestHelper(pkg string) bool {
	return strings.HasSuffix(pkg[strings.LastIndex(pkg, "/")+1:], "test")
}

// strays returns every import "pkg -> games/..." of imports (each
// package's direct imports, paths without the module prefix) from a
// package outside games/ that is neither the wiring's import of the
// registry (of its tools, of its server) nor an exception.
func strays(imports map[string][]string) []string {
	var out []string
	for pkg, imps := range imports {
		if strings.HasPrefix(pkg, "games/") || isTestHelper(pkg) {
			continue
		}
		for _, imp := range imps {
			edge := pkg + " -> " + imp
			if !strings.HasPrefix(imp, "games/") || slices.Contains(exceptions, edge) ||
				imp == "games/registry" && slices.Contains(wiring, pkg) ||
				imp == "games/registry/tools" && slices.Contains(toolWiring, pkg) ||
				slices.Contains(serverWiringPkgs, imp) && slices.Contains(serverWiring, pkg) {
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
// programs reach the games through the registry (and its wiring of the
// tools and of the dungeon's server) alone. The positive
// control plants imports of the dungeon's engine and rules into match,
// ones of the registry and of the dungeon's engine and store into client
// (the dungeon's client is the game's own now,
// games/dungeon/server/dungeonclient, so the client imports no game), the
// dungeon's fixtures, sim and service into gamectl, the dungeon's service
// and export and the server's wiring into functions, and the games' tools,
// the server's wiring, the dungeon's page logic and its export into the
// page: strays must name all sixteen; a test helper's import of the
// dungeon's bots is no stray, nor the deployment's and gamectl's of the
// server's wiring.
func TestOnlyTheWiringImportsAGame(t *testing.T) {
	imports := importsOf(t)
	require.Contains(t, imports["web/play/wasm"], "games/registry", "the js/wasm listing is missing")
	require.Contains(t, imports["deploy"], "games/registry/server/fsserver", "the deployment builds the dungeon's server through its wiring")
	require.Empty(t, strays(imports))

	planted := map[string][]string{
		"match":  {"games/dungeon/engine", "games/dungeon/reducers"},
		"client": {"games/registry", "games/dungeon/engine", "games/dungeon/server/store"},
		"cmd/gamectl": {"games/registry", "games/registry/tools", "games/registry/server", "games/registry/server/fsserver",
			"games/dungeon/fixtures", "games/dungeon/tools/sim", "games/dungeon/server/service"},
		"deploy": {"games/registry", "games/registry/server", "games/registry/server/fsserver"},
		"web/play/wasm": {"games/registry", "games/registry/tools", "games/registry/server", "games/dungeon/server/page",
			"games/dungeon/server/export"},
		"games/dungeon/server/export/exporttest": {"games/dungeon/policy", "games/dungeon/tools/bot"},
		"functions": {"games/dungeon/server/service", "games/dungeon/server/export", "games/registry/server",
			"games/registry/server/fsserver"},
	}
	require.Equal(t, []string{"client -> games/dungeon/engine", "client -> games/dungeon/server/store", "client -> games/registry",
		"cmd/gamectl -> games/dungeon/fixtures", "cmd/gamectl -> games/dungeon/server/service",
		"cmd/gamectl -> games/dungeon/tools/sim", "functions -> games/dungeon/server/export", "functions -> games/dungeon/server/service",
		"functions -> games/registry/server", "functions -> games/registry/server/fsserver",
		"match -> games/dungeon/engine", "match -> games/dungeon/reducers",
		"web/play/wasm -> games/dungeon/server/export", "web/play/wasm -> games/dungeon/server/page",
		"web/play/wasm -> games/registry/server", "web/play/wasm -> games/registry/tools"}, strays(planted),
		"gamectl reaching the dungeon's fixtures, sim or service directly is a stray too, and so are the tools, the server, the dungeon's page logic or its export in the page, the client reaching the dungeon, the server's wiring in functions and an edge not listed")
}

// toolUsers returns every import of a game's tools (games/*/tools/...)
// by a package that is neither a tool itself nor the tools' wiring: the
// rules never reach the tools, whose RNG construction randlint allows
// (-drivers), so a game's randomness still comes only from its caller.
func toolUsers(imports map[string][]string) []string {
	var out []string
	for pkg, imps := range imports {
		if isTool(pkg) || pkg == "games/registry/tools" || isTestHelper(pkg) {
			continue
		}
		for _, imp := range imps {
			if isTool(imp) {
				out = append(out, pkg+" -> "+imp)
			}
		}
	}
	slices.Sort(out)
	return out
}

// isTool reports whether pkg is in games/NAME/tools/... (the registry's
// own tools package, the wiring, is not a game's).
func isTool(pkg string) bool {
	f := strings.Split(pkg, "/")
	return len(f) >= 3 && f[0] == "games" && f[1] != "registry" && f[2] == "tools"
}

// TestOnlyToolsAndTheirWiringImportTools: no game's rules, definition,
// policies or fixtures, and no machinery, import a game's tools (the
// dungeon's fixtures are built by the bots' runner in their tests alone:
// games/dungeon/fixtures/build_test.go). The control plants the dungeon's
// definition importing its sim, its fixtures the bots' runner, and
// gamectl the sim directly.
func TestOnlyToolsAndTheirWiringImportTools(t *testing.T) {
	imports := importsOf(t)
	require.Contains(t, imports["games/registry/tools"], "games/dungeon/tools/simcmd", "the listing is missing the wiring")
	require.Empty(t, toolUsers(imports))
	planted := map[string][]string{
		"games/dungeon":          {"game", "games/dungeon/tools/sim"},
		"games/dungeon/fixtures": {"games/dungeon/engine", "games/dungeon/tools/bot"},
		"cmd/gamectl":            {"games/registry/tools", "games/dungeon/tools/sim"},
		"games/dungeon/server/service/trustlesstest": {"games/dungeon/policy", "games/dungeon/tools/bot"},
		"games/dungeon/tools/simcmd":                 {"games/dungeon/tools/sim"},
		"games/registry/tools":                       {"games/dungeon/tools/simcmd"},
	}
	require.Equal(t, []string{"cmd/gamectl -> games/dungeon/tools/sim", "games/dungeon -> games/dungeon/tools/sim",
		"games/dungeon/fixtures -> games/dungeon/tools/bot"}, toolUsers(planted))
}

// helperUsers returns every import of a test helper (isTestHelper) by a
// package that is not one itself.
func helperUsers(imports map[string][]string) []string {
	var out []string
	for pkg, imps := range imports {
		if isTestHelper(pkg) {
			continue
		}
		for _, imp := range imps {
			if isTestHelper(imp) {
				out = append(out, pkg+" -> "+imp)
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestTestHelpersServeOnlyTests: no program or library imports a test
// helper (outside _test.go files), so that a helper's reach into a game
// (isTestHelper) stays in the tests. The control plants gamectl and the
// client importing helpers, and one helper another.
func TestTestHelpersServeOnlyTests(t *testing.T) {
	imports := importsOf(t)
	require.Contains(t, imports["functest"], "games/dungeon/tools/bot", "the listing is missing the helpers")
	require.Empty(t, helperUsers(imports))
	planted := map[string][]string{
		"cmd/gamectl": {"games/registry", "games/dungeon/server/export/exporttest"},
		"client":      {"games/dungeon/engine", "functest"},
		"games/dungeon/server/service/trustlesstest": {"games/dungeon/server/service", "match/matchtest"},
	}
	require.Equal(t, []string{"client -> functest", "cmd/gamectl -> games/dungeon/server/export/exporttest"}, helperUsers(planted))
}
