"""Re-run a replay log through the engine; fail loudly at the first line that differs.

    python -m tools.replay log.jsonl            # any legal moves (a record of real play)
    python tools/replay.py --selfplay log.jsonl  # also: every move is the random players'

For each game the engine is set up from the game line (every rule option, players,
seed) and must write every line of the log again, byte for byte: the deal of each
round, the lines of each logged move (reshuffle lines, then the move line), each
round's scores, the players who join and leave between rounds, and the match result. The moves themselves come from the log, so
any sequence of legal moves replays. With ``--selfplay`` each move must also be the
one ``engine.autoplay``'s seeded random players make, as in a ``tools/selfplay.py``
log; then a log that is legal but not what selfplay wrote (another wish, another
card, a missing catch) fails at that move too.

Exit status 0: every line reproduced; 1: a line did not (the message names the line
number, the expected and the actual text, and for an illegal move the engine's
reason); 2: usage or file error. ``replay_lines`` / ``replay_file`` are the core.
"""

import json
import os
import sys
import time
import traceback
from array import array

if __package__ in (None, ""):  # run as a script: make `engine` importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine import moves as mv  # noqa: E402
from engine import replay as log  # noqa: E402
from engine.notation import parse as parse_card, describe  # noqa: E402
from engine.text import SUIT_LETTERS  # noqa: E402
from engine.match import Match  # noqa: E402
from engine.rng import Random  # noqa: E402
from engine.round import IllegalMove  # noqa: E402
from engine.rules import Rules  # noqa: E402
from tools import cli  # noqa: E402


class ReplayError(Exception):
    """A log line that the engine does not reproduce.

    `line` is the 1-based line number (one past the last line if the log ends too
    early), `expected` the engine's text (or a description in angle brackets when
    no single text is expected), `actual` the log's text (None past the end),
    `reason` the explanation (the engine's IllegalMove reason for an illegal move).
    """

    def __init__(self, line, reason, expected=None, actual=None):
        self.line = line
        self.reason = reason
        self.expected = expected
        self.actual = actual
        Exception.__init__(self, self.describe())

    def describe(self):
        """The mismatch in words: line number, what the log says, what the engine did."""
        parts = ["line %d: %s" % (self.line, self.reason)]
        if self.expected is not None:
            parts.append("  expected: " + self.expected)
        parts.append("  actual:   " + ("<end of log>" if self.actual is None else self.actual))
        if self.expected is not None and self.actual is not None \
                and not self.expected.startswith("<"):
            col = _first_difference(self.expected, self.actual)
            if col is not None:
                parts.append("  first difference at column %d" % (col + 1))
        return "\n".join(parts)


def _first_difference(a, b):
    for i in range(min(len(a), len(b))):
        if a[i] != b[i]:
            return i
    return None if len(a) == len(b) else min(len(a), len(b))


class _Log:
    """The log's lines with 1-based numbers and a cursor."""

    def __init__(self, lines):
        self.lines = lines
        self.pos = 0  # index of the next line to read

    def at_end(self):
        """True when every line has been read."""
        return self.pos >= len(self.lines)

    def text(self, index):
        """Line `index` as written in the log, or None past the end."""
        return self.lines[index] if index < len(self.lines) else None

    def obj(self, index):
        """The parsed JSON object of line `index`, or ReplayError."""
        text = self.lines[index]
        try:
            value = json.loads(text)
        except ValueError as e:
            raise ReplayError(index + 1, "not valid JSON (%s)" % e, None, text)
        if not isinstance(value, dict) or not isinstance(value.get("type"), str):
            raise ReplayError(index + 1, 'not a log line: a JSON object with a "type" '
                              "is expected", None, text)
        return value

    def expect(self, expected, what):
        """The next line must be exactly `expected`."""
        index = self.pos
        actual = self.text(index)
        if actual != expected:
            if actual is None:
                raise ReplayError(index + 1, "the log ends; the engine writes the %s" % what,
                                  expected, None)
            raise ReplayError(index + 1, "the %s differs from the engine's" % what,
                              expected, actual)
        self.pos += 1


def _field(obj, key, types, line, text, kind):
    value = obj.get(key)
    if not isinstance(value, types) or (types is int and isinstance(value, bool)):
        raise ReplayError(line, '%s line: field "%s" is missing or not %s'
                          % (kind, key, _kind_of(types)), None, text)
    return value


def _kind_of(types):
    return {int: "a whole number", str: "a string", bool: "true or false",
            dict: "an object", list: "a list"}.get(types, str(types))


def parse_move(match, obj, line, text):
    """A move line -> (seat, engine move int). Players in the log are match players."""
    def seat_of(key):
        player = _field(obj, key, int, line, text, "move")
        if player not in match.seated:
            raise ReplayError(line, '%s %d is not seated in this round (seats: %s)'
                              % (key, player, match.seated), None, text)
        return match.seat_of(player)

    seat = seat_of("player")
    kind = obj.get("move")
    if kind == "play":
        try:
            card = parse_card(_field(obj, "card", str, line, text, "move"))
        except ValueError as e:
            raise ReplayError(line, "move line: %s" % e, None, text)
        wish = 0
        if "wish" in obj:
            letter = obj["wish"]
            if not isinstance(letter, str) or len(letter) != 1 or letter not in SUIT_LETTERS:
                raise ReplayError(line, 'move line: "wish" must be one of C S H D, not %r'
                                  % (letter,), None, text)
            wish = SUIT_LETTERS.index(letter)
        mau = obj.get("mau", False)
        if not isinstance(mau, bool):
            raise ReplayError(line, 'move line: "mau" must be true or false', None, text)
        return seat, mv.play(card, wish, mau)
    if kind == "draw":
        return seat, mv.DRAW
    if kind == "pass":
        return seat, mv.PASS
    if kind == "catch":
        return seat, mv.catch(seat_of("target"))
    raise ReplayError(line, 'move line: "move" must be play, draw, pass or catch, not %r'
                      % (kind,), None, text)


class _RandomPlayers:
    """engine.autoplay's random players, to check that each move is theirs.

    Uses engine.autoplay's own pieces (imported only for --selfplay), so the check
    follows the engine: the catch decision first, then the uniform legal move."""

    def __init__(self, seed):
        from engine import autoplay
        self.autoplay = autoplay
        self.rng = Random(seed ^ autoplay.PLAYER_SEED)
        self.moves = array("H", bytes(2 * mv.MAX_MOVES))

    def choose(self, rnd):
        """(seat, move) exactly as engine.autoplay.play_game picks it."""
        seat = self.autoplay._catcher(rnd, self.moves, self.rng, 2)
        if seat is not None:
            return seat, mv.CATCH | rnd.debtor()
        seat = rnd.turn()
        n = rnd.legal_moves(seat, self.moves)
        return seat, self.autoplay.random_player(rnd, seat, self.moves, n, self.rng)


def _describe(match, seat, move):
    text = describe(move)
    if mv.kind(move) == mv.CATCH:
        text = "catch player %d" % match.seated[move & 7]
    return "player %d %s" % (match.seated[seat], text)


def _legal_text(match, seat):
    """What the engine would accept from `seat` now, for an illegal move's message."""
    rnd = match.round
    moves = array("H", bytes(2 * mv.MAX_MOVES))
    n = rnd.legal_moves(seat, moves)
    names = [_describe(match, seat, moves[i])[len("player %d " % match.seated[seat]):]
             for i in range(n)]
    text = "<a legal move; player %d may: %s" % (match.seated[seat],
                                                   " | ".join(names) if names else "nothing")
    if seat != rnd.turn():
        text += "; player %d is to move" % match.seated[rnd.turn()]
    return text + ">"


def _replay_move(src, match, players):
    """Read the lines of one move (reshuffle lines, then the move line), apply it."""
    rnd = match.round
    index = src.pos
    while True:
        if index >= len(src.lines):
            raise ReplayError(index + 1, "the log ends inside round %d; a move is expected"
                              % (match.rounds_played + 1), _legal_text(match, rnd.turn()),
                              None)
        obj = src.obj(index)
        if obj["type"] != "reshuffle":
            break
        index += 1
    text = src.lines[index]
    if obj["type"] != "move":
        raise ReplayError(index + 1, "round %d is still in play; a move line is expected, "
                          "not a %s line" % (match.rounds_played + 1, obj["type"]),
                          _legal_text(match, rnd.turn()), text)
    seat, move = parse_move(match, obj, index + 1, text)
    try:
        if players is None:
            rnd.apply(seat, move)
        else:
            if rnd.why_illegal(seat, move) is not None:
                rnd.apply(seat, move)  # raises IllegalMove in the engine's words
            want_seat, want = players.choose(rnd)
            if (want_seat, want) != (seat, move):
                rnd.apply(want_seat, want)
                expected = log.move_lines(match, match.seated[want_seat], want)
                raise ReplayError(
                    index + 1, "the logged move (%s) is legal, but the seeded random "
                    "players make another (%s)" % (_describe(match, seat, move),
                                                   _describe(match, want_seat, want)),
                    expected[-1], text)
            rnd.apply(seat, move)
    except IllegalMove as e:
        who = "player %d" % match.seated[seat]
        if match.seated[seat] != seat:
            who += " (seat %d, which the engine's reason names)" % seat
        raise ReplayError(index + 1, "illegal move by %s: %s" % (who, e),
                          _legal_text(match, seat), text)
    except ReplayError:
        raise
    except Exception as e:  # an engine crash is a finding too: name the line
        raise ReplayError(index + 1, "the engine failed on this move: %s: %s"
                          % (type(e).__name__, e), None, text) from e
    for line in log.move_lines(match, match.seated[seat], move):
        kind = "reshuffle line" if line.startswith('{"type":"reshuffle"') else "move line"
        src.expect(line, kind)


def _replay_seat_changes(src, match):
    """Apply the join and leave lines that come before the next deal."""
    while not src.at_end():
        index = src.pos
        obj = src.obj(index)
        kind = obj["type"]
        if kind not in ("join", "leave"):
            return
        text = src.lines[index]
        try:
            if kind == "join":
                line = log.join_line(match, match.join())
            else:
                player = _field(obj, "player", int, index + 1, text, kind)
                match.leave(player)
                line = log.leave_line(player)
        except ValueError as e:
            raise ReplayError(index + 1, "the engine refuses this %s: %s" % (kind, e),
                              None, text)
        src.expect(line, kind + " line")


def _replay_game(src, check_players):
    index = src.pos
    text = src.lines[index]
    obj = src.obj(index)
    if obj["type"] != "game":
        raise ReplayError(index + 1, "a game line is expected, not a %s line" % obj["type"],
                          "<a game line>", text)
    options = _field(obj, "rules", dict, index + 1, text, "game")
    players = _field(obj, "players", int, index + 1, text, "game")
    seed = _field(obj, "seed", int, index + 1, text, "game")
    try:
        rules = Rules("classic", **options)
        match = Match(rules, players, seed)
    except (ValueError, TypeError) as e:
        raise ReplayError(index + 1, "the engine rejects this game: %s" % e, None, text)
    src.expect(log.game_line(match, seed), "game line")
    chooser = _RandomPlayers(seed) if check_players else None
    rounds = moves = 0
    while True:
        _replay_seat_changes(src, match)
        if match.is_over():
            break
        rnd = match.start_round()
        src.expect(log.deal_line(match), "deal line")
        while not rnd.is_over():
            _replay_move(src, match, chooser)
            moves += 1
        points = match.end_round()
        src.expect(log.round_end_line(match, points), "round_end line")
        rounds += 1
    src.expect(log.match_end_line(match), "match_end line")
    return rounds, moves


def replay_lines(lines, check_players=False):
    """Re-run a log given as a list of lines (without line ends) through the engine.

    Returns {"games", "rounds", "moves", "lines"}; raises ReplayError at the first
    line that the engine does not write the same. `check_players`: each move must
    also be the choice of engine.autoplay's seeded random players (selfplay logs).
    """
    src = _Log(lines)
    games = rounds = moves = 0
    while not src.at_end():
        try:
            r, m = _replay_game(src, check_players)
        except ReplayError:
            raise
        except Exception as e:  # the engine failed between moves (deal, scoring)
            raise ReplayError(src.pos + 1, "the engine failed here: %s: %s"
                              % (type(e).__name__, e), None, src.text(src.pos)) from e
        games += 1
        rounds += r
        moves += m
    if games == 0:
        raise ReplayError(1, "the log holds no game", "<a game line>", None)
    return {"games": games, "rounds": rounds, "moves": moves, "lines": len(lines)}


def split_log(data):
    """Lines of a log's bytes or text, as an editor or another system may have left
    them: a UTF-8 byte order mark at the start is dropped, "\\r\\n" ends a line as
    "\\n" does, and blank lines at the end are no lines."""
    if isinstance(data, bytes):
        data = data.decode("utf-8")
    if data.startswith("\ufeff"):
        data = data[1:]
    lines = data.split("\n")
    for i, line in enumerate(lines):
        if line.endswith("\r"):
            lines[i] = line[:-1]
    while lines and lines[-1] == "":
        lines.pop()
    return lines


def replay_file(path, check_players=False):
    """replay_lines on a file ("-": standard input)."""
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    return replay_lines(split_log(data), check_players)


def main(argv=None):
    """Re-run the log named on the command line; exit 1 at the first line that differs."""
    parser = cli.Parser(
        prog="replay", description="Re-run a replay log through the engine; exit 1 at the "
                                   "first line that does not reproduce.")
    parser.add_argument("log", help="the log file (JSON lines); - for standard input")
    parser.add_argument("--selfplay", action="store_true",
                        help="also check that every move is the one engine.autoplay's "
                             "seeded random players make (logs of tools/selfplay.py)")
    args = parser.parse_args(argv)
    start = time.time()
    try:
        counts = replay_file(args.log, args.selfplay)
    except OSError as e:
        print("replay: %s" % e, file=sys.stderr)
        return 2
    except UnicodeDecodeError as e:
        print("replay: %s: not UTF-8 text: %s" % (args.log, e), file=sys.stderr)
        return 2
    except ReplayError as e:
        if e.__cause__ is not None:  # an engine crash: its traceback helps
            traceback.print_exception(type(e.__cause__), e.__cause__,
                                      e.__cause__.__traceback__, file=sys.stderr)
        print("replay: %s: FAILED at %s" % (args.log, e.describe()), file=sys.stderr)
        return 1
    print("replay: %s: OK, %d games, %d rounds, %d moves, %d lines reproduced%s, %.2f s"
          % (args.log, counts["games"], counts["rounds"], counts["moves"], counts["lines"],
             " (moves are the random players')" if args.selfplay else "",
             time.time() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
