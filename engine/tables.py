"""Tables laid out from outside the game: a chosen one (stacked decks in tests, a saved
deal) and a sampled one (the AI's worlds: hidden cards dealt anew); and the piles read
out for logs and tests.

Round.set_table and Round.fill_hidden import this module when first used, so a device
that only plays keeps none of it resident. It writes the round's table bytearray
directly; the header layout repeats engine.round's (a test checks it).
"""

from engine.compat import const
from engine.cards import NO_CARD, deck, lay_deck

_TURN = const(0)
_PENDING = const(2)
_WISH = const(4)
_PHASE = const(5)
_DEBTOR = const(7)
_IDLE = const(8)
_WINNER = const(9)
_PLAYERS = const(10)
_SAID_MAU = const(11)
_NEV = const(12)
_END = const(13)
_BOUNDS = const(15)
_MOVES_LO = const(22)
_MOVES_HI = const(23)
_CARDS = const(24)
_NOBODY = const(255)  # also NO_WISH


def set_table(rnd, hands, draw, discard, turn):
    """Round.set_table: lay out hands by seat, the draw pile top first and the discard
    pile bottom first; every card of the deck exactly once; a fresh turn starts."""
    laid = check_layout(rnd, hands, draw, discard)
    s = rnd.s
    players = s[_PLAYERS]
    for i in range(len(laid)):
        s[_CARDS + i] = laid[i]
    b = _CARDS + len(draw)
    for k in range(players):
        s[_BOUNDS + k] = b
        b += len(hands[k])
    s[_BOUNDS + players] = b
    for i in (_PENDING, _PHASE, _IDLE, _SAID_MAU, _NEV, _MOVES_LO, _MOVES_HI):
        s[i] = 0
    for i in (_WISH, _DEBTOR, _WINNER):
        s[i] = _NOBODY
    s[_TURN] = turn


def check_layout(rnd, hands, draw, discard):
    """The cards of a chosen table in slot order, or ValueError naming what is wrong."""
    from engine.text import card_name
    players = rnd.players()
    if len(hands) != players:
        raise ValueError("hands: %d given for %d players" % (len(hands), players))
    if not discard:
        raise ValueError("discard: the discard pile needs its top card")
    counts = bytearray(64)
    for c in deck(rnd.rules.deck_name()):
        counts[c] += 1
    laid = list(reversed(draw))
    for hand in hands:
        laid.extend(hand)
    laid.extend(reversed(discard))
    for c in laid:
        if not isinstance(c, int) or not 0 <= c < 64 or counts[c] == 0:
            raise ValueError("cards: %s is not in the deck or laid out too often"
                             % (card_name(c) if isinstance(c, int) and 0 <= c < 64 else repr(c),))
        counts[c] -= 1
    if sum(counts):
        raise ValueError("cards: %d cards of the deck are missing" % sum(counts))
    return laid


def fill_hidden(rnd, view, rng):
    """Round.fill_hidden: make `rnd` the view's table with every hidden slot (others'
    hands, the draw pile) dealt a random unseen card. Allocates nothing after first use."""
    s = rnd.s
    o = view.s
    s[:] = o
    pool = rnd._pool
    if pool is None:
        pool = rnd._pool = bytearray(64 + len(s))
    for i in range(64):  # pool[0:64]: how many of each card are unseen
        pool[i] = 0
    for i in range(64, lay_deck(pool, 64, rnd.rules.deck_name())):
        pool[pool[i]] += 1
    end = s[_END]
    for i in range(_CARDS, end):
        if o[i] != NO_CARD:
            pool[o[i]] -= 1
    hidden = 64  # pool[64:hidden]: the unseen cards, then shuffled
    for c in range(64):
        for _ in range(pool[c]):
            pool[hidden] = c
            hidden += 1
    rng.shuffle(pool, 64, hidden)
    k = 64
    for i in range(_CARDS, end):
        if o[i] == NO_CARD:
            s[i] = pool[k]
            k += 1
    s[_NEV] = 0


def draw_pile(rnd):
    """The draw pile of round `rnd`, top card first, as a new bytes (logs and tests)."""
    s = rnd.s
    return bytes(reversed(s[_CARDS:s[_BOUNDS]]))


def discard_pile(rnd):
    """The discard pile of round `rnd`, bottom card first, as a new bytes."""
    s = rnd.s
    return bytes(reversed(s[s[_BOUNDS + s[_PLAYERS]]:s[_END]]))
