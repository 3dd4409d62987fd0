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
        if self.dealer is None:
            self.dealer = self.seated[-1]
        else:
            self.dealer = self._next_seated(self.dealer)
        seat = self.seated.index(self.dealer)
        self.round = Round(self.rules, len(self.seated), self.rng, seat)
        return self.round

    def _next_seated(self, player):
        """The first seated player after `player` in joining order (wrapping round)."""
        later = [p for p in self.seated if p > player]
        return later[0] if later else self.seated[0]

    def end_round(self):
        """Score the finished round; return the minus points of each seat."""
        rnd = self.round
        if rnd is None or not rnd.is_over():
            raise ValueError("no finished round to score")
        points = [rnd.points(k) for k in range(rnd.players())]
        self.last_seats = list(self.seated)
        w = rnd.winner()
        self.last_winner = None if w is None else self.seated[w]
        for k in range(len(points)):
            self.totals[self.seated[k]] += points[k]
        self.rounds_played += 1
        self.last_points = points
        self.round = None
        if self.rules.match == MATCH_ELIMINATION:
            out = [p for p in self.seated if self.totals[p] > self.rules.limit]
            if len(out) == len(self.seated):
                best = min(self.totals[p] for p in out)
                out = [p for p in out if self.totals[p] != best]
            for p in out:
                self.seated.remove(p)
                self.gone.append(p)
        return points

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
        self._between_rounds("join")
        if len(self.seated) >= self.rules.max_players:
            raise ValueError("players=%d: the table is full (max_players=%d)"
                             % (len(self.seated) + 1, self.rules.max_players))
        worst = max(self.totals[p] for p in self.seated) if self.seated else 0
        self.totals.append(worst)
        player = len(self.totals) - 1
        self.seated.append(player)
        return player

    def leave(self, player):
        """Remove a player between rounds; they leave the score list."""
        self._between_rounds("leave")
        if player not in self.seated:
            raise ValueError("player %r is not at the table" % (player,))
        self.seated.remove(player)
        self.gone.append(player)

    def _between_rounds(self, what):
        if self.round is not None:
            raise ValueError("players may %s only between rounds" % what)

    def seat_of(self, player):
        """The seat of `player` in the current round."""
        return self.seated.index(player)
