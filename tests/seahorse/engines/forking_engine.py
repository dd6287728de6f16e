#!/usr/bin/env python3
"""A hostile protocol engine for the sandbox's tests (divercite.sandbox.run): it answers the
handshake, then on `go` tries to start 300 processes that sleep 60 s, a refused one tried again
10 ms later, and never answers (bounded in count and time, so that it cannot harm the machine
where no sandbox holds it)."""
import os
import sys
import time

for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("id name forking\nid author the sandbox's tests\nuciok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "go":
        for _ in range(300):
            try:
                if os.fork() == 0:
                    time.sleep(60)
                    os._exit(0)
            except BlockingIOError:
                time.sleep(0.01)
    elif words[0] == "quit":
        break
