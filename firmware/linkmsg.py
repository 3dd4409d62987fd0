"""The link session's messages: their kinds, the protocol version, and small codecs.

Shared by firmware.linkhost and firmware.linkclient (docs/link-messages.md has every
message byte by byte). Numbers are little-endian; a move number is the count of moves
made in the round so far, and a message about the table names its round as well.
"""

from engine.compat import const

VERSION = const(1)      # the session protocol; another one is refused in the lobby

HOST = const(16)        # host -> all, broadcast: version, free linked seats, host's name
HELLO = const(17)       # client -> host: version, the name of the device's player
REFUSE = const(18)      # host -> client: version, why (words for the screen)
SEATS = const(19)       # host -> client: the free linked seats' names, seat by seat
TAKE = const(20)        # client -> host: the seat it takes
SEATED = const(21)      # host -> client: part, parts, a part of JSON: seats, names, rules
VIEW = const(22)        # host -> client: round, move number, the seat's View table bytes
EVENTS = const(23)      # host -> client: round, move number, story words since the last
LEGAL = const(24)       # host -> client: round, move number, the seat's legal moves
MOVE = const(25)        # client -> host: round, move number, the move chosen
NO = const(26)          # host -> client: round, move number, the move, why it was refused
DIGEST = const(27)      # client -> host: round, move number, CRC-32 of the View it holds
SCORES = const(28)      # host -> client: the round's scores and the cards held
PAUSE = const(29)       # host -> client: the name the match waits for ("" : play on)

# why a move was refused (NO)
STALE = const(1)        # not the next move of this round
ILLEGAL = const(2)      # not a legal move for the seat now
NOT_YOURS = const(3)    # the device holds no seat, or another seat acts first
LATE = const(4)         # a catch whose chance passed: another move or catch came first

WORDS = const(96)       # story words in one EVENTS message (3 + 2 * 96 < MAX_PAYLOAD)
PART = const(190)       # JSON bytes in one SEATED message


def put16(buf, at, v):
    """Write v as two bytes at buf[at]."""
    buf[at] = v & 255
    buf[at + 1] = v >> 8 & 255


def get16(buf, at):
    """Read two bytes at buf[at]."""
    return buf[at] | buf[at + 1] << 8


def digest(table):
    """The CRC-32 of a View's table bytes: both sides compute it to tell they agree."""
    from firmware.save import checksum
    return checksum(table) & 0xFFFFFFFF
