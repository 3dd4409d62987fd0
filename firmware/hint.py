"""Hint: the move the AI suggests for the human to move, pointed at and said whole.

firmware.app imports this module when Hint is taken and lets go of it at once.
"""

from engine import moves as mv
from engine.text import long_name, suit_name
from firmware import screens as S


def hint(app):
    """Point the cursor at the move the AI suggests, and say it whole: the card, the
    wish of a Jack, Mau. Taking it (OK on that card) has them chosen already."""
    t = app.table
    move = app.game.hint()        # searched now, to the AI's budget
    app.hinted = move if move is not None else -1
    card = move & 63 if move is not None and mv.kind(move) == mv.PLAY else -1
    for i in range(t.item_n):
        if t.move_for(i) == move or (t.item_kind[i] == S.CARD_ITEM
                                     and t.hand[t.item_arg[i]] == card):
            t.cursor = i
            t.hint = i
            t._follow()
            break
    if move is None:
        t.say("No hint.")
    elif card >= 0:
        words = "Hint: play " + long_name(card)
        if t.wishes(card):
            words += ", wish " + suit_name(move >> mv.WISH_SHIFT & 3)
        if mv.says_mau(move):
            words += ", say Mau"
        t.say(words)
    else:
        t.say("Hint: " + app._item_text())
