"""Rule scenarios of the classic preset (seed 000, German Mau-Mau with a Skat deck).

Each test stacks a table and plays the moves the rule talks about. Runs unchanged
under pytest and inside the MicroPython VM (plain functions, bare asserts).
"""

from engine.notation import parse
from engine.cards import CLUBS, HEARTS, SPADES, SEVEN, JACK
from engine.rng import Random
from engine.round import Round, NORMAL, DRAWN, OVER
from engine.rules import Rules
from engine import moves as mv

from table import (stacked, play, legal, jack_plays, illegal, evs, kinds, hand, names,
                   points, every_card_once, drawn_cards, plant, raises)

EMMA = 0
FINN = 1
GRETA = 2


# -- the example round of seed 000 ---------------------------------------------------

def seed_000_round():
    """Emma, Finn and Greta; Greta deals, so Emma begins. The seed gives everyone five
    cards but then has Finn play his second-to-last card after drawing and playing one
    (a slip, see RULES.md): Finn gets the two cards the moves need."""
    return stacked("classic", 3,
                   hands=["KD 8H TS AS QH",   # Emma: no 7, no club after the King
                          "QC 9C",            # Finn: no diamond, no King
                          "7C KC 8S 9H TH"],  # Greta
                   draw="JH 7D 8D TD", discard="9D", turn=EMMA, dealer=GRETA)


def test_seed_000_example_round():
    rnd = seed_000_round()
    assert rnd.top() == parse("9D")
    assert rnd.turn() == EMMA and rnd.dealer() == GRETA

    # Emma plays the King of diamonds: the suit fits.
    assert "play KD" in legal(rnd, EMMA)
    rnd.apply(EMMA, play("KD"))
    assert evs(rnd) == [("play", EMMA, "KD")]
    assert rnd.turn() == FINN and rnd.count(EMMA) == 4

    # Finn has no diamond and no King: he can only draw. It is the Jack of hearts.
    assert legal(rnd, FINN) == ["draw"]
    rnd.apply(FINN, mv.DRAW)
    assert evs(rnd) == [("draw", FINN, "JH")]
    assert rnd.turn() == FINN and rnd.phase() == DRAWN and rnd.drawn() == parse("JH")
    # He may play it at once (any wish) or keep it.
    assert legal(rnd, FINN) == sorted(jack_plays("JH") + ["pass"])
    rnd.apply(FINN, play("JH", wish="C"))
    assert evs(rnd) == [("play", FINN, "JH"), ("wish", FINN, "C")]
    assert rnd.wish() == CLUBS and rnd.turn() == GRETA

    # Greta must play a club or a Jack: she plays the 7 of clubs.
    assert legal(rnd, GRETA) == ["draw", "play 7C", "play KC"]
    rnd.apply(GRETA, play("7C"))
    assert evs(rnd) == [("play", GRETA, "7C")]
    assert rnd.pending() == 2 and rnd.wish() is None and rnd.turn() == EMMA

    # Emma has no 7: she draws two and her turn is over.
    assert legal(rnd, EMMA) == ["draw"]
    rnd.apply(EMMA, mv.DRAW)
    assert evs(rnd) == [("draw", EMMA, "7D"), ("draw", EMMA, "8D")]
    assert rnd.count(EMMA) == 6 and rnd.pending() == 0 and rnd.turn() == FINN
    illegal(rnd, EMMA, play("8D"))

    # Finn plays his second-to-last card, the Queen of clubs, and says "Mau".
    assert legal(rnd, FINN) == ["draw", "play 9C", "play 9C mau", "play QC", "play QC mau"]
    rnd.apply(FINN, play("QC", mau=True))
    assert evs(rnd) == [("play", FINN, "QC"), ("mau", FINN, 0)]
    assert rnd.count(FINN) == 1 and rnd.said_mau(FINN) and rnd.debtor() is None
    assert legal(rnd, EMMA) == []  # nothing to catch: he said it

    # Greta and Emma move on; Emma draws the 10 of diamonds and keeps it.
    rnd.apply(GRETA, play("KC"))
    assert legal(rnd, EMMA) == ["draw"]
    rnd.apply(EMMA, mv.DRAW)
    assert evs(rnd) == [("draw", EMMA, "TD")]
    assert legal(rnd, EMMA) == ["pass"]
    rnd.apply(EMMA, mv.PASS)
    assert rnd.turn() == FINN

    # Finn lays down his last card: "Mau-Mau", he has won the round.
    rnd.apply(FINN, play("9C"))
    assert evs(rnd) == [("play", FINN, "9C"), ("round_end", 0, FINN)]
    assert rnd.is_over() and rnd.phase() == OVER and rnd.winner() == FINN
    assert hand(rnd, EMMA) == names("8H TS AS QH 7D 8D TD")
    assert hand(rnd, GRETA) == names("8S 9H TH")
    # Emma 8+10+11+10+7+8+10, Greta 8+9+10, Finn 0.
    assert points(rnd) == [64, 0, 27]
    assert every_card_once(rnd)
    for seat in (EMMA, FINN, GRETA):
        assert legal(rnd, seat) == []
        msg = illegal(rnd, seat, mv.DRAW)
        assert "over" in msg


# -- matching -------------------------------------------------------------------------

def test_card_fits_by_suit_or_by_rank():
    rnd = stacked("classic", 2, hands=["8D 9S TC QH AC", "7S 8S"], discard="9D")
    assert legal(rnd, 0) == ["draw", "play 8D", "play 9S"]
    rnd.apply(0, play("9S"))  # same rank
    assert rnd.top() == parse("9S") and rnd.turn() == 1
    assert legal(rnd, 1) == ["draw", "play 7S", "play 7S mau", "play 8S", "play 8S mau"]


def test_card_that_does_not_fit_is_refused():
    rnd = stacked("classic", 2, hands=["8D 9S TC QH AC", "7S 8S"], discard="9D")
    msg = illegal(rnd, 0, play("TC"))
    assert "TC does not fit on 9D" in msg
    msg = illegal(rnd, 0, play("QH"))
    assert "QH does not fit on 9D" in msg


def test_jack_goes_on_any_card_and_wishes_any_suit():
    for top in ("9D", "AS", "7C", "QH"):
        rnd = stacked("classic", 2, hands=["JC 8H TH", "KS QS"], discard=top)
        plays = [m for m in legal(rnd, 0) if m.startswith("play J")]
        assert plays == sorted(jack_plays("JC")), top
    # Its own suit may be wished, too.
    rnd = stacked("classic", 2, hands=["JC 8H TH", "KS QS"], discard="9D")
    rnd.apply(0, play("JC", wish="C"))
    assert rnd.wish() == CLUBS and rnd.top() == parse("JC")
    assert evs(rnd) == [("play", 0, "JC"), ("wish", 0, "C")]


def test_jack_on_jack_is_allowed():
    rnd = stacked("classic", 3, hands=["JC 8H TH", "JS QD AD", "KD 9D 8D"], discard="9H")
    rnd.apply(0, play("JC", wish="H"))
    assert "play JS wish D" in legal(rnd, 1)
    rnd.apply(1, play("JS", wish="D"))
    assert rnd.wish() == 3 and rnd.turn() == 2
    assert legal(rnd, 2) == ["draw", "play 8D", "play 9D", "play KD"]


def test_wish_lasts_until_a_card_of_the_wished_suit():
    rnd = stacked("classic", 3, hands=["JC 8H TH", "KS QS AS", "9S 9D 7H"],
                  draw="8C TC", discard="9C")
    rnd.apply(0, play("JC", wish="H"))
    # Seat 1 has no heart: spades do not help, the 9 of clubs under the Jack neither.
    assert legal(rnd, 1) == ["draw"]
    illegal_msg = illegal(rnd, 1, play("KS"))
    assert "H is wished" in illegal_msg
    rnd.apply(1, mv.DRAW)  # 8C: does not fit the wish; keeps it
    assert legal(rnd, 1) == ["pass"]
    rnd.apply(1, mv.PASS)
    assert rnd.wish() == HEARTS  # drawing and passing leave the wish
    # Seat 2: 9S and 9D do not fit (the wish hides the 9 under it), 7H does.
    assert legal(rnd, 2) == ["draw", "play 7H"]
    rnd.apply(2, play("7H"))
    assert rnd.wish() is None


def test_wish_ends_with_another_jack():
    rnd = stacked("classic", 3, hands=["JC 8H TH", "JD QS AS", "9S 9D 7H QD"], discard="9C")
    rnd.apply(0, play("JC", wish="H"))
    rnd.apply(1, play("JD", wish="S"))
    assert rnd.wish() == SPADES
    assert legal(rnd, 2) == ["draw", "play 9S"]  # hearts are no longer wished


def test_card_of_the_wished_suit_ends_the_wish_and_keeps_its_effect():
    rnd = stacked("classic", 3, hands=["JC 8H TH", "8S QS AS", "9S 9D 7H QD"], discard="9C")
    rnd.apply(0, play("JC", wish="S"))
    rnd.apply(1, play("8S"))  # the wished suit: the wish ends, the 8 still skips
    assert rnd.wish() is None and rnd.turn() == 0
    assert evs(rnd) == [("play", 1, "8S"), ("skip", 2, 0)]


# -- drawing ----------------------------------------------------------------------------

def test_voluntary_draw_is_allowed():
    rnd = stacked("classic", 2, hands=["8D KD", "7S 8S"], draw="AC", discard="9D")
    assert "draw" in legal(rnd, 0)
    rnd.apply(0, mv.DRAW)
    assert evs(rnd) == [("draw", 0, "AC")]
    assert hand(rnd, 0) == names("8D KD AC")


def test_drawn_card_that_fits_may_be_played_at_once():
    rnd = stacked("classic", 2, hands=["TS QS", "7S 8S"], draw="KD", discard="9D")
    rnd.apply(0, mv.DRAW)
    assert rnd.phase() == DRAWN and rnd.turn() == 0
    assert legal(rnd, 0) == ["pass", "play KD"]
    rnd.apply(0, play("KD"))
    assert rnd.top() == parse("KD") and rnd.turn() == 1
    assert hand(rnd, 0) == names("TS QS")


def test_drawn_card_that_fits_may_be_kept():
    rnd = stacked("classic", 2, hands=["TS QS", "7S 8S"], draw="KD", discard="9D")
    rnd.apply(0, mv.DRAW)
    rnd.apply(0, mv.PASS)
    assert evs(rnd) == [("pass", 0, 0)]
    assert rnd.turn() == 1 and rnd.phase() == NORMAL
    assert hand(rnd, 0) == names("TS QS KD") and rnd.top() == parse("9D")


def test_drawn_card_that_does_not_fit_can_only_be_kept():
    rnd = stacked("classic", 2, hands=["TD QS", "7S 8S"], draw="KC", discard="9D")
    rnd.apply(0, mv.DRAW)
    # Still a second step (the others cannot tell whether it fitted), but only pass.
    assert rnd.phase() == DRAWN
    assert legal(rnd, 0) == ["pass"]
    assert "KC does not fit on 9D" in illegal(rnd, 0, play("KC"))
    # The rest of the hand is out of reach now, even the fitting 10 of diamonds.
    assert "only the drawn card KC" in illegal(rnd, 0, play("TD"))
    assert "drawn already" in illegal(rnd, 0, mv.DRAW)
    rnd.apply(0, mv.PASS)
    assert rnd.turn() == 1 and hand(rnd, 0) == names("TD QS KC")


def test_draw_when_nothing_fits():
    rnd = stacked("classic", 2, hands=["TC QS", "7S 8S"], draw="9H", discard="9D")
    assert legal(rnd, 0) == ["draw"]
    rnd.apply(0, mv.DRAW)
    rnd.apply(0, play("9H"))
    assert rnd.top() == parse("9H")


# -- action cards -----------------------------------------------------------------------

def test_seven_next_player_draws_two_and_loses_the_turn():
    rnd = stacked("classic", 3, hands=["7D KS QS", "8D 9S QD", "AD TD"],
                  draw="AH KH", discard="9D")
    rnd.apply(0, play("7D"))
    assert rnd.pending() == 2 and rnd.turn() == 1
    # Seat 1 holds diamonds but may not play them: draw or put a 7 on it.
    assert legal(rnd, 1) == ["draw"]
    assert "2 cards must be drawn" in illegal(rnd, 1, play("8D"))
    assert "2 cards must be drawn first" in illegal(rnd, 1, mv.PASS)
    rnd.apply(1, mv.DRAW)
    assert evs(rnd) == [("draw", 1, "AH"), ("draw", 1, "KH")]
    assert rnd.turn() == 2 and rnd.pending() == 0 and rnd.count(1) == 5
    # The 7 is now an ordinary top card.
    assert legal(rnd, 2) == ["draw", "play AD", "play AD mau", "play TD", "play TD mau"]


def test_sevens_stack_and_the_count_moves_on():
    rnd = stacked("classic", 3, hands=["7D KS QS", "7C 9S QD", "7H TD AC"],
                  draw="8C 8S 8H 8D TC TS", discard="9D")
    rnd.apply(0, play("7D"))
    assert legal(rnd, 1) == ["draw", "play 7C"]  # a 7 of any suit
    rnd.apply(1, play("7C"))
    assert rnd.pending() == 4 and rnd.turn() == 2
    rnd.apply(2, play("7H"))
    assert rnd.pending() == 6 and rnd.turn() == 0
    rnd.apply(0, mv.DRAW)
    assert drawn_cards(rnd, 0) == ["8C", "8S", "8H", "8D", "TC", "TS"]
    assert rnd.count(0) == 8 and rnd.turn() == 1 and rnd.pending() == 0


def test_eight_skips_the_next_player():
    rnd = stacked("classic", 3, hands=["8D KS QS", "9D QD", "AD 7C"], discard="TD")
    rnd.apply(0, play("8D"))
    assert evs(rnd) == [("play", 0, "8D"), ("skip", 1, 0)]
    assert rnd.turn() == 2


def test_eight_with_two_players_the_same_player_moves_again():
    rnd = stacked("classic", 2, hands=["8D KD QS TS", "9D QD"], discard="TD")
    rnd.apply(0, play("8D"))
    assert evs(rnd) == [("play", 0, "8D"), ("skip", 1, 0)]
    assert rnd.turn() == 0
    rnd.apply(0, play("KD"))
    assert rnd.turn() == 1


def test_nine_is_a_plain_card():
    rnd = stacked("classic", 3, hands=["9C KS QS", "QC QD", "AC TD"], discard="9D")
    rnd.apply(0, play("9C"))
    assert evs(rnd) == [("play", 0, "9C")]
    assert rnd.direction() == 1 and rnd.turn() == 1


def test_ace_is_a_plain_card():
    rnd = stacked("classic", 3, hands=["AD KS QS", "QC QD", "AC TD"], discard="9D")
    rnd.apply(0, play("AD"))
    assert evs(rnd) == [("play", 0, "AD")]
    assert rnd.turn() == 1 and rnd.pending() == 0 and rnd.phase() == NORMAL


# -- the first up-card --------------------------------------------------------------------

def dealt_with_up_card(rules, wanted_rank):
    """A freshly dealt 3-player round whose up-card has `wanted_rank` (first seed found)."""
    for seed in range(400):
        rnd = Round(rules, 3, Random(seed), 0)
        if rnd.top() & 15 == wanted_rank:
            return rnd
    raise AssertionError("no seed below 400 turns up rank %d" % wanted_rank)


def test_first_up_card_seven_makes_nobody_draw():
    rnd = dealt_with_up_card(Rules("classic"), SEVEN)
    assert rnd.discard_size() == 1 and rnd.pending() == 0
    assert rnd.turn() == 1  # the player after the dealer
    assert "draw" in legal(rnd, 1)
    assert evs(rnd) == [("deal", 0, 0)]
    assert every_card_once(rnd)


def test_first_up_card_jack_has_no_wish():
    rnd = dealt_with_up_card(Rules("classic"), JACK)
    assert rnd.discard_size() == 1 and rnd.wish() is None and rnd.pending() == 0
    # Cards of the Jack's suit fit, and Jacks (Jack on Jack); nothing else.
    suit = "CSHD"[rnd.top() >> 4]
    expected = ["draw"]
    for c in hand(rnd, 1):
        if c[0] == "J":
            expected.extend(jack_plays(c))
        elif c[1] == suit:
            expected.append("play " + c)
    assert legal(rnd, 1) == sorted(expected)


def test_deal_gives_five_cards_each_and_one_up_card():
    rnd = Round(Rules("classic"), 4, Random(3), 2)
    for p in range(4):
        assert rnd.count(p) == 5
    assert rnd.discard_size() == 1 and rnd.draw_size() == 32 - 21
    assert rnd.turn() == 3 and rnd.dealer() == 2
    assert every_card_once(rnd)


# -- an empty draw pile ---------------------------------------------------------------------

def test_empty_draw_pile_reshuffles_the_discard_pile_except_its_top():
    # Draw pile empty; the rest of the deck lies under the 9 of diamonds.
    rnd = stacked("classic", 2, hands=["TC QS", "7S 8S"], draw="", discard="9D",
                  rest="discard")
    assert rnd.draw_size() == 0
    under = rnd.discard_size() - 1
    rnd.apply(0, mv.DRAW)
    got = evs(rnd)
    assert got[0] == ("reshuffle", 0, under)
    assert got[1][0] == "draw" and len(got) == 2
    assert rnd.top() == parse("9D") and rnd.discard_size() == 1
    assert rnd.draw_size() == under - 1
    assert every_card_once(rnd)


def test_pending_draw_after_a_reshuffle_takes_what_there_is():
    # Every card is named: the draw pile is empty, two cards lie under the top.
    rnd = stacked("classic", 3,
                  hands=["7D 7H QS TS", "KS 8C 8S QD",
                         "7C 9S 9C AD TC JC JS JH JD QC KC AC 7S TH QH KH AH AS 8D TD KD 8H"],
                  draw="", discard="9H 9D", turn=0)
    assert rnd.draw_size() == 0 and rnd.discard_size() == 2
    rnd.apply(0, play("7D"))
    rnd.apply(1, mv.DRAW)  # no 7: takes 2, from the two cards under the 7
    assert evs(rnd)[0] == ("reshuffle", 0, 2)
    assert sorted(drawn_cards(rnd, 1)) == ["9D", "9H"]
    assert rnd.top() == parse("7D") and rnd.draw_size() == 0 and rnd.discard_size() == 1
    assert every_card_once(rnd)
    # A count larger than what is left: seat 1 owes 4 and gets the 2 there are.
    rnd.apply(2, play("7C"))
    rnd.apply(0, play("7H"))
    assert rnd.pending() == 4
    rnd.apply(1, mv.DRAW)
    assert evs(rnd)[0] == ("reshuffle", 0, 2)
    assert sorted(drawn_cards(rnd, 1)) == ["7C", "7D"]
    assert rnd.pending() == 0 and rnd.turn() == 2 and rnd.draw_size() == 0
    assert rnd.count(1) == 8
    assert every_card_once(rnd)


def test_pass_when_the_draw_pile_and_the_discard_pile_are_exhausted():
    # Seat 0 has no diamond, no 9 and no Jack; everything else is in seat 1's hand.
    rnd = stacked("classic", 2,
                  hands=["7C 8C TC QC KC AC 7S 8S TS QS KS AS 7H 8H",
                         "TH QH KH AH 9H 9C 9S JC JS JH JD 7D 8D TD QD KD AD"],
                  draw="", discard="9D", turn=0)
    assert rnd.draw_size() == 0 and rnd.discard_size() == 1
    assert legal(rnd, 0) == ["pass"]
    assert "nothing is left to draw" in illegal(rnd, 0, mv.DRAW)
    rnd.apply(0, mv.PASS)
    assert evs(rnd) == [("pass", 0, 0)]
    assert rnd.turn() == 1 and not rnd.is_over()
    # Seat 1 can play: no draw game.
    assert "play 8D" in legal(rnd, 1)
    assert "a fitting card can be played" in illegal(rnd, 1, mv.PASS)
    rnd.apply(1, play("9C"))
    # Now seat 0 has clubs: the round goes on.
    assert legal(rnd, 0) == ["draw", "play 7C", "play 8C", "play AC", "play KC",
                             "play QC", "play TC"]


def test_stalled_round_ends_as_a_draw_and_everybody_scores_their_hand():
    # With a full deck some hand always holds a fitting card, so a real stall needs a
    # planted table: both hands hold only cards that do not fit on the 9 of diamonds.
    rnd = stacked("classic", 2,
                  hands=["7C 8C TC QC KC AC 7S 8S TS QS KS AS 7H 8H",
                         "TH QH KH AH 9H 9C 9S JC JS JH JD 7D 8D TD QD KD AD"],
                  draw="", discard="9D", turn=0)
    plant(rnd, 1, "TH QH KH AH TH QH KH AH 8H 8H 8H 8H 8H 8H 8H 8H 8H")
    assert legal(rnd, 0) == ["pass"]
    rnd.apply(0, mv.PASS)
    assert not rnd.is_over() and rnd.turn() == 1
    assert legal(rnd, 1) == ["pass"]
    rnd.apply(1, mv.PASS)
    assert evs(rnd) == [("pass", 1, 0), ("round_end", 0, None)]
    assert rnd.is_over() and rnd.winner() is None
    assert points(rnd) == [7 + 8 + 10 + 10 + 10 + 11 + 7 + 8 + 10 + 10 + 10 + 11 + 7 + 8,
                           2 * (10 + 10 + 10 + 11) + 9 * 8]
    assert legal(rnd, 0) == [] and legal(rnd, 1) == []


# -- Mau (classic: challenge) ---------------------------------------------------------------

def test_mau_said_with_the_second_to_last_card():
    rnd = stacked("classic", 3, hands=["KD QD", "8S 9S", "AC TC"], discard="9D")
    rnd.apply(0, play("KD", mau=True))
    assert evs(rnd) == [("play", 0, "KD"), ("mau", 0, 0)]
    assert rnd.said_mau(0) and rnd.debtor() is None
    assert "owes no Mau penalty" in illegal(rnd, 1, mv.catch(0))


def test_forgotten_mau_caught_by_any_other_player_costs_two_cards():
    for catcher in (1, 2):
        rnd = stacked("classic", 3, hands=["KD QD", "8S 9S", "AC TC"],
                      draw="7H 8H", discard="9D")
        rnd.apply(0, play("KD"))
        assert evs(rnd) == [("play", 0, "KD"), ("forgot", 0, 0)]
        assert rnd.debtor() == 0 and not rnd.said_mau(0)
        assert "catch 0" in legal(rnd, catcher)
        rnd.apply(catcher, mv.catch(0))
        assert evs(rnd) == [("caught", catcher, 0), ("penalty", 0, 1),
                            ("draw", 0, "7H"), ("draw", 0, "8H")]
        assert rnd.count(0) == 3 and rnd.debtor() is None
        assert rnd.turn() == 1  # a catch is not a turn
        # Caught once is enough.
        assert "owes no Mau penalty" in illegal(rnd, 3 - catcher, mv.catch(0))


def test_forgetful_player_cannot_catch_themselves():
    rnd = stacked("classic", 3, hands=["KD QD", "8S 9S", "AC TC"], discard="9D")
    rnd.apply(0, play("KD"))
    assert legal(rnd, 0) == []
    illegal(rnd, 0, mv.catch(0))


def test_wrong_catch_is_refused_and_changes_nothing():
    rnd = stacked("classic", 3, hands=["KD QD", "8S 9S", "AC TC"], discard="9D")
    rnd.apply(0, play("KD"))  # forgot
    assert "player 2 owes no Mau penalty" in illegal(rnd, 1, mv.catch(2))
    assert rnd.debtor() == 0  # the right catch is still possible
    rnd2 = stacked("classic", 3, hands=["KD QD TD", "8S 9S", "AC TC"], discard="9D")
    rnd2.apply(0, play("KD"))  # two cards left: nothing to say
    assert kinds(rnd2) == ["play"]
    assert "player 0 owes no Mau penalty" in illegal(rnd2, 1, mv.catch(0))


def test_catch_window_closes_with_the_next_action():
    for closing in (play("8D"), mv.DRAW):
        rnd = stacked("classic", 3, hands=["KD QD", "8D 9S TS", "AC TC"], discard="9D")
        rnd.apply(0, play("KD"))  # forgot
        rnd.apply(1, closing)
        assert rnd.debtor() is None
        assert "catch 0" not in legal(rnd, 2)
        assert "owes no Mau penalty" in illegal(rnd, 2, mv.catch(0))
        assert rnd.count(0) == 1


def test_next_player_may_catch_before_moving():
    rnd = stacked("classic", 3, hands=["KD QD", "8D 9S TS", "AC TC"],
                  draw="7H 8H", discard="9D")
    rnd.apply(0, play("KD"))
    assert "catch 0" in legal(rnd, 1) and "play 8D" in legal(rnd, 1)
    rnd.apply(1, mv.catch(0))
    assert rnd.count(0) == 3 and rnd.turn() == 1
    rnd.apply(1, play("8D"))
    assert rnd.turn() == 0


def test_mau_said_too_early_costs_nothing():
    rnd = stacked("classic", 2, hands=["KD QD TD", "8S 9S"], discard="9D")
    rnd.apply(0, play("KD", mau=True))
    assert evs(rnd) == [("play", 0, "KD")]
    assert rnd.count(0) == 2 and rnd.turn() == 1 and not rnd.said_mau(0)


def test_mau_is_said_for_a_drawn_card_played_at_once():
    rnd = stacked("classic", 2, hands=["QD", "8S 9S"], draw="KD", discard="9D")
    rnd.apply(0, mv.DRAW)
    assert legal(rnd, 0) == ["pass", "play KD", "play KD mau"]
    rnd.apply(0, play("KD"))  # forgot
    assert kinds(rnd) == ["play", "forgot"] and rnd.debtor() == 0


def test_last_card_wins_mau_mau():
    rnd = stacked("classic", 2, hands=["QD", "8S 9S"], discard="9D")
    assert legal(rnd, 0) == ["draw", "play QD"]
    rnd.apply(0, play("QD"))
    assert evs(rnd) == [("play", 0, "QD"), ("round_end", 0, 0)]
    assert rnd.winner() == 0 and points(rnd) == [0, 17]


def test_last_card_jack_wins_and_wishes_nothing():
    rnd = stacked("classic", 2, hands=["JC", "8S 9S"], discard="9D")
    assert legal(rnd, 0) == ["draw", "play JC wish C"]  # wish bits 0: no wish
    assert "only a Jack that is not the last card" in illegal(rnd, 0, play("JC", wish="H"))
    rnd.apply(0, play("JC"))
    assert kinds(rnd) == ["play", "round_end"]
    assert rnd.winner() == 0 and rnd.wish() is None


def test_last_card_seven_ends_the_round_at_once():
    rnd = stacked("classic", 3, hands=["7D", "8S 9S", "AC TC"], discard="9D")
    rnd.apply(0, play("7D"))
    assert evs(rnd) == [("play", 0, "7D"), ("round_end", 0, 0)]
    assert rnd.is_over() and rnd.winner() == 0
    assert rnd.count(1) == 2 and points(rnd) == [0, 17, 21]


# -- scoring ---------------------------------------------------------------------------------

def test_points_of_the_seed_000_table():
    # Jack 11, Ace 11, Queen and King 10, numbers their value; the winner scores 0.
    rnd = stacked("classic", 3,
                  hands=["QD", "JC AS QH KH", "7C 8C 9C TC"], discard="9D")
    assert points(rnd) == [10, 11 + 11 + 10 + 10, 7 + 8 + 9 + 10]
    rnd.apply(0, play("QD"))
    assert points(rnd) == [0, 42, 34]


# -- illegal moves ---------------------------------------------------------------------------

def test_illegal_moves_are_refused_with_a_reason_and_change_nothing():
    rnd = stacked("classic", 3, hands=["KD 8H JC", "QS 9S", "AC TC"],
                  draw="7S", discard="9D")
    assert "AC is not in the hand" in illegal(rnd, 0, play("AC"))
    assert "8H does not fit on 9D" in illegal(rnd, 0, play("8H"))
    assert "it is player 0's turn" in illegal(rnd, 1, play("QS"))
    assert "it is player 0's turn" in illegal(rnd, 2, mv.DRAW)
    assert "only a Jack" in illegal(rnd, 0, play("KD", wish="S"))
    assert "a card can be drawn" in illegal(rnd, 0, mv.PASS)
    assert "owes no Mau penalty" in illegal(rnd, 1, mv.catch(0))
    assert "no player 5" in illegal(rnd, 5, mv.DRAW)
    assert "not a move" in illegal(rnd, 0, 0x800)
    assert "take no card" in illegal(rnd, 0, mv.DRAW | 5)
    assert "player 0 cannot play 8H" in illegal(rnd, 0, play("8H"))
    # A legal move still works after all that.
    rnd.apply(0, play("KD"))
    assert rnd.turn() == 1


def test_moves_after_the_round_is_over_are_refused():
    rnd = stacked("classic", 2, hands=["QD", "8S 9S"], discard="9D")
    rnd.apply(0, play("QD"))
    for seat, move in ((1, play("8S")), (1, mv.DRAW), (1, mv.PASS), (0, mv.DRAW),
                       (1, mv.catch(0))):
        assert "the round is over" in illegal(rnd, seat, move)


def test_preset_values():
    r = Rules("classic")
    d = r.to_dict()
    assert d["deck"] == "skat32" and d["hand_size"] == 5
    assert d["min_players"] == 2 and d["max_players"] == 6
    assert d["first_card"] == "plain" and d["play_drawn"] is True
    assert d["nine_reverses"] is False and d["ace"] == "plain"
    assert d["jack_on_jack"] is True and d["stack_sevens"] is True
    assert d["must_play_if_able"] is False and d["no_finish_on_jack"] is False
    assert d["mau_penalty"] == "challenge" and d["last_seven"] == "ends"
    assert d["match"] == "rounds"
    assert raises(ValueError, Round, r, 7, Random(1))
