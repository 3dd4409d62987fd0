"""Events: what happened, as 16-bit ints in an ``array('H')``.

An event is ``kind << 12 | player << 8 | value`` (read back as ``e >> 12``,
``e >> 8 & 15`` and ``e & 255``); the value is a card, a suit, a count or a player,
by kind. The round writes the events of each move into its event buffer; screens
animate them, the replay log records them, tests read them. Their names are in
``engine.text`` (EVENT_NAMES, REASON_NAMES).
"""

from engine.compat import const

DEAL = const(0)        # player: dealer
PLAY = const(1)        # value: card
WISH = const(2)        # value: suit
DRAW = const(3)        # value: card drawn
PENALTY = const(4)     # the draws that follow are a penalty; value: reason
RESHUFFLE = const(5)   # value: size of the new draw pile
SKIP = const(6)        # player: the one who misses the turn
REVERSE = const(7)     # value: new direction (1 clockwise, 0 counter-clockwise)
MAU = const(8)         # player said "Mau"
FORGOT = const(9)      # player did not say "Mau" with one card left
CAUGHT = const(10)     # player: catcher; value: the forgetful player
PASS = const(11)       # player passes (nothing to draw, nothing to play; or keeps a drawn card)
ROUND_END = const(13)  # value: winner, or NOBODY for a stalled round

NOBODY = const(255)

REASON_MAU = const(1)
REASON_LAST_SEVEN = const(2)


def event(kind, player, value):
    """Pack an event."""
    return kind << 12 | player << 8 | value
