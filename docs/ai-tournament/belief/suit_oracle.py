"""Expert v Strong where the Expert's deals give each opponent its real suit counts
(cards of the real suits, ranks random among the unseen cards of that suit; Jacks as
Jacks): what knowing the suits, and nothing more, is worth."""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))  # the repo
from engine import ai
from tools import tournament

_orig = tournament._oracle_deal

def suit_deal(bot, table, oracle):
    def deal(view):
        s = bot.world.s
        s[:] = table[0].s
        s[ai._S_NEV] = 0
        rng = bot.prng
        players = s[ai._S_PLAYERS]
        me = view.player
        def cls(c):
            return 4 if c & 15 == 11 else c >> 4
        draw = list(range(ai._S_CARDS, s[ai._S_BOUNDS]))
        hands = []
        for q in range(players):
            if q != me:
                hands += list(range(s[ai._S_BOUNDS + q], s[ai._S_BOUNDS + q + 1]))
        pool = [s[i] for i in draw + hands]
        for i in hands:
            k = cls(s[i])
            opts = [x for x in range(len(pool)) if cls(pool[x]) == k]
            x = opts[rng.below(len(opts))]
            s[i] = pool.pop(x)
        for i in range(len(pool) - 1, 0, -1):
            j = rng.below(i + 1)
            pool[i], pool[j] = pool[j], pool[i]
        for i, c in zip(draw, pool):
            s[i] = c
    return deal

tournament._oracle_deal = suit_deal
tournament.main(sys.argv[1:] + ["--oracle", "hands"])
