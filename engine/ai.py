"""Computer players of four strengths. Each sees only its own View of the table.

0 Random    any legal move, uniformly (a yardstick for tests and tournaments; not
            offered to players).
1 Beginner  any card that fits, at random, playing rather than drawing; says "Mau" one
            time in two; catches a forgetful player one time in five.
2 Casual    the usual tips, carelessly: discards from the suit held most, plays 7s and
            8s early while the hand is big, but spends a Jack at the first chance
            (wishing the suit held most) instead of keeping it as a rescue card; forgets
            "Mau" one time in four; catches every forgetful player; counts no cards.
3 Strong    the seed 000 tips (a Jack kept as a rescue card above all) weighed with card
            tracking and inference from public information: the unseen cards of each
            suit and rank, the suits and ranks a player could not follow, pending wishes
            and draws, players close to going out. It estimates the chance that the next
            player can follow each card.
4 Expert    (engine.expert) tree search over the public moves: deals the unseen cards
            many times in ways that agree with everything public (suits a player could
            not follow stay out of their old cards), walks each of Strong's best moves
            down a tree of the moves that follow in the same deal (the others play as
            the playout policy would with the cards dealt to them), and keeps Strong's
            first choice unless another did clearly better. It searches in slices
            (begin, think, best), so a device thinks between frames, and searches on
            in the same tree while the others move (ponder).

A game loop tells each player every move as it happens (``observe``, with the
player's own View from before the move) and asks for a move (``choose``) with the
legal moves the round listed for its seat (or, in slices: ``begin``, ``think``,
``best``). ``docs/ai.md`` describes the levels and the figures behind the Expert's budget.
"""

from array import array

from engine.compat import const
from engine.cards import deck
from engine.rng import Random

RANDOM = const(0)
BEGINNER = const(1)
CASUAL = const(2)
STRONG = const(3)
EXPERT = const(4)
LEVEL_NAMES = ("random", "beginner", "casual", "strong", "expert")

# An Expert (engine.expert) decides within a count of walks of its search or, when
# choose() is asked in one call, also a time.ticks_ms deadline, whichever comes first.
DEVICE_MS = const(250)      # the deadline of a decision made in one call on a device

# Strong's weights (about 100 a card), tuned against Casual in both presets.
_W_JACK = const(136)        # keeping a Jack back (hand of 3 or more) ...
_W_JACK2 = const(40)        # ... and with 2 cards
_W_FIT = const(25)          # a kept card that fits the new top (32- and 52-card decks)
_W_FIT_BIG = const(12)      # ... (double deck)
_W_AGAIN = const(136)       # an 8 that comes back to me, or a play-again ace, with a follow-up
_W_AGAIN0 = const(30)       # ... without one
_D1 = const(1000)           # the next player cannot follow: they hold 1 card,
_D2 = const(125)            # 2,
_D4 = const(30)             # 3 or 4,
_D5 = const(20)             # more
_W_SEVEN = const(60)        # a card the next player must draw
_W_DRAW1 = const(130)       # drawing (may play the drawn card) ...
_W_DRAW2 = const(150)       # ... (may not)
_PT_LOW = const(5)          # points count: an opponent this close to going out ...
_PT_BASE = const(2)         # ... sheds points times (_PT_BASE + _PT_W * closeness)
_PT_W = const(2)

_WIN = const(10000)         # a score no other consideration reaches
_P = const(1024)            # probabilities in 1/1024

# Hot constants of other modules, repeated so MicroPython folds them at compile time
# (host_tests/test_ai.py checks they match engine.cards, rules, moves and round).
_SEVEN = const(7)           # cards.SEVEN ... ACE
_EIGHT = const(8)
_NINE = const(9)
_JACK = const(11)
_ACE = const(14)
_ACE_DRAW4 = const(1)       # rules.ACE_DRAW4, ACE_PLAY_AGAIN, MATCH_ROUNDS
_ACE_PLAY_AGAIN = const(2)
_MATCH_ROUNDS = const(0)
_DRAWN = const(1)           # round.DRAWN (a phase)
_KIND = const(0x600)        # moves.KIND_MASK
_DRAW = const(0x200)        # moves.DRAW
_PASS = const(0x400)        # moves.PASS
_CATCH = const(0x600)       # moves.CATCH
_MAU = const(0x100)         # moves.MAU


def new_player(rules, level, seed=0, playouts=None, deadline_ms=0):
    """The computer player of `level` for one seat: a Player (Strong), an engine.easy
    Easy (levels 0 to 2) or an engine.expert Expert (level 4), its module imported then."""
    if level == EXPERT:
        from engine.expert import Expert
        return Expert(rules, seed, playouts, deadline_ms)
    if level == STRONG:
        return Player(rules, level, seed, playouts, deadline_ms)
    from engine.easy import Easy
    return Easy(rules, level, seed, playouts, deadline_ms)


class Player:
    """A computer player for one seat: Strong (level 3), and what every level shares
    (engine.easy's Easy plays levels 0 to 2, engine.expert's Expert level 4);
    new_player() makes the one of a level."""

    def __init__(self, rules, level, seed=0, playouts=None, deadline_ms=0):
        if not (isinstance(level, int) and not isinstance(level, bool)
                and RANDOM <= level <= EXPERT):
            raise ValueError("AI level %r is not possible: choose 1 (beginner) to 4 (expert)"
                             % (level,))
        self.rules = rules
        self.level = level
        self.rng = Random(seed)
        self.playouts = playouts
        self.deadline_ms = deadline_ms
        self.watches = level >= STRONG   # wants observe() calls
        # Scratch of a decision, shared with the other players of these rules (see _shared):
        # my cards, and the unseen cards as this seat knows them (made by _survey)
        (self.hand, self.suits, self.full, self.unseen, self.u_suit,
         self.u_rank) = _shared(rules)
        # What Strong and Expert infer, per seat (new_round clears it):
        self.fixed = bytearray(32)       # [seat*4+suit]: old cards known to lack the suit
        self.rank_lack = array("H", range(8))   # per seat: ranks (bit per rank) lacked ...
        self.rank_fixed = bytearray(8)   # ... by this many old cards
        self.holds = bytearray(8)        # per seat: suits it is believed to hold
        self.size = 0                    # cards in my hand (set by _survey)
        self.u_jacks = 0
        self.u_total = 0
        self.w_fit = _W_FIT if rules.deck_size() <= 52 else _W_FIT_BIG
        # a single round decides nothing by points: only a win counts
        self.points_count = not (rules.match == _MATCH_ROUNDS and rules.rounds == 1)
        self.answer = None               # begin()'s move
        self.new_round()

    # -- what the table tells us -------------------------------------------------

    def new_round(self, view=None):
        """Forget what was inferred in the previous round."""
        for i in range(32):
            self.fixed[i] = 0
        for i in range(8):
            self.rank_lack[i] = 0
            self.rank_fixed[i] = 0
            self.holds[i] = 0

    def observe(self, view, seat, move):
        """Learn from `seat` making `move`; `view` is this player's view just before it."""
        if not self.watches or seat == view.player:
            return
        kind = move & _KIND
        fixed = self.fixed
        count = view.count(seat)
        b = seat * 4
        if kind == 0:
            c = move & 63
            left = count - 1
            for s in range(4):
                f = fixed[b + s]
                if s == c >> 4 and c & 15 != _JACK and f >= count:
                    f = count - 1      # the belief was wrong for one card
                if f > left:
                    f = left
                fixed[b + s] = f
            bit = 1 << (c & 15)
            if self.rank_lack[seat] & bit and c & 15 != _JACK:
                self.rank_lack[seat] &= ~bit
            if self.rank_fixed[seat] > left:
                self.rank_fixed[seat] = left
            if c & 15 != _JACK:
                self.holds[seat] &= ~(1 << (c >> 4))
            elif left and view.phase() != _DRAWN:
                # A Jack is kept as a rescue card: one played with other cards in hand
                # says none of them fitted (the tip Strong and Expert follow), and the wish
                # names the suit held most.
                w = view.wish()
                top = view.top()
                fixed[b + (top >> 4 if w is None else w)] = left
                if w is None and top & 15 != _JACK:
                    self._lacks_rank(seat, top & 15, left)
                self.holds[seat] |= 1 << (move >> 6 & 3)
            return
        phase = view.phase()
        if kind == _DRAW:
            if view.pending():
                # Drew the count: held no card to stack on it.
                if view.top() & 15 != _SEVEN or self.rules.stack_sevens:
                    self._lacks_rank(seat, view.top() & 15, count)
                return
            if phase == _DRAWN:
                return
            # Drawing instead of following: no card of the asked suit (nor the top's
            # rank) among the cards held now, except perhaps Jacks kept back.
            w = view.wish()
            top = view.top()
            s = top >> 4 if w is None else w
            fixed[b + s] = count
            self.holds[seat] &= ~(1 << s)
            if w is None and top & 15 != _JACK:
                self._lacks_rank(seat, top & 15, count)
        elif kind == _PASS and phase == _DRAWN:
            # Kept the card just drawn: it most likely does not fit either.
            w = view.wish()
            top = view.top()
            s = top >> 4 if w is None else w
            if fixed[b + s] + 1 >= count:
                fixed[b + s] = count
            if w is None and self.rank_fixed[seat] + 1 >= count:
                self.rank_fixed[seat] = count

    def _lacks_rank(self, seat, rank, count):
        if self.rank_fixed[seat] < count:
            self.rank_lack[seat] = 1 << rank
        else:
            self.rank_lack[seat] |= 1 << rank
        self.rank_fixed[seat] = count

    # -- choosing ------------------------------------------------------------------

    def choose(self, view, moves, n):
        """Pick one of moves[0:n] for the view's seat; None declines (catches only)."""
        if n == 0:
            return None
        if view.turn() != view.player or view.is_over():
            return self._maybe_catch(moves, n)
        return self._decide(view, moves, n)

    def _decide(self, view, moves, n):
        """Strong's choice on my turn (engine.easy's players decide otherwise)."""
        if moves[0] & _KIND == _CATCH:
            return moves[0]
        self._survey(view)
        return self._strong(view, moves, n)

    # The game loop decides in slices (firmware.game): begin, think between frames,
    # best. Only the Expert has anything to think about.

    def begin(self, view, moves, n):
        """Start deciding among moves[0:n] for the view's seat."""
        self.answer = self.choose(view, moves, n)

    def think(self, iterations):
        """Search on for at most `iterations` more; True once best() is final."""
        return True

    def best(self):
        """The move begin() and think() decided."""
        return self.answer

    def _catches(self):
        level = self.level
        if level == BEGINNER:
            return self.rng.below(5) == 0
        if level == RANDOM:
            return False
        return True

    def _maybe_catch(self, moves, n):
        for i in range(n):
            if moves[i] & _KIND == _CATCH and self._catches():
                return moves[i]
        return None

    # -- Strong: card tracking and inference ---------------------------------------

    def _survey(self, view):
        """Count my cards and the unseen cards (in others' hands or the draw pile)."""
        me = view.player
        hand = self.hand
        size = view.hand_into(me, hand)
        self.size = size
        suits = self.suits
        unseen = self.unseen
        full = self.full
        for i in range(64):
            unseen[i] = full[i]
        for k in range(4):
            suits[k] = 0
        for i in range(size):
            c = hand[i]
            unseen[c] -= 1
            if c & 15 != _JACK:
                suits[c >> 4] += 1
        for i in range(view.discard_size()):
            unseen[view.discard(i)] -= 1
        u_suit = self.u_suit
        u_rank = self.u_rank
        for k in range(4):
            u_suit[k] = 0
        for k in range(16):
            u_rank[k] = 0
        jacks = 0
        total = 0
        for c in range(64):
            x = unseen[c]
            if x:
                total += x
                if c & 15 == _JACK:
                    jacks += x
                else:
                    u_suit[c >> 4] += x
                    u_rank[c & 15] += x
        self.u_jacks = jacks
        self.u_total = total

    def _p_follow(self, view, q, suit, rank):
        """Chance (1/1024) that seat q holds a card to play on a top of `suit` and
        `rank` (rank 0: after a Jack, when only the wished suit or a Jack fits)."""
        h = view.count(q)
        if h == 0:
            return 0
        total = self.u_total
        rules = self.rules
        jacks = self.u_jacks if (rules.jack_on_jack or rank != _JACK) and not (
            h == 1 and rules.no_finish_on_jack) else 0
        in_suit = self.unseen[suit << 4 | rank] if rank else 0
        s_cards = self.u_suit[suit]
        r_cards = self.u_rank[rank] - in_suit if rank else 0
        if rank == _JACK:
            r_cards = 0
        if self.holds[q] >> suit & 1:
            return _P
        f = self.fixed[q * 4 + suit]
        if f > h:
            f = h
        # free cards: any unseen card; old cards: known to hold none of the suit
        p = _p_none(total, s_cards + r_cards + jacks, h - f)
        if f:
            rf = r_cards
            if rank and self.rank_lack[q] >> rank & 1 and self.rank_fixed[q] >= f:
                rf = 0
            p = p * _p_none(total - s_cards, rf + jacks, f) // _P
        return _P - p

    def _p_holds(self, view, q, rank):
        """Chance (1/1024) that seat q holds a card of `rank`."""
        return _P - _p_none(self.u_total, self.u_rank[rank], view.count(q))

    def _strong(self, view, moves, n):
        best = -1
        best_score = -_WIN - 1
        for i in range(n):
            m = moves[i]
            if m & _KIND == _CATCH:
                continue
            sc = self._score(view, m)
            if sc > best_score:
                best_score = sc
                best = m
        return best

    def _score(self, view, m):
        """Strong's score of a play, draw or pass move (higher is better)."""
        if m & _KIND == 0:
            return self._strong_score(view, m)
        return self._draw_score(view, m)

    def _draw_score(self, view, m):
        """Drawing (or passing) instead of playing: a card more, and the top stays."""
        if m == _PASS:
            return -150
        if view.pending():
            return -100 * view.pending()
        return -_W_DRAW1 if self.rules.play_drawn else -_W_DRAW2

    def _strong_score(self, view, m):
        """How much Strong likes play move m (higher is better), about 100 a card."""
        rules = self.rules
        size = self.size
        if size == 2 and not m & _MAU:
            return -_WIN                            # always say Mau
        if size == 1:
            return _WIN                             # going out wins the round
        c = m & 63
        r = c & 15
        me = view.player
        players = view.players()
        step = view.direction()
        nxt = (me + step) % players
        suits = self.suits
        score = 100
        if r == _JACK:
            suit = m >> 6 & 3
            rank = 0
            score -= _W_JACK if size > 2 else _W_JACK2  # a Jack is a rescue card; spend it last
        else:
            suit = c >> 4
            rank = c & 15
        left = size - 1
        # what I keep that would fit the new top if it stays (no Jacks counted)
        fit = suits[suit]
        if r != _JACK:
            fit -= 1
            fit += self._same_rank(rank, suit)
        score += self.w_fit * (fit if fit < 4 else 4)
        again = False
        if r == _EIGHT and rules.eight_skips:
            nxt = (nxt + step) % players
            again = nxt == me
        elif r == _ACE and rules.ace == _ACE_PLAY_AGAIN:
            again = True
        elif r == _NINE and rules.nine_reverses and players > 2:
            nxt = (me - step) % players
        if again:
            # I move once more on this card: worth a card if I can follow it
            score += _W_AGAIN if fit > 0 else -_W_AGAIN0
            if left == 1 and fit > 0:
                score += 400                       # and go out
            return score + self._points_bonus(view, c)
        threat = view.count(nxt)
        danger = _D1 if threat == 1 else (_D2 if threat == 2 else (_D4 if threat <= 4 else _D5))
        if r == _SEVEN or (r == _ACE and rules.ace == _ACE_DRAW4):
            if rules.stack_sevens or r == _ACE:
                p = self._p_holds(view, nxt, r)
            else:
                p = 0
            gain = 2 if r == _SEVEN else 4
            gain += view.pending()
            score += (_P - p) * (_W_SEVEN * gain + danger // 4) // _P
            if self._same_rank(r, 4) == 0:
                score -= p * _W_SEVEN * (gain + 2) // _P // 2
        else:
            pf = self._p_follow(view, nxt, suit, rank)
            score += (_P - pf) * danger // _P
        if left == 1:
            last = self._last_card(c)
            if last & 15 == _JACK and not rules.no_finish_on_jack:
                score += 150
        return score + self._points_bonus(view, c)

    def _same_rank(self, rank, suit):
        """My non-Jack cards of `rank` outside `suit`."""
        hand = self.hand
        k = 0
        for i in range(self.size):
            c = hand[i]
            if c & 15 == rank and c >> 4 != suit:
                k += 1
        return k

    def _last_card(self, played):
        hand = self.hand
        for i in range(self.size):
            if hand[i] != played:
                return hand[i]
        return played

    def _points_bonus(self, view, c):
        """Shed costly cards when somebody is close to going out (points count)."""
        if not self.points_count:
            return 0
        rules = self.rules
        low = 99
        me = view.player
        for q in range(view.players()):
            if q != me and view.count(q) < low:
                low = view.count(q)
        if low > _PT_LOW:
            return _PT_BASE * rules.points[c & 15]
        return rules.points[c & 15] * (_PT_BASE + _PT_W * (_PT_LOW + 1 - low))


_SHARED = [None, None]   # the rules the scratch was made for, and the scratch
_SEARCH = [None, None]   # the rules the search was made for, and the search


def searching():
    """True once the Experts' shared search is made (engine.search stays loaded)."""
    return _SEARCH[1] is not None


def ponderer(rules):
    """The Expert whose tree the search of `rules` holds (it may ponder), or None."""
    return _SEARCH[1].owner if _SEARCH[0] is rules else None


def _shared(rules):
    """The scratch tables of a decision for players of `rules`: (hand, suits: my cards per
    suit without Jacks, full: copies of each card in the deck, unseen, u_suit: unseen
    non-Jacks per suit, u_rank: ... per rank). One set serves every player of a table:
    a decision fills them before it reads them, and players decide one at a time."""
    if _SHARED[0] is not rules:
        full = bytearray(64)
        for c in deck(rules.deck_name()):
            full[c] += 1
        _SHARED[0] = rules
        _SHARED[1] = (bytearray(rules.deck_size()), bytearray(4), full, bytearray(64),
                      bytearray(4), bytearray(16))
    return _SHARED[1]


def _p_none(total, match, h):
    """Chance (1/1024) that h cards drawn from `total` avoid `match` given cards."""
    p = _P
    i = 0
    while i < h:
        left = total - i
        if left <= 0:
            break
        miss = left - match
        if miss <= 0:
            return 0
        p = p * miss // left
        i += 1
    return p


def _first_not_catch(moves, n):
    for i in range(n):
        if moves[i] & _KIND != _CATCH:
            return moves[i]
    return moves[0]
