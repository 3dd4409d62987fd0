"""Words for cards, moves and events: for screens, logs, tools and error messages.

The rules modules hold no words, so a device keeps none resident while it plays;
code that shows or writes text imports this module when it needs it (reading a card's
short name back, and a move in words for logs: engine.notation).
"""

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
