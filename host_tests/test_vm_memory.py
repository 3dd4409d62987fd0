"""The engine allocates nothing per move on real MicroPython (heap locked while it plays).

``micropython.heap_lock()`` makes any allocation raise MemoryError, so a game that
finishes under the lock proves that legal-move generation, the random choice and
applying moves (events included) allocate 0 bytes. Byte counts are printed by
``tools/bench/micropython.py``; this test is the yes/no proof on every run.
"""

import pytest

from tools.vm import mpvm

SCRIPT = """
import micropython
from array import array
from engine.rules import Rules
from engine.round import Round
from engine.rng import Random

def locked_games(preset, players, games, seed, **options):
    rules = Rules(preset, **options)
    rng = Random(seed)
    moves = array("H", range(200))
    rnd = Round(rules, players, rng)
    count = 0
    for g in range(games):
        rnd.deal(players, g % players)
        micropython.heap_lock()
        try:
            while not rnd.is_over():
                p = rnd.turn()
                n = rnd.legal_moves(p, moves)
                for q in range(players):  # the others' catch moves too
                    if q != p:
                        rnd.legal_moves(q, moves)
                n = rnd.legal_moves(p, moves)
                rnd.apply(p, moves[rng.below(n)])
                count += 1
        finally:
            micropython.heap_unlock()
    print("LOCKED", preset, players, count)
"""

CASES = (
    ("classic", 4, {}),
    ("classic", 2, {"ace": "draw4", "mau_penalty": "auto"}),
    ("nordic", 5, {}),
    ("nordic", 3, {"mau_penalty": "challenge", "play_drawn": True, "must_play_if_able": True}),
)


@pytest.mark.parametrize("preset,players,options", CASES)
def test_no_allocation_per_move_on_micropython(preset, players, options):
    step = "locked_games(%r, %d, 40, 3, **%r)" % (preset, players, options)
    out = mpvm.run(SCRIPT, steps=[step], timeout=180,
                   label="heap-locked games %s" % preset).check().stdout
    moves = int(out.split()[-1])
    assert moves > 1000, out
