# The README's two commands, plus the jobs run on request.
.PHONY: test demo bench bench-deal bench-deal-wasm bench-solve bench-leduc-hand bench-vs fuzz mutation strength flaky

# Every test, as CI runs it (.ci/run): static checks, then go test.
test:
	bash scripts/test.sh

# The main job on its embedded default: no cloud account, no emulator.
demo:
	go run ./cmd/gamectl sim --games 20000 --seed demo --out out/sim

# Benchmarks, on request only (never in CI).
bench:
	go test -run '^$$' -bench . -benchmem ./...

# Issue 28's speed figures, on request only (docs/fairness.md "Cost",
# docs/sim.md "Speed"; bench-leduc-hand below): the 4-seat 52-card deal
# against the 658ca0c SRA shuffle, alternating in one process (COUNT runs
# of BENCHTIME pairs, about 2 s of CPU a pair; in WebAssembly under Node,
# 15 to 25 s a pair), and the solver's iterations and seconds to each
# exploitability bound.
bench-deal:
	go test -run '^$$' -bench 'DealVsSRA' -benchtime $(or $(BENCHTIME),3x) -count $(or $(COUNT),4) ./rng/mentalpoker

bench-deal-wasm:
	PATH="$$(go env GOROOT)/lib/wasm:$$PATH" GOOS=js GOARCH=wasm go test -run '^$$' -bench 'DealVsSRA' -benchtime $(or $(BENCHTIME),1x) -count $(or $(COUNT),2) ./rng/mentalpoker

bench-solve:
	go test -run '^$$' -bench 'Solve' -benchtime 1x -count $(or $(COUNT),3) ./match

# A 2-seat trustless Leduc hand through the functions on the emulators,
# from the first pass to the first bet, alternating with its floor (2S + 1
# request-commits in a row): docs/fairness.md, "Cost in commits". A fresh
# Firestore emulator per run; 0.4 s an iteration at load 11, 1.2 to 1.8 s at
# load 20 to 33.
bench-leduc-hand:
	go test -run '^$$' -bench 'TrustlessLeducHand' -benchtime $(or $(BENCHTIME),20x) -count $(or $(COUNT),5) ./functions/integration/

# One benchmark of this tree against revision REV, runs alternating (PAIRS of
# them, 10 by default), on request only: the ratio of medians and the pairs'
# median ratio with its 95% interval (docs/testing.md, "Speed against an older
# revision"). make bench-vs REV=658ca0c PKG=./games/dungeon/tools/sim BASE_PKG=./sim BENCH='BenchmarkSimPipelineOneWorker$$'
# (BASE_PKG: the package's path at REV, when it has moved since).
bench-vs:
	go run ./internal/cmd/benchvs -rev $(REV) -pkg $(PKG) $(if $(BASE_PKG),-base-pkg $(BASE_PKG)) -bench '$(BENCH)' -pairs $(or $(PAIRS),10) $(if $(BENCHTIME),-benchtime $(BENCHTIME)) $(if $(CPU),-cpu $(CPU))

# The search bot's long strength test, on request only (never in CI): about ten
# minutes on two cores (docs/sim.md). STRENGTH_GAMES=N sets the games per level.
strength:
	go test -tags strength -run TestSearchStrength -timeout 12h -v ./games/dungeon/tools/bot/

# Mutation testing, on request only (never in CI; about three hours on two
# shared cores, see docs/testing.md). One package at a time with a summary per
# package; `make mutation PKGS="rng games/dungeon/engine"` runs only those.
mutation:
	bash scripts/mutation.sh $(PKGS)

# The hunt for intermittent tests, on request only (never in CI): every
# package's tests again and again (COUNT=10 in process, -race where there are
# goroutines; RUNS=3 separate runs of the emulator and browser packages). See
# docs/testing.md for how long it takes.
flaky:
	bash scripts/flaky.sh $(PKGS)
