#!/bin/sh
# Remakes the docs' pictures of fairy's pages in headless Chromium (Debian package
# chromium): docs/report-replay.png, report.html replaying a task (eval's
# TestReportReplayScreenshot), and docs/live-page.png, the live run page (live's
# TestPageScreenshot). Run from the repository's root.
set -eu
cd "$(dirname "$0")/.."
go test -count=1 ./eval -run '^TestReportReplayScreenshot$' -docs
go test -count=1 ./live -run '^TestPageScreenshot$' -docs
ls -l docs/*.png
