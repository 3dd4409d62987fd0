"""Internal promises of the engine that its speed tricks rely on."""

from engine import events as ev
from engine import moves as mv
from engine import round as rd


def test_constants_repeated_for_speed_match_their_modules():
    # round.py repeats a few constants so MicroPython folds them at compile time;
    # on CPython the underscore names are ordinary globals we can read.
    if not hasattr(rd, "_KIND"):
        return  # MicroPython: const() names with a leading underscore do not exist at run time
    from engine import cards, rules
    assert rd._EV_PLAY == ev.PLAY << 12
    assert rd._EV_DRAW == ev.DRAW << 12
    assert rd._EV_PASS == ev.PASS << 12
    assert rd._KIND == mv.KIND_MASK
    assert rd._DRAW == mv.DRAW and rd._PASS == mv.PASS and rd._CATCH == mv.CATCH
    assert rd._MAU == mv.MAU and rd._MAX_MOVES == mv.MAX_MOVES
    for name in ("SEVEN", "EIGHT", "NINE", "JACK", "ACE", "NO_CARD"):
        assert getattr(rd, "_" + name) == getattr(cards, name), name
    for name in ("ACE_DRAW4", "ACE_PLAY_AGAIN", "MAU_CHALLENGE", "MAU_AUTO"):
        assert getattr(rd, "_" + name) == getattr(rules, name), name
    for name in ("DEAL", "WISH", "PENALTY", "RESHUFFLE", "SKIP", "REVERSE", "MAU", "FORGOT",
                 "CAUGHT", "ROUND_END"):
        assert getattr(rd, "_E_" + name) == getattr(ev, name), name
    assert rd._REASON_MAU == ev.REASON_MAU and rd._REASON_LAST_SEVEN == ev.REASON_LAST_SEVEN


def test_apply_returns_the_next_seat_or_minus_one():
    from array import array
    from engine.rules import Rules
    from engine.rng import Random
    rnd = rd.Round(Rules("classic"), 3, Random(4))
    moves = array("H", range(mv.MAX_MOVES))
    rng = Random(9)
    p = rnd.turn()
    while p >= 0:
        n = rnd.legal_moves(p, moves)
        p = rnd.apply(p, moves[rng.below(n)])
        assert p == (-1 if rnd.is_over() else rnd.turn())
    assert rnd.is_over()


def test_a_seat_that_does_not_exist_cannot_catch():
    from engine.rules import Rules
    from engine.rng import Random
    rnd = rd.Round(Rules("classic"), 3, Random(4))
    for seat in (3, 9, -1):
        assert not rnd.is_legal(seat, mv.catch(1))
        try:
            rnd.apply(seat, mv.catch(1))
        except rd.IllegalMove as e:
            assert "no player" in str(e)
        else:
            assert False, "seat %d caught" % seat


def test_header_layout_repeated_in_tables_matches_the_round():
    from engine import tables as tb
    if not hasattr(tb, "_CARDS"):
        return  # MicroPython: see above
    for name in ("_TURN", "_PENDING", "_WISH", "_PHASE", "_DEBTOR", "_IDLE", "_WINNER",
                 "_PLAYERS", "_SAID_MAU", "_NEV", "_END", "_BOUNDS", "_MOVES_LO",
                 "_MOVES_HI", "_CARDS"):
        assert getattr(tb, name) == getattr(rd, name), name
    assert tb._NOBODY == rd.NOBODY == rd.NO_WISH


def test_fits_table_says_same_suit_or_same_rank():
    for top in range(64):
        for c in range(64):
            same = c >> 4 == top >> 4 or c & 15 == top & 15
            assert rd._FITS[c ^ top] == (1 if same else 0), (c, top)


def test_a_list_takes_the_legal_moves_as_an_array_does():
    # The caller owns the buffer: an array('H') on the device, a list where it is faster.
    from array import array
    from engine.rules import Rules
    from engine.rng import Random
    for preset, players in (("classic", 4), ("nordic", 5)):
        rnd = rd.Round(Rules(preset), players, Random(11))
        packed = array("H", bytes(2 * mv.MAX_MOVES))
        listed = [0] * mv.MAX_MOVES
        rng = Random(12)
        p = rnd.turn()
        plays = 0
        while p >= 0 and plays < 400:
            n = rnd.legal_moves(p, packed)
            assert rnd.legal_moves(p, listed) == n
            assert list(packed[:n]) == listed[:n]
            p = rnd.apply_legal(p, listed[rng.below(n)])
            plays += 1
        assert plays > 20
