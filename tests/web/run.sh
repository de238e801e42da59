#!/bin/sh
# tests/web/run.sh: the tests of `marubatsu serve`.
#   sh tests/web/run.sh api PROGRAM       the HTTP API (node, no packages)
#   sh tests/web/run.sh browser PROGRAM   the page in headless Chromium
# The browser test needs the npm driver of tests/web/package.json: it is
# installed here (npm ci, from the committed package-lock.json) into
# tests/web/node_modules when missing or older than the lock file. Chromium
# is Debian's (/usr/bin/chromium, installed by make deps); no browser is
# ever downloaded. Both print "N passed, N failed" last.
set -u
kind=$1
prog=$2
dir=$(dirname "$0")
command -v node >/dev/null 2>&1 || { echo "node is missing (make deps installs nodejs)"; echo "0 passed, 1 failed"; exit 1; }
case $kind in
api) exec node "$dir/api.mjs" "$prog" ;;
browser)
    if [ ! -x /usr/bin/chromium ]; then
        echo "/usr/bin/chromium is missing (make deps installs Debian's chromium)"
        echo "0 passed, 1 failed"
        exit 1
    fi
    stamp="$dir/node_modules/.package-lock.json"
    if [ ! -f "$stamp" ] || [ "$dir/package-lock.json" -nt "$stamp" ]; then
        echo "installing the browser driver (npm ci in $dir)"
        (cd "$dir" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error) || {
            echo "npm ci failed"
            echo "0 passed, 1 failed"
            exit 1
        }
    fi
    exec node "$dir/browser.mjs" "$prog"
    ;;
*) echo "usage: sh tests/web/run.sh api|browser PROGRAM"; exit 2 ;;
esac
