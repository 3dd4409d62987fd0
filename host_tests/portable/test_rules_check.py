"""apply's check decides every move number as the legal-move list does.

is_legal looks only at what decides the move it is asked about (the card of a play,
no hand for most draws); whatever it skips, its answer is the list's: a move is legal
if legal_moves lists it, or it is a listed play said with "Mau" too early. Checked for
every move number below 2048 and every seat, at positions of random rounds under rule
mixes that reach each phase: a count pending, a card drawn, an ace to follow, a Mau
debtor, an empty draw pile, nothing left to draw, a card that must be played.
"""

from array import array

from engine import moves as mv
from engine.rng import Random
from engine.round import Round, DRAWN, AGAIN
from engine.rules import Rules

MIXES = (  # rules, players
    (("classic", {}), 6),  # 31 of 32 cards dealt: the draw pile runs dry
    (("nordic", {}), 4),
    (("classic", {"must_play_if_able": True, "ace": "play_again", "jack_on_jack": False,
                  "no_finish_on_jack": True}), 6),
    (("classic", {"deck": "double104", "play_drawn": True, "ace": "draw4"}), 5),
)
EACH = 2  # positions checked per kind of position and mix
MOVES = 4000  # moves played per mix at most, looking for them


def kind_of(rnd):
    """2 a card drawn, 3 an ace to follow, 6 nothing left to draw, 5 an empty draw pile,
    4 a Mau debtor, 1 a count pending, 0 a fresh turn: the first that applies."""
    if rnd.phase() == DRAWN:
        return 2
    if rnd.phase() == AGAIN:
        return 3
    if rnd.draw_size() == 0:
        return 6 if rnd.discard_size() == 1 else 5
    if rnd.debtor() is not None:
        return 4
    return 1 if rnd.pending() else 0


def positions(rules, players, seed):
    """Rounds (the same object, moved on) at the positions to check: EACH of every kind
    the rules reach within MOVES moves."""
    rnd = Round(rules, players, Random(seed))
    moves = array("H", range(mv.MAX_MOVES))
    rng = Random(seed + 1)
    found = bytearray(7)
    for _ in range(MOVES):
        if rnd.is_over():
            rnd.deal(players, (rnd.dealer() + 1) % players)
        kind = kind_of(rnd)
        if found[kind] < EACH:
            found[kind] += 1
            yield rnd
        seat = rnd.turn()
        rnd.apply(seat, moves[rng.below(rnd.legal_moves(seat, moves))])


def listed(rnd, seat, moves):
    """The moves legal_moves lists for `seat`, as a bytearray of flags by move number."""
    flags = bytearray(0x800)
    for i in range(rnd.legal_moves(seat, moves)):
        flags[moves[i]] = 1
    return flags


def test_the_check_answers_as_the_list_for_every_move():
    moves = array("H", range(mv.MAX_MOVES))
    for (preset, options), players in MIXES:
        rules = Rules(preset, **options)
        for rnd in positions(rules, players, players * 7):
            for seat in range(players):
                flags = listed(rnd, seat, moves)
                for m in range(0x800):
                    want = flags[m] == 1 or (m & mv.KIND_MASK == mv.PLAY and m & mv.MAU != 0
                                             and flags[m & ~mv.MAU] == 1)
                    assert rnd.is_legal(seat, m) == want, (preset, options, seat, m)
