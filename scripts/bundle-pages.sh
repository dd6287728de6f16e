#!/usr/bin/env bash
# The scripts of the pages that must stand alone, each bundled with the modules of web/js it
# imports into one file of web/pages/ by esbuild (web/package.json's version): the review and
# replay pages' (web/js/review_page.js), which tools/review/ puts inside each page so that it
# works from disk, and the arena's game page's (web/js/arena_replay.js), which the Python
# package serves as arena/replay.js. The bundles are in the repository, so that building the
# C++ programs or the package needs no Node.js; scripts/test.sh checks that they are what this
# script makes of today's modules.
#
#   scripts/bundle-pages.sh [OUTPUT_DIR]   (default web/pages)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-web/pages}
esbuild=web/node_modules/.bin/esbuild
[ -x "$esbuild" ] || { echo "bundle-pages.sh: no $esbuild: npm ci --prefix web" >&2; exit 1; }
mkdir -p "$out"
for entry in review_page arena_replay; do
  "$esbuild" "web/js/$entry.js" --bundle --format=esm --target=es2022 --charset=utf8 \
    --minify --legal-comments=none --log-level=warning \
    --banner:js="// Made by scripts/bundle-pages.sh from web/js/$entry.js and the modules it imports: do not edit." \
    --outfile="$out/$entry.js"
done
