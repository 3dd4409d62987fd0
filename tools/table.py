"""Play Mau-Mau in a terminal against computer players: ``./mau play``.

    python -m tools.table [--preset classic|nordic] [--players N] [--level 1-4]
                        [--seed S] [--auto]

This is the terminal table that stands in until the device simulator (screens of a
chosen board, see the README) exists. It drives the same engine and AI: you are seat 0,
the others are computer players; `--auto` lets a computer play your seat too and just
prints the story (used by the tests).
"""

import sys
from array import array

from engine import moves as mv
from engine.ai import new_player, LEVEL_NAMES
from engine.expert import suggest
from engine.text import long_name, SUIT_NAMES
from engine.match import Match
from engine.round import View, DRAWN
from engine.rules import Rules
from firmware import story
from tools import cli

NAMES = ("You", "Finn", "Greta", "Hanna", "Ida", "Jonas")


def describe_move(move, rnd, seat):
    """A menu line for one of your legal moves."""
    kind = move & mv.KIND_MASK
    if kind == mv.DRAW:
        return "draw %d" % rnd.pending() if rnd.pending() else "draw a card"
    if kind == mv.PASS:
        return "keep the drawn card and pass" if rnd.phase() == DRAWN else "pass"
    if kind == mv.CATCH:
        return "catch %s: no Mau said!" % NAMES[move & 7]
    text = "play " + long_name(move & 63)
    if move & 15 == 11 and rnd.count(seat) > 1:
        text += ", wish " + SUIT_NAMES[move >> 6 & 3]
    if move & mv.MAU:
        text += ', and say "Mau"'
    return text


def tell(rnd, seat, move, pays, out):
    """Print the events of `seat`'s `move` as sentences, in the words of firmware/story.py;
    `pays`: a draw was pending before the move."""
    ring = [story.marker(seat, move, pays and move & mv.KIND_MASK == mv.DRAW)]
    ring += [rnd.events[i] for i in range(rnd.event_count())]
    for line in story.tell(ring, 0, len(ring), NAMES, 0):
        out("  " + line)


def your_move(rnd, view, moves, n, read, out):
    """Show the table and ask which move to make."""
    out("")
    wish = rnd.wish()
    out("Top card: %s%s%s" % (long_name(rnd.top()),
                              ", wished: " + SUIT_NAMES[wish] if wish is not None else "",
                              ", you must take %d" % rnd.pending() if rnd.pending() else ""))
    out("Others: " + ", ".join("%s %d" % (NAMES[q], rnd.count(q)) for q in range(1, rnd.players())))
    out("Your hand: " + ", ".join(long_name(c) for c in rnd.hand(0)))
    for i in range(n):
        out("  %2d) %s" % (i + 1, describe_move(moves[i], rnd, 0)))
    while True:
        text = read("Your move (1-%d, h for a hint, q to quit): " % n).strip().lower()
        if text == "q":
            raise SystemExit(0)
        if text == "h":
            out("  hint: " + describe_move(suggest(view, moves, n), rnd, 0))
            continue
        if text.isdigit() and 1 <= int(text) <= n:
            return moves[int(text) - 1]
        out("  please type a number from 1 to %d" % n)


def play(args, read=input, out=print):
    """Play one match; return the match."""
    rules = Rules(args.preset)
    match = Match(rules, args.players, args.seed)
    players = [new_player(rules, args.level, args.seed * 7 + k) for k in range(args.players)]
    moves = array("H", range(mv.MAX_MOVES))
    view = View(rules)
    while not match.is_over():
        rnd = match.start_round()
        out("\n== Round %d: %s deals ==" % (match.rounds_played + 1, NAMES[match.dealer]))
        while not rnd.is_over():
            seat = rnd.turn()
            n = rnd.legal_moves(seat, moves)
            rnd.view(seat, view)
            if seat == 0 and not args.auto:
                move = your_move(rnd, view, moves, n, read, out)
            else:
                move = players[seat].choose(view, moves, n)
            pays = rnd.pending() > 0
            rnd.apply(seat, move)
            tell(rnd, seat, move, pays, out)
        points = match.end_round()
        winner = rnd.winner()
        out("Round over: %s" % ("%s won" % NAMES[winner] if winner is not None else "nobody could move"))
        out("Points: " + ", ".join("%s %d" % (NAMES[k], points[k]) for k in range(len(points))))
    out("Match over. Winner: %s" % NAMES[match.winner()])
    return match


def main(argv=None):
    """Parse options and play."""
    parser = cli.Parser(prog="table", description="Mau-Mau at the terminal")
    parser.add_argument("--preset", default="classic", choices=("classic", "nordic"))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--level", type=int, default=3, choices=(1, 2, 3, 4),
                        help="computer players' strength: " + ", ".join(LEVEL_NAMES[1:]))
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--auto", action="store_true", help="a computer plays your seat too")
    args = parser.parse_args(argv)
    try:
        Rules(args.preset).check_players(args.players)
    except ValueError as e:
        parser.error(str(e))
    if args.seed is None:
        import time
        args.seed = int(time.time()) & 0xFFFFFF
    if not sys.stdin.isatty() and not args.auto:
        print("(no terminal to read moves from: the computer plays your seat; see --auto)")
        args.auto = True
    try:
        play(args)
    except (KeyboardInterrupt, EOFError):
        print("\nbye")


if __name__ == "__main__":
    main()
