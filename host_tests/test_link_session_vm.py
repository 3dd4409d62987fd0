"""The link session in the MicroPython VM: three devices (the host with its AI seat and
two clients, each on its own firmware Link) over the fake wire's faults and a pulled
cable, from .mpy files; the match ends exactly as the same seeded match on one device
in CPython."""
import ast

import pytest

from tools.sim import linkplay as lp
from tools.vm import mpvm

NAMES, LEVELS = ["Hana", "Ivo", "Jun", "Greta"], [0, 0, 0, 2]

MAIN = """
import linkplay as lp
from wire import Wire
from linked import links
w = Wire(seed=7, drop=0.1, corrupt=0.05, duplicate=0.1, delay=20, reorder=0.1)
setup = lp.setup_of(%r, %r, rounds=2)
def clock(now):
    w.now_us = now * 1000
t = lp.Table(setup, 7, links(%r, w, 3), ["Ivo", "Jun"], clock=clock)
"""
CUT = """
t.run(until=lambda t: len(t.log) > 20)
w.unplug(w.ends[-1])
t.run(frames=400)
print("PAUSED", t.host.waiting, len(t.log))
t.run(frames=200)
print("STILL", len(t.log))
w.replug(w.ends[-1])
"""
STEP = """
if not (t.game.match_over() and all(c.game.match_over() for c in t.clients)):
    t.run(frames=200)
"""
END = """
print("DONE", t.game.match_over(), all(c.game.match_over() for c in t.clients))
print("LOG", t.log)
"""


@pytest.mark.parametrize("model", ["uart", "espnow"])
def test_a_linked_match_in_micropython_ends_as_on_one_device(model):
    result = mpvm.run(MAIN % (NAMES, LEVELS, model),
                      modules=("engine", "firmware", "tools/fakes/wire.py", "tools/sim/linked.py",
                               "tools/sim/linkplay.py"),
                      steps=[CUT, (STEP, 150), END], timeout=600).check()
    lines = dict(line.split(" ", 1) for line in result.stdout.splitlines() if " " in line)
    paused = lines["PAUSED"].split()
    assert paused[0] == "Jun" and lines["STILL"] == paused[1]   # the match waited for Jun
    assert lines["DONE"] == "True True"
    alone, _ = lp.play_alone(lp.setup_of(NAMES, LEVELS, rounds=2), 7)
    assert ast.literal_eval(lines["LOG"]) == alone
