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


def random_player(rnd, seat, moves, n, rng):
    """The random legal player: any legal move, uniformly."""
    return moves[rng.below(n)]


def play_game(rules, players, seed, write, choose=random_player, catch_chance=2):
    """Play one seeded match, calling write(line) for each replay-log line.

    `choose(round, seat, moves, n, rng)` picks the move of the player to move. Every
    other player who can catch a forgotten "Mau" does so with chance 1/catch_chance,
    in seat order after the player to move.
    """
    match = Match(rules, players, seed)
    rng = Random(seed ^ PLAYER_SEED)
    moves = array("H", bytes(2 * mv.MAX_MOVES))
    write(replay.game_line(match, seed))
    while not match.is_over():
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
