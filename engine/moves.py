"""Moves as small ints.

A play is the card byte (bits 0-5), the wished suit for a Jack (bits 6-7) and the
Mau flag (bit 8). Other moves set bits 9-10 to their kind; a catch names its target
in bits 0-2. Every move fits in 11 bits, so a legal-move list is an ``array('H')``.
Reading a move: ``kind(move)``, ``says_mau(move)``; a play's card is ``move & 63``, its
wish ``move >> WISH_SHIFT & 3``; a catch's target ``move & 7``.
"""

from engine.compat import const

PLAY = const(0)
DRAW = const(0x200)
PASS = const(0x400)
CATCH = const(0x600)
KIND_MASK = const(0x600)
MAU = const(0x100)
WISH_SHIFT = const(6)

# Most moves one seat can have: a catch, 15 fitting non-Jacks (12 of the top's suit, 3
# of its rank; identical cards are listed once), 4 Jacks with 4 wishes each, and a draw
# or pass: 33 (a hand of two lists at most 2 x 8 plays). Room for 40.
MAX_MOVES = const(40)


def play(card, wish=0, mau=False):
    """A move playing `card`; a Jack names the suit `wish`; `mau` says "Mau" with it."""
    return card | wish << WISH_SHIFT | (MAU if mau else 0)


def catch(target):
    """A move calling out `target` for not saying "Mau"."""
    return CATCH | target


def kind(move):
    """PLAY, DRAW, PASS or CATCH."""
    return move & KIND_MASK


def says_mau(move):
    """True if the play declares "Mau"."""
    return move & MAU != 0

