"""The Expert's search: a tree over the public moves, grown one deal at a time, in slices.

Single-observer information-set tree search (SO-ISMCTS) for the player to move. Each
deal is a world the player cannot tell from the table (the Expert's deal: what the
public moves proved about the others' hands), and it is walked once from every
candidate, with the same random numbers (common random numbers, as a paired test
wants them). A walk:

- plays its candidate, then follows the tree: at the searcher's own turns UCB1 with
  availability counts among the moves this deal allows, an untried move getting a
  node; at an opponent's turn the opponent model's move (the playout policy applied
  to the cards the deal gave that opponent, now and then any other listed move), a
  node per move the table would see;
- from the new node, the playout policy plays on for everybody for a few moves and the
  table is judged (0 .. 250 for the searcher), which every node on the walk adds up.

The answer is the heuristic's first candidate unless another did better in the same
deals by more than chance explains. One Search serves every player of a Rules
(players decide one at a time). Its node tables are made once; a walk allocates
nothing. `begin` starts a decision, `think(k)` makes k more walks (a slice) and says
whether the budget is spent, `best()` answers at any time.

The tree outlives its decision: `follow` moves the table's node down the moves really
made, `ponder` walks on from there while the others move (in deals of the view then),
and the owner's next `begin` keeps the subtree under that node (the candidates' part of
it). The nodes left behind go onto a free list as whole subtrees, and a node taken from
it hands its children to the list: reclaiming costs a few steps a node, never a pass
over the tables.
"""

from array import array

from engine.compat import const
from engine.expert import _isqrt, _policy   # (which imports this module on first use)
from engine.round import View

_NONE = const(0xFFFF)       # no node
_PATH = const(16)           # nodes on one walk down the tree, at most
_ROLLOUT = const(8)         # policy moves after the tree before the table is judged
_OTHER = const(8)           # an opponent plays a listed move other than the model's 1 in 8
_ROOTS = const(8)           # candidates at the root, at most
_MAX_K = const(4)           # ... the Expert's (engine.expert._MAX_CANDIDATES)
_Z = const(24)              # leave the heuristic's move only when z > _Z / 16
_C = const(70)              # UCB1's exploration, in hundredths of the 0 .. 250 reward
_KIND = const(0x600)        # moves.KIND_MASK
_CATCH = const(0x600)       # moves.CATCH
_MAU = const(0x100)         # moves.MAU
_S_BOUNDS = const(15)       # round's header: where hand k starts
_TURNS = const(16)          # the searcher's next turns pondered in pairs, at most


class Search:
    """A decision's tree, in node tables made once for at most `cap` nodes (and
    room to ponder `turns` of the searcher's next turns in pairs; 0: no pondering)."""

    def __init__(self, rules, cap, turns=_TURNS):
        self.policy = _policy
        self.cap = cap
        self.move = array("H", range(cap))     # the move that led to a node
        self.child = array("H", range(cap))    # its first child, or _NONE
        self.sib = array("H", range(cap))      # its next sibling, or _NONE
        self.visits = array("H", range(cap))
        self.wins = array("i", range(cap))     # rewards summed (0 .. 250 each)
        self.avail = array("H", range(cap))    # walks in which its move was listed
        self.root = array("H", range(cap))     # isqrt(64 visits), kept as visits grow
        self.bits = bytearray(cap)             # bit length of avail (0x80: not listed)
        self.path = array("H", range(_PATH))
        self.buf = array("H", range(80))       # legal moves, and the untried ones
        self.suits = bytearray(4)
        self.base = bytearray(24 + rules.deck_size())   # the deal, for each candidate
        self.cnode = array("H", range(_ROOTS))   # the candidates' nodes ...
        self.prior = array("H", range(_ROOTS))   # ... and their deals pondered before
        self.sums = array("i", range(_ROOTS))  # per candidate: (its reward - the
        self.squares = array("i", range(_ROOTS))   # first's) / 8, and its square
        self.z = _Z
        # UCB1's bonus C sqrt(ln a / v) x 250, with ln a taken at the middle of the
        # power of two a lies in, divided by isqrt(64 v) when used.
        self.bonus = array("H", range(17))
        self.explore(_C)
        self.rollout = _ROLLOUT
        self.other = _OTHER
        self.view = View(rules)
        self.owner = None          # the Player whose decision the tree holds
        self.nodes = 0             # nodes ever used (those below are in the tree or free)
        self.free = _NONE          # the free subtrees, linked by sib
        self.done = 0              # walks made
        self.budget = 0
        self.k = 0                 # candidates at the root: nodes 1 .. k
        self.next = 1              # the candidate to walk next (1: a new deal)
        self.first = 0             # the first candidate's reward in this deal
        self.x = 0                 # the random numbers at this deal's first walk
        self.y = 0
        self.cur = _NONE           # the table now, as a node of the owner's tree
        # Pondering in pairs: the searcher's next turns reached (its nodes), each with
        # its candidates, the deals walked from all of them, and their paired sums.
        self.t_max = turns
        self.t_node = array("H", range(turns))
        self.t_k = bytearray(turns)
        self.t_deals = array("H", range(turns))
        self.t_cand = array("H", range(turns * _MAX_K))
        self.t_sums = array("i", range(turns * _MAX_K))
        self.t_squares = array("i", range(turns * _MAX_K))
        self.t_child = array("H", range(_MAX_K))   # a pondered deal's candidates' nodes,
        self.p_diff = array("i", range(_MAX_K))    # ... their rewards less the first's,
        self.p_turn = -1           # ... its turn (-1: none pending), the next to walk,
        self.p_next = 0
        self.p_depth = 0           # ... and the length of the walk down to it
        self.turns = 0
        self.seen = View(rules) if turns else None   # the searcher's view at such a turn
        self.fresh = False         # the table moved since the last ponder walk
        self.pondered = 0          # ponder walks since the table last moved

    def explore(self, c):
        """Set UCB1's exploration constant, in hundredths."""
        self.bonus[1] = 0          # ln 1
        for b in range(2, 17):
            self.bonus[b] = c * _isqrt((2 * b - 1) * 355 * 3906) // 100

    def begin(self, player, view, cand, k, budget):
        """Start `player`'s decision among moves cand[0:k] (best first) with a budget
        of iterations; the view is copied (the caller may refill it). The tree of the
        player's last decision is kept under the table's node, if it is still there."""
        top = self.cur if self.owner is player else _NONE
        self.owner = player
        self.p_turn = -1
        self.view.s[:] = view.s
        self.view.player = view.player
        self.done = 0
        self.budget = budget - budget % k if budget > k else k    # whole deals
        self.k = k
        self.next = 1
        for i in range(k):
            self.sums[i] = 0
            self.squares[i] = 0
            self.prior[i] = 0
        if top != _NONE:
            self._pondered(top, cand, k)
            self._prune(top, cand, k)
        self.turns = 0
        cnode = self.cnode
        for i in range(k):
            c = _NONE if top == _NONE else self._child(top, cand[i])
            if c == _NONE:         # no tree, or no room: a new one
                self.nodes = 1
                self.free = _NONE
                top = 0
                self._node(0, 0)
                for j in range(k):
                    cnode[j] = self._add(0, cand[j])
                break
            cnode[i] = c
        self.cur = top

    def _pondered(self, top, cand, k):
        """Take the paired deals pondered at node `top` for the candidates they share
        with this decision, if its first candidate is theirs too."""
        for t in range(self.turns):
            if self.t_node[t] != top:
                continue
            b = t * _MAX_K
            tk = self.t_k[t]
            if tk < 2 or self.t_cand[b] != cand[0]:
                return
            for i in range(k):
                for j in range(tk):
                    if self.t_cand[b + j] == cand[i]:
                        self.sums[i] = self.t_sums[b + j]
                        self.squares[i] = self.t_squares[b + j]
                        self.prior[i] = self.t_deals[t]
            return

    def _find(self, node, m):
        """The child of `node` for move m, or _NONE."""
        c = self.child[node]
        move = self.move
        while c != _NONE and move[c] != m:
            c = self.sib[c]
        return c

    def _prune(self, top, cand, k):
        """Keep of node top's children only the candidates' (the others are freed)."""
        child = self.child
        sib = self.sib
        move = self.move
        last = _NONE
        c = child[top]
        child[top] = _NONE
        while c != _NONE:
            nxt = sib[c]
            j = 0
            while j < k and move[c] != cand[j]:
                j += 1
            if j < k:
                if last == _NONE:
                    child[top] = c
                else:
                    sib[last] = c
                last = c
            else:
                sib[c] = self.free
                self.free = c
            c = nxt
        if last != _NONE:
            sib[last] = _NONE

    def follow(self, move):
        """The table made `move`: its node becomes the table's and the tree's root
        (made if it is new; none when the tables are full), the rest is freed."""
        top = self.cur
        self.p_turn = -1           # a pondered deal left half walked counts for nothing
        if top == _NONE:
            return
        c = self._child(top, move)
        if c != _NONE:
            child = self.child
            sib = self.sib
            x = child[top]         # c leaves its parent's list; the parent is freed
            if x == c:
                child[top] = sib[c]
            else:
                while sib[x] != c:
                    x = sib[x]
                sib[x] = sib[c]
            sib[c] = _NONE
            sib[top] = self.free
            self.free = top
        self.cur = c
        self.fresh = True
        self.pondered = 0

    def ponder(self, walks):
        """`walks` steps of pondering from the table's node, in deals of the view set
        last (the owner's, while another seat moves), each step a walk at most: the
        others move as the opponent model says down to the searcher's next turn, and
        there every candidate the searcher would have is walked in the same deal, one
        a step, as its decision would (paired; a deal counts once all are walked)."""
        player = self.owner
        world = player.world
        s = world.s
        me = self.view.player
        policy = self.policy
        flags = player.flags
        suits = self.suits
        path = self.path
        while walks > 0:
            walks -= 1
            self.pondered += 1
            if self.p_turn >= 0:
                self._pair()
                continue
            player._deal_world(self.view)
            p = world.turn()
            node = self.cur
            path[0] = node
            depth = 1
            while p >= 0 and p != me and depth < _PATH - 2:
                m = policy(s, p, flags, suits)
                if player.prng.below(self.other) == 0:
                    m = self._other(world, p, m)
                c = self._child(node, m)
                if c == _NONE:
                    break
                path[depth] = c
                depth += 1
                p = world.apply_legal(p, m)
                node = c
            t = self._turn(node, world, me) if p == me else -1
            if t < 0 or not self._pairs(t, node, depth):
                self._walk(node, p, player, world, depth - 1)   # on as a decision's walk

    def _turn(self, node, world, me):
        """The pondering entry of the searcher's turn at `node` (its candidates found
        the first time), or -1 when there are none or only one."""
        for t in range(self.turns):
            if self.t_node[t] == node:
                return t if self.t_k[t] > 1 else -1
        t = self.turns
        if t >= self.t_max:
            return -1
        self.turns = t + 1
        player = self.owner
        buf = self.buf
        n = world.legal_moves(me, buf)
        k = player.turn_candidates(world.view(me, self.seen), buf, n)
        self.t_node[t] = node
        self.t_k[t] = k
        self.t_deals[t] = 0
        b = t * _MAX_K
        for i in range(k):
            self.t_cand[b + i] = player.cand[i]
            self.t_sums[b + i] = 0
            self.t_squares[b + i] = 0
        return t if k > 1 else -1

    def _pairs(self, t, node, depth):
        """Set up the paired walks of pondered turn t from node in this deal (the
        table and random numbers kept; path[0:depth] leads there); the next steps walk
        them. False when the tables are full."""
        b = t * _MAX_K
        child = self.t_child
        for i in range(self.t_k[t]):
            c = self._child(node, self.t_cand[b + i])
            if c == _NONE:
                return False
            child[i] = c
        prng = self.owner.prng
        self.base[:] = self.owner.world.s
        self.x = prng.x
        self.y = prng.y
        self.p_turn = t
        self.p_next = 0
        self.p_depth = depth
        return True

    def _pair(self):
        """The next paired walk of the pondered deal; the deal's differences are added
        once its last candidate is walked."""
        player = self.owner
        world = player.world
        prng = player.prng
        t = self.p_turn
        i = self.p_next
        if i:
            world.s[:] = self.base
            prng.x = self.x
            prng.y = self.y
        c = self.t_child[i]
        r = self._walk(c, world.apply_legal(self.view.player, self.move[c]), player,
                       world, self.p_depth)
        diff = self.p_diff
        if i == 0:
            self.first = r
        else:
            diff[i] = (r - self.first) >> 3
        i += 1
        if i < self.t_k[t]:
            self.p_next = i
            return
        b = t * _MAX_K
        for j in range(1, i):
            d = diff[j]
            self.t_sums[b + j] += d
            self.t_squares[b + j] += d * d
        self.t_deals[t] += 1
        self.p_turn = -1

    def _node(self, i, move):
        self.move[i] = move
        self.child[i] = _NONE
        self.sib[i] = _NONE
        self.visits[i] = 0
        self.wins[i] = 0
        self.avail[i] = 0
        self.root[i] = 0
        self.bits[i] = 0

    def think(self, iterations):
        """Run up to `iterations` more walks of the budget; True once it is spent."""
        while iterations > 0 and self.done < self.budget:
            self._step()
            self.done += 1
            iterations -= 1
        return self.done >= self.budget

    def best(self):
        """The heuristic's first candidate, unless another did better in the same
        deals by more than chance explains (a paired test, z above _Z / 16)."""
        deals = self.done // self.k    # whole deals, and those pondered before
        sums = self.sums
        squares = self.squares
        best = 0
        best_sum = 0
        for i in range(1, self.k):
            t = sums[i]
            if t <= best_sum:
                continue
            n = deals + self.prior[i]
            spread = n * squares[i] - t * t
            if spread <= 0 or t * _isqrt(n << 8) > self.z * _isqrt(spread):
                best = i
                best_sum = t
        return self.move[self.cnode[best]]

    def _step(self):
        """One walk from the next candidate. The first deals a world (and keeps it and
        the random numbers); the others start from the same ones, and each one's reward
        less the first's (in eighths) goes to the paired test."""
        player = self.owner
        world = player.world
        s = world.s
        prng = player.prng
        i = self.next
        c = self.cnode[i - 1]
        me = self.view.player
        if i == 1:
            player._deal_world(self.view)
            self.base[:] = s
            self.x = prng.x
            self.y = prng.y
            self.first = self._walk(c, world.apply_legal(me, self.move[c]), player, world)
        else:
            s[:] = self.base
            prng.x = self.x
            prng.y = self.y
            d = (self._walk(c, world.apply_legal(me, self.move[c]), player, world)
                 - self.first) >> 3
            self.sums[i - 1] += d
            self.squares[i - 1] += d * d
        self.next = i + 1 if i < self.k else 1

    def _walk(self, c, p, player, world, d=0):
        """From node c (p to move, -1: the round is over) down the tree in this deal,
        nodes added, then a playout; the reward (0 .. 250) is backed up the path (and
        path[0:d], the walk so far) and returned."""
        s = world.s
        me = self.view.player
        flags = player.flags
        suits = self.suits
        policy = self.policy
        path = self.path
        move = self.move
        visits = self.visits
        path[d] = c
        depth = d + 1
        node = c
        while p >= 0 and visits[node] and depth < _PATH:
            if p == me:
                c = self._mine(node, world, p)
            else:
                m = policy(s, p, flags, suits)
                if player.prng.below(self.other) == 0:
                    m = self._other(world, p, m)
                c = self._child(node, m)
            if c == _NONE:
                break              # the tables are full: play out from here
            path[depth] = c
            depth += 1
            p = world.apply_legal(p, move[c])
            node = c
        d = self.rollout
        while d and p >= 0:
            p = world.apply_legal(p, policy(s, p, flags, suits))
            d -= 1
        reward = player._judge(world, me)
        wins = self.wins
        root = self.root
        for i in range(depth):
            n = path[i]
            v = visits[n] + 1
            visits[n] = v
            wins[n] += reward
            r = root[n]
            v <<= 6
            while (r + 1) * (r + 1) <= v:
                r += 1
            root[n] = r
        return reward

    def _ucb(self, node):
        """The child of `node` with the best UCB1 among those marked available (an
        unvisited one first)."""
        c = self.child[node]
        visits = self.visits
        avail = self.avail
        bits = self.bits
        wins = self.wins
        root = self.root
        bonus = self.bonus
        best = _NONE
        best_score = -1
        while c != _NONE:
            if bits[c] & 0x80 == 0:    # available in this deal
                v = visits[c]
                if v == 0:
                    return c
                score = wins[c] // v + bonus[bits[c]] // root[c]
                if score > best_score:
                    best_score = score
                    best = c
            c = self.sib[c]
        return best

    def _mine(self, node, world, p):
        """At the searcher's own turn: count the listed moves that have nodes as
        available, add a node for an untried one (chosen at random), else UCB1."""
        buf = self.buf
        n = world.legal_moves(p, buf)
        size = world.count(p)
        move = self.move
        sib = self.sib
        avail = self.avail
        bits = self.bits
        first = self.child[node]
        c = first
        while c != _NONE:
            bits[c] |= 0x80        # not available unless listed below
            c = sib[c]
        untried = 0
        for i in range(n):
            m = buf[i]
            if m & _KIND == _CATCH or (size == 2 and m & _KIND == 0 and not m & _MAU):
                continue           # catches and a last-but-one card without Mau
            c = first
            while c != _NONE and move[c] != m:
                c = sib[c]
            if c == _NONE:
                buf[40 + untried] = m
                untried += 1
            else:
                a = avail[c] + 1
                avail[c] = a
                b = bits[c] & 0x7F
                bits[c] = b + 1 if a >> b else b
        if untried:
            c = first
            while c != _NONE:
                bits[c] &= 0x7F
                c = sib[c]
            return self._add(node, buf[40 + self.owner.prng.below(untried)])
        c = self._ucb(node)
        first = self.child[node]
        x = first
        while x != _NONE:
            bits[x] &= 0x7F
            x = sib[x]
        return c

    def _child(self, node, m):
        """The child of `node` for move m, made if it is new."""
        c = self.child[node]
        move = self.move
        while c != _NONE:
            if move[c] == m:
                return c
            c = self.sib[c]
        return self._add(node, m)

    def _add(self, node, m):
        """A new child of `node` for move m (available once), or _NONE when full."""
        c = self.nodes
        if c < self.cap:
            self.nodes = c + 1
        else:
            c = self.free          # a free subtree's root; its children stay free
            if c == _NONE:
                return _NONE
            sib = self.sib
            free = sib[c]
            x = self.child[c]
            if x != _NONE:
                while sib[x] != _NONE:
                    x = sib[x]
                sib[x] = free
                free = self.child[c]
            self.free = free
            for t in range(self.turns):
                if self.t_node[t] == c:
                    self.t_node[t] = _NONE   # a pondered turn no longer in the tree
        self._node(c, m)
        self.avail[c] = 1
        self.bits[c] = 1
        self.sib[c] = self.child[node]
        self.child[node] = c
        return c

    def _other(self, world, p, m):
        """The opponent model's alternative to m: a listed move at random (Mau said)."""
        buf = self.buf
        n = world.legal_moves(p, buf)
        x = buf[self.owner.prng.below(n)]
        s = world.s
        if x & _KIND == 0 and s[_S_BOUNDS + p + 1] - s[_S_BOUNDS + p] == 2:
            x |= _MAU
        return x
