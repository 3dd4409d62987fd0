"""Stacked tables and small helpers for the rule scenario tests.

Runs unchanged on CPython (pytest) and inside the MicroPython VM: plain functions,
no f-strings, no set or dict order.

Cards are written as in replay logs: ``"KD 8C JH"`` (rank 2-9 T J Q K A, then suit
C S H D). Seats are numbers; seat 0 is the first hand given.
"""

from array import array

from engine.cards import deck
from engine.rules import Rules
from engine.rng import Random
from engine.round import Round, IllegalMove
from engine import events as ev
from engine import moves as mv
from engine.notation import parse, describe
from engine.text import card_name, SUIT_LETTERS, EVENT_NAMES
from engine.tables import draw_pile, discard_pile

TABLE_SEED = 7  # seed of the round's generator: reshuffles are deterministic


def cards(text):
    """Card bytes from short names (``"KD 8C"``); a list of bytes is returned as a list."""
    if isinstance(text, str):
        return [parse(word) for word in text.split()]
    return list(text)


def names(text):
    """Sorted short names of `text` (names or bytes), to compare with hand()."""
    return sorted(card_name(c) for c in cards(text))


def hand(rnd, seat):
    """Sorted short names of the cards in `seat`'s hand."""
    return sorted(card_name(c) for c in rnd.hand(seat))


def pile(data):
    """Short names of a pile as returned by draw_pile() or discard_pile(), in order."""
    return [card_name(c) for c in data]


def make_rules(rules_or_preset, options=None):
    """A Rules object from a preset name and options, or the Rules object itself."""
    if isinstance(rules_or_preset, Rules):
        if options:
            raise ValueError("options go with a preset name, not with a Rules object")
        return rules_or_preset
    return Rules(rules_or_preset, **(options or {}))


def lay(rnd, hands, draw="", discard="9D", turn=0, rest="draw"):
    """Lay out a table on round `rnd` (see stacked()); return the round."""
    hand_cards = [cards(h) for h in hands]
    draw_cards = cards(draw)
    discard_cards = cards(discard)
    full = deck(rnd.rules.deck_name())
    counts = bytearray(64)
    for c in full:
        counts[c] += 1
    groups = [draw_cards, discard_cards] + hand_cards
    for group in groups:
        for c in group:
            if counts[c] == 0:
                raise ValueError("stacked table: %s is laid out more often than the deck has it"
                                 % card_name(c))
            counts[c] -= 1
    leftover = []
    for c in full:
        if counts[c]:
            counts[c] -= 1
            leftover.append(c)
    if rest == "draw":
        draw_cards = draw_cards + leftover
    elif rest == "discard":
        discard_cards = leftover + discard_cards
    else:
        raise ValueError("rest must be 'draw' or 'discard', not %r" % (rest,))
    rnd.set_table(hand_cards, draw_cards, discard_cards, turn)
    return rnd


def stacked(rules_or_preset, players, hands, draw="", discard="9D", turn=0, dealer=0,
            rest="draw", **options):
    """A round with a chosen table.

    `hands`: one string of cards per seat. `draw`: the draw pile, top card first.
    `discard`: the discard pile, bottom card first (its last card is the up-card).
    Every card of the deck not named is filled in deterministically (deck order):
    below the named draw pile (``rest="draw"``), or under the discard pile
    (``rest="discard"``, so the draw pile is exactly `draw`). `options` are rule
    options for a preset name. The round starts a fresh turn of seat `turn`.
    """
    rules = make_rules(rules_or_preset, options)
    if len(hands) != players:
        raise ValueError("stacked: %d hands for %d players" % (len(hands), players))
    rnd = Round(rules, players, Random(TABLE_SEED), dealer)
    return lay(rnd, hands, draw, discard, turn, rest)


# -- moves -------------------------------------------------------------------

def play(card_name, wish=None, mau=False):
    """A play move: ``play("JH", wish="C")``, ``play("QC", mau=True)``."""
    w = 0 if wish is None else SUIT_LETTERS.index(wish)
    return mv.play(parse(card_name), w, mau)


def legal(rnd, seat):
    """The legal moves of `seat` as sorted readable strings, e.g. ``["draw", "play KD"]``."""
    buf = array("H", bytes(2 * mv.MAX_MOVES))
    n = rnd.legal_moves(seat, buf)
    return sorted(describe(buf[i]) for i in range(n))


def jack_plays(card_name, mau=False):
    """The four plays of a Jack, one per wished suit, as describe() strings."""
    out = []
    for w in SUIT_LETTERS:
        out.append(describe(play(card_name, w, mau)))
    return out


def moves_of(rnd, script):
    """Apply (seat, move) pairs in order; return the round."""
    for seat, move in script:
        rnd.apply(seat, move)
    return rnd


# -- errors and snapshots ------------------------------------------------------

def raises(exc_type, fn, *args, **kwargs):
    """Call fn(*args, **kwargs); it must raise exc_type. Return the exception's message."""
    try:
        fn(*args, **kwargs)
    except exc_type as e:
        return str(e)
    raise AssertionError("%s not raised" % exc_type.__name__)


def snapshot(rnd):
    """Everything a move could change: the table bytes and the event buffer."""
    return bytes(rnd.s), bytes(rnd.events)


def illegal(rnd, seat, move):
    """`move` by `seat` must raise IllegalMove and leave the round byte for byte as it
    was (also why_illegal/is_legal agree); return the message."""
    before = snapshot(rnd)
    assert not rnd.is_legal(seat, move)
    why = rnd.why_illegal(seat, move)
    assert why
    message = raises(IllegalMove, rnd.apply, seat, move)
    assert snapshot(rnd) == before, "illegal move changed the round"
    assert why in message
    return message


def every_card_once(rnd):
    """True if draw pile, hands and discard pile hold the deck exactly."""
    counts = bytearray(64)
    for c in deck(rnd.rules.deck_name()):
        counts[c] += 1
    laid = list(draw_pile(rnd)) + list(discard_pile(rnd))
    for p in range(rnd.players()):
        laid.extend(rnd.hand(p))
    for c in laid:
        if counts[c] == 0:
            return False
        counts[c] -= 1
    return sum(counts) == 0


# -- events ---------------------------------------------------------------------

def evs(rnd):
    """Events of the last move as (kind name, player, value) tuples; cards and suits
    by name, a round end's value None when nobody won."""
    out = []
    for i in range(rnd.event_count()):
        e = rnd.events[i]
        k = e >> 12
        v = e & 255
        if k == ev.PLAY or k == ev.DRAW:
            v = card_name(v)
        elif k == ev.WISH:
            v = SUIT_LETTERS[v]
        elif k == ev.ROUND_END and v == ev.NOBODY:
            v = None
        out.append((EVENT_NAMES[k], e >> 8 & 15, v))
    return out


def kinds(rnd):
    """Kind names of the last move's events, in order."""
    return [e[0] for e in evs(rnd)]


def drawn_cards(rnd, seat=None):
    """Names of the cards drawn in the last move (by `seat`, if given)."""
    return [e[2] for e in evs(rnd) if e[0] == "draw" and (seat is None or e[1] == seat)]


def points(rnd):
    """Minus points of every seat, as a list."""
    return [rnd.points(p) for p in range(rnd.players())]


def plant(rnd, seat, text):
    """Overwrite `seat`'s hand with the cards of `text` (same count) in the table bytes.

    Only for states no legal deal reaches (a stalled round): afterwards the table
    no longer holds every card once. Uses the documented layout
    [header | draw pile | hand 0 | hand 1 | ... | discard pile].
    """
    new = cards(text)
    assert len(new) == rnd.count(seat)
    start = len(rnd.s) - rnd.rules.deck_size() + rnd.draw_size()
    for p in range(seat):
        start += rnd.count(p)
    for i in range(len(new)):
        rnd.s[start + i] = new[i]
