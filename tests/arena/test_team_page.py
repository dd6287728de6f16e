"""A team's page (pages.views.team_page, core.team_record, pages.elo_plot): each version's own
record and its rating as `divercite-match -ratings` fits the records with their players named
by version, the results against each opponent, and the Elo plot's points, each against a count
by hand over the games and the runner's own fit."""

import json
import re
from datetime import timedelta
from unittest import mock

from arena_games import AGENT, DRAWN, play, ready, runner_ratings
from django.template.defaultfilters import floatformat
from django.test import TestCase
from django.utils import timezone
from html_tables import body_rows

from divercite import _core
from divercite.arena.core import standings, team_record, teams
from divercite.arena.core.models import Entry, Game, Version
from divercite.records import GameRecord


class NamedByVersion:
    """A game whose record names its players by version, as team_record feeds -ratings (the
    reference fit of runner_ratings)."""

    def __init__(self, game: Game):
        record = json.loads(game.record)
        record["p1"] = f"{game.p1.entry.name} v{game.p1.number}"
        record["p2"] = f"{game.p2.entry.name} v{game.p2.number}"
        self.record = json.dumps(record)


def counted(games, versions) -> dict:
    """By hand: the games, wins, draws, losses, points scored and conceded of the `versions`
    (their ids) over `games`."""
    mine = [(g, 0 if g.p1_id in versions else 1) for g in games
            if g.p1_id in versions or g.p2_id in versions]
    finals = [(GameRecord.from_json(g.record).final, side) for g, side in mine]
    return {"games": len(mine),
            "wins": sum(g.result == ("1-0", "0-1")[side] for g, side in mine),
            "draws": sum(g.result == "1/2-1/2" for g, _ in mine),
            "losses": sum(g.result == ("0-1", "1-0")[side] for g, side in mine),
            "points_for": sum(final[side] for final, side in finals),
            "points_against": sum(final[1 - side] for final, side in finals)}


class TeamPageTest(TestCase):
    """alpha's first version plays beta and two house opponents, then its second does, and a
    third is rejected before any game; the versions were uploaded days apart."""

    def setUp(self):
        teams.ensure_house()
        standings.CACHE.key = None
        team_record.CACHE.reset()
        self.alpha, _ = teams.add_team("alpha")
        beta, _ = teams.add_team("beta")
        first = ready(teams.upload(self.alpha, "my_player.py", AGENT))
        self.beta = ready(teams.upload(beta, "my_player.py", AGENT))
        Game.objects.all().delete()  # the check games
        self.house = [Entry.objects.get(name=name).current_version()
                      for name in ("greedy", "engine-250k")]
        opponents = [self.beta, *self.house]
        self.games = [play(*((first, opponents[i % 3]) if i % 2 else (opponents[i % 3], first)),
                           i) for i in range(9)]
        self.games.append(play(first, self.beta, DRAWN))
        second = ready(teams.upload(self.alpha, "my_player.py", AGENT))
        Game.objects.filter(purpose=Game.CHECK).delete()
        self.games += [play(*((second, opponents[i % 3]) if i % 2 else (opponents[i % 3], second)),
                            20 + i) for i in range(7)]
        # Games between the others: the field the versions are rated in.
        self.games += [play(self.beta, self.house[i % 2], 40 + i) for i in range(4)]
        third = teams.upload(self.alpha, "my_player.py", AGENT)
        Version.objects.filter(pk=third.pk).update(status=Version.REJECTED, reason="crash")
        Game.objects.filter(purpose=Game.CHECK).delete()
        now = timezone.now()
        for version, days in ((first, 3), (second, 1), (third, 0.5)):
            Version.objects.filter(pk=version.pk).update(created=now - timedelta(days=days))
        self.versions = {1: first, 2: second, 3: third}

    def test_each_version_s_record(self):
        records = {record.version.number: record.line
                   for record in team_record.versions(self.alpha, team_record.field())}
        self.assertEqual(list(records), [3, 2, 1])
        for number in (1, 2):
            hand = counted(self.games, {self.versions[number].pk})
            self.assertEqual({key: getattr(records[number], key) for key in hand}, hand, number)
        self.assertEqual((records[1].draws, records[3].games, records[3].elo), (1, 0, None))
        # The page's table: W/L as the standings show it, Elo and its interval.
        rows = {cells[0]: cells for kind, cells in body_rows(
            self.client.get("/teams/alpha/").content.decode(), "versions")
            if "version" in kind.split()}
        for number in (1, 2):
            line = records[number]
            self.assertEqual(rows[str(number)][3:], [
                str(line.games), f"{line.wins}–{line.draws}–{line.losses}",
                _core.ratio_text(line.wins, line.losses), floatformat(line.elo, 0),
                f"{floatformat(line.elo_low, 0)} … {floatformat(line.elo_high, 0)}"])
        self.assertEqual(rows["3"][1:], ["rejected", rows["3"][2], "0", "0–0–0", "–", "–", "–"])
        self.assertRegex(rows["3"][2], r"^\d{4}-\d\d-\d\d \d\d:\d\d$")  # under "Uploaded (UTC)"

    def test_a_version_s_elo_is_the_runner_s_fit_by_version(self):
        """Each version's Elo and interval: -ratings over every rated game with its players
        named by version; the versions of alpha apart, the house and beta in the same fit."""
        expected = runner_ratings([NamedByVersion(game) for game in self.games])
        field = team_record.field()
        for version in (*self.versions.values(), self.beta, *self.house):
            line = field.versions.get(version.pk)
            name = f"{version.entry.name} v{version.number}"
            if name not in expected:
                self.assertIsNone(line)  # the rejected version: no game
                continue
            self.assertAlmostEqual(line.elo, expected[name].elo, delta=0.05)
            self.assertAlmostEqual(line.elo_high - line.elo_low,
                                   2 * expected[name].elo_interval, delta=0.2)
        self.assertEqual(len(expected), 5)

    def test_the_field_kept_game_by_game_is_a_fresh_fit(self):
        """Games finished since the last stamp are counted on top of the kept tally: the same
        field as one counted at once; a game deleted since makes it count all again."""
        def fresh():
            named = {v.pk: (v.entry.name, v.entry.kind, v.number)
                     for v in Version.objects.select_related("entry")}
            return team_record.fit(named, Game.objects.filter(
                status=Game.DONE, purpose__in=standings.RATED_PURPOSES).order_by("pk"))

        self.assertEqual(team_record.field(), fresh())
        counted = set(team_record.CACHE.tally.counted)
        self.assertEqual(counted, {game.pk for game in self.games})
        later = [play(self.versions[2], self.beta, 60), play(self.house[0], self.versions[2], 61)]
        with mock.patch.object(standings, "sound", wraps=standings.sound) as checked:
            updated = team_record.field()
        self.assertEqual(checked.call_count, 2)  # the new games alone read and checked
        self.assertEqual(updated, fresh())
        self.assertEqual(team_record.CACHE.tally.counted, counted | {g.pk for g in later})
        # (The oldest game deleted changes no stamp: the key is given.)
        Game.objects.filter(pk=self.games[0].pk).delete()
        self.assertEqual(team_record.field(key="deleted"), fresh())
        self.assertNotIn(self.games[0].pk, team_record.CACHE.tally.counted)
        self.assertEqual(team_record.field(key="deleted").versions[self.versions[1].pk].games, 9)

    def test_head_to_head(self):
        rows = {cells[0].split()[0]: cells for _, cells in body_rows(
            self.client.get("/teams/alpha/").content.decode(), "head-to-head")}
        mine = {self.versions[1].pk, self.versions[2].pk}
        for opponent in (self.beta, *self.house):
            between = [g for g in self.games if {g.p1_id, g.p2_id} & mine
                       and opponent.pk in (g.p1_id, g.p2_id)]
            hand = counted(between, mine)
            points = hand["wins"] + hand["draws"] / 2
            self.assertEqual(rows[opponent.entry.name][1:], [
                str(hand["games"]), f"{hand['wins']}–{hand['draws']}–{hand['losses']}",
                f"{points:g} / {hand['games']}", str(hand["points_for"]),
                str(hand["points_against"])], opponent.entry.name)
        self.assertEqual(sorted(rows), ["beta", "engine-250k", "greedy"])
        # The most games first: beta's 7 (the draw too), then 5 and 5 by name.
        self.assertEqual(list(rows), ["beta", "engine-250k", "greedy"])

    def test_the_elo_plot_s_points(self):
        """A point a rated version, at its Elo (the fit by version), placed by one linear
        scale that the axis' ticks follow too, later versions to the right; every version
        marked, the rejected one too; the team's step line through each point's height."""
        expected = runner_ratings([NamedByVersion(game) for game in self.games])
        page = self.client.get("/teams/alpha/").content.decode()
        svg = page[page.index('<svg class="elo-plot"'):page.index("</svg>", page.index(
            '<svg class="elo-plot"'))]
        points = [(int(number), float(elo), float(cx), float(cy)) for number, elo, cx, cy in
                  re.findall(r'<circle class="version-point" data-version="(\d+)" '
                             r'data-elo="([-\d.]+)" cx="([-\d.]+)" cy="([-\d.]+)"', svg)]
        self.assertEqual([number for number, *_ in points], [1, 2])
        for number, elo, _, _ in points:
            self.assertAlmostEqual(elo, expected[f"alpha v{number}"].elo, delta=0.05)
        self.assertLess(points[0][2], points[1][2])  # v1 uploaded first: to the left
        ticks = [(float(value), float(y) - 4) for y, value in re.findall(
            r'<text class="axis" x="[\d.]+" y="([\d.]+)" text-anchor="end">([-\d.]+)</text>',
            svg)]
        self.assertGreaterEqual(len(ticks), 3)
        # y = a + b * Elo, b < 0: one scale for the ticks and the points (to the SVG's 0.1).
        (e1, y1), (e2, y2) = ticks[0], ticks[-1]
        slope = (y2 - y1) / (e2 - e1)
        self.assertLess(slope, 0)
        for value, y in ticks + [(elo, cy) for _, elo, _, cy in points]:
            self.assertAlmostEqual(y, y1 + slope * (value - e1), delta=0.15)
        self.assertEqual(re.findall(r'class="version-mark (\w+)" data-version="(\d+)"', svg),
                         [("ready", "1"), ("ready", "2"), ("rejected", "3")])
        path = re.search(r'<path class="step" d="([^"]+)"', svg).group(1)
        self.assertEqual([float(v) for v in re.findall(r"(?:M[-\d.]+,|V)([-\d.]+)", path)],
                         [cy for *_, cy in points])
