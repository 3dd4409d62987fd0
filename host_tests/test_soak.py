"""Soak: many random rounds must all end without an exception, keeping every card.

    .venv/bin/python -m pytest host_tests/test_soak.py -m slow       # 100,000 rounds
    .venv/bin/python -m pytest host_tests/test_soak.py -m slow -n 2  # chunks in parallel

The default run (slow excluded by pytest.ini) plays a 300-round smoke version and a
few whole matches through engine.autoplay.play_game.

Rounds rotate through both presets at every legal number of players, and every fourth
round uses a random mix of rule options. Moves are chosen by three random players
(uniform over the legal moves; plays first; draws often; see `choose`) and go through the checked
`apply`; a forgotten "Mau" is caught half the time by a random other seat. Round i of
a run with seed s is reproducible alone: `play_round(*round_setup(s, i))`.
"""

from array import array

import pytest

from engine import moves as mv
from engine.autoplay import play_game
from engine.cards import deck
from engine.rng import Random
from engine.round import Round
from engine.rules import Rules
from engine.tables import draw_pile, discard_pile

MOVE_LIMIT = 20000   # a round longer than this has stalled
SOAK_GAMES = 100000
# After this many moves "uniform" and "draws often" play first (see choose).
UNIFORM_MOVES = 5000
DRAWING_MOVES = 300
SOAK_CHUNKS = 10     # parametrized chunks, so `-n 2` can share the work

PRESET_TABLES = [("classic", p) for p in range(2, 7)] + [("nordic", p) for p in range(2, 6)]
POLICIES = ("uniform", "plays_first", "draws_often")
DECKS = ("skat32", "french52", "double104")
SIZES = {"skat32": 32, "french52": 52, "double104": 104}
SWITCHES = ("must_play_if_able", "play_drawn", "stack_sevens", "eight_skips",
            "nine_reverses", "jack_on_jack", "no_finish_on_jack")
CHOICES = {"ace": ("plain", "draw4", "play_again"),
           "mau_penalty": ("challenge", "auto", "off"),
           "last_seven": ("ends", "draws"),
           "first_card": ("plain", "turn_again")}


def random_options(rng):
    """A random valid option mix, its preset and player count."""
    preset = ("classic", "nordic")[rng.below(2)]
    players = 2 + rng.below(5)
    deck_name = DECKS[rng.below(3)]
    options = {"deck": deck_name, "max_players": players, "min_players": 2,
               "hand_size": 1 + rng.below(min(20, (SIZES[deck_name] - 1) // players))}
    for key in SWITCHES:
        options[key] = rng.below(2) == 1
    for key in CHOICES:
        options[key] = CHOICES[key][rng.below(len(CHOICES[key]))]
    return preset, options, players


def round_setup(seed, i):
    """Preset, options, players, policy and seed of round i of a run."""
    rng = Random(seed * 7919 + i)
    if i % 4 == 3:
        preset, options, players = random_options(rng)
    else:
        preset, players = PRESET_TABLES[i % len(PRESET_TABLES)]
        options = {}
    policy = POLICIES[(i // len(PRESET_TABLES)) % len(POLICIES)]
    return preset, options, players, policy, rng.below(1 << 30)


def choose(buf, n, prng, policy, count):
    """The random players. Every policy turns into "plays first" after a while: a
    player who keeps drawing can make a round last for ever, as the rules allow. And
    "plays first" makes one move in 16 uniformly, because players who always play a
    fitting drawn card can cycle for ever, also as the rules allow. Classic, 3
    players, seat 2 to move, draw pile empty, discard 8H TH (top), seat 0 holding
    every other heart, ten, eight and Jack: seat 2 draws 8H (the reshuffled pile) and
    plays it, skipping seat 0; seat 1 draws TH and plays it; and again."""
    if policy == "uniform" and count < UNIFORM_MOVES or prng.below(16) == 0:
        return buf[prng.below(n)]
    if policy == "draws_often" and count < DRAWING_MOVES and prng.below(2):
        return buf[n - 1]  # the list ends with DRAW or PASS whenever they are legal
    k = 0
    for i in range(n):
        if buf[i] < mv.DRAW:  # a play
            k += 1
    if k == 0:
        return buf[n - 1]
    j = prng.below(k)
    for i in range(n):
        if buf[i] < mv.DRAW:
            if j == 0:
                return buf[i]
            j -= 1


def play_round(preset, options, players, policy, seed):
    """One random round through the checked apply; return the number of moves."""
    rules = Rules(preset, **options)
    rnd = Round(rules, players, Random(seed), seed % players)
    prng = Random(seed ^ 0x50A4)
    buf = array("H", bytes(2 * mv.MAX_MOVES))
    for count in range(MOVE_LIMIT):
        if rnd.is_over():
            cards = bytearray(draw_pile(rnd) + discard_pile(rnd))
            for p in range(players):
                cards.extend(rnd.hand(p))
            assert sorted(cards) == sorted(deck(rules.deck_name())), "cards lost"
            return count
        debtor = rnd.debtor()
        if debtor is not None and prng.below(2) == 0:
            rnd.apply((debtor + 1 + prng.below(players - 1)) % players, mv.CATCH | debtor)
            continue
        seat = rnd.turn()
        n = rnd.legal_moves(seat, buf)
        assert n > 0, "the player to move has no legal move"
        move = choose(buf, n, prng, policy, count)
        rnd.apply(seat, move)
    raise AssertionError("round did not end within %d moves: %r"
                         % (MOVE_LIMIT, (preset, options, players, policy, seed)))


def soak(games, seed, first=0):
    moves = 0
    for i in range(first, first + games):
        setup = round_setup(seed, i)
        try:
            moves += play_round(*setup)
        except Exception as exc:  # name the round, so it can be played again alone
            raise AssertionError("round %d: play_round(*%r) failed: %r" % (i, setup, exc)) from exc
    return moves


@pytest.mark.slow
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("chunk", range(SOAK_CHUNKS))
def test_soak_100k_rounds(chunk):
    per_chunk = SOAK_GAMES // SOAK_CHUNKS
    assert soak(per_chunk, seed=2026, first=chunk * per_chunk) > 0


def test_soak_smoke_300_rounds():
    assert soak(300, seed=1) > 0


@pytest.mark.parametrize("preset,players", [("classic", 2), ("classic", 6),
                                            ("nordic", 3), ("nordic", 5)])
def test_play_game_matches_end(preset, players):
    """Whole matches (nordic: elimination over several rounds) with catching players."""
    lines = []
    for seed in range(3):
        match = play_game(Rules(preset), players, seed, lines.append)
        assert match.is_over() and match.winner() is not None
    assert lines
