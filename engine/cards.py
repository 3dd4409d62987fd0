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


def card(rank, suit):
    """The byte for a rank (2..14) and a suit (0..3)."""
    return suit << 4 | rank


def rank(c):
    """Rank of card c (2..14); its suit is ``c >> 4``."""
    return c & 15


def deck_size(name):
    """Number of cards in deck `name` (skat32, french52 or double104)."""
    if name == "skat32":
        return 32
    if name == "french52":
        return 52
    if name == "double104":
        return 104
    raise ValueError("no deck %r: skat32, french52 or double104" % (name,))


def lay_deck(buf, i, name):
    """Write every card of deck `name` into buf from index i on, in a fixed order
    (suit by suit, rank by rank, each copy in turn); return the index past the last."""
    size = deck_size(name)
    low = 7 if size == 32 else 2
    for _ in range(2 if size == 104 else 1):
        for s in range(0, 64, 16):
            for r in range(low, 15):
                buf[i] = s | r
                i += 1
    return i


def deck(name):
    """A new bytearray with every card of deck `name` once per copy, in a fixed order."""
    cards = bytearray(deck_size(name))
    lay_deck(cards, 0, name)
    return cards


def parse(text):
    """Same as engine.text.parse (kept for callers not yet moved there)."""
    from engine.text import parse
    return parse(text)
