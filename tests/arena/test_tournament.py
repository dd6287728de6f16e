"""The final tournament (tournament.py): versions frozen by a deadline or by choice, teams
without one left out; the round robin's pairs and colours; its games claimed after checks,
before challenges and matchmaking, at the tournament's clock, and never among the rated
games; its standings, ranks and CSV from finished games (reference games, as
test_standings makes them); the API, the pages, the CSV's permissions and the command line."""

import contextlib
import csv
import io
import os
import random
import re
import tempfile
from collections import Counter
from datetime import datetime, timedelta
from datetime import timezone as utc_zone
from itertools import combinations
from unittest import mock

from arena_games import AGENT, DRAWN, REFERENCE_GAMES, ready, record_of, runner_ratings
from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Q
from django.test import Client, TestCase
from django.utils import timezone

from divercite.arena.cli import main as cli
from divercite.arena.core import game_queue, grading, standings, teams, tournament, serve_workers
from divercite.arena.core.models import AuditEntry, Game, Tournament, Version
from divercite.arena.core.teams import RequestRefused
from divercite.arena.pages import tables

# Reference games by their result: the first player's wins, the second's.
FIRST_WINS = [i for i, game in enumerate(REFERENCE_GAMES) if game["final"][0] > game["final"][1]]
SECOND_WINS = [i for i, game in enumerate(REFERENCE_GAMES)
               if game["final"][0] < game["final"][1]]
STANDINGS_FIELDS = {"team", "kind", "version", "elo", "elo_low", "elo_high", "games", "wins",
                    "losses", "draws", "divercites", "divercites_per_game", "points_for",
                    "points_against", "points_for_per_game", "points_against_per_game"}


def run_cli(*arguments):
    """divercite-arena ARGUMENTS on the tests' arena: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main([str(argument) for argument in arguments])
    return status, out.getvalue(), err.getvalue()


class TournamentTestCase(TestCase):
    TEAMS = ("alpha", "beta", "gamma", "delta")

    def setUp(self):
        teams.ensure_house()
        standings.CACHE.key = None
        self.entries, self.tokens, self.versions = {}, {}, {}
        for name in self.TEAMS:
            self.entries[name], self.tokens[name] = teams.add_team(name)
            self.versions[name] = ready(teams.upload(self.entries[name], "my_player.py", AGENT))
        Game.objects.all().delete()  # the check games

    def upload(self, name, status=Version.READY, created=None):
        version = teams.upload(self.entries[name], "my_player.py", AGENT)
        Game.objects.filter(p1=version, purpose=Game.CHECK).delete()
        fields = {"status": status}
        if created is not None:
            fields["created"] = created
        Version.objects.filter(pk=version.pk).update(**fields)
        version.refresh_from_db()
        return version

    def play_all(self, made, winner_of=None, limit=None):
        """Claims and finishes the tournament's queued games (reference games): the winner
        of each pair `winner_of[{a, b}]` (a name, or None for a draw); any result without."""
        played, counts = [], Counter()
        while limit is None or len(played) < limit:
            game = game_queue.claim("test")
            if game is None:
                break
            self.assertEqual(game.tournament_id, made.pk)
            names = (game.p1.entry.name, game.p2.entry.name)
            pair = frozenset(names)
            if winner_of is None:
                index = len(played)
            else:
                wanted = winner_of[pair]
                pool = [DRAWN] if wanted is None else \
                    FIRST_WINS if wanted == names[0] else SECOND_WINS
                index = pool[counts[pair] % len(pool)]
            counts[pair] += 1
            self.assertTrue(game_queue.finish(game, record_of(game, index)))
            played.append(Game.objects.get(pk=game.pk))
        return played


class FreezeTest(TournamentTestCase):
    def test_by_deadline(self):
        """A team's last ready version uploaded before the deadline; one with none then (only
        a later one, or only a rejected one) is left out and listed."""
        now = timezone.now()
        before, deadline, after = now - timedelta(days=2), now - timedelta(days=1), now
        Version.objects.filter(pk__in=[v.pk for v in self.versions.values()]).update(
            created=before)
        later = self.upload("alpha", created=after)  # after the deadline: not taken
        self.upload("alpha", Version.REJECTED, created=before + timedelta(hours=1))
        Version.objects.filter(pk=self.versions["gamma"].pk).update(status=Version.REJECTED)
        Version.objects.filter(pk=self.versions["delta"].pk).update(created=after)
        made = tournament.create("final", 30, 2, deadline=deadline)
        self.assertEqual({str(frozen) for frozen in made.entered},
                         {"alpha v1 (deadline)", "beta v1 (deadline)"})
        self.assertEqual(made.left_out, [
            ("delta", "no ready version uploaded before the deadline"),
            ("gamma", "no ready version uploaded before the deadline")])
        self.assertEqual(sorted(made.tournament.entries.values_list("version_id", flat=True)),
                         sorted([self.versions["alpha"].pk, self.versions["beta"].pk]))
        self.assertNotIn(later.pk, [frozen.version.pk for frozen in made.entered])
        self.assertEqual((made.games, made.tournament.deadline), (2, deadline))

    def test_current_versions_and_chosen_ones(self):
        second = self.upload("alpha")
        made = tournament.create("now", 30, 1)
        taken = {frozen.version.entry.name: (frozen.version.pk, frozen.how)
                 for frozen in made.entered}
        self.assertEqual(taken["alpha"], (second.pk, "current"))
        self.assertEqual(len(taken), 4)
        chosen = tournament.create("chosen", 30, 1, deadline=timezone.now() - timedelta(days=9),
                                   chosen={"alpha": 1, "beta": 1})
        self.assertEqual({str(frozen) for frozen in chosen.entered},
                         {"alpha v1 (chosen)", "beta v1 (chosen)"})
        self.assertEqual(len(chosen.left_out), 2)  # gamma and delta: none before then
        rejected = self.upload("gamma", Version.REJECTED)
        for choice, why in (({"gamma": rejected.number}, "gamma has no ready version 2 (it is "
                                                         "rejected)"),
                            ({"alpha": 9}, "alpha has no ready version 9"),
                            ({"nobody": 1}, "no team named nobody")):
            with self.subTest(choice=choice), self.assertRaisesMessage(RequestRefused, why):
                tournament.create("refused", 30, 1, chosen=choice)
        self.assertFalse(Tournament.objects.filter(name="refused").exists())

    def test_a_version_being_checked_waits_for_nothing(self):
        """A team whose newest upload is still being checked plays with its newest ready
        version, and the tournament says so; one with no ready version is left out."""
        checking = self.upload("beta", Version.CHECKING)
        Version.objects.filter(pk=self.versions["gamma"].pk).update(status=Version.CHECKING)
        made = tournament.create("early", 30, 1)
        self.assertEqual([str(frozen) for frozen in made.entered],
                         ["alpha v1 (current)",
                          "beta v1 (current; version 2 still being checked)",
                          "delta v1 (current)"])
        self.assertEqual(made.left_out,
                         [("gamma", "no ready version; version 1 still being checked")])
        self.assertIn("  beta v1 (current; version 2 still being checked)\n", made.text())
        self.assertEqual(Version.objects.get(pk=checking.pk).status, Version.CHECKING)
        chosen = tournament.create("chosen", 30, 1, chosen={"beta": 1})
        self.assertIn("beta v1 (chosen)", {str(frozen) for frozen in chosen.entered})
        # A check of a version uploaded after the deadline is not mentioned.
        Version.objects.filter(pk=checking.pk).update(
            created=timezone.now() + timedelta(days=1))
        later = tournament.create("deadline", 30, 1, deadline=timezone.now() + timedelta(hours=1))
        self.assertIn("beta v1 (deadline)", {str(frozen) for frozen in later.entered})

    def test_teams_excluded(self):
        made = tournament.create("some", 30, 1, excluded=["beta", "delta"], house=["greedy"])
        self.assertEqual([str(frozen) for frozen in made.entered],
                         ["alpha v1 (current)", "gamma v1 (current)", "greedy v1 (house)"])
        self.assertEqual(made.left_out, [("beta", "excluded"), ("delta", "excluded")])
        frozen = set(made.tournament.entries.values_list("version__entry__name", flat=True))
        self.assertEqual(frozen, {"alpha", "gamma", "greedy"})
        self.assertFalse(made.tournament.games.filter(
            Q(p1__entry__name__in=["beta", "delta"]) | Q(p2__entry__name__in=["beta", "delta"]))
            .exists())
        self.assertEqual(made.games, 3)
        for excluded, chosen, why in ((["nobody"], {}, "no team named nobody (to be excluded)"),
                                      (["greedy"], {}, "no team named greedy (to be excluded)"),
                                      (["alpha"], {"alpha": 1},
                                       "alpha: both excluded and given a version"),
                                      (["alpha", "beta", "gamma"], {},
                                       "1 team to enter: a tournament needs two")):
            with self.subTest(excluded=excluded), self.assertRaisesMessage(RequestRefused, why):
                tournament.create("refused", 30, 1, excluded=excluded, chosen=chosen)
        self.assertFalse(Tournament.objects.filter(name="refused").exists())

    def test_refusals(self):
        for name in ("gamma", "delta", "beta"):
            Version.objects.filter(pk=self.versions[name].pk).update(status=Version.REJECTED)
        with self.assertRaisesMessage(RequestRefused, "1 team to enter: a tournament needs two"):
            tournament.create("alone", 30, 1)
        made = tournament.create("with the house", 30, 1, house=["greedy", "engine-40k"])
        self.assertEqual([str(frozen) for frozen in made.entered],
                         ["alpha v1 (current)", "greedy v1 (house)", "engine-40k v1 (house)"])
        with self.assertRaisesMessage(RequestRefused, "exists"):
            tournament.create("with the house", 30, 1, house=["greedy"])
        with self.assertRaisesMessage(RequestRefused, "no house opponent 'course-random'"):
            tournament.create("checker", 30, 1, house=["course-random"])
        for tc, games in ((0, 1), (30, 0)):
            with self.assertRaises(RequestRefused):
                tournament.create("bad", tc, games, house=["greedy"])
        self.assertEqual(Tournament.objects.count(), 1)
        self.assertEqual(Game.objects.count(), 3)  # the one tournament's: nothing else queued

    def test_deadline_and_choices_parsed(self):
        self.assertEqual(tournament.parse_deadline("2025-12-05T23:59"),
                         datetime(2025, 12, 5, 23, 59, tzinfo=utc_zone.utc))
        self.assertEqual(tournament.parse_deadline("2025-12-05 23:59-05:00"),
                         datetime(2025, 12, 6, 4, 59, tzinfo=utc_zone.utc))
        for bad in ("2025-12-05", "tomorrow", "2025-13-05T10:00"):
            with self.subTest(bad=bad), self.assertRaises(RequestRefused):
                tournament.parse_deadline(bad)
        self.assertEqual(tournament.parse_choice("alpha=3"), ("alpha", 3))
        for bad in ("alpha", "alpha=", "=3", "alpha=x"):
            with self.subTest(bad=bad), self.assertRaises(RequestRefused):
                tournament.parse_choice(bad)


class RoundRobinTest(TournamentTestCase):
    def test_every_pair_and_balanced_colours(self):
        for count in range(2, 10):
            for games in range(1, 5):
                with self.subTest(count=count, games=games):
                    made = tournament.schedule(count, games)
                    pairs = Counter(frozenset(game) for game in made)
                    self.assertEqual(set(pairs), {frozenset(p) for p in
                                                  combinations(range(count), 2)})
                    self.assertEqual(set(pairs.values()), {games})
                    first = Counter(game[0] for game in made)
                    for i, j in combinations(range(count), 2):
                        self.assertLessEqual(abs(sum(g == (i, j) for g in made)
                                                 - sum(g == (j, i) for g in made)), 1)
                    firsts = [first[i] for i in range(count)]
                    self.assertLessEqual(max(firsts) - min(firsts), 1, firsts)
                    # Each pair's first game before any pair's second.
                    size = count * (count - 1) // 2
                    self.assertEqual({frozenset(game) for game in made[:size]}, set(pairs))

    def test_rounds_meet_each_player_once(self):
        for count in range(2, 10):
            for pairs in tournament.rounds(count):
                players = [player for pair in pairs for player in pair]
                self.assertEqual(len(players), len(set(players)))
                self.assertEqual(len(pairs), count // 2)

    def test_the_queued_games(self):
        made = tournament.create("final", 60, 3).tournament
        games = list(Game.objects.order_by("id"))
        self.assertEqual(len(games), 6 * 3)
        self.assertEqual({(g.purpose, g.status, g.tournament_id) for g in games},
                         {(Game.TOURNAMENT, Game.QUEUED, made.pk)})
        frozen = {v.pk for v in self.versions.values()}
        self.assertEqual({g.p1_id for g in games} | {g.p2_id for g in games}, frozen)
        by_pair = Counter((g.p1_id, g.p2_id) for g in games)
        for a, b in combinations(frozen, 2):
            self.assertEqual(sorted([by_pair[(a, b)], by_pair[(b, a)]]), [1, 2])
        firsts = Counter(g.p1_id for g in games)
        self.assertLessEqual(max(firsts.values()) - min(firsts.values()), 1)


class PlayedApartTest(TournamentTestCase):
    def test_claimed_after_checks_before_challenges(self):
        """Checks, then the tournament's games (oldest first), then challenges, then the
        matchmade games queued again after a stop: each purpose in turn, whatever the order
        they were queued in."""
        made = tournament.create("final", 60, 1).tournament
        self.assertEqual(game_queue.claim("first").tournament_id, made.pk)
        teams.challenge(self.entries["beta"], "greedy", 1)
        challenge = Game.objects.get(purpose=Game.CHALLENGE)
        ladder = Game.objects.create(p1=self.versions["gamma"], p2=self.versions["delta"],
                                     purpose=Game.MATCHMADE)
        check_game = teams.upload(self.entries["alpha"], "my_player.py", AGENT).games_first.get()
        order = [game_queue.claim("w") for _ in range(9)]
        self.assertEqual(order[0].pk, check_game.pk)
        tournament_games = [game.pk for game in order[1:6]]
        self.assertEqual(tournament_games, sorted(tournament_games))
        self.assertEqual({game.purpose for game in order[1:6]}, {Game.TOURNAMENT})
        self.assertEqual([game.pk for game in order[6:8]], [challenge.pk, ladder.pk])
        self.assertIsNone(order[8])

    def test_before_matchmaking(self):
        made = tournament.create("final", 60, 1).tournament
        rng = random.Random(1)
        for _ in range(6):
            game = serve_workers.next_game("w", rng)
            self.assertEqual((game.purpose, game.tournament_id), (Game.TOURNAMENT, made.pk))
        self.assertFalse(Game.objects.filter(purpose=Game.MATCHMADE).exists())
        # None left queued: matchmaking's turn.
        self.assertEqual(serve_workers.next_game("w", rng).purpose, Game.MATCHMADE)

    def test_the_rated_games_include_none_of_its_games(self):
        made = tournament.create("final", 60, 2).tournament
        played = self.play_all(made, limit=11)
        playing = game_queue.claim("w")  # the twelfth, being played
        self.assertEqual(len(played), 11)
        self.assertIsNotNone(playing)
        lines = {line.team: line for line in standings.table()}
        for name in self.TEAMS:
            self.assertEqual((lines[name].games, lines[name].elo), (0, None))
        seen = {}

        def choose(ids, elo, done, playing_now, placement, rng):
            seen.update(done=list(done), playing=list(playing_now))
            return None
        with mock.patch.object(serve_workers.matchmaking, "choose", choose):
            self.assertIsNone(serve_workers.next_game("w", random.Random(1)))
        self.assertEqual(seen, {"done": [], "playing": []})
        ladder = Game.objects.create(p1=self.versions["alpha"], p2=self.versions["beta"],
                                     purpose=Game.MATCHMADE)
        with mock.patch.object(serve_workers.matchmaking, "choose", choose):
            self.assertEqual(serve_workers.next_game("w", random.Random(1)).pk, ladder.pk)
            self.assertIsNone(serve_workers.next_game("w", random.Random(1)))
        self.assertEqual(seen["playing"], [(self.versions["alpha"].pk, self.versions["beta"].pk)])

    def test_played_at_the_tournament_s_clock(self):
        """Teams and the course's replicas at the tournament's clock; a house engine searches
        its nodes (its seat's time: their allowance); matchmaking's games at the arena's."""
        made = tournament.create("final", 42, 1, house=["greedy", "engine-250k"]).tournament
        clocks = {}
        for game in made.games.select_related("p1__entry", "p2__entry"):
            for seat in serve_workers.seats_of(game):
                clocks[seat.name] = (seat.tc, seat.clock_text())
        self.assertEqual(clocks, {"alpha": (42, "tc=42"), "beta": (42, "tc=42"),
                                  "gamma": (42, "tc=42"), "delta": (42, "tc=42"),
                                  "greedy": (42, "tc=42"),
                                  "engine-250k": (30.0, "nodes=250000")})
        ladder = Game.objects.create(p1=self.versions["alpha"], p2=self.versions["beta"],
                                     purpose=Game.MATCHMADE)
        self.assertEqual([seat.tc for seat in serve_workers.seats_of(ladder)],
                         [settings.ARENA.tc] * 2)
        self.assertEqual(tournament.clock(ladder, 7.0), 7.0)


class StandingsTest(TournamentTestCase):
    # alpha and beta both on 2 points, alpha having beaten beta: alpha first.
    RESULTS = {("alpha", "beta"): "alpha", ("beta", "gamma"): "beta", ("beta", "delta"): "beta",
               ("alpha", "gamma"): "gamma", ("alpha", "delta"): "alpha",
               ("gamma", "delta"): None}

    def setUp(self):
        super().setUp()
        self.made = tournament.create("final", 60, 1).tournament
        self.played = self.play_all(self.made, {frozenset(pair): winner for pair, winner
                                                in self.RESULTS.items()})
        # A ladder game of the same versions: not the tournament's.
        ladder = Game.objects.create(p1=self.versions["alpha"], p2=self.versions["gamma"],
                                     purpose=Game.MATCHMADE)
        game_queue.finish(game_queue.claim("w"), record_of(ladder, FIRST_WINS[0]))

    def test_points_ranks_and_the_seeds_statistics(self):
        lines = tournament.table(self.made)
        self.assertEqual([(line.team, line.rank, line.points) for line in lines],
                         [("alpha", 1, 2.0), ("beta", 2, 2.0), ("gamma", 3, 1.5),
                          ("delta", 4, 0.5)])
        for line in lines:
            version = self.versions[line.team]
            mine = [(game, 0 if game.p1_id == version.pk else 1) for game in self.played
                    if version.pk in (game.p1_id, game.p2_id)]
            self.assertEqual((line.games, line.version), (3, 1))
            self.assertEqual(line.wins, sum(g.result == ("1-0", "0-1")[side] for g, side in mine))
            self.assertEqual(line.losses,
                             sum(g.result == ("0-1", "1-0")[side] for g, side in mine))
            self.assertEqual(line.draws, sum(g.result == "1/2-1/2" for g, _ in mine))
            self.assertEqual(line.points, line.wins + line.draws / 2)
            self.assertEqual(line.points_for, sum((g.score1, g.score2)[side] for g, side in mine))
            self.assertEqual(line.points_against,
                             sum((g.score2, g.score1)[side] for g, side in mine))
            self.assertEqual(line.divercites,
                             sum((g.divercites1, g.divercites2)[side] for g, side in mine))

    def test_elo_as_the_runner_fits_the_tournament_s_records(self):
        expected = runner_ratings(self.played)
        for line in tournament.table(self.made):
            self.assertAlmostEqual(line.elo, expected[line.team].elo, delta=0.05)
            if expected[line.team].elo_interval is not None:
                self.assertAlmostEqual(line.elo_high - line.elo_low,
                                       2 * expected[line.team].elo_interval, delta=0.2)

    def test_progress_and_failed_games(self):
        self.assertEqual(tournament.progress(self.made), {
            "games_total": 6, "games_done": 6, "games_failed": 0, "games_playing": 0,
            "games_queued": 0})
        again = tournament.create("again", 60, 1).tournament
        self.play_all(again, limit=4)
        failed = game_queue.claim("w")
        Game.objects.filter(pk=failed.pk).update(status=Game.FAILED, reason="no runner")
        self.assertEqual(tournament.progress(again), {
            "games_total": 6, "games_done": 4, "games_failed": 1, "games_playing": 0,
            "games_queued": 1})
        self.assertEqual(sum(line.games for line in tournament.table(again)), 8)
        status, out, _ = run_cli("tournament", "retry", settings.ARENA.folder, again.pk)
        self.assertEqual((status, out), (0, "1 failed games queued again\n"))
        self.assertEqual(Game.objects.get(pk=failed.pk).status, Game.QUEUED)
        self.assertEqual(AuditEntry.objects.filter(action="tournament retry").count(), 1)

    def test_csv(self):
        text = tournament.csv_text(self.made)
        rows = list(csv.reader(io.StringIO(text)))
        self.assertEqual(rows[0], [
            "team", "rank", "points", "elo", "elo_low", "elo_high", "games", "wins", "draws",
            "losses", "divercites", "divercites_per_game", "points_for", "points_against",
            "points_for_per_game", "points_against_per_game", "kind", "version", "grade"])
        lines = tournament.table(self.made)
        self.assertEqual(len(rows), 1 + len(lines))
        for row, line in zip(rows[1:], lines):
            fields = dict(zip(rows[0], row))
            self.assertEqual((fields["team"], fields["rank"], fields["points"]),
                             (line.team, str(line.rank), f"{line.points:g}"))
            for name in ("elo", "elo_low", "elo_high", "games", "wins", "draws", "losses",
                         "divercites", "points_for", "points_against", "kind", "version"):
                value = getattr(line, name)
                self.assertEqual(fields[name], "" if value is None else str(value))
            self.assertEqual(float(fields["points_for_per_game"]),
                             round(line.points_for / line.games, 2))
        self.assertEqual(rows[1][:3], ["alpha", "1", "2"])
        self.assertEqual(rows[3][:3], ["gamma", "3", "1.5"])
        self.assertEqual({row[-1] for row in rows[1:]}, {""})  # no scheme, no grades

    def test_grades_by_rank_and_by_points(self):
        """The table: alpha 1st and beta 2nd on 2 points, gamma 3rd on 1.5, delta 4th on 0.5."""
        def grades():
            rows = list(csv.DictReader(io.StringIO(tournament.csv_text(self.made))))
            return [(row["team"], row["grade"]) for row in rows]
        tournament.set_grading(self.made, "rank 1:A+, 2-3:B, 4-:C")
        self.assertEqual(grades(), [("alpha", "A+"), ("beta", "B"), ("gamma", "B"),
                                    ("delta", "C")])
        tournament.set_grading(self.made, "points 2:100, 1.5:85, 1:70, 0:50")
        self.assertEqual(grades(), [("alpha", "100"), ("beta", "100"), ("gamma", "85"),
                                    ("delta", "50")])
        self.assertIn("grades: points 2:100, 1.5:85, 1:70, 0:50",
                      tournament.text_table(self.made))
        self.assertEqual(tournament.text_table(self.made).splitlines()[-1].split()[-1], "50")
        with self.assertRaisesMessage(RequestRefused, "rank 3 has no grade"):
            tournament.set_grading(self.made, "rank 1-2:100, 4-:90")
        self.assertEqual(Tournament.objects.get(pk=self.made.pk).grading,
                         "points 2:100, 1.5:85, 1:70, 0:50")
        tournament.set_grading(self.made, "")
        self.assertEqual({grade for _, grade in grades()}, {""})
        # A scheme that no longer parses (edited in the database) grades no one.
        Tournament.objects.filter(pk=self.made.pk).update(grading="rank 1-2:100")
        self.made.refresh_from_db()
        self.assertEqual({grade for _, grade in grades()}, {""})


class RankTest(TestCase):
    @staticmethod
    def line(team, elo):
        return tournament.Line(team=team, kind="team", version=1, elo=elo)

    def test_ties(self):
        games = [("a", "b", "1/2-1/2"), ("c", "d", "1-0"), ("d", "a", "0-1"),
                 ("b", "c", "0-1"), ("e", "f", "1/2-1/2")]
        # Points: c 2, a 1.5, b, e and f 0.5 each, d 0. Among b, e and f, head to head: e
        # and f drew each other (0.5 each), b met neither (0): e and f first, whatever b's
        # Elo, then equal on Elo too, the same rank.
        lines = tournament.rank([self.line("a", 10), self.line("b", 30), self.line("c", 0),
                                 self.line("d", None), self.line("e", 20),
                                 self.line("f", 20)], games)
        self.assertEqual([(line.team, line.rank, line.points) for line in lines],
                         [("c", 1, 2.0), ("a", 2, 1.5), ("e", 3, 0.5), ("f", 3, 0.5),
                          ("b", 5, 0.5), ("d", 6, 0.0)])

    def test_head_to_head_before_elo(self):
        games = [("x", "y", "0-1"), ("x", "z", "1-0"), ("y", "z", "0-1")]  # all on 1 point
        lines = tournament.rank([self.line("x", 50), self.line("y", 0), self.line("z", -50)],
                                games)
        # Among the three tied, head to head is the whole table: Elo decides.
        self.assertEqual([line.team for line in lines], ["x", "y", "z"])
        games = [("x", "y", "0-1"), ("z", "w", "1-0")]
        lines = tournament.rank([self.line("x", 0), self.line("y", 0), self.line("z", 0),
                                 self.line("w", 0)], games)
        self.assertEqual([(line.team, line.rank) for line in lines],
                         [("y", 1), ("z", 1), ("w", 3), ("x", 3)])
        lines = tournament.rank([self.line("x", 0), self.line("y", -90), self.line("z", 0),
                                 self.line("w", 90)], games)
        self.assertEqual([(line.team, line.rank) for line in lines],
                         [("z", 1), ("y", 2), ("w", 3), ("x", 4)])
        self.assertEqual([line.team for line in tournament.rank(
            [self.line("p", None), self.line("q", -5)], [])], ["q", "p"])


class GradingSchemeTest(TestCase):
    def test_grades_by_rank_and_by_points(self):
        ranks = grading.parse(" rank 4-6:90, 1-3:100,7-:C+ ")
        self.assertEqual([ranks.grade(rank, 0) for rank in (1, 3, 4, 6, 7, 40)],
                         ["100", "100", "90", "90", "C+", "C+"])
        points = grading.parse("points 0:60, 7.5:90, 10:100, 5:80")
        self.assertEqual([points.grade(1, value) for value in (12, 10, 9.5, 7.5, 5, 4.5, 0)],
                         ["100", "100", "90", "90", "80", "60", "60"])
        self.assertEqual(grading.parse("").grade(1, 3), "")

    def test_what_is_wrong_said_in_words(self):
        for text, why in (
                ("1-3:100, 4-:90", "start with `rank` or `points`"),
                ("rank", "start with `rank` or `points`"),
                ("rank 1-3 100", "each item is RANKS:GRADE, as 4-6:90"),
                ("points 5 100", "each item is POINTS:GRADE, as 7.5:90"),
                ("rank 1-:", "a grade is a number (92.5) or a short word"),
                ("rank 1-:very long grade", "a grade is a number"),
                ("rank 0-:1", "'0-': ranks are N, N-M or N- (N and after), from 1"),
                ("rank 3-1:1, 4-:1", "'3-1': the range ends before it begins"),
                ("rank 2-:1", "rank 1 has no grade: the ranges begin at 1"),
                ("rank 1-3:100, 3-5:90, 6-:80", "rank 3 is in two ranges (1-3:100 and 3-5:90)"),
                ("rank 1-3:100, 6-:80", "ranks 4 to 5 have no grade (between 1-3:100 and "
                                        "6-:80)"),
                ("rank 1-3:100", "rank 4 and after have no grade: end with an open range, "
                                 "as 4-:GRADE"),
                ("rank 1-:100, 5:90", "1-:100: an open range (N-) is the last one, and 5:90 "
                                      "comes after it"),
                ("points x:1, 0:2", "'x': a threshold is a number of points"),
                ("points 5:1, 5.0:2, 0:3", "the threshold 5 is given twice"),
                ("points 5:100, 2:50", "a team below 2 points has no grade: add a threshold "
                                       "0, as 0:GRADE")):
            with self.subTest(text=text), self.assertRaisesMessage(grading.GradingError, why):
                grading.parse(text)


class ApiAndPagesTest(TournamentTestCase):
    def setUp(self):
        super().setUp()
        self.made = tournament.create("final", 60, 1).tournament
        self.played = self.play_all(self.made, limit=5)
        User.objects.create_superuser("admin", password="admin-password")
        self.staff = Client()
        self.staff.login(username="admin", password="admin-password")

    def test_api_fields(self):
        listed = self.client.get("/api/tournaments").json()["tournaments"]
        self.assertEqual(len(listed), 1)
        self.assertEqual(listed[0]["id"], self.made.pk)
        body = self.client.get(f"/api/tournaments/{self.made.pk}").json()
        self.assertLessEqual({"id", "name", "tc", "games_per_pair", "deadline", "games_total",
                              "games_done", "games_failed", "standings"}, set(body))
        self.assertEqual((body["name"], body["tc"], body["games_per_pair"], body["deadline"]),
                         ("final", 60, 1, None))
        self.assertEqual((body["games_total"], body["games_done"], body["games_failed"]),
                         (6, 5, 0))
        self.assertEqual(set(body["standings"][0]), STANDINGS_FIELDS | {"rank", "points"})
        self.assertEqual([line["team"] for line in body["standings"]],
                         [line.team for line in tournament.table(self.made)])
        self.assertEqual([line["rank"] for line in body["standings"]][0], 1)
        self.assertEqual(self.client.get("/api/tournaments/999").status_code, 404)
        self.assertEqual(self.client.post("/api/tournaments").status_code, 405)

    def test_the_csv_is_the_staff_s(self):
        address = f"/api/tournaments/{self.made.pk}/csv"
        team = Client()
        team.login(username="alpha", password=self.tokens["alpha"])
        token = {"HTTP_AUTHORIZATION": f"Token {self.tokens['alpha']}"}
        for client, headers in ((Client(), {}), (Client(), token), (team, {})):
            answer = client.get(address, **headers)
            self.assertEqual(answer.status_code, 403)
            self.assertIn("staff", answer.json()["error"])
        answer = self.staff.get(address)
        self.assertEqual(answer.status_code, 200)
        self.assertEqual(answer["Content-Type"], "text/csv; charset=utf-8")
        self.assertEqual(answer["Content-Disposition"],
                         f'attachment; filename="tournament-{self.made.pk}-final.csv"')
        self.assertEqual(answer.content.decode(), tournament.csv_text(self.made))
        self.assertEqual(self.staff.get("/api/tournaments/999/csv").status_code, 404)

    def test_pages(self):
        page = self.client.get(f"/tournaments/{self.made.pk}/").content.decode()
        for name in self.TEAMS:
            self.assertIn(f'href="/teams/{name}/"', page)
        # The one writer's table (tables.tournament_table), ranked, with versions and points.
        self.assertIn(tables.tournament_table(tournament.table(self.made)), page)
        self.assertIn('<table class="standings sortable">\n<thead><tr><th data-sort="number">#'
                      '</th><th data-sort="text">Team</th><th data-sort="number" title="The '
                      'version that plays">Version</th><th data-sort="number" title="1 a win, ½ '
                      'a draw">Points</th>', page)
        self.assertIn("5 of 6 games played", page)
        self.assertIn(f'href="/tournaments/{self.made.pk}/games/"', page)
        self.assertNotIn("/csv", page)
        self.assertIn(f'href="/api/tournaments/{self.made.pk}/csv"',
                      self.staff.get(f"/tournaments/{self.made.pk}/").content.decode())
        games = self.client.get(f"/tournaments/{self.made.pk}/games/").content.decode()
        for game in self.played:
            self.assertIn(f'href="/games/{game.pk}/"', games)
        listed = self.client.get("/tournaments/").content.decode()
        self.assertIn(f'href="/tournaments/{self.made.pk}/"', listed)
        self.assertIn('href="/tournaments/"', self.client.get("/").content.decode())
        self.assertEqual(self.client.get("/tournaments/999/").status_code, 404)
        Tournament.objects.all().delete()
        self.assertNotIn('href="/tournaments/"', self.client.get("/").content.decode())
        self.assertFalse(Game.objects.filter(purpose=Game.TOURNAMENT).exists())

    def test_the_admin_page_changes_the_grading_alone(self):
        address = f"/admin/arena/tournament/{self.made.pk}/change/"
        page = self.staff.get(address)
        self.assertContains(page, "alpha v1")
        self.assertContains(page, f'href="/api/tournaments/{self.made.pk}/csv"')
        # What the page's form sends: its inline's management form too.
        form = dict(re.findall(r'<input type="hidden" name="(entries-[A-Z_]+)" value="(\d+)"',
                               page.content.decode()))
        self.assertEqual(form["entries-INITIAL_FORMS"], "4")
        answer = self.staff.post(address, {**form, "name": "renamed", "grading": "rank 2-:90"})
        self.assertContains(answer, "rank 1 has no grade: the ranges begin at 1")
        answer = self.staff.post(address, {**form, "name": "renamed", "grading": "rank 1-:90"})
        self.assertEqual(answer.status_code, 302, answer.content.decode()[:3000])
        made = Tournament.objects.get(pk=self.made.pk)
        self.assertEqual((made.name, made.grading), ("final", "rank 1-:90"))
        changed = AuditEntry.objects.get(action="change")
        self.assertEqual((changed.actor, changed.target, changed.detail),
                         ("admin", f"tournament final (id {made.pk})",
                          "grading: '' -> 'rank 1-:90'"))
        rows = list(csv.DictReader(io.StringIO(
            self.staff.get(f"/api/tournaments/{made.pk}/csv").content.decode())))
        self.assertEqual({row["grade"] for row in rows}, {"90"})
        self.assertEqual(len(rows), 4)
        shown = "with the grades of <code>rank 1-:90</code>"
        self.assertIn(shown, self.staff.get(f"/tournaments/{made.pk}/").content.decode())
        self.assertNotIn("rank 1-:90", self.client.get(f"/tournaments/{made.pk}/").content.decode())

    def test_the_admin_creates_a_tournament(self):
        page = self.staff.get("/admin/arena/tournament/add/")
        self.assertEqual(page.status_code, 200)
        for field in ("name", "tc", "games_per_pair", "deadline", "excluded", "versions",
                      "house", "grading"):
            self.assertContains(page, f'name="{field}"')
        self.assertRegex(page.content.decode(), rf'name="tc" value="{settings.ARENA.tc:g}(\.0)?"')
        self.upload("beta", Version.CHECKING)
        form = {"name": "From the admin", "tc": "45", "games_per_pair": "1", "deadline": "",
                "excluded": ["delta"], "versions": "", "house": ["greedy"],
                "grading": "rank 1-2:100, 3-:80"}
        for changed, why in (({"deadline": "tomorrow"}, "an ISO 8601 date and time"),
                             ({"versions": "alpha"}, "TEAM=NUMBER"),
                             ({"versions": "alpha=7"}, "alpha has no ready version 7"),
                             ({"grading": "rank 2-:1"}, "rank 1 has no grade"),
                             ({"name": "final"}, "a tournament named &#x27;final&#x27; exists"),
                             ({"excluded": ["alpha", "beta", "gamma", "delta"]},
                              "1 team to enter: a tournament needs two")):
            with self.subTest(changed=changed):
                answer = self.staff.post("/admin/arena/tournament/add/", {**form, **changed})
                self.assertContains(answer, why)
        self.assertEqual(Tournament.objects.count(), 1)
        answer = self.staff.post("/admin/arena/tournament/add/", form, follow=True)
        made = Tournament.objects.get(name="From the admin")
        self.assertEqual(answer.redirect_chain[-1][0],
                         f"/admin/arena/tournament/{made.pk}/change/")
        self.assertContains(answer, "Left out: delta (excluded)")
        self.assertContains(answer, "Entered: beta v1 (current; version 2 still being checked)")
        self.assertEqual((made.tc, made.games_per_pair, made.deadline, made.grading),
                         (45, 1, None, "rank 1-2:100, 3-:80"))
        self.assertEqual(sorted(made.entries.values_list("version__entry__name", flat=True)),
                         ["alpha", "beta", "gamma", "greedy"])
        self.assertEqual(made.games.count(), 6)
        created = AuditEntry.objects.get(action="tournament create")
        self.assertEqual((created.actor, created.target), ("admin", "From the admin"))
        self.assertIn("left out: delta (excluded)", created.detail)
        self.assertIn("grades: rank 1-2:100, 3-:80", created.detail)
        team = Client()
        team.login(username="alpha", password=self.tokens["alpha"])
        self.assertEqual(team.get("/admin/arena/tournament/add/").status_code, 302)
        self.assertEqual(team.post("/admin/arena/tournament/add/", form).status_code, 302)
        self.assertEqual(Tournament.objects.count(), 2)


class CommandLineTest(TournamentTestCase):
    def test_create_list_show_csv(self):
        folder = settings.ARENA.folder
        Version.objects.filter(pk=self.versions["delta"].pk).update(status=Version.REJECTED)
        status, out, err = run_cli("tournament", "create", folder, "Final 2025", "--tc", 120,
                                   "--games-per-pair", 2, "--version", "alpha=1",
                                   "--deadline", "2999-01-01T00:00")
        self.assertEqual(status, 0, err)
        self.assertIn("alpha v1 (chosen)", out)
        self.assertIn("beta v1 (deadline)", out)
        self.assertIn("left out: delta (no ready version uploaded before the deadline)", out)
        self.assertTrue(out.endswith("6 games queued\n"), out)
        made = Tournament.objects.get()
        self.assertEqual((made.name, made.tc, made.games_per_pair, made.deadline.year),
                         ("Final 2025", 120, 2, 2999))
        logged = AuditEntry.objects.get()
        self.assertEqual((logged.actor, logged.action, logged.target),
                         ("command line", "tournament create", "Final 2025"))
        self.assertIn("6 games queued", logged.detail)
        status, _, err = run_cli("tournament", "create", folder, "Final 2025")
        self.assertEqual(status, 1)
        self.assertIn("exists", err)
        status, _, err = run_cli("tournament", "create", folder, "x", "--version", "alpha")
        self.assertEqual((status, AuditEntry.objects.count()), (1, 1))
        self.assertIn("TEAM=NUMBER", err)
        self.play_all(made, limit=3)
        status, out, _ = run_cli("tournament", "list", folder)
        self.assertEqual(out, f"{made.pk}  Final 2025  3 entries, 2 games a pair at 120 s; "
                              "3 of 6 games played, 0 failed\n")
        status, out, _ = run_cli("tournament", "show", folder, made.pk)
        self.assertEqual(status, 0)
        self.assertIn("3 of 6 games played", out)
        table = out.splitlines()[3:]
        self.assertEqual(table[0].split()[:4], ["#", "team", "version", "points"])
        self.assertEqual([row.split()[1] for row in table[1:]],
                         [line.team for line in tournament.table(made)])
        status, out, _ = run_cli("tournament", "csv", folder, made.pk)
        self.assertEqual(out.replace("\r\n", "\n"),
                         tournament.csv_text(made).replace("\r\n", "\n"))
        with tempfile.TemporaryDirectory() as temporary:
            path = os.path.join(temporary, "grades.csv")
            self.assertEqual(run_cli("tournament", "csv", folder, made.pk, "--out", path)[0], 0)
            with open(path, newline="") as file:
                self.assertEqual(file.read(), tournament.csv_text(made))
        status, _, err = run_cli("tournament", "show", folder, 999)
        self.assertEqual(status, 2)
        self.assertIn("no tournament 999", err)
        self.assertEqual(AuditEntry.objects.count(), 1)  # reading changes nothing

    def test_excluded_and_graded(self):
        folder = settings.ARENA.folder
        status, out, err = run_cli("tournament", "create", folder, "Final", "--exclude", "beta",
                                   "--exclude", "gamma", "--grading", "points 1:A, 0:B")
        self.assertEqual(status, 0, err)
        self.assertIn("left out: beta (excluded)\n  left out: gamma (excluded)\n", out)
        self.assertIn("grades: points 1:A, 0:B\n2 games queued", out)
        made = Tournament.objects.get()
        self.assertEqual(sorted(made.entries.values_list("version__entry__name", flat=True)),
                         ["alpha", "delta"])
        for arguments, why in ((["--exclude", "nobody"], "no team named nobody"),
                               (["--grading", "points 1:A"], "has no grade: add a threshold 0")):
            status, _, err = run_cli("tournament", "create", folder, "Other", *arguments)
            self.assertEqual(status, 1)
            self.assertIn(why, err)
        self.play_all(made, {frozenset(("alpha", "delta")): "alpha"})
        status, out, err = run_cli("tournament", "grading", folder, made.pk, "rank 1:10, 2-:5")
        self.assertEqual((status, out), (0, f"Tournament {made.pk} 'Final': grades: "
                                            "rank 1:10, 2-:5\n"), err)
        status, out, _ = run_cli("tournament", "csv", folder, made.pk)
        self.assertEqual([(row["team"], row["grade"]) for row in csv.DictReader(io.StringIO(out))],
                         [("alpha", "10"), ("delta", "5")])
        status, _, err = run_cli("tournament", "grading", folder, made.pk, "rank 1:10")
        self.assertEqual(status, 1)
        self.assertIn("rank 2 and after have no grade", err)
        self.assertEqual(Tournament.objects.get().grading, "rank 1:10, 2-:5")
        self.assertEqual(run_cli("tournament", "grading", folder, made.pk, "")[1],
                         f"Tournament {made.pk} 'Final': no grades\n")
        self.assertEqual([(e.action, e.detail) for e in
                          AuditEntry.objects.filter(action="tournament grading").order_by("id")],
                         [("tournament grading", "points 1:A, 0:B -> rank 1:10, 2-:5"),
                          ("tournament grading", "rank 1:10, 2-:5 -> (none)")])
