"""What one request may cost the arena (python/divercite/arena/project/request_limits.py,
core/logins.py; issue 55): bodies capped by their sender before they are read (413, 411: an
anonymous one at 8 KB, a team's upload at its limit, a worker's post at 8 MB, an admin's at
1 MB); failed logins throttled by address and by name (429 with Retry-After, the password not
checked), and the audit log not flooded by them; /api/games and the pages' lists of games 100
a page, `next` chained with the filter kept, the lists rendered from the cache; anonymous
requests limited a minute an address, never those of a token or a login. The caps and limits
are checked on a real server (the built-in one and gunicorn) by test_arena_requests.py."""

import re
from datetime import timedelta
from unittest import mock

from arena_games import AGENT, ready, record_of
from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import caches
from django.db import connection
from django.test import Client, RequestFactory, TestCase
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from test_api import ArenaTestCase

from divercite.arena.core import logins
from divercite.arena.project import request_limits
from divercite.arena.core import standings, teams, worker_tokens
from divercite.arena.agent_files import uploads
from divercite.arena.core.models import AuditEntry, Entry, FailedLogin, Game

GB = 1 << 30


def upload_of(agent):
    return ArenaTestCase.named_file("my_player.py", agent)


class Unreadable:
    """A request's body that fails the test if anything reads it."""

    def read(self, *arguments):
        raise AssertionError("the body was read")

    readline = read


class RequestsCase(TestCase):
    def setUp(self):
        teams.ensure_house()
        self.alpha, self.alpha_token = teams.add_team("alpha")
        self.beta, self.beta_token = teams.add_team("beta")
        self.machine, self.worker_token = worker_tokens.add("lab-1")
        caches[request_limits.RATES].clear()

    @staticmethod
    def declared(client, path, length, **extra):
        """A POST declaring a body of `length` bytes that nothing may read."""
        return client.generic("POST", path, b"", CONTENT_LENGTH=str(length),
                              CONTENT_TYPE="multipart/form-data; boundary=x",
                              **{"wsgi.input": Unreadable()}, **extra)

    def logged_in(self, name, password, address="127.0.0.1"):
        client = Client(REMOTE_ADDR=address)
        self.assertTrue(client.login(username=name, password=password))
        return client


class BodyTest(RequestsCase):
    def test_an_anonymous_body_over_8_kb_is_refused_unread(self):
        answer = self.declared(Client(), "/login/", 3 * GB)
        self.assertEqual(answer.status_code, 413)
        self.assertTrue(answer["Content-Type"].startswith("text/plain"))
        self.assertIn("The body of this request is 3 GB; the arena takes at most 8 KB "
                      "without a valid token or a login", answer.content.decode())
        answer = self.declared(Client(), "/api/agents", 3 * GB)
        self.assertEqual(answer.status_code, 413)
        self.assertIn("at most 8 KB", answer.json()["error"])
        self.assertIn("at most 20 MB, with its token", answer.json()["error"])
        # A made-up token is no token; nor is a team's on the workers' API.
        for path, token in (("/api/agents", "made-up"), ("/api/worker/claim", "made-up")):
            answer = self.declared(Client(), path, 1 << 20, HTTP_AUTHORIZATION=f"Token {token}")
            self.assertEqual(answer.status_code, 413, path)

    def test_a_small_anonymous_post_goes_on(self):
        answer = Client().post("/login/", {"username": "alpha", "password": self.alpha_token})
        self.assertEqual(answer.status_code, 302)

    def test_a_body_without_content_length_is_refused(self):
        for path, json_answer in (("/login/", False), ("/api/agents", True)):
            answer = Client().generic("POST", path, b"", HTTP_TRANSFER_ENCODING="chunked",
                                      HTTP_AUTHORIZATION=f"Token {self.alpha_token}",
                                      **{"wsgi.input": Unreadable()})
            self.assertEqual(answer.status_code, 411, path)
            said = answer.json()["error"] if json_answer else answer.content.decode()
            self.assertIn("Content-Length", said)
        answer = Client().generic("POST", "/login/", b"", CONTENT_LENGTH="lots",
                                  **{"wsgi.input": Unreadable()})
        self.assertEqual(answer.status_code, 400)

    def test_a_team_s_upload_is_taken_up_to_its_limit(self):
        agent = AGENT + b"#" * (1 << 20) + b"\n"
        answer = Client().post("/api/agents", {"file": upload_of(agent)},
                               HTTP_AUTHORIZATION=f"Token {self.alpha_token}")
        self.assertEqual(answer.status_code, 201, answer.content)
        page = self.logged_in("beta", self.beta_token)
        answer = page.post("/upload/", {"file": upload_of(agent)})
        self.assertEqual(answer.status_code, 302)
        self.assertEqual(Entry.objects.get(name="beta").versions.count(), 1)
        # Over it, refused before it is read, saying the limit.
        limit = request_limits.upload_bytes()
        self.assertEqual(limit, uploads.MAX_UPLOAD_BYTES + request_limits.MULTIPART_BYTES)
        answer = self.declared(Client(), "/api/agents", limit + 1,
                               HTTP_AUTHORIZATION=f"Token {self.alpha_token}")
        self.assertEqual(answer.status_code, 413)
        self.assertIn("an agent: at most 20 MB", answer.json()["error"])
        self.assertEqual(self.declared(page, "/upload/", limit + 1).status_code, 413)
        # The limit read when asked: another file limit, another cap.
        with mock.patch.object(uploads, "MAX_UPLOAD_BYTES", 1 << 20):
            answer = self.declared(Client(), "/api/agents", 2 << 20,
                                   HTTP_AUTHORIZATION=f"Token {self.alpha_token}")
            self.assertEqual(answer.status_code, 413)
            self.assertIn("at most 1 MB", answer.json()["error"])

    def test_the_other_senders_caps(self):
        team = self.logged_in("alpha", self.alpha_token)
        self.assertEqual(self.declared(team, "/challenge/", 100 << 10).status_code, 413)
        answer = self.declared(Client(), "/api/challenges", 100 << 10,
                               HTTP_AUTHORIZATION=f"Token {self.alpha_token}")
        self.assertEqual(answer.status_code, 413)
        self.assertIn("at most 64 KB here", answer.json()["error"])
        # A worker's posts: 8 MB, on the workers' API only.
        worker = {"HTTP_AUTHORIZATION": f"Token {self.worker_token}"}
        answer = Client().post("/api/worker/claim", b"x" * (2 << 20),
                               content_type="application/json", **worker)
        self.assertEqual(answer.status_code, 400, answer.content[:300])  # read: not JSON
        self.assertEqual(self.declared(Client(), "/api/worker/claim", (8 << 20) + 1,
                                       **worker).status_code, 413)
        self.assertEqual(self.declared(Client(), "/api/challenges", 100 << 10,
                                       **worker).status_code, 413)
        # The staff on the admin pages: 1 MB.
        User.objects.create_superuser("boss", password="the-boss-password")
        staff = self.logged_in("boss", "the-boss-password")
        answer = staff.post("/admin/arena/entry/add/", {"name": "x" * (600 << 10)})
        self.assertEqual(answer.status_code, 200)  # the form, its name refused
        self.assertEqual(self.declared(staff, "/admin/arena/entry/add/", (1 << 20) + 1)
                         .status_code, 413)
        self.assertEqual(self.declared(team, "/admin/arena/entry/add/", 100 << 10)
                         .status_code, 413)

    def test_django_s_own_bound_is_the_largest_cap_of_a_body_not_a_file(self):
        self.assertEqual(settings.DATA_UPLOAD_MAX_MEMORY_SIZE, request_limits.WORKER_BODY_BYTES)

    def test_sizes_in_words(self):
        self.assertEqual([request_limits.in_bytes(size) for size in
                          (300, 8 << 10, (20 << 20) + (100 << 10), 3 * GB)],
                         ["300 bytes", "8 KB", "20.1 MB", "3 GB"])


def fail_login(client, name, path="/login/"):
    return client.post(path, {"username": name, "password": "a guess"})


class LoginTest(RequestsCase):
    def setUp(self):
        super().setUp()
        self.boss = User.objects.create_superuser("boss", password="the-boss-password")

    def test_the_11th_failure_from_an_address_waits(self):
        outsider = Client(REMOTE_ADDR="192.0.2.1")
        for number in range(10):
            self.assertEqual(fail_login(outsider, f"team{number}").status_code, 200)
        answer = fail_login(outsider, "beta")
        self.assertEqual(answer.status_code, 429)
        self.assertTrue(880 <= int(answer["Retry-After"]) <= 900, answer["Retry-After"])
        said = answer.content.decode()
        self.assertRegex(said, r"^Too many failed logins from your address \(10 in 15 "
                               r"minutes\): try again after \d\d:\d\d UTC, in 15 minutes\.")
        # Not even the right token is checked; the page itself waits too.
        answer = outsider.post("/login/", {"username": "alpha", "password": self.alpha_token})
        self.assertEqual(answer.status_code, 429)
        self.assertEqual(outsider.get("/login/").status_code, 429)
        self.assertEqual(fail_login(outsider, "boss", "/admin/login/").status_code, 429)
        self.assertEqual(FailedLogin.objects.count(), 10)
        # Another address logs in.
        answer = Client(REMOTE_ADDR="192.0.2.2").post(
            "/login/", {"username": "alpha", "password": self.alpha_token})
        self.assertEqual(answer.status_code, 302)
        # Once the failures have left the window, the address is heard again.
        FailedLogin.objects.update(when=timezone.now() - timedelta(minutes=16))
        answer = outsider.post("/login/", {"username": "alpha", "password": self.alpha_token})
        self.assertEqual(answer.status_code, 302)

    def test_the_11th_failure_for_a_name_waits_from_any_address(self):
        for number in range(10):
            fail_login(Client(REMOTE_ADDR=f"198.51.100.{number}"), "alpha")
        stranger = Client(REMOTE_ADDR="203.0.113.1")
        answer = stranger.post("/login/", {"username": "alpha", "password": self.alpha_token})
        self.assertEqual(answer.status_code, 429)
        self.assertIn("Too many failed logins for 'alpha'", answer.content.decode())
        answer = stranger.post("/login/", {"username": "beta", "password": self.beta_token})
        self.assertEqual(answer.status_code, 302)

    def test_the_admin_s_login_page_is_throttled_too(self):
        admin = Client(REMOTE_ADDR="192.0.2.7")
        for _ in range(10):
            self.assertEqual(fail_login(admin, "boss", "/admin/login/").status_code, 200)
        answer = admin.post("/admin/login/", {"username": "boss",
                                              "password": "the-boss-password"})
        self.assertEqual(answer.status_code, 429)
        self.assertIn("Retry-After", answer)

    def test_the_setting(self):
        outsider = Client(REMOTE_ADDR="192.0.2.1")
        with mock.patch.object(settings.ARENA, "failed_logins_allowed", 3):
            for _ in range(3):
                fail_login(outsider, "alpha")
            self.assertEqual(fail_login(outsider, "alpha").status_code, 429)
        with mock.patch.object(settings.ARENA, "failed_logins_allowed", 0):  # no limit
            for _ in range(12):
                self.assertEqual(fail_login(outsider, "alpha").status_code, 200)

    def test_the_audit_log_holds_two_entries_of_30_failures(self):
        outsider = Client(REMOTE_ADDR="192.0.2.9")
        answers = [fail_login(outsider, "boss", "/admin/login/").status_code
                   for _ in range(30)]
        self.assertEqual(answers, [200] * 10 + [429] * 20)
        failed = list(AuditEntry.objects.filter(action="login failed").order_by("id"))
        self.assertEqual([(entry.actor, entry.target) for entry in failed],
                         [("anonymous", "boss")] * 2)
        self.assertEqual(failed[0].detail, "from 192.0.2.9 on /admin/login/")
        self.assertRegex(failed[1].detail,
                         r"^10 failures from 192\.0\.2\.9 since \d\d:\d\dZ: logins refused "
                         r"until \d\d:\d\dZ; the last on /admin/login/$")
        # A team's failed logins are not the administrator's: none recorded.
        for _ in range(5):
            fail_login(Client(REMOTE_ADDR="192.0.2.10"), "alpha")
        self.assertEqual(AuditEntry.objects.filter(action="login failed").count(), 2)

    def test_failures_out_of_the_window_are_deleted_now_and_then(self):
        old = FailedLogin.objects.create(address="192.0.2.1", username="alpha")
        FailedLogin.objects.filter(pk=old.pk).update(when=timezone.now() - timedelta(hours=1))
        with mock.patch.object(logins, "CLEANUP_EVERY", 1):
            fail_login(Client(REMOTE_ADDR="192.0.2.3"), "beta")
        self.assertEqual(list(FailedLogin.objects.values_list("username", flat=True)), ["beta"])


class AddressTest(TestCase):
    def address(self, remote, forwarded=None, production=False):
        extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {}
        request = RequestFactory().get("/", REMOTE_ADDR=remote, **extra)
        with mock.patch.object(settings, "PRODUCTION", production):
            return logins.client_address(request)

    def test_the_proxy_s_last_address_under_production_only(self):
        self.assertEqual(self.address("127.0.0.1", "10.0.0.1, 198.51.100.7", True),
                         "198.51.100.7")
        self.assertEqual(self.address("::1", "2001:db8::5", True), "2001:db8::5")
        # Not from the proxy on this machine, not under --production, or not an address:
        # the connection's.
        self.assertEqual(self.address("203.0.113.5", "198.51.100.7", True), "203.0.113.5")
        self.assertEqual(self.address("127.0.0.1", "198.51.100.7"), "127.0.0.1")
        self.assertEqual(self.address("127.0.0.1", "198.51.100.7, junk", True), "127.0.0.1")
        self.assertEqual(self.address("127.0.0.1", None, True), "127.0.0.1")

    def test_an_ipv6_address_counts_by_its_64(self):
        self.assertEqual(logins.counted_address("2001:db8:1:2:aaaa::1"),
                         "2001:db8:1:2::/64")
        self.assertEqual(logins.counted_address("192.0.2.1"), "192.0.2.1")


class PagesOfGamesTest(RequestsCase):
    def setUp(self):
        super().setUp()
        mine = ready(self.alpha.versions.create(number=1))
        other = ready(self.beta.versions.create(number=1))
        greedy = Entry.objects.get(name="greedy").current_version()
        now = timezone.now()
        games = []
        for number in range(250):
            game = Game(p1=mine if number % 2 else other, p2=greedy, purpose=Game.MATCHMADE,
                        status=Game.DONE, termination="normal", started=now, ended=now)
            record = record_of(game, number)
            game.result, (game.score1, game.score2) = record.result, record.final
            game.divercites1, game.divercites2 = standings.divercites(record)
            game.record = record.to_json()
            games.append(game)
        Game.objects.bulk_create(games)
        self.ids = list(Game.objects.order_by("-id").values_list("id", flat=True))
        self.alpha_ids = list(Game.objects.filter(p1=mine).order_by("-id")
                              .values_list("id", flat=True))

    def chain(self, path):
        """Every page of the list, following `next`: [(ids, next)]."""
        pages = []
        while path is not None and len(pages) < 10:
            answer = Client().get(path, HTTP_AUTHORIZATION=f"Token {self.alpha_token}")
            self.assertEqual(answer.status_code, 200, answer.content[:300])
            body = answer.json()
            path = body["next"]
            pages.append(([game["id"] for game in body["games"]], path))
        return pages

    def test_the_api_100_a_page(self):
        pages = self.chain("/api/games")
        self.assertEqual([len(ids) for ids, _ in pages], [100, 100, 50])
        self.assertEqual([next_url for _, next_url in pages],
                         [f"/api/games?before={self.ids[99]}",
                          f"/api/games?before={self.ids[199]}", None])
        self.assertEqual(sum((ids for ids, _ in pages), []), self.ids)

    def test_the_filter_is_kept(self):
        pages = self.chain("/api/games?team=alpha")
        self.assertEqual([len(ids) for ids, _ in pages], [100, 25])
        self.assertEqual(pages[0][1], f"/api/games?team=alpha&before={self.alpha_ids[99]}")
        self.assertEqual(sum((ids for ids, _ in pages), []), self.alpha_ids)
        answer = Client().get("/api/games?before=ten")
        self.assertEqual(answer.status_code, 400)
        self.assertIn("the id of a game", answer.json()["error"])

    def listed(self, page):
        return [int(pk) for pk in re.findall(rb'<td><a href="/games/(\d+)/">', page.content)]

    def older(self, page):
        found = re.search(rb'<a href="([^"]+)">Older games</a>', page.content)
        return found.group(1).decode().replace("&amp;", "&") if found else None

    def test_the_pages_100_a_page(self):
        client = Client()
        page = client.get("/games/")
        self.assertEqual(self.listed(page), self.ids[:100])
        self.assertEqual(self.older(page), f"/games/?before={self.ids[99]}")
        page = client.get(self.older(page))
        self.assertEqual(self.listed(page), self.ids[100:200])
        page = client.get(self.older(page))
        self.assertEqual(self.listed(page), self.ids[200:])
        self.assertIsNone(self.older(page))
        self.assertEqual(client.get("/games/?before=x").status_code, 404)
        page = client.get("/teams/alpha/")
        self.assertEqual(self.listed(page), self.alpha_ids[:100])
        page = client.get(self.older(page))
        self.assertEqual(self.listed(page), self.alpha_ids[100:])
        self.assertEqual(len(self.listed(client.get("/"))), 20)

    def test_the_lists_are_rendered_from_the_cache(self):
        client = Client()
        for path in ("/games/", f"/games/?before={self.ids[99]}", "/teams/alpha/",
                     "/api/games", f"/api/games?team=alpha&before={self.alpha_ids[99]}"):
            client.get(path)
            with CaptureQueriesContext(connection) as queries:
                again = client.get(path)
            self.assertEqual(again.status_code, 200)
            listing = [query["sql"] for query in queries if "LIMIT 101" in query["sql"]]
            self.assertEqual(listing, [], path)
        # Until a game changes.
        Game.objects.filter(pk=self.ids[0]).update(ended=timezone.now() + timedelta(seconds=1))
        with CaptureQueriesContext(connection) as queries:
            client.get("/api/games")
        self.assertEqual(len([query for query in queries if "LIMIT 101" in query["sql"]]), 1)


class AnonymousRequestsTest(RequestsCase):
    def setUp(self):
        super().setUp()
        limit = mock.patch.object(settings.ARENA, "anonymous_requests_per_minute", 5)
        limit.start()
        self.addCleanup(limit.stop)
        # A minute's first second: the test's requests all fall in it.
        window = mock.patch.object(request_limits, "_window", return_value=(29000000, 59))
        self.window = window.start()
        self.addCleanup(window.stop)

    def test_an_address_waits_after_the_limit(self):
        outsider = Client(REMOTE_ADDR="198.51.100.1")
        answers = [outsider.get("/api/standings").status_code for _ in range(5)]
        self.assertEqual(answers, [200] * 5)
        answer = outsider.get("/api/games")
        self.assertEqual(answer.status_code, 429)
        self.assertEqual(answer["Retry-After"], "59")
        self.assertIn("More than 5 requests a minute from your address without logging in: "
                      "try again in 59 s", answer.json()["error"])
        answer = outsider.get("/")
        self.assertEqual(answer.status_code, 429)
        self.assertTrue(answer["Content-Type"].startswith("text/plain"))
        self.assertEqual(Client(REMOTE_ADDR="198.51.100.2").get("/").status_code, 200)
        # The next minute, it is heard again.
        self.window.return_value = (29000001, 60)
        self.assertEqual(outsider.get("/").status_code, 200)

    def test_tokens_logins_and_static_files_are_not_counted(self):
        address = "198.51.100.3"
        for _ in range(5):
            Client(REMOTE_ADDR=address).get("/api/standings")
        self.assertEqual(Client(REMOTE_ADDR=address).get("/").status_code, 429)
        team = self.logged_in("alpha", self.alpha_token, address)
        token = {"HTTP_AUTHORIZATION": f"Token {self.beta_token}"}
        worker = {"HTTP_AUTHORIZATION": f"Token {self.worker_token}"}
        for _ in range(8):
            self.assertEqual(team.get("/teams/alpha/").status_code, 200)
            self.assertEqual(Client(REMOTE_ADDR=address).get("/api/games", **token)
                             .status_code, 200)
            self.assertIn(Client(REMOTE_ADDR=address).post(
                "/api/worker/claim", {"worker": "host/0"}, content_type="application/json",
                **worker).status_code, (200, 204))
            self.assertEqual(Client(REMOTE_ADDR=address).get("/static/arena/arena.css")
                             .status_code, 200)
        # A token that is none is anonymous.
        answer = Client(REMOTE_ADDR=address).get("/api/games", HTTP_AUTHORIZATION="Token x")
        self.assertEqual(answer.status_code, 429)

    def test_no_limit(self):
        with mock.patch.object(settings.ARENA, "anonymous_requests_per_minute", 0):
            for _ in range(8):
                self.assertEqual(Client(REMOTE_ADDR="198.51.100.4").get("/api/standings")
                                 .status_code, 200)
