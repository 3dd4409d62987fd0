"""The linked match through the real app in three MicroPython VMs, one a device
(tools/vm/mesh.py): each runs firmware.app.App on a pico_oled canvas (the VM's real
framebuf) with its board's open_link() on a real transport, played by keys: the host
hosts, the others join, all play to the final table over the fake wire's faults and a
pulled cable. The match ends exactly as the same seeded match played on one device, and
each device paints only its own seat's hand."""
import ast

import pytest

from tools.fakes.wire import Wire
from tools.sim import linkplay as lp
from tools.sim.linked import first_setup
from tools.vm import mesh
from tools.vm.mesh_proxy import serve
from host_tests.test_link_session_mesh import MODELS, pulled_cable

FAULTS = dict(drop=0.08, corrupt=0.05, duplicate=0.08, delay=20, reorder=0.08)
MODULES = ("engine", "firmware", "board_configs", mesh.PROXY, "tools/sim/linkplay.py",
           "tools/sim/linked.py")
SEED, PLAYOUTS = 7, 4

DEVICE = """
import board_configs.pico_oled as board
import linkplay as lp
from linked import first_setup
from firmware.app import App
from firmware.gfx import Canvas
from firmware.link import Link
from firmware.link_uart import UartTransport
from firmware.link_espnow import EspNowTransport
from firmware.save import Store
from mesh_proxy import ProxyUART, ProxyRadio, ticks
%(transport)s
link = Link(t, ticks, epoch=%(epoch)d)
board.open_link = lambda: link
store = Store("/save")
setup = first_setup(%(k)d, 3)
setup["limit"] = 1
store.save_settings(setup)
log, seen, waits = [], set(), []


class Hands:
    "The painter's trace, kept as the seats whose hand was painted."
    def append(self, t):
        if t[0] == "hand":
            seen.add(t[1])


class Logged(App):
    "The app, its game's every change logged (the game's on_change is App._save)."
    def _save(self, game=None):
        if game is not None:
            log.append(lp._entry(game))
        App._save(self, game)


app = Logged(board, Canvas(board.WIDTH, board.HEIGHT, board.DEPTH), store, ticks(),
             playouts=%(playouts)d, seed=%(seed)d)
app.painter.trace = Hands()


def step(n):
    app.tick(ticks())
    sc = app.screen
    if sc.name == "linkwait" and log and sc.title not in waits:
        waits.append(sc.title)              # mid-match
    if int(n) %% 10 == 0:                   # a player's key every 100 ms
        lp.by_keys(app, %(entry)r)
    return "done" if app.screen.name == "final" else ""


def report(_):
    return repr((log, sorted(seen), waits, app.screen.title, app.screen.lines))
"""


def alone(folder):
    """The same match on one device: Anna, Ben and Cleo take turns by the same keys."""
    from firmware.gfx import Canvas
    from firmware.save import Store
    from tools.sim import boards
    from tools.sim.device import firmware_app_factory
    App = firmware_app_factory()
    log = []

    class Logged(App):
        def _save(self, game=None):         # the game's on_change, called with the game
            if game is not None:
                log.append(lp._entry(game))
            App._save(self, game)

    board = boards.load("pico_oled")
    store = Store(str(folder))
    setup = first_setup(0, 3)
    setup["limit"] = 1
    store.save_settings(setup)
    app = Logged(board, Canvas(board.WIDTH, board.HEIGHT, board.DEPTH), store, 0,
                 playouts=PLAYOUTS, seed=SEED)
    now = 0
    while app.screen.name != "final" and now < 3600000:
        now += 10
        app.tick(now)
        if now % 100 == 0:
            lp.by_keys(app, "New game")
    return log, app.screen


@pytest.mark.parametrize("model", ["uart", "espnow"])
def test_three_vm_apps_play_a_linked_match_by_keys_that_ends_as_on_one_device(model, tmp_path):
    transports, make_ends, pulled = MODELS[model]
    wire = Wire(seed=5, **FAULTS)
    ends = make_ends(wire)
    entries = ("Host link play", "Join link play", "Join link play")   # 128x64's words
    vms = [mesh.VM(name, DEVICE % dict(transport=transports[k], epoch=20 + 40 * k, k=k,
                                       entry=entries[k], seed=SEED, playouts=PLAYOUTS),
                   modules=MODULES) for k, name in enumerate(("Anna", "Ben", "Cleo"))]
    between, cut = pulled_cable(wire, ends[pulled], 800, 1300)   # Cleo's, 8 s in: mid-match
    steps, out = mesh.run(vms, lambda name, fn, arg: serve(ends, arg), steps=30000,
                          between=between, timeout=900)
    print("%s: %d steps of %d ms" % (model, steps, lp.FRAME_MS))
    assert "at" in cut
    for fault in ("dropped", "corrupted", "duplicated", "delayed", "reordered"):
        assert wire.log[fault], fault
    want, final = alone(tmp_path)
    reports = {name: ast.literal_eval(o.report) for name, o in out.items()}
    log, seen, waits, title, lines = reports["Anna"]
    print("%d moves logged; the final table: %s %s" % (len(log), title, lines))
    assert waits == ["Waiting for Cleo"]       # the host paused for the pulled cable
    assert log == want                         # move by move, as on one device
    for seat, name in enumerate(("Anna", "Ben", "Cleo")):
        _, seen, _, title, lines = reports[name]
        assert seen == [seat]                  # only your own hand is painted
        assert (title, lines) == (final.title, final.lines)
