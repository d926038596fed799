#!/usr/bin/env bash
# Install what the HTML-report browser test (tests/e2e/test_report_browser.py) needs:
# Debian's chromium package.  The Python `playwright` driver comes from pyproject's `dev`
# extra and is pointed at /usr/bin/chromium; we never run `playwright install`, which
# downloads a browser build of its own.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "20-browser.sh: /usr/bin/chromium missing and not root; the browser test will skip" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
[ -x /usr/bin/chromium ] || { echo "20-browser.sh: chromium did not install" >&2; exit 1; }
