"""Computer players of four strengths. Each sees only its own View of the table.

1 Beginner  a random legal move, playing rather than drawing; now and then forgets to
            say "Mau"; rarely catches others.
2 Casual    the seed 000 tips: keep a Jack as a rescue card, play 7s and 8s early
            while the hand is big, discard from the suit held most, wish the suit held
            most; always says "Mau"; catches every forgetful player.
3 Strong    Casual plus card tracking and inference from public information: the
            unseen cards of each suit, the suits an opponent failed to follow, a player
            close to going out.
4 Expert    search: samples hidden hands that agree with everything public, plays
            each candidate move out many times with a fast policy, keeps the move that
            wins most (determinized flat Monte Carlo with UCB1 at the root).

A player is told each move as it happens (``observe``) and asked for a move
(``choose``) with the legal moves the round listed for its seat.
"""

from array import array

from engine.compat import const, ticks_ms, ticks_add, ticks_diff
from engine.cards import JACK, SEVEN, EIGHT, ACE
from engine import moves as mv
from engine.rng import Random
from engine.rules import ACE_DRAW4
from engine.round import Round, DRAWN

BEGINNER = const(1)
CASUAL = const(2)
STRONG = const(3)
EXPERT = const(4)
LEVEL_NAMES = ("", "beginner", "casual", "strong", "expert")

# Expert's budget on a device: playouts within ~300 ms on an RP2040 at 125 MHz
# (tools/bench_ai.py measures it); tests and tournaments use a fixed count.
DEVICE_PLAYOUTS = const(24)
PLAYOUT_DEPTH = const(24)   # moves per playout before the table is judged
PRIOR_VISITS = const(6)     # weight of the Strong heuristic against the playouts


class Player:
    """A computer player of a given level for one seat."""

    def __init__(self, rules, level, seed=0, playouts=DEVICE_PLAYOUTS, deadline_ms=0):
        if level not in (BEGINNER, CASUAL, STRONG, EXPERT):
            raise ValueError("AI level %r is not possible: choose 1 (beginner) to 4 (expert)"
                             % (level,))
        self.rules = rules
        self.level = level
        self.rng = Random(seed)
        self.playouts = playouts
        self.deadline_ms = deadline_ms
        self.lacks = bytearray(8)     # per seat: suits it failed to follow (bit mask)
        self.suits = bytearray(4)     # scratch: my cards per suit
        self.world = None             # Expert's scratch table and buffers, made on first use
        self.scratch = None
        self.stats = None
        self.cand = None
        self.cand_score = None
        self.ncand = 0

    # -- what the table tells us -------------------------------------------------

    def new_round(self):
        """Forget what was inferred in the previous round."""
        for i in range(8):
            self.lacks[i] = 0

    def observe(self, before, seat, move):
        """Learn from `seat` making `move` on the table `before` showed (a View)."""
        if self.level < STRONG:
            return
        kind = move & mv.KIND_MASK
        if kind == mv.DRAW and not before.pending() and before.phase() != DRAWN:
            # Drawing when a suit was asked for suggests the seat holds none of it.
            w = before.wish()
            self.lacks[seat] |= 1 << (before.top() >> 4 if w is None else w)
        elif kind == mv.PLAY:
            self.lacks[seat] &= ~(1 << (move >> 4 & 3))

    # -- choosing ------------------------------------------------------------------

    def choose(self, view, moves, n):
        """Pick one of moves[0:n] for the view's seat; None declines (catches only)."""
        if n == 0:
            return None
        me = view.player
        if view.turn() != me or view.is_over():
            return self._maybe_catch(moves, n)
        if moves[0] & mv.KIND_MASK == mv.CATCH and self._catches():
            return moves[0]
        if self.level == BEGINNER:
            return self._beginner(view, moves, n)
        if self.level == EXPERT:
            return self._expert(view, moves, n)
        return self._best_by_score(view, moves, n)

    def hint(self, view, moves, n):
        """The move this player would make in the view's seat (the "suggest" button)."""
        return self.choose(view, moves, n)

    def _catches(self):
        if self.level == BEGINNER:
            return self.rng.below(5) == 0
        return True

    def _maybe_catch(self, moves, n):
        for i in range(n):
            if moves[i] & mv.KIND_MASK == mv.CATCH and self._catches():
                return moves[i]
        return None

    def _beginner(self, view, moves, n):
        plays = 0
        for i in range(n):
            if moves[i] & mv.KIND_MASK == mv.PLAY:
                plays += 1
        if plays == 0:
            return _first_not_catch(moves, n)
        k = self.rng.below(plays)
        for i in range(n):
            m = moves[i]
            if m & mv.KIND_MASK == mv.PLAY:
                if k == 0:
                    if view.count(view.player) == 2:
                        # now and then the Mau is forgotten
                        m = m & ~mv.MAU if self.rng.below(4) == 0 else m | mv.MAU
                    return m
                k -= 1
        return moves[n - 1]

    def _best_by_score(self, view, moves, n):
        """Casual and Strong: the play with the best heuristic score, else draw/pass."""
        best = -1
        best_score = -(1 << 20)
        self._count_suits(view)
        for i in range(n):
            m = moves[i]
            if m & mv.KIND_MASK != mv.PLAY:
                continue
            score = self._score(view, m)
            if score > best_score:
                best_score = score
                best = m
        if best < 0:
            return _first_not_catch(moves, n)
        draw = _find(moves, n, mv.DRAW)
        if draw >= 0 and best_score < -50 and view.count(view.player) > 2:
            return mv.DRAW  # only a rescue Jack fits: draw and keep it
        return best

    def _count_suits(self, view):
        view.suit_counts(view.player, self.suits)

    def _score(self, view, m):
        """How much Casual/Strong like play move m (higher is better)."""
        c = m & 63
        r = c & 15
        size = view.count(view.player)
        suits = self.suits
        score = 10 * suits[c >> 4]                 # discard from the suit held most
        if size == 2 and not m & mv.MAU:
            return -1000                           # always say Mau
        if r == JACK:
            if size > 1:
                score -= 60                        # keep a Jack as a rescue card
                score += 5 * suits[m >> 6 & 3]     # wish the suit held most
                if m >> 6 & 3 == c >> 4:
                    score -= 3
        elif r == SEVEN or r == EIGHT:
            if size >= 4:
                score += 15                        # play 7s and 8s early
        if size == 1:
            score += 500                           # going out wins the round
        if self.level >= STRONG:
            score += self._inference_bonus(view, m)
        return score

    def _inference_bonus(self, view, m):
        """Strong: stop a player close to going out, ask for suits others lack."""
        c = m & 63
        r = c & 15
        me = view.player
        players = view.players()
        nxt = (me + view.direction()) % players
        bonus = 0
        threat = view.count(nxt)
        if threat <= 2:
            if r == SEVEN or (r == ACE and self.rules.ace == ACE_DRAW4):
                bonus += 40
            elif r == EIGHT and self.rules.eight_skips:
                bonus += 30
        suit = (m >> 6 & 3) if r == JACK and view.count(me) > 1 else c >> 4
        if self.lacks[nxt] >> suit & 1:
            bonus += 12 if threat <= 3 else 6
        bonus -= view.unseen(suit)                 # fewer of that suit left out there
        return bonus

    # -- Expert: determinized Monte Carlo -----------------------------------------

    def _expert(self, view, moves, n):
        if self.world is None:
            self.world = Round(self.rules, view.players(), self.rng)
            self.scratch = array("H", range(mv.MAX_MOVES))
            self.stats = array("H", range(2 * mv.MAX_MOVES))
            self.cand = array("H", range(mv.MAX_MOVES))
            self.cand_score = array("h", range(mv.MAX_MOVES))
        cands = self._candidates(view, moves, n)
        k = self.ncand
        if k == 1:
            return cands[0]
        stats = self.stats
        # Prior: PRIOR_VISITS virtual visits valued by the Strong heuristic's ranking
        # (candidates come best first), so a small budget leans on the heuristic.
        for i in range(k):
            stats[2 * i] = PRIOR_VISITS
            stats[2 * i + 1] = PRIOR_VISITS * (k - i) // 2
        total = PRIOR_VISITS * k
        deadline = self.deadline_ms
        stop = ticks_add(ticks_ms(), deadline) if deadline else 0
        for _ in range(self.playouts):
            i = _ucb(stats, k, total, k)
            stats[2 * i] += 1
            stats[2 * i + 1] += self._playout(view, cands[i])
            total += 1
            if deadline and ticks_diff(stop, ticks_ms()) <= 0:
                break
        best = 0
        for i in range(1, k):
            if stats[2 * i + 1] * stats[2 * best] > stats[2 * best + 1] * stats[2 * i]:
                best = i
        return cands[best]

    def _candidates(self, view, moves, n):
        """Distinct sensible moves, best first by the Strong heuristic (in self.cand)."""
        cand = self.cand
        score = self.cand_score
        self._count_suits(view)
        k = 0
        two = view.count(view.player) == 2
        for i in range(n):
            m = moves[i]
            kind = m & mv.KIND_MASK
            if kind == mv.CATCH:
                continue
            if kind == mv.PLAY:
                if two and not m & mv.MAU:
                    continue               # always say Mau
                sc = self._score(view, m)
            else:
                sc = -100
            # insertion into the sorted candidate list
            j = k
            while j > 0 and score[j - 1] < sc:
                cand[j] = cand[j - 1]
                score[j] = score[j - 1]
                j -= 1
            cand[j] = m
            score[j] = sc
            k += 1
        self.ncand = k
        return cand

    def _playout(self, view, first):
        """Value in 0..k-ish units of playing `first` in one sampled world."""
        world = self.world
        rng = self.rng
        world.fill_hidden(view, rng, self.lacks)
        me = view.player
        world.apply_legal(me, first)
        moves = self.scratch
        depth = 0
        while not world.is_over() and depth < PLAYOUT_DEPTH:
            p = world.turn()
            n = world.legal_moves(p, moves)
            world.apply_legal(p, _fast_policy(world, p, moves, n, rng, self.suits))
            depth += 1
        return self._judge(world, me)

    def _judge(self, world, me):
        """Score a (possibly unfinished) table for me: k for a win, less for more cards."""
        k = self.ncand
        if world.is_over():
            return k if world.winner() == me else 0
        mine = world.count(me)
        ahead = 0
        players = world.players()
        for q in range(players):
            if q != me and world.count(q) > mine:
                ahead += 1
        return k * ahead // players


def _fast_policy(world, p, moves, n, rng, suits):
    """Playout policy, Casual in brief: catch at once; a random fitting card other than
    a Jack; else a Jack wishing the suit held most; else draw or pass. Says Mau."""
    first = moves[0]
    if first & mv.KIND_MASK == mv.CATCH:
        return first
    last = moves[n - 1]
    plays = n - 1 if last & mv.KIND_MASK else n
    if plays == 0:
        return last
    others = 0
    for i in range(plays):
        if moves[i] & 15 != JACK:
            others += 1
    if others:
        k = rng.below(others)
        for i in range(plays):
            m = moves[i]
            if m & 15 != JACK:
                if k == 0:
                    break
                k -= 1
    else:
        m = moves[0] & 63
        if world.count(p) > 1:
            world.suit_counts(p, suits)
            best = 0
            for s in range(1, 4):
                if suits[s] > suits[best]:
                    best = s
            m |= best << 6
    if world.count(p) == 2:
        m |= mv.MAU
    return m


def _ucb(stats, k, total, scale):
    """The candidate with the highest UCB1 bound (integer approximation, no floats)."""
    best = 0
    best_value = -1
    log_total = 1
    t = total
    while t > 1:
        log_total += 1
        t >>= 1
    for i in range(k):
        visits = stats[2 * i]
        # mean in 1/64 units of `scale`, plus an exploration term sqrt(2 ln N / n)
        mean = 64 * stats[2 * i + 1] // (visits * scale)
        explore = _isqrt(4096 * 2 * log_total // visits)
        value = mean + explore
        if value > best_value:
            best_value = value
            best = i
    return best


def _isqrt(x):
    r = 0
    bit = 1 << 20
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


def _find(moves, n, move):
    for i in range(n):
        if moves[i] == move:
            return i
    return -1


def _first_not_catch(moves, n):
    for i in range(n):
        if moves[i] & mv.KIND_MASK != mv.CATCH:
            return moves[i]
    return moves[0]


def suggest(view, moves, n):
    """A good move for the view's seat: the hint button (Strong level, fixed seed)."""
    return Player(view.rules, STRONG).choose(view, moves, n)
