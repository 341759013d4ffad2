#!/bin/sh
# Fetch the browser libraries the pages use from the npm registry into
# spieltisch/web/static/vendor/ (unchanged), at the versions its README names.
set -eu
cd "$(dirname "$0")/.."
VENDOR=spieltisch/web/static/vendor
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent qrcode-generator@2.0.4 >/dev/null && tar xzf qrcode-generator-2.0.4.tgz)
cp "$work/package/dist/qrcode.mjs" "$VENDOR/qrcode.js"
echo "vendored: $(ls "$VENDOR")"
