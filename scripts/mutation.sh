#!/usr/bin/env bash
# Mutation testing (make mutation), on request only: CI does not run it.
#
# For each package in turn, Gremlins (github.com/go-gremlins/gremlins, from
# the module proxy at a pinned version) runs the package's tests once with
# coverage, then makes one small change at a time to the package's code (a
# flipped comparison, `+` for `-`, `++` for `--`, ...) and runs the
# package's tests again: a mutant the tests fail on is KILLED, one they pass
# on LIVED (a test is missing, or the change does not alter behaviour).
# Subpackages (rng/tenhou, store/fsstore, ...) are not part of their
# parent's run; name them in PKGS to run them.
#
# Gremlins runs only the mutants that the coverage profile marks covered,
# and Go's coverage has no block for a switch's case expressions, constant
# expressions or package-level declarations: their mutants come out NOT
# COVERED though the tests run that code. internal/cmd/mutrun then tries
# each NOT COVERED mutant that lies in no block of the coverage profile the
# same way (one token changed, the package's tests run) and the summary
# counts its outcome; mutants inside a block no test runs stay NOT COVERED.
#
# Usage: scripts/mutation.sh [pkg ...]     (default: the packages below)
# Env:   WORKERS     parallel mutants (default 1: the machine is shared)
#        TIMEOUT_COEFF  a mutant's test run may take this many times the
#                    coverage run before it counts as TIMED OUT (default 4)
#        RERUN_TIMEOUT  the same limit for mutrun's runs (default 3m)
#        OUT         the output directory (default out/mutation; give each of
#                    two runs at once its own, they share summary.txt)
#        DIFF        a commit: mutate only the package's files changed since it
#                    (whole files; Gremlins' own --diff matches no file of a
#                    package in a subdirectory), to measure a change without
#                    the whole package
#        FILES       a regular expression of file names (without the
#                    package's path): mutate only the matching files, e.g.
#                    FILES='^trustless\.go$' for games/dungeon/engine/trustless.go alone
# Output: $OUT/<pkg>.log (Gremlins' output), <pkg>.rerun (mutrun's),
#         <pkg>.all (every mutant's final status) and summary.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

GREMLINS_VERSION=v0.6.0
pkgs=("$@")
if [ ${#pkgs[@]} -eq 0 ]; then
	pkgs=(rng games/dungeon/engine games/dungeon/reducers audit games/dungeon/server/session games/dungeon/server/service games/dungeon/server/store)
fi
workers=${WORKERS:-1}
# A cached coverage run (a fraction of a second) would become every
# mutant's time limit and time them all out: never read the test cache.
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-count=1"
coeff=${TIMEOUT_COEFF:-4}

out=${OUT:-out/mutation}
mkdir -p "$out"
bin="$out/gremlins"
if [ ! -x "$bin" ]; then
	case $out in /*) gobin=$out ;; *) gobin=$(pwd)/$out ;; esac
	GOBIN="$gobin" go install "github.com/go-gremlins/gremlins/cmd/gremlins@$GREMLINS_VERSION"
fi

# count STATUS LOG: how many mutants the log reports with that status.
count() { grep -cE "^ *$1 " "$2" || true; }

summary="$out/summary.txt"
status=0
printf '%-10s %6s %6s %6s %6s %6s %8s %8s\n' package killed timed lived notcov notvia score time >"$summary"
for pkg in "${pkgs[@]}"; do
	name=${pkg//\//-}
	log="$out/$name.log"
	printf '\n== mutation: %s\n' "$pkg"
	start=$(date +%s)
	# With DIFF, every file of the package that did not change is excluded.
	diff=()
	if [ -n "${DIFF:-}" ]; then
		changed=$(git diff --name-only "$DIFF" -- "$pkg" | grep -v '_test\.go$' || true)
		for f in "$pkg"/*.go; do
			case $f in *_test.go) continue ;; esac
			if ! grep -qxF "$f" <<<"$changed"; then
				diff+=(--exclude-files "^${f#"$pkg"/}\$")
			fi
		done
	fi
	# With FILES, every file of the package whose name does not match it is
	# excluded.
	if [ -n "${FILES:-}" ]; then
		for f in "$pkg"/*.go; do
			case $f in *_test.go) continue ;; esac
			if ! grep -qE "$FILES" <<<"${f#"$pkg"/}"; then
				diff+=(--exclude-files "^${f#"$pkg"/}\$")
			fi
		done
	fi
	# --exclude-files '/': the paths are relative to the package directory, so
	# this leaves out the files of subpackages.
	if ! "$bin" unleash --workers "$workers" --timeout-coefficient "$coeff" \
		"${diff[@]}" --exclude-files '/' "./$pkg" 2>&1 | tee "$log"; then
		# Gremlins stops when the package's own tests fail unmutated.
		printf '%-10s gremlins failed: see %s\n' "$pkg" "$log" >>"$summary"
		status=1
		continue
	fi
	rerun="$out/$name.rerun"
	printf '\n== mutation: %s, the NOT COVERED mutants the tests do run\n' "$pkg"
	go run ./internal/cmd/mutrun -log "$log" -pkg "./$pkg" -timeout "${RERUN_TIMEOUT:-3m}" | tee "$rerun" || status=1
	secs=$(($(date +%s) - start))
	all="$out/$name.all"
	# Every mutant once: mutrun's line where it has one (a rerun NOT COVERED
	# mutant, a KILLED one that does not build), else Gremlins'.
	awk 'function key(s) { sub(/^ *(KILLED|LIVED|TIMED OUT|NOT COVERED|NOT VIABLE) /, "", s); sub(/ \(rerun.*$/, "", s); return s }
		FILENAME == ARGV[1] { if (/ at /) seen[key($0)] = 1; next }
		/ at / && !(key($0) in seen)' "$rerun" "$log" | cat - "$rerun" | grep ' at ' >"$all" || true
	k=$(count KILLED "$all")
	to=$(count 'TIMED OUT' "$all")
	l=$(count LIVED "$all")
	# NOT COVERED: what mutrun found no test reaches, and what it could not run.
	nc=$(count 'NOT COVERED' "$all")
	nv=$(count 'NOT VIABLE' "$all")
	viable=$((k + to + l + nc))
	score=n/a
	if [ "$viable" -gt 0 ]; then
		score=$(awk -v c=$((k + to)) -v v="$viable" 'BEGIN { printf "%.1f%%", 100 * c / v }')
	fi
	printf '%-10s %6d %6d %6d %6d %6d %8s %7ds\n' "$pkg" "$k" "$to" "$l" "$nc" "$nv" "$score" "$secs" >>"$summary"
done

cat <<'EOF'

== mutation summary
score = (killed + timed out) / (killed + timed out + lived + not covered):
a mutant no test runs counts as a survivor. Not viable mutants (they do not
compile) are left out. Survivors: grep -E 'LIVED|NOT COVERED' OUT/*.all
EOF
cat "$summary"
exit $status
