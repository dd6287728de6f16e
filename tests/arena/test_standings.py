"""The standings (standings.table): the Elo of `divercite-match -ratings` over the same
records, and the seeds' statistics counted from the games, for the current versions only; a
game whose record does not validate set aside, never the standings' end."""

import json
import re
from unittest import mock

from arena_games import AGENT, DRAWN, play, ready, record_of, runner_ratings
from django.contrib.auth.models import User
from django.core.cache import caches
from django.db import connection
from django.test import Client, TestCase
from django.test.utils import CaptureQueriesContext
from html_tables import Tables, body_rows

import divercite
from divercite import match
from divercite.arena.core import standings, teams
from divercite.arena.core.models import Entry, Game
from divercite.arena.pages import tables
from divercite.records import GameRecord


def divercites_by_hand(moves):
    """Each player's cities whose four neighbours hold resources of four colours."""
    board = divercite.Position.from_moves(moves).board()
    counts = [0, 0]
    for (row, col), piece in board.items():
        if piece[1] != "C":
            continue
        cells = ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
        around = [board.get(cell) for cell in cells]
        if None not in around and all(p[1] == "R" for p in around) and \
                len({p[0] for p in around}) == 4:
            counts["WB".index(piece[2])] += 1
    return counts


class StandingsTest(TestCase):
    def setUp(self):
        teams.ensure_house()
        standings.CACHE.key = None
        self.versions = {}
        for name in ("alpha", "beta"):
            entry, _ = teams.add_team(name)
            self.versions[name] = ready(teams.upload(entry, "my_player.py", AGENT))
        Game.objects.all().delete()  # the check games
        for name in ("greedy", "engine-250k"):
            self.versions[name] = Entry.objects.get(name=name).current_version()
        names = list(self.versions)
        self.games = [play(self.versions[names[i % 4]], self.versions[names[(i + 1 + i // 4) % 4]],
                           i) for i in range(12)]
        self.games.append(play(self.versions["greedy"], self.versions["alpha"], DRAWN))

    def test_elo_as_the_runner_fits_the_same_records(self):
        expected = runner_ratings(self.games)
        lines = {line.team: line for line in standings.table()}
        for name in self.versions:
            self.assertAlmostEqual(lines[name].elo, expected[name].elo, delta=0.05)
            if expected[name].elo_interval is not None:
                self.assertAlmostEqual(lines[name].elo_high - lines[name].elo_low,
                                       2 * expected[name].elo_interval, delta=0.2)
        table = standings.table()
        self.assertEqual([line.elo for line in table if line.elo is not None],
                         sorted((line.elo for line in table if line.elo is not None),
                                reverse=True))

    def test_the_seeds_statistics(self):
        lines = {line.team: line for line in standings.table()}
        for name, version in self.versions.items():
            line = lines[name]
            mine = [(game, 0 if game.p1_id == version.pk else 1) for game in self.games
                    if version.pk in (game.p1_id, game.p2_id)]
            self.assertEqual(line.games, len(mine))
            self.assertEqual(line.wins, sum(g.result == ("1-0", "0-1")[side] for g, side in mine))
            self.assertEqual(line.losses, sum(g.result == ("0-1", "1-0")[side] for g, side in mine))
            self.assertEqual(line.draws, sum(g.result == "1/2-1/2" for g, _ in mine))
            records = [(GameRecord.from_json(g.record), side) for g, side in mine]
            self.assertEqual(line.points_for, sum(r.final[side] for r, side in records))
            self.assertEqual(line.points_against, sum(r.final[1 - side] for r, side in records))
            self.assertEqual(line.divercites, sum(
                divercites_by_hand([m.move for m in r.moves])[side] for r, side in records))
            api = line.to_api()
            self.assertEqual(api["points_for_per_game"], round(line.points_for / line.games, 2))
            self.assertEqual(api["divercites_per_game"], round(line.divercites / line.games, 2))
            self.assertEqual(api["points_against_per_game"],
                             round(line.points_against / line.games, 2))
        self.assertGreater(sum(line.divercites for line in lines.values()), 0,
                           "no divercité in the games: the count is not exercised")
        self.assertEqual((lines["alpha"].draws, lines["greedy"].draws), (1, 1))
        self.assertGreater(sum(line.wins for line in lines.values()), 0)
        self.assertEqual(sum(line.wins for line in lines.values()),
                         sum(line.losses for line in lines.values()))

    def test_divercites_of_a_record(self):
        """Each game's counts as the final board gives them; none for a record that does not
        replay (a move the rules refuse)."""
        for game in self.games:
            moves = [m.move for m in GameRecord.from_json(game.record).moves]
            self.assertEqual([game.divercites1, game.divercites2], divercites_by_hand(moves))
            self.assertEqual(list(standings.divercites(GameRecord.from_json(game.record))),
                             divercites_by_hand(moves))
        broken = record_of(self.games[0], 0)
        broken.moves[3].move = broken.moves[2].move  # the same cell twice
        self.assertEqual(standings.divercites(broken), (None, None))

    def test_compute_over_chosen_games(self):
        """compute() takes the lines and the games it is given: an entry without a game is
        listed, unrated, after the rated ones."""
        alpha, beta = self.versions["alpha"], self.versions["beta"]
        between = [g for g in self.games if {g.p1_id, g.p2_id} == {alpha.pk, beta.pk}]
        self.assertTrue(between)
        current = {alpha.pk: ("alpha", "team", 1), beta.pk: ("beta", "team", 1),
                   self.versions["greedy"].pk: ("greedy", "house", 1)}
        lines = standings.compute(current, between)
        self.assertEqual([line.team for line in lines][-1], "greedy")
        self.assertIsNone(lines[-1].elo)
        self.assertEqual((lines[-1].games, lines[-1].to_api()["points_for_per_game"]), (0, None))
        self.assertEqual([line.games for line in lines[:2]], [len(between)] * 2)
        self.assertIsNotNone(lines[0].elo)
        self.assertEqual(standings.compute(current, [])[0].elo, None)

    def test_only_current_versions_and_no_check_games(self):
        alpha = self.versions["alpha"].entry
        ready(teams.upload(alpha, "my_player.py", AGENT))
        Game.objects.filter(purpose=Game.CHECK).delete()
        lines = {line.team: line for line in standings.table()}
        self.assertEqual((lines["alpha"].version, lines["alpha"].games, lines["alpha"].elo),
                         (2, 0, None))
        # The older version's games leave its opponents' lines too: the fit is over the
        # current versions' games only.
        old = self.versions["alpha"].pk
        for name in ("beta", "greedy", "engine-250k"):
            pk = self.versions[name].pk
            self.assertEqual(lines[name].games, sum(
                pk in (g.p1_id, g.p2_id) and old not in (g.p1_id, g.p2_id) for g in self.games))
        elos = [line.elo for line in lines.values()]
        unrated = elos.index(None)
        self.assertEqual(elos[unrated:], [None] * (len(elos) - unrated), "unrated lines last")
        checker = Entry.objects.get(kind=Entry.CHECKER).current_version()
        play(self.versions["beta"], checker, 20, purpose=Game.CHECK)
        self.assertEqual({line.team: line.games for line in standings.table()}["beta"],
                         lines["beta"].games)
        self.assertNotIn("course-random", lines)

    def test_the_page_shows_the_table_from_the_one_writer(self):
        """The standings page holds standings.table() as the one writer writes it (house
        opponents marked), written once until the stamp changes ({% cache %})."""
        caches["default"].clear()
        with mock.patch.object(tables, "standings_table", wraps=tables.standings_table) as writer:
            page = self.client.get("/").content.decode()
            self.assertEqual(self.client.get("/").content.decode(), page)
        self.assertEqual(writer.call_count, 1)
        lines = standings.table()
        self.assertIn(tables.standings_table(lines), page)
        body = page.split('<table class="standings sortable">')[1].split("</tbody>")[0]
        self.assertEqual(re.findall(r'<tr class="\w+"><td>\d+</td><td><a href="/teams/([^/]+)/">',
                                    body), [line.team for line in lines])
        self.assertIn('<a href="/teams/greedy/">greedy</a> <span class="house-mark">house</span>',
                      body)

    def test_the_page_shows_the_seeds_ratios_of_a_hand_count(self):
        """The standings page's W/L, divercités, points scored and conceded, their ratio and
        each a game, as the course's seeds' table gives them (two decimals; "∞" without a
        loss), against a count by hand over the games."""
        rows = {cells[1].split()[0]: cells for _, cells in body_rows(
            self.client.get("/").content.decode(), "standings")}
        headings = Tables(self.client.get("/").content.decode()).tables["standings"][0][1]
        self.assertEqual(headings[8:], ["W/L", "Divercités", "Divercités a game",
                                        "Points scored", "Points conceded", "Scored / conceded",
                                        "Scored a game", "Conceded a game"])

        def ratio(above, below):
            return f"{above / below:.2f}" if below else "∞" if above else "–"

        for name, version in self.versions.items():
            mine = [(GameRecord.from_json(g.record), g, 0 if g.p1_id == version.pk else 1)
                    for g in self.games if version.pk in (g.p1_id, g.p2_id)]
            games = len(mine)
            wins = sum(g.result == ("1-0", "0-1")[side] for _, g, side in mine)
            losses = sum(g.result == ("0-1", "1-0")[side] for _, g, side in mine)
            scored = sum(record.final[side] for record, _, side in mine)
            conceded = sum(record.final[1 - side] for record, _, side in mine)
            divercites = sum(divercites_by_hand([m.move for m in record.moves])[side]
                             for record, _, side in mine)
            self.assertEqual(rows[name][4:], [
                str(games), str(wins), str(games - wins - losses), str(losses),
                ratio(wins, losses), str(divercites), f"{divercites / games:.2f}", str(scored),
                str(conceded), ratio(scored, conceded), f"{scored / games:.2f}",
                f"{conceded / games:.2f}"], name)
        # The unplayed: none.
        self.assertEqual(rows["random"][4:], ["0", "0", "0", "0", "–", "0", "–", "0", "0", "–",
                                              "–", "–"])

    def test_the_reader_s_own_line_is_marked(self):
        """A logged-in team's line carries "you" (class own), on each reader's own page
        ({% cache %} under the reader's name); none for a visitor."""
        caches["default"].clear()
        marked = {}
        for name in ("alpha", "beta", None):
            client = Client()
            if name:
                client.force_login(Entry.objects.get(name=name).user)
            rows = body_rows(client.get("/").content.decode(), "standings")
            marked[name] = [(kind, cells[1]) for kind, cells in rows if "own" in kind.split()]
        self.assertEqual(marked, {"alpha": [("team own", "alpha you")],
                                  "beta": [("team own", "beta you")], None: []})

    def test_api_fields(self):
        body = self.client.get("/api/standings").json()["standings"]
        self.assertEqual(set(body[0]) - {"kind", "version"}, {
            "team", "elo", "elo_low", "elo_high", "games", "wins", "losses", "draws",
            "divercites", "divercites_per_game", "points_for", "points_against",
            "points_for_per_game", "points_against_per_game"})
        self.assertEqual({line["team"] for line in body},
                         {"alpha", "beta", "random", "greedy", "skypiea_v5", "engine-40k",
                          "engine-250k", "engine-2.5m"})


class SetAsideTest(TestCase):
    """Records forged in the database (or kept before the arena checked them) that would stop
    -ratings: each game set aside with its reason, once, and the rest counted."""

    setUp = StandingsTest.setUp

    def forge(self):
        """Three games made bad: {game id: what its set_aside says}."""
        first, second, third = self.games[:3]
        record = json.loads(first.record)
        record["result"] = "2-0"
        Game.objects.filter(pk=first.pk).update(result="2-0", record=json.dumps(record))
        record = json.loads(second.record)
        record["tc"] = [5, 6]
        Game.objects.filter(pk=second.pk).update(record=json.dumps(record))
        Game.objects.filter(pk=third.pk).update(record="{not json")
        return {first.pk: "result \"2-0\" is none of", second.pk: "two texts",
                third.pk: "not JSON"}

    def test_forged_rows_are_set_aside_and_the_rest_counted(self):
        bad = self.forge()
        with CaptureQueriesContext(connection) as queries:
            lines = {line.team: line for line in standings.table()}
        updates = [q for q in queries.captured_queries if q["sql"].startswith("UPDATE")]
        self.assertEqual(len(updates), len(bad))
        for pk, why in bad.items():
            self.assertIn(why, Game.objects.get(pk=pk).set_aside)
        self.assertFalse(Game.objects.exclude(pk__in=bad).exclude(set_aside="").exists())
        sound = [game for game in self.games if game.pk not in bad]
        for name, version in self.versions.items():
            self.assertEqual(lines[name].games, sum(version.pk in (g.p1_id, g.p2_id)
                                                    for g in sound), name)
            self.assertIsNotNone(lines[name].elo, name)
        standings.CACHE.key = None
        with CaptureQueriesContext(connection) as queries:
            self.assertEqual([line.games for line in standings.table()],
                             [line.games for line in lines.values()])
        self.assertFalse([q for q in queries.captured_queries if q["sql"].startswith("UPDATE")],
                         "a game set aside twice")
        for path in ("/", "/api/standings", "/teams/alpha/"):
            with self.subTest(path=path):
                self.assertEqual(self.client.get(path).status_code, 200)
        User.objects.create_superuser("admin", password="admin-password")
        self.client.login(username="admin", password="admin-password")
        listed = self.client.get("/admin/arena/game/?set_aside=yes")
        self.assertEqual(listed.context["cl"].result_count, len(bad))
        self.assertContains(listed, "left out of the standings")
        self.assertEqual(self.client.get("/admin/arena/game/?set_aside=no").context["cl"]
                         .result_count, Game.objects.count() - len(bad))
        page = self.client.get(f"/admin/arena/game/{self.games[0].pk}/change/")
        self.assertNotContains(page, 'name="set_aside"')  # read-only
        self.assertContains(page, "left out of the standings")

    def test_without_ratings_the_table_has_no_elo(self):
        with mock.patch.object(match, "ratings", side_effect=match.MatchError("boom")):
            lines = {line.team: line for line in standings.table()}
            self.assertEqual(self.client.get("/api/standings").status_code, 200)
        self.assertEqual({line.elo for line in lines.values()}, {None})
        self.assertEqual(lines["alpha"].games, sum(self.versions["alpha"].pk in (g.p1_id, g.p2_id)
                                                   for g in self.games))
