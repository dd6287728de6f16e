"""Issue 57's fair games and reasons: a loss on a starved worker set aside and played again;
each agent's log kept with its game, for its team and the staff only; the check cut after
its first moves; the endings in a student's words."""

import json

from arena_games import AGENT, ready, record_of
from django.contrib.auth.models import User
from django.test import Client, TestCase

from divercite.arena.core import game_queue, standings, teams, worker_tokens
from divercite.arena.core.models import Entry, Game, Version
from divercite.arena import wording
from divercite.arena.play import fairness, reasons, record_checks, runner
from divercite.records import GameRecord

# tc=5 a side (record_of's): a side that could run for most of it, and got a tenth of a core.
STARVED = dict(cpu=[400, 3000], wait=[3600, 100])
# The same loss with the core it wanted.
FED = dict(cpu=[3900, 3000], wait=[100, 100])
# An agent that slept its clock away: it hardly wanted a core.
ASLEEP = dict(cpu=[20, 3000], wait=[80, 100])


class StarvedLossesTest(TestCase):
    def setUp(self):
        teams.ensure_house()
        Entry.objects.filter(kind=Entry.HOUSE).delete()
        alpha, _ = teams.add_team("alpha")
        beta, _ = teams.add_team("beta")
        self.alpha = ready(teams.upload(alpha, "my_player.py", AGENT))
        self.beta = ready(teams.upload(beta, "my_player.py", AGENT))
        Game.objects.filter(purpose=Game.CHECK).delete()

    def time_loss(self, figures, game=None, termination="time"):
        """alpha (first) loses on time (or by `termination`) on move 11 with the runner's
        `figures`."""
        game = game or Game.objects.create(p1=self.alpha, p2=self.beta, purpose=Game.MATCHMADE)
        claimed = game_queue.claim("test")
        self.assertEqual(claimed.pk, game.pk)
        self.assertTrue(game_queue.finish(claimed, record_of(
            claimed, 0, termination=termination, reason="alpha: no bestmove", plies=10,
            **figures)))
        return Game.objects.get(pk=game.pk)

    def test_a_time_loss_on_a_starved_worker_counts_nowhere_and_is_played_again(self):
        lost = self.time_loss(STARVED)
        self.assertTrue(lost.set_aside.startswith("worker overloaded: alpha had 10% of a core "
                                                  "while it could run"), lost.set_aside)
        self.assertEqual(lost.analysis, "", "a game the worker lost is not analysed")
        replay = Game.objects.get(replay_of=lost)
        self.assertEqual((replay.status, replay.p1_id, replay.p2_id, replay.purpose),
                         (Game.QUEUED, self.alpha.pk, self.beta.pk, Game.MATCHMADE))
        lines = {line.team: line for line in standings.table(key=("starved",))}
        self.assertEqual(lines["alpha"].games, 0, "the set-aside game counts nowhere")
        # Played again at most twice: the third starved loss is left for the staff.
        second = self.time_loss(STARVED, replay)
        third = self.time_loss(STARVED, Game.objects.get(replay_of=second))
        self.assertTrue(third.set_aside.startswith(fairness.OVERLOADED))
        self.assertFalse(Game.objects.filter(replay_of=third).exists())
        self.assertEqual(game_queue.replays_before(third), 2)

    def test_a_loss_with_the_core_it_wanted_or_asleep_counts(self):
        for figures in (FED, ASLEEP, {}):
            with self.subTest(figures=figures):
                lost = self.time_loss(figures)
                self.assertEqual(lost.set_aside, "")
                self.assertFalse(Game.objects.filter(replay_of=lost).exists())

    def test_a_limit_hit_counts_however_busy_the_worker(self):
        # A fork bomb waits behind its own processes: no busy core moved the limit it hit.
        lost = self.time_loss(STARVED, termination="limit")
        self.assertEqual(lost.set_aside, "")
        self.assertFalse(Game.objects.filter(replay_of=lost).exists())

    def test_a_starved_check_leaves_its_version_checking_until_played_again(self):
        version = teams.upload(Entry.objects.get(name="alpha"), "my_player.py", AGENT)
        check = Game.objects.get(p1=version, purpose=Game.CHECK)
        lost = self.time_loss(STARVED, check)
        version.refresh_from_db()
        self.assertEqual(version.status, Version.CHECKING)
        replay = Game.objects.get(replay_of=lost)
        self.assertEqual(replay.purpose, Game.CHECK)
        claimed = game_queue.claim("test")
        self.assertEqual(claimed.pk, replay.pk)
        self.assertTrue(game_queue.finish(claimed, record_of(
            claimed, 0, termination="maxplies", reason="cut after 8 moves (-maxplies 8)",
            plies=8, result="1/2-1/2")))
        version.refresh_from_db()
        self.assertEqual(version.status, Version.READY)


class CheckRecordsTest(TestCase):
    def setUp(self):
        teams.ensure_house()
        alpha, _ = teams.add_team("alpha")
        self.version = teams.upload(alpha, "my_player.py", AGENT)
        self.check = Game.objects.get(p1=self.version, purpose=Game.CHECK)

    def test_only_a_check_may_be_cut_and_only_after_its_plies(self):
        names, clocks = ["alpha", "course-random"], ["tc=5", "tc=5"]
        cut = record_of(self.check, 0, termination="maxplies", reason="cut", plies=8,
                        result="1/2-1/2")
        record_checks.check_record(cut, names, clocks, runner.CHECK_PLIES)
        with self.assertRaisesRegex(record_checks.RecordRefused, "cuts only a new version's"):
            record_checks.check_record(cut, names, clocks)
        early = record_of(self.check, 0, termination="maxplies", reason="cut", plies=6,
                          result="1/2-1/2")
        with self.assertRaisesRegex(record_checks.RecordRefused, "cut after 8 moves, a draw; "
                                    "the record's is cut after 6 moves"):
            record_checks.check_record(early, names, clocks, runner.CHECK_PLIES)
        won = record_of(self.check, 0, termination="maxplies", reason="cut", plies=8,
                        result="1-0")
        with self.assertRaisesRegex(record_checks.RecordRefused, "1-0"):
            record_checks.check_record(won, names, clocks, runner.CHECK_PLIES)
        # A worker from before -maxplies plays the check to its end: kept.
        record_checks.check_record(record_of(self.check, 0), names, clocks, runner.CHECK_PLIES)

    def test_the_measures_must_be_the_runners(self):
        names, clocks = ["alpha", "course-random"], ["tc=5", "tc=5"]
        measured = record_of(self.check, 0, **FED)
        measured.moves[0].cpu, measured.moves[0].wait = 7, 1
        record_checks.check_record(measured, names, clocks)
        for bad in ([-1, 0], [1.5, 0], ["1", 0], [1]):
            with self.subTest(cpu=bad):
                data = measured.to_dict()
                data["cpu"] = bad
                with self.assertRaises(record_checks.RecordRefused):
                    record_checks.check_structure(data)

    def test_a_worker_is_told_to_cut_a_check_only(self):
        machine, token = worker_tokens.add("lab-1")
        answer = Client().post("/api/worker/claim", json.dumps({"worker": "w/0"}),
                               content_type="application/json",
                               HTTP_AUTHORIZATION=f"Token {token}").json()
        self.assertEqual((answer["game"], answer["max_plies"]), (self.check.pk, 8))


class AgentLogsTest(TestCase):
    """A team reads its own agent's log of a game, the staff every one; anyone else finds no
    such page (404)."""

    def setUp(self):
        teams.ensure_house()
        Entry.objects.filter(kind=Entry.HOUSE).delete()
        self.alpha_team, self.alpha_token = teams.add_team("alpha")
        self.beta_team, self.beta_token = teams.add_team("beta")
        self.gamma_team, self.gamma_token = teams.add_team("gamma")
        alpha = ready(teams.upload(self.alpha_team, "my_player.py", AGENT))
        beta = ready(teams.upload(self.beta_team, "my_player.py", AGENT))
        Game.objects.filter(purpose=Game.CHECK).delete()
        machine, token = worker_tokens.add("lab-1")
        self.game = Game.objects.create(p1=alpha, p2=beta, purpose=Game.MATCHMADE)
        worker = Client()
        claimed = worker.post("/api/worker/claim", json.dumps({"worker": "w/0"}),
                              content_type="application/json",
                              HTTP_AUTHORIZATION=f"Token {token}").json()
        record = record_of(self.game, 0, termination="crash", plies=4, reason=(
            "alpha: ZeroDivisionError in my_player.py, line 9 (MyPlayer.compute_action): "
            "division by zero"))
        self.traceback = ("Traceback (most recent call last):\n  File \"my_player.py\", line 9, "
                          "in compute_action\nZeroDivisionError: division by zero\n")
        posted = worker.post(f"/api/worker/games/{claimed['game']}/result", json.dumps(
            {"claim": claimed["claim"], "record": record.to_json(),
             "logs": [self.traceback, "beta's thoughts é\n"]}),
            content_type="application/json", HTTP_AUTHORIZATION=f"Token {token}")
        self.assertEqual(posted.json(), {"kept": True})

    def logged_in(self, team):
        client = Client()
        client.force_login(team.user)
        return client

    def test_each_team_reads_its_own_log_and_the_staff_both(self):
        url = f"/games/{self.game.pk}/log/1/"
        own = self.logged_in(self.alpha_team).get(url)
        self.assertEqual(own.status_code, 200)
        self.assertContains(own, "ZeroDivisionError: division by zero")
        self.assertEqual(self.logged_in(self.alpha_team).get(
            f"/games/{self.game.pk}/log/2/").status_code, 404)
        self.assertContains(self.logged_in(self.beta_team).get(
            f"/games/{self.game.pk}/log/2/"), "thoughts é")
        for client in (Client(), self.logged_in(self.beta_team), self.logged_in(self.gamma_team)):
            self.assertEqual(client.get(url).status_code, 404)
        staff = User.objects.create_user("teacher", password="x" * 20, is_staff=True)
        teacher = Client()
        teacher.force_login(staff)
        for side in (1, 2):
            self.assertEqual(teacher.get(f"/games/{self.game.pk}/log/{side}/").status_code, 200)
        self.assertEqual(teacher.get(f"/games/{self.game.pk}/log/3/").status_code, 404)

    def test_the_game_page_says_the_crash_in_words_with_its_details_for_its_team(self):
        page = self.logged_in(self.alpha_team).get(f"/games/{self.game.pk}/")
        self.assertContains(page, "alpha crashed on move 5: ZeroDivisionError in my_player.py, "
                                  "line 9 (MyPlayer.compute_action): division by zero")
        self.assertContains(page, f"/games/{self.game.pk}/log/1/")
        self.assertNotContains(page, f"/games/{self.game.pk}/log/2/")
        public = Client().get(f"/games/{self.game.pk}/").content.decode()
        self.assertIn("alpha crashed on move 5", public)
        self.assertNotIn("ZeroDivisionError", public)
        self.assertNotIn("/log/", public)

    def test_a_worker_s_logs_are_bounded(self):
        game = Game.objects.get(pk=self.game.pk)
        self.assertEqual(game.log1, self.traceback)
        from divercite.arena.api import worker_views
        with self.assertRaisesRegex(ValueError, "two texts of at most"):
            worker_views.agent_logs(["x" * (worker_views.LOG_CHARS + 1), ""])
        with self.assertRaisesRegex(ValueError, "two texts"):
            worker_views.agent_logs(["only one"])
        self.assertEqual(worker_views.agent_logs(None), ["", ""])


class WordsTest(TestCase):
    def record(self, **fields):
        data = {"game": 0, "p1": "eram", "p2": "engine", "result": "0-1",
                "termination": "time", "reason": "eram: no bestmove within 6m13.1s",
                "tc": ["tc=900", "tc=1"], "moves": [{"move": "RC23", "ms": 50 * 1000}] * 26,
                "final": [0, 0]}
        data.update(fields)
        return GameRecord.from_json(data)

    def test_the_endings_a_student_reads(self):
        # eram's 13 moves took 50 s each: of its 15 min, 4 min 10 s were left.
        self.assertEqual(reasons.in_words(self.record()),
                         "eram ran out of time on move 27 (it had 4 min 10 s left and used it "
                         "all on that one move)")
        self.assertEqual(reasons.in_words(self.record(moves=[], termination="crash",
                                                      reason="eram: boom")),
                         "eram crashed before its first move: boom")
        self.assertEqual(reasons.in_words(self.record(termination="maxplies", result="1/2-1/2",
                                                      moves=[{"move": "RC23"}] * 8)),
                         "check passed: the game was stopped after the first 4 moves of each "
                         "side, with nothing wrong")
        self.assertEqual(reasons.in_words(self.record(termination="normal")), "")
        self.assertEqual([wording.duration(ms) for ms in (310, 9940, 9960, 41400, 373000,
                                                          120000)],
                         ["0.3 s", "9.9 s", "10 s", "41 s", "6 min 13 s", "2 min"])


class HouseLevelsTest(TestCase):
    """Our engine's house levels search a number of nodes a move, never a clock; the clock
    levels an older arena has are retired, their games kept."""

    def test_levels_by_nodes_and_retired_clock_levels(self):
        from divercite.arena.play import house
        old = Entry.objects.create(name="engine-1s", kind=Entry.HOUSE)
        old_version = Version.objects.create(entry=old, number=1, status=Version.READY,
                                             house="engine-1s")
        teams.ensure_house()
        old_version.refresh_from_db()
        self.assertEqual((old_version.status, old_version.reason),
                         (Version.REJECTED, "retired: engine-250k plays in its place, as "
                                            "strong on any worker and never out of time"))
        current = {name for name, _, _ in standings.current_versions().values()}
        self.assertTrue({"engine-40k", "engine-250k", "engine-2.5m"} <= current, current)
        self.assertFalse({"engine-0.1s", "engine-1s", "engine-10s"} & current, current)
        level = Version.objects.get(entry__name="engine-40k")
        seat = house.seat(level, "engine-40k", 900.0)
        self.assertEqual((seat.tc, seat.clock_text()), (30.0, "nodes=40000"))
        player = house.runner_player(seat, "", None)
        self.assertIn("nodes=40000", player.arguments())
        # A retired level still has a seat (its old games' pages, a game queued before).
        self.assertEqual(house.seat(old_version, "engine-1s", 900.0).clock_text(), "tc=1")
