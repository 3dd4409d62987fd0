"""One round of Mau-Mau: the table, the turn, and what each player may see.

The whole table is one bytearray. A header of small ints comes first, then every
card of the deck exactly once, in segments:

    [ draw pile (bottom .. top) | hand 0 | hand 1 | ... | discard (top .. bottom) ]

``bounds[k]`` (header bytes) is where hand k starts; ``bounds[players]`` is the
discard pile's top card. Moving a card always goes rightwards: it leaves the end of
its segment (a played card's slot takes the hand's last card) and each boundary it
crosses moves one slot left, the segment there handing its last card to its new
first slot; so drawing and playing move at most two bytes per seat and never
allocate. Hands are unordered sets; screens sort them for display. Only a reshuffle
moves cards leftwards, by rotating the card area so that the old discard pile
(without its top) becomes the draw pile.
"""

from array import array

from engine.compat import const
from engine.cards import deck

# Header layout of the table bytearray.
_TURN = const(0)       # player to move
_DIR = const(1)        # step to the next seat: 1 (clockwise) or players - 1
_PENDING = const(2)    # cards the player to move must draw unless they stack
_PEND_RANK = const(3)  # rank that stacks on the pending draw (7, or an ace with draw4)
_WISH = const(4)       # suit wished by the last Jack, or NO_WISH
_PHASE = const(5)
_DRAWN = const(6)      # card drawn this turn, while it may still be played
_DEBTOR = const(7)     # player who forgot "Mau" and may still be caught, or NOBODY
_IDLE = const(8)       # turns in a row in which no card moved
_WINNER = const(9)     # round winner, or NOBODY
_PLAYERS = const(10)
_SAID_MAU = const(11)  # bit p: player p said "Mau" and still holds one card
_NEV = const(12)       # events written by the last move
_END = const(13)       # index past the last card
_DEALER = const(14)
_BOUNDS = const(15)    # 7 bytes: start of hand k, and the discard top at k = players
_MOVES_LO = const(22)  # moves made this round, low byte
_MOVES_HI = const(23)  # ... high byte
_CARDS = const(24)     # first card of the draw pile

# Cards can circle between the piles for ever (two players who always play a fitting
# drawn card, say). A round that reaches this many moves ends like a stalled one: no
# winner, everybody scores their hand. Random play almost never gets near it.
ROUND_MOVE_LIMIT = const(16384)

# Constants of other modules, repeated here so MicroPython folds them at compile time
# instead of looking them up on every use (a test checks they match their modules).
_SEVEN = const(7)         # engine.cards ranks
_EIGHT = const(8)
_NINE = const(9)
_JACK = const(11)
_ACE = const(14)
_NO_CARD = const(255)     # cards.NO_CARD
_ACE_DRAW4 = const(1)     # engine.rules
_ACE_PLAY_AGAIN = const(2)
_MAU_CHALLENGE = const(0)
_MAU_AUTO = const(1)
_KIND = const(0x600)      # moves.KIND_MASK
_DRAW = const(0x200)      # moves.DRAW
_PASS = const(0x400)      # moves.PASS
_CATCH = const(0x600)     # moves.CATCH
_MAU = const(0x100)       # moves.MAU
_MAX_MOVES = const(40)    # moves.MAX_MOVES
_EV_PLAY = const(0x1000)  # events.PLAY << 12
_EV_DRAW = const(0x3000)  # events.DRAW << 12
_EV_PASS = const(0xB000)  # events.PASS << 12
_E_DEAL = const(0)        # engine.events kinds
_E_WISH = const(2)
_E_PENALTY = const(4)
_E_RESHUFFLE = const(5)
_E_SKIP = const(6)
_E_REVERSE = const(7)
_E_MAU = const(8)
_E_FORGOT = const(9)
_E_CAUGHT = const(10)
_E_ROUND_END = const(13)
_REASON_MAU = const(1)    # events.REASON_MAU
_REASON_LAST_SEVEN = const(2)

NO_WISH = const(255)
NOBODY = const(255)

# What a card of each rank does under a round's rules: Round.effects[rank].
_PLAIN = const(0)
_DRAW_TWO = const(1)     # a 7: the next player draws 2 unless they stack
_DRAW_FOUR = const(2)    # an ace with ace=draw4
_WISHES = const(3)       # a Jack
_SKIPS = const(4)        # an 8 with eight_skips
_REVERSES = const(5)     # a 9 with nine_reverses
_PLAYS_AGAIN = const(6)  # an ace with ace=play_again

NORMAL = const(0)      # start of a turn
DRAWN = const(1)       # drew a card: may play it if it fits, or pass (play_drawn)
AGAIN = const(2)       # played an ace and must play again (ace play_again)
OVER = const(3)        # the round has ended


class IllegalMove(ValueError):
    """A move the rules do not allow here; the round is unchanged."""


_CHECK = array("H", range(_MAX_MOVES))  # scratch for apply's legality check
_FRESH = [None, None, None]  # a new round's table before the shuffle, by rules.deck

# _FITS[card ^ top] is 1 when the two cards share their suit (no suit bit differs) or
# their rank (no rank bit differs).
_FITS = (b"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01"
         b"\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
         b"\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
         b"\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00")


class Table:
    """Read access shared by a Round and a player's View (same layout)."""

    def players(self):
        """Number of seats in this round."""
        return self.s[_PLAYERS]

    def turn(self):
        """The player to move."""
        return self.s[_TURN]

    def direction(self):
        """1 while play goes clockwise (seat order), -1 against it."""
        s = self.s
        return 1 if s[_DIR] == 1 or s[_PLAYERS] == 2 else -1

    def top(self):
        """The card on top of the discard pile."""
        s = self.s
        return s[s[_BOUNDS + s[_PLAYERS]]]

    def wish(self):
        """The wished suit, or None."""
        w = self.s[_WISH]
        return None if w == NO_WISH else w

    def pending(self):
        """Cards the player to move must draw unless they stack."""
        return self.s[_PENDING]

    def phase(self):
        """NORMAL, DRAWN (may play the drawn card), AGAIN (after an ace) or OVER."""
        return self.s[_PHASE]

    def drawn(self):
        """The card drawn this turn while it may still be played, else NO_CARD."""
        s = self.s
        return s[_DRAWN] if s[_PHASE] == DRAWN else _NO_CARD

    def debtor(self):
        """The player who forgot "Mau" and can still be caught, or None."""
        d = self.s[_DEBTOR]
        return None if d == NOBODY else d

    def said_mau(self, p):
        """True while player p has one card and said "Mau" for it."""
        return self.s[_SAID_MAU] >> p & 1 == 1

    def count(self, p):
        """Number of cards in player p's hand."""
        s = self.s
        return s[_BOUNDS + p + 1] - s[_BOUNDS + p]

    def draw_size(self):
        """Number of cards in the draw pile."""
        return self.s[_BOUNDS] - _CARDS

    def discard_size(self):
        """Number of cards in the discard pile, top included."""
        s = self.s
        return s[_END] - s[_BOUNDS + s[_PLAYERS]]

    def discard(self, i):
        """Card i of the discard pile, 0 being the top."""
        s = self.s
        return s[s[_BOUNDS + s[_PLAYERS]] + i]

    def dealer(self):
        """The seat that dealt this round."""
        return self.s[_DEALER]

    def moves_made(self):
        """Moves made in this round so far (the round ends at ROUND_MOVE_LIMIT)."""
        s = self.s
        return s[_MOVES_HI] << 8 | s[_MOVES_LO]

    def is_over(self):
        """True once the round has ended."""
        return self.s[_PHASE] == OVER

    def winner(self):
        """The round's winner, or None (not over, or a stalled round)."""
        w = self.s[_WINNER]
        return None if w == NOBODY else w

    def hand_into(self, p, out):
        """Copy player p's cards into bytearray `out`; return how many."""
        s = self.s
        lo = s[_BOUNDS + p]
        n = s[_BOUNDS + p + 1] - lo
        for i in range(n):
            out[i] = s[lo + i]
        return n

    def hand(self, p):
        """Player p's cards as a new sorted list (for tests and tools, not hot paths)."""
        s = self.s
        return sorted(s[s[_BOUNDS + p]:s[_BOUNDS + p + 1]])

    def suit_counts(self, p, out):
        """Count player p's cards of each suit into out[0:4]."""
        s = self.s
        for k in range(4):
            out[k] = 0
        for i in range(s[_BOUNDS + p], s[_BOUNDS + p + 1]):
            out[s[i] >> 4] += 1


class View(Table):
    """What one player may know: the table with every hidden card masked out."""

    def __init__(self, rules):
        self.rules = rules
        self.s = bytearray(_CARDS + rules.deck_size())
        self.player = 0

    def hidden(self, i):
        """True if card slot i of the table is unknown to this player."""
        return self.s[i] == _NO_CARD


class Round(Table):
    """A round in play: deal, legal moves, moves, events."""

    def __init__(self, rules, players, rng, dealer=0):
        self.rules = rules
        self.rng = rng
        cards = rules.deck_size()
        self.s = bytearray(_CARDS + cards)
        self.copies = 1 if cards == 104 else 0  # a double deck: identical cards exist
        # Room for the events of one move: its own few plus the largest possible draw.
        most = 4 * (1 + self.copies) * (4 if rules.ace == _ACE_DRAW4 else 2)
        self.events = array("H", bytes(2 * (20 + most)))
        self._pool = None  # scratch for fill_hidden, made on first use
        self.effects = _effects(rules)
        self.deal(players, dealer)

    # -- dealing -------------------------------------------------------------

    def deal(self, players, dealer):
        """Shuffle, deal a hand to each player, turn up the first card.

        Each hand is a block of cards from the shuffled deck, the same as dealing one
        card at a time from a deck in random order.
        """
        rules = self.rules
        rules.check_players(players)
        if not 0 <= dealer < players:
            raise ValueError("dealer %r must be a seat from 0 to %d" % (dealer, players - 1))
        s = self.s
        fresh = _FRESH[rules.deck]
        if fresh is None:  # made once per deck: nothing pending, no wish, debtor, winner
            fresh = _FRESH[rules.deck] = bytearray(_CARDS) + deck(rules.deck_name())
            fresh[_END] = len(fresh)
            fresh[_DIR] = 1
            fresh[_WISH] = NO_WISH
            fresh[_DEBTOR] = NOBODY
            fresh[_WINNER] = NOBODY
        s[:] = fresh
        end = s[_END]
        self.rng.shuffle(s, _CARDS, end)
        s[_PLAYERS] = players
        s[_DEALER] = dealer
        size = rules.hand_size
        b = end - 1 - players * size
        for k in range(players):
            s[_BOUNDS + k] = b
            b += size
        s[_BOUNDS + players] = b  # the up-card
        if rules.first_card:  # turn_again: an action card turned up is covered
            while self.effects[s[s[_BOUNDS + players]] & 15] and s[_BOUNDS] > _CARDS:
                self._draw_card(players)
            s[_NEV] = 0  # (those draws are no events: the deal shows the table as it is)
        s[_TURN] = (dealer + 1) % players
        self._ev(_E_DEAL, dealer, 0)

    def set_table(self, hands, draw, discard, turn=0):
        """Lay out a chosen table: hands by seat, draw pile top first, discard pile
        bottom first (its last card is the top). Every card of the deck must be there
        exactly once (twice in a double deck); the state starts a fresh turn."""
        from engine.tables import set_table
        set_table(self, hands, draw, discard, turn)

    # -- moving cards --------------------------------------------------------

    def _draw_card(self, p):
        """Player p draws the top card; return it, or NO_CARD when nothing is left.
        (p = players puts it on the discard pile: the deal's turn_again.)"""
        s = self.s
        x = s[_BOUNDS] - 1  # the draw pile's top
        if x < _CARDS:  # empty: the discard pile under its top becomes the draw pile
            if not self._reshuffle():
                return _NO_CARD
            x = s[_BOUNDS] - 1
        c = s[x]
        _hand_on(s, x, _BOUNDS, _BOUNDS + p, c)  # to the front of p's hand
        if s[_SAID_MAU]:  # a Mau said is void once a card comes in
            s[_SAID_MAU] &= ~(1 << p)
        s[_IDLE] = 0
        n = s[_NEV]  # self._ev inlined: the hottest event
        self.events[n] = _EV_DRAW | p << 8 | c
        s[_NEV] = n + 1
        return c

    def _draw_cards(self, p, n):
        """Player p draws up to n cards; return how many they got."""
        got = 0
        while got < n and self._draw_card(p) != _NO_CARD:
            got += 1
        return got

    def _reshuffle(self):
        """Shuffle the discard pile under its top card into a new draw pile."""
        s = self.s
        players = s[_PLAYERS]
        end = s[_END]
        k = end - s[_BOUNDS + players] - 1
        if k <= 0:
            return False
        # [hands | top | rest] -> [rest | hands | top] by three reversals.
        _reverse(s, _CARDS, end)
        _reverse(s, _CARDS, _CARDS + k)
        _reverse(s, _CARDS + k, end)
        for i in range(_BOUNDS, _BOUNDS + players + 1):
            s[i] += k
        self.rng.shuffle(s, _CARDS, _CARDS + k)
        self._ev(_E_RESHUFFLE, 0, k)
        return True

    def _ev(self, kind, p, value):
        s = self.s
        n = s[_NEV]
        self.events[n] = kind << 12 | p << 8 | value
        s[_NEV] = n + 1

    def event_count(self):
        """Number of events the last move (or the deal) wrote to `events`."""
        return self.s[_NEV]

    # -- what may be played --------------------------------------------------

    def legal_moves(self, player, out, only=-1):
        """Write every move `player` may make now into `out` (an array('H') or a list of
        at least MAX_MOVES); return how many. (With a move as `only`, is_legal's check,
        the list is cut to what decides whether that move is legal.)"""
        s = self.s
        n = 0
        debtor = s[_DEBTOR]  # NOBODY once the round is over
        if debtor != NOBODY and debtor != player:
            out[0] = _CATCH | debtor
            n = 1
        phase = s[_PHASE]
        if player != s[_TURN] or phase == OVER:
            return n
        lo = s[_BOUNDS + player]
        hi = s[_BOUNDS + player + 1]
        size = hi - lo
        if phase == DRAWN:
            hi = lo + 1  # only the drawn card may be played: it is the hand's first
        if only >= 0:  # from is_legal: look only at what decides whether `only` is legal
            if only & _KIND == 0:  # a play: the slot of that card alone, if held
                c = only & 63
                while lo < hi and s[lo] != c:
                    lo += 1
                if lo == hi:
                    return n
                hi = lo + 1
            elif not (phase == AGAIN or self.rules.must_play_if_able or s[_BOUNDS] == _CARDS) \
                    or s[_PENDING] or only & _KIND == _CATCH:
                hi = lo  # a catch, or a draw or pass that does not depend on the plays
        copies = self.copies  # a double deck: list the second of two equal cards no more
        # (_seen looks through the plays listed so far, none before the first)
        if s[_PENDING]:
            stacks = s[_PEND_RANK]  # the rank that may go on the pending draw, if any
            if stacks == _SEVEN and not self.rules.stack_sevens:
                stacks = 0
            for i in range(lo, hi):
                c = s[i]
                if c & 15 == stacks and not (copies and _seen(out, 0, n, c)):
                    n = _variants(out, n, c, size)
            out[n] = _DRAW
            return n + 1
        # A card fits when it shares the top card's suit or rank (_FITS); a wish acts as
        # a top card of that suit and no rank. A Jack fits when _jack_fits (asked only
        # when a Jack is held: most hands hold none).
        discard = s[_BOUNDS + s[_PLAYERS]]
        t = s[discard]
        if s[_WISH] != NO_WISH:
            t = s[_WISH] << 4
        first = n
        fits = _FITS
        if size > 2:  # the common case: no Mau variants
            for i in range(lo, hi):
                c = s[i]
                if c & 15 == _JACK:
                    if self._jack_fits(s[discard]) and not (copies and _seen(out, first, n, c)):
                        out[n] = c
                        out[n + 1] = c | 0x40
                        out[n + 2] = c | 0x80
                        out[n + 3] = c | 0xC0
                        n += 4
                elif fits[c ^ t] and not (copies and n > first and _seen(out, first, n, c)):
                    out[n] = c
                    n += 1
        elif size == 2:  # a play leaves one card: each play with and without Mau
            for i in range(lo, hi):
                c = s[i]
                if c & 15 == _JACK:
                    if self._jack_fits(s[discard]) and not (copies and _seen(out, first, n, c)):
                        n = _variants(out, n, c, 2)
                elif fits[c ^ t] and not (copies and n > first and _seen(out, first, n, c)):
                    out[n] = c
                    out[n + 1] = c | _MAU
                    n += 2
        else:  # the last card: a Jack wishes nothing, and there is no Mau to say
            c = s[lo]
            if fits[c ^ t] if c & 15 != _JACK else \
                    self._jack_fits(s[discard]) and not self.rules.no_finish_on_jack:
                out[n] = c
                n += 1
        if phase == DRAWN:
            out[n] = _PASS  # keep the drawn card
        elif n > first and (phase == AGAIN or self.rules.must_play_if_able):
            return n  # a card must be played
        elif s[_BOUNDS] > _CARDS or s[_END] - discard > 1:
            out[n] = _DRAW  # (an empty draw pile is refilled from the discard pile)
        elif n == first:
            out[n] = _PASS  # nothing fits and nothing can be drawn
        else:
            return n
        return n + 1

    def _jack_fits(self, top):
        """True if a Jack may go on card `top` (on a Jack only with jack_on_jack)."""
        return top & 15 != _JACK or self.rules.jack_on_jack

    def is_legal(self, player, move):
        """True if `player` may make `move` now."""
        if not 0 <= player < self.s[_PLAYERS]:
            return False
        check = _CHECK
        n = self.legal_moves(player, check, move)
        plain = move if move & _KIND else move & ~_MAU  # saying Mau too early costs nothing
        for i in range(n):
            if check[i] == move or check[i] == plain:
                return True
        return False

    def why_illegal(self, player, move):
        """The reason `player` may not make `move` now, in words; None if they may."""
        if self.is_legal(player, move):
            return None
        from engine.explain import why  # only on bad input: keeps the words off the heap
        return why(self, player, move)

    def apply(self, player, move):
        """Make `player`'s move; raise IllegalMove (round unchanged) if it is not allowed.
        Return the seat to move next, or -1 once the round is over."""
        if not (isinstance(player, int) and isinstance(move, int) and self.is_legal(player, move)):
            from engine.explain import illegal
            raise illegal(self, player, move)
        return self.apply_legal(player, move)

    def apply_legal(self, player, move):
        """Make a move just taken from legal_moves, without checking it again (playouts).
        Return the seat to move next, or -1 once the round is over."""
        s = self.s
        kind = move & _KIND
        if kind == 0:  # a play (it writes the move's first event itself)
            s[_DEBTOR] = NOBODY  # the catch window closes with the next action
            steps = self._play(player, move)
        else:
            s[_NEV] = 0
            if kind == _CATCH:
                self._catch(player, move & 7)
                steps = 0
            else:
                s[_DEBTOR] = NOBODY
                steps = self._draw_move(player) if kind == _DRAW else self._pass(player)
        if steps:  # the turn passes on, `steps` seats (2 skips the next player)
            s[_PHASE] = NORMAL
            step = s[_DIR]
            nxt = (player + step) % s[_PLAYERS]
            if steps == 2:
                self._ev(_E_SKIP, nxt, 0)
                nxt = (nxt + step) % s[_PLAYERS]
            s[_TURN] = nxt
        elif s[_PHASE] == OVER:
            return -1
        else:
            nxt = s[_TURN]
        lo = s[_MOVES_LO] + 1
        if lo == 256:
            lo = 0
            s[_MOVES_HI] += 1
            if s[_MOVES_HI] == ROUND_MOVE_LIMIT >> 8:
                self._finish(NOBODY)
                return -1
        s[_MOVES_LO] = lo
        return nxt

    # Each move below returns how many seats the turn moves on: 0 while the same
    # player is still to move (a drawn card, an ace to follow) or the round is over.

    def _play(self, p, move):
        s = self.s
        c = move & 63
        lo = s[_BOUNDS + p]
        last = s[_BOUNDS + p + 1] - 1
        i = lo
        while s[i] != c:
            i += 1
        s[i] = s[last]  # the hand's last card takes the played card's slot
        _hand_on(s, last, _BOUNDS + p + 1, _BOUNDS + s[_PLAYERS], c)  # onto the discard pile
        s[_IDLE] = 0
        s[_WISH] = NO_WISH
        self.events[0] = _EV_PLAY | p << 8 | c  # the move's first event
        s[_NEV] = 1
        effect = self.effects[c & 15]
        if effect == _PLAIN and last - lo > 1:
            return 1  # the common case: nothing more happens
        return self._effect(p, move, effect, last - lo)

    def _effect(self, p, move, effect, left):
        """What a play with `effect` leaving `left` cards does beyond moving its card: a
        pending draw, the win, Mau, a wish, a skip, a reversal, playing again."""
        s = self.s
        if effect == _DRAW_TWO or effect == _DRAW_FOUR:
            s[_PEND_RANK] = move & 15
            s[_PENDING] += 2 if effect == _DRAW_TWO else 4
        if left == 0:
            s[_SAID_MAU] &= ~(1 << p)  # (only a player with one card can have said it)
            self._win(p)
            return 0
        if left == 1:
            self._one_card_left(p, move & _MAU)
        if effect <= _DRAW_FOUR:  # no effect on the turn
            return 1
        if effect == _WISHES:
            s[_WISH] = move >> 6 & 3
            self._ev(_E_WISH, p, s[_WISH])
        elif effect == _SKIPS:
            return 2
        elif effect == _REVERSES:
            s[_DIR] = s[_PLAYERS] - s[_DIR]
            self._ev(_E_REVERSE, 0, 1 if s[_DIR] == 1 else 0)
        else:  # _PLAYS_AGAIN
            s[_PHASE] = AGAIN
            return 0
        return 1

    def _one_card_left(self, p, said):
        s = self.s
        if said:
            s[_SAID_MAU] |= 1 << p
            self._ev(_E_MAU, p, 0)
            return
        self._ev(_E_FORGOT, p, 0)
        mode = self.rules.mau_penalty
        if mode == _MAU_AUTO:
            self._ev(_E_PENALTY, p, _REASON_MAU)
            self._draw_cards(p, 2)
        elif mode == _MAU_CHALLENGE:
            s[_DEBTOR] = p

    def _draw_move(self, p):
        s = self.s
        pending = s[_PENDING]
        if pending:
            s[_PENDING] = 0
            s[_IDLE] = 0  # taking the count changes the table even if nothing was left
            self._draw_cards(p, pending)
            return 1
        c = self._draw_card(p)
        if self.rules.play_drawn and s[_PHASE] == NORMAL:
            # Always a second step, fitting or not, so the others cannot tell.
            s[_PHASE] = DRAWN
            s[_DRAWN] = c
            return 0
        return 1

    def _pass(self, p):
        s = self.s
        self.events[0] = _EV_PASS | p << 8  # the move's only event (self._ev inlined)
        s[_NEV] = 1
        if s[_PHASE] != DRAWN:
            s[_IDLE] += 1
            if s[_IDLE] >= s[_PLAYERS]:
                self._finish(NOBODY)
                return 0
        return 1

    def _catch(self, catcher, target):
        s = self.s
        s[_DEBTOR] = NOBODY
        self._ev(_E_CAUGHT, catcher, target)
        self._ev(_E_PENALTY, target, _REASON_MAU)
        self._draw_cards(target, 2)

    def _win(self, p):
        s = self.s
        pending = s[_PENDING]
        if pending and self.rules.last_seven:
            nxt = (p + s[_DIR]) % s[_PLAYERS]
            self._ev(_E_PENALTY, nxt, _REASON_LAST_SEVEN)
            self._draw_cards(nxt, pending)
        s[_PENDING] = 0
        self._finish(p)

    def _finish(self, winner):
        s = self.s
        s[_PHASE] = OVER
        s[_WINNER] = winner
        s[_DEBTOR] = NOBODY
        self._ev(_E_ROUND_END, 0, winner)

    # -- scoring and views ---------------------------------------------------

    def points(self, p):
        """Minus points of player p's hand (0 for the winner)."""
        s = self.s
        table = self.rules.points
        total = 0
        for i in range(s[_BOUNDS + p], s[_BOUNDS + p + 1]):
            total += table[s[i] & 15]
        return total

    def view(self, p, out):
        """Fill View `out` with what player p may know; return it."""
        s = self.s
        o = out.s
        o[:] = s
        out.player = p
        if p != s[_TURN] or s[_PHASE] != DRAWN:
            o[_DRAWN] = _NO_CARD  # a kept card stays secret
        players = s[_PLAYERS]
        for i in range(_CARDS, s[_BOUNDS + p]):
            o[i] = _NO_CARD
        for i in range(s[_BOUNDS + p + 1], s[_BOUNDS + players]):
            o[i] = _NO_CARD
        return out

    def fill_hidden(self, view, rng):
        """Become one table the viewer cannot tell apart from the real one: the view's
        table with every hidden slot (others' hands, the draw pile) dealt a random unseen
        card. Allocates nothing after the first call."""
        from engine.tables import fill_hidden
        fill_hidden(self, view, rng)


def _effects(rules):
    """What a card of each rank does under `rules` (bytes by rank), made once per Rules."""
    try:
        return rules.effects
    except AttributeError:
        effects = bytearray(16)  # switches are 0 or 1
        effects[_SEVEN] = _DRAW_TWO
        effects[_EIGHT] = _SKIPS * rules.eight_skips
        effects[_NINE] = _REVERSES * rules.nine_reverses
        effects[_JACK] = _WISHES
        effects[_ACE] = (_PLAIN, _DRAW_FOUR, _PLAYS_AGAIN)[rules.ace]
        rules.effects = effects = bytes(effects)
        return effects


def _hand_on(s, x, b, to, c):
    """Put card c, whose slot x (the end of its segment) is now free, at the start of the
    segment whose start is header byte `to`: each boundary b on the way moves one slot
    left, the segment there handing its last card to its new first slot."""
    while b < to:
        s[b] = x
        y = s[b + 1] - 1
        s[x] = s[y]
        x = y
        b += 1
    s[b] = x
    s[x] = c


def _reverse(s, lo, hi):
    hi -= 1
    while lo < hi:
        s[lo], s[hi] = s[hi], s[lo]
        lo += 1
        hi -= 1


def _seen(s, lo, i, c):
    """True if c already occurs in s[lo:i]: a card of a double deck in the moves listed
    so far (a play's first variant is the card itself, and no other move equals it)."""
    while lo < i:
        if s[lo] == c:
            return True
        lo += 1
    return False


def _variants(out, n, c, size):
    """Write the plays of card c (wishes for a Jack, with and without Mau) from n on."""
    wishes = 4 if c & 15 == _JACK and size > 1 else 1
    mau = size == 2
    for w in range(wishes):
        m = c | w << 6
        out[n] = m
        n += 1
        if mau:
            out[n] = m | _MAU
            n += 1
    return n
