"""The Expert: tree search over the public moves (engine.search), in slices.

Its own module, imported when an Expert is made (engine.ai.player, the hint): tables
of Strong's and lower levels never load it. It deals the unseen cards many times in ways
that agree with everything public (suits a player could not follow stay out of their old
cards), walks each of Strong's best moves down a tree of the moves that follow in the
same deal (the others play as the playout policy would with the cards dealt to them), and
keeps Strong's first choice unless another did clearly better. It searches in slices
(begin, think, best), so a device thinks between frames, and searches on in the same tree
while the others move (ponder).
"""

from array import array

from engine.ai import Player, EXPERT, _SEARCH, _first_not_catch
from engine.compat import const, ticks_ms, ticks_add, ticks_diff
from engine.rng import Random
from engine.round import Round

# Its budget: a count of walks of its search (deterministic: tests and tournaments; by
# default budget(rules, players), what a device affords) and, when choose() is asked in
# one call, also a time.ticks_ms deadline (engine.ai.DEVICE_MS on a device), whichever
# comes first. A device's game loop searches in slices instead (firmware.game).
_MAX_CANDIDATES = const(4)  # moves compared, best first by the Strong heuristic ...
_CAND_GAP = const(300)      # ... and not further behind the best than this
_DRAW_REACH = const(24)     # draw-pile cards a playout may reach (shuffled per deal)
_SLICE = const(8)           # iterations between two looks at the deadline
_NODES = const(176)         # the search tree's nodes (a device budget's walks and the root)
_PONDER_MAX = const(400)    # ponder steps at one table at most (a human's turn: 3 s or so)
_NONE = const(0xFFFF)       # engine.search: no node
_J_CARD = const(25)         # an unfinished playout: this much a card (a win is 250)
_WIN = const(10000)         # engine.ai's: a score no other consideration reaches

# Hot constants of other modules, repeated so MicroPython folds them at compile time
# (host_tests/test_ai.py checks they match engine.cards, rules, moves and round).
_SEVEN = const(7)           # cards.SEVEN, EIGHT, JACK
_EIGHT = const(8)
_JACK = const(11)
_DRAWN = const(1)           # round.DRAWN (a phase)
_KIND = const(0x600)        # moves.KIND_MASK
_DRAW = const(0x200)        # moves.DRAW
_PASS = const(0x400)        # moves.PASS
_CATCH = const(0x600)       # moves.CATCH
_MAU = const(0x100)         # moves.MAU
_F_STACK7 = const(1)        # rule flags for the playout policy
_F_JOJ = const(2)
_F_NOFINJ = const(4)
_NOBODY = const(255)        # round.NOBODY
_NO_WISH = const(255)       # round.NO_WISH
# Layout of a table's bytearray (engine.round's header).
_S_DIR = const(1)
_S_PENDING = const(2)
_S_PEND_RANK = const(3)
_S_WISH = const(4)
_S_PHASE = const(5)
_S_DRAWN = const(6)
_S_DEBTOR = const(7)
_S_PLAYERS = const(10)
_S_NEV = const(12)
_S_END = const(13)
_S_BOUNDS = const(15)
_S_CARDS = const(24)


class Expert(Player):
    """A computer player of level 4 (expert) for one seat: Strong's heuristic, searched."""

    def __init__(self, rules, seed=0, playouts=None, deadline_ms=0, own=False):
        self.search = None               # its search (shared: engine.search) ...
        Player.__init__(self, rules, EXPERT, seed, playouts, deadline_ms)
        self.own = own                   # ... or its own (the hint's, beside the AIs';
                                         # it does not ponder)
        self.flags = ((_F_STACK7 if rules.stack_sevens else 0) | (_F_JOJ if rules.jack_on_jack
                      else 0) | (_F_NOFINJ if rules.no_finish_on_jack else 0))
        self.playouts_done = 0           # a running count (benchmarks read it)
        self._make_scratch()             # now, so that no decision waits for it

    def new_round(self, view=None):
        """Forget what was inferred in the previous round, and the search's tree."""
        if self.search is not None and self.search.owner is self:
            self.search.owner = None
        Player.new_round(self)

    def observe(self, view, seat, move):
        """Learn from `seat` making `move` (the tree goes down with the table, my own
        moves too); `view` is this player's view just before it."""
        if self.search.owner is self:
            self.search.follow(move)
        Player.observe(self, view, seat, move)

    def choose(self, view, moves, n):
        """Pick one of moves[0:n] for the view's seat, searched within the budget and the
        deadline; None declines (catches only)."""
        self.begin(view, moves, n)
        deadline = self.deadline_ms
        stop = ticks_add(ticks_ms(), deadline) if deadline else 0
        while not self.think(_SLICE):
            if deadline and ticks_diff(stop, ticks_ms()) <= 0:
                break
        return self.best()

    def begin(self, view, moves, n):
        """Start deciding among moves[0:n] for the view's seat: think() searches on,
        best() answers."""
        self.answer = None
        if (n == 0 or view.turn() != view.player or view.is_over()
                or moves[0] & _KIND == _CATCH):
            self.answer = Player.choose(self, view, moves, n)   # nothing to search
            return
        self._survey(view)
        k = self._candidates(view, moves, n)
        if k == 1 or self.cand_score[0] >= _WIN:
            self.answer = self.cand[0]
            return
        self._make_pool()
        playouts = self.playouts
        if playouts is None:
            playouts = budget(self.rules, view.players())
        if self.search.cap <= playouts + k:    # room for the budget's new nodes
            self.search = self._search(min(playouts + k + 1, 0xFFF0))
        self.search.begin(self, view, self.cand, k, playouts)

    def think(self, iterations):
        """Search on for at most `iterations` more; True once best() is final."""
        if self.answer is not None or self.search.owner is not self:
            return True
        before = self.search.done
        done = self.search.think(iterations)
        self.playouts_done += self.search.done - before
        return done

    def best(self):
        """The move begin() and think() decided: the search's most visited candidate
        so far (the heuristic's first choice before any search)."""
        if self.answer is not None:
            return self.answer
        if self.search.owner is not self:
            return self.cand[0]
        return self.search.best()

    def ponder(self, view, walks):
        """While another seat moves (`view`: this player's, now), search on for `walks`
        steps (a walk each at most) in the tree of its last decision, from the table's
        node; False when there is nothing to search (no tree, off it, or _PONDER_MAX
        steps done)."""
        search = self.search
        if (search is None or search.owner is not self or search.cur == _NONE
                or search.pondered >= _PONDER_MAX or view.is_over()
                or view.turn() == view.player):
            return False
        if search.fresh:           # the table moved: its unseen cards, once
            search.fresh = False
            self._survey(view)
            self._make_pool()
            search.view.s[:] = view.s
        before = search.pondered
        search.ponder(min(walks, _PONDER_MAX - before))
        self.playouts_done += search.pondered - before
        return True

    def turn_candidates(self, view, moves, n):
        """The candidates (in self.cand) a decision of this view would compare, for
        pondering it; 1 when it would not search."""
        self._survey(view)
        k = self._candidates(view, moves, n)
        return 1 if self.cand_score[0] >= _WIN else k

    def _make_scratch(self):
        rules = self.rules
        self.prng = Random(self.rng.below(1 << 30))
        self.world = Round(rules, rules.min_players, self.prng)  # any size: deals overwrite it
        self.pool = bytearray(len(self.world.s))
        self.pool0 = bytearray(len(self.world.s))
        self.n_pool = 0
        self.cand = array("H", range(_MAX_CANDIDATES))
        self.cand_score = array("h", range(_MAX_CANDIDATES))
        self.search = self._search(_NODES)

    def _search(self, nodes):
        """The search shared by the Experts of these rules, or this player's own."""
        if self.own:
            from engine.search import Search
            return Search(self.rules, nodes, 0)    # the hint's: it never ponders
        return _search(self.rules, nodes)

    def _candidates(self, view, moves, n):
        """Distinct sensible moves, best first by the Strong heuristic, at most
        _MAX_CANDIDATES of them (in self.cand); returns how many."""
        cand = self.cand
        score = self.cand_score
        k = 0
        for i in range(n):
            m = moves[i]
            if m & _KIND == _CATCH:
                continue
            sc = self._score(view, m)
            if sc <= -_WIN and m & _KIND == 0:
                continue               # always say Mau
            if sc > 30000:
                sc = 30000
            elif sc < -30000:
                sc = -30000
            j = k
            while j > 0 and score[j - 1] < sc:
                if j < _MAX_CANDIDATES:
                    cand[j] = cand[j - 1]
                    score[j] = score[j - 1]
                j -= 1
            if j < _MAX_CANDIDATES:
                cand[j] = m
                score[j] = sc
            if k < _MAX_CANDIDATES:
                k += 1
        if k == 0:
            cand[0] = _first_not_catch(moves, n)
            k = 1
        while k > 1 and score[k - 1] < score[0] - _CAND_GAP:
            k -= 1                     # far behind the best: not worth a playout
        return k

    def _make_pool(self):
        """The unseen cards, once per decision, in self.pool0[0:self.n_pool]."""
        pool = self.pool0
        unseen = self.unseen
        n = 0
        for c in range(64):
            for _ in range(unseen[c]):
                pool[n] = c
                n += 1
        self.n_pool = n

    def _deal_world(self, view):
        """Make self.world one table the viewer cannot tell from the real one: every
        hidden slot gets an unseen card; a seat's old cards avoid the suits (and ranks)
        it could not follow, and it holds a suit it wished, as far as the unseen cards
        allow. Needs _make_pool first."""
        world = self.world
        s = world.s
        s[:] = view.s
        s[_S_NEV] = 0
        pool = self.pool
        pool[:] = self.pool0
        n = self.n_pool
        players = s[_S_PLAYERS]
        me = view.player
        # Only the cards a playout can reach need a random order: the others' hands
        # and the top of the draw pile (partial Fisher-Yates, the generator inlined).
        need = s[_S_BOUNDS + players] - s[_S_BOUNDS] - self.size + _DRAW_REACH
        if need > n:
            need = n
        rng = self.prng
        x = rng.x
        y = rng.y
        i = 0
        while i < need:
            x = 32760 * (x & 0x7FFF) + (x >> 15)
            y = 32730 * (y & 0x7FFF) + (y >> 15)
            j = i + ((x & 0x7FFF) << 15 | (y & 0x7FFF)) % (n - i)
            pool[i], pool[j] = pool[j], pool[i]
            i += 1
        rng.x = x
        rng.y = y
        k = 0
        fixed = self.fixed
        for q in range(players):
            if q == me:
                continue
            lo = s[_S_BOUNDS + q]
            hi = s[_S_BOUNDS + q + 1]
            b = q * 4
            rf = self.rank_fixed[q]
            if not (fixed[b] | fixed[b + 1] | fixed[b + 2] | fixed[b + 3] | rf):
                for i in range(lo, hi):
                    s[i] = pool[k]
                    k += 1
            else:
                rmask = self.rank_lack[q]
                for i in range(lo, hi):
                    j = i - lo
                    smask = 0
                    for t in range(4):
                        if fixed[b + t] > j:
                            smask |= 1 << t
                    rm = rmask if j < rf else 0
                    if smask or rm:
                        # the first unseen card this old card may be (Jacks always may)
                        x = k
                        while x < n:
                            c = pool[x]
                            if c & 15 == _JACK or not (smask >> (c >> 4) & 1
                                                      or rm >> (c & 15) & 1):
                                break
                            x += 1
                        if x < n and x != k:
                            pool[k], pool[x] = pool[x], pool[k]
                    s[i] = pool[k]
                    k += 1
            held = self.holds[q]
            if held and hi > lo:
                for t in range(4):
                    if held >> t & 1:
                        self._give_suit(s, lo, hi, t, k, n)
        top = s[_S_BOUNDS] - 1     # the draw pile, its top card first
        while top >= _S_CARDS:
            s[top] = pool[k]
            k += 1
            top -= 1

    def _give_suit(self, s, lo, hi, suit, k, n):
        """Let hand s[lo:hi] hold a non-Jack of `suit`: swap one in for its newest card."""
        for i in range(lo, hi):
            c = s[i]
            if c >> 4 == suit and c & 15 != _JACK:
                return
        pool = self.pool
        for x in range(k, n):
            c = pool[x]
            if c >> 4 == suit and c & 15 != _JACK:
                pool[x] = s[hi - 1]
                s[hi - 1] = c
                return

    def _judge(self, world, me):
        """My score for a table, 0 .. 250: 250 for a win, else by cards held against
        the others (and, when points count, the points I hold)."""
        players = world.players()
        if world.is_over():
            w = world.winner()
            if w == me:
                return 250
            if not self.points_count:
                return 0
            pts = world.points(me)
            return 40 - pts // 2 if pts < 80 else 0
        mine = world.count(me)
        best = 99
        for q in range(players):
            if q != me and world.count(q) < best:
                best = world.count(q)
        v = 250 // players + _J_CARD * (best - mine)
        return 240 if v > 240 else (10 if v < 10 else v)


def _search(rules, nodes=_NODES):
    """The tree search the Experts of `rules` share (one decides at a time), with room
    for at least `nodes` nodes."""
    if _SEARCH[0] is not rules or _SEARCH[1].cap < nodes:
        from engine.search import Search
        _SEARCH[1] = None            # the old tables go before the new ones are made
        _SEARCH[1] = Search(rules, nodes)
        _SEARCH[0] = rules
    return _SEARCH[1]


def _isqrt(x):
    """Integer square root (no floats on the device)."""
    if x <= 0:
        return 0
    r = 0
    bit = 1 << 28
    while bit > x:
        bit >>= 2
    while bit:
        if x >= r + bit:
            x -= r + bit
            r = (r >> 1) + bit
        else:
            r >>= 1
        bit >>= 2
    return r


def _policy(s, p, flags, suits):
    """The playout policy, straight from table bytes `s` for seat p (every player uses
    it): catch a forgotten Mau; stack on a pending draw, else draw it; play the drawn
    card if it fits; else the fitting card of the suit held most (7s and 8s first while
    the hand is big or the next player is short of cards), a Jack only when nothing
    else fits, wishing the suit held most; else draw, or pass. Says Mau. The move is
    always one legal_moves would list (host_tests/test_ai.py checks it)."""
    debtor = s[_S_DEBTOR]
    if debtor != _NOBODY and debtor != p:
        return _CATCH | debtor
    lo = s[_S_BOUNDS + p]
    hi = s[_S_BOUNDS + p + 1]
    size = hi - lo
    mau = _MAU if size == 2 else 0
    if s[_S_PENDING]:
        r = s[_S_PEND_RANK]
        if r != _SEVEN or flags & _F_STACK7:
            for i in range(lo, hi):
                if s[i] & 15 == r:
                    return s[i] | mau
        return _DRAW
    players = s[_S_PLAYERS]
    discard = s[_S_BOUNDS + players]
    t = s[discard]
    jack_ok = (flags & _F_JOJ or t & 15 != _JACK) and not (size == 1 and flags & _F_NOFINJ)
    w = s[_S_WISH]
    if w != _NO_WISH:
        suit = w
        rank = 0
    else:
        suit = t >> 4
        rank = t & 15
    drawn = _NO_WISH
    if s[_S_PHASE] == _DRAWN:
        drawn = s[_S_DRAWN]
        if drawn & 15 == _JACK:
            if not jack_ok:
                return _PASS
        elif drawn >> 4 != suit and drawn & 15 != rank:
            return _PASS
        if drawn & 15 != _JACK or size == 1:
            return drawn | mau
    for k in range(4):
        suits[k] = 0
    for i in range(lo, hi):
        c = s[i]
        if c & 15 != _JACK:
            suits[c >> 4] += 1
    if drawn != _NO_WISH:
        return drawn | _wish_of(suits) << 6 | mau
    q = (p + s[_S_DIR]) % players
    few = s[_S_BOUNDS + q + 1] - s[_S_BOUNDS + q] <= 2
    best = -1
    best_score = -1
    jack = -1
    for i in range(lo, hi):
        c = s[i]
        r = c & 15
        if r == _JACK:
            if jack_ok:
                jack = c
        elif c >> 4 == suit or r == rank:
            sc = suits[c >> 4] << 2
            if (r == _SEVEN or r == _EIGHT) and (size > 3 or few):
                sc += 10
            if sc > best_score:
                best_score = sc
                best = c
    if best >= 0:
        return best | mau
    if jack >= 0:
        if size == 1:
            return jack
        return jack | _wish_of(suits) << 6 | mau
    if s[_S_BOUNDS] > _S_CARDS or s[_S_END] - discard > 1:
        return _DRAW
    return _PASS


def _wish_of(suits):
    w = 0
    for t in range(1, 4):
        if suits[t] > suits[w]:
            w = t
    return w


# The Expert's walks per decision: what a device searches in the time nobody notices,
# on the RP2040 cost model (tools/bench/ai.py): about 1.3 s a decision on average, of
# which some 640 ms fit into the 900 ms the move before stays on screen and the rest is
# a pause (at most 900 ms: firmware.app cuts the search there). By deck size (32 or 52
# cards; 104) and players.
_BUDGET_32 = bytes((0, 0, 160, 140, 140, 130, 130))    # players 0..6
_BUDGET_104 = bytes((0, 0, 120, 110, 110, 100, 100))


def budget(rules, players):
    """The Expert's device budget in walks of its search (the tournament uses it)."""
    table = _BUDGET_104 if rules.deck_size() > 52 else _BUDGET_32
    return table[players if players < 7 else 6]


# Its ponder walks while one action is shown (the 900 ms pace, 2/3 of it searched: 20 ms
# slices between frames that nap 10 ms) when no other AI searches then: 0.6 s at the
# walks a second of the cost model (tools/bench/ai.py), by deck size and players.
_PONDER_32 = bytes((0, 0, 90, 96, 81, 79, 77))
_PONDER_104 = bytes((0, 0, 66, 65, 74, 46, 46))


def ponder_budget(rules, players):
    """The Expert's device ponder walks while one action is shown (the tournament's)."""
    table = _PONDER_104 if rules.deck_size() > 52 else _PONDER_32
    return table[players if players < 7 else 6]


_HELPER = None


def suggest(view, moves, n, helper=None):
    """A good move for the view's seat, whole (card, wish, Mau): the hint button.

    `helper` is an Expert the game loop keeps for the human's seat and tells every move
    (observe), so its hint uses what the table revealed; without one, an Expert
    searches from the view alone (nothing inferred from earlier moves)."""
    global _HELPER
    if helper is None:
        if _HELPER is None or _HELPER.rules is not view.rules:
            _HELPER = Expert(view.rules)
        helper = _HELPER
        helper.new_round()
    return helper.choose(view, moves, n)
