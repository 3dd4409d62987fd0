"""Reasons in words for bad input: why a move is illegal.

Imported only when something is wrong, so its text never sits on a device's heap
during normal play. The round decides legality (its legal-move list); this module
only finds the words.
"""

from engine.cards import JACK
from engine import moves as mv
from engine.round import IllegalMove, DRAWN, AGAIN
from engine.notation import describe
from engine.text import card_name, SUIT_LETTERS


def illegal(rnd, player, move):
    """The IllegalMove to raise for `player` trying `move` on round `rnd`."""
    what = describe(move) if isinstance(move, int) and 0 <= move < 0x800 else repr(move)
    return IllegalMove("player %r cannot %s: %s" % (player, what, why(rnd, player, move)))


def why(rnd, player, move):
    """The rule that forbids `move` for `player` now."""
    if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move < 0x800:
        return "%r is not a move" % (move,)
    if not isinstance(player, int) or not 0 <= player < rnd.players():
        return "there is no player %r" % (player,)
    if rnd.is_over():
        return "the round is over"
    kind = move & mv.KIND_MASK
    if kind == mv.CATCH:
        target = move & 7
        if move & 0x1F8:
            return "a catch names only its target"
        if target == player:
            return "nobody can catch themselves"
        return "player %d owes no Mau penalty" % target
    if player != rnd.turn():
        return "it is player %d's turn" % rnd.turn()
    if kind == mv.PLAY:
        return _why_not_play(rnd, player, move)
    if move & 0x1FF:
        return "draw and pass take no card"
    if kind == mv.DRAW:
        return _why_not_draw(rnd, player)
    return _why_not_pass(rnd, player)


def _why_not_play(rnd, player, move):
    c = move & 63
    if not 2 <= c & 15 <= 14:
        return "%d is not a card" % c
    hand = rnd.hand(player)
    if c not in hand:
        return "%s is not in the hand" % card_name(c)
    if move >> 6 & 3 and (c & 15 != JACK or len(hand) == 1):
        return "only a Jack that is not the last card wishes a suit"
    if rnd.pending():
        return "%d cards must be drawn, or the count passed on" % rnd.pending()
    if rnd.phase() == DRAWN and c != rnd.drawn():
        return "only the drawn card %s may be played now" % card_name(rnd.drawn())
    if c & 15 == JACK:
        if len(hand) == 1 and rnd.rules.no_finish_on_jack:
            return "a Jack may not be the last card (no_finish_on_jack)"
        return "a Jack may not go on a Jack (jack_on_jack is off)"
    if rnd.wish() is not None:
        return "%s is wished" % SUIT_LETTERS[rnd.wish()]
    return "%s does not fit on %s" % (card_name(c), card_name(rnd.top()))


def _can_draw(rnd):
    return rnd.draw_size() > 0 or rnd.discard_size() > 1


def _why_not_draw(rnd, player):
    if rnd.phase() == DRAWN:
        return "a card was drawn already: play it or pass"
    if not _can_draw(rnd):
        return "nothing is left to draw"
    if rnd.phase() == AGAIN:
        return "after an ace a fitting card must be played"
    return "a fitting card must be played (must_play_if_able)"


def _why_not_pass(rnd, player):
    if rnd.pending():
        return "%d cards must be drawn first" % rnd.pending()
    if _can_draw(rnd):
        return "a card can be drawn"
    return "a fitting card can be played"
