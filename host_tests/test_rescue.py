"""When the heap runs out in a frame, the device loop makes the app again (firmware.rescue):
the title says so, and Continue resumes the match as last saved: nothing saved is lost.
The same script runs on CPython and in the MicroPython VM; the MemoryError is raised by the
test (at a frame's start, or in the middle of writing a save), the rest is the device's."""

import contextlib
import io

from tools.vm import mpvm

RESCUE = '''
import os, sys
from firmware import buttons, main, rescue
from firmware.boxes import BoxCanvas
from firmware.app import App
from firmware.save import Store

class Board:
    WIDTH, HEIGHT, DEPTH, LAYOUT = 128, 64, 1, "dpad"

class Display:
    def show(self, canvas, x, y, w, h):
        pass

class Stop(Exception):
    pass

MADE = []      # the apps firmware.rescue made
TITLES = []    # what each showed first
remade = rescue.remade
def recorded(canvas, remains, now_ms):
    MADE.append(remade(canvas, remains, now_ms))
    sc = MADE[-1].screen
    TITLES.append("%s %s: %s" % (sc.name, sc.items[0], " ".join(sc.lines)))
    return MADE[-1]
rescue.remade = recorded

class Keys(buttons.Debouncer):
    """Raises MemoryError at a frame's start at `out` ms (when `out` is set); presses A
    (Continue) 300 ms after a rescue."""
    def __init__(self, out):
        super().__init__()
        self.out = out
    def poll(self, now):
        if self.out is not None and now >= self.out:
            self.out = None
            raise MemoryError("memory allocation failed, allocating 512 bytes")
        self.feed(now, 1 << buttons.A if MADE and 300 <= now - self.since < 360 else 0)

def pass_turn(app):
    """The human to move passes, drawing first where Pass is not offered yet."""
    while app.table.my_turn:
        t = app.table
        kinds = [t.item_kind[i] for i in range(t.item_n)]
        aim = kinds.index(2) if 2 in kinds else kinds.index(1)   # Pass, else Draw
        while t.cursor != aim:
            app.act(1)
        app.act(3)


def at_my_turn(root):
    """A game against three AIs on a store at `root`, played to the human's second turn."""
    os.mkdir(root)
    app = App(Board, BoxCanvas(128, 64, 1), Store(root), 0, playouts=4, seed=3)
    app.act(3)                                         # New game
    while app.screen.rows_of[app.screen.cursor][0] != "start":
        app.act(1)
    app.act(3)                                         # Start
    now, turns = 0, 0
    while True:
        now += 1000
        app.tick(now)
        if app.table is not None and app.table.my_turn:
            turns += 1
            if turns == 2:
                return app
            pass_turn(app)


def facts(app):
    t = app.table
    return "%s moves %d hand %s" % (app.screen.name, app.game.n_moves,
                                   bytes(t.hand[:t.hand_n]).hex() if t else "-")


def looped(holder, keys):
    """The device loop on the app in `holder` (the loop holds it alone) until 2 s after a
    rescue; the rescued app's facts when it first shows the table."""
    clock = [10000]
    shown = []
    keys.since = 0

    def ticks():
        return clock[0]

    def nap(ms):
        clock[0] += ms
        if MADE and not keys.since:
            keys.since = clock[0]
        if MADE and not shown and MADE[-1].screen is MADE[-1].table:
            shown.append(facts(MADE[-1]))
        if MADE and clock[0] > keys.since + 2000 or clock[0] > 70000:
            raise Stop()
    try:
        main.loop(holder.pop(), BoxCanvas(128, 64, 1), Display(), keys, ticks, nap)
    except Stop:
        pass
    return shown[0] if shown else "no table"


# 1: the heap runs out at a frame's start, the human to move
holder = [at_my_turn("/rescue1")]
print("BEFORE1", facts(holder[0]))
after = looped(holder, Keys(10100))
print("RESCUED1", len(MADE), "firmware.rescue" in sys.modules)
print("TITLE1", TITLES[0])
print("AFTER1", after)

# 2: the heap runs out while an AI's move is saved: that move is lost, the ones before kept
MADE[:] = TITLES[:] = []
sys.modules["firmware.rescue"] = rescue    # the recording one again (the loop let it go)
holder = [at_my_turn("/rescue2")]
pass_turn(holder[0])
print("BEFORE2", facts(holder[0]))
store = holder[0].store


def half_written(name, parts):
    del store.write                        # the store writes again after this
    f = open(store.path(name) + ".tmp", "wb")
    f.write(b"MAU")                        # the start of a file, then no room
    f.close()
    raise MemoryError("memory allocation failed, allocating 1024 bytes")


store.write = half_written
after = looped(holder, Keys(None))
print("RESCUED2", len(MADE), "firmware.rescue" in sys.modules, "write" in store.__dict__)
print("AFTER2", after)
'''


def lines(stdout):
    """The script's lines of facts, by their first word."""
    return dict(line.split(" ", 1) for line in stdout.splitlines()
                if line.split(" ", 1)[0] in ("BEFORE1", "RESCUED1", "TITLE1", "AFTER1",
                                             "BEFORE2", "RESCUED2", "AFTER2"))


def check(said):
    """What the rescue must do, on either runtime."""
    assert said["BEFORE1"].startswith("table moves ") and " hand " in said["BEFORE1"]
    assert said["RESCUED1"] == "1 False"                # once; its code let go again
    assert said["TITLE1"] == "title Continue: Out of memory: the last save is safe"
    assert said["AFTER1"] == said["BEFORE1"]            # the table as it was: nothing lost
    assert said["RESCUED2"] == "1 False False"          # the store writes again
    assert said["AFTER2"] == said["BEFORE2"]            # as saved before the move it ran out in


def test_when_the_heap_runs_out_the_loop_makes_the_app_again_and_continue_resumes(tmp_path,
                                                                                monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(RESCUE.replace('"/rescue', '"rescue'), "<rescue>", "exec"),
             {"__name__": "rescue_script"})
    said = lines(out.getvalue())
    check(said)
    vm = lines(mpvm.run(RESCUE, modules=("engine", "firmware"), timeout=300).check().stdout)
    check(vm)
    assert vm == said                                   # the same game, the same rescue
