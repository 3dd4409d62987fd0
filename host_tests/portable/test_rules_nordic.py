"""Rule scenarios of the nordic preset (seed 003, Swedish Mau Mau with a double deck).

Each test stacks a table and plays the moves the rule talks about. Runs unchanged
under pytest and inside the MicroPython VM (plain functions, bare asserts).
"""

from engine.notation import parse
from engine.cards import SEVEN, EIGHT, NINE, JACK, ACE
from engine.rng import Random
from engine.round import Round, NORMAL, AGAIN
from engine.rules import Rules
from engine import moves as mv

from table import (stacked, play, legal, illegal, evs, kinds, hand, names,
                   points, every_card_once, drawn_cards, raises)

ACTION_RANKS = (SEVEN, EIGHT, NINE, JACK, ACE)


def test_preset_values():
    d = Rules("nordic").to_dict()
    assert d["deck"] == "double104" and d["hand_size"] == 7
    assert d["min_players"] == 2 and d["max_players"] == 5
    assert d["first_card"] == "turn_again" and d["play_drawn"] is False
    assert d["nine_reverses"] is True and d["ace"] == "play_again"
    assert d["mau_penalty"] == "auto" and d["last_seven"] == "draws"
    assert d["match"] == "elimination"
    assert d["jack_on_jack"] is True and d["stack_sevens"] is True
    assert d["must_play_if_able"] is False


def test_deal_gives_seven_cards_each_from_104():
    rnd = Round(Rules("nordic"), 5, Random(11), 4)
    for p in range(5):
        assert rnd.count(p) == 7
    assert rnd.draw_size() + rnd.discard_size() == 104 - 35
    assert rnd.turn() == 0
    assert every_card_once(rnd)
    raises(ValueError, Round, Rules("nordic"), 6, Random(1))


def test_first_up_card_turns_up_further_cards_until_no_action_card():
    rules = Rules("nordic")
    turned_more = 0
    for seed in range(24):
        rnd = Round(rules, 3, Random(seed), 0)
        assert rnd.top() & 15 not in ACTION_RANKS, seed
        for i in range(1, rnd.discard_size()):
            assert rnd.discard(i) & 15 in ACTION_RANKS, seed  # the ones turned over
        if rnd.discard_size() > 1:
            turned_more += 1
        assert rnd.pending() == 0 and rnd.wish() is None and rnd.direction() == 1
        assert rnd.turn() == 1 and rnd.phase() == NORMAL
        assert every_card_once(rnd)
    assert turned_more > 0


# -- matching, drawing -------------------------------------------------------------------

def test_card_fits_by_suit_or_rank_and_identical_cards_are_listed_once():
    rnd = stacked("nordic", 2, hands=["8D 8D 9S TC QH AC KS", "2S 3S 4S 5S 6S 2H 3H"],
                  discard="9D")
    assert legal(rnd, 0) == ["draw", "play 8D", "play 9S"]
    assert "TC does not fit on 9D" in illegal(rnd, 0, play("TC"))
    rnd.apply(0, play("8D"))
    assert hand(rnd, 0) == names("8D 9S TC QH AC KS")


def test_voluntary_draw_is_allowed():
    rnd = stacked("nordic", 2, hands=["8D 2C 3C 4C 5C 6C TC", "2S 3S 4S 5S 6S 2H 3H"],
                  draw="KD", discard="9D")
    assert "draw" in legal(rnd, 0)
    rnd.apply(0, mv.DRAW)
    assert evs(rnd) == [("draw", 0, "KD")]


def test_draw_ends_the_turn_even_if_the_drawn_card_fits():
    rnd = stacked("nordic", 2, hands=["2C 3C 4C 5C 6C TC QC", "2S 3S 4S 5S 6S 2H 3H"],
                  draw="KD", discard="9D")
    assert legal(rnd, 0) == ["draw"]
    rnd.apply(0, mv.DRAW)
    assert evs(rnd) == [("draw", 0, "KD")]
    assert rnd.turn() == 1 and rnd.phase() == NORMAL
    assert hand(rnd, 0) == names("2C 3C 4C 5C 6C TC QC KD")
    assert "it is player 1's turn" in illegal(rnd, 0, play("KD"))


# -- action cards --------------------------------------------------------------------------

FOUR = ["9D 2C 3C 4C", "9S 8S 2H 3H", "7S 4H 5H 6H", "9H 8D 7D 2S"]


def test_nine_reverses_the_direction():
    rnd = stacked("nordic", 4, hands=FOUR, discard="5D")
    rnd.apply(0, play("9D"))
    assert evs(rnd) == [("play", 0, "9D"), ("reverse", 0, 0)]
    assert rnd.direction() == -1 and rnd.turn() == 3
    rnd.apply(3, play("9H"))
    assert evs(rnd) == [("play", 3, "9H"), ("reverse", 0, 1)]
    assert rnd.direction() == 1 and rnd.turn() == 0


def test_eight_skips_against_the_direction_after_a_reversal():
    rnd = stacked("nordic", 4, hands=FOUR, discard="5D")
    rnd.apply(0, play("9D"))
    rnd.apply(3, play("8D"))
    assert evs(rnd) == [("play", 3, "8D"), ("skip", 2, 0)]
    assert rnd.turn() == 1


def test_seven_goes_to_the_previous_player_after_a_reversal():
    rnd = stacked("nordic", 4, hands=FOUR, draw="KC KS", discard="5D")
    rnd.apply(0, play("9D"))
    rnd.apply(3, play("7D"))
    assert rnd.turn() == 2 and rnd.pending() == 2
    assert legal(rnd, 2) == ["draw", "play 7S"]
    rnd.apply(2, mv.DRAW)
    assert drawn_cards(rnd, 2) == ["KC", "KS"]
    assert rnd.turn() == 1


def test_nine_with_two_players_changes_nothing():
    rnd = stacked("nordic", 2, hands=["9D 2C 3C 4C", "9S 8S 2H 3H"], discard="5D")
    rnd.apply(0, play("9D"))
    assert rnd.direction() == 1 and rnd.turn() == 1
    rnd.apply(1, play("9S"))
    assert rnd.direction() == 1 and rnd.turn() == 0


def test_eight_with_two_players_the_same_player_moves_again():
    rnd = stacked("nordic", 2, hands=["8D 2D 3C 4C", "9S 8S 2H 3H"], discard="5D")
    rnd.apply(0, play("8D"))
    assert evs(rnd) == [("play", 0, "8D"), ("skip", 1, 0)]
    assert rnd.turn() == 0


def test_sevens_stack_with_identical_cards_and_the_count_grows():
    rnd = stacked("nordic", 3, hands=["7D 2C 3C 4C", "7D 8S 2H 3H", "7S 4H 5H 6H"],
                  draw="KC KS KH KD QC QS", discard="5D")
    rnd.apply(0, play("7D"))
    assert legal(rnd, 1) == ["draw", "play 7D"]
    rnd.apply(1, play("7D"))
    assert rnd.pending() == 4
    rnd.apply(2, play("7S"))
    assert rnd.pending() == 6 and rnd.turn() == 0
    assert legal(rnd, 0) == ["draw"]
    rnd.apply(0, mv.DRAW)
    assert drawn_cards(rnd, 0) == ["KC", "KS", "KH", "KD", "QC", "QS"]
    assert rnd.turn() == 1 and rnd.pending() == 0


def test_ace_the_same_player_plays_one_more_card():
    rnd = stacked("nordic", 3, hands=["AD KD 5S TS 2C", "3S 4S", "5H 6H"], discard="9D")
    rnd.apply(0, play("AD"))
    assert evs(rnd) == [("play", 0, "AD")]
    assert rnd.turn() == 0 and rnd.phase() == AGAIN
    # A fitting card must follow: no voluntary draw now.
    assert legal(rnd, 0) == ["play KD"]
    assert "fitting card must be played" in illegal(rnd, 0, mv.DRAW)
    assert illegal(rnd, 0, mv.PASS)
    assert "it is player 0's turn" in illegal(rnd, 1, play("3S"))
    rnd.apply(0, play("KD"))
    assert rnd.turn() == 1 and rnd.phase() == NORMAL


def test_ace_without_a_fitting_card_draws_one_card_and_the_turn_ends():
    rnd = stacked("nordic", 3, hands=["AD 5S TS 2C", "3S 4S", "5H 6H"],
                  draw="KD QD", discard="9D")
    rnd.apply(0, play("AD"))
    assert legal(rnd, 0) == ["draw"]
    rnd.apply(0, mv.DRAW)
    assert evs(rnd) == [("draw", 0, "KD")]  # one card, even though it fits
    assert rnd.turn() == 1 and rnd.phase() == NORMAL
    assert hand(rnd, 0) == names("5S TS 2C KD")


def test_ace_then_an_action_card_keeps_its_effect():
    rnd = stacked("nordic", 3, hands=["AD 8D 5S", "3S 4S", "5H 6H"], discard="9D")
    rnd.apply(0, play("AD"))
    rnd.apply(0, play("8D", mau=True))
    assert evs(rnd) == [("play", 0, "8D"), ("mau", 0, 0), ("skip", 1, 0)]
    assert rnd.turn() == 2
    rnd = stacked("nordic", 3, hands=["AD AS 5S TS", "3S 4S", "5H 6H"], discard="9D")
    rnd.apply(0, play("AD"))
    rnd.apply(0, play("AS"))  # ace on ace: play again once more
    assert rnd.turn() == 0 and rnd.phase() == AGAIN
    assert legal(rnd, 0) == ["play 5S", "play 5S mau", "play TS", "play TS mau"]


def test_ace_as_the_last_card_wins():
    rnd = stacked("nordic", 2, hands=["AD", "3S 4S"], discard="9D")
    rnd.apply(0, play("AD"))
    assert kinds(rnd) == ["play", "round_end"]
    assert rnd.winner() == 0


def test_ace_as_the_second_to_last_card_then_the_last_card():
    rnd = stacked("nordic", 2, hands=["AD KD", "3S 4S"], discard="9D")
    rnd.apply(0, play("AD", mau=True))
    assert evs(rnd) == [("play", 0, "AD"), ("mau", 0, 0)]
    assert rnd.phase() == AGAIN and rnd.turn() == 0
    rnd.apply(0, play("KD"))
    assert rnd.winner() == 0 and points(rnd) == [0, 7]


def test_jack_on_anything_wish_and_jack_on_jack():
    rnd = stacked("nordic", 3, hands=["JC 2S 3S", "JH 4S 5S", "2H 3D 4D"], discard="9D")
    rnd.apply(0, play("JC", wish="D"))
    assert rnd.wish() == 3
    assert "play JH wish H" in legal(rnd, 1)
    rnd.apply(1, play("JH", wish="H"))
    assert legal(rnd, 2) == ["draw", "play 2H"]


# -- Mau (nordic: always enforced) ---------------------------------------------------------

def test_mau_said_with_the_second_to_last_card():
    rnd = stacked("nordic", 2, hands=["KD QD", "3S 4S"], discard="9D")
    rnd.apply(0, play("KD", mau=True))
    assert evs(rnd) == [("play", 0, "KD"), ("mau", 0, 0)]
    assert rnd.count(0) == 1 and rnd.said_mau(0)


def test_forgotten_mau_costs_two_cards_at_once():
    rnd = stacked("nordic", 3, hands=["KD QD", "3S 4S", "5H 6H"], draw="2C 3C",
                  discard="9D")
    rnd.apply(0, play("KD"))
    assert evs(rnd) == [("play", 0, "KD"), ("forgot", 0, 0), ("penalty", 0, 1),
                        ("draw", 0, "2C"), ("draw", 0, "3C")]
    assert rnd.count(0) == 3 and rnd.turn() == 1
    # Nothing to catch: the penalty was taken already.
    assert rnd.debtor() is None
    assert "catch 0" not in legal(rnd, 1) and "catch 0" not in legal(rnd, 2)
    assert "owes no Mau penalty" in illegal(rnd, 2, mv.catch(0))


def test_mau_said_too_early_costs_nothing():
    rnd = stacked("nordic", 2, hands=["KD QD TD", "3S 4S"], discard="9D")
    rnd.apply(0, play("KD", mau=True))
    assert evs(rnd) == [("play", 0, "KD")]
    assert rnd.count(0) == 2 and rnd.turn() == 1


# -- the last card --------------------------------------------------------------------------

def test_last_card_seven_the_next_player_still_draws_two():
    rnd = stacked("nordic", 3, hands=["7D", "2C 3C", "5H 6H"], draw="KH QH",
                  discard="9D")
    assert points(rnd) == [7, 5, 11]
    rnd.apply(0, play("7D"))
    assert evs(rnd) == [("play", 0, "7D"), ("penalty", 1, 2), ("draw", 1, "KH"),
                        ("draw", 1, "QH"), ("round_end", 0, 0)]
    assert rnd.is_over() and rnd.winner() == 0
    assert points(rnd) == [0, 2 + 3 + 10 + 10, 11]


def test_last_card_seven_after_a_reversal_the_previous_player_draws():
    rnd = stacked("nordic", 3, hands=["9D 7D", "3D 2C 3C", "2D 5H 6H"], draw="KH QH",
                  discard="5D", turn=0)
    rnd.apply(0, play("9D", mau=True))  # reverses: seat 2 is next
    rnd.apply(2, play("2D"))
    rnd.apply(1, play("3D"))
    assert rnd.turn() == 0 and rnd.direction() == -1
    rnd.apply(0, play("7D"))
    assert evs(rnd) == [("play", 0, "7D"), ("penalty", 2, 2), ("draw", 2, "KH"),
                        ("draw", 2, "QH"), ("round_end", 0, 0)]
    assert points(rnd) == [0, 5, 5 + 6 + 10 + 10]


def test_last_card_seven_on_a_stack_passes_the_whole_count():
    rnd = stacked("nordic", 3, hands=["7D", "2C 3C", "7S 5H 6H"],
                  draw="KH QH JC JS", discard="9S", turn=2)
    rnd.apply(2, play("7S"))
    assert rnd.turn() == 0 and rnd.pending() == 2
    rnd.apply(0, play("7D"))
    assert drawn_cards(rnd, 1) == ["KH", "QH", "JC", "JS"]
    assert rnd.winner() == 0
    assert points(rnd) == [0, 2 + 3 + 10 + 10 + 11 + 11, 11]


# -- scoring --------------------------------------------------------------------------------

def test_points_number_cards_two_to_six_count_their_number():
    rnd = stacked("nordic", 3, hands=["QD", "2C 3D 4H 5S 6C", "JC AS KH 7C 8C 9C TC"],
                  discard="9D")
    rnd.apply(0, play("QD"))
    assert points(rnd) == [0, 20, 11 + 11 + 10 + 7 + 8 + 9 + 10]


# -- an empty draw pile in a double deck ------------------------------------------------------

def test_reshuffle_keeps_every_card_of_the_double_deck_twice():
    rnd = stacked("nordic", 2, hands=["2C 3C 4C 5C 6C TC QC", "2S 3S 4S 5S 6S 2H 3H"],
                  draw="", discard="9D", rest="discard")
    under = rnd.discard_size() - 1
    rnd.apply(0, mv.DRAW)
    assert evs(rnd)[0] == ("reshuffle", 0, under)
    assert kinds(rnd) == ["reshuffle", "draw"]
    assert rnd.top() == parse("9D") and rnd.discard_size() == 1
    assert rnd.draw_size() == under - 1 and rnd.turn() == 1
    assert every_card_once(rnd)
