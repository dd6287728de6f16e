#!/usr/bin/env bash
# The main job: build, count the move tree from the start position, and talk to the engine.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh

echo "== perft from the start position (course code: 164, 26240, 4093440, 622202880, 91783680000)"
for depth in 1 2 3 4 5; do
  build/bin/divercite-perft "$depth" | awk -v d="$depth" '
    /^nodes/ {n=$2} /^time/ {t=$2} /^nps/ {s=$2}
    END {printf "perft(%d) = %s  (%s s, %.0f M leaves/s)\n", d, n, t, s/1e6}'
done

echo
echo "== protocol demo: handshake, a position and its picture, perft near the end, a bad move"
build/bin/divercite <<'PROTOCOL'
uci
isready
position startpos moves RC14 RR04 GR13 BR15 YR24
d
query p1turn
position startpos moves BR57 YR37 BR04 GR46 BR55 YR22 YC54 YC65 RC74 YC23 YR64 BR66 GC14 RC45 BC36 GR73 RR53 YR33 BC25 RR35 GR51 RC56 YR42 BR48 YC43 BR13 RC63 BC32 GC34 BC41 YR26 RR84 GR15 GR62 GR44 RR31 RR75
go perft 3
position startpos moves RC14 XX99
d
quit
PROTOCOL
