"""Seeded self-play games written as a replay log (one JSON object per line).

    python -m tools.selfplay --preset classic --players 4 --games 100 --seed 7 --out log.jsonl
    python tools/selfplay.py --preset nordic --players 3 --rule rounds=5 --rule match=rounds

Game i (counting from 0) is played with seed ``--seed + i``, so any single game of a
run can be played again on its own with ``--games 1 --seed <that seed>``. The players
are ``engine.autoplay``'s random legal players. ``docs/replay-format.md`` describes
the log; ``tools/replay.py`` checks a log against the engine.
"""

import json
import os
import sys
import time

if __package__ in (None, ""):  # run as a script: make `engine` importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.autoplay import play_game  # noqa: E402
from tools import cli  # noqa: E402
from engine.rules import PRESETS, OPTION_NAMES, Rules  # noqa: E402


def parse_rule(text):
    """``name=value`` -> (name, value): true/false, whole numbers and JSON (card
    points) are decoded, anything else stays a string (``deck=french52``)."""
    name, sep, raw = text.partition("=")
    name = name.strip()
    raw = raw.strip()
    if not sep or not name:
        raise ValueError("--rule %r: expected name=value, e.g. ace=draw4" % (text,))
    if raw.lower() in ("true", "false"):
        return name, raw.lower() == "true"
    try:
        value = json.loads(raw)
    except ValueError:
        value = raw
    return name, value


def make_rules(preset, rule_args):
    """Rules from a preset and a list of ``name=value`` strings (later ones win)."""
    options = {}
    for text in rule_args:
        name, value = parse_rule(text)
        options[name] = value
    return Rules(preset, **options)


def run(rules, players, games, seed, write, seat_changes=False, stop=None, progress=None):
    """Play `games` seeded matches (game i uses seed + i), calling write(line) for every
    log line, a game's lines once the game is over; with `seat_changes` players join and leave
    between rounds. A true `stop.asked` ends the run before the next game;
    `progress.show(done)` hears of each game done. Returns counts: games, lines,
    rounds, moves."""
    counts = {"games": 0, "lines": 0, "rounds": 0, "moves": 0}
    lines = []

    def counting_write(line):
        counts["lines"] += 1
        if line.startswith('{"type":"move"'):
            counts["moves"] += 1
        elif line.startswith('{"type":"round_end"'):
            counts["rounds"] += 1
        lines.append(line)

    for i in range(games):
        if stop is not None and stop.asked:
            break
        play_game(rules, players, seed + i, counting_write, seat_changes=seat_changes)
        for line in lines:   # a game reaches the log once it is over: only whole games do
            write(line)
        lines.clear()
        counts["games"] += 1
        if progress is not None:
            progress.show(counts["games"])
    return counts


def build_parser():
    """The command line: preset, players, games, seed, rule overrides, output."""
    parser = cli.Parser(
        prog="selfplay",
        description="Play seeded games between random legal players and write the "
                    "replay log (JSON lines). Game i uses seed SEED+i.")
    parser.add_argument("--preset", default="classic", choices=sorted(PRESETS),
                        help="rule preset (default classic)")
    parser.add_argument("--players", type=int, default=4, help="players per game (default 4)")
    parser.add_argument("--games", type=cli.at_least(1), default=1,
                        help="number of games (default 1)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the first game; game i uses SEED+i (default 0)")
    parser.add_argument("--out", default="-", type=cli.new_file,
                        help="log file to write (default: standard output)")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress line on stderr (there is none when stderr is not "
                             "a terminal)")
    parser.add_argument("--seat-changes", action="store_true",
                        help="players join and leave between rounds (seeded; written as "
                             "join and leave lines)")
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                        help="override a rule option, repeatable: %s. Values: true/false, "
                             "numbers, words (deck=french52), JSON for points "
                             "(points={\"J\":20})" % ", ".join(OPTION_NAMES))
    return parser


def main(argv=None):
    """Play the games and write the replay log."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        rules = make_rules(args.preset, args.rule)
        rules.check_players(args.players)
    except (ValueError, TypeError) as e:
        parser.error(str(e))

    start = time.time()
    to_stdout = args.out == "-"
    try:
        out = sys.stdout if to_stdout else open(args.out, "w", encoding="utf-8", newline="\n")
    except OSError as e:
        parser.error("--out %s: %s" % (args.out, e.strerror))
    try:
        with cli.StopAtGameEnd() as stop, cli.Progress(args.games, quiet=args.quiet) as progress:
            counts = run(rules, args.players, args.games, args.seed,
                         lambda line: out.write(line + "\n"), args.seat_changes, stop,
                         progress)
        out.flush()
    except BrokenPipeError:  # e.g. `selfplay | head`: the reader has had enough
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # no second error when Python exits
        return 1
    finally:
        if not to_stdout:
            out.close()
    seconds = time.time() - start
    print("selfplay: %s%d games, %d moves, %d rounds, %d lines, %.2f s%s"
          % ("stopped (Ctrl-C) after " if stop.asked else "", counts["games"],
             counts["moves"], counts["rounds"], counts["lines"], seconds,
             "" if to_stdout else " -> " + args.out), file=sys.stderr)
    return 130 if stop.asked else 0


if __name__ == "__main__":
    sys.exit(main())
