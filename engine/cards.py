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

SEVEN = const(7)  # the ranks the rules give a part; Queen 12, King 13 have none
EIGHT = const(8)
NINE = const(9)
JACK = const(11)
ACE = const(14)

NO_CARD = const(255)


def card(rank, suit):
    """The byte for a rank (2..14) and a suit (0..3); back: ``c & 15``, ``c >> 4``."""
    return suit << 4 | rank


def lay_deck(buf, i, name):
    """Write every card of deck `name` (skat32, french52 or double104) into buf from
    index i on, in a fixed order (suit by suit, rank by rank, each copy in turn);
    return the index past the last."""
    if name == "skat32":
        low, copies = 7, 1
    elif name == "french52":
        low, copies = 2, 1
    elif name == "double104":
        low, copies = 2, 2
    else:
        raise ValueError("no deck %r: skat32, french52 or double104" % (name,))
    for _ in range(copies):
        for s in range(0, 64, 16):
            for r in range(low, 15):
                buf[i] = s | r
                i += 1
    return i


def deck(name):
    """A new bytearray with every card of deck `name` once per copy, in a fixed order."""
    cards = bytearray(104)
    return cards[:lay_deck(cards, 0, name)]

