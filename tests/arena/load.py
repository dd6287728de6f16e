#!/usr/bin/python3
"""The arena under load (issue 46's figures): an arena of TEAMS teams and GAMES finished games
(the course code's reference games as their records), served by `divercite-arena serve`
(Django's threaded server) or `serve --production` (gunicorn), and CLIENTS concurrent
clients asking for the standings, a team's page and a game's page for SECONDS with wrk
(Debian's `wrk`): requests a second and the latency's p50, p95 and p99, each page alone and
the three mixed. Then a burst of BURST uploads at once, one a team, through the API.

    tests/arena/load.py [--database sqlite|postgresql] [--production] [--teams 150]
        [--games 10000] [--clients 200] [--seconds 20] [--think MS] [--burst 50] [--json OUT]

Not a test of the suite (minutes of both cores): the figures in docs/arena.md come from it."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from arena_process import Server, init
from arena_support import COURSE, REFERENCE, package_environment
from postgres_server import PostgresServer, free_port

# wrk's Lua: the paths taken in turn, each connection from its own place in the list; the
# latency's percentiles printed as JSON at the end.
WRK_SCRIPT = """
local paths = {%s}
local counter = 0
function setup(thread)
  thread:set("offset", counter)
  counter = counter + 97
end
function init(args)
  index = offset
end
-- serve --production answers plain HTTP with a redirect to https://: the load comes as
-- through the HTTPS proxy.
local headers = {["X-Forwarded-Proto"] = "https"}
function request()
  index = index + 1
  return wrk.format("GET", paths[(index %% #paths) + 1], headers)
end
function delay()
  return %d
end
function done(summary, latency, requests)
  io.write(string.format(
    'RESULT {"requests": %%d, "seconds": %%.3f, "errors": %%d, "non_2xx": %%d, '
    .. '"p50": %%.1f, "p95": %%.1f, "p99": %%.1f, "max": %%.1f}\\n',
    summary.requests, summary.duration / 1e6,
    summary.errors.connect + summary.errors.read + summary.errors.write
      + summary.errors.timeout, summary.errors.status,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000))
end
"""


def populate(folder: Path, teams: int, games: int, database) -> dict:
    """The arena's teams (a ready version each) and finished games, written straight into its
    database; what the load asks for: a team's name and game ids."""
    os.environ["DIVERCITE_ARENA_DIR"] = str(folder)
    os.environ["DJANGO_SETTINGS_MODULE"] = "divercite.arena.project.settings"
    import django
    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.utils import timezone
    call_command("migrate", verbosity=0)
    from divercite.arena.core import standings, teams as team_actions
    from divercite.arena.core.models import Entry, Game, Version
    from divercite.records import GameRecord, MoveRecord
    team_actions.ensure_house()
    entries = []
    for number in range(teams):
        user = User(username=f"team{number:03d}")
        user.set_unusable_password()  # the load reads public pages only: no hashing to wait for
        user.save()
        entries.append(Entry.objects.create(name=user.username, kind=Entry.TEAM, user=user))
    versions = [Version.objects.create(entry=entry, number=1, status=Version.READY,
                                       agent_file="my_player.py") for entry in entries]
    reference = [json.loads(line) for line in (REFERENCE / "games.jsonl").read_text().splitlines()]
    made = []
    for index, game in enumerate(reference):
        final = game["final"]
        result = "1-0" if final[0] > final[1] else "0-1" if final[0] < final[1] else "1/2-1/2"
        record = GameRecord(game=0, round=0, pair=-1, p1="P1", p2="P2", result=result,
                            termination="normal", reason="", start="startpos", opening="",
                            engines=[0, 1], tc=["tc=900", "tc=900"],
                            moves=[MoveRecord(move=move, ms=900 + ply)
                                   for ply, move in enumerate(game["moves"])], final=final)
        made.append((record, standings.divercites(record)))
    rng = random.Random(46)
    now = timezone.now()
    rows = []
    for number in range(games):
        first, second = rng.sample(versions, 2)
        record, (d1, d2) = made[number % len(made)]
        fields = record.to_dict()
        fields.update(game=number, p1=first.entry.name, p2=second.entry.name)
        rows.append(Game(p1=first, p2=second, purpose=Game.MATCHMADE, status=Game.DONE,
                         worker="load", attempts=1, started=now, ended=now,
                         result=record.result, score1=record.final[0], score2=record.final[1],
                         divercites1=d1, divercites2=d2, termination="normal",
                         record=json.dumps(fields, separators=(",", ":"))))
    Game.objects.bulk_create(rows, batch_size=1000)
    ids = list(Game.objects.values_list("id", flat=True))
    started = time.monotonic()
    table = standings.table()
    return {"team": entries[0].name, "games": rng.sample(ids, 50),
            "rated": sum(line.elo is not None for line in table),
            "standings_seconds": round(time.monotonic() - started, 2)}


def run_wrk(url: str, paths, clients: int, seconds: int, think_ms: int) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(WRK_SCRIPT % (", ".join(json.dumps(path) for path in paths), think_ms))
    try:
        done = subprocess.run(["wrk", "-t", "2", "-c", str(clients), "-d", f"{seconds}s",
                               "--timeout", "10s", "-s", script.name, url],
                              capture_output=True, text=True, timeout=seconds + 120)
    finally:
        os.unlink(script.name)
    line = next((line for line in done.stdout.splitlines() if line.startswith("RESULT ")), None)
    if line is None:
        raise RuntimeError(f"wrk: {done.stdout}{done.stderr}")
    result = json.loads(line[len("RESULT "):])
    result["rps"] = round(result["requests"] / result["seconds"], 1)
    return result


def upload_burst(server: Server, tokens: dict, count: int) -> dict:
    """`count` teams upload at once (a thread each): every answer's time."""
    agent = (COURSE / "divercite" / "random_player_divercite.py").read_bytes()
    barrier = threading.Barrier(count)
    times, statuses = [], []

    def send(token):
        barrier.wait()
        started = time.monotonic()
        try:
            status, _ = server.upload(token, "my_player.py", agent)
        except OSError as failure:  # a connection refused or reset: counted, not raised
            status = type(failure).__name__
        times.append(time.monotonic() - started)
        statuses.append(status)
    threads = [threading.Thread(target=send, args=(token,))
               for token in list(tokens.values())[:count]]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    ordered = sorted(times)
    return {"uploads": count, "accepted": statuses.count(201),
            "failed": sorted(str(status) for status in statuses if status != 201),
            "wall_seconds": round(time.monotonic() - started, 2),
            "p50_ms": round(statistics.median(ordered) * 1000, 1),
            "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 1),
            "max_ms": round(ordered[-1] * 1000, 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--production", action="store_true", help="serve --production")
    parser.add_argument("--teams", type=int, default=150)
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--think", type=int, default=0, metavar="MS",
                        help="each client waits MS between an answer and its next request "
                             "(default 0: as fast as answered, the server's most)")
    parser.add_argument("--burst", type=int, default=50)
    parser.add_argument("--json", metavar="OUT", help="the figures as JSON too")
    arguments = parser.parse_args()
    if shutil.which("wrk") is None:
        print("load.py: wrk is missing: sudo apt install wrk", file=sys.stderr)
        return 2
    with contextlib.ExitStack() as stack:
        temp = Path(tempfile.mkdtemp(prefix="divercite_arena_load_"))
        stack.callback(shutil.rmtree, temp, ignore_errors=True)
        url = None
        if arguments.database == "postgresql":
            url = stack.enter_context(PostgresServer()).url
        folder = temp / "arena"
        init(folder, tc=900, database=url)
        settings = json.loads((folder / "arena.json").read_text())
        settings["upload_limit_per_hour"] = 0
        # Its clients are one address (127.0.0.1): the limit an address would answer 429s.
        settings["anonymous_requests_per_minute"] = 0
        (folder / "arena.json").write_text(json.dumps(settings))
        started = time.monotonic()
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        os.environ.update(package_environment())
        facts = populate(folder, arguments.teams, arguments.games, url)
        print(f"{arguments.teams} teams, {arguments.games} games written in "
              f"{time.monotonic() - started:.0f} s; the standings computed in "
              f"{facts['standings_seconds']} s ({facts['rated']} rated)", flush=True)
        extra = ["--production", "--allowed-host", "127.0.0.1"] if arguments.production else []
        server = Server(folder, workers=0, port=free_port(), extra=extra)
        stack.callback(server.stop)
        pages = {"standings": ["/"], "team": [f"/teams/{facts['team']}/"],
                 "game": [f"/games/{pk}/" for pk in facts["games"]]}
        pages["mixed"] = pages["standings"] + pages["team"] + pages["game"][:1]
        figures = {"database": arguments.database,
                   "server": "gunicorn" if arguments.production else "django",
                   "teams": arguments.teams, "games": arguments.games,
                   "clients": arguments.clients, "think_ms": arguments.think, "pages": {}}
        for paths in pages.values():  # once each: the caches as a running arena has them
            for path in paths[:3]:
                server.request(path)
        for name, paths in pages.items():
            result = run_wrk(server.address.rstrip("/"), paths, arguments.clients,
                             arguments.seconds, arguments.think)
            figures["pages"][name] = result
            print(f"{name:10} {result['rps']:8.1f} req/s  p50 {result['p50']:7.1f} ms  "
                  f"p95 {result['p95']:7.1f} ms  p99 {result['p99']:7.1f} ms  "
                  f"errors {result['errors']}  non-2xx {result['non_2xx']}", flush=True)
        if arguments.burst:
            from arena_process import add_teams
            tokens = add_teams(folder, *[f"burst{n:02d}" for n in range(arguments.burst)])
            figures["burst"] = upload_burst(server, tokens, arguments.burst)
            print(f"burst: {figures['burst']}", flush=True)
        if arguments.json:
            Path(arguments.json).write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
