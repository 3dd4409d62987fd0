"""Golden replays: the same seed gives byte-identical replay logs on CPython and MicroPython.

Each game is played by engine.autoplay in the MicroPython VM (engine from .mpy) and on
CPython; the logs must match line for line. Covers both presets, several player counts
and a few option mixes, including long games with reshuffles and penalties, and a
match with players joining and leaving between rounds.
"""

import pytest

from engine.autoplay import play_game
from engine.rules import Rules
from tools.vm import mpvm

GAMES = (
    # preset, options, players, seed
    ("classic", {}, 2, 1),
    ("classic", {}, 3, 7),
    ("classic", {"rounds": 3}, 4, 21),
    ("classic", {"ace": "draw4", "must_play_if_able": True}, 6, 5),
    ("nordic", {}, 2, 3),
    ("nordic", {"limit": 60}, 4, 8),
    ("nordic", {"mau_penalty": "challenge", "play_drawn": True}, 5, 13),
    ("classic", {"rounds": 6}, 3, 5, True),  # players join and leave between rounds
)


def cpython_log(preset, options, players, seed, seat_changes=False):
    lines = []
    play_game(Rules(preset, **options), players, seed, lines.append,
              seat_changes=seat_changes)
    return lines


def vm_logs():
    script = ["from engine.autoplay import play_game", "from engine.rules import Rules"]
    steps = []
    for i, game in enumerate(GAMES):
        steps.append("print('GAME %d')\nplay_game(Rules(%r, **%r), %d, %d, print, "
                     "seat_changes=%r)" % ((i,) + game[:4] + (game[4:] == (True,),)))
    out = mpvm.run("\n".join(script), steps=steps, timeout=300,
                   label="golden replays").check().stdout
    logs = {}
    current = None
    for line in out.splitlines():
        if line.startswith("GAME "):
            current = logs.setdefault(int(line[5:]), [])
        elif current is not None:
            current.append(line)
    return logs


@pytest.fixture(scope="module")
def micropython_logs():
    return vm_logs()


@pytest.mark.parametrize("index", range(len(GAMES)),
                         ids=["%s-%dp-seed%d" % (g[0], g[2], g[3]) for g in GAMES])
def test_same_log_on_both_runtimes(micropython_logs, index):
    expected = cpython_log(*GAMES[index])
    got = micropython_logs[index]
    assert len(expected) > 10
    for n, (a, b) in enumerate(zip(expected, got), 1):
        assert a == b, "line %d differs:\nCPython:     %s\nMicroPython: %s" % (n, a, b)
    assert len(expected) == len(got)


def test_golden_games_are_rich():
    """The chosen games exercise reshuffles, penalties, wishes and several rounds."""
    text = "\n".join("\n".join(cpython_log(*g)) for g in GAMES)
    for needle in ('"type":"reshuffle"', '"penalty":', '"wish":', '"round":2', '"move":"catch"',
                   '"mau":true', '"type":"join"', '"type":"leave"', '"type":"match_end"'):
        assert needle in text, needle
