#!/usr/bin/env python3
"""Serves the web site (build-web/site) on 127.0.0.1, as a static host must serve it.

The threaded engine needs SharedArrayBuffer, which a browser gives a page only when it is
cross-origin isolated: every response carries `Cross-Origin-Opener-Policy: same-origin` and
`Cross-Origin-Embedder-Policy: require-corp` (and `Cross-Origin-Resource-Policy:
same-origin`). `--no-isolation` leaves them out, as a host that cannot set headers does: the
page then runs the single-threaded engine. `.wasm` goes out as `application/wasm`, which
WebAssembly.instantiateStreaming requires.

    python3 tools/web/serve.py [--port PORT] [--no-isolation] [--log FILE] [DIRECTORY]

The first line on standard output, flushed, names the address (`serving
http://127.0.0.1:PORT/`): with `--port 0` the system chooses a free port, so tests can start
servers side by side. `--log FILE` appends every requested path to FILE, one a line.
"""

import argparse
import functools
import http.server
import pathlib
import sys
import threading

SITE = pathlib.Path(__file__).resolve().parents[2] / "build-web" / "site"

ISOLATION_HEADERS = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
    "Cross-Origin-Resource-Policy": "same-origin",
}


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with the site's headers and types; set per server by `make_handler`."""

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".html": "text/html; charset=utf-8",
        ".css": "text/css; charset=utf-8",
        ".svg": "image/svg+xml",
        ".json": "application/json",
    }
    isolation = True
    log_file = None
    log_lock = threading.Lock()

    def end_headers(self):
        if self.isolation:
            for name, value in ISOLATION_HEADERS.items():
                self.send_header(name, value)
        # A rebuilt engine must not meet a cached half of the old one.
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_request(self, code="-", size="-"):
        if self.log_file is not None:
            with self.log_lock:
                self.log_file.write(self.path + "\n")
                self.log_file.flush()
        super().log_request(code, size)


def make_handler(directory, isolation, log_file):
    """The handler class for one server: its folder, headers and log."""
    handler = type("Handler", (SiteHandler,), {"isolation": isolation, "log_file": log_file})
    return functools.partial(handler, directory=str(directory))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", nargs="?", default=str(SITE),
                        help="the folder to serve (default: build-web/site)")
    parser.add_argument("--port", type=int, default=8000, help="0: any free port")
    parser.add_argument("--no-isolation", action="store_true",
                        help="send no COOP/COEP/CORP headers (the single-threaded engine runs)")
    parser.add_argument("--log", type=pathlib.Path, help="append every requested path here")
    args = parser.parse_args(argv)

    directory = pathlib.Path(args.directory)
    if not directory.is_dir():
        parser.error(f"no folder {directory}: build the site first (scripts/web.sh)")
    log_file = open(args.log, "a", encoding="utf-8") if args.log else None
    handler = make_handler(directory, not args.no_isolation, log_file)
    # Loopback only: this is a developer's server, never a public one.
    with http.server.ThreadingHTTPServer(("127.0.0.1", args.port), handler) as server:
        print(f"serving http://127.0.0.1:{server.server_address[1]}/", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
    if log_file:
        log_file.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
