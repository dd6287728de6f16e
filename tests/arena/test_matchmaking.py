"""Matchmaking (matchmaking.choose) over a simulated term: entries of hidden strengths, each
game's winner drawn from the Elo formula, ratings refitted as the arena refits them (here by
a plain Bradley-Terry fit, to keep the test free of the runner)."""

import itertools
import math
import random
from collections import Counter

from django.test import SimpleTestCase

from divercite.arena.play.matchmaking import choose

PLACEMENT = 8


def fit(games, versions, rounds=60):
    """Bradley-Terry Elo of `games` [(winner, loser)], the mean at 0 (minorisation steps)."""
    strength = {v: 1.0 for v in versions}
    wins = Counter(winner for winner, _ in games)
    meetings = Counter(frozenset(pair) for pair in games)
    for _ in range(rounds):
        for v in versions:
            denominator = sum(n / (strength[v] + strength[other])
                              for pair, n in meetings.items() if v in pair
                              for other in pair - {v})
            if denominator:
                strength[v] = max(wins[v], 0.5) / denominator
    mean = sum(math.log(s) for s in strength.values()) / len(strength)
    return {v: 400 / math.log(10) * (math.log(strength[v]) - mean) if any(v in p for p in meetings)
            else None for v in versions}


class Term:
    def __init__(self, strengths, seed):
        self.strengths = dict(strengths)
        self.rng = random.Random(seed)
        self.games = []  # (p1, p2)
        self.results = []  # (winner, loser)
        self.elo = {v: None for v in self.strengths}

    def play(self, count, refit_every=10):
        for number in range(count):
            if number % refit_every == 0:
                self.elo = fit(self.results, list(self.strengths))
            pair = choose(list(self.strengths), self.elo, self.games, [], PLACEMENT, self.rng)
            self.games.append(pair)
            a, b = pair
            expected = 1 / (1 + 10 ** ((self.strengths[b] - self.strengths[a]) / 400))
            self.results.append(pair if self.rng.random() < expected else (b, a))

    def games_of(self, version):
        return sum(version in pair for pair in self.games)


class MatchmakingTest(SimpleTestCase):
    def setUp(self):
        self.term = Term({v: 150 * v for v in range(8)}, seed=43)
        self.term.play(400)

    def test_a_new_version_is_placed_within_its_first_games(self):
        self.term.strengths[8] = 500
        self.term.elo[8] = None
        self.term.play(PLACEMENT + 2, refit_every=1)
        self.assertGreaterEqual(self.term.games_of(8), PLACEMENT)
        opponents = {a if b == 8 else b for a, b in self.term.games[-PLACEMENT - 2:] if 8 in (a, b)}
        self.assertGreaterEqual(len(opponents), 4, "placed against one or two opponents")

    def test_no_pair_starves_and_near_pairs_meet_more(self):
        meetings = Counter(frozenset(pair) for pair in self.term.games)
        for pair in itertools.combinations(range(8), 2):
            self.assertGreaterEqual(meetings[frozenset(pair)], 3, f"pair {pair} starved")
        near = sum(meetings[frozenset((v, v + 1))] for v in range(7)) / 7
        far = sum(meetings[frozenset((v, v + 6))] for v in range(2)) / 2
        self.assertGreater(near, far)

    def test_colours_balanced_in_every_pair(self):
        first = Counter(self.term.games)
        for a, b in itertools.combinations(range(8), 2):
            self.assertLessEqual(abs(first[(a, b)] - first[(b, a)]), 1, (a, b))

    def test_every_version_plays(self):
        counts = [self.term.games_of(v) for v in range(8)]
        self.assertLessEqual(max(counts) - min(counts), max(counts) // 2, counts)

    def test_busy_versions_wait(self):
        """With a game of (0, 1) being played, another worker takes another pair."""
        pair = choose(list(range(8)), {v: 0.0 for v in range(8)}, [], [(0, 1)], 0,
                      random.Random(1))
        self.assertFalse({0, 1} & set(pair), pair)

    def test_fewer_than_two_versions(self):
        self.assertIsNone(choose([3], {3: None}, [], [], PLACEMENT, random.Random(1)))
