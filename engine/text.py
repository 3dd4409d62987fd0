"""Words for cards, moves and events: for screens, logs, tools and error messages.

The rules modules hold no words, so a device keeps none resident while it plays;
code that shows or writes text imports this module when it needs it.
"""

from engine.compat import const

_JACK = const(11)
_KIND = const(0x600)  # engine.moves.KIND_MASK; DRAW, PASS and CATCH follow
_DRAW = const(0x200)
_PASS = const(0x400)
_CATCH = const(0x600)
_MAU = const(0x100)

SUIT_LETTERS = "CSHD"
RANK_LETTERS = "..23456789TJQKA"
SUIT_NAMES = ("clubs", "spades", "hearts", "diamonds")
RANK_NAMES = ("", "", "2", "3", "4", "5", "6", "7", "8", "9", "10",
              "Jack", "Queen", "King", "Ace")

# By engine.events kind (12 is unused) and penalty reason.
EVENT_NAMES = ("deal", "play", "wish", "draw", "penalty", "reshuffle", "skip", "reverse",
               "mau", "forgot", "caught", "pass", "", "round_end")
REASON_NAMES = ("", "mau", "last_seven")


def card_name(c):
    """Short name as in replay logs: rank then suit, e.g. ``7C``, ``TH``, ``AS``."""
    return RANK_LETTERS[c & 15] + SUIT_LETTERS[c >> 4]


def long_name(c):
    """Spoken name for screens, e.g. ``7 of clubs``."""
    return RANK_NAMES[c & 15] + " of " + SUIT_NAMES[c >> 4]


def suit_name(s):
    """Name of suit s (0..3), e.g. ``clubs``."""
    return SUIT_NAMES[s]


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
