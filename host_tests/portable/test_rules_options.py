"""Each rule option on its own, against both presets, and the validation of settings.

Runs unchanged under pytest and inside the MicroPython VM (plain functions, bare
asserts, loops instead of parametrize).
"""

from engine.cards import SEVEN
from engine.rng import Random
from engine.round import Round, NORMAL, DRAWN, AGAIN
from engine.rules import Rules
from engine.match import Match
from engine import moves as mv

from table import (stacked, play, legal, jack_plays, illegal, evs, kinds, hand, names,
                   points, drawn_cards, raises)

PRESETS = ("classic", "nordic")


# -- must_play_if_able (Zugpflicht) ------------------------------------------------------------

def test_must_play_if_able_forbids_a_voluntary_draw():
    for preset in PRESETS:
        rnd = stacked(preset, 2, hands=["KD TS QS", "7C 8C TC"], discard="9D",
                      must_play_if_able=True)
        assert legal(rnd, 0) == ["play KD"], preset
        assert "fitting card must be played" in illegal(rnd, 0, mv.DRAW)
        rnd.apply(0, play("KD"))


def test_must_play_if_able_still_draws_without_a_fitting_card():
    for preset in PRESETS:
        rnd = stacked(preset, 2, hands=["AC TS QS", "KH QH TH"], draw="8C",
                      discard="9D", must_play_if_able=True)
        assert legal(rnd, 0) == ["draw"], preset
        rnd.apply(0, mv.DRAW)
        assert drawn_cards(rnd, 0) == ["8C"]


def test_without_must_play_if_able_a_voluntary_draw_is_allowed():
    for preset in PRESETS:
        rnd = stacked(preset, 2, hands=["KD TS QS", "KH QH TH"], discard="9D")
        assert legal(rnd, 0) == ["draw", "play KD"], preset


# -- jack_on_jack ---------------------------------------------------------------------------

def test_jack_on_jack_off_a_jack_may_not_follow_a_jack():
    for preset in PRESETS:
        rnd = stacked(preset, 2, hands=["JC 8S TS", "JS 8H QH"], discard="9D",
                      jack_on_jack=False)
        assert "play JC wish H" in legal(rnd, 0)  # a Jack on a non-Jack is fine
        rnd.apply(0, play("JC", wish="H"))
        assert legal(rnd, 1) == ["draw", "play 8H", "play QH"], preset
        assert "Jack may not go on a Jack" in illegal(rnd, 1, play("JS", wish="S"))
        rnd.apply(1, play("8H"))


def test_jack_on_jack_off_with_a_jack_as_up_card():
    rnd = stacked("classic", 2, hands=["JS 8C TC", "KH QH 8H"], discard="JC",
                  jack_on_jack=False)
    assert legal(rnd, 0) == ["draw", "play 8C", "play TC"]


# -- play_drawn ---------------------------------------------------------------------------------

def test_play_drawn_off_in_classic_the_draw_ends_the_turn():
    rnd = stacked("classic", 2, hands=["TS QS AS", "7C 8C"], draw="KD", discard="9D",
                  play_drawn=False)
    rnd.apply(0, mv.DRAW)
    assert rnd.turn() == 1 and rnd.phase() == NORMAL
    assert hand(rnd, 0) == names("TS QS AS KD")


def test_play_drawn_on_in_nordic_the_drawn_card_may_be_played():
    rnd = stacked("nordic", 2, hands=["2S 3S 4S", "2C 3C"], draw="KD", discard="9D",
                  play_drawn=True)
    rnd.apply(0, mv.DRAW)
    assert rnd.turn() == 0 and rnd.phase() == DRAWN
    assert legal(rnd, 0) == ["pass", "play KD"]
    rnd.apply(0, play("KD"))
    assert rnd.turn() == 1


# -- stack_sevens -------------------------------------------------------------------------------

def test_stack_sevens_off_the_count_cannot_be_passed_on():
    for preset in PRESETS:
        rnd = stacked(preset, 3, hands=["7D KS QS", "7C 9S QD", "7H TD AC"],
                      draw="8H TH", discard="9D", stack_sevens=False)
        rnd.apply(0, play("7D"))
        assert legal(rnd, 1) == ["draw"], preset
        assert "2 cards must be drawn" in illegal(rnd, 1, play("7C"))
        rnd.apply(1, mv.DRAW)
        assert drawn_cards(rnd, 1) == ["8H", "TH"] and rnd.turn() == 2
        # The 7 on top is a plain card now: a 7 of another suit fits by rank.
        assert "play 7H" in legal(rnd, 2)


# -- eight_skips, nine_reverses ----------------------------------------------------------------

def test_eight_skips_off_an_eight_is_plain():
    for preset in PRESETS:
        rnd = stacked(preset, 3, hands=["8D KS QS", "9D QD", "AD 7C"], discard="TD",
                      eight_skips=False)
        rnd.apply(0, play("8D"))
        assert kinds(rnd) == ["play"] and rnd.turn() == 1, preset


def test_nine_reverses_on_in_classic():
    rnd = stacked("classic", 3, hands=["9D KS QS", "QC QD", "AC 7C"], discard="TD",
                  nine_reverses=True)
    rnd.apply(0, play("9D"))
    assert evs(rnd) == [("play", 0, "9D"), ("reverse", 0, 0)]
    assert rnd.turn() == 2 and rnd.direction() == -1


def test_nine_reverses_off_in_nordic():
    rnd = stacked("nordic", 3, hands=["9D KS QS", "QC QD", "AC TD"], discard="5D",
                  nine_reverses=False)
    rnd.apply(0, play("9D"))
    assert kinds(rnd) == ["play"] and rnd.turn() == 1 and rnd.direction() == 1


# -- ace ----------------------------------------------------------------------------------------

def test_ace_draw4_next_player_draws_four_and_aces_stack():
    for preset in PRESETS:
        rnd = stacked(preset, 3, hands=["AD KS QS", "AC 9S QD", "7D 7S TD"],
                      draw="8C 8S 8H 8D TC TS TH QC", discard="9D", ace="draw4")
        rnd.apply(0, play("AD"))
        assert rnd.pending() == 4 and rnd.turn() == 1, preset
        assert legal(rnd, 1) == ["draw", "play AC"]
        assert "4 cards must be drawn" in illegal(rnd, 1, play("QD"))
        rnd.apply(1, play("AC"))
        assert rnd.pending() == 8 and rnd.turn() == 2
        # A 7 does not stack on aces.
        assert legal(rnd, 2) == ["draw"]
        assert illegal(rnd, 2, play("7D"))
        rnd.apply(2, mv.DRAW)
        assert drawn_cards(rnd, 2) == ["8C", "8S", "8H", "8D", "TC", "TS", "TH", "QC"]
        assert rnd.turn() == 0 and rnd.pending() == 0


def test_ace_draw4_sevens_do_not_take_aces():
    rnd = stacked("classic", 3, hands=["7D KS QS", "AD 9S QD", "7S TD AC"],
                  draw="8C 8S", discard="9D", ace="draw4")
    rnd.apply(0, play("7D"))
    assert legal(rnd, 1) == ["draw"]


def test_ace_plain_in_nordic():
    rnd = stacked("nordic", 3, hands=["AD KS QS", "AC 9S QD", "7D 7S TD"],
                  discard="9D", ace="plain")
    rnd.apply(0, play("AD"))
    assert kinds(rnd) == ["play"] and rnd.turn() == 1 and rnd.phase() == NORMAL


def test_ace_play_again_in_classic():
    rnd = stacked("classic", 3, hands=["AD KD QS TS", "AC 9S QD", "7D 7S TD"],
                  draw="8D", discard="9D", ace="play_again")
    rnd.apply(0, play("AD"))
    assert rnd.turn() == 0 and rnd.phase() == AGAIN
    assert legal(rnd, 0) == ["play KD"]
    rnd.apply(0, play("KD"))
    assert rnd.turn() == 1
    # Without a fitting card: one card, which ends the turn (not a play_drawn step).
    rnd = stacked("classic", 3, hands=["AD QS TS", "AC 9S QD", "7D 7S TD"],
                  draw="8D", discard="9D", ace="play_again")
    rnd.apply(0, play("AD"))
    assert legal(rnd, 0) == ["draw"]
    rnd.apply(0, mv.DRAW)
    assert drawn_cards(rnd, 0) == ["8D"] and rnd.turn() == 1 and rnd.phase() == NORMAL


# -- mau_penalty --------------------------------------------------------------------------------

def test_mau_penalty_off_forgetting_costs_nothing():
    for preset in PRESETS:
        rnd = stacked(preset, 3, hands=["KD QD", "8S 9S", "AC TC"], discard="9D",
                      mau_penalty="off")
        rnd.apply(0, play("KD"))
        assert rnd.count(0) == 1 and rnd.debtor() is None, preset
        assert "catch 0" not in legal(rnd, 1) and "catch 0" not in legal(rnd, 2)
        assert illegal(rnd, 2, mv.catch(0))
        assert "penalty" not in kinds(rnd)


def test_mau_penalty_auto_in_classic():
    rnd = stacked("classic", 3, hands=["KD QD", "8S 9S", "AC TC"], draw="7H 8H",
                  discard="9D", mau_penalty="auto")
    rnd.apply(0, play("KD"))
    assert evs(rnd) == [("play", 0, "KD"), ("forgot", 0, 0), ("penalty", 0, 1),
                        ("draw", 0, "7H"), ("draw", 0, "8H")]
    assert rnd.count(0) == 3 and rnd.debtor() is None


def test_mau_penalty_challenge_in_nordic():
    rnd = stacked("nordic", 3, hands=["KD QD", "8S 9S", "AC TC"], draw="7H 8H",
                  discard="9D", mau_penalty="challenge")
    rnd.apply(0, play("KD"))
    assert rnd.count(0) == 1 and rnd.debtor() == 0
    rnd.apply(2, mv.catch(0))
    assert drawn_cards(rnd, 0) == ["7H", "8H"] and rnd.count(0) == 3


def test_mau_said_in_every_mode_costs_nothing():
    for mode in ("challenge", "auto", "off"):
        rnd = stacked("classic", 2, hands=["KD QD", "8S 9S"], discard="9D", mau_penalty=mode)
        rnd.apply(0, play("KD", mau=True))
        assert evs(rnd) == [("play", 0, "KD"), ("mau", 0, 0)], mode
        assert rnd.count(0) == 1 and rnd.debtor() is None


# -- no_finish_on_jack --------------------------------------------------------------------------

def test_no_finish_on_jack_a_jack_cannot_be_the_last_card():
    for preset in PRESETS:
        rnd = stacked(preset, 2, hands=["JC", "8S 9S"], draw="8D", discard="9D",
                      no_finish_on_jack=True)
        assert legal(rnd, 0) == ["draw"], preset
        assert "Jack may not be the last card" in illegal(rnd, 0, play("JC"))
        rnd.apply(0, mv.DRAW)
        assert rnd.count(0) == 2


def test_no_finish_on_jack_a_jack_may_go_as_second_to_last_card():
    rnd = stacked("classic", 2, hands=["JC 8H", "8S 9S"], discard="9D",
                  no_finish_on_jack=True)
    assert legal(rnd, 0) == sorted(jack_plays("JC") + jack_plays("JC", mau=True) + ["draw"])
    rnd.apply(0, play("JC", wish="H", mau=True))
    assert rnd.wish() == 2 and rnd.count(0) == 1


def test_no_finish_on_jack_with_nothing_to_draw_passes():
    rnd = stacked("classic", 2,
                  hands=["JC", "7C 8C TC QC KC AC 7S 8S TS QS KS AS 9C 9S 7H 8H TH QH KH AH "
                               "9H JS JH JD 7D 8D TD QD KD AD"],
                  draw="", discard="9D", no_finish_on_jack=True)
    assert legal(rnd, 0) == ["pass"]
    rnd.apply(0, mv.PASS)
    assert rnd.turn() == 1 and not rnd.is_over()


def test_finish_on_jack_allowed_by_default():
    for preset in PRESETS:
        rnd = stacked(preset, 2, hands=["JC", "8S 9S"], discard="9D")
        rnd.apply(0, play("JC"))
        assert rnd.winner() == 0, preset


# -- last_seven ---------------------------------------------------------------------------------

def test_last_seven_draws_in_classic():
    rnd = stacked("classic", 3, hands=["7D", "8S 9S", "AC TC"], draw="KH QH",
                  discard="9D", last_seven="draws")
    rnd.apply(0, play("7D"))
    assert drawn_cards(rnd, 1) == ["KH", "QH"]
    assert points(rnd) == [0, 8 + 9 + 10 + 10, 21]


def test_last_seven_ends_in_nordic():
    rnd = stacked("nordic", 3, hands=["7D", "8S 9S", "AC TC"], draw="KH QH",
                  discard="9D", last_seven="ends")
    rnd.apply(0, play("7D"))
    assert kinds(rnd) == ["play", "round_end"]
    assert points(rnd) == [0, 17, 21]


# -- first_card ---------------------------------------------------------------------------------

def first_seed_with_up_rank(rules, wanted, players=3):
    for seed in range(400):
        rnd = Round(rules, players, Random(seed), 0)
        if rnd.top() & 15 == wanted:
            return rnd
    return None


def test_first_card_turn_again_in_classic():
    rules = Rules("classic", first_card="turn_again")
    for seed in range(16):
        rnd = Round(rules, 3, Random(seed), 0)
        assert rnd.top() & 15 not in (7, 8, 11), seed  # 9 and ace are plain in classic
        for i in range(1, rnd.discard_size()):
            assert rnd.discard(i) & 15 in (7, 8, 11)


def test_first_card_plain_in_nordic():
    rnd = first_seed_with_up_rank(Rules("nordic", first_card="plain"), SEVEN)
    assert rnd is not None
    assert rnd.discard_size() == 1 and rnd.pending() == 0


# -- decks, points ------------------------------------------------------------------------------

def test_french52_deck_in_classic():
    rules = Rules("classic", deck="french52")
    rnd = Round(rules, 6, Random(5), 0)
    assert rules.deck_size() == 52
    assert rnd.draw_size() + rnd.discard_size() == 52 - 30
    rnd = stacked(rules, 2, hands=["2D 3C 4C", "5S 6S"], discard="9D")
    assert legal(rnd, 0) == ["draw", "play 2D"]


def test_custom_points():
    rnd = stacked("classic", 3, hands=["QD", "JC AS 7H", "KH TC"], discard="9D",
                  points={"J": 20, "7": 0, "A": 1})
    rnd.apply(0, play("QD"))
    assert points(rnd) == [0, 21, 20]
    assert Rules("classic", points={"J": 20}).to_dict()["points"]["J"] == 20
    assert Rules("classic", points={"J": 20}).to_dict()["points"]["Q"] == 10


# -- validation -----------------------------------------------------------------------------------

def check_bad(option, value, words, **options):
    """Rules(**options) must raise ValueError naming the option, its value and `words`."""
    msg = raises(ValueError, Rules, "classic", **options)
    assert option in msg, msg
    assert repr(value) in msg, msg
    for w in words:
        assert w in msg, msg
    return msg


def test_a_hand_size_is_checked_against_the_players_at_the_table():
    # 7 cards each from 32: 4 players take 29 cards with the up-card, 5 would need 36.
    rules = Rules("classic", hand_size=7)
    assert rules.max_players == 6 and rules.most_players() == 4
    rules.check_players(4)
    Round(rules, 4, Random(1))
    Match(rules, 4, 1)
    msg = raises(ValueError, rules.check_players, 5)
    for words in ("hand_size", "7", "5 players", "36", "skat32", "32", "at most 4 players"):
        assert words in msg, msg
    assert "players" in raises(ValueError, Round, rules, 5, Random(1))
    msg = raises(ValueError, Rules("nordic", hand_size=20, max_players=6).check_players, 6)
    assert "hand_size" in msg and "104" in msg and "121" in msg
    Rules("nordic", hand_size=20).check_players(5)      # 5 x 20 + 1 = 101 of 104


def test_a_hand_size_no_table_can_be_dealt_is_refused():
    # Even the fewest players (2) need 2 x 16 + 1 = 33 cards of 32.
    msg = check_bad("hand_size", 16, ["2 players", "16 cards", "33", "32"], hand_size=16)
    assert "at most 15 cards each" in msg
    Rules("classic", hand_size=15).check_players(2)
    check_bad("hand_size", 11, ["3 players"], hand_size=11, min_players=3)


def test_a_full_deck_takes_no_one_more_between_rounds():
    m = Match(Rules("classic", hand_size=7), 4, 1)    # before the first deal
    assert "hand_size" in raises(ValueError, m.join)
    assert m.seated == [0, 1, 2, 3]


def test_unknown_option_is_refused():
    msg = check_bad("jokers", True, ["unknown option"], jokers=True)
    assert "must_play_if_able" in msg  # the known options are listed
    msg = raises(ValueError, Rules, "swiss")
    assert "swiss" in msg and "classic" in msg and "nordic" in msg


def test_bad_choice_is_refused():
    check_bad("ace", "draw2", ["plain", "draw4", "play_again"], ace="draw2")
    check_bad("deck", "skat36", ["skat32", "french52", "double104"], deck="skat36")
    check_bad("mau_penalty", "sometimes", ["challenge", "auto", "off"], mau_penalty="sometimes")
    check_bad("first_card", "again", ["plain", "turn_again"], first_card="again")
    check_bad("last_seven", "never", ["ends", "draws"], last_seven="never")
    check_bad("match", "league", ["rounds", "elimination"], match="league")


def test_bad_switch_is_refused():
    for option in ("must_play_if_able", "play_drawn", "stack_sevens", "eight_skips",
                   "nine_reverses", "jack_on_jack", "no_finish_on_jack"):
        options = {option: "yes"}
        check_bad(option, "yes", ["true or false"], **options)


def test_bad_number_is_refused():
    check_bad("hand_size", 0, ["1", "20"], hand_size=0)
    check_bad("hand_size", 21, ["1", "20"], hand_size=21)
    check_bad("hand_size", "5", ["whole number"], hand_size="5")
    check_bad("hand_size", True, ["whole number"], hand_size=True)
    check_bad("max_players", 7, ["2", "6"], max_players=7)
    check_bad("min_players", 1, ["2", "6"], min_players=1)
    check_bad("rounds", 0, ["whole number"], rounds=0)
    check_bad("limit", -5, ["whole number"], limit=-5)
    check_bad("min_players", 5, ["max_players"], min_players=5, max_players=4)


def test_bad_points_are_refused():
    check_bad("points", "X", ["2-9 T J Q K A"], points={"X": 3})
    check_bad("points", -1, ["J"], points={"J": -1})
    check_bad("points", "eleven", ["J"], points={"J": "eleven"})
    msg = raises(ValueError, Rules, "classic", points=11)
    assert "points" in msg


def test_round_and_match_with_a_wrong_number_of_players_are_refused():
    cases = ((Rules("classic"), 7), (Rules("classic"), 1), (Rules("nordic"), 6),
             (Rules("classic", max_players=4, hand_size=7), 5),
             (Rules("classic", hand_size=7), 5),       # the deck serves 4 hands of 7
             (Rules("classic", min_players=3), 2))
    for rules, players in cases:
        msg = raises(ValueError, Round, rules, players, Random(1))
        assert "players" in msg and repr(players) in msg, msg
        msg = raises(ValueError, Match, rules, players, 1)
        assert "players" in msg, msg


def test_valid_options_are_kept():
    r = Rules("nordic", ace="draw4", mau_penalty="off", must_play_if_able=True,
              hand_size=5, max_players=4, rounds=7, limit=250, match="rounds")
    d = r.to_dict()
    assert d["ace"] == "draw4" and d["mau_penalty"] == "off"
    assert d["must_play_if_able"] is True and d["hand_size"] == 5
    assert d["max_players"] == 4 and d["rounds"] == 7 and d["limit"] == 250
    assert d["match"] == "rounds" and d["deck"] == "double104"
    # The replay log's game line: the same options make the same rules.
    options = dict(d)
    assert Rules("classic", **options).to_dict() == d


def test_presets_are_the_columns_of_the_option_table():
    # Rules lays a preset out from its own bytes; any setting goes through the table.
    from engine.options import options
    from engine.rules import OPTION_NAMES
    assert tuple([option[0] for option in options()]) + ("points",) == OPTION_NAMES
    for preset in PRESETS:
        fast = Rules(preset)
        checked = Rules(preset, rounds=1)  # rounds=1 in both presets
        for option in options():
            assert getattr(fast, option[0]) == getattr(checked, option[0]), option[0]
        assert fast.points == checked.points and fast.preset == checked.preset == preset
