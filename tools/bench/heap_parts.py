"""Where the heap goes while a game runs on a board: the parts the app keeps, one by one.

    python -m tools.bench.heap_parts [--board pico_display] [--decisions 120] [--files] [--names]
                                     [--direct]

In the MicroPython VM, with the app's .mpy in the board's ROMFS image (as
tools/bench/firmware.py measures it; `--files`: from /lib instead), every device module
is imported first, one at a time, then the parts are made one at a time as a device
makes them (canvas, display driver, buttons, app with its painter and title screen, the
setup, the game), a game is played for some decisions on fake pins and bus
(tools/fakes/chipmodels.Rig, you against three strong AIs), and the heap in use is taken after
a collection between parts. What the name pool grew by is told apart (it grows in
chunks, each twice the last: one name too many costs the VM 9 KB at about 1,260 names),
with the room left in its last chunk. Then single objects of the game are made again on
their own to size them (Player, Round, View, Match, Rules, TableScreen, Game). `--names`
lists the names interned (each costs the pool its length plus 8 bytes or so). The fake
pins and bus count as the driver's and the buttons' data; the VM's os and binascii are
Python modules (about 3.3 KB, imported by firmware.save) where boards have them in C.
Figures are printed, never asserted.
"""
import importlib
import re

from tools import cli
from tools.bench.firmware import BOARDS, load_order, run_app
from tools.bench.micropython import SCRUB

SETUP = """
import gc
import chipmodels
import machine
import micropython
PREV = [0]
SIZES = [0] * 64
rig = None

class BareRig(chipmodels.Rig):
    # a Rig on the canvas, display and buttons made (and measured) here
    def __init__(self):
        pass

def mark(i):
    used = gc.mem_alloc()
    SIZES[i] = used - PREV[0]
    PREV[0] = used
    print("MARK", i)
    micropython.qstr_info()   # the name pool's size: its growth is told apart

KEEP = [0, None]

def alone(i):
    # bytes that stay in use while the object made by the last step is kept (collections
    # happen only between VM calls: the caller makes the object in a call of its own)
    SIZES[i] = gc.mem_alloc() - KEEP[0]
    KEEP[1] = None

def play(decisions):
    # game after game: a new one from the final table
    for _ in range(decisions):
        if rig.app.screen.name == "final":
            chipmodels.choose(rig, "New game")
        chipmodels.play_game(rig, 1)

def report():
    print("PARTS", *SIZES)
"""

# The VM's name pool grows by chunks of twice the last one's entries: a new chunk begins
# at these counts of names made at run time (measured: 40, 80, ... 2560 entries), each entry
# 7 bytes (pointer, hash, length) besides the name's characters.
POOL_STARTS = (21, 61, 141, 301, 621, 1261, 2541, 5101)
POOL_ENTRY = 7

# part index -> what it is
PARTS = (
    "imports (all device modules; the first, imported one by one, below)",
    "canvas",
    "display driver",
    "buttons",
    "app (painter, title screen, move buffer)",
    "setup screen",
    "game started (Game, Match, Round, AIs, table screen, first paint)",
    "game after the decisions played (caches, stories, hint helper, options)",
)
ALONE = (
    (20, "Player level 3 (strong)", "new_player(g.rules, 3, 1, 8, 0)"),
    (21, "Player level 4 (expert)", "Expert(g.rules, 1, 8, 0)"),
    (22, "Round (4 players)", "Round(g.rules, 4, Random(1))"),
    (23, "View", "View(g.rules)"),
    (24, "Match (4 players)", "Match(g.rules, 4, 1)"),
    (25, "Rules classic", "Rules('classic')"),
    (26, "TableScreen", "S.TableScreen(['a', 'b', 'c', 'd'], 10, 30, 2)"),
    (27, "Game (4 players, 3 strong AIs, dealt)", "Game(g.setup, 1, 8)"),
)
KEPT = (
    (31, "painter keys kept (count)", "len(rig.app.painter.keys)"),
    (32, "moves recorded this round", "rig.app.game.n_moves"),
    (33, "rounds played this match", "rig.app.game.match.rounds_played"),
)


def steps_for(board, decisions, direct=False):
    """The VM steps: imports, each part made, the game played, single objects sized
    (`direct`: on firmware.direct's canvas, made with the display as its part)."""
    collect = [SCRUB, "gc.collect()"]
    steps = collect + ["gc.collect()\nmark(63)"]
    # the device modules one by one, as bench_firmware orders them (not engine.options:
    # the game imports it only for settings other than a preset's)
    for i, module in enumerate(load_order(board)):
        steps += ["import " + module] + collect + ["mark(%d)" % (40 + i)]
    steps += ["import board_configs.%s as board" % board] + collect
    wire = ("chipmodels.reset_fakes()\n"
            "if hasattr(board, 'DC'):\n    chipmodels.wire_spi(board.DC, board.CS)\n")
    if direct:
        steps += ["mark(0)",
                  wire + "display = board.open_display()\n"
                  "from firmware.direct import DirectCanvas\n"
                  "canvas = DirectCanvas(board.WIDTH, board.HEIGHT, display)"] + collect
        steps += ["mark(1)"]
    else:
        steps += ["mark(0)",
                  wire + "from firmware.boxes import BoxCanvas\n"
                  "canvas = BoxCanvas(board.WIDTH, board.HEIGHT, board.DEPTH)"] + collect
        steps += ["mark(1)", "display = board.open_display()"] + collect
    steps += ["mark(2)", "pad = board.open_buttons()"] + collect
    # the Rig makes its own canvas, display and buttons: ours are the measure, its are used
    steps += ["mark(3)",
              "rig = BareRig()\n"
              "rig.board, rig.display, rig.pad, rig.canvas = board, display, pad, canvas\n"
              "rig.pins = {}\n"
              "for name, gpio in board.KEYS:\n"
              "    rig.pins[name] = chipmodels.FakePin.made[gpio]\n"
              "rig.model = rig.feed = None\n"
              "rig.now = rig.shows = rig.shown_pixels = rig.frames = rig.moves = 0\n"
              "chipmodels.FakePin.record = chipmodels.FakeSPI.record = False\n"
              "from firmware.app import App\n"
              "rig.app = App(board, canvas, None, 0, playouts=8, seed=4)\n"
              "rig.frame()"] + collect
    steps += ["mark(4)", "chipmodels.choose(rig, 'New game')"] + collect
    steps += ["mark(5)",
              "sc = rig.app.screen\n"
              "while sc.rows_of[sc.cursor][0] != 'start':\n    rig.act(1)\n"
              "rig.act(3)"] + collect
    steps += ["mark(6)"]
    per = 40
    for _ in range(max(1, decisions // per)):
        steps += ["play(%d)" % per] + collect
    steps += ["while rig.app.game is None or rig.app.screen.name != 'table':\n    play(1)"] + collect
    steps += ["mark(7)"]
    steps += ["from engine.ai import new_player\nfrom engine.expert import Expert\nfrom engine.round import Round, View\n"
              "from engine.rng import Random\nfrom engine.match import Match\n"
              "from engine.rules import Rules\nfrom firmware import screens as S\n"
              "from firmware.game import Game\n"
              "g = rig.app.game or Game(__import__('firmware.setup', None, None, ('last_setup',)).last_setup(rig.app.store), 1, 8)"] + collect
    for i, _, make in ALONE:
        steps += collect + ["KEEP[0] = gc.mem_alloc()", "KEEP[1] = " + make] + collect
        steps += ["alone(%d)" % i]
    steps += ["\n".join("SIZES[%d] = %s" % (i, expr) for i, _, expr in KEPT)]
    steps += ["report()"]
    return steps


def measure(board, decisions=120, rom=True, names=False, timeout=900, direct=False):
    """{index: bytes} of one board's parts, and the interned names when asked."""
    steps = steps_for(board, decisions, direct)
    if names:
        steps.insert(0, "import micropython\nmicropython.qstr_info(1)")
        steps += ["micropython.qstr_info(1)"]
    result, _ = run_app(SETUP, steps, board, rom, timeout, "heap_parts %s" % board)
    sizes = [int(x) for x in re.search(r"PARTS (.*)", result.stdout).group(1).split()]
    pool = {}       # part -> bytes the name pool grew by while it was made
    last = None
    for m in re.finditer(r"MARK (\d+)\r?\nqstr pool: .*n_qstr=(\d+),.*n_total_bytes=(\d+)",
                         result.stdout):
        i, total = int(m.group(1)), int(m.group(3))
        if last is not None:
            pool[i] = total - last
        last = total
        pool["names"] = int(m.group(2))
    interned = []
    if names:
        dumps = result.stdout.split("qstr pool:")
        before = set(re.findall(r"^Q\((.*)\)\r?$", dumps[1], re.M))
        after = re.findall(r"^Q\((.*)\)\r?$", dumps[-1], re.M)
        interned = [q for q in after if q not in before]
    return sizes, pool, interned


def main(argv=None):
    """Measure one board and print its parts."""
    parser = cli.Parser(prog="bench.heap_parts", description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="pico_display",
                        type=cli.board_of(BOARDS, "a CircuitPython board, drawn with displayio: this measures the framebuf boards"))
    parser.add_argument("--decisions", type=cli.at_least(1), default=120)
    parser.add_argument("--files", action="store_true", help=".mpy files in /lib, not ROMFS")
    parser.add_argument("--names", action="store_true", help="list the interned names")
    parser.add_argument("--direct", action="store_true",
                        help="a colour board on firmware.direct's canvas (a small heap's): the"
                             " canvas part is the display driver and that canvas")
    args = parser.parse_args(argv)
    if args.direct and importlib.import_module("board_configs." + args.board).DEPTH != 4:
        parser.error("--direct: %s is not a colour board" % args.board)
    sizes, pool, interned = measure(args.board, args.decisions, not args.files, args.names,
                                    direct=args.direct)
    print("%s, app from %s: heap in use by part (bytes)" % (args.board,
                                                           "/lib" if args.files else "ROMFS"))
    print("  %-64s %7s %7s %7s" % ("part", "in use", "names", "objects"))
    modules = load_order(args.board)
    sizes[0] += sum(sizes[40:40 + len(modules)])       # the imports one by one
    pool[0] = pool.get(0, 0) + sum(pool.get(i, 0) for i in range(40, 40 + len(modules)))
    total = names = 0
    for i, label in enumerate(PARTS):
        total += sizes[i]
        names += pool.get(i, 0)
        print("  %-64s %7d %7d %7d" % (label, sizes[i], pool.get(i, 0), sizes[i] - pool.get(i, 0)))
    print("  %-64s %7d %7d %7d" % ("all of them", total, names, total - names))
    data = total - sizes[0] - (names - pool.get(0, 0))
    print("  names: what the name pool grew by while the part was made (it grows in chunks);"
          " data (objects after the imports): %d" % data)
    n = pool["names"]
    room = next(t for t in POOL_STARTS if t > n)
    print("  names in the pool at the end: %d (harness included); the pool's last chunk has room"
          " for %d more, %d bytes unused" % (n, room - n, (room - n) * POOL_ENTRY))
    print("imports one by one (bytes left in the heap: all, the name pool's growth, the rest):")
    for i, module in enumerate(modules):
        print("  %-64s %7d %7d %7d" % (module, sizes[40 + i], pool.get(40 + i, 0),
                                       sizes[40 + i] - pool.get(40 + i, 0)))
    print("single objects, made again on their own (bytes kept):")
    for i, label, _ in ALONE:
        print("  %-72s %7d" % (label, sizes[i]))
    for i, label, _ in KEPT:
        print("  %-72s %7d" % (label, sizes[i]))
    if args.names:
        print("names interned by the imports and the game: %d, %d characters"
              % (len(interned), sum(len(q) for q in interned)))
        print(" ".join(sorted(interned)))


if __name__ == "__main__":
    main()
