"""Cards as bytes: suit in the high bits, rank in the low nibble.

A card is ``suit << 4 | rank`` with suits 0..3 (clubs, spades, hearts, diamonds;
Kreuz, Pik, Herz, Karo) and ranks 2..14 (10 is ``T``, Jack 11, Queen 12, King 13,
Ace 14). Every card fits in 6 bits, so tables indexed by card have 64 entries.
"""

from engine.compat import const

CLUBS = const(0)
SPADES = const(1)
HEARTS = const(2)
DIAMONDS = const(3)

SEVEN = const(7)
EIGHT = const(8)
NINE = const(9)
JACK = const(11)
QUEEN = const(12)
KING = const(13)
ACE = const(14)

NO_CARD = const(255)

SUIT_LETTERS = "CSHD"
RANK_LETTERS = "..23456789TJQKA"
SUIT_NAMES = ("clubs", "spades", "hearts", "diamonds")
RANK_NAMES = ("", "", "2", "3", "4", "5", "6", "7", "8", "9", "10",
              "Jack", "Queen", "King", "Ace")

# Deck options: name -> (lowest rank, copies of each card).
DECKS = {"skat32": (7, 1), "french52": (2, 1), "double104": (2, 2)}


def card(rank, suit):
    """The byte for a rank (2..14) and a suit (0..3)."""
    return suit << 4 | rank


def rank(c):
    """Rank of card c (2..14)."""
    return c & 15


def suit(c):
    """Suit of card c (0..3)."""
    return c >> 4


def deck(name):
    """A new bytearray with every card of deck `name` once per copy, in a fixed order."""
    low, copies = DECKS[name]
    cards = bytearray(4 * (15 - low) * copies)
    i = 0
    for _ in range(copies):
        for s in range(4):
            for r in range(low, 15):
                cards[i] = s << 4 | r
                i += 1
    return cards


def deck_size(name):
    """Number of cards in deck `name`."""
    low, copies = DECKS[name]
    return 4 * (15 - low) * copies


def name(c):
    """Short name as in replay logs: rank then suit, e.g. ``7C``, ``TH``, ``AS``."""
    return RANK_LETTERS[c & 15] + SUIT_LETTERS[c >> 4]


def parse(text):
    """The card byte for a short name like ``QD``; ValueError if it is not a card."""
    if len(text) == 2:
        r = RANK_LETTERS.find(text[0])
        s = SUIT_LETTERS.find(text[1])
        if r >= 2 and s >= 0:
            return s << 4 | r
    raise ValueError("not a card: %r (rank 2-9 T J Q K A, then suit C S H D)" % (text,))


def long_name(c):
    """Spoken name for screens, e.g. ``7 of clubs``."""
    return RANK_NAMES[c & 15] + " of " + SUIT_NAMES[c >> 4]
