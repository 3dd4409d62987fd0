"""Seeded games between computer players, written as a replay log.

Used by ``tools/selfplay.py`` on the laptop and by the golden-replay tests in the
MicroPython VM: the same seed gives the same log, byte for byte, on both.
"""

from array import array

from engine.match import Match
from engine.rng import Random
from engine import moves as mv
from engine import replay

PLAYER_SEED = 0x2545F49  # the players' random choices use their own stream
TABLE_SEED = 0x1B873593  # and so do the players coming and going (seat_changes)


def random_player(rnd, seat, moves, n, rng):
    """The random legal player: any legal move, uniformly."""
    return moves[rng.below(n)]


def play_game(rules, players, seed, write, choose=random_player, catch_chance=2,
              seat_changes=False):
    """Play one seeded match, calling write(line) for each replay-log line.

    `choose(round, seat, moves, n, rng)` picks the move of the player to move. Every
    other player who can catch a forgotten "Mau" does so with chance 1/catch_chance,
    in seat order after the player to move. With `seat_changes`, players also join
    and leave between rounds (change_seats), rolled by a stream of their own.
    """
    match = Match(rules, players, seed)
    rng = Random(seed ^ PLAYER_SEED)
    table_rng = Random(seed ^ TABLE_SEED) if seat_changes else None
    moves = array("H", bytes(2 * mv.MAX_MOVES))
    write(replay.game_line(match, seed))
    while not match.is_over():
        if table_rng is not None and match.rounds_played:
            change_seats(match, table_rng, write)  # (at least two stay seated)
        rnd = match.start_round()
        write(replay.deal_line(match))
        while not rnd.is_over():
            seat = _catcher(rnd, moves, rng, catch_chance)
            if seat is None:
                seat = rnd.turn()
                n = rnd.legal_moves(seat, moves)
                move = choose(rnd, seat, moves, n, rng)
            else:
                move = mv.CATCH | rnd.debtor()
            rnd.apply(seat, move)
            for line in replay.move_lines(match, match.seated[seat], move):
                write(line)
        points = match.end_round()
        write(replay.round_end_line(match, points))
    write(replay.match_end_line(match))
    return match


def change_seats(match, rng, write):
    """Between rounds: with chance 1/4 a seated player leaves (while more than two are
    seated), then with chance 1/4 a new player joins (while the table has room)."""
    seated = match.seated
    if len(seated) > 2 and rng.below(4) == 0:
        player = seated[rng.below(len(seated))]
        match.leave(player)
        write(replay.leave_line(player))
    if len(seated) < match.rules.most_players() and rng.below(4) == 0:
        write(replay.join_line(match, match.join()))


def _catcher(rnd, moves, rng, chance):
    """A seat (not the player to move) that catches a forgotten Mau now, or None."""
    debtor = rnd.debtor()
    if debtor is None:
        return None
    players = rnd.players()
    turn = rnd.turn()
    for k in range(1, players):
        seat = (turn + k) % players
        if seat != debtor and rng.below(chance) == 0:
            return seat
    return None
