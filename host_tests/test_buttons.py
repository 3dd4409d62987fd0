"""Buttons: recorded bouncing pin traces give exactly the expected key events.

A trace is what a logic analyser records on the pins: (time in ms, pressed-keys mask)
at every level change. `replay` polls it like the device's main loop does and returns
(time, event name) for every event. The trace tests (`test_trace_*`) import nothing
but firmware.buttons, so they run unchanged inside the MicroPython VM too (the last
test here does that).
"""
from firmware import buttons
from firmware.buttons import (A, B, CLICK, DOWN, LEFT, LONG, PRESS, RELEASE, REPEAT,
                              RIGHT, UP, X, Y, Debouncer, action, describe, event)

BIT_A = 1 << A
BIT_B = 1 << B


def replay(trace, end_ms, poll_ms=1, start_ms=0):
    """Poll a level trace every poll_ms until end_ms; return [(ms, 'KEY KIND'), ...]."""
    deb = Debouncer()
    out = []
    level = 0
    i = 0
    t = start_ms
    while t <= end_ms:
        while i < len(trace) and trace[i][0] <= t:
            level = trace[i][1]
            i += 1
        deb.feed(t, level)
        e = deb.get()
        while e != -1:
            out.append((t, describe(e)))
            e = deb.get()
        t += poll_ms
    return out


def names(events):
    """The event names of replay's output, without times."""
    return [name for _, name in events]


# A press whose contact chatters for 5 ms on the way down and 4 ms on the way up.
CHATTER = ((0, BIT_A), (1, 0), (2, BIT_A), (3, 0), (5, BIT_A),
           (200, 0), (201, BIT_A), (202, 0), (204, BIT_A), (205, 0))

# Held for a second, clean edges.
HOLD = ((100, BIT_A), (1100, 0))

# Two quick presses: 60 ms down, 70 ms up, 60 ms down, each edge chattering.
DOUBLE = ((0, BIT_A), (2, 0), (3, BIT_A), (60, 0), (61, BIT_A), (62, 0),
          (132, BIT_A), (133, 0), (134, BIT_A), (194, 0), (196, BIT_A), (197, 0))


def test_trace_chattering_press_is_one_click():
    got = replay(CHATTER, 400)
    assert got == [(25, "A PRESS"), (225, "A RELEASE"), (225, "A CLICK")], got


def test_trace_long_press_repeats_until_release():
    got = replay(HOLD, 1300)
    assert got == [(120, "A PRESS"), (700, "A LONG"), (850, "A REPEAT"),
                   (1000, "A REPEAT"), (1120, "A RELEASE")], got


def test_trace_two_quick_presses_are_two_clicks():
    got = replay(DOUBLE, 400)
    assert got == [(23, "A PRESS"), (82, "A RELEASE"), (82, "A CLICK"),
                   (154, "A PRESS"), (217, "A RELEASE"), (217, "A CLICK")], got


def test_trace_glitch_shorter_than_stable_time_is_ignored():
    trace = ((10, BIT_B), (29, 0), (50, BIT_B), (55, 0), (56, BIT_B), (60, 0))
    assert replay(trace, 300) == []


def test_trace_same_events_at_a_slower_poll():
    # the device loop polls every few ms; only the times move
    for poll in (2, 5, 10):
        for trace, end in ((CHATTER, 400), (HOLD, 1300), (DOUBLE, 400)):
            fine = replay(trace, end)
            coarse = replay(trace, end, poll)
            assert names(coarse) == names(fine), (poll, coarse)
            for (t1, _), (t2, _) in zip(fine, coarse):
                assert abs(t2 - t1) < poll + 5, (poll, fine, coarse)  # 5: chatter a poll misses


def test_trace_two_keys_overlapping():
    both = BIT_A | 1 << RIGHT
    trace = ((0, 1 << RIGHT), (100, both), (101, 1 << RIGHT), (102, both),
             (300, BIT_A), (800, 0))
    got = replay(trace, 1000)
    assert got == [(20, "RIGHT PRESS"), (122, "A PRESS"), (320, "RIGHT RELEASE"),
                   (320, "RIGHT CLICK"), (702, "A LONG"), (820, "A RELEASE")], got


def test_trace_stall_gives_one_repeat_not_a_burst():
    # the loop was busy (an AI turn) from 50 to 1200 ms while the key was held
    deb = Debouncer()
    for t in range(0, 51):
        deb.feed(t, BIT_A)
    deb.feed(1200, BIT_A)
    deb.feed(1201, BIT_A)
    got = []
    e = deb.get()
    while e != -1:
        got.append(describe(e))
        e = deb.get()
    assert got == ["A PRESS", "A LONG"], got
    deb.feed(1340, BIT_A)
    assert deb.get() == -1
    deb.feed(1351, BIT_A)
    assert describe(deb.get()) == "A REPEAT"


def test_trace_queue_is_fixed_and_drops_when_full():
    deb = Debouncer()
    queue = deb.queue
    size = len(queue)        # 32 events
    t = 0
    for n in range(40):  # 40 clicks, 3 events each, nobody reading
        deb.feed(t, BIT_B)
        deb.feed(t + 20, BIT_B)
        deb.feed(t + 30, 0)
        deb.feed(t + 50, 0)
        t += 60
    assert deb.queue is queue and len(queue) == size == 32
    assert deb.count == size
    assert deb.dropped == 40 * 3 - size
    first = [describe(deb.get()) for _ in range(3)]
    assert first == ["B PRESS", "B RELEASE", "B CLICK"], first


def test_trace_starting_with_a_key_held():
    # a key held at power-on counts once it has been stable, like any press
    assert names(replay(((0, BIT_B), (700, 0)), 800)) == [
        "B PRESS", "B LONG", "B RELEASE"]


# --- actions: the table of docs/firmware.md --------------------------------------

KINDS = (PRESS, LONG, REPEAT, RELEASE, CLICK)

TABLE = {
    "two": {(A, CLICK): buttons.NEXT, (B, CLICK): buttons.PREV,
            (A, LONG): buttons.OK, (B, LONG): buttons.MENU},
    "abxy": {(Y, PRESS): buttons.NEXT, (Y, REPEAT): buttons.NEXT,
             (X, PRESS): buttons.PREV, (X, REPEAT): buttons.PREV,
             (A, PRESS): buttons.OK, (B, CLICK): buttons.BACK, (B, LONG): buttons.MENU},
    "dpad": {(RIGHT, PRESS): buttons.NEXT, (RIGHT, REPEAT): buttons.NEXT,
             (LEFT, PRESS): buttons.PREV, (LEFT, REPEAT): buttons.PREV,
             (A, PRESS): buttons.OK, (B, CLICK): buttons.BACK, (B, LONG): buttons.MENU,
             (UP, PRESS): buttons.ACT_UP, (UP, REPEAT): buttons.ACT_UP,
             (DOWN, PRESS): buttons.ACT_DOWN, (DOWN, REPEAT): buttons.ACT_DOWN},
}


def test_trace_actions_match_the_table():
    for layout in TABLE:
        expected = TABLE[layout]
        for key in range(8):
            for kind in KINDS:
                got = action(layout, event(key, kind))
                want = expected.get((key, kind), 0)
                assert got == want, (layout, describe(event(key, kind)), got, want)


def test_trace_action_values_are_the_contract():
    assert (buttons.NEXT, buttons.PREV, buttons.OK, buttons.BACK, buttons.MENU,
            buttons.ACT_UP, buttons.ACT_DOWN) == (1, 2, 3, 4, 5, 6, 7)
    assert (UP, DOWN, LEFT, RIGHT, A, B, X, Y) == tuple(range(8))
    assert (PRESS, LONG, REPEAT, RELEASE, CLICK) == (1, 2, 3, 4, 5)
    assert event(Y, CLICK) == 7 << 3 | 5


def test_trace_unknown_layout_is_an_error():
    try:
        action("joystick", event(A, PRESS))
    except ValueError:
        return
    assert False, "an unknown layout must raise"


# --- CPython only from here: the device class with fake pins, and the VM run --------

def test_buttons_reads_pins_active_low(monkeypatch):
    from tools.fakes import chipmodels
    chipmodels.install_machine(monkeypatch)
    keys = (("A", 12), ("B", 13), ("X", 14), ("Y", 15), ("A", 3))
    pad = buttons.Buttons(keys, no_pull=(13,))
    pins = chipmodels.FakePin.made
    assert pins[12].pull == chipmodels.FakePin.PULL_UP and pins[13].pull is None
    assert all(pins[g].mode == chipmodels.FakePin.IN for g in (12, 13, 14, 15, 3))
    assert pad.read() == 0
    pins[3].level = 0            # the Waveshare joystick press is a second A
    pins[15].level = 0
    assert pad.read() == BIT_A | 1 << Y
    for t in range(0, 30):
        pad.poll(t)
    got = sorted(describe(pad.get()) for _ in range(2))
    assert got == ["A PRESS", "Y PRESS"] and pad.get() == -1


def test_vm_runs_the_trace_tests(tmp_path):
    """Every test_trace_* above, inside the MicroPython VM, from .mpy files."""
    import shutil
    from tools.vm import mpvm
    tests = [n for n in mpvm.list_tests(__file__) if n.startswith("test_trace")]
    shutil.copy(__file__, tmp_path / "test_buttons.py")
    outcomes, result = mpvm.run_tests("test_buttons", tests, folder=tmp_path,
                                      modules=("engine", "firmware"), timeout=120)
    missing = [n for n in tests if n not in outcomes]
    assert not missing, (missing, result.traceback(), result.stdout[-2000:])
    failed = ["%s\n%s" % (n, o.traceback) for n, o in outcomes.items() if not o.passed]
    assert not failed, "\n".join(failed)


def test_feeding_allocates_nothing_on_micropython():
    """A whole chattering, long and double-press session under micropython.heap_lock()."""
    from tools.vm import mpvm
    script = """
import micropython
from firmware.buttons import Debouncer
TRACE = %r
deb = Debouncer()
def session():
    level = 0
    i = 0
    n = 0
    micropython.heap_lock()
    try:
        for t in range(3000):
            while i < len(TRACE) and TRACE[i][0] <= t:
                level = TRACE[i][1]
                i += 1
            deb.feed(t, level)
            while deb.get() != -1:
                n += 1
    finally:
        micropython.heap_unlock()
    print("EVENTS", n)
""" % (CHATTER + tuple((t + 400, m) for t, m in HOLD) + tuple((t + 1700, m) for t, m in DOUBLE),)
    out = mpvm.run(script, modules=("engine", "firmware"), steps=["session()"],
                   timeout=60).check().stdout
    assert out.split()[-1] == str(3 + 5 + 6), out
