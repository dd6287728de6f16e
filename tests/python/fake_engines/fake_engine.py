#!/usr/bin/env python3
"""A misbehaving engine of our protocol for tests/python/test_engine.py, after
tests/fake_engine.cc (which reads only `position startpos`):

    fake_engine.py MODE

It answers `uci` (three options: Hash, a spin; Style, a combo; Fast, a check), `isready`,
`setoption` and `position`, then, asked to `go`, fails the way MODE says:

    good        answers `bestmove RC14` after a score line
    die         says a score, writes "fake: out of memory" on stderr, exits with code 3
    hang_go     never answers `go` (nor `stop`)
    hang_ready  never answers `isready`
    no_move     answers `bestmove` naming no move
    illegal     answers `bestmove RC14` whatever the position
    refused_go  answers `info string error: go: nope` and no move
    explained   answers `info string error: the fake gives up`, then `bestmove (none)`
    refuse_option  answers every `setoption` with `info string error: setoption: no`
"""

import sys
import time


def main():
    mode = sys.argv[1]
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            print(f"id name fake-{mode}\nid author the tests")
            print("option name Hash type spin default 16 min 1 max 1024")
            print("option name Style type combo default solid var solid var wild")
            print("option name Fast type check default false")
            print("uciok", flush=True)
        elif words[0] == "isready":
            if mode != "hang_ready":
                print("readyok", flush=True)
        elif words[0] == "setoption" and mode == "refuse_option":
            print("info string error: setoption: no", flush=True)
        elif words[0] == "quit":
            return
        elif words[0] == "go":
            if mode in ("good", "illegal"):
                print("info depth 1 score cp 12 nodes 1 time 0 pv RC14\nbestmove RC14", flush=True)
            elif mode == "die":
                print("info depth 1 score cp 12", flush=True)
                print("fake: out of memory", file=sys.stderr, flush=True)
                sys.exit(3)
            elif mode == "hang_go":
                time.sleep(3600)
            elif mode == "no_move":
                print("bestmove", flush=True)
            elif mode == "refused_go":
                print("info string error: go: nope", flush=True)
            elif mode == "explained":
                print("info string error: the fake gives up\nbestmove (none)", flush=True)


if __name__ == "__main__":
    main()
