"""apply's legality check (Round.is_legal) looks only at what decides the move.

The check runs on every move a player makes, so it lists no more than it must: the
card of a play (found in the hand), no hand at all for a catch or for a draw that
does not depend on the plays. A table that records which of its slots are read
shows it (CPython only: MicroPython's bytearray cannot be watched). That it still
decides like the full list is test_properties' (every move against the oracle) and
portable/test_rules_check.py's (every move number, both runtimes).
"""

from host_tests.portable.table import stacked, play

from engine import moves as mv
from engine.round import Round


class WatchedTable(bytearray):
    """A round's table that notes every slot read by index."""

    def __init__(self, data):
        super().__init__(data)
        self.read = set()

    def __getitem__(self, i):
        if isinstance(i, int):
            self.read.add(i)
        return super().__getitem__(i)


def hand_slots_read(rnd, seat, move):
    """The slots of `seat`'s hand that is_legal(seat, move) reads, and its answer."""
    lo, hi = rnd.s[15 + seat], rnd.s[16 + seat]  # the header's bounds of hand `seat`
    rnd.s = WatchedTable(rnd.s)
    legal = rnd.is_legal(seat, move)
    read = sorted(i - lo for i in rnd.s.read if lo <= i < hi)
    rnd.s = bytearray(rnd.s)
    return read, legal


def five_cards(**options):
    """Seat 0 to move with five cards on a 9 of diamonds, a full draw pile."""
    return stacked("classic", 2, ["KD 8C QS 9H AC", "7H 7S TC JD KS"], draw="8S",
                   discard="9D", **options)


def test_checking_a_draw_reads_no_card_of_the_hand():
    rnd = five_cards()
    assert hand_slots_read(rnd, 0, mv.DRAW) == ([], True)


def test_checking_a_catch_reads_no_card_of_the_hand():
    rnd = five_cards()
    assert hand_slots_read(rnd, 1, mv.catch(0)) == ([], False)


def test_checking_a_play_reads_the_hand_only_as_far_as_that_card():
    rnd = five_cards()
    first = rnd.s[rnd.s[15]]  # the card in the hand's first slot
    read, legal = hand_slots_read(rnd, 0, first)
    assert read == [0]
    assert legal == rnd.is_legal(0, first)


def test_a_play_whose_card_is_not_held_is_refused_after_one_look_through_the_hand():
    rnd = five_cards()
    read, legal = hand_slots_read(rnd, 0, play("7H"))
    assert not legal
    assert read == [0, 1, 2, 3, 4]


def test_a_draw_where_a_card_must_be_played_reads_the_hand():
    rnd = five_cards(must_play_if_able=True)  # KD and 9H fit: no draw
    read, legal = hand_slots_read(rnd, 0, mv.DRAW)
    assert read == [0, 1, 2, 3, 4] and not legal


def test_the_watched_table_is_a_round_table():
    rnd = five_cards()
    assert isinstance(rnd, Round) and hand_slots_read(rnd, 0, play("KD"))[1]
