#!/bin/sh
# A protocol engine that answers the handshake and dies (exit status 3) on its first `go`:
# the measurement scripts must report it, not wait for a `bestmove` that never comes.
while read -r line; do
  case "$line" in
    uci) echo "id name dies-on-go"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) exit 3 ;;
  esac
done
