#!/usr/bin/env bash
# The hunt for intermittent tests (make flaky), on request only: CI does not
# run it. Every package's tests run several times in a row, so that a test
# that fails by chance shows itself here rather than in somebody's CI run:
#
#   - packages with no emulator and no browser: `go test -count=N` (their
#     tests are in-process and quick), and again under the race detector
#     for the packages that run goroutines of their own;
#   - packages that start the Firestore or Auth emulator or Chromium: R
#     separate `go test -count=1` runs in a row, so that each run starts
#     its emulators and browser afresh, as CI does.
#
# Every run is logged; a package that fails any run is listed at the end
# with the failing tests' names, and the script exits 1.
#
# Usage: scripts/flaky.sh [pkg ...]  (default: every package of the module)
# Env:   COUNT  repetitions of the in-process packages (default 10)
#        RUNS   separate runs of the emulator and browser packages (default 3)
#        OUT    the log directory (default out/flaky)
#        CI     true by default: a test that cannot start its emulator or
#               browser fails instead of skipping
set -uo pipefail
cd "$(dirname "$0")/.."
# A missing emulator or browser is a failure here, as in CI, not a skip.
export CI=${CI:-true}

count=${COUNT:-10}
runs=${RUNS:-3}
out=${OUT:-out/flaky}
mkdir -p "$out"
mod=$(go list -m)

# Packages whose tests start an emulator or a browser (they import
# internal/emulator or internal/browser, or run gamectl serve).
heavy='^'"$mod"'/(client/e2e|cmd/gamectl|deploy|functions/integration|internal/browser|internal/emulator|internal/rulestest|games/dungeon/tools/sim|games/dungeon/server/store/fsstore|web/play|web/verify)$'
# In-process packages whose code or tests run goroutines: also under -race.
racy='^'"$mod"'/(audit|client|games/dungeon/engine|games/dungeon/server/(dungeonclient|export|player|service|session|store)|functions|functions/callable|games/dungeon/tools/bot)$'

if [ $# -gt 0 ]; then
	pkgs=$(go list "$@")
else
	pkgs=$(go list ./...)
fi

failed=()
run() { # name, then the go test arguments
	local name=$1 log
	shift
	log="$out/${name//\//-}.log"
	local start=$(date +%s)
	if go test "$@" >"$log" 2>&1; then
		printf '%-60s ok    %4ds\n' "$name" $(($(date +%s) - start))
	else
		printf '%-60s FAIL  %4ds  %s\n' "$name" $(($(date +%s) - start)) "$log"
		failed+=("$name: $(grep -E '^\s*--- FAIL' "$log" | sed 's/^ *//' | sort -u | tr '\n' ' ')")
	fi
}

begin=$(date +%s)
for p in $pkgs; do
	short=${p#"$mod"/}
	[ "$p" = "$mod" ] && short=.
	if grep -qE "$heavy" <<<"$p"; then
		for i in $(seq "$runs"); do
			run "$short run $i/$runs" -count=1 -timeout 30m "$p"
		done
	else
		run "$short -count=$count" -count="$count" -timeout 30m "$p"
		if grep -qE "$racy" <<<"$p"; then
			run "$short -race -count=$((count < 3 ? count : 3))" -race -count=$((count < 3 ? count : 3)) -timeout 30m "$p"
		fi
	fi
done
# gamectl's Firestore build, as make test runs it.
if [ $# -eq 0 ]; then
	for i in $(seq "$runs"); do
		run "cmd/gamectl -tags cloud run $i/$runs" -count=1 -tags cloud -timeout 30m ./cmd/gamectl
	done
fi

printf '\n%d s in all\n' $(($(date +%s) - begin))
if [ ${#failed[@]} -gt 0 ]; then
	printf '\nintermittent or failing:\n'
	printf '  %s\n' "${failed[@]}"
	exit 1
fi
echo "no failure"
