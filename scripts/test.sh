#!/usr/bin/env bash
# The project's whole test command: what the README tells a newcomer to run
# and what CI runs (.ci/run). It installs what the tests need from the
# project's own files, runs the static checks, then every Go test. Tests of
# the Firestore store and the Cloud Functions start the real emulators
# themselves on free ports and stop them after; under CI=true a missing
# emulator fails the run instead of skipping.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "static checks: gofmt, go vet"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './node_modules/*'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
go vet ./...

step "go test"
go test -count=1 -timeout 30m ./...
