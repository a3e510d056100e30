#!/usr/bin/env bash
# The project's whole test command: what the README tells a newcomer to run
# and what CI runs (.ci/run, through `make test`). It installs what the tests
# need from the project's own files, runs the static checks (gofmt, go vet,
# the project's own lint rule), then every Go test. Tests of the Firestore
# store and the Cloud Functions start the real emulators themselves on free
# ports and stop them after; under CI=true a missing emulator or browser
# fails the run instead of skipping.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "install: npm packages (Firebase Auth emulator, JS SDK, esbuild, TypeScript, axe-core) from package-lock.json"
if [ ! -x node_modules/.bin/firebase ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
	# --ignore-scripts: re2's install script would download a prebuilt binary, which
	# this network cannot fetch; firebase-tools works without it.
	npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
fi

step "install: Chromium for the browser tests (Debian package)"
if ! command -v chromium >/dev/null 2>&1; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
	else
		echo "chromium is missing and cannot be installed here (not root); the report test will say so"
	fi
fi

step "check: the Firestore emulator and Java"
if ! gcloud emulators firestore --help >/dev/null 2>&1 || ! command -v java >/dev/null 2>&1; then
	echo "the gcloud Firestore emulator (google-cloud-cli-firestore-emulator) or Java is missing;"
	echo "the store and functions tests will fail under CI=true and skip otherwise"
fi

step "static checks: gofmt, go vet, randlint"
unformatted=$(gofmt -l $(git ls-files '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
go vet ./...
go vet -tags cloud ./cmd/gamectl   # the Firestore build of gamectl serve
GOOS=js GOARCH=wasm go vet ./web/verify/wasm ./web/play/wasm   # the pages' WebAssembly
go run ./lint/cmd/randlint ./...

step "go test"
# The store, the service and the functions run once, under the race
# detector, in the next step (their emulator tests are mostly waiting, so
# -race costs little there); everything else runs here.
go test -count=1 -timeout 30m $(go list ./... | grep -v -E '^github.com/fairboard/fairboard/(games/dungeon/server/(store|service)|functions)(/|$)')

step "go test -race: the store, the service and the functions (emulators included)"
go test -count=1 -race -timeout 30m ./games/dungeon/server/store/... ./games/dungeon/server/service/... ./functions/...

step "go test: gamectl built with -tags cloud (serve on Firestore)"
go test -count=1 -tags cloud ./cmd/gamectl

step "go test: the golangci-lint plugin module"
(cd lint/golangci && go test -count=1 ./...)
