"""Cards as bytes: suit in the high bits, rank in the low nibble.

A card is ``suit << 4 | rank`` with suits 0..3 (clubs, spades, hearts, diamonds;
Kreuz, Pik, Herz, Karo) and ranks 2..14 (10 is ``T``, Jack 11, Queen 12, King 13,
Ace 14). Every card fits in 6 bits, so tables indexed by card have 64 entries.
Names and parsing are in ``engine.text``.
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


def parse(text):
    """Same as engine.text.parse (kept for callers not yet moved there)."""
    from engine.text import parse
    return parse(text)
