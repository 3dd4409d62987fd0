"""Events in words (firmware.story): each kind of event, who may hear a drawn card."""
from array import array

from engine import events as ev
from engine import moves as mv
from engine.cards import card, CLUBS, SPADES, HEARTS, DIAMONDS
from firmware import story

NAMES = ["Anna", "Finn", "Greta", "Emma"]
SEVEN_C = card(7, CLUBS)
NINE_H = card(9, HEARTS)
KING_S = card(13, SPADES)
JACK_D = card(11, DIAMONDS)


def told(events, viewer=story.NO_VIEWER, ring=None):
    """The sentences for a list of events, through a ring as the game keeps them."""
    ring = ring or array("H", range(16))
    start = 40  # not at 0, and wrapping round the ring
    for i, e in enumerate(events):
        ring[(start + i) % len(ring)] = e
    return story.tell(ring, start, start + len(events), NAMES, viewer)


def move(seat, m, *events):
    return [story.marker(seat, m)] + list(events)


def test_a_play_and_its_wish_mau_and_skip():
    lines = told(move(2, mv.play(JACK_D, HEARTS), ev.event(ev.PLAY, 2, JACK_D),
                      ev.event(ev.WISH, 2, HEARTS))
                 + move(1, mv.play(card(8, HEARTS), 0, True), ev.event(ev.PLAY, 1, card(8, HEARTS)),
                        ev.event(ev.MAU, 1, 0), ev.event(ev.SKIP, 2, 0)))
    assert lines == ["Greta plays Jack of diamonds", "Greta wishes hearts",
                     "Finn plays 8 of hearts", "Finn says Mau", "Greta misses a turn"]


def test_a_drawn_card_is_named_only_to_the_one_who_drew_it():
    events = move(1, mv.DRAW, ev.event(ev.DRAW, 1, NINE_H))
    assert told(events) == ["Finn draws a card"]
    assert told(events, viewer=0) == ["Finn draws a card"]
    assert told(events, viewer=1) == ["You draw 9 of hearts"]


def test_a_pending_draw_counts_cards_and_names_them_for_the_drawer():
    events = move(3, mv.DRAW, ev.event(ev.DRAW, 3, NINE_H), ev.event(ev.DRAW, 3, KING_S))
    assert told(events, viewer=0) == ["Emma draws 2"]
    assert told(events, viewer=3) == ["You draw 2: 9 of hearts, King of spades"]


def test_a_reshuffle_is_told_before_the_draws_around_it():
    events = move(1, mv.DRAW, ev.event(ev.DRAW, 1, NINE_H), ev.event(ev.RESHUFFLE, 0, 20),
                  ev.event(ev.DRAW, 1, KING_S))
    assert told(events) == ["The draw pile is reshuffled", "Finn draws 2"]


def test_the_last_seven_makes_the_next_player_draw():
    events = move(2, mv.play(SEVEN_C), ev.event(ev.PLAY, 2, SEVEN_C),
                  ev.event(ev.PENALTY, 3, ev.REASON_LAST_SEVEN),
                  ev.event(ev.DRAW, 3, NINE_H), ev.event(ev.DRAW, 3, KING_S),
                  ev.event(ev.ROUND_END, 0, 2))
    assert told(events) == ["Greta plays 7 of clubs: Emma draws 2", "Greta wins the round"]
    assert told(events, viewer=3) == ["Greta plays 7 of clubs: you draw 2: 9 of hearts, "
                                      "King of spades", "Greta wins the round"]


def test_a_forgotten_mau_caught_and_penalised():
    forgot = move(3, mv.play(NINE_H), ev.event(ev.PLAY, 3, NINE_H), ev.event(ev.FORGOT, 3, 0))
    caught = move(2, mv.catch(3), ev.event(ev.CAUGHT, 2, 3),
                  ev.event(ev.PENALTY, 3, ev.REASON_MAU), ev.event(ev.DRAW, 3, KING_S),
                  ev.event(ev.DRAW, 3, SEVEN_C))
    assert told(forgot + caught) == ["Emma plays 9 of hearts", "Emma forgot to say Mau",
                                     "Emma forgot to say Mau - caught by Greta: draws 2"]
    assert told(caught, viewer=2)[-1] == "Emma forgot to say Mau - caught by you: draws 2"
    assert told(caught, viewer=3)[-1] == ("You forgot to say Mau - caught by Greta: "
                                          "draw 2: King of spades, 7 of clubs")


def test_the_automatic_mau_penalty():
    events = move(0, mv.play(NINE_H), ev.event(ev.PLAY, 0, NINE_H), ev.event(ev.FORGOT, 0, 0),
                  ev.event(ev.PENALTY, 0, ev.REASON_MAU), ev.event(ev.DRAW, 0, KING_S),
                  ev.event(ev.DRAW, 0, SEVEN_C))
    assert told(events) == ["Anna plays 9 of hearts", "Anna forgot to say Mau: draws 2"]


def test_a_draw_that_finds_no_card_pass_reverse_deal_and_stalled_end():
    events = (move(1, mv.DRAW)
              + move(2, mv.PASS, ev.event(ev.PASS, 2, 0))
              + move(3, mv.play(card(9, CLUBS)), ev.event(ev.PLAY, 3, card(9, CLUBS)),
                     ev.event(ev.REVERSE, 0, 0))
              + [ev.event(ev.ROUND_END, 0, ev.NOBODY)])
    assert told(events) == ["Finn draws no card: none left", "Greta passes",
                            "Emma plays 9 of clubs", "Play turns counter-clockwise",
                            "The round ends: nobody wins"]
    deal = [ev.event(ev.DEAL, 3, 0), story.event(story.UPCARD, 0, KING_S)]
    assert told(deal) == ["Emma deals", "The first card is King of spades"]
    assert told(deal, viewer=3) == ["You deal", "The first card is King of spades"]


def test_lines_are_ascii():
    events = move(3, mv.DRAW, ev.event(ev.DRAW, 3, NINE_H)) + move(
        2, mv.catch(3), ev.event(ev.CAUGHT, 2, 3), ev.event(ev.PENALTY, 3, ev.REASON_MAU))
    for viewer in (story.NO_VIEWER, 2, 3):
        for line in told(events, viewer):
            assert all(32 <= ord(ch) < 127 for ch in line), line


def test_every_line_is_a_sentence_of_its_own():
    """Lines are shown one a row and joined with ". " on the status lines: each begins
    with a capital, whatever it tells (seen in whole games of both presets, the story so
    far after every move: the ring keeps the last 64 events)."""
    from firmware.game import Game
    told_lines = set()
    for preset in ("classic", "nordic"):
        game = Game({"seats": [["Anna", 1], ["Finn", 2], ["Greta", 1]], "preset": preset,
                     "options": {}, "match": "round", "limit": 1}, seed=3, playouts=4)
        while game.in_round():
            game.step_ai()
            told_lines.update(game.last_lines())
            told_lines.update(game._lines(0, story.NO_VIEWER))
    assert any(line.startswith("The ") for line in told_lines)
    assert all(line[0].isupper() or line == "..." for line in told_lines), sorted(told_lines)


def test_drawing_the_count_of_a_seven_completes_the_play_that_asked_for_it():
    seven = move(2, mv.play(SEVEN_C), ev.event(ev.PLAY, 2, SEVEN_C))
    pays = [story.marker(3, mv.DRAW, pays=True), ev.event(ev.DRAW, 3, NINE_H),
            ev.event(ev.DRAW, 3, KING_S)]
    assert told(seven + pays) == ["Greta plays 7 of clubs: Emma draws 2"]
    assert told(seven + pays, viewer=3) == [
        "Greta plays 7 of clubs: you draw 2: 9 of hearts, King of spades"]
    assert told(pays) == ["Emma draws 2"]  # the play is not in this stretch
    said = seven + [ev.event(ev.MAU, 2, 0)]
    assert told(said + pays) == ["Greta plays 7 of clubs", "Greta says Mau", "Emma draws 2"]


def test_a_game_marks_the_draws_that_pay_a_count():
    from engine.cards import deck
    from engine.notation import parse
    from firmware.game import Game
    game = Game({"seats": [["Anna", 0], ["Finn", 0]], "preset": "classic"}, seed=1)
    hands = [[parse(c) for c in "7C 8D 9D".split()], [parse(c) for c in "KH QH KS".split()]]
    rest = [c for c in deck("skat32") if c not in hands[0] + hands[1] + [parse("TC")]]
    game.rnd.set_table(hands, rest, [parse("TC")], 0)
    game.play(mv.play(SEVEN_C))
    game.play(mv.DRAW)
    assert game.story(0) == ["Finn draws 2"]  # Anna's own play came before her last move
    whole = story.tell(game.ring, 0, game.told, game.names_by_seat(), 0)
    assert whole[-1] == "You play 7 of clubs: Finn draws 2"
    whole = story.tell(game.ring, 0, game.told, game.names_by_seat(), 1)
    assert whole[-1].startswith("Anna plays 7 of clubs: you draw 2: ")
