"""Engine speed and round size on CPython. Prints figures; asserts nothing.

    python -m tools.bench.engine            # about 50 s
    python -m tools.bench.engine --quick    # about 10 s, rougher figures
    python -m tools.bench.engine --seconds 2 --repeat 5

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
into a list, as the reference loops list theirs: CPython stores into a list in a few
instructions but into an `array('H')` (the device's choice, 2 bytes a move) through a
generic argument parser; the array figure for one case is printed too. Only the player to
move moves (a forgotten Mau is caught only when the uniform player happens to pick
the catch). The two-player "plays first" figures are compared with the reference
loops measured on this machine (RLCard UNO, OpenSpiel crazy_eights; the target is
three times theirs). Each figure is the best of a few runs: other work on a shared
machine only ever slows a run down. Last, the heap bytes of a 4-player classic round
and a 5-player nordic round as CPython counts them (sys.getsizeof); the MicroPython
figures come from `python -m tools.bench.micropython`.
"""

import os
import platform
import random
import sys
import time
from array import array

if __package__ in (None, ""):  # run as a script: make `engine` importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from engine import moves as mv  # noqa: E402
from engine.autoplay import PLAYER_SEED, random_player  # noqa: E402
from engine.rng import Random  # noqa: E402
from engine.round import Round  # noqa: E402
from engine.rules import Rules  # noqa: E402
from tools import cli  # noqa: E402

# (name, two-player games/s, moves/s) measured on this machine; the target is 3x.
REFERENCES = (("RLCard UNO round loop", 3200, 147000),
              ("OpenSpiel crazy_eights", 1500, 127000))
TARGET_FACTOR = 3

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


def main(argv=None):
    """Print every figure of the benchmark."""
    parser = cli.Parser(prog="bench.engine", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="short runs (rough figures)")
    parser.add_argument("--seconds", type=cli.above_zero, default=None,
                        help="time per run (default 1, --quick 0.3)")
    parser.add_argument("--repeat", type=cli.at_least(1), default=None,
                        help="runs per figure, the best kept (default 3, --quick 2)")
    args = parser.parse_args(argv)
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

    print("Against the references (two players; targets are %dx the reference):"
          % TARGET_FACTOR)
    for name, games_ref, moves_ref in REFERENCES:
        print("  %s: %s games/s, %s moves/s (%.0f moves/game); target %s games/s, %s moves/s"
              % (name, format(games_ref, ","), format(moves_ref, ","), moves_ref / games_ref,
                 format(games_ref * TARGET_FACTOR, ","),
                 format(moves_ref * TARGET_FACTOR, ",")))
    print()
    cmp_head = "  %-8s %-11s %-11s %9s %9s   %s"
    print(cmp_head % ("preset", "player", "path", "games/s", "moves/s",
                      "x reference games/s, moves/s (target 3x: met?)"))
    for preset in ("classic", "nordic"):
        for agent, _, _ in AGENTS:
            for path in PATHS:
                gps, mps, _ = results[preset, 2, agent, path]
                parts = []
                for name, games_ref, moves_ref in REFERENCES:
                    g = gps / games_ref
                    m = mps / moves_ref
                    parts.append("%s %.2fx %s, %.2fx %s" % (
                        name.split()[0], g, "met" if g >= TARGET_FACTOR else "not met",
                        m, "met" if m >= TARGET_FACTOR else "not met"))
                print("  %-8s %-11s %-11s %9.0f %9.0f   %s"
                      % (preset, agent, path, gps, mps, "; ".join(parts)))
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
