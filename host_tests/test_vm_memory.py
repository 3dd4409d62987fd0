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


# A game on the Thumby's fake pins, its game and table screen each carrying 32 KB of
# ballast (a test's stand-in for a weak reference, which MicroPython lacks), played to its
# final table, then New game: on the next setup screen the heap in use is the first setup
# screen's give or take a few KB (the collector is conservative), not 32 or 64 KB more.
EVENING = """
import gc
import chipmodels
import board_configs.thumby as board

BALLAST = 32 * 1024

def in_use():
    gc.collect()
    return gc.mem_alloc()

rig = None
USED = [0, 0]

def begin():
    global rig
    import firmware.game, firmware.story, engine.ai, engine.text   # what a game imports
    rig = chipmodels.Rig(board, seed=3, playouts=2, model=False)
    chipmodels.FakePin.record = chipmodels.FakeSPI.record = False
    chipmodels.choose(rig, "New game")      # the first setup screen

def first_setup():
    USED[0] = in_use()

def deal():
    sc = rig.app.screen
    while sc.rows_of[sc.cursor][0] != "start":
        rig.act(1)
    rig.act(3)
    rig.app.game.ballast = bytearray(BALLAST)
    rig.app.table.ballast = bytearray(BALLAST)

def to_final():
    assert chipmodels.play_game(rig, 3000) == "final", rig.app.screen.name
    chipmodels.choose(rig, "New game")      # the next game's setup screen

def next_setup():
    USED[1] = in_use()
    print("HEAP setup %d after a game %d" % tuple(USED))
"""


def on_a_board(script, steps, label):
    """The VM's output of `script`'s `steps` with the app on chipmodels' fake machine."""
    from tools.fakes.chipmodels import VM_MACHINE
    return mpvm.run(script, modules=("engine", "firmware", "board_configs",
                                     "tools/fakes/chipmodels.py"),
                    extra_files={"/lib/machine.py": VM_MACHINE}, steps=steps, timeout=300,
                    label=label).check().stdout

def test_the_finished_game_is_released_before_the_next_deal():
    """The finished game and its table screen are unreachable once the final table
    shows: the next deal never needs room for two games."""
    from tools.bench.micropython import SCRUB
    steps = ["begin()", SCRUB, "first_setup()", "deal()", "to_final()", SCRUB, "next_setup()"]
    out = on_a_board(EVENING, steps, "a finished game's heap")
    first, after = (int(x) for x in out.split("HEAP setup")[1].split()[::4])
    # each kept ballast would add 32 KB; the conservative collector's stale pointers and
    # what the first game left cached vary by a few KB (1.7 to 10.5 KB seen)
    assert after - first < 16 * 1024, out


# What the ballast tests share: 32 KB to hang on a thing, and the heap in use noted.
BALLASTED = """
import gc
import sys

BALLAST = 32 * 1024
USED = []

def in_use():
    gc.collect()
    USED.append(gc.mem_alloc())
"""


# A match of 3 rounds on the Thumby's fake pins. A module used for one phase carries 32 KB
# of ballast on its globals while the phase is on (the Rules pages' firmware.rulebook, the
# pause menu's firmware.paint_list, the round end's firmware.between); once the phase is
# over the heap is back where it was before it, give or take a few KB, not 32 KB more.
PHASES = BALLASTED + """
import chipmodels
import board_configs.thumby as board
from firmware.save import Store

rig = None

def weigh(name):
    __import__(name)
    sys.modules[name].ballast = bytearray(BALLAST)

def begin():
    global rig
    store = Store("/")
    store.save_settings({"seats": [["You", 0], ["Greta", 3], ["Hugo", 3]],
                         "preset": "classic", "options": {}, "match": "rounds", "limit": 3})
    rig = chipmodels.Rig(board, seed=3, playouts=2, model=False, store=store)
    chipmodels.FakePin.record = chipmodels.FakeSPI.record = False
    chipmodels.choose(rig, "New game")
    while rig.app.screen.rows_of[rig.app.screen.cursor][0] != "start":
        rig.act(1)
    rig.act(3)
    while rig.app.screen.name != "table":
        rig.act(3)

def rules_pages():
    weigh("firmware.rulebook")
    rig.act(5)
    chipmodels.choose(rig, "Rules")
    while rig.app.screen.name == "rules":
        rig.act(3)
    chipmodels.choose(rig, "Resume")

def pause_menu():
    rig.act(5)                           # the pause menu: a list screen over the table
    weigh("firmware.paint_list")
    chipmodels.choose(rig, "Resume")

def to_scores():
    while rig.app.screen.name != "scores":
        if rig.app.screen.name == "table" and rig.app.screen.my_turn:
            chipmodels.play_turn(rig)
        elif rig.app.screen.name == "table":
            rig.run(1000)
        else:
            rig.act(3)

def next_round():
    weigh("firmware.between")
    rig.act(3)                           # the scores read
    chipmodels.choose(rig, "Deal next round")
    while rig.app.screen.name != "table":
        rig.act(3)

def report():
    print("HEAP", *USED)
"""


def test_a_phase_module_leaves_the_heap_when_its_phase_ends():
    """The Rules pages' module, the list screens' painting and the round end's module are
    unreachable once play goes on."""
    from tools.bench.micropython import SCRUB
    steps = ["begin()", SCRUB, "in_use()", "rules_pages()", SCRUB, "in_use()",
             "pause_menu()", SCRUB, "gc.collect()", SCRUB, "in_use()",
             "to_scores()", SCRUB, "in_use()", "next_round()", SCRUB, "in_use()", "report()"]
    out = on_a_board(PHASES, steps, "a phase's modules leave")
    table, after_rules, after_pause, scores, next_table = (
        int(x) for x in out.split("HEAP")[1].split())
    assert after_rules - table < 16 * 1024, out      # the same table, the pages read
    assert after_pause - table < 16 * 1024, out      # ... and the pause menu left
    assert next_table - scores < 16 * 1024, out      # the next round's table


# The Thumby's setup screen carrying 32 KB of ballast, Start pressed, then one VM call a
# frame with a collection before each (a device collects when an allocation needs room):
# at the start of the frame that deals the match, the setup screen is gone from the heap.
DEAL = """
import gc
import chipmodels
import board_configs.thumby as board

BALLAST = 32 * 1024
rig = None
USED = []      # the setup screen with its ballast; then the start of the frame that dealt

def begin():
    global rig
    import firmware.game, firmware.story, engine.ai, engine.text   # what a game imports
    rig = chipmodels.Rig(board, seed=3, playouts=2, model=False)
    chipmodels.FakePin.record = chipmodels.FakeSPI.record = False
    chipmodels.choose(rig, "New game")
    sc = rig.app.screen
    while sc.rows_of[sc.cursor][0] != "start":
        rig.act(1)
    sc.ballast = bytearray(BALLAST)

def on_setup():
    USED.append(gc.mem_alloc())
    rig.pins["A"].level = 0             # Start pressed; the frames follow one a call

def frame():
    if rig.app.game is None:
        used = gc.mem_alloc()
        rig.frame()
        if rig.app.game is not None:
            USED.append(used)

def report():
    print("HEAP", *USED)
"""


def test_the_setup_screen_is_let_go_before_the_deal():
    """The match is dealt on a later frame than the one that leaves the setup screen:
    the deal never needs room beside the setup screen and its code."""
    from tools.bench.micropython import SCRUB
    steps = ["begin()", SCRUB, "gc.collect()\non_setup()"]
    steps += [SCRUB, "gc.collect()\nframe()"] * 20 + ["report()"]
    out = on_a_board(DEAL, steps, "the deal after the setup")
    setup, dealing = (int(x) for x in out.split("HEAP")[1].split())
    assert dealing < setup - 24 * 1024, out     # the ballast (32 KB) no longer in use


# The title and the setup on a Thumby, then Start: which of the game's own modules
# (firmware.game and what it imports: firmware.between.GAME_CODE) are loaded, and
# whether a match is dealt, frame by frame.
LOADS = """
import sys
import chipmodels
import board_configs.thumby as board

rig = None

def loaded():
    print("LOADED", *[name for name in CODE if name in sys.modules])
    print("DEALT", rig.app.game is not None)

def begin():
    global rig
    rig = chipmodels.Rig(board, seed=3, playouts=2, model=False)
    chipmodels.FakePin.record = chipmodels.FakeSPI.record = False
    loaded()

def to_setup():
    chipmodels.choose(rig, "New game")
    sc = rig.app.screen
    while sc.rows_of[sc.cursor][0] != "start":
        rig.act(1)
    loaded()
    rig.pins["A"].level = 0             # Start pressed; the frames follow one a call

def frame():
    rig.frame()
    loaded()

def to_final():
    assert chipmodels.play_game(rig, 3000) == "final", rig.app.screen.name
    loaded()
"""


def test_the_games_code_is_loaded_on_the_frame_before_its_deal():
    """The title and the setup load none of the game's code (Start checks the setup with
    engine.rules alone); the frame after Start loads it all, the next one deals."""
    from firmware.between import GAME_CODE
    script = LOADS + "CODE = %r\n" % (GAME_CODE,)
    out = on_a_board(script, ["begin()", "to_setup()"] + ["frame()"] * 30, "the game's code")
    loads = [line.split()[1:] for line in out.splitlines() if line.startswith("LOADED")]
    dealt = [line == "DEALT True" for line in out.splitlines() if line.startswith("DEALT")]
    assert loads[0] == loads[1] == [], out          # the title, the setup
    first = dealt.index(True)
    assert sorted(loads[first - 1]) == sorted(GAME_CODE) and not dealt[first - 1], out
    assert loads[first - 2] == ["engine.rules"], out          # the frame Start was taken


def test_the_final_table_lets_go_of_the_games_code():
    """A match played to its final table: none of the game's code stays loaded (the next
    match's deal imports it again)."""
    from firmware.between import GAME_CODE
    script = LOADS + "CODE = %r\n" % (GAME_CODE,)
    out = on_a_board(script, ["begin()", "to_setup()"] + ["frame()"] * 30 + ["to_final()"],
                     "the final table")
    loads = [line.split()[1:] for line in out.splitlines() if line.startswith("LOADED")]
    assert sorted(loads[-2]) == sorted(GAME_CODE) and loads[-1] == [], out


def test_the_boot_code_leaves_before_play():
    """firmware.main starts the app with firmware.boot and lets go of it, and of
    board_configs' wiring helpers, before the loop: the board's own module stays."""
    out = on_a_board("import sys\nfrom firmware.main import _started\n"
                     "app, canvas, display, keys = _started('thumby')\n"
                     "print('LOADED', 'firmware.boot' in sys.modules, 'board_configs' in sys.modules,"
                     " 'board_configs.thumby' in sys.modules, app.screen.name)", [], "boot")
    assert "Mau-Mau ready on" in out and "LOADED False False True title" in out, out


# A human's turn against strong AIs: no AI there is an Expert or of an easy level, so
# engine.expert and engine.easy are not imported. Looking at the table makes nothing; the
# hint is Strong's choice (no Expert plays here), its player let go with the answer:
# engine.expert and engine.search are never imported.
HINT = BALLASTED + """
from firmware.game import Game

game = None

def begin():
    global game
    game = Game({"seats": [["You", 0], ["Greta", 3], ["Hugo", 3]], "preset": "classic",
                 "options": {}, "match": "round", "limit": 1}, 3, 8)
    while game.ai_to_act():
        game.step_ai()
    modules()

def modules():
    print("LOADED", "engine.expert" in sys.modules, "engine.search" in sys.modules,
          "engine.easy" in sys.modules)

def looks():
    for _ in range(20):         # frames while the human looks at the hand
        game.think()

def hint():
    gc.disable()
    before = gc.mem_alloc()
    game.hint()
    print("ASKED", gc.mem_alloc() - before)
    gc.enable()

def report():
    print("HEAP", *USED)
"""


def test_a_hint_at_a_table_of_strong_ais_loads_no_expert_and_leaves_nothing():
    """Strong AIs import no Expert code, nor the easy levels'; looking makes nothing; the
    hint (Strong's choice) loads neither engine.expert nor engine.search, and its player
    goes once it has answered."""
    from tools.bench.micropython import SCRUB
    steps = ["begin()", SCRUB, "in_use()", "looks()", SCRUB, "in_use()", "hint()", SCRUB,
             "gc.collect()", SCRUB, "in_use()", "modules()", "report()"]
    out = mpvm.run(HINT, modules=("engine", "firmware"), steps=steps, timeout=300,
                   label="the hint at a Strong table").check().stdout
    assert out.count("LOADED False False False") == 2, out
    table, looked, hinted = (int(x) for x in out.split("HEAP")[1].split())
    assert looked - table < 1024, out
    assert hinted - table < 1024, out           # a Strong player is 0.5 KB: it is gone
    assert int(out.split("ASKED")[1].split()[0]) < 2048, out   # no code loaded to answer


def test_the_easy_levels_code_is_imported_for_an_easy_ai_only():
    """A table of Strong AIs loads no easy level's code (engine.easy); a Beginner's does."""
    script = """
import sys
from firmware.game import Game

def table(level):
    Game({"seats": [["You", 0], ["Greta", 3], ["Hugo", level]], "preset": "classic",
          "options": {}, "match": "round", "limit": 1}, 3, 8)
    print("EASY", level, "engine.easy" in sys.modules)
"""
    out = mpvm.run(script, modules=("engine", "firmware"), steps=["table(3)", "table(1)"],
                   timeout=120, label="the easy levels' code").check().stdout
    assert "EASY 3 False" in out and "EASY 1 True" in out, out

# The Thumby between two rounds of a match of 3: firmware.between carries 32 KB of
# ballast, Deal next round pressed, then one VM call a frame with a collection before each:
# at the start of the frame that deals the round, the code between rounds is gone.
NEXT_ROUND = PHASES + """
DEALT = []     # the screen between rounds with its ballast; then the frame that dealt

def to_between():
    to_scores()
    rig.act(3)                           # the scores read: who joins or leaves
    weigh("firmware.between")

def on_between():
    DEALT.append(gc.mem_alloc())
    rig.pins["A"].level = 0              # Deal next round (the cursor is on it)

def frame():
    if rig.app.screen.name != "table":
        used = gc.mem_alloc()
        rig.frame()
        if rig.app.screen.name == "table":
            DEALT.append(used)

def dealt():
    print("DEALT", *DEALT)
"""


def _shown_then_dealt(script, to_screen, label):
    """Run `script` to `to_screen` (32 KB of ballast hung on what that screen uses), then a
    VM call a frame: the heap in use on that screen and at the start of the frame that deals."""
    from tools.bench.micropython import SCRUB
    steps = ["begin()", to_screen, SCRUB, "gc.collect()\non_between()"]
    steps += [SCRUB, "gc.collect()\nframe()"] * 20 + ["dealt()"]
    out = on_a_board(script, steps, label)
    shown, dealing = (int(x) for x in out.split("DEALT")[1].split())
    return shown, dealing, out


def test_the_next_round_is_dealt_after_the_code_between_rounds_is_let_go():
    """Deal next round deals on the frame after: the round never needs room beside the
    code between rounds and the list screens' painting."""
    between, dealing, out = _shown_then_dealt(NEXT_ROUND, "to_between()",
                                              "the next round after the code between rounds")
    assert dealing < between - 24 * 1024, out     # the ballast (32 KB) no longer in use


# Saved and quit at the Thumby's table, the title's list painting carrying 32 KB of
# ballast, Continue pressed, then one VM call a frame: at the start of the frame that
# loads the match, the list screens' painting is gone from the heap.
CONTINUE = NEXT_ROUND + """
def to_title():
    rig.act(5)
    chipmodels.choose(rig, "Save and quit")
    weigh("firmware.paint_list")
"""


def test_a_saved_match_is_loaded_after_the_title_s_painting_is_let_go():
    """Continue loads the match on the frame after: never beside the list painting."""
    title, loading, out = _shown_then_dealt(CONTINUE, "to_title()", "a saved match after the title")
    assert loading < title - 24 * 1024, out     # the ballast (32 KB) no longer in use


# The Thumby's setup: a human seat's name row opened (firmware.names carrying 32 KB of
# ballast), a name chosen: back on the setup screen, the name screens' code is gone.
NAMES = PHASES + """
def to_names():
    chipmodels.choose(rig, "New game")
    while rig.app.screen.rows_of[rig.app.screen.cursor][0] != "name":
        rig.act(1)
    rig.act(3)                           # the name list
    weigh("firmware.names")
    rig.act(1)
    rig.act(3)                           # the first name offered
"""


def test_the_name_screens_leave_the_heap_when_the_setup_shows_again():
    """A seat named, the setup screen keeps nothing of the name list's code."""
    from tools.bench.micropython import SCRUB
    steps = ["begin()", "rig.act(5)", "chipmodels.choose(rig, 'Save and quit')", SCRUB,
             "in_use()", "to_names()", SCRUB, "gc.collect()", SCRUB, "in_use()",
             "print(rig.app.screen.name)", "report()"]
    out = on_a_board(NAMES, steps, "the name screens leave")
    assert "setup" in out, out
    title, named = (int(x) for x in out.split("HEAP")[1].split())
    assert named - title < 24 * 1024, out       # the setup screen, not the ballast


# The Thumby's table, Save and quit: the title's code (firmware.title) carrying 32 KB of
# ballast, Continue taken: back at the table, the title's code is gone from the heap.
TITLE = PHASES + """
def to_table():
    for _ in range(20):
        if rig.app.screen.name == "table":
            break
        rig.run(1000)
    print("AT", rig.app.screen.name, "firmware.title" in sys.modules)
"""


def test_the_title_s_code_leaves_the_heap_when_a_row_is_taken():
    """The title's rows and what they do are loaded while the title shows: the table
    keeps nothing of them."""
    from tools.bench.micropython import SCRUB
    steps = ["begin()", SCRUB, "in_use()", "rig.act(5)",
             "chipmodels.choose(rig, 'Save and quit')", "weigh('firmware.title')",
             "chipmodels.choose(rig, 'Continue')", "to_table()", SCRUB, "gc.collect()",
             SCRUB, "in_use()", "report()"]
    out = on_a_board(TITLE, steps, "the title's code leaves")
    assert "AT table False" in out, out
    before, after = (int(x) for x in out.split("HEAP")[1].split())
    assert after - before < 16 * 1024, out      # the game again, not the ballast (32 KB)



def test_the_pause_menu_s_code_leaves_the_heap_when_the_table_shows_again():
    """The pause menu's items and what they do are loaded while it shows: back at the
    table (Resume), nothing of them is kept."""
    from tools.bench.micropython import SCRUB
    steps = ["begin()", SCRUB, "in_use()", "rig.act(5)", "weigh('firmware.pause')",
             "chipmodels.choose(rig, 'Resume')", "to_table()", SCRUB, "gc.collect()",
             SCRUB, "in_use()", "print('PAUSE', 'firmware.pause' in sys.modules)", "report()"]
    out = on_a_board(TITLE, steps, "the pause menu's code leaves")
    assert "AT table" in out and "PAUSE False" in out, out
    before, after = (int(x) for x in out.split("HEAP")[1].split())
    assert after - before < 8 * 1024, out       # the table again, not the ballast (32 KB)

# A match saved after a move, the game's list of moves given 32 KB of room (the room a
# round's moves grow into is the ballast): the save copies the moves made, not the room.
SAVE = BALLASTED + """
class binascii:        # as on a port without binascii.crc32 (the VM's is Python)
    pass

sys.modules["binascii"] = binascii
from array import array
from firmware.game import Game
from firmware.save import Store

store = Store("/")
game = Game({"seats": [["You", 0], ["Greta", 3], ["Hugo", 3]], "preset": "classic",
             "options": {}, "match": "round", "limit": 1}, 3, 8)
legal = array("H", range(40))
for _ in range(3):              # the human's move (the last listed), then the AIs'
    game.play(legal[game.legal(game.to_move(), legal) - 1])
    while game.ai_to_act():
        game.step_ai()
room = array("H", range(BALLAST // 2))
for i in range(game.n_moves):
    room[i] = game.moves[i]
game.moves = room

def save():
    store.save_game(game)       # the file made, then written again
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    store.save_game(game)
    print("SAVED", game.n_moves, gc.mem_alloc() - before)
    gc.enable()
    loaded, _ = store.load_game(8)
    print("LOADED", loaded.n_moves)

def crc_locked():
    # a port without binascii.crc32: the save's CRC runs in 16-bit halves, no long ints
    import micropython
    from firmware.save import _crc_halves, crc32_slow
    data = bytes(range(256)) * 4
    register = array("H", (0xFFFF, 0xFFFF))
    micropython.heap_lock()
    try:
        _crc_halves(data, register)
    finally:
        micropython.heap_unlock()
    crc = (register[0] ^ 0xFFFF) << 16 | (register[1] ^ 0xFFFF)
    print("CRC", crc == crc32_slow(data), crc)
"""


def test_a_save_copies_the_moves_made_not_their_room():
    """The per-move save writes the round's moves from the game's list as they are: a
    long list's room is never copied (a table frame's save allocates a few hundred
    bytes for the moves at most)."""
    out = mpvm.run(SAVE, modules=("engine", "firmware"), steps=["save()", "crc_locked()"],
                   timeout=300, label="a save's moves").check().stdout
    moves, allocated = (int(x) for x in out.split("SAVED")[1].split()[:2])
    assert moves > 0 and "LOADED %d" % moves in out, out
    assert allocated < 8 * 1024, out             # not the room (32 KB)
    import binascii
    data = bytes(range(256)) * 4                 # the CRC heap-locked, and right
    assert "CRC True %d" % binascii.crc32(data) in out, out


# The setup screen of a preset imports no custom rule rows (firmware.custom); turned
# custom, its rows are made (firmware.custom carrying 32 KB of ballast once loaded), an
# option changed: the custom code is let go after each use, the ballast with it.
CUSTOM = BALLASTED + """
from firmware.setup import SetupScreen, default_setup

sc = []

def preset():
    sc.append(SetupScreen(default_setup(), 4, 30))
    print("PRESET", "firmware.custom" in sys.modules)

def custom():
    sc[0].change("preset", 0, 1)     # classic to nordic
    sc[0].change("preset", 0, 1)     # nordic to custom
    sc[0].rebuild()
    __import__("firmware.custom")
    sys.modules["firmware.custom"].ballast = bytearray(BALLAST)

def option():
    rows = sc[0].rows_of
    what, arg = [row for row in rows if row[0] == "option"][0]
    sc[0].change(what, arg, 1)
    sc[0].rebuild()
    print("CUSTOM", "firmware.custom" in sys.modules, len(rows))
"""


def test_the_custom_rules_code_is_loaded_for_a_custom_setup_only():
    """A preset's setup screen keeps no custom rule rows' code; a custom one loads it for
    each change and lets it go after."""
    from tools.bench.micropython import SCRUB
    steps = ["preset()", SCRUB, "in_use()", "custom()", SCRUB, "option()", SCRUB,
             "gc.collect()", SCRUB, "in_use()", "print('HEAP', *USED)"]
    out = mpvm.run(CUSTOM, modules=("engine", "firmware"), steps=steps, timeout=300,
                   label="the custom rules' code").check().stdout
    assert "PRESET False" in out and "CUSTOM False" in out, out
    assert int(out.split("CUSTOM False")[1].split()[0]) > 10, out     # the option rows
    before, after = (int(x) for x in out.split("HEAP")[1].split())
    assert after - before < 16 * 1024, out       # the option rows, not the ballast (32 KB)
