"""The new game's setup (firmware.setup): rows both ways, player words that fit, the name
list and the letter grid, refusals in sight, the last setup and names remembered."""
import importlib
import subprocess
import sys

import pytest

from engine.rules import Rules
from firmware import screens as S
from firmware import setup as U
from firmware.names import NameScreen, _GRID
from firmware.app import App
from firmware.gfx import Canvas
from firmware.save import Store

# list columns of each screen: 128x64, 72x40, PyBadge (displayio), 240x135
COLS = (15, 16, 24, 29)


def two_seats(**more):
    setup = {"seats": [["You", 0], ["Greta", 3]], "preset": "classic", "options": {},
             "match": "round", "limit": 1}
    setup.update(more)
    return setup


def press(sc, row, action=S.OK):
    """Put the cursor on `row` and act there."""
    sc.cursor = sc.rows_of.index(row)
    return sc.on(action)


# -- values both ways ---------------------------------------------------------------

def test_ok_changes_a_value_forward_and_back_changes_it_back():
    sc = U.SetupScreen(two_seats(), fit=5, cols=15)
    press(sc, ("seat", 1), S.BACK)
    assert sc.levels == [0, 2]                      # strong -> casual
    press(sc, ("seat", 1))
    press(sc, ("seat", 1))
    assert sc.levels == [0, 4]
    press(sc, ("players", 0), S.BACK)               # 2 players, back: the most (6)
    assert len(sc.levels) == 6
    press(sc, ("players", 0))
    assert len(sc.levels) == 2
    press(sc, ("preset", 0), S.BACK)                # classic, back: custom on classic
    assert sc.custom and sc.setup["preset"] == "classic"
    press(sc, ("preset", 0), S.BACK)
    assert not sc.custom and sc.setup["preset"] == "nordic"
    press(sc, ("preset", 0))
    assert sc.custom and sc.setup["preset"] == "nordic" and "Rules: custom" in sc.items
    ace = next(row for row in sc.rows_of if row[0] == "option" and row[1][0] == "ace")
    press(sc, ace, S.BACK)
    assert sc.setup["options"]["ace"] == "draw4"    # play again, back: draw 4
    press(sc, ("match", 0), S.BACK)
    assert sc.setup["match"] == "elimination" and "Out above: 100" in sc.items
    press(sc, ("limit", (50, 100, 150, 200, 300)), S.BACK)   # knockout limits
    assert sc.setup["limit"] == 50
    assert press(sc, ("start", 0), S.BACK) == S.NOTHING and sc.cursor == sc.rows_of.index(("start", 0))
    assert sc.on(S.MENU) == S.PAUSE


def test_the_hand_order_is_a_setup_row_after_start():
    sc = U.SetupScreen(two_seats(), fit=5)
    assert "Sort my hand by suit" in sc.items
    rows = sc.rows_of
    assert rows.index(("sort", 0)) == rows.index(("start", 0)) + 1
    press(sc, ("sort", 0))
    assert sc.setup["sort"] == "rank" and "Sort my hand by rank" in sc.items
    press(sc, ("sort", 0), S.BACK)
    assert sc.setup["sort"] == "suit"
    assert U.default_setup()["sort"] == "suit"


def test_the_default_rows_keep_their_places():
    """Button scripts count on Start being the 8th row of the first setup."""
    sc = U.SetupScreen(U.default_setup(), fit=9, cols=29)
    assert sc.rows_of[:8] == [("players", 0), ("seat", 0), ("seat", 1), ("seat", 2), ("seat", 3),
                              ("preset", 0), ("match", 0), ("start", 0)]
    assert sc.rows_of[8:] == [("sort", 0), ("name", 0)] and sc.cursor == 0


# -- player words -------------------------------------------------------------------

def every_row(cols):
    """Each row of the setup, custom options at every value, on a screen `cols` wide."""
    seen = set()
    for preset in ("classic", "nordic"):
        for kind, limit in (("round", 1), ("rounds", 10), ("elimination", 300)):
            sc = U.SetupScreen({"seats": [["Abcdefgh", 0], ["Greta", 4], ["Hugo", 3]],
                                "preset": preset, "options": {"ace": "plain"}, "match": kind,
                                "limit": limit}, fit=9, cols=cols)
            seen.update(sc.items)
            for row in list(sc.rows_of):
                if row[0] == "option":
                    for _ in range(len(row[1][3]) if not isinstance(row[1][3], range) else 8):
                        sc.change("option", row[1])
                        sc.rebuild()
                        seen.update(sc.items)
    return seen


@pytest.mark.parametrize("cols", COLS)
def test_every_setup_row_fits_its_screen_in_player_words(cols):
    rows = every_row(cols)
    for text in rows:
        assert len(text) <= cols, (cols, text)
        assert "_" not in text, text                 # no option names, no raw values
    for raw in ("challenge", "turn again", "draw4", "skat32", "double104", "J on J", "Upcard"):
        assert not [t for t in rows if raw in t], raw
    for words in ("Mau: if caught", "Mau: always +2", "Mau: no penalty", "Ace: play again",
                  "Deck: 104 cards", "1st card: plain", "Jack last: no", "Last 7: draws 2"):
        assert words in rows or cols > 15, words    # the short labels, on the narrow screens


def test_wide_rows_say_more():
    rows = every_row(29)
    assert "Forgot Mau: if caught" in rows and "Must play if able: yes" in rows
    assert "Custom, based on nordic" in rows and "Out above 300 points" in rows


def test_each_level_is_explained_in_the_title_in_a_line_or_in_a_few_words():
    wide = U.SetupScreen(two_seats(), fit=9, cols=29)
    narrow = U.SetupScreen(two_seats(), fit=7, cols=15)
    for sc in (wide, narrow):
        sc.on(S.NEXT)
        sc.on(S.NEXT)                              # on Greta's seat (strong)
    assert wide.title == "Counts the cards played" and narrow.title == "Counts cards"
    for sc in (wide, narrow):
        sc.on(S.BACK)
    assert wide.title == "Plays its Jacks too soon" and narrow.title == "Wastes Jacks"
    assert wide.items[2] == "2 Greta: casual" and narrow.items[2] == "2 Greta: casual"
    wide.on(S.BACK)
    assert wide.title == "Plays any card that fits" and wide.items[2] == "2 Greta: beginner"
    wide.on(S.NEXT)
    assert wide.title == "New game"                # the rules row: no level
    assert len(U.LEVEL_HINTS) == len(U.LEVEL_WORDS) == len(U.LEVELS)
    assert max(map(len, U.LEVEL_HINTS)) <= U.WIDE
    assert max(map(len, U.LEVEL_WORDS)) <= 15      # the narrowest list: 128x64


def test_the_levels_have_the_engines_names_and_random_play_is_not_offered():
    from engine import ai
    assert U.LEVELS[1:] == ai.LEVEL_NAMES[1:] and "random" not in U.LEVELS


# -- refusals in sight --------------------------------------------------------------

def test_four_players_get_seven_cards_from_32_and_a_fifth_is_refused_in_words():
    sc = U.SetupScreen(two_seats(options={"hand_size": 7, "ace": "plain"}), fit=7, cols=15)
    press(sc, ("players", 0))
    press(sc, ("players", 0))
    assert len(sc.levels) == 4
    press(sc, ("players", 0))
    assert len(sc.levels) == 2                     # the deck serves 4 hands of 7: back to 2
    press(sc, ("players", 0), S.BACK)
    assert len(sc.levels) == 4
    assert press(sc, ("start", 0)) == U.SetupScreen.START
    sc.setup["options"]["hand_size"] = 8           # 4 x 8 + 1 = 33 of 32
    assert press(sc, ("start", 0)) == U.SetupScreen.REFUSED
    assert sc.error == "4 players x 8 cards need 33 cards. The deck has 32: fewer players or cards."
    assert sc.rows_of[sc.cursor] == ("players", 0)  # the row to change
    page = sc.opened
    assert page.name == "refused" and " ".join(page.lines).startswith("4 players x 8")
    assert max(map(len, page.lines)) <= 15


def test_a_refusal_is_read_then_the_setup_is_back_on_the_row_to_change():
    for name in ("thumby", "pico_oled", "pico_display"):
        board = importlib.import_module("board_configs." + name)
        app = App(board, Canvas(board.WIDTH, board.HEIGHT, board.DEPTH), None, 0, playouts=4)
        app.act(S.OK)
        sc = app.screen
        sc.levels[1] = 0
        sc.rename(0, "Jo")
        sc.rename(1, "Jo")                         # two players called Jo
        while sc.rows_of[sc.cursor] != ("start", 0):
            app.act(S.NEXT)
        app.act(S.OK)
        page = app.screen
        assert page.name == "refused" and page.top == 0
        assert "Two players are called Jo." in " ".join(page.lines[:page.fit]), name
        app.act(S.OK)
        assert app.screen is sc and sc.rows_of[sc.cursor] == ("name", 1)
        assert sc.top <= len(sc.lines) + sc.cursor < sc.top + sc.fit    # in sight


# -- names ----------------------------------------------------------------------------

def test_the_name_list_offers_new_name_then_the_last_names_then_common_ones():
    sc = U.SetupScreen(two_seats(seats=[["Anna", 0], ["Max", 0]], names=["Kim", "Max", "Jo"]),
                       fit=7, cols=15)
    assert press(sc, ("name", 0)) == U.SetupScreen.NAME and sc.naming == 0
    names = sc.opened
    assert names.name == "names" and names.items[:3] == ["New name", "Kim", "Jo"]
    assert "Max" not in names.items and "Anna" not in names.items   # other seats' and mine
    assert "Ben" in names.items and names.title == "Player 1"
    names.cursor = 2
    assert sc.after(names, names.on(S.OK)) is sc and sc.setup["seats"][0] == ["Jo", 0]
    assert sc.after(names, S.CANCEL) is sc


def test_start_remembers_the_names_most_recent_first():
    sc = U.SetupScreen(two_seats(seats=[["Jo", 0], ["Kim", 0]], names=["Kim", "Zoe"]))
    assert press(sc, ("start", 0)) == U.SetupScreen.START
    assert sc.setup["names"] == ["Kim", "Jo", "Zoe"]
    many = ["N%d" % i for i in range(10)]
    assert U.remember(many, "Jo") == ["Jo"] + many[:U.REMEMBERED - 1]


def cell_of(letter):
    for r in range(len(_GRID)):
        if letter in _GRID[r]:
            return r, _GRID[r].index(letter)
    raise KeyError(letter)


def test_a_new_name_takes_a_row_then_a_letter_with_next_prev_ok_alone():
    sc = NameScreen(0, "", fit=7)
    assert sc.items[:2] == ["A B C D E F G", "H I J K L M N"] and sc.items[-1] == "Done"
    assert sc.title == "Name: _" and sc.col == -1
    acts = [S.NEXT, S.OK, S.PREV, S.OK,              # row H-N, opened at K; J
            S.NEXT, S.OK, S.PREV, S.PREV, S.PREV, S.OK]  # row O-U, opened at R; O
    for a in acts[:3]:
        sc.on(a)
    assert sc.items[1] == "H I[J]K L M N"
    for a in acts[3:]:
        assert sc.on(a) == S.NOTHING
    assert sc.text == "Jo" and sc.title == "Name: Jo_"
    sc.on(S.NEXT)
    sc.on(S.NEXT)                                    # the Done row
    assert sc.on(S.OK) == S.DONE and sc.text == "Jo"
    assert len(acts) + 3 == 13                       # the old letter list took 31


def test_a_wrong_row_is_left_with_back_and_back_deletes():
    sc = NameScreen(0, "Jo", fit=7)
    sc.on(S.OK)                                      # row A-G opened
    assert sc.col == 3 and sc.on(S.BACK) == S.NOTHING and sc.col == -1 and sc.text == "Jo"
    assert sc.on(S.BACK) == S.NOTHING and sc.text == "J"
    sc.on(S.BACK)
    assert sc.text == "" and sc.on(S.BACK) == S.CANCEL
    assert NameScreen(0, "Jo").on(S.MENU) == S.PAUSE


def test_with_arrows_the_cursor_is_a_cell_and_next_reads_on():
    sc = NameScreen(0, "", fit=4, arrows=True)
    assert sc.items[0] == "[A]B C D E F G" and sc.lines == []
    for a in (S.DOWN, S.NEXT, S.NEXT, S.OK, S.DOWN, S.PREV, S.PREV, S.OK):
        sc.on(a)
    assert sc.text == "Jo" and sc.items[2] == "[O]P Q R S T U"
    sc.on(S.PREV)                                    # reading order: back to the row above
    assert sc.cursor == 1 and sc.items[1] == "H I J K L M[N]"
    for _ in range(3):
        sc.on(S.DOWN)
    assert sc.cursor == 4 and sc.items[4] == "[Done]" and sc.top == 1   # scrolled into view
    sc.on(S.UP)
    assert sc.items[3] == "[V]W X Y Z _ <"
    for _ in range(5):
        sc.on(S.NEXT)
    sc.on(S.OK)
    assert sc.text == "Jo " and sc.items[3] == "V W X Y Z[_]<"
    sc.on(S.NEXT)
    sc.on(S.OK)
    assert sc.text == "Jo" and sc.col == 6            # the cursor stays on the cell
    sc.on(S.OK)
    assert sc.text == "J"

def test_names_start_with_capitals_and_stop_at_eight():
    sc = NameScreen(0, "", arrows=True)
    for letter in "MAX JOEYZ":
        r, c = cell_of(letter if letter != " " else "_")
        sc.cursor, sc.col = r, c
        sc.on(S.OK)
    assert sc.text == "Max Joey"


# -- the app: modules, memory of the last setup --------------------------------------

def test_the_setup_code_is_loaded_only_to_set_a_game_up(tmp_path):
    code = (
        "import sys\n"
        "from tools.sim import install_framebuf; install_framebuf()\n"
        "import board_configs.pico_oled as board\n"
        "from firmware.gfx import Canvas\n"
        "from firmware.app import App\n"
        "from firmware.save import Store\n"
        "from firmware.game import Game\n"
        "store = Store(%r)\n"
        "store.save_game(Game({'seats': [['Jo', 0], ['Greta', 3]], 'preset': 'classic',"
        " 'options': {}, 'match': 'round', 'limit': 1}, 1, 4))\n"
        "app = App(board, Canvas(128, 64, 1), store, 0, playouts=4)\n"
        "app.act(3)\n"                               # Continue
        "print(app.screen.name, 'firmware.setup' in sys.modules,"
        " 'firmware.rulebook' in sys.modules)\n"
        "app.title(); app.act(1); app.act(3)\n"      # New game
        "print(app.screen.name, 'firmware.setup' in sys.modules)\n" % str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out[0] != "setup" and out[1:] == ["False", "False", "setup", "True"]


def test_the_last_setup_names_and_order_are_remembered(tmp_path):
    store = Store(str(tmp_path))
    board = importlib.import_module("board_configs.pico_display")
    app = App(board, Canvas(240, 135, 4), store, 0, playouts=4)
    app.act(S.OK)
    sc = app.screen
    sc.rename(0, "Jo")
    press(sc, ("sort", 0))
    sc.cursor = sc.rows_of.index(("start", 0))
    app.act(S.OK)
    assert app.game is not None
    again = App(board, Canvas(240, 135, 4), store, 0, playouts=4)
    again.act(S.NEXT)                                # title: Continue, New game, Quit
    again.act(S.OK)
    sc = again.screen
    assert sc.name == "setup" and sc.setup["sort"] == "rank" and sc.setup["names"] == ["Jo"]
    assert sc.setup["seats"][0] == ["Jo", 0]
    press(sc, ("name", 0))
    assert sc.opened.items[:2] == ["New name", "Anna"]  # Jo sits there already


def test_a_remembered_setup_with_bad_names_is_not_offered():
    bad = two_seats(names=["A very long name"])
    assert not U.sound(bad) and U.sound(two_seats(names=["Jo"]))
    assert not U.sound(two_seats(sort="colour")) and U.sound(two_seats())
    assert not U.sound(two_seats(options={"hand_size": 16}))


# -- moved from firmware.screens ----------------------------------------------------

def test_own_names_stay_and_made_up_names_avoid_them():
    assert U.seat_names([0, 3, 3]) == ["You", "Greta", "Hugo"]
    assert U.seat_names([0, 0, 3], ["Greta", "", ""]) == ["Greta", "Ben", "Hugo"]
    assert U.seat_names([0, 0, 0], ["", "Anna", ""]) == ["Ben", "Anna", "Cleo"]
    assert U.own_names([["You", 0], ["Zoe", 0], ["Greta", 3], ["Dan", 0]]) == ["", "Zoe", "", ""]
    sc = U.SetupScreen({"seats": [["Max", 0], ["Ben", 0], ["Greta", 3]], "preset": "classic",
                        "options": {}, "match": "round", "limit": 1}, fit=5)
    assert sc.own == ["Max", "", ""]
    assert sc.items[-2:] == ["Rename Max", "Rename Ben"]
    sc.rename(1, "Max")
    assert sc.start() == U.SetupScreen.REFUSED and "Two players are called Max" in sc.error
    sc.rename(1, "")
    assert sc.setup["seats"][1][0] == "Ben" and sc.start() == U.SetupScreen.START
    sc.change("seat", 0)                          # Max's seat becomes an AI: no name row
    sc.rebuild()
    assert sc.items[-1] == "Rename You" and sc.setup["seats"][0][0] == "Greta"


def test_nordic_seats_five_and_a_sixth_is_refused():
    sc = U.SetupScreen(two_seats(), fit=5)
    while len(sc.levels) < 6:
        press(sc, ("players", 0))
    press(sc, ("preset", 0))
    assert sc.setup["preset"] == "nordic"
    assert press(sc, ("start", 0)) == U.SetupScreen.REFUSED
    assert sc.error.startswith("These rules seat 2 to 5 players.")
    assert Rules("nordic").most_players() == 5


VM_FORGET = """
import gc, sys
from firmware.gfx import Canvas
from firmware.app import App
import firmware
import firmware.game, firmware.story, engine.ai    # play's own code, loaded before measuring
class Board:
    LAYOUT = "dpad"
app = App(Board, Canvas(72, 40, 1), None, 0, playouts=4, seed=2)
"""


def test_the_setup_code_leaves_the_heap_once_play_begins():
    from tools.vm import mpvm
    steps = ["gc.collect()", "A = gc.mem_alloc()", "import firmware.setup", "gc.collect()",
             "CODE = gc.mem_alloc() - A\ndel sys.modules['firmware.setup']\n"
             "firmware.__dict__.pop('setup')", "gc.collect()", "A = gc.mem_alloc()",
             "app.act(3)\nsc = app.screen\nwhile sc.rows_of[sc.cursor][0] != 'start':\n"
             "    app.act(1)\napp.act(3)\ndel sc", "gc.collect()",
             "print('PLAY', app.screen.name, 'firmware.setup' in sys.modules,"
             " hasattr(firmware, 'setup'), CODE, gc.mem_alloc() - A)"]
    out = mpvm.run(VM_FORGET, modules=("engine", "firmware"), timeout=120,
                   heapsize=1024 * 1024, steps=steps).check().stdout.split()
    at = out.index("PLAY")
    screen, loaded, attribute, code, play = out[at + 1:at + 6]
    print("setup code %s B; heap the table screen and game add: %s B" % (code, play))
    assert screen == "table" and loaded == "False" and attribute == "False"
    assert int(play) < int(code)          # the setup's code is not among what play keeps


# Two people, one of them with a new two-letter name, from the title to the first deal,
# tap by tap (the old setup took 46 taps on every board: OK cycled values one way and
# the name was spelt on a list of 29 letters and words).
TWO_PEOPLE = {
    "pico_display": "A B B Y Y A A X X X A A  Y A X A  Y A X X X A  Y Y A  A",
    "tdisplay": "long:A long:A long:A long:A A A long:A long:A B B B long:A long:A "
                "A long:A B long:A  A long:A B B B long:A  A A long:A  long:A",
    "pico_oled": "A B B DOWN DOWN A A UP UP UP A A  DOWN RIGHT RIGHT A  DOWN LEFT LEFT A "
                 " DOWN DOWN A  A",
    "thumby": "A B B DOWN DOWN A A UP UP UP A A  DOWN RIGHT RIGHT A  DOWN LEFT LEFT A "
              " DOWN DOWN A  A",
}


@pytest.mark.parametrize("name", sorted(TWO_PEOPLE))
def test_two_people_and_a_new_name_take_a_few_taps(name, tmp_path):
    from tools.sim import boards
    from tools.sim.device import Device, firmware_app_factory
    from tools.sim.headless import Runner, parse
    steps = parse(TWO_PEOPLE[name])
    taps = sum(1 for step in steps if step[0] == "hold")
    device = Device(boards.load(name), firmware_app_factory(), str(tmp_path))
    Runner(device).run(steps + [("wait", 100)])
    game = device.app.game
    print("%s: %d taps" % (name, taps))
    assert [(game.name(k), game.is_human(k)) for k in range(game.players())] == [
        ("Anna", True), ("Jo", True)]
    assert taps <= 27                     # 24 to 27 now, 46 before


def test_the_name_screens_read_the_setup_s_limits():
    from firmware import names
    assert (names._MAX_NAME, names._WIDE) == (U._MAX_NAME, U.WIDE)
