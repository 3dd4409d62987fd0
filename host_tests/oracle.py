"""A deliberately naive reference for the legal moves, written from RULES.md.

This module does not share code with engine/round.py. It reads a table only through
the public reading methods (those of a Round, and of a player's View, which has the
same methods), and uses engine.moves only to encode its answer as move ints. It is
meant to be obviously correct, not fast: every rule is one plain `if`, in the order
RULES.md's "A turn, exactly" gives them.

Encoding conventions (docs/engine-api.md, "Moves" and "legal_moves"):
- a play of card c is ``play(c, wish, mau)``;
- a Jack that is not the player's last card is listed once per wished suit (0..3);
  a Jack that is the last card carries wish 0;
- a play that leaves exactly one card is listed with and without "Mau"; no other play
  carries the Mau flag;
- identical cards of a double deck give identical moves, so a set lists them once;
- a catch is ``catch(debtor)``, open to every seat but the debtor.

`legal_moves` is the list a player is offered. `accepted_moves` adds what `apply`
must also take: the nordic text says saying "Mau" too early costs nothing, and the
project applies that to both presets (docs/replay-format.md, `mau`): any offered play
said with "Mau" is accepted and does the same as without it.
"""

from engine import moves as mv
from engine.rules import ACE_PLAIN, ACE_DRAW4
from engine.round import DRAWN, AGAIN, OVER  # phase numbers, as phase() returns them

SEVEN = 7
EIGHT = 8
NINE = 9
JACK = 11
ACE = 14


def rank_of(c):
    """Rank 2..14 of a card byte."""
    return c % 16


def suit_of(c):
    """Suit 0..3 of a card byte."""
    return c // 16


def can_draw(table):
    """RULES 5: a card can be drawn if the draw pile has one, or if the discard pile
    has more than its top card (those get shuffled into a new draw pile)."""
    return table.draw_size() > 0 or table.discard_size() > 1


def fits(table, card, hand_size):
    """RULES 2: may `card` go on the discard pile, from a hand of `hand_size` cards?"""
    rules = table.rules
    top = table.top()
    if rank_of(card) == JACK:
        # "Jack: may go on any card (Jack on Jack included)"; both are options.
        if hand_size == 1 and rules.no_finish_on_jack:
            return False
        if rank_of(top) == JACK and not rules.jack_on_jack:
            return False
        return True
    wish = table.wish()
    if wish is not None:
        # "While a wish is active, only a card of the wished suit or a Jack is playable."
        return suit_of(card) == wish
    return suit_of(card) == suit_of(top) or rank_of(card) == rank_of(top)


def stacks(table, card):
    """RULES 1: may `card` be put on the pending draw? Only the same kind of card:
    a 7 on a 7 (if stack_sevens), an ace on an ace (with ace=draw4)."""
    rules = table.rules
    kind = rank_of(table.top())  # the card that made the count is still on top
    if rank_of(card) != kind:
        return False
    if kind == SEVEN:
        return bool(rules.stack_sevens)
    if kind == ACE:
        return rules.ace == ACE_DRAW4
    return False


def plays_of(card, hand_size):
    """Every encoding of playing `card` from a hand of `hand_size` cards."""
    if rank_of(card) == JACK and hand_size > 1:
        wishes = [0, 1, 2, 3]
    else:
        wishes = [0]
    if hand_size == 2:
        maus = [False, True]
    else:
        maus = [False]
    out = set()
    for w in wishes:
        for m in maus:
            out.add(mv.play(card, w, m))
    return out


def legal_moves(table, seat):
    """The set of moves `seat` may make now, as engine move ints.

    `table` is a Round, or the View of `seat` (the answer must be the same: a player
    can always tell their own legal moves)."""
    if table.phase() == OVER:
        return set()
    result = set()

    # RULES 6 (challenge): any other player may call out a forgotten "Mau".
    debtor = table.debtor()
    if debtor is not None and debtor != seat:
        result.add(mv.catch(debtor))

    if seat != table.turn():
        return result

    rules = table.rules
    hand = table.hand(seat)
    size = len(hand)

    # RULES 1: a pending draw allows stacking the same kind, or drawing the count.
    if table.pending() > 0:
        for c in hand:
            if stacks(table, c):
                result |= plays_of(c, size)
        result.add(mv.DRAW)  # even with nothing to draw: "draws what there is"
        return result

    # RULES 3 (play_drawn): after drawing, only the drawn card may be played; or keep it.
    if table.phase() == DRAWN:
        c = table.drawn()
        if c in hand and fits(table, c, size):
            result |= plays_of(c, size)
        result.add(mv.PASS)
        return result

    # RULES 2: every fitting card.
    fitting = [c for c in hand if fits(table, c, size)]
    for c in fitting:
        result |= plays_of(c, size)

    # RULES 3 and 5: draw one card if you cannot or will not play ...
    if table.phase() == AGAIN:
        # RULES 4 (ace=play_again): play again, or draw one card only if none fits.
        may_draw = not fitting
    elif rules.must_play_if_able:
        may_draw = not fitting
    else:
        may_draw = True  # "cannot or will not"
    if may_draw:
        if can_draw(table):
            result.add(mv.DRAW)
        elif not fitting:
            # ... and with nothing to draw and nothing to play, pass.
            result.add(mv.PASS)
    return result


def is_action(rules, c):
    """Cards that have an effect under `rules` (the nordic deal turns them over)."""
    r = rank_of(c)
    return (r == SEVEN or r == JACK or (r == EIGHT and rules.eight_skips)
            or (r == NINE and rules.nine_reverses) or (r == ACE and rules.ace != ACE_PLAIN))


def accepted_moves(table, seat):
    """Every move `apply` must accept: the offered moves, and each offered play said
    with "Mau" (too early, or with the last card: it changes nothing)."""
    offered = legal_moves(table, seat)
    accepted = set(offered)
    for m in offered:
        if mv.kind(m) == mv.PLAY:
            accepted.add(m | mv.MAU)
    return accepted
