"""The HTTP API and the pages' permissions: a team's token acts only for that team, no team
reads another's code or reasons, the administrator's pages are refused to teams, forms need
their CSRF token; and the queue behind them (claims, finishes, a stop's requeue, failures,
workers racing for it)."""

import io
import json
import threading
import zipfile

from arena_games import play, race, ready, record_of
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client, TestCase, TransactionTestCase

from divercite.arena.core import game_queue, teams
from divercite.arena.core.models import Entry, Game, Version
from divercite.arena.agent_files.uploads import AGENT_FILE

AGENT = (b"from player_divercite import PlayerDivercite\n"
         b"SECRET = 'the team alpha wrote this'\n\n"
         b"class MyPlayer(PlayerDivercite):\n    pass\n")


class ArenaTestCase(TestCase):
    def setUp(self):
        teams.ensure_house()
        self.alpha, self.alpha_token = teams.add_team("alpha")
        self.beta, self.beta_token = teams.add_team("beta")
        self.client = Client()

    def post_agent(self, token, name="my_player.py", content=AGENT, client=None):
        client = client or self.client
        headers = {"HTTP_AUTHORIZATION": f"Token {token}"} if token else {}
        return client.post("/api/agents", {"file": self.named_file(name, content)}, **headers)

    @staticmethod
    def named_file(name, content):
        upload = io.BytesIO(content)
        upload.name = name
        return upload


class AgentsTest(ArenaTestCase):
    def test_upload_queues_a_check_against_the_course_random_player(self):
        answer = self.post_agent(self.alpha_token)
        self.assertEqual(answer.status_code, 201, answer.content)
        body = answer.json()
        self.assertEqual(body["status"], "checking")
        version = Version.objects.get(pk=body["version"])
        self.assertEqual((version.entry, version.number), (self.alpha, 1))
        self.assertEqual((version.folder / AGENT_FILE).read_bytes(), AGENT)
        check = Game.objects.get(p1=version)
        self.assertEqual((check.purpose, check.status, check.p2.entry.name),
                         (Game.CHECK, Game.QUEUED, "course-random"))
        second = self.post_agent(self.alpha_token).json()
        self.assertEqual(Version.objects.get(pk=second["version"]).number, 2)

    def test_upload_refusals_are_json_with_a_reason(self):
        answer = self.post_agent(self.alpha_token, "team.zip", b"not a zip")
        self.assertEqual(answer.status_code, 400)
        self.assertIn("not a zip file", answer.json()["error"])
        answer = self.client.post("/api/agents", {},
                                  HTTP_AUTHORIZATION=f"Token {self.alpha_token}")
        self.assertEqual(answer.status_code, 400)
        self.assertIn("multipart field `file`", answer.json()["error"])
        self.assertEqual(Version.objects.filter(entry=self.alpha).count(), 0)

    def test_a_file_too_large_is_refused_before_it_is_read(self):
        answer = self.post_agent(self.alpha_token, "team.zip", b"\0" * (20 * (1 << 20) + 1))
        self.assertEqual(answer.status_code, 400)
        self.assertEqual(answer.json()["error"], "team.zip: 20.0 MB; at most 20 MB")

    def test_a_token_is_needed_and_must_be_a_team_s(self):
        self.assertEqual(self.post_agent(None).status_code, 401)
        self.assertEqual(self.post_agent("not-a-token").status_code, 401)
        self.assertEqual(self.client.get("/api/agents").status_code, 401)
        self.assertEqual(self.client.put("/api/agents").status_code, 405)

    def test_a_team_reads_its_own_versions_only(self):
        mine = self.post_agent(self.alpha_token).json()["version"]
        answer = self.client.get(f"/api/agents/{mine}",
                                 HTTP_AUTHORIZATION=f"Token {self.alpha_token}")
        version = Version.objects.get(pk=mine)
        self.assertEqual(answer.json(), {"version": mine, "team": "alpha", "number": 1,
                                         "status": "checking", "reason": "",
                                         "uploaded": version.created.isoformat(),
                                         "file": "my_player.py"})
        other = self.client.get(f"/api/agents/{mine}",
                                HTTP_AUTHORIZATION=f"Token {self.beta_token}")
        self.assertEqual(other.status_code, 404)
        self.assertEqual(self.client.get(f"/api/agents/{mine}").status_code, 401)
        User.objects.create_superuser("admin", password="admin-password")
        staff = Client()
        staff.login(username="admin", password="admin-password")
        self.assertEqual(staff.get(f"/api/agents/{mine}").json()["team"], "alpha")

    def test_no_address_serves_an_agent_s_code(self):
        version = self.post_agent(self.alpha_token).json()["version"]
        for path in (f"/agents/{version}/my_player.py",
                     f"/static/../agents/{version}/my_player.py",
                     f"/static/%2e%2e/agents/{version}/my_player.py", "/arena.json",
                     "/static/arena.sqlite3"):
            with self.subTest(path=path):
                self.assertIn(self.client.get(path).status_code, (400, 404))
        check = game_queue.claim("w")
        self.assertTrue(game_queue.finish(check, record_of(check, 0)))
        alpha, beta = Client(), Client()
        alpha.login(username="alpha", password=self.alpha_token)
        beta.login(username="beta", password=self.beta_token)
        for path in ("/", "/games/", "/teams/alpha/", f"/api/agents/{version}", "/api/games",
                     "/api/standings", f"/games/{check.pk}/", f"/api/games/{check.pk}/record",
                     "/api/games?team=alpha"):
            for client in (alpha, beta):
                with self.subTest(path=path):
                    answer = client.get(path)
                    self.assertIn(answer.status_code, (200, 404))
                    self.assertNotIn(b"the team alpha wrote this", answer.content)


class ChallengesTest(ArenaTestCase):
    def challenge(self, token, opponent, games):
        return self.client.post("/api/challenges",
                                json.dumps({"opponent": opponent, "games": games}),
                                content_type="application/json",
                                HTTP_AUTHORIZATION=f"Token {token}")

    def test_challenges_are_queued_within_the_quota(self):
        refused = self.challenge(self.alpha_token, "engine-250k", 2)
        self.assertEqual(refused.status_code, 400)
        self.assertIn("no ready version", refused.json()["error"])
        mine = ready(teams.upload(self.alpha, "my_player.py", AGENT))
        answer = self.challenge(self.alpha_token, "engine-250k", 3)
        self.assertEqual(answer.status_code, 201, answer.content)
        self.assertEqual(answer.json()["quota_left"], 17)
        games = Game.objects.filter(purpose=Game.CHALLENGE).order_by("id")
        self.assertEqual([g.p1_id == mine.pk for g in games], [True, False, True])
        self.assertEqual(self.challenge(self.alpha_token, "engine-250k", 18).status_code, 400)
        self.assertIn("17 left", self.challenge(self.alpha_token, "random", 18).json()["error"])
        self.assertIn("itself", self.challenge(self.alpha_token, "alpha", 1).json()["error"])
        self.assertIn("no team or house",
                      self.challenge(self.alpha_token, "nobody", 1).json()["error"])
        self.assertIn("ready version", self.challenge(self.alpha_token, "beta", 1).json()["error"])
        self.assertIn("whole number",
                      self.challenge(self.alpha_token, "random", "2").json()["error"])
        self.assertEqual(self.challenge("bad", "random", 1).status_code, 401)

    def test_challenges_before_matchmaking_and_checks_before_both(self):
        mine = ready(teams.upload(self.alpha, "my_player.py", AGENT))
        Game.objects.all().delete()  # its own check game
        house = Entry.objects.get(name="greedy").current_version()
        matchmade = Game.objects.create(p1=house, p2=mine, purpose=Game.MATCHMADE)
        teams.challenge(self.alpha, "random", 1)
        check = teams.upload(self.beta, "my_player.py", AGENT).games_first.get()
        claimed = [game_queue.claim("w").pk for _ in range(3)]
        challenge = Game.objects.get(purpose=Game.CHALLENGE).pk
        self.assertEqual(claimed, [check.pk, challenge, matchmade.pk])
        self.assertIsNone(game_queue.claim("w"))


class QueueTest(ArenaTestCase):
    def setUp(self):
        super().setUp()
        self.version = teams.upload(self.alpha, "my_player.py", AGENT)
        self.check = self.version.games_first.get()

    def test_a_normal_check_game_makes_the_version_ready(self):
        game = game_queue.claim("w")
        self.assertTrue(game_queue.finish(game, record_of(game, 0)))
        self.version.refresh_from_db()
        self.assertEqual(self.version.status, Version.READY)
        self.assertEqual(self.alpha.current_version(), self.version)

    def test_a_check_lost_by_a_fault_rejects_with_the_runner_s_reason(self):
        words = {"illegal": "alpha played an illegal move on move 5: 'XX99'",
                 "crash": "alpha crashed on move 5: ValueError in my_player.py, line 3 "
                          "(MyPlayer.compute_action): boom"}
        for termination, reason in (("illegal", "alpha played 'XX99'"),
                                    ("crash", "alpha: ValueError in my_player.py, line 3 "
                                              "(MyPlayer.compute_action): boom")):
            with self.subTest(termination=termination):
                version = teams.upload(self.alpha, "my_player.py", AGENT)
                Game.objects.exclude(p1=version).filter(status=Game.QUEUED).delete()
                game = game_queue.claim("w")
                game_queue.finish(game, record_of(game, 1, termination, reason, plies=4))
                version.refresh_from_db()
                self.assertEqual(version.status, Version.REJECTED)
                self.assertEqual(version.reason, words[termination])

    def test_a_game_requeued_by_a_stop_is_not_finished_by_its_old_worker(self):
        game = game_queue.claim("serve-1/0")
        self.assertEqual(game_queue.requeue_cut_games("serve-1/"), 1)
        self.assertFalse(game_queue.finish(game, record_of(game, 0)))
        self.assertEqual(Game.objects.get(pk=game.pk).status, Game.QUEUED)
        again = game_queue.claim("serve-2/0")
        self.assertEqual((again.pk, again.attempts), (game.pk, 2))
        self.assertIsNone(game_queue.claim("serve-2/1"), "a game claimed twice")
        self.assertTrue(game_queue.finish(again, record_of(again, 0)))
        self.assertEqual(Game.objects.filter(status=Game.DONE).count(), 1)

    def test_a_game_the_runner_cannot_play_is_tried_three_times(self):
        for attempt in range(1, game_queue.ATTEMPTS + 1):
            game = game_queue.claim("w")
            self.assertEqual(game.attempts, attempt)
            game_queue.fail(game, "divercite-match exited with status 1: boom")
        game = Game.objects.get(pk=self.check.pk)
        self.assertEqual(game.status, Game.FAILED)
        self.version.refresh_from_db()
        self.assertEqual(self.version.status, Version.REJECTED)
        self.assertIn("could not play its check game", self.version.reason)

    def test_games_api(self):
        mine = ready(self.version)
        greedy = Entry.objects.get(name="greedy").current_version()
        Game.objects.filter(status=Game.QUEUED).delete()
        done = play(mine, greedy, 3)
        playing = Game.objects.create(p1=greedy, p2=mine, purpose=Game.MATCHMADE)
        game_queue.claim("w")
        games = self.client.get("/api/games").json()["games"]
        self.assertEqual([g["id"] for g in games], [playing.pk, done.pk])
        self.assertIsNone(games[0]["result"])
        self.assertEqual({k: games[1][k] for k in ("p1", "p2", "result", "termination")},
                         {"p1": "alpha", "p2": "greedy", "result": done.result,
                          "termination": "normal"})
        self.assertEqual(len(self.client.get("/api/games?team=beta").json()["games"]), 0)
        self.assertEqual([g["id"] for g in
                          self.client.get("/api/games?team=alpha").json()["games"]],
                         [playing.pk, done.pk])
        self.assertEqual([g["id"] for g in
                          self.client.get("/api/games?team=greedy").json()["games"]],
                         [playing.pk, done.pk])
        self.assertEqual(self.client.get("/api/games?team=nobody").status_code, 404)
        record = self.client.get(f"/api/games/{done.pk}/record")
        self.assertEqual(record.content.decode(), done.record + "\n")
        self.assertEqual(json.loads(record.content)["moves"][0]["move"], done.record and
                         json.loads(done.record)["moves"][0]["move"])
        self.assertEqual(self.client.get(f"/api/games/{playing.pk}/record").status_code, 404)
        page = self.client.get(f"/games/{done.pk}/")
        self.assertContains(page, 'id="replay-data"')
        self.assertContains(page, "<template id=\"skeleton\"><svg")


class PagesTest(ArenaTestCase):
    def test_admin_pages_refused_to_teams(self):
        alpha = Client()
        alpha.login(username="alpha", password=self.alpha_token)
        for path in ("/admin/", "/admin/arena/entry/", "/admin/auth/user/"):
            with self.subTest(path=path):
                answer = alpha.get(path)
                self.assertEqual(answer.status_code, 302)
                self.assertIn("/admin/login/", answer["Location"])

    def test_reasons_for_the_team_s_own_eyes(self):
        version = teams.upload(self.alpha, "my_player.py", AGENT)
        Version.objects.filter(pk=version.pk).update(
            status=Version.REJECTED, reason="crash: Traceback ... SECRET_IN_THE_REASON")
        alpha, beta = Client(), Client()
        alpha.login(username="alpha", password=self.alpha_token)
        beta.login(username="beta", password=self.beta_token)
        self.assertContains(alpha.get("/teams/alpha/"), "SECRET_IN_THE_REASON")
        self.assertContains(alpha.get("/teams/alpha/"), '<pre class="reason">')
        for client in (beta, self.client):
            page = client.get("/teams/alpha/")
            self.assertContains(page, 'class="version rejected"')  # the version is listed
            self.assertNotContains(page, "SECRET_IN_THE_REASON")
            self.assertNotContains(page, 'class="reason"')
        self.assertNotContains(alpha.get("/teams/beta/"), 'class="reason"')

    def test_forms_need_their_csrf_token(self):
        guarded = Client(enforce_csrf_checks=True)
        self.assertTrue(guarded.login(username="alpha", password=self.alpha_token))
        upload = self.named_file("my_player.py", AGENT)
        self.assertEqual(guarded.post("/upload/", {"file": upload}).status_code, 403)
        self.assertEqual(guarded.post("/challenge/", {"opponent": "random", "games": 1})
                         .status_code, 403)
        self.assertEqual(Version.objects.filter(entry=self.alpha).count(), 0)
        guarded.get("/upload/")
        token = guarded.cookies["csrftoken"].value
        answer = guarded.post("/upload/", {"file": self.named_file("my_player.py", AGENT),
                                           "csrfmiddlewaretoken": token})
        self.assertEqual(answer.status_code, 302)
        self.assertEqual(Version.objects.filter(entry=self.alpha).count(), 1)
        self.assertFalse(Game.objects.filter(purpose=Game.CHALLENGE).exists())
        ready(self.alpha.versions.get())
        page = guarded.get("/teams/random/")
        self.assertContains(page, 'action="/challenge/"')
        answer = guarded.post("/challenge/", {"opponent": "random", "games": 2,
                                              "csrfmiddlewaretoken": page.context["csrf_token"]})
        self.assertEqual((answer.status_code, answer["Location"]), (302, "/teams/random/"))
        self.assertEqual(Game.objects.filter(purpose=Game.CHALLENGE).count(), 2)

    def test_login_with_the_token_and_the_upload_form(self):
        self.assertEqual(self.client.get("/upload/").status_code, 302)
        answer = self.client.post("/login/", {"username": "alpha", "password": "wrong"})
        self.assertContains(answer, "The name or the token is wrong")
        self.client.post("/login/", {"username": "alpha", "password": self.alpha_token})
        answer = self.client.post("/upload/", {"file": self.named_file("team.zip", b"x")},
                                  follow=True)
        self.assertContains(answer, "Refused: team.zip: not a zip file")
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            archive.writestr("alpha/my_player.py", AGENT)
        answer = self.client.post("/upload/", {"file": self.named_file("alpha.zip",
                                                                       buffer.getvalue())},
                                  follow=True)
        self.assertContains(answer, "Version 1 received")
        self.assertContains(answer, 'class="version checking"')

    def test_a_lost_game_s_analysis_is_titled_with_its_number(self):
        """divercite-analyze's review page of a lost game (its record's "game" is the
        runner's 0) says the arena's number, as every page of the game does."""
        from divercite.arena.core import serve_workers
        alpha = ready(teams.upload(self.alpha, "my_player.py", AGENT))
        greedy = Entry.objects.get(name="greedy").current_version()
        Game.objects.filter(status=Game.QUEUED).delete()
        for index in range(3):  # the game analysed is not the first
            done = play(alpha, greedy, index)
        self.assertEqual(json.loads(done.record)["game"], 0)
        Game.objects.filter(pk=done.pk).update(analysis="pending")
        settings.ARENA.scratch.mkdir(exist_ok=True)  # as serve makes it
        serve_workers.analyse(done, threading.Event())
        done.refresh_from_db()
        self.assertEqual(done.analysis, "done", done.analysis_json)
        self.assertEqual(json.loads(done.analysis_json)["game"], done.pk)
        page = b"".join(self.client.get(f"/games/{done.pk}/analysis").streaming_content)
        page = page.decode()
        self.assertIn(f"<title>Game {done.pk}: alpha vs greedy", page)
        self.assertNotIn("Game 0", page)
        game_page = self.client.get(f"/games/{done.pk}/")
        self.assertContains(game_page, f"<h1>Game {done.pk}: ")
        # Its largest mistakes in points to two decimals, as the review page writes them.
        loser = "p1" if done.result == "0-1" else "p2"
        mistakes = json.loads(done.analysis_json)["summary"][loser]["mistakes"]
        self.assertTrue(mistakes)
        for mistake in mistakes:
            self.assertContains(game_page, f": {mistake['loss'] / 100:.2f} points lost (")

    def test_counts_and_measures_written_one_way(self):
        from django.template import Context, Template
        from divercite.arena import wording
        self.assertEqual([wording.counted(n, "game") for n in (0, 1, 2)],
                         ["0 games", "1 game", "2 games"])
        self.assertEqual(wording.counted(1, "entry", "entries"), "1 entry")
        self.assertEqual(wording.counted(3, "entry", "entries"), "3 entries")
        self.assertEqual([wording.seconds(s) for s in (900.0, 0.1, 0.05)],
                         ["900 s", "0.1 s", "0.05 s"])
        self.assertEqual([wording.points(cp) for cp in (150, 7, 1234)],
                         ["1.50", "0.07", "12.34"])
        page = Template('{% load wording %}{{ 1|counted:"game" }}, {{ 2|counted:"entry,entries" '
                        '}}, {{ 0.05|seconds }}, {{ 150|points }}').render(Context())
        self.assertEqual(page, "1 game, 2 entries, 0.05 s, 1.50")

    def test_every_page_answers(self):
        for path in ("/", "/games/", "/teams/alpha/", "/teams/engine-250k/", "/login/",
                     "/api/standings"):
            with self.subTest(path=path):
                self.assertEqual(self.client.get(path).status_code, 200)
        for path in ("/teams/course-random/", "/teams/nobody/", "/games/999/"):
            with self.subTest(path=path):
                self.assertEqual(self.client.get(path).status_code, 404)


class TokensTest(ArenaTestCase):
    """A request acts for the team of its token, and for no team without one: the API takes
    no session cookie for a POST (it is exempt from CSRF, so a cookie would let any site
    upload or challenge for a logged-in team)."""

    def test_a_session_does_not_post_to_the_api(self):
        alpha = Client(enforce_csrf_checks=True)
        alpha.login(username="alpha", password=self.alpha_token)
        ready(teams.upload(self.alpha, "my_player.py", AGENT))
        self.assertEqual(self.post_agent(None, client=alpha).status_code, 401)
        answer = alpha.post("/api/challenges", json.dumps({"opponent": "random", "games": 1}),
                            content_type="application/json")
        self.assertEqual(answer.status_code, 401)
        self.assertEqual(Version.objects.filter(entry=self.alpha).count(), 1)
        self.assertFalse(Game.objects.filter(purpose=Game.CHALLENGE).exists())

    def test_each_token_acts_for_its_own_team(self):
        ready(teams.upload(self.alpha, "my_player.py", AGENT))
        ready(teams.upload(self.beta, "my_player.py", AGENT))
        body = self.post_agent(self.beta_token).json()
        self.assertEqual(Version.objects.get(pk=body["version"]).entry, self.beta)
        answer = self.client.post("/api/challenges",
                                  json.dumps({"opponent": "alpha", "games": 3}),
                                  content_type="application/json",
                                  HTTP_AUTHORIZATION=f"Token {self.beta_token}")
        self.assertEqual(answer.json()["quota_left"], 17)
        self.assertEqual(Entry.objects.get(name="alpha").challenge_quota, 20)
        self.assertEqual(Entry.objects.get(name="beta").challenge_quota, 17)
        self.assertEqual(set(Game.objects.filter(purpose=Game.CHALLENGE)
                             .values_list("challenge__team__name", flat=True)), {"beta"})
        # A token with another scheme, or a team's name, is no token.
        for header in (f"Bearer {self.alpha_token}", f"token {self.alpha_token}",
                       "Token alpha", self.alpha_token):
            with self.subTest(header=header):
                self.assertEqual(self.client.post("/api/agents", {},
                                                  HTTP_AUTHORIZATION=header).status_code, 401)

    def test_requests_the_api_refuses(self):
        headers = {"HTTP_AUTHORIZATION": f"Token {self.alpha_token}"}
        for path in ("/api/challenges",):
            with self.subTest(path=path):
                answer = self.client.get(path, **headers)
                self.assertEqual(answer.status_code, 405)
                self.assertIn("POST", answer.json()["error"])
        self.assertEqual(self.client.post("/api/standings").status_code, 405)
        for body in ("not json", "[1, 2]", '{"games": 2}', '{"opponent": 3}'):
            with self.subTest(body=body):
                answer = self.client.post("/api/challenges", body,
                                          content_type="application/json", **headers)
                self.assertEqual(answer.status_code, 400)
                self.assertIn("error", answer.json())
        self.assertEqual(self.client.get("/api/agents/999999", **headers).status_code, 404)

    def test_an_upload_that_could_not_be_unpacked_is_refused_not_a_server_error(self):
        """A zip holding a file `data` and a file `data/x.txt`: neither could be written."""
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            archive.writestr("my_player.py", AGENT)
            archive.writestr("data", b"1")
            archive.writestr("data/x.txt", b"2")
        client = Client(raise_request_exception=False)
        answer = self.post_agent(self.alpha_token, "team.zip", buffer.getvalue(), client)
        self.assertEqual(answer.status_code, 400)
        self.assertIn("both a file and a folder", answer.json()["error"])
        self.assertFalse(Version.objects.filter(entry=self.alpha).exists())
        client.login(username="alpha", password=self.alpha_token)
        page = client.post("/upload/", {"file": self.named_file("team.zip", buffer.getvalue())},
                           follow=True)
        self.assertContains(page, "Refused: &#x27;data&#x27;: both a file and a folder")

    def test_the_administrator_reaches_what_teams_cannot(self):
        User.objects.create_superuser("admin", password="admin-password")
        admin = Client()
        admin.login(username="admin", password="admin-password")
        self.assertEqual(admin.get("/admin/arena/entry/").status_code, 200)
        version = teams.upload(self.alpha, "my_player.py", AGENT)
        Version.objects.filter(pk=version.pk).update(status=Version.REJECTED,
                                                     reason="crash: for the staff's eyes")
        self.assertContains(admin.get("/teams/alpha/"), "crash: for the staff&#x27;s eyes")
        alpha = Client()
        alpha.login(username="alpha", password=self.alpha_token)
        self.assertEqual(alpha.get("/admin/arena/entry/").status_code, 302)
        self.assertEqual(alpha.post(f"/admin/arena/entry/{self.alpha.pk}/delete/", {"post": "yes"})
                         .status_code, 302)
        self.assertTrue(Entry.objects.filter(pk=self.alpha.pk).exists())


class AgentTextTest(ArenaTestCase):
    """What an agent wrote (quoted by the runner in a game's reason: a traceback holds lines
    of its code) is read by the game's two teams and the staff, not by the other teams."""

    SAID = "crash: alpha crashed (engine said: File \"my_player.py\", line 9: SECRET_LINE)"

    def setUp(self):
        super().setUp()
        self.gamma, self.gamma_token = teams.add_team("gamma")
        mine = ready(teams.upload(self.alpha, "my_player.py", AGENT))
        theirs = ready(teams.upload(self.beta, "my_player.py", AGENT))
        Game.objects.all().delete()
        self.game = play(mine, theirs, 5, termination="crash", reason=self.SAID, plies=7)

    def seen(self, token=None, client=None):
        client = client or self.client
        headers = {"HTTP_AUTHORIZATION": f"Token {token}"} if token else {}
        listed = client.get("/api/games", **headers).json()["games"][0]["reason"]
        record = json.loads(client.get(f"/api/games/{self.game.pk}/record", **headers).content)
        page = client.get(f"/games/{self.game.pk}/").content.decode()
        return listed, record["reason"], page

    def test_the_game_s_teams_read_it_whole(self):
        for token in (self.alpha_token, self.beta_token):
            listed, recorded, _ = self.seen(token)
            self.assertEqual(listed, self.SAID)
            self.assertEqual(recorded, self.SAID)
        alpha = Client()
        alpha.login(username="alpha", password=self.alpha_token)
        self.assertIn("SECRET_LINE", self.seen(client=alpha)[2])

    def test_others_read_the_runner_s_words_alone(self):
        gamma = Client()
        gamma.login(username="gamma", password=self.gamma_token)
        for seen in (self.seen(), self.seen(self.gamma_token), self.seen(client=gamma)):
            listed, recorded, page = seen
            self.assertEqual(listed, "crash: alpha crashed (what the agent wrote is for its "
                                     "team's eyes)")
            self.assertEqual(recorded, listed)
            self.assertNotIn("SECRET_LINE", page)
            self.assertIn("alpha crashed", page)
        record = json.loads(self.client.get(f"/api/games/{self.game.pk}/record").content)
        self.assertEqual(len(record["moves"]), 7, "the rest of the record is whole")


class ClaimRaceTest(TransactionTestCase):
    """Workers racing for the queue, each a thread with its own database connection (as the
    arena's worker threads, or workers on other machines, are): every game is taken once,
    none twice, none left. On PostgreSQL the claims skip each other's locked rows; on
    SQLite each claim is a write transaction of its own."""

    WORKERS = 8
    GAMES = 40

    def test_racing_workers_take_every_game_exactly_once(self):
        teams.ensure_house()
        house = [Entry.objects.get(name=name).current_version() for name in ("random", "greedy")]
        Game.objects.all().delete()
        games = {Game.objects.create(p1=house[k % 2], p2=house[1 - k % 2],
                                     purpose=Game.MATCHMADE).pk for k in range(self.GAMES)}
        taken = race(self.WORKERS, lambda k: game_queue.claim(f"racer-{k}"))
        claimed = [pk for mine in taken for pk in mine]
        self.assertEqual(len(claimed), len(set(claimed)), "a game claimed twice")
        self.assertEqual(set(claimed), games)
        workers = dict(Game.objects.values_list("pk", "worker"))
        for k, mine in enumerate(taken):
            for pk in mine:
                self.assertEqual(workers[pk], f"racer-{k}")


class AnalystsRaceTest(TransactionTestCase):
    """serve's analysts (arena.json's `analysts`) racing for the lost games waiting for their
    analysis: each game taken by one analyst, none twice, none left; a stopped serve's games
    under analysis are waiting again when the next starts."""

    ANALYSTS = 4
    GAMES = 20

    def test_each_lost_game_is_analysed_by_one_analyst(self):
        from divercite.arena.core import serve_workers
        teams.ensure_house()
        house = [Entry.objects.get(name=name).current_version() for name in ("random", "greedy")]
        games = {Game.objects.create(p1=house[0], p2=house[1], purpose=Game.MATCHMADE,
                                     status=Game.DONE, analysis="pending").pk
                 for _ in range(self.GAMES)}
        taken = race(self.ANALYSTS, lambda k: serve_workers.claim_analysis())
        claimed = [pk for mine in taken for pk in mine]
        self.assertEqual(len(claimed), len(set(claimed)), "a game analysed twice")
        self.assertEqual(set(claimed), games)
        self.assertEqual(set(Game.objects.values_list("analysis", flat=True)),
                         {serve_workers.ANALYSING})
        self.assertEqual(serve_workers.requeue_cut_analyses(), self.GAMES)
        self.assertEqual(set(Game.objects.values_list("analysis", flat=True)), {"pending"})
