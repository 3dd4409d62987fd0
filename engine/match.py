"""A match: rounds in a row, minus points, the dealer moving on, players coming and going.

Players are numbered in the order they joined; the numbers never change. Each round
seats the players still in, in that order, so seat k of a round is ``seated[k]``.
"""

from engine.rng import Random
from engine.round import Round
from engine.rules import MATCH_ELIMINATION


class Match:
    """A fixed number of rounds, or elimination at a minus-point limit."""

    def __init__(self, rules, players, seed=0):
        rules.check_players(players)
        self.rules = rules
        self.rng = Random(seed)
        self.totals = [0] * players
        self.seated = list(range(players))
        self.gone = []           # players who left (removed from the score list) or are out
        self.rounds_played = 0
        self.dealer = None       # the last player deals first, so player 0 begins
        self.round = None
        self.last_points = None
        self.last_seats = None   # who sat where in the last scored round
        self.last_winner = None

    def start_round(self):
        """Deal the next round and return it."""
        if self.round is not None and not self.round.is_over():
            raise ValueError("the current round is still being played")
        if self.is_over():
            raise ValueError("the match is over")
        seated = self.seated
        if self.dealer is None:
            dealer = seated[-1]  # so that player 0 begins
        else:  # the first seated player after the last dealer, in joining order
            dealer = seated[0]
            for p in seated:
                if p > self.dealer:
                    dealer = p
                    break
        self.dealer = dealer
        self.round = Round(self.rules, len(seated), self.rng, seated.index(dealer))
        return self.round

    def end_round(self):
        """Score the finished round; return the minus points of each seat."""
        rnd = self.round
        if rnd is None or not rnd.is_over():
            raise ValueError("no finished round to score")
        seated = self.seated
        points = []
        for k in range(len(seated)):
            points.append(rnd.points(k))
            self.totals[seated[k]] += points[k]
        self.last_seats = list(seated)
        w = rnd.winner()
        self.last_winner = None if w is None else seated[w]
        self.rounds_played += 1
        self.last_points = points
        self.round = None
        if self.rules.match == MATCH_ELIMINATION:
            self._eliminate()
        return points

    def _eliminate(self):
        """Seat out everyone over the limit; if that is everyone, the lowest total stays."""
        totals = self.totals
        best = None
        for p in self.seated:
            if best is None or totals[p] < best:
                best = totals[p]
        keep = best if best > self.rules.limit else -1
        for p in list(self.seated):
            if totals[p] > self.rules.limit and totals[p] != keep:
                self.seated.remove(p)
                self.gone.append(p)

    def is_over(self):
        """True when no further round will be dealt."""
        if self.round is not None:
            return False
        if self.rules.match == MATCH_ELIMINATION:
            return len(self.seated) <= 1
        return self.rounds_played >= self.rules.rounds or len(self.seated) < 2

    def winner(self):
        """The player with the fewest minus points among those still seated (ties: the
        earliest to join); None while the match goes on."""
        if not self.is_over() or not self.seated:
            return None
        best = self.seated[0]
        for p in self.seated:
            if self.totals[p] < self.totals[best]:
                best = p
        return best

    def join(self):
        """Seat a new player between rounds at the worst current total; return their number."""
        from engine.seating import join
        return join(self)

    def leave(self, player):
        """Remove a player between rounds; they leave the score list."""
        from engine.seating import leave
        leave(self, player)

    def seat_of(self, player):
        """The seat of `player` in the current round."""
        return self.seated.index(player)
