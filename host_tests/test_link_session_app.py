"""Linked play through the real app on simulated devices (tools/sim/linked.py): the title's
Host and Join entries, the lobby, a match played by keys on three devices to the final
table, each device drawing only its own seat's hand, and the pause screens."""
import pytest

from firmware import screens as S
from tools.fakes.chipmodels import play_turn
from tools.sim import boards
from tools.sim.__main__ import seeded
from tools.sim.device import firmware_app_factory
from tools.sim import linkplay
from tools.sim.linked import Linked


class Rig:
    """One device's app, as chipmodels.play_turn drives it."""

    def __init__(self, app):
        self.app = app

    def act(self, action):
        self.app.act(action)


def linked(tmp_path, board="pico_oled", model="espnow", faults=None):
    table = Linked(boards.load(board), 3, seeded(firmware_app_factory(), 7), str(tmp_path),
                   model, 7, faults)
    for d in table.devices:
        d.app.painter.trace = []
    return table


def run(table, ms):
    for _ in range(ms // 10):
        table.frame(table.now_ms + 10, [0] * len(table.devices))


def choose(app, item):
    """linkplay.choose, asserting the item was there."""
    assert item in app.screen.items
    linkplay.choose(app, item)


def host_and_join(table):
    host, ben, cleo = [d.app for d in table.devices]
    choose(host, "Host link play")          # 128x64's words for Host a linked game
    sc = host.screen
    while sc.rows_of[sc.cursor][0] != "start":
        host.act(S.NEXT)
    host.act(S.OK)
    assert host.screen.name == "lobby"
    assert host.screen.items == ["Ben: waiting", "Cleo: waiting", "Start"]
    choose(ben, "Join link play")
    choose(cleo, "Join link play")
    for sc in (host.screen, ben.screen):   # the lobby, "Looking for a host...": 15 columns
        assert all(len(line) <= 15 for line in list(sc.lines) + sc.items + [sc.title]), sc.lines
    run(table, 1500)
    assert host.screen.items == ["Ben: joined", "Cleo: joined", "Start"]
    assert ben.screen.name == cleo.screen.name == "linkwait"
    assert ben.screen.title == cleo.screen.title == "Waiting for Anna"   # until the host starts
    choose(host, "Start")
    run(table, 300)
    return host, ben, cleo


@pytest.mark.parametrize("board, here", [("pico_oled", "here"),
                                         ("pico_display", "on this device")])
def test_a_lobby_row_says_where_a_seat_plays_in_the_words_it_has_room_for(tmp_path, board,
                                                                          here):
    table = linked(tmp_path, board)
    host = table.devices[0].app
    choose(host, "Host link play" if board == "pico_oled" else "Host a linked game")
    sc = host.screen
    while sc.rows_of[sc.cursor][0] != "start":
        host.act(S.NEXT)
    host.act(S.OK)
    choose(host, "Ben: waiting")      # Ben plays on the host: 19 letters, 15 on 128x64
    assert host.screen.items == ["Ben: " + here, "Cleo: waiting", "Start"]
    choose(host, "Ben: " + here)
    assert host.screen.items[0] == "Ben: waiting"


def step(app):
    """What a player does with the screen in front of them."""
    name = app.screen.name
    if name == "table":
        if app.screen.my_turn and not app.busy:
            play_turn(Rig(app))
    elif name == "between":
        choose(app, "Deal next round")
    elif name in ("cover", "story", "scores", "mau", "picker"):
        app.act(S.OK)


def play(table, apps, steps=4000):
    """Each of `apps` does what its screen asks, 100 ms a step, for `steps` steps or until
    every one shows the final table."""
    for _ in range(steps):
        run(table, 100)
        for app in apps:
            step(app)
        if all(app.screen.name == "final" for app in apps):
            return


def test_three_devices_play_a_linked_match_by_keys_to_the_final_table(tmp_path):
    table = linked(tmp_path)
    apps = host_and_join(table)
    play(table, apps)
    assert [app.screen.name for app in apps] == ["final"] * 3
    assert apps[1].screen.title == apps[0].screen.title      # "Greta wins!" on every device
    assert apps[1].screen.lines == apps[0].screen.lines
    for seat, app in enumerate(apps):                        # only your own hand is drawn
        hands = [t for t in app.painter.trace if t[0] == "hand"]
        assert hands and {t[1] for t in hands} == {seat}


def test_a_device_gone_quiet_shows_waiting_on_the_others_and_play_goes_on(tmp_path):
    table = linked(tmp_path)
    host, ben, cleo = host_and_join(table)
    play(table, (host, ben, cleo), 30)
    radio = table.wire.ends[2]
    table.wire.unplug(radio)                                 # Cleo walks out of range
    run(table, 3000)
    assert host.screen.name == "linkwait" and host.screen.title == "Waiting for Cleo"
    assert host.screen.items == ["Wait", "AI plays Cleo"]
    assert ben.screen.name == "linkwait" and ben.screen.title == "Waiting for Cleo"
    assert cleo.screen.name == "linkwait" and cleo.screen.title == "Waiting for Anna"
    table.wire.replug(radio)
    run(table, 3000)
    assert "linkwait" not in (host.screen.name, ben.screen.name, cleo.screen.name)


def test_the_host_hands_a_seat_whose_device_does_not_return_to_an_ai(tmp_path):
    table = linked(tmp_path)
    host, ben, cleo = host_and_join(table)
    table.wire.unplug(table.wire.ends[2])
    run(table, 3000)
    choose(host, "AI plays Cleo")
    play(table, (host, ben))
    assert host.screen.name == ben.screen.name == "final"


LOCAL_MATCH = """
import sys
from tools.sim import install_framebuf
install_framebuf()
import importlib
from firmware.app import App
from firmware.gfx import Canvas
from tools.fakes.chipmodels import play_game
board = importlib.import_module("board_configs.pico_oled")


class Rig:
    def __init__(self):
        self.app = App(board, Canvas(board.WIDTH, board.HEIGHT, board.DEPTH), None, 0,
                       playouts=4, seed=3)
        self.now = 0

    def act(self, action):
        self.app.act(action)

    def run(self, ms):
        for _ in range(ms // 50):
            self.now += 50
            self.app.tick(self.now)


rig = Rig()
print("TITLE", rig.app.screen.items)
print("END", play_game(rig, 3000))
print("LOADED", sorted(m for m in sys.modules if "link" in m))
"""


def test_a_board_that_never_links_loads_no_link_code():
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", LOCAL_MATCH], capture_output=True, text=True,
                         timeout=300, check=True).stdout
    assert "TITLE ['New game', 'Quit']" in out          # no open_link(): no link entries
    assert "END final" in out
    assert "LOADED []" in out


def test_a_reset_host_continues_the_linked_match_and_the_devices_play_on(tmp_path):
    from firmware.link import Link
    from firmware.link_espnow import EspNowTransport
    from tools.sim.device import Device
    from tools.sim.linked import with_link
    table = linked(tmp_path)
    host, ben, cleo = host_and_join(table)
    play(table, (host, ben, cleo), 40)
    moves = host.game.n_moves
    radio = table.wire.ends[0]
    table.wire.unplug(radio)                      # the host's power goes
    run(table, 3000)
    assert ben.screen.title == cleo.screen.title == "Waiting for Anna"
    table.wire.replug(radio)
    while radio.any():
        radio.irecv(0)                            # what it held is gone with the power
    board = table.devices[0].board
    link = Link(EspNowTransport(radio), table.wire.ticks, epoch=99)
    table.devices[0] = Device(with_link(board, link), seeded(firmware_app_factory(), 7),
                              str(tmp_path / "1"))
    host = table.devices[0].app
    assert host.screen.items[0] == "Continue"
    choose(host, "Continue")
    assert host.game.n_moves == moves and host.link is not None
    run(table, 2000)
    assert "linkwait" not in (host.screen.name, ben.screen.name, cleo.screen.name)
    assert bytes(ben.game.tv.s) == bytes(host.game.view(1).s)
    play(table, (host, ben, cleo))
    assert [app.screen.name for app in (host, ben, cleo)] == ["final"] * 3
