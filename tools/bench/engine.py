"""Engine speed and round size on CPython. Prints figures; asserts nothing.

    python -m tools.bench.engine            # about 80 s
    python -m tools.bench.engine --quick    # about 20 s, rougher figures
    python -m tools.bench.engine --seconds 2 --repeat 5
    python -m tools.bench.engine --peers    # first make .venv-bench: peers, compiled engine

For each preset at 2 and 4 players, whole random rounds (the deal included) are
played for a fixed time by one of two random players:

- "uniform": a uniformly random legal move (engine.autoplay.random_player, rolling the
  engine's own generator, engine.rng);
- "plays first": a random fitting card when there is one, else draw (or pass), the
  random agent of RLCard's UNO and OpenSpiel's crazy_eights, which draw only when
  they cannot play. Like theirs (numpy) it rolls a generator written in C, Python's
  random.Random: its dice need not come out the same on MicroPython,

each through `apply` (the legality check of every move) and through `apply_legal`
(the unchecked fast path for moves just taken from legal_moves). The legal moves go
into a list, as the peers list theirs: CPython stores into a list in a few
instructions but into an `array('H')` (the device's choice, 2 bytes a move) through a
generic argument parser; the array figure for one case is printed too. Only the player to
move moves (a forgotten Mau is caught only when the uniform player happens to pick
the catch). Each figure is the best of a few runs: other work on a shared machine
only ever slows a run down.

Then the peers, timed by turns with the engine in the same run, with the same player
and two players: RLCard's UNO and OpenSpiel's crazy_eights (tools/bench/peers.py, run
in .venv-bench, which --peers makes from tools/bench/requirements.txt), against the
engine in pure Python and compiled by Cython from the same source
(tools/bench/compiled.py; its figures are shown only when its replays equal pure
Python's). The target is twice each peer's moves/s, classic and nordic; a peer or a
build that is missing is named in one line. Last, the heap bytes of a 4-player classic
round and a 5-player nordic round as CPython counts them (sys.getsizeof); the
MicroPython figures come from `python -m tools.bench.micropython`.
"""

import json
import os
import platform
import random
import subprocess
import sys
import time
from array import array

if __package__ in (None, ""):  # run as a script: make `engine` importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from tools.bench import compiled, peers  # noqa: E402
from engine import moves as mv  # noqa: E402
from engine.autoplay import PLAYER_SEED, random_player  # noqa: E402
from engine.rng import Random  # noqa: E402
from engine.round import Round  # noqa: E402
from engine.rules import Rules  # noqa: E402
from tools import cli  # noqa: E402

TARGET_FACTOR = 2  # the engine's two-player moves/s against each peer's

PLAY_LIMIT = mv.DRAW  # a move below this is a play (kinds: PLAY 0, DRAW, PASS, CATCH)


def plays_first(rnd, seat, moves, n, rng):
    """A random fitting card when one is listed, else the draw (or pass); `rng` is a
    random.Random (the agent's dice need not be the same on every runtime)."""
    # legal_moves lists a catch first, then the plays, then the draw or pass last (with
    # no play listed, lo > hi - 1 and the last move is taken).
    lo = 1 if moves[0] >= PLAY_LIMIT else 0
    hi = n - 1 if moves[n - 1] >= PLAY_LIMIT else n
    if hi > lo:
        return moves[lo + rng.getrandbits(30) % (hi - lo)]  # bias below 1e-7
    return moves[n - 1]


def race(preset, seconds, seed=1):
    """Two-player games of `preset` for `seconds` by the plays-first player, its choice
    written into the loop as the peers' loops (tools/bench/peers.py) have theirs;
    return (games/s, moves/s, moves a game)."""
    rules = Rules(preset)
    deal_rng = Random(seed)
    bits = random.Random(seed ^ PLAYER_SEED).getrandbits
    buf = [0] * mv.MAX_MOVES
    limit = PLAY_LIMIT
    games = moves = 0
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    while True:
        rnd = Round(rules, 2, deal_rng)
        legal_moves = rnd.legal_moves
        apply = rnd.apply_legal
        count = 0
        seat = rnd.turn()
        while seat >= 0:
            n = legal_moves(seat, buf)
            lo = 1 if buf[0] >= limit else 0  # plays_first, inlined
            hi = n - 1 if buf[n - 1] >= limit else n
            seat = apply(seat, buf[lo + bits(30) % (hi - lo)] if hi > lo else buf[n - 1])
            count += 1
        games += 1
        moves += count
        now = clock()
        if now >= deadline:
            elapsed = now - start
            return games / elapsed, moves / elapsed, moves / games


# (name, choose, the class of its `rng` argument)
AGENTS = (("uniform", random_player, Random), ("plays first", plays_first, random.Random))
PATHS = ("apply", "apply_legal")


def measure(preset, players, choose, path, seconds, seed=1, dice=Random, buf=None):
    """Play whole rounds for `seconds`, `choose` rolling `dice(seed)` (an engine.rng.Random or
    a random.Random), the legal moves written into `buf` (default: a list); return
    (games, moves, elapsed seconds)."""
    rules = Rules(preset)
    deal_rng = Random(seed)
    rng = dice(seed ^ PLAYER_SEED)
    if buf is None:
        buf = [0] * mv.MAX_MOVES
    games = 0
    moves = 0
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    checked = path == "apply"
    while True:
        rnd = Round(rules, players, deal_rng)
        apply = rnd.apply if checked else rnd.apply_legal
        legal_moves = rnd.legal_moves
        count = 0
        seat = rnd.turn()
        while seat >= 0:  # apply returns the next seat, -1 at the end (at the latest
            n = legal_moves(seat, buf)  # after engine.round.ROUND_MOVE_LIMIT moves)
            seat = apply(seat, choose(rnd, seat, buf, n, rng))
            count += 1
        games += 1
        moves += count
        now = clock()
        if now >= deadline:
            return games, moves, now - start


def best_of(repeat, preset, players, choose, path, seconds, dice, buf=None):
    """(games/s, moves/s, moves a game) of the run with the most moves/s of `repeat` runs."""
    best = None
    for _ in range(repeat):
        games, moves, elapsed = measure(preset, players, choose, path, seconds, dice=dice,
                                        buf=buf)
        if best is None or moves / elapsed > best[1]:
            best = (games / elapsed, moves / elapsed, moves / games)
    return best


def deals_per_second(preset, players, seconds):
    """Rounds dealt (Round constructed: shuffle, hands, up-card) per second."""
    rules = Rules(preset)
    rng = Random(3)
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    deals = 0
    while True:
        for _ in range(100):
            Round(rules, players, rng)
        deals += 100
        now = clock()
        if now >= deadline:
            return deals / (now - start)


def round_bytes(preset, players):
    """CPython's sizes of a round's buffers and of the Round object itself."""
    rnd = Round(Rules(preset), players, Random(1))
    table = sys.getsizeof(rnd.s)
    events = sys.getsizeof(rnd.events)
    obj = sys.getsizeof(rnd) + sys.getsizeof(rnd.__dict__)
    return table, events, obj


def set_up():
    """Make .venv-bench and the compiled engine where they are missing or stale."""
    peers.setup()  # (names each package that could not be installed)
    if compiled.built() is not None:
        print("compiling the engine with Cython into %s" % compiled.LIB)
        try:
            compiled.build(peers.PYTHON)
        except RuntimeError as e:
            print("compiled engine: the build failed (%s)" % str(e).splitlines()[-1])


def compiled_ready():
    """(None, what was checked) if the compiled engine can be timed (built from this
    source, playing as pure Python does: tools.bench.compiled.check), else (why not, None)."""
    reason = compiled.built()
    if reason is not None:
        return reason.replace("python -m tools.bench.compiled build", "--peers builds it"), None
    same, line = compiled.check()
    if not same:
        return "NOT SHOWN: it does not play as pure Python does (%s)" % line, None
    return None, line


def compiled_figures(seconds):
    """{preset: (games/s, moves/s, moves/game)} of one run of the compiled engine (in a
    child of this Python), or why there are none."""
    done = subprocess.run([sys.executable, "-m", "tools.bench.compiled", "measure", str(seconds),
                           "1"], cwd=compiled.ROOT, capture_output=True, text=True)
    if done.returncode:
        return "failed: %s" % (done.stderr.strip().splitlines() or ["?"])[-1]
    return json.loads(done.stdout.strip().splitlines()[-1])


def pure_figures(seconds):
    """{preset: (games/s, moves/s, moves/game)} of one race of the engine as imported."""
    return {preset: race(preset, seconds) for preset in PRESETS}


PRESETS = ("classic", "nordic")
ENGINES = ("pure Python", "compiled (Cython)")


def against_peers(seconds, repeat, out=sys.stdout):
    """Time the peers, the engine in pure Python and compiled, by turns, `repeat` runs
    each (the best kept: a load on the machine falls on all of them alike); print every
    figure against its target, TARGET_FACTOR times each peer's moves/s."""
    out.write("Against the peers, timed by turns, best of %d runs of %g s: two players, "
              "plays first (a random\nfitting card, else draw or pass), whole games; target "
              "%dx each peer's moves/s, classic and nordic.\n" % (repeat, seconds, TARGET_FACTOR))
    best = {}
    why_not, checked = compiled_ready()
    if checked:
        out.write("  the compiled engine plays as pure Python does: %s\n" % checked)
    for _ in range(repeat):
        for name, figures in peers.run(seconds, 1).items():
            _keep(best, name, figures)
        for preset, figures in pure_figures(seconds).items():
            _keep(best, (ENGINES[0], preset), figures)
        if why_not is None:
            fast = compiled_figures(seconds)
            if isinstance(fast, str):
                why_not = fast
            else:
                for preset, figures in fast.items():
                    _keep(best, (ENGINES[1], preset), figures)
    out.write("  %-24s %9s %9s %11s\n" % ("peer", "games/s", "moves/s", "moves/game"))
    rates = []
    for name, _, _ in peers.PEERS:
        figures = best.get(name, "no figures")
        if isinstance(figures, str):
            out.write("  %-24s %s\n" % (name, figures))
        else:
            out.write("  %-24s %9.0f %9.0f %11.1f\n" % ((name,) + tuple(figures)))
            rates.append((name, figures[1]))
    if why_not is not None:
        out.write("  engine compiled (Cython): %s\n" % why_not)
    out.write("  %-18s %-8s %9s %9s   %s\n" % ("engine", "preset", "games/s", "moves/s",
                                              "x each peer's moves/s (target %dx)"
                                              % TARGET_FACTOR))
    for engine in ENGINES:
        for preset in PRESETS:
            if (engine, preset) not in best:
                continue
            gps, mps = best[engine, preset][:2]
            parts = ["%s %.2fx %s" % (name, mps / rate,
                                      "met" if mps >= TARGET_FACTOR * rate else "not met")
                     for name, rate in rates]
            out.write("  %-18s %-8s %9.0f %9.0f   %s\n"
                      % (engine, preset, gps, mps, "; ".join(parts) or "(no peer timed)"))


def _keep(best, key, figures):
    """Keep `figures` under `key` if they are the first or have more moves/s; a reason
    (a string) only while there are no figures."""
    old = best.get(key)
    if isinstance(figures, str):
        if old is None:
            best[key] = figures
    elif old is None or isinstance(old, str) or figures[1] > old[1]:
        best[key] = figures


def main(argv=None):
    """Print every figure of the benchmark."""
    parser = cli.Parser(prog="bench.engine", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="short runs (rough figures)")
    parser.add_argument("--seconds", type=cli.above_zero, default=None,
                        help="time per run (default 1, --quick 0.3)")
    parser.add_argument("--repeat", type=cli.at_least(1), default=None,
                        help="runs per figure, the best kept (default 3, --quick 2)")
    parser.add_argument("--peers", action="store_true",
                        help="first make .venv-bench (tools/bench/requirements.txt) and build "
                             "the compiled engine, when missing")
    args = parser.parse_args(argv)
    if args.peers:
        set_up()
    seconds = args.seconds if args.seconds is not None else (0.3 if args.quick else 1.0)
    repeat = args.repeat if args.repeat is not None else (2 if args.quick else 3)

    print("Mau-Mau engine on %s %s (%s), best of %d runs of %g s per figure"
          % (platform.python_implementation(), platform.python_version(),
             platform.machine(), repeat, seconds))
    print("Whole random rounds, deal included; moves = every move of the player to move.")
    print()
    head = "%-8s %7s  %-11s  %-11s  %9s  %9s  %10s"
    row = "%-8s %7d  %-11s  %-11s  %9.0f  %9.0f  %10.1f"
    print(head % ("preset", "players", "player", "path", "games/s", "moves/s", "moves/game"))
    results = {}
    measure("classic", 2, random_player, "apply", min(0.2, seconds))  # warm-up
    for preset in ("classic", "nordic"):
        for players in (2, 4):
            for agent, choose, dice in AGENTS:
                for path in PATHS:
                    figures = best_of(repeat, preset, players, choose, path, seconds, dice)
                    results[preset, players, agent, path] = figures
                    print(row % ((preset, players, agent, path) + figures))
    print()
    best = best_of(repeat, "classic", 2, plays_first, "apply_legal", seconds, random.Random,
                   array("H", bytes(2 * mv.MAX_MOVES)))[1]
    print("The same, classic 2 players, plays first, apply_legal, with an array('H') moves "
          "buffer: %.0f moves/s (%.0f%% of the list's)"
          % (best, 100 * best / results["classic", 2, "plays first", "apply_legal"][1]))
    print()
    print("Dealing alone (part of every game above):")
    for preset in ("classic", "nordic"):
        for players in (2, 4):
            rate = deals_per_second(preset, players, seconds / 5)
            print("  %-8s %d players: %6.0f deals/s (%.1f us each)"
                  % (preset, players, rate, 1e6 / rate))
    print()

    against_peers(seconds, repeat)
    print()

    print("Heap bytes of a round as CPython counts them (sys.getsizeof):")
    for preset, players in (("classic", 4), ("nordic", 5)):
        table, events, obj = round_bytes(preset, players)
        print("  %-7s %d players: table bytearray %d + event array %d = buffers %d; "
              "Round object and its __dict__ %d more (total %d)"
              % (preset, players, table, events, table + events, obj,
                 table + events + obj))
    print("  (MicroPython's own heap figures: python -m tools.bench.micropython)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
