"""A fixed yardstick for the tournament: SO-ISMCTS with an iteration count (host only).

Single-observer information-set Monte Carlo tree search (Cowling, Powley and
Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012), plain:

1. Determinize. Each iteration deals the unseen cards into the hidden slots of the
   player's own View (others' hands, the draw pile; ``Round.fill_hidden``), uniformly:
   the hand counts and every visible card as the view shows them, nothing inferred.
2. Select. From the root, while every move available in this deal already has a node,
   take the child with the best UCB1, ``wins / visits + C sqrt(ln avail / visits)``,
   where ``avail`` counts the iterations in which the move was available (SO-ISMCTS's
   availability counts; C = 0.7). One tree holds every seat's moves: a move is what
   the table sees (a played card, a draw, a pass, a catch), so the opponents' nodes
   are the same in every deal, and the card a draw brings is the deal's business.
3. Expand one untried available move (chosen at random), then play out at random to
   the round's end: a random listed card while one may be played, else the draw or
   pass (a fitting card before drawing).
4. Back up 1 for the round's winner, 0 for everybody else (a stalled round: 0 for
   all), each node counting it for the seat that made its move.

It returns the root move visited most (the first listed of equals). Everybody in the
tree and the playouts says "Mau" with a second-to-last card (the Mau-less twins of
those plays are left out), so the yardstick is not weakened by forgetting; a
forgotten Mau at the table is caught at once (the turn stays, the debtor draws two);
a decision with one sensible move makes no search. Deterministic for a seed and an
iteration count. It reads its View only: it is no device level (not in engine/,
not shipped), just a known algorithm beside the levels in ``tools.tournament``.
"""

import math
from array import array

from engine import moves as mv
from engine.rng import Random
from engine.round import Round

EXPLORATION = 0.7   # UCB1's C for rewards in 0..1 (the value Cowling et al. use)

_KIND = mv.KIND_MASK
_CATCH = mv.CATCH
_MAU = mv.MAU


class Node:
    """The table after one move: who made it, and what followed it in the search."""

    __slots__ = ("mover", "visits", "avail", "wins", "children")

    def __init__(self, mover):
        self.mover = mover
        self.visits = 0
        self.avail = 1
        self.wins = 0
        self.children = {}


class Player:
    """An SO-ISMCTS player for one seat, with the interface of engine.ai.Player."""

    level = None        # no engine.ai level
    watches = False     # learns nothing from observe(): every deal is uniform
    search = None       # no engine.search tree kept: it does not ponder

    def __init__(self, rules, iterations, seed=0):
        if not (isinstance(iterations, int) and iterations >= 1):
            raise ValueError("ISMCTS iterations %r: a whole number from 1" % (iterations,))
        self.rules = rules
        self.iterations = iterations
        self.rng = Random(seed)
        self.world = Round(rules, rules.min_players, self.rng)  # every deal overwrites it
        self.moves = array("H", range(mv.MAX_MOVES))
        self.iterations_done = 0    # a running count, for measurements
        self.root = None            # the last search's tree (tests look into it)

    def new_round(self, view=None):
        """Nothing to forget: each decision starts a new tree."""

    def observe(self, view, seat, move):
        """Nothing to learn: the deals use the view alone."""

    def choose(self, view, moves, n):
        """Pick one of moves[0:n] for the view's seat; None declines (catches only)."""
        if n == 0:
            return None
        if moves[0] & _KIND == _CATCH:
            return moves[0]
        if view.turn() != view.player or view.is_over():
            return None
        options = _sensible(moves, n, view.count(view.player))
        if len(options) == 1:
            return options[0]
        return self._search(view, options)

    def _search(self, view, options):
        root = self.root = Node(view.player)
        world = self.world
        rng = self.rng
        buf = self.moves
        log = math.log
        sqrt = math.sqrt
        for _ in range(self.iterations):
            world.fill_hidden(view, rng)
            node = root
            path = []
            p = view.player
            while p >= 0:
                children = node.children
                untried = []
                best = None
                best_score = -1.0
                for m in _sensible(buf, world.legal_moves(p, buf), world.count(p)):
                    child = children.get(m)
                    if child is None:
                        untried.append(m)
                        continue
                    child.avail += 1
                    if not untried:
                        score = (child.wins / child.visits
                                 + EXPLORATION * sqrt(log(child.avail) / child.visits))
                        if score > best_score:
                            best_score = score
                            best = m
                if untried:
                    m = untried[rng.below(len(untried))]
                    node = children[m] = Node(p)
                else:
                    m = best
                    node = children[m]
                path.append(node)
                p = world.apply_legal(p, m)
                if node.visits == 0:
                    break
            if p >= 0:
                _playout(world, p, buf, rng)
            winner = world.winner()
            for node in path:
                node.visits += 1
                if node.mover == winner:
                    node.wins += 1
        self.iterations_done += self.iterations
        children = root.children
        best = options[0]
        for m in options:
            if m in children and (best not in children
                                  or children[m].visits > children[best].visits):
                best = m
        return best


def _sensible(moves, n, size):
    """moves[0:n] as a list, less the plays that leave one card without saying Mau."""
    if size != 2:
        return list(moves[:n])
    return [m for m in moves[:n] if m & _KIND or m & _MAU]


def _playout(world, p, buf, rng):
    """Play the round in `world` to its end from seat p: each player a random listed
    card while one may be played (saying Mau with it), else the draw or pass."""
    s = world.s
    while p >= 0:
        n = world.legal_moves(p, buf)
        lo = 1 if buf[0] & _KIND == _CATCH else 0
        hi = n - 1 if buf[n - 1] & _KIND else n   # plays lie between a catch and a draw
        if hi > lo:
            m = buf[lo + rng.below(hi - lo)]
            if s[16 + p] - s[15 + p] == 2:        # world.count(p), inlined
                m |= _MAU
        else:
            m = buf[n - 1]
        p = world.apply_legal(p, m)
