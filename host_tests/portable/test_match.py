"""Matches: fixed rounds, elimination, the dealer moving on, players joining and leaving.

Each round of a match is stacked so that a chosen seat wins with its one card and
the others hold known points. Runs unchanged under pytest and in the MicroPython VM.
"""

from engine.match import Match
from engine.rules import Rules

from engine import moves as mv

from table import lay, play, raises, plant

RANKS = "789TJQKA"
VALUES = (7, 8, 9, 10, 11, 10, 10, 11)


def worth_hand(points, suit):
    """Cards of one suit (a Skat deck's ranks) worth exactly `points` minus points."""
    for mask in range(1, 256):
        total = 0
        for i in range(8):
            if mask >> i & 1:
                total += VALUES[i]
        if total == points:
            return " ".join([RANKS[i] + suit for i in range(8) if mask >> i & 1])
    raise AssertionError("no hand of one suit is worth %d" % points)


def play_round(match, winner_player, worth):
    """Deal the next round and let `winner_player` win it with one card (the Queen of
    diamonds on the 9 of diamonds); every other seated player p keeps cards worth
    worth[p], in a suit of their own. Return (round, points per seat)."""
    rnd = match.start_round()
    hands = []
    winner = match.seat_of(winner_player)
    suits = "CSH"
    for seat in range(rnd.players()):
        player = match.seated[seat]
        if seat == winner:
            hands.append("QD")
        else:
            hands.append(worth_hand(worth[player], suits[0]))
            suits = suits[1:]
    lay(rnd, hands, discard="9D", turn=winner)
    rnd.apply(winner, play("QD"))
    assert rnd.is_over() and rnd.winner() == winner
    return rnd, match.end_round()


def test_fixed_rounds_lowest_total_wins():
    m = Match(Rules("classic", rounds=3), 3, 1)
    rnd, pts = play_round(m, 0, {1: 10, 2: 20})
    assert pts == [0, 10, 20] and m.totals == [0, 10, 20]
    assert not m.is_over() and m.winner() is None
    play_round(m, 1, {0: 31, 2: 7})
    assert m.totals == [31, 10, 27] and not m.is_over()
    play_round(m, 2, {0: 10, 1: 21})
    assert m.totals == [41, 31, 27]
    assert m.is_over() and m.winner() == 2
    assert raises(ValueError, m.start_round)


def test_fixed_rounds_tie_goes_to_the_earliest_player():
    m = Match(Rules("classic", rounds=1), 3, 1)
    play_round(m, 2, {0: 10, 1: 10})
    assert m.totals == [10, 10, 0] and m.winner() == 2
    m = Match(Rules("classic", rounds=2), 3, 1)
    play_round(m, 0, {1: 10, 2: 20})
    play_round(m, 1, {0: 10, 2: 7})
    assert m.totals == [10, 10, 27] and m.winner() == 0


def test_classic_match_defaults_to_one_round():
    m = Match(Rules("classic"), 2, 5)
    play_round(m, 1, {0: 17})
    assert m.is_over() and m.winner() == 1


def test_first_round_the_last_player_deals_and_player_zero_begins():
    m = Match(Rules("classic"), 4, 9)
    rnd = m.start_round()
    assert m.dealer == 3 and rnd.dealer() == 3
    assert rnd.turn() == 0


def test_dealer_moves_one_seat_each_round_and_the_next_player_begins():
    m = Match(Rules("classic", rounds=5), 3, 2)
    dealers = []
    starters = []
    for _ in range(5):
        rnd = m.start_round()
        dealers.append(rnd.dealer())
        starters.append(rnd.turn())
        lay(rnd, ["QD", "7C", "TC"], discard="9D", turn=0)
        rnd.apply(0, play("QD"))
        m.end_round()
    assert dealers == [2, 0, 1, 2, 0]
    assert starters == [0, 1, 2, 0, 1]


def test_elimination_players_over_the_limit_are_out_until_one_is_left():
    m = Match(Rules("nordic", limit=30), 3, 4)
    play_round(m, 0, {1: 31, 2: 10})
    assert m.totals == [0, 31, 10]
    assert m.seated == [0, 2] and not m.is_over()  # 31 is over 30: out
    rnd, pts = play_round(m, 2, {0: 30})
    assert rnd.players() == 2 and pts == [30, 0]
    assert m.seated == [0, 2] and not m.is_over()  # 30 is the limit, not over it
    play_round(m, 0, {2: 21})
    assert m.totals == [30, 31, 31]
    assert m.seated == [0] and m.is_over() and m.winner() == 0
    assert raises(ValueError, m.start_round)


def test_elimination_seats_follow_the_players_still_in():
    m = Match(Rules("nordic", limit=20), 4, 4)
    play_round(m, 3, {0: 10, 1: 21, 2: 7})
    assert m.seated == [0, 2, 3]
    rnd = m.start_round()
    assert rnd.players() == 3 and m.seat_of(3) == 2 and m.seat_of(2) == 1


def test_join_between_rounds_starts_at_the_worst_current_total():
    m = Match(Rules("classic", rounds=3), 2, 3)
    play_round(m, 0, {1: 20})
    newcomer = m.join()
    assert newcomer == 2 and m.totals[newcomer] == 20
    assert m.seated == [0, 1, 2]
    rnd, pts = play_round(m, 2, {0: 10, 1: 7})
    assert rnd.players() == 3 and pts == [10, 7, 0]
    assert m.totals == [10, 27, 20]


def test_leave_removes_the_player_from_the_score_list():
    m = Match(Rules("classic", rounds=2), 3, 3)
    play_round(m, 1, {0: 10, 2: 51})
    m.leave(1)  # the leader leaves
    assert m.seated == [0, 2]
    rnd, pts = play_round(m, 2, {0: 7})
    assert rnd.players() == 2 and pts == [7, 0]
    assert m.is_over()
    assert m.winner() == 0  # player 1 (0 points) has left: not in the standings
    # A newcomer's start counts only the players at the table.
    m = Match(Rules("classic", rounds=3), 3, 3)
    play_round(m, 0, {1: 51, 2: 10})
    m.leave(1)
    assert m.totals[m.join()] == 10


def test_dealer_moves_on_when_the_dealer_leaves():
    m = Match(Rules("classic", rounds=3), 3, 6)
    rnd, _ = play_round(m, 0, {1: 7, 2: 7})
    assert m.dealer == 2
    m.leave(2)
    rnd = m.start_round()
    assert m.dealer == 0 and rnd.dealer() == 0 and rnd.turn() == 1


def test_join_and_leave_during_a_round_are_refused():
    m = Match(Rules("classic", rounds=3), 3, 8)
    rnd = m.start_round()
    assert "between rounds" in raises(ValueError, m.join)
    assert "between rounds" in raises(ValueError, m.leave, 1)
    assert m.seated == [0, 1, 2] and len(m.totals) == 3
    lay(rnd, ["QD", "7C", "TC"], discard="9D", turn=0)
    rnd.apply(0, play("QD"))
    # The round is over but not scored yet: still refused.
    raises(ValueError, m.join)
    raises(ValueError, m.leave, 1)
    m.end_round()
    m.leave(1)
    assert m.seated == [0, 2]


def test_join_beyond_the_table_size_and_leaving_twice_are_refused():
    m = Match(Rules("nordic"), 5, 8)
    assert "max_players" in raises(ValueError, m.join)
    m.leave(4)
    raises(ValueError, m.leave, 4)
    raises(ValueError, m.leave, 9)
    assert m.join() == 5 and len(m.seated) == 5


def test_round_order_is_enforced():
    m = Match(Rules("classic", rounds=2), 2, 8)
    raises(ValueError, m.end_round)
    m.start_round()
    raises(ValueError, m.start_round)  # still being played
    raises(ValueError, m.end_round)    # not finished


def test_fixed_rounds_end_when_fewer_than_two_remain():
    m = Match(Rules("classic", rounds=5), 2, 8)
    play_round(m, 0, {1: 10})
    m.leave(1)
    assert m.is_over() and m.winner() == 0


def test_a_stalled_round_scores_every_hand_and_has_no_winner():
    m = Match(Rules("classic", rounds=2), 2, 8)
    rnd = m.start_round()
    lay(rnd, ["7C 8C TC QC KC AC 7S 8S TS QS KS AS 7H 8H",
              "TH QH KH AH 9H 9C 9S JC JS JH JD 7D 8D TD QD KD AD"],
        draw="", discard="9D", turn=rnd.turn())
    # A stall cannot arise from a full deck (see test_rules_classic): plant one.
    plant(rnd, 1, "TH QH KH AH TH QH KH AH 8H 8H 8H 8H 8H 8H 8H 8H 8H")
    rnd.apply(0, mv.PASS)
    rnd.apply(1, mv.PASS)
    assert rnd.is_over() and rnd.winner() is None
    assert m.end_round() == [127, 154]
    assert m.totals == [127, 154] and m.last_winner is None
    assert not m.is_over()
