"""The easy levels: Random (any legal move), Beginner (any card that fits) and Casual (the
usual tips, carelessly). engine.ai.new_player imports this module for them: a table of
Strong and Expert players never loads it."""

from engine.ai import Player, RANDOM, BEGINNER, _first_not_catch
from engine.compat import const

_WIN = const(10000)         # engine.ai's: a score no other consideration reaches
_SEVEN = const(7)           # cards.SEVEN, EIGHT, JACK
_EIGHT = const(8)
_JACK = const(11)
_MAU_OFF = const(2)         # rules.MAU_OFF
_KIND = const(0x600)        # moves.KIND_MASK
_CATCH = const(0x600)       # moves.CATCH
_MAU = const(0x100)         # moves.MAU


class Easy(Player):
    """A computer player of level 0 (random), 1 (beginner) or 2 (casual) for one seat."""

    def _decide(self, view, moves, n):
        """Random's, Beginner's or Casual's choice on my turn."""
        level = self.level
        if level == RANDOM:
            return moves[self.rng.below(n)]
        if moves[0] & _KIND == _CATCH and self._catches():
            return moves[0]
        if level == BEGINNER:
            return self._beginner(view, moves, n)
        return self._casual(view, moves, n)

    # -- Beginner ------------------------------------------------------------------

    def _beginner(self, view, moves, n):
        """Any card that fits, drawing only when none does; says Mau one time in two."""
        plays = 0
        for i in range(n):
            if moves[i] & _KIND == 0 and not moves[i] & _MAU:
                plays += 1
        if plays == 0:
            return _first_not_catch(moves, n)
        k = self.rng.below(plays)
        for i in range(n):
            m = moves[i]
            if m & _KIND == 0 and not m & _MAU:
                if k == 0:
                    if view.count(view.player) == 2 and self.rules.mau_penalty != _MAU_OFF:
                        if self.rng.below(2):
                            m |= _MAU
                    return m
                k -= 1
        return _first_not_catch(moves, n)

    # -- Casual --------------------------------------------------------------------

    def _casual(self, view, moves, n):
        """The usual tips, carelessly: the suit held most, 7s and 8s early, but a Jack at
        the first chance (wishing the suit held most), and one Mau in four forgotten."""
        view.suit_counts(view.player, self.suits)
        size = view.count(view.player)
        mau = _MAU
        if size == 2 and self.rng.below(4) == 0:
            mau = 0
        best = _first_not_catch(moves, n)
        best_score = -_WIN
        for i in range(n):
            m = moves[i]
            if m & _KIND == 0:
                score = self._casual_score(m, size, mau)
                if score > best_score:
                    best_score = score
                    best = m
        return best

    def _casual_score(self, m, size, mau):
        if size == 1:
            return _WIN                             # going out wins the round
        if size == 2 and m & _MAU != mau:
            return -_WIN                            # the Mau said, or forgotten
        c = m & 63
        r = c & 15
        suits = self.suits
        if r == _JACK:                             # a Jack first (the rescue card wasted),
            w = m >> 6 & 3                         # wishing the suit held most
            return 10 * (suits[w] - (w == c >> 4)) + 5
        score = 10 * suits[c >> 4]                 # discard from the suit held most
        if (r == _SEVEN or r == _EIGHT) and size >= 4:
            score += 15                            # play 7s and 8s early
        return score
