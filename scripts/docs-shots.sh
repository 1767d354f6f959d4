#!/bin/sh
# Remakes the README's pictures of fairy's pages in headless Chromium (Debian package
# chromium): docs/report-replay.png, report.html replaying a task (eval's
# TestReportReplayScreenshot), and docs/live-page.png, the live run page, when a test
# named TestLivePageScreenshot takes it (same -docs flag, in whichever package serves the
# page). Run from the repository's root.
set -eu
cd "$(dirname "$0")/.."
go test -count=1 ./eval -run '^TestReportReplayScreenshot$' -docs
live=$(grep -rl --include='*_test.go' 'func TestLivePageScreenshot' . | head -n 1 || true)
if [ -n "$live" ]; then
	go test -count=1 "./$(dirname "$live")" -run '^TestLivePageScreenshot$' -docs
else
	echo "docs-shots: no TestLivePageScreenshot yet: docs/live-page.png not remade" >&2
fi
ls -l docs/*.png
