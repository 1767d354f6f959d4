#!/usr/bin/env bash
# Runs every test of fairy on a fresh machine: installs what the tests need where it can,
# then vet, the unit and integration tests, the race detector on the concurrent packages,
# and the short fuzz runs.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v adb >/dev/null 2>&1 || need+=(adb)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "test.sh: installing ${need[*]} with apt-get"
		apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
	else
		echo "test.sh: missing ${need[*]}: install them (Debian/Ubuntu: sudo apt-get install ${need[*]})" >&2
		echo "test.sh: tests that need them skip locally and fail under CI" >&2
	fi
fi

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
echo "== go vet"
go vet ./...
echo "== go test"
go test -count=1 -timeout 30m ./...
echo "== go test -race (the packages that run goroutines)"
go test -race -count=1 -timeout 30m ./executor ./executor/adb ./knowledge ./learner ./eval ./llm/openai
echo "== fuzz (short, fixed time)"
while read -r pkg fuzz; do
	go test -run '^$' -fuzz "^${fuzz}\$" -fuzztime 15s "$pkg"
done < <(grep -rl --include='*_test.go' '^func Fuzz' . | while read -r f; do
	for fz in $(grep -o '^func Fuzz[A-Za-z0-9_]*' "$f" | sed 's/^func //'); do
		echo "./$(dirname "${f#./}") $fz"
	done
done)
echo "== all tests passed"
