"""Cards and moves as text for logs, tools and error messages: a card's short name read
back (``QD``), a move in words (``play JH wish C mau``). A device's screens need neither
(their words are engine.text's), so a game on a device never loads this module.
"""

from engine.compat import const
from engine.text import RANK_LETTERS, SUIT_LETTERS, card_name

_JACK = const(11)
_KIND = const(0x600)  # engine.moves.KIND_MASK; DRAW, PASS and CATCH follow
_DRAW = const(0x200)
_PASS = const(0x400)
_CATCH = const(0x600)
_MAU = const(0x100)


def parse(text):
    """The card byte for a short name like ``QD``; ValueError if it is not a card."""
    if len(text) == 2:
        r = RANK_LETTERS.find(text[0])
        s = SUIT_LETTERS.find(text[1])
        if r >= 2 and s >= 0:
            return s << 4 | r
    raise ValueError("not a card: %r (rank 2-9 T J Q K A, then suit C S H D)" % (text,))


def describe(move):
    """A move in words for logs and errors, e.g. ``play 7C`` or ``play JH wish C mau``."""
    k = move & _KIND
    if k == _DRAW:
        return "draw"
    if k == _PASS:
        return "pass"
    if k == _CATCH:
        return "catch %d" % (move & 7)
    if not 2 <= move & 15 <= 14:
        return "play %d (not a card)" % (move & 63)
    text = "play " + card_name(move & 63)
    if move & 15 == _JACK:
        text += " wish " + SUIT_LETTERS[move >> 6 & 3]
    if move & _MAU:
        text += " mau"
    return text
