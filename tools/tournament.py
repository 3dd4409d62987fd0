"""Seeded matches between AI levels; a table of win rates with 95% confidence intervals.

    python -m tools.tournament                         # the standard pairings, both presets
    python -m tools.tournament --games 2000 --pairing 3v2 --preset classic
    python -m tools.tournament --pairing 4v3v3v3 --games 400 --vm 0
    python -m tools.tournament --games 500 --first 500 --json part2.json   # a later chunk
    python -m tools.tournament --merge part1.json part2.json              # one table
    python -m tools.tournament --paired before.json after.json            # game by game

A pairing names the level of each player: ``3v2`` is Strong against Casual heads-up,
``4v3v3v3`` Expert against three Strong. Level 0 is the random legal player (any legal
move, uniformly; it never catches a forgotten Mau). Game i of a pairing is a whole
match under the preset's own match rules (classic: one round; nordic: elimination at
100 minus points) with seed ``--seed + i``, and the seats rotate: in game i the first
level sits at seat i mod players, so every level starts equally often. A game depends
on its number only, so a long run can be split into chunks (``--first``, ``--json``)
and merged (``--merge``) into the table one run would print. A --json file keeps each
game's outcome, so two versions of a player run on the same seeds compare game by game
(``--paired A B``: B's win rate less A's with a paired 95% interval, about half as wide
as that of two separate runs, since most games go the same way for both).

``iN`` in a pairing is a fixed yardstick beside the levels: SO-ISMCTS with N iterations
a decision (``tools/ismcts.py``; host only, so it gets no VM sample), e.g. ``i1000v3``
or ``3vi200``; the table calls it ``ismcts 1000``.

The Expert searches with its device budget (``engine.expert.budget``: the walks of its
search a device makes in the time nobody notices, for that table size) unless
``--playouts`` says otherwise, and ponders where a device would: after each move, unless
the next player is an Expert (whose decision takes the time the move is shown), the
Expert whose tree the search holds walks on in it ``engine.expert.ponder_budget`` walks, the
device's while one action is shown (``--no-ponder``: never; ``--ponder N``: N walks). Columns: games; the first level's win rate with a 95% Wilson interval (a
match won by another player, or by nobody, counts as not won); the target, if the
issue sets one; average minus points per match of the first level and of the others;
CPython milliseconds per turn decision of each; and, with ``--vm N`` (default 20; 0 to
skip), VM milliseconds per decision of the first level over N decisions in the
MicroPython VM and the RP2040 estimate (x 454 / calibration-loop ms).

``--rounds N`` plays every match as N rounds, lowest total wins (seed 000's "longer
evening"), instead of the preset's own match; the table marks such lines ``xN``.

``--oracle hands`` (or ``all``) lets the Expert cheat, for measuring what the hidden
cards are worth: its deals are the real table with the opponents' hands as they are
(``all``: the draw pile's order too; ``hands``: the draw pile shuffled). No game loop
outside this measurement does that.
"""

import argparse
import io
import json
import math
import os
import re
import sys
import time
from array import array

if __package__ in (None, ""):  # run as a script: make `engine` importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine import ai, expert  # noqa: E402
from engine import moves as mv  # noqa: E402
from engine.match import Match  # noqa: E402
from engine.round import View  # noqa: E402
from engine.rules import Rules  # noqa: E402
from tools import cli  # noqa: E402

STANDARD = ("2v1", "3v2", "4v3", "4v0", "4v3v3v3")
TARGETS = {"2v1": 0.60, "3v2": 0.60, "4v3": 0.60, "4v0": 0.90, "4v3v3v3": 0.30,
           "4vi1000": 0.55, ("nordic", "4v3"): 0.65}   # issue 17's; by preset first
AI_SEED = 0x5EED


def parse_pairing(text):
    """``4v3v3v3`` -> [4, 3, 3, 3]; an ISMCTS player stays a token: ``i1000v3`` ->
    ["i1000", 3]."""
    levels = []
    for x in text.lower().split("v"):
        m = re.match(r"(i?)([0-9]{1,7})$", x)
        if m and m.group(1) and 1 <= int(m.group(2)) <= 10 ** 6:
            levels.append("i%d" % int(m.group(2)))
        elif m and not m.group(1) and int(m.group(2)) <= 4:
            levels.append(int(m.group(2)))
        else:
            levels = []
            break
    if not 2 <= len(levels) <= 6:
        raise ValueError("pairing %r: 2 to 6 levels from 0 to 4, or iN (ISMCTS with N "
                         "iterations, 1 to 1000000), joined by 'v', e.g. 4v3 or i1000v3"
                         % (text,))
    return levels


def make_player(rules, level, seed, playouts=None):
    """The player of a pairing entry: an engine.ai level, or "iN" (tools.ismcts)."""
    if isinstance(level, str):
        from tools import ismcts
        return ismcts.Player(rules, int(level[1:]), seed=seed)
    return ai.new_player(rules, level, seed=seed, playouts=playouts)


def player_name(level):
    """A pairing entry in the table: "strong", "ismcts 1000"."""
    return "ismcts " + level[1:] if isinstance(level, str) else ai.LEVEL_NAMES[level]


def play_match(rules, levels, seed, playouts=None, timer=None, oracle=None, ponder=None):
    """Play one seeded match; player k (of level levels[k]) sits at seat k of the first
    round. Returns (winner or None, minus points per player). `timer[k]` (optional)
    gathers [decisions, seconds] of player k's turn decisions; `oracle` ("hands" or
    "all") makes every Expert deal from the real table (a measurement, not a level);
    `ponder`: the Expert's walks while a move is shown (None: the device's, 0: none)."""
    players = len(levels)
    match = Match(rules, players, seed)
    bots = [make_player(rules, levels[k], seed * 8 + k + AI_SEED, playouts)
            for k in range(players)]
    views = [View(rules) for _ in range(players)]
    moves = array("H", range(mv.MAX_MOVES))
    clock = time.perf_counter
    table = [None]          # the round in play, for an oracle's deals
    if ponder is None:
        ponder = expert.ponder_budget(rules, players)
    if oracle:
        for bot in bots:
            if bot.level == ai.EXPERT:
                bot._deal_world = _oracle_deal(bot, table, oracle)
    while not match.is_over():
        rnd = match.start_round()
        table[0] = rnd
        seated = match.seated
        n_seats = len(seated)
        for k in range(n_seats):
            bots[seated[k]].new_round(rnd.view(k, views[seated[k]]))
        while not rnd.is_over():
            seat = None
            move = None
            debtor = rnd.debtor()
            if debtor is not None:  # anybody but the player to move may catch first
                turn = rnd.turn()
                for j in range(1, n_seats):
                    q = (turn + j) % n_seats
                    if q == debtor:
                        continue
                    n = rnd.legal_moves(q, moves)
                    m = bots[seated[q]].choose(rnd.view(q, views[seated[q]]), moves, n)
                    if m is not None:
                        seat, move = q, m
                        break
            if seat is None:
                seat = rnd.turn()
                player = seated[seat]
                n = rnd.legal_moves(seat, moves)
                view = rnd.view(seat, views[player])
                t = clock()
                move = bots[player].choose(view, moves, n)
                if timer is not None:
                    entry = timer[player]
                    entry[0] += 1
                    entry[1] += clock() - t
            for k in range(n_seats):
                bot = bots[seated[k]]
                if bot.watches:
                    bot.observe(rnd.view(k, views[seated[k]]), seat, move)
            rnd.apply(seat, move)
            if ponder and not rnd.is_over():
                _ponder(bots, seated, rnd, views, ponder)
        match.end_round()
    return match.winner(), list(match.totals)


def _ponder(bots, seated, rnd, views, walks):
    """While the move just made is shown: unless an Expert is to move next (its decision
    takes the time), the Expert whose tree the search holds searches on in it."""
    if bots[seated[rnd.turn()]].level == ai.EXPERT:
        return
    for k in range(len(seated)):
        bot = bots[seated[k]]
        if bot.level == ai.EXPERT and bot.search.owner is bot:
            bot.ponder(rnd.view(k, views[seated[k]]), walks)
            return


def _oracle_deal(bot, table, oracle):
    """A deal for `bot` that cheats: the real table of table[0], its draw pile shuffled
    unless `oracle` is "all"."""
    def deal(view):
        s = bot.world.s
        s[:] = table[0].s
        s[expert._S_NEV] = 0
        if oracle == "hands":
            rng = bot.prng
            lo = expert._S_CARDS
            for i in range(s[expert._S_BOUNDS] - 1, lo, -1):
                j = lo + rng.below(i - lo + 1)
                s[i], s[j] = s[j], s[i]
    return deal


def wilson(wins, games, z=1.96):
    """95% Wilson score interval of a win rate, as (low, high)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    d = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / d
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / d
    return centre - half, centre + half


def run_pairing(rules, levels, games, first=0, seed=1, playouts=None, progress=None,
                oracle=None, stop=None, ponder=None):
    """Play games first .. first+games-1 of a pairing (fewer once `stop.asked` turns
    true: a whole game at a time); return a result dict with the games played, the
    first level's wins, and points and decision times of the first level ("a") and
    of the others ("b")."""
    players = len(levels)
    res = {"levels": levels, "games": 0, "first": first, "seed": seed, "wins": 0,
           "won": "", "points_a": 0, "points_b": 0, "n_a": 0, "n_b": 0, "dec_a": 0,
           "sec_a": 0.0, "dec_b": 0, "sec_b": 0.0}
    for i in range(first, first + games):
        if stop is not None and stop.asked:
            break
        shift = i % players
        seating = [levels[(k - shift) % players] for k in range(players)]
        timer = [[0, 0.0] for _ in range(players)]
        winner, totals = play_match(rules, seating, seed + i, playouts, timer, oracle,
                                    ponder)
        res["games"] += 1
        res["won"] += "1" if winner == shift else "0"
        if winner == shift:
            res["wins"] += 1
        for k in range(players):
            side = "a" if k == shift else "b"
            res["points_" + side] += totals[k]
            res["n_" + side] += 1
            res["dec_" + side] += timer[k][0]
            res["sec_" + side] += timer[k][1]
        if progress:
            progress(i - first + 1, games, res["wins"])
    return res


def merge(results):
    """Add up chunks of the same pairing (they must not overlap); their games' outcomes
    join into one "won" string from the first game on ("-": a game in no chunk)."""
    out = {}
    for r in results:
        key = (r["preset"], r["pairing"], r["playouts"], r.get("oracle"), r.get("rounds"),
               r.get("ponder", 0), r.get("seed"))
        if key not in out:
            out[key] = dict(r, ranges=[(r["first"], r["first"] + r["games"])])
            continue
        m = out[key]
        for lo, hi in m["ranges"]:
            if r["first"] < hi and lo < r["first"] + r["games"]:
                raise ValueError("chunks of %s %s overlap: games %d-%d and %d-%d" % (
                    key[0], key[1], lo, hi - 1, r["first"], r["first"] + r["games"] - 1))
        m["ranges"].append((r["first"], r["first"] + r["games"]))
        if "won" in m and "won" in r:
            m["won"], m["first"] = _join(m["won"], m["first"], r["won"], r["first"])
        else:
            m.pop("won", None)     # a chunk written before outcomes were kept
        for k in ("games", "wins", "points_a", "points_b", "n_a", "n_b", "dec_a", "sec_a",
                  "dec_b", "sec_b"):
            m[k] += r[k]
        for k in ("vm_decisions", "vm_ms"):
            if k in r:
                m[k] = m.get(k, 0) + r[k]
        if "calibration_ms" in r:
            m["calibration_ms"] = min(m.get("calibration_ms", 1 << 20), r["calibration_ms"])
    return list(out.values())


def _join(a, first_a, b, first_b):
    """Two games' outcome strings, from game first_a and first_b, as one string and its
    first game."""
    first = min(first_a, first_b)
    end = max(first_a + len(a), first_b + len(b))
    won = ["-"] * (end - first)
    for text, at in ((a, first_a), (b, first_b)):
        for i, c in enumerate(text):
            if c != "-":
                won[at - first + i] = c
    return "".join(won), first


def _outcomes(result):
    """Game number -> "1" (the first level won) or "0", for the games `result` holds."""
    return dict((result["first"] + i, c) for i, c in enumerate(result["won"]) if c != "-")


def paired(a, b):
    """Game by game, result b against result a of the same pairing and seeds (the games
    both played): (games, a's win rate, b's, b's less a's, its 95% half-width)."""
    if (a.get("seed"), a["preset"], a["pairing"]) != (b.get("seed"), b["preset"],
                                                       b["pairing"]):
        raise ValueError("paired: %s %s and %s %s are not the same games" % (
            a["preset"], a["pairing"], b["preset"], b["pairing"]))
    wa, wb = _outcomes(a), _outcomes(b)
    games = sorted(set(wa) & set(wb))
    n = len(games)
    if n < 2:
        raise ValueError("paired: fewer than 2 games played by both")
    x = [int(wa[g]) for g in games]
    y = [int(wb[g]) for g in games]
    d = [q - p for p, q in zip(x, y)]
    mean = sum(d) / n
    var = sum((v - mean) ** 2 for v in d) / (n - 1)
    return n, sum(x) / n, sum(y) / n, mean, 1.96 * math.sqrt(var / n)


VM_STEP = """
t = Tally()
seed = 1
while t.decisions < {n}:
    games({preset!r}, {players}, {levels!r}, 1, seed, {playouts!r}, False, t, measured={level},
          searched_only=False, reps={reps})
    seed += 1
print("TOURNAMENT_VM", t.decisions, t.ms)
"""


def vm_reps(level):
    """Decisions a VM sample times as one batch: the VM ticks in whole milliseconds,
    and only the Expert takes several of them per decision."""
    return 1 if level == ai.EXPERT else 25


def vm_sample(preset, levels, decisions, playouts):
    """VM ms for `decisions` turn decisions of levels[0] in games of this pairing, and
    the calibration-loop ms: (decisions, ms, calibration_ms)."""
    from tools.vm import mpvm
    from tools.bench.ai import VM_GAMES, MEASURE
    reps = vm_reps(levels[0])
    step = VM_STEP.format(n=decisions * reps, preset=preset, players=len(levels),
                          levels=tuple(levels), playouts=playouts, level=levels[0], reps=reps)
    out = mpvm.run(VM_GAMES + MEASURE, steps=[step, "calibrate()"], timeout=600,
                   heapsize=512 * 1024, label="tournament VM sample").check().stdout
    n, ms = map(int, re.search(r"TOURNAMENT_VM (\d+) (\d+)", out).groups())
    n //= reps
    calib = int(re.search(r"BENCH calibration_ms (\d+)", out).group(1))
    return n, ms, calib


def print_table(results, out=None):
    """The table: one line per preset and pairing (on `out`, else standard output)."""
    out = sys.stdout if out is None else out
    from tools.bench.micropython import RP2040_CALIBRATION_MS
    out.write("%-7s %-20s %6s %-22s %6s %-13s %-15s %s\n" % (
        "preset", "pairing (first v rest)", "games", "first wins [95% CI]", "target",
        "avg points", "CPython ms/dec", "VM ms -> RP2040 ms/dec (first)"))
    for r in results:
        levels = parse_pairing(r["pairing"])
        rest = levels[1:]
        name = player_name
        if len(rest) > 1 and len(set(rest)) == 1:
            names = "%s v %d %s" % (name(levels[0]), len(rest), name(rest[0]))
        else:
            names = name(levels[0]) + " v " + "+".join(name(x) for x in rest)
        if r.get("oracle"):
            names = "%s (sees %s)" % (names, r["oracle"])
        if r.get("rounds"):
            names = "%s x%d" % (names, r["rounds"])
        lo, hi = wilson(r["wins"], r["games"])
        target = None if r.get("oracle") else TARGETS.get(
            (r["preset"], r["pairing"]), TARGETS.get(r["pairing"]))
        if target is None:
            verdict = ""
        else:
            verdict = "%d%%%s" % (round(100 * target), "+" if lo >= target else
                                  ("?" if hi >= target else "-"))
        points = "%.1f / %.1f" % (r["points_a"] / max(1, r["n_a"]),
                                  r["points_b"] / max(1, r["n_b"]))
        speed = "%.3f / %.3f" % (1000 * r["sec_a"] / max(1, r["dec_a"]),
                                 1000 * r["sec_b"] / max(1, r["dec_b"]))
        vm = ""
        if r.get("vm_decisions"):
            ms = r["vm_ms"] / r["vm_decisions"] / vm_reps(levels[0])
            ratio = RP2040_CALIBRATION_MS / r["calibration_ms"]
            vm = "%.3f -> %.1f (%d dec.)" % (ms, ms * ratio, r["vm_decisions"])
        out.write("%-7s %-20s %6d %5.1f%% [%4.1f, %4.1f]  %6s %-13s %-15s %s\n" % (
            r["preset"], names, r["games"], 100.0 * r["wins"] / max(1, r["games"]),
            100 * lo, 100 * hi, verdict, points, speed, vm))
    out.write("target: + met (whole interval at or above), ? undecided, - missed. Expert "
              "budget: %s.\n" % (
                  "device (engine.expert.budget: the walks a device searches in the time "
                  "nobody notices, by table size)"
                  if all(r["playouts"] is None for r in results)
                  else ", ".join(sorted(set(str(r["playouts"]) for r in results)))
                  + " walks"))
    ponders = sorted(set(r.get("ponder", 0) for r in results))
    if ponders != [0]:
        out.write("Expert ponder walks while a move is shown: %s (engine.expert.ponder_budget: "
                  "the device's).\n" % ", ".join(str(p) for p in ponders))


def build_parser():
    """The command line (every mistake one line, exit status 2)."""
    parser = cli.Parser(prog="tournament", description=__doc__.splitlines()[0])
    parser.add_argument("--preset", choices=("classic", "nordic", "both"), default="both")
    parser.add_argument("--pairing", action="append", type=pairing,
                        help="levels joined by v, e.g. 4v3, 4v3v3v3 or i1000v3 (iN: "
                        "SO-ISMCTS, N iterations; repeatable; default: "
                        + " ".join(STANDARD) + ")")
    parser.add_argument("--games", type=cli.at_least(1), default=2000,
                        help="games per pairing")
    parser.add_argument("--first", type=cli.at_least(0), default=0,
                        help="number of the first game")
    parser.add_argument("--seed", type=int, default=1, help="seed of game 0")
    parser.add_argument("--playouts", type=cli.at_least(1), default=None,
                        help="Expert walks per decision (default: its device budget)")
    parser.add_argument("--ponder", type=cli.at_least(0), default=None, metavar="N",
                        help="Expert walks while a move is shown (default: the device's, "
                        "engine.expert.ponder_budget)")
    parser.add_argument("--no-ponder", dest="ponder", action="store_const", const=0,
                        help="the Expert never ponders (as before issue 17's reuse)")
    parser.add_argument("--oracle", choices=("hands", "all"),
                        help="the Expert sees the others' hands (all: and the draw "
                        "pile's order); measures what hidden cards are worth")
    parser.add_argument("--rounds", type=cli.at_least(1), metavar="N",
                        help="matches of N rounds, lowest total wins (default: the "
                        "preset's own match)")
    parser.add_argument("--vm", type=cli.at_least(0), default=20, metavar="N",
                        help="time N decisions of each pairing's first level in the "
                        "MicroPython VM (0: skip)")
    parser.add_argument("--json", type=cli.new_file,
                        help="also write the results to this file")
    parser.add_argument("--merge", nargs="+", metavar="FILE",
                        help="print one table from --json files of chunks")
    parser.add_argument("--paired", nargs=2, metavar=("A", "B"),
                        help="compare two --json runs of the same pairings and seeds "
                        "game by game: B's win rate less A's, with its 95%% interval")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    return parser


def pairing(text):
    """--pairing: the text as given, once parse_pairing accepts it."""
    try:
        parse_pairing(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def read_chunks(parser, paths, option="--merge"):
    """The results in --json files, merged; a file that cannot be read is a mistake (said
    as `option`'s)."""
    results = []
    for path in paths:
        try:
            with open(path) as f:
                chunk = json.load(f)
            if not isinstance(chunk, list) or not all(isinstance(r, dict) for r in chunk):
                raise ValueError("not a list of results")
            results.extend(chunk)
        except OSError as e:
            parser.error("%s %s: %s" % (option, path, e.strerror))
        except (ValueError, TypeError) as e:
            parser.error("%s %s: not a --json file of this tool (%s)" % (option, path, e))
    try:
        results = merge(results)
        print_table(results, io.StringIO())    # every field there and sound
    except KeyError as e:
        parser.error("%s: a result without %s: not a --json file of this tool" % (option, e))
    except (ValueError, TypeError, AttributeError) as e:
        parser.error("%s: %s" % (option, e))
    return results


def print_paired(parser, path_a, path_b):
    """--paired: one line per pairing the two files share."""
    runs = [dict(((r["preset"], r["pairing"]), r) for r in read_chunks(parser, [p], "--paired"))
            for p in (path_a, path_b)]
    shared = [k for k in runs[0] if k in runs[1]]
    if not shared:
        parser.error("--paired: %s and %s share no pairing" % (path_a, path_b))
    print("%-7s %-8s %6s %7s %7s  %s" % ("preset", "pairing", "games", "A", "B",
                                        "B - A [95%, paired]"))
    for k in shared:
        a, b = runs[0][k], runs[1][k]
        if "won" not in a or "won" not in b:
            parser.error("--paired: %s %s: a file without the games' outcomes" % k)
        try:
            n, pa, pb, d, half = paired(a, b)
        except ValueError as e:
            parser.error("--%s" % e)
        print("%-7s %-8s %6d %6.1f%% %6.1f%%  %+.1f +- %.1f points" % (
            k[0], k[1], n, 100 * pa, 100 * pb, 100 * d, 100 * half))
    return 0


def main(argv=None):
    """Play the pairings (or merge chunks) and print the table; Ctrl-C stops at the end
    of the game in play and prints the table of the games done (exit status 130)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.merge:
        print_table(read_chunks(parser, args.merge))
        return 0
    if args.paired:
        return print_paired(parser, *args.paired)
    presets = ("classic", "nordic") if args.preset == "both" else (args.preset,)
    pairings = args.pairing or list(STANDARD)
    results = []
    total = args.games * len(pairings) * len(presets)
    with cli.StopAtGameEnd() as stop, cli.Progress(total, quiet=args.quiet) as progress:
        for preset in presets:
            rules = (Rules(preset, match="rounds", rounds=args.rounds) if args.rounds
                     else Rules(preset))
            for text in pairings:
                if stop.asked:
                    break
                levels = parse_pairing(text)
                t = time.perf_counter()
                done = len(results) * args.games
                res = run_pairing(rules, levels, args.games, args.first, args.seed,
                                  args.playouts, oracle=args.oracle, stop=stop,
                                  ponder=args.ponder,
                                  progress=lambda k, n, wins: progress.show(done + k))
                if res["games"] == 0:
                    break
                res.update(preset=preset, pairing=text, playouts=args.playouts,
                           oracle=args.oracle, rounds=args.rounds,
                           ponder=expert.ponder_budget(rules, len(levels))
                           if args.ponder is None else args.ponder)
                if args.vm > 0 and not stop.asked and all(isinstance(x, int) for x in levels):  # ISMCTS: host only
                    try:
                        res["vm_decisions"], res["vm_ms"], res["calibration_ms"] = vm_sample(
                            preset, levels, args.vm, args.playouts)
                    except Exception:
                        if not stop.asked:   # Ctrl-C reaches the VM's process too
                            raise
                results.append(res)
                if args.json:
                    with open(args.json, "w") as f:
                        json.dump(results, f, indent=1)
                if not args.quiet:
                    lo, hi = wilson(res["wins"], res["games"])
                    progress.say("%s %s: %d games, %.1f%% [%.1f, %.1f] (%.0f s)" % (
                        preset, text, res["games"], 100.0 * res["wins"] / res["games"],
                        100 * lo, 100 * hi, time.perf_counter() - t))
    if stop.asked:
        print("tournament: stopped (Ctrl-C) after %d of %d games; the table of the games "
              "done:" % (sum(r["games"] for r in results), total), file=sys.stderr)
    if results:
        print_table(results)
    return 130 if stop.asked else 0


if __name__ == "__main__":
    sys.exit(main())
