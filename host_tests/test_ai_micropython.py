"""The computer players inside the real MicroPython VM (engine loaded from .mpy).

- After warm-up (a player's first decision, which makes the Expert's scratch tables),
  every decision and every observation of every level runs under
  ``micropython.heap_lock()``: any allocation would raise MemoryError. So an Expert
  playout allocates 0 bytes, as do the Strong, Casual and Beginner decisions.
  (tools/bench/ai.py prints the byte counts; this is the yes/no proof.)
  The Expert's pondering between its decisions (walks in its kept tree while others
  move) and its next decision keeping the subtree run under the lock too.
- A whole match between all four levels finishes in the VM, in both presets.
"""

import re

import pytest

from tools.vm import mpvm
from tools.bench.ai import VM_GAMES

LOCKED_CASES = (
    ("classic", 2, (4, 4), {}),
    ("classic", 4, (4, 3, 2, 1), {}),
    ("nordic", 5, (4, 3, 2, 1, 4), {}),
    ("classic", 3, (4, 3, 1), {"ace": "draw4", "must_play_if_able": True, "mau_penalty": "auto"}),
    ("nordic", 3, (4, 2, 3), {"play_drawn": True, "mau_penalty": "challenge",
                              "deck": "french52", "no_finish_on_jack": True}),
)


@pytest.mark.parametrize("preset,players,levels,options", LOCKED_CASES)
def test_ai_allocates_nothing_per_decision_after_warm_up(preset, players, levels, options):
    step = ("t = Tally()\n"
            "games(%r, %d, %r, 6, 21, 16, True, t, ponder=8, **%r)\n"
            "print('LOCKED', t.rounds, t.moves, t.locked, t.decisions, t.playouts, t.pondered)"
            % (preset, players, levels, options))
    out = mpvm.run(VM_GAMES, steps=[step], timeout=240,
                   label="heap-locked AI %s %d" % (preset, players)).check().stdout
    rounds, moves, locked, decisions, playouts, pondered = map(int, re.search(
        r"LOCKED (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)", out).groups())
    assert rounds == 6 and moves > 50
    assert locked > moves            # decisions and observations under the lock
    assert playouts > 100            # Expert playouts among them
    if levels.count(4) < players:     # an Expert ponders when another level moves next
        assert pondered > 50


MATCH = """
from array import array
from engine.rules import Rules
from engine.match import Match
from engine.round import View
from engine import ai

def match(preset, seed):
    rules = Rules(preset)
    m = Match(rules, 4, seed)
    bots = [ai.new_player(rules, 4 - k, seed + k, 12) for k in range(4)]
    views = [View(rules) for _ in range(4)]
    moves = array("H", range(200))
    rounds = 0
    while not m.is_over():
        rnd = m.start_round()
        seated = m.seated
        for k in range(len(seated)):
            bots[seated[k]].new_round(rnd.view(k, views[seated[k]]))
        while not rnd.is_over():
            seat = rnd.turn()
            n = rnd.legal_moves(seat, moves)
            move = bots[seated[seat]].choose(rnd.view(seat, views[seated[seat]]), moves, n)
            for k in range(len(seated)):
                bot = bots[seated[k]]
                if bot.watches:
                    bot.observe(rnd.view(k, views[seated[k]]), seat, move)
            rnd.apply(seat, move)
        m.end_round()
        rounds += 1
    print("MATCH", preset, rounds, m.winner(), m.totals)
"""


@pytest.mark.parametrize("preset", ["classic", "nordic"])
def test_a_match_between_all_four_levels_finishes(preset):
    out = mpvm.run(MATCH, steps=["match(%r, 3)" % preset], timeout=240,
                   label="AI match %s" % preset).check().stdout
    found = re.search(r"MATCH (\w+) (\d+) (\d+) \[", out)
    assert found, out
    assert int(found.group(2)) >= 1 and 0 <= int(found.group(3)) < 4


def test_bench_ai_prints_every_figure():
    import io
    from tools.bench import ai as bench_ai
    figures = bench_ai.measure(decisions=3, timeout=300)
    out = io.StringIO()
    bench_ai.report(figures, out)
    text = out.getvalue()
    for needle in ("calibration loop", "RP2040 ms", "walks/s", "UI gap", "pause",
                   "heap of an Expert", "of the search"):
        assert needle in text, needle
    for key in ("alloc_classic2", "alloc_nordic5"):
        walks, allocated = figures[key][:2]
        assert walks >= 400 and allocated == 0
    for key in ("time_classic6", "walk_classic6", "time_nordic5", "walk_nordic5"):
        assert key in figures


SLICED = """
import gc, micropython
from firmware.game import Game

def sliced(preset, seats, seed, steps):
    game = Game({"seats": seats, "preset": preset}, seed, 24)
    locked = 0
    slices = 0
    looked = 0
    warm = set()
    for _ in range(steps):
        if not game.in_round():
            break
        ai = game.ai_to_act()
        key = (ai, game.rnd.turn())
        if key in warm:
            micropython.heap_lock()        # every slice after each thinker's first one
            try:
                done = game.think()
            finally:
                micropython.heap_unlock()
            locked += 1
        else:
            done = game.think()
            warm.add(key)
        slices += 1
        if done:
            if ai:
                game.step_ai(False)
            elif looked == 3:              # the human looked for a few frames (pondering)
                looked = 0
                game.play(game.hint(False))
            else:
                looked += 1
    print("SLICED", preset, slices, locked)
"""


@pytest.mark.parametrize("preset", ["classic", "nordic"])
def test_the_firmware_thinks_in_slices_without_allocating(preset):
    # The firmware's Game searches in slices (think) for the AI due, and ponders in the
    # slices of the human to move: after each one's first slice, every slice runs
    # heap-locked.
    seats = [["Ann", 0], ["Bot", 4], ["Cat", 3]]
    out = mpvm.run(SLICED, steps=["sliced(%r, %r, 5, 400)" % (preset, seats)], timeout=300,
                   modules=("engine", "firmware"),
                   label="sliced search %s" % preset).check().stdout
    slices, locked = map(int, re.search(r"SLICED \S+ (\d+) (\d+)", out).groups())
    assert locked > 30 and slices > locked
