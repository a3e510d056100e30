# The README's two commands, plus the jobs run on request.
.PHONY: test demo bench bench-vs fuzz mutation strength flaky

# Every test, as CI runs it (.ci/run): static checks, then go test.
test:
	bash scripts/test.sh

# The main job on its embedded default: no cloud account, no emulator.
demo:
	go run ./cmd/gamectl sim --games 20000 --seed demo --out out/sim

# Benchmarks, on request only (never in CI).
bench:
	go test -run '^$$' -bench . -benchmem ./...

# One benchmark of this tree against revision REV, runs alternating (PAIRS of
# them, 10 by default), on request only: the ratio of medians and the pairs'
# median ratio with its 95% interval (docs/testing.md, "Speed against an older
# revision"). make bench-vs REV=658ca0c PKG=./sim BENCH='BenchmarkSimPipelineOneWorker$$'
bench-vs:
	go run ./internal/cmd/benchvs -rev $(REV) -pkg $(PKG) -bench '$(BENCH)' -pairs $(or $(PAIRS),10) $(if $(BENCHTIME),-benchtime $(BENCHTIME)) $(if $(CPU),-cpu $(CPU))

# The search bot's long strength test, on request only (never in CI): about ten
# minutes on two cores (docs/sim.md). STRENGTH_GAMES=N sets the games per level.
strength:
	go test -tags strength -run TestSearchStrength -timeout 12h -v ./bot/

# Mutation testing, on request only (never in CI; about three hours on two
# shared cores, see docs/testing.md). One package at a time with a summary per
# package; `make mutation PKGS="rng engine"` runs only those.
mutation:
	bash scripts/mutation.sh $(PKGS)

# The hunt for intermittent tests, on request only (never in CI): every
# package's tests again and again (COUNT=10 in process, -race where there are
# goroutines; RUNS=3 separate runs of the emulator and browser packages). See
# docs/testing.md for how long it takes.
flaky:
	bash scripts/flaky.sh $(PKGS)
