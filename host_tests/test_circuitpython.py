"""The CircuitPython back end on the host: displayio (Adafruit Blinka) headless to PNG.

Games on the PyBadge configuration are played with key presses through the firmware's
Debouncer on a virtual clock (tools/sim/circuitpython.py), to the end of the match, with
screenshots whose content is checked: text found in the pixels, card regions, covers
without card faces. Also: only changed objects are touched, the set of displayio objects
stays fixed, the read-only drive, the keys of the shift register and the thumbstick.
"""
import errno
import os
import subprocess
import sys

import pytest

from tools.sim import circuitpython as cp

cp.quiet_sdl(True)

from firmware import buttons as B          # noqa: E402
from firmware import sheet_dio as T        # noqa: E402
from firmware.app import AI_PACE_MS        # noqa: E402
from firmware.app_dio import DriveStore, READ_ONLY_TABLE, READ_ONLY_TITLE   # noqa: E402
from firmware.paint_dio import count_objects   # noqa: E402
from tools.sim import boards, headless     # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLAYOUTS = 4


@pytest.fixture(scope="module")
def display():
    """One SDL (dummy) display for the module's games; each game hangs its own root group."""
    import displayio
    displayio.release_displays()   # Blinka allows one display: another module's (the gallery's) goes
    return cp.open_display(160, 128)


class Badge(cp.Player):
    """A PyBadge game driven by taps on its keys (virtual clock, 10 ms frames)."""

    def __init__(self, display, store=None, seed=11, board="pybadge"):
        cp.Player.__init__(self, cp.CircuitDevice(boards.load(board), display, None, 0, PLAYOUTS, seed, store))
        self.painter = self.device.painter

    def image(self):
        return self.device.image()


def card_region(image, slot, painter):
    """The pixels of hand slot `slot` (the lowered card position) as bytes."""
    x = painter.hand_x + slot * 26
    return image.crop((x, painter.hand_y, x + T.CARD_W, painter.hand_y + T.CARD_H)).tobytes()


def has_colour(image, rgb):
    return any(colour == rgb for _, colour in image.convert("RGB").getcolors(1 << 16))


def rgb(index):
    value = T.RGB[index]
    return (value >> 16, value >> 8 & 255, value & 255)


# --- the sprite sheet and the palette -------------------------------------------------

def test_palette_is_the_framebuf_painters_palette():
    from firmware import gfx
    from tools.sim.image import rgb565_to_rgb
    roles = {T.BODY: gfx.CARD, T.INK: gfx.INK, T.RED: gfx.RED, T.DIM: gfx.DIM, T.BACK: gfx.BACKSIDE,
             T.BACKPAT: gfx.BACKPAT, T.PANEL: gfx.PANEL, T.TEXT: gfx.TEXT, T.BG: gfx.BG,
             T.FELT: gfx.FELT, T.BLACK: gfx.CURSOR_INK, T.HILITE: gfx.HILITE, T.CURSOR: gfx.CURSOR,
             T.GOOD: gfx.GOOD, T.WARN: gfx.WARN}
    canvas = gfx.Canvas(8, 8, 4)
    for index, role in roles.items():
        assert rgb(index) == rgb565_to_rgb(gfx.PALETTE[canvas.ink(role)]), index
    shaded = dict(T.SHADED)
    assert shaded[T.BODY] >> 16 == rgb565_to_rgb(gfx.PALETTE[canvas.ink(gfx.SHADE)])[0]


def test_every_card_has_its_own_tiles_and_red_suits_red():
    import displayio
    sheet = T.build()
    grid = displayio.TileGrid(sheet, pixel_shader=T.palette(), width=3, height=4, tile_width=8, tile_height=8)
    seen = {}
    for suit in range(4):
        for rank in range(2, 15):
            card = suit << 4 | rank
            T.card_tiles(grid, card)
            tiles = tuple(grid[i] for i in range(12))
            assert tiles not in seen.values()
            seen[card] = tiles
            rank_tile = tiles[0]
            inks = {sheet[rank_tile * 8 + x, y] for x in range(8) for y in range(8)}
            assert (T.RED in inks) == (suit >= 2) and (T.INK in inks) == (suit < 2)
    assert len(seen) == 52


def test_the_app_sizes_its_screens_for_this_painter(display):
    badge = Badge(display)
    p = badge.painter
    assert badge.screen.name == "title" and badge.screen.fit == p.title_fit
    badge.choose("New game")
    assert badge.screen.fit == p.list_fit and badge.screen.cols <= p.cols
    badge.press_row(("start", 0))
    badge.play_to(("table",))
    t = badge.screen
    assert (t.fit, t.cols, t.status_fit) == (p.hand_fit, p.cols - 4, 3)   # room for the page mark


# --- whole games ---------------------------------------------------------------------

def test_game_against_three_ais_plays_to_the_match_end_with_checked_screens(display, tmp_path):
    shots = {}
    badge = Badge(display, DriveStore(str(tmp_path)))
    title = badge.image()
    assert cp.shows(title, "Mau-Mau") and cp.shows(title, "New game")
    badge.start()
    objects = count_objects(badge.painter.root)
    badge.play_to(("table",))
    while not badge.screen.my_turn:
        badge.wait(AI_PACE_MS)
    table = shots["table"] = badge.image()
    t = badge.screen
    assert cp.shows(table, "YOU") and cp.shows(table, "Greta")
    regions = [card_region(table, k, badge.painter) for k in range(min(t.hand_n, badge.painter.hand_fit))]
    assert len(set(regions)) == len(regions), "every card in the hand looks different"
    assert has_colour(table, rgb(T.BODY)), "card faces are drawn"
    scores = badge.play_to(("scores",))
    shots["scores"] = badge.image()
    assert scores.title.endswith((" wins", "You win")) and cp.shows(shots["scores"], scores.title)
    row = "%-6s%3d%4d" % scores.rows[0][:3]                 # a score row under its headings
    assert cp.shows(shots["scores"], row) and cp.shows(shots["scores"], "Name  Rnd Tot")
    badge.tap("A")
    assert badge.screen.name == "final"
    final = badge.image()
    assert cp.shows(final, badge.screen.title) and badge.screen.title.endswith((" wins!", "You win!"))
    assert cp.shows(final, "New game")
    assert count_objects(badge.painter.root) == objects, "the screens keep a fixed set of objects"
    assert badge.app.store.stats()["You"][0] == 1


def test_pass_and_play_covers_show_no_cards_and_hands_only_their_owner(display):
    badge = Badge(display, seed=3)
    badge.painter.trace = trace = []
    state = {"uncovered": None, "covers": 0, "hands": 0}

    def on_frame(b):
        if b.screen.name == "cover" and state["uncovered"] != ("cover", b.screen.seat):
            if state["covers"] < 4:   # the pictures of the first few covers
                image = b.image()
                assert not has_colour(image, rgb(T.BODY)), "a cover shows no card face"
                assert cp.shows(image, "Pass the device to")
            state["covers"] += 1
            state["uncovered"] = ("cover", b.screen.seat)
        for entry in trace:
            if entry[0] == "cover":
                state["uncovered"] = entry
            else:
                assert state["uncovered"] == ("cover", entry[1]), (entry, state["uncovered"])
                assert sorted(entry[2]) == sorted(b.app.game.rnd.hand(entry[1]))
                state["hands"] += 1
        trace.clear()

    badge.start(levels=[0, 0, 3])
    badge.check = on_frame
    badge.play_to(("scores",))
    assert state["covers"] >= 3 and state["hands"] >= 3


def test_a_name_is_spelt_on_the_badge_and_shown_on_the_table(display):
    badge = Badge(display, seed=4)
    badge.choose("New game")
    badge.press_row(("name", 0))
    badge.choose("New name")
    for key in ("DOWN", "RIGHT", "RIGHT", "A", "DOWN", "LEFT", "LEFT", "A"):   # J, O
        badge.tap(key)
    assert badge.screen.name == "name" and cp.shows(badge.image(), "Name: Jo_")
    badge.tap("Y")                               # Select: back, deleting the o
    assert badge.screen.text == "J"
    badge.tap("X")                               # Start: leave, the name as it was
    assert badge.screen.name == "setup" and badge.screen.items[-1] == "Rename You"
    badge.press_row(("name", 0))
    badge.choose("New name")
    for key in ("DOWN", "RIGHT", "RIGHT", "A", "DOWN", "LEFT", "LEFT", "A", "DOWN", "DOWN", "A"):
        badge.tap(key)
    assert cp.shows(badge.image(), "Rename Jo") and cp.shows(badge.image(), "1 Jo: human")
    badge.press_row(("start", 0))
    assert badge.app.game.name(0) == "Jo"


def test_a_cursor_step_touches_few_objects(display):
    badge = Badge(display)
    badge.start()
    badge.play_to(("table",))
    while not badge.screen.my_turn:
        badge.wait(AI_PACE_MS)
    before = badge.painter.updates
    badge.tap("RIGHT")
    touched = badge.painter.updates - before
    print("\nobjects changed by one cursor step: %d (of %d)" % (touched, count_objects(badge.painter.root)))
    assert 0 < touched <= 12


# --- the drive -----------------------------------------------------------------------

class MountedDrive(DriveStore):
    """The drive while a computer has it over USB: CircuitPython's writes fail with errno 30."""

    def _open(self, path, mode):
        if "w" in mode:
            raise OSError(errno.EROFS, "Read-only filesystem")
        return DriveStore._open(self, path, mode)


def test_a_read_only_drive_plays_on_and_says_so(display, tmp_path):
    badge = Badge(display, MountedDrive(str(tmp_path), read_only=True))
    assert cp.shows(badge.image(), READ_ONLY_TITLE)
    badge.start()
    badge.play_to(("table",))
    for _ in range(200):
        if READ_ONLY_TABLE.split()[0] in " ".join(badge.screen.status):
            break
        badge.wait(100)
    image = badge.image()
    assert cp.shows(image, "Not saved: the drive"), badge.screen.status
    assert badge.app.store.refused >= 1 and os.listdir(str(tmp_path)) == []
    badge.play_to(("scores",))        # the game goes on unsaved


class FullDrive(DriveStore):
    """A drive with no room left: writes fail with errno 28 halfway through."""

    def _open(self, path, mode):
        f = DriveStore._open(self, path, mode)
        if "w" in mode:
            f.close()
            raise OSError(errno.ENOSPC, "No space left on device")
        return f


def test_a_full_drive_plays_on_with_the_table_marked_not_saved(display, tmp_path):
    badge = Badge(display, FullDrive(str(tmp_path)))
    badge.start()
    badge.play_to(("table",))
    assert cp.shows(badge.image(), "NOT SAVED")
    assert badge.app.store.trouble == "Storage full: not saved" and os.listdir(str(tmp_path)) == []
    badge.play_to(("scores",))        # the game goes on unsaved


def test_a_writable_drive_offers_continue_after_a_restart(display, tmp_path):
    badge = Badge(display, DriveStore(str(tmp_path)))
    badge.start()
    badge.play_to(("table",))
    badge.tap("X")                     # Start: the pause menu
    assert badge.screen.name == "pause"
    badge.choose("Save and quit")
    again = Badge(display, DriveStore(str(tmp_path)))
    assert again.screen.items[0] == "Continue" and cp.shows(again.image(), "Continue")


def test_when_the_heap_runs_out_the_badge_is_made_again_and_continue_resumes(display, tmp_path,
                                                                             monkeypatch):
    # cp_main's loop, as firmware.main's (host_tests/test_rescue.py): the MemoryError here
    # is raised by the test at a frame's start, on the human's turn
    from firmware import cp_main, rescue
    from firmware.buttons import Debouncer
    badge = Badge(display, DriveStore(str(tmp_path)))
    badge.start()
    badge.play_to(("table",))
    old = badge.device.app
    before = (old.game.n_moves, bytes(old.table.hand[:old.table.hand_n]))
    made = []
    remade = rescue.remade_dio
    monkeypatch.setattr(rescue, "remade_dio", lambda *args: made.append(remade(*args)) or made[-1])

    class Keys(Debouncer):
        def poll(self, now):
            if not made:
                raise MemoryError("memory allocation failed, allocating 512 bytes")

    class Stop(Exception):
        pass

    def nap(seconds):
        if made:
            raise Stop()

    class Screen:
        def refresh(self):
            pass

    with pytest.raises(Stop):
        cp_main.loop(old, badge.painter, Screen(), Keys(), lambda: 50000, nap)
    new = made[0]
    assert new is not old and new.painter is badge.painter
    assert new.screen.name == "title" and new.screen.items[0] == "Continue"
    assert " ".join(new.screen.lines) == rescue.NOTICE
    assert cp.shows(badge.image(), "Continue")
    new.act(3)                                   # Continue (a device loop: over three frames)
    for now in (50010, 50020, 50030):
        new.frame(now, Keys())
    assert new.screen is new.table
    assert (new.game.n_moves, bytes(new.table.hand[:new.table.hand_n])) == before


# --- keys ----------------------------------------------------------------------------

def test_shift_register_bits_become_firmware_keys_and_badge_actions():
    import keypad
    from firmware.keys_dio import ShiftKeys, action, key_bits
    from board_configs import pybadge

    class Scanner:
        events = keypad.EventQueue(8)

    keys = ShiftKeys(Scanner, pybadge.KEYS, None, keypad.Event())
    bits = key_bits(pybadge.KEYS)
    assert [B.KEY_NAMES[bits[i]] for i in range(8)] == ["B", "A", "X", "Y", "RIGHT", "DOWN", "UP", "LEFT"]
    got = []
    for bit, name in ((1, "A"), (4, "RIGHT"), (2, "X"), (3, "Y")):
        Scanner.events.keypad_eventqueue_record(bit, True)
        keys.poll(0)
        assert keys.pressed == 1 << B.key_number(name)
        keys.poll(30)
        Scanner.events.keypad_eventqueue_record(bit, False)
        keys.poll(60)
        keys.poll(90)
        event = keys.get()
        while event >= 0:
            got.append(B.describe(event))
            if event & 7 in (B.PRESS, B.CLICK):
                got.append(action("badge", event))
                if B.describe(event) == "X PRESS":
                    assert action("dpad", event) == 0    # plain dpad: no Start key
            event = keys.get()
    assert got == ["A PRESS", B.OK, "A RELEASE", "A CLICK", 0,
                   "RIGHT PRESS", B.NEXT, "RIGHT RELEASE", "RIGHT CLICK", 0,
                   "X PRESS", B.MENU, "X RELEASE", "X CLICK", 0,
                   "Y PRESS", 0, "Y RELEASE", "Y CLICK", B.BACK]


def test_the_pygamer_thumbstick_is_the_dpad():
    from firmware.keys_dio import Stick

    class Axis:
        value = 32768

    x, y = Axis(), Axis()
    stick = Stick(x, y)
    assert stick.read() == 0
    x.value, y.value = 1000, 65000
    assert stick.read() == 1 << B.LEFT | 1 << B.DOWN
    x.value, y.value = 64000, 2000
    assert stick.read() == 1 << B.RIGHT | 1 << B.UP


# --- the device entry and the command line --------------------------------------------

def test_cp_main_imports_the_app_without_framebuf():
    code = ("import sys; sys.modules['framebuf'] = None\n"       # as on CircuitPython: no framebuf
            "from firmware.cp_main import board_module\n"
            "import firmware.app_dio, firmware.paint_dio\n"
            "from firmware.app import App\n"
            "loaded = 'firmware.paint' in sys.modules or 'firmware.gfx' in sys.modules\n"
            "print('framebuf painter loaded:', loaded)\n"
            "b = board_module('pygamer'); print(b.NAME, b.WIDTH, b.HEIGHT, b.DISPLAYIO)\n")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().endswith("Adafruit PyGamer 160 128 True")
    assert "framebuf painter loaded: False" in out.stdout


def test_command_line_headless_run_writes_screens(tmp_path):
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    script = "shot:title A shot:setup X shot:back"
    out = subprocess.run([sys.executable, "-m", "tools.sim.circuitpython", "--board", "pybadge",
                          "--mode", "headless", "--script", script, "--shots", str(tmp_path / "shots"),
                          "--save-dir", str(tmp_path / "save"), "--scale", "2"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    from PIL import Image
    title = Image.open(tmp_path / "shots" / "title.png")
    assert title.size == (320, 256)
    small = title.resize((160, 128), Image.NEAREST)
    assert cp.shows(small, "New game")
    assert cp.shows(Image.open(tmp_path / "shots" / "setup.png").resize((160, 128), Image.NEAREST), "Players: 4")


def test_figures_of_a_four_player_game(display):
    figures = cp.figures(display, seed=5, playouts=PLAYOUTS)
    figures.update(cp.vm_heap(seed=5, playouts=PLAYOUTS))
    print("\n" + cp.describe_figures(figures))
    assert figures["vm_final"] and figures["vm_code"] < figures["vm_mean"] <= figures["vm_max"]
    assert not figures["vm_framebuf_loaded"]
    assert figures["objects_start"] == figures["objects_end"]
    assert figures["moves"] > 10 and figures["final"]
    assert 0 < figures["bitmap_bytes"] < 16384


def test_the_window_takes_keyboard_keys(display):
    """The window loop (SDL's dummy driver): Z is A, so the title's New game opens the setup; Esc ends."""
    import pygame
    device = cp.CircuitDevice(boards.load("pybadge"), display, None, 0, PLAYOUTS, 1)
    pygame.event.clear()
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_z))
    pygame.time.set_timer(pygame.event.Event(pygame.KEYUP, key=pygame.K_z), 150, 1)
    pygame.time.set_timer(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE), 400, 1)
    cp.run_window(device)
    assert device.app.screen.name == "setup"
    assert cp.shows(device.image(), "Players: 4")


def test_a_table_of_ais_alone_shows_no_hand(display):
    badge = Badge(display, seed=9)
    badge.start(levels=[1, 2, 3])
    badge.play_to(("table",))
    badge.wait(AI_PACE_MS)
    image = badge.image()
    p = badge.painter
    assert all(grid.hidden for grid in p.slots) and all(fit.hidden for fit in p.fits)
    assert not has_colour(image.crop((0, p.hand_y, 160, 128)), rgb(T.BODY))
    assert badge.play_to(("scores",)).name == "scores"


# --- everything fits ---------------------------------------------------------------------

def visible_leaves(group, dx=0, dy=0, scale=1, out=None):
    """(object, x, y, scale) of each shown Label, TileGrid and Rectangle under `group`."""
    import displayio
    from adafruit_display_text import bitmap_label
    out = [] if out is None else out
    for child in group:
        if getattr(child, "hidden", False):
            continue
        x, y = dx + child.x * scale, dy + child.y * scale
        if isinstance(child, bitmap_label.Label) or not isinstance(child, displayio.Group):
            out.append((child, x, y, scale))
        else:
            visible_leaves(child, x, y, scale * child.scale, out)
    return out


_BITMAP_INK = {}


def bitmap_ink(bitmap):
    """The (x, y) of each pixel of a label's bitmap that is not 0. A label keeps its bitmap
    frame after frame: each content is read pixel by pixel once (Blinka's Bitmap keeps its
    pixels in _data, read here as the key)."""
    key = (bitmap.width, bitmap.height, bitmap._bits_per_value, bytes(bitmap._data))
    ink = _BITMAP_INK.get(key)
    if ink is None:
        ink = _BITMAP_INK[key] = [(bx, by) for bx in range(bitmap.width)
                                  for by in range(bitmap.height) if bitmap[bx, by]]
    return ink


def measure(obj, x, y, scale):
    """("label" / "grid" / "rect", box, ink pixels): a label's ink from its bitmap."""
    from adafruit_display_text import bitmap_label
    if isinstance(obj, bitmap_label.Label):
        s = scale * obj.scale
        tg, bitmap = obj.tilegrid, obj.bitmap
        ink = {(x + (tg.x + bx) * s + i, y + (tg.y + by) * s + j)
               for bx, by in bitmap_ink(bitmap) for i in range(s) for j in range(s)}
        bb = obj.bounding_box
        return "label %r" % obj.text, (x + bb[0] * s, y + bb[1] * s, bb[2] * s, bb[3] * s), ink
    if hasattr(obj, "tile_width"):
        w, h = obj.width * obj.tile_width, obj.height * obj.tile_height
        return "grid", (x, y, w * scale, h * scale), None
    return "rect", (x, y, obj.width, obj.height), None


def faults_on_screen(painter):
    """What does not fit on the displayio screen now: an object off the screen, two labels'
    ink on each other, a label's ink cut by a card or a bar (within a card or a tile it keeps
    a pixel clear of the edge and the frame)."""
    from test_fit import bounds, inside, overlap, shrink
    screen = (0, 0, painter.width, painter.height)
    things = [measure(*leaf) for leaf in visible_leaves(painter.root)
              if leaf[0] is not painter.flight]     # a card on its way passes over all
    faults = []
    for what, box, ink in things:
        if ink and not inside(bounds(ink), screen) or not ink and not inside(box, screen):
            faults.append("%s %r off the screen" % (what, box))
    labels = [t for t in things if t[2]]
    shapes = [t for t in things if not t[2] and t[1] != screen]
    for i, (what, box, ink) in enumerate(labels):
        for other, _, ink2 in labels[i + 1:]:
            if ink & ink2:
                faults.append("%s over %s" % (what, other))
        around = bounds(ink)
        for kind, area, _ in shapes:
            x, y, w, h = area
            if not overlap(around, area):        # (then no pixel of the ink is in it)
                continue
            if not any(x <= px < x + w and y <= py < y + h for px, py in ink):
                continue
            if not inside(around, shrink(area, 2, 2) if kind == "grid" else area):
                faults.append("%s at %r cut by the %s %r" % (what, around, kind, area))
    return faults


def test_every_label_and_card_fits_on_the_badge(display):
    """Through a match of three rounds on the PyBadge (and a pass-and-play match), every
    screen's labels fit: on the screen, apart, each within the card, tile or bar it is on."""
    found, seen = [], set()

    def on_frame(b):
        seen.add(b.screen.name)
        if b.screen.name == "table":
            from test_fit import table_states
            seen.update(table_states(b.screen))
        found.extend(faults_on_screen(b.painter))

    for levels, match in ((None, "rounds"), ([0, 0, 3], None)):
        badge = Badge(display, seed=3)
        badge.check = on_frame
        badge.start(levels=levels, match=match)
        badge.play_to(("final",), limit=8000)
    assert {"table", "picker", "scores", "cover", "pending", "wish", "mau", "top 10",
            "hand 10", "top Q", "hand Q"} <= seen, seen
    assert not found, "\n".join(sorted(set(found))[:20])


def test_the_ranks_on_the_badge_are_told_apart():
    """The sheet's rank tiles: any two ranks differ by three pixels or more, the 1 and the 0
    of a 10 stand apart, and no rank touches the card's edge (the 10's 1 did)."""
    from test_gfx import components
    sheet = T.build()
    glyphs = {}
    for rank in range(2, 15):
        tiles = (T.RANK + (rank - 2) * 2, T.TEN if rank == 10 else T.FACE + 1)
        glyphs[rank] = {(8 * k + x, y) for k, tile in enumerate(tiles) for x in range(8)
                        for y in range(8) if sheet[tile * 8 + x, y] == T.INK}
    for a in range(2, 15):
        for b in range(a + 1, 15):
            assert len(glyphs[a] ^ glyphs[b]) >= 3, (a, b)
        assert min(x for x, y in glyphs[a]) >= 2 and min(y for x, y in glyphs[a]) >= 1, a
    assert len(components(glyphs[10])) == 2


def test_a_played_card_flies_to_the_pile_on_the_badge(display):
    """A card played shows halfway between where it was (your hand slot, or the seat that
    played it) and the pile, the pile showing the card below, then lands on the pile."""
    badge = Badge(display, seed=11)
    p = badge.painter
    flights = {"hand": 0, "seat": 0}

    def on_frame(b):
        if p.flying < 0 or p.flight.hidden:
            return
        assert p.faces[p.hand_fit] != p.flying           # the pile: the card below
        x, y = p.flight.x, p.flight.y
        source = (2 * x - p.top.x, 2 * y - p.top.y)      # the flight shows halfway from it
        flights["hand" if source[1] > p.hand_y - 10 else "seat"] += 1
        landing = p.flying
        b.wait(200)
        assert p.flight.hidden and p.faces[p.hand_fit] == landing

    badge.start()
    badge.check = on_frame
    badge.play_to(("scores",), limit=3000)
    assert flights["hand"] >= 2 and flights["seat"] >= 4, flights
