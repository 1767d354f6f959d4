#!/usr/bin/env bash
# Runs every test of fairy on a fresh machine: installs what the tests need where it can,
# then vet, the unit and integration tests, the race detector on the concurrent packages,
# and the short fuzz runs.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v adb >/dev/null 2>&1 || need+=(adb)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v dot >/dev/null 2>&1 || need+=(graphviz)
command -v gm >/dev/null 2>&1 || need+=(graphicsmagick) # adbkit's framebuffer('png') runs gm (sim/interop)
command -v etcd >/dev/null 2>&1 || need+=(etcd-server) # knowledge/etcdstore: tests start a real etcd
# Text read from the picture (perception, executor/ocr, the suite's pixels tasks): Tesseract
# with the Latin script's data (English, German, French, … with their accents) and Simplified
# Chinese data.
command -v tesseract >/dev/null 2>&1 || need+=(tesseract-ocr tesseract-ocr-eng)
[ -f /usr/share/tesseract-ocr/5/tessdata/Latin.traineddata ] || [ -f /usr/share/tesseract-ocr/4.00/tessdata/Latin.traineddata ] || need+=(tesseract-ocr-script-latn)
[ -f /usr/share/tesseract-ocr/5/tessdata/chi_sim.traineddata ] || [ -f /usr/share/tesseract-ocr/4.00/tessdata/chi_sim.traineddata ] || need+=(tesseract-ocr-chi-sim)
# Screens in other scripts (executor/ocr TestPixelsInEveryScript): the script detection data
# and the Japanese, Korean, Arabic, Devanagari, Cyrillic and Thai script data; the virtual
# phone draws Arabic, Hebrew, Devanagari and Thai with Noto fonts, Korean with Nanum.
[ -f /usr/share/tesseract-ocr/5/tessdata/osd.traineddata ] || [ -f /usr/share/tesseract-ocr/4.00/tessdata/osd.traineddata ] || need+=(tesseract-ocr-osd)
[ -f /usr/share/tesseract-ocr/5/tessdata/Japanese.traineddata ] || [ -f /usr/share/tesseract-ocr/4.00/tessdata/Japanese.traineddata ] || need+=(tesseract-ocr-script-jpan)
[ -f /usr/share/tesseract-ocr/5/tessdata/Hangul.traineddata ] || [ -f /usr/share/tesseract-ocr/4.00/tessdata/Hangul.traineddata ] || need+=(tesseract-ocr-script-hang)
[ -f /usr/share/tesseract-ocr/5/tessdata/Arabic.traineddata ] || [ -f /usr/share/tesseract-ocr/4.00/tessdata/Arabic.traineddata ] || need+=(tesseract-ocr-script-arab)
[ -f /usr/share/tesseract-ocr/5/tessdata/Devanagari.traineddata ] || [ -f /usr/share/tesseract-ocr/4.00/tessdata/Devanagari.traineddata ] || need+=(tesseract-ocr-script-deva)
[ -f /usr/share/tesseract-ocr/5/tessdata/Cyrillic.traineddata ] || [ -f /usr/share/tesseract-ocr/4.00/tessdata/Cyrillic.traineddata ] || need+=(tesseract-ocr-script-cyrl)
[ -f /usr/share/tesseract-ocr/5/tessdata/Thai.traineddata ] || [ -f /usr/share/tesseract-ocr/4.00/tessdata/Thai.traineddata ] || need+=(tesseract-ocr-script-thai)
[ -f /usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf ] || need+=(fonts-noto-core)
[ -f /usr/share/fonts/truetype/nanum/NanumGothic.ttf ] || need+=(fonts-nanum)
# The virtual phone draws icons (delete, edit, send, the keyboard's shift and enter) from
# Material Icons (sim/iconfont.go).
[ -f /usr/share/fonts/truetype/material-design-icons-iconfont/MaterialIcons-Regular.ttf ] || need+=(fonts-material-design-icons-iconfont)
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

# The interop tests (sim/interop) drive the virtual phone with third-party adb clients from
# npm; they live in a cache outside the repository, installed once (pinned versions).
command -v node >/dev/null 2>&1 || need_node=1
if [ -n "${need_node:-}" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "test.sh: installing nodejs and npm with apt-get"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
fi
interop="${FAIRY_INTEROP_DIR:-$HOME/.cache/fairy/interop}"
# webdriver drives the emulated Appium UiAutomator2 server; appium-uiautomator2-server's
# real APKs are what `fairy device setup` installs in cmd/fairy's TestDeviceSetup. The real
# Appium server and its uiautomator2 driver (sim/interop TestAppium) are installed side by
# side: Appium finds a driver that is a dependency of its APPIUM_HOME (this directory).
interop_pkgs=(@devicefarmer/adbkit@3.3.9 @mobilenext/mobile-mcp@1.0.4 @modelcontextprotocol/sdk@1.32.2 webdriver@9.33.1 appium-uiautomator2-server@10.6.6 appium@3.8.0 appium-uiautomator2-driver@8.7.0)
if command -v npm >/dev/null 2>&1; then
	missing=0
	for p in "${interop_pkgs[@]}"; do
		name="${p%@*}"
		[ -f "$interop/node_modules/$name/package.json" ] && grep -q "\"version\": \"${p##*@}\"" "$interop/node_modules/$name/package.json" || missing=1
	done
	if [ "$missing" = 1 ]; then
		echo "test.sh: installing ${interop_pkgs[*]} into $interop"
		mkdir -p "$interop"
		[ -f "$interop/package.json" ] || echo '{"name":"fairy-interop","private":true}' >"$interop/package.json"
		npm install --prefix "$interop" --no-audit --no-fund --loglevel=error "${interop_pkgs[@]}" >/dev/null
	fi
else
	echo "test.sh: npm missing: the interop tests skip locally and fail under CI" >&2
fi
export FAIRY_INTEROP_DIR="$interop"

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
echo "== go vet"
go vet ./...
echo "== go test"
# The full tier: no -short, so the tests that start adb, etcd, Chromium, node, Tesseract,
# graphviz, gm, git, mount or go build run too (go test -short ./... is the fast tier).
go test -count=1 -timeout 30m ./...
echo "== go test -race (the packages that run goroutines)"
go test -race -count=1 -timeout 30m ./executor ./executor/adb ./knowledge ./knowledge/etcdstore ./learner ./eval ./llm/openai
echo "== fuzz (short, fixed time)"
while read -r pkg fuzz; do
	go test -run '^$' -fuzz "^${fuzz}\$" -fuzztime 15s "$pkg"
done < <(grep -rl --include='*_test.go' '^func Fuzz' . | while read -r f; do
	for fz in $(grep -o '^func Fuzz[A-Za-z0-9_]*' "$f" | sed 's/^func //'); do
		echo "./$(dirname "${f#./}") $fz"
	done
done)
echo "== all tests passed"
