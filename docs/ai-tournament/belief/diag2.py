"""Paired: at the same decisions, overlap and suit-count error of sampled opponent hands,
plain deals vs likelihood-weighted (tries, beta)."""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))  # the repo
from array import array
from engine import ai
from engine import moves as mv
from engine.match import Match
from engine.round import View
from engine.rules import Rules

def measure(bot, view, rnd, seat, players, tries, samples, acc):
    ai.DEAL_TRIES = tries
    bot._survey(view)
    bot._make_pool()
    for _ in range(samples):
        bot._deal_likely(view)
        s = bot.world.s
        for q in range(players):
            if q == seat:
                continue
            real = list(rnd.hand(q))
            lo = s[ai._S_BOUNDS + q]; hi = s[ai._S_BOUNDS + q + 1]
            fake = list(s[lo:hi])
            se = 0
            for t in range(4):
                a = sum(1 for c in real if c >> 4 == t and c & 15 != 11)
                b = sum(1 for c in fake if c >> 4 == t and c & 15 != 11)
                se += (a - b) ** 2
            ov = 0
            for c in real:
                if c in fake:
                    fake.remove(c); ov += 1
            acc[0] += ov; acc[1] += len(real); acc[2] += se; acc[3] += 1

def run(preset, levels, games, seed0, specs, samples=10):
    rules = Rules(preset)
    accs = {sp: [0, 0, 0, 0] for sp in specs}
    for g in range(games):
        players = len(levels)
        match = Match(rules, players, seed0 + g)
        bots = [ai.Player(rules, levels[k], seed=g * 8 + k, playouts=8) for k in range(players)]
        views = [View(rules) for _ in range(players)]
        moves = array("H", range(mv.MAX_MOVES))
        while not match.is_over():
            rnd = match.start_round()
            seated = match.seated
            for k in range(players):
                bots[seated[k]].new_round(rnd.view(k, views[seated[k]]))
            while not rnd.is_over():
                seat = rnd.turn()
                player = seated[seat]
                n = rnd.legal_moves(seat, moves)
                view = rnd.view(seat, views[player])
                bot = bots[player]
                if bot.level == ai.EXPERT and bot.n_plays:
                    for sp in specs:
                        ai.BETA = sp[1]; ai.ACTION = sp[2]
                        bot.power[:] = array("i", [1 << min(sp[1] * x, 14) for x in range(32)])
                        measure(bot, view, rnd, seat, players, sp[0], samples, accs[sp])
                ai.DEAL_TRIES = 1
                move = bot.choose(view, moves, n)
                for k in range(players):
                    b = bots[seated[k]]
                    if b.watches:
                        b.observe(rnd.view(k, views[seated[k]]), seat, move)
                rnd.apply(seat, move)
            match.end_round()
    for sp in specs:
        a = accs[sp]
        print(preset, levels, "tries %d beta %d action %d: overlap %.4f suit sq err %.4f (%d)" % (
            sp[0], sp[1], sp[2], a[0] / a[1], a[2] / a[3], a[3]))

if __name__ == "__main__":
    preset = sys.argv[1]; levels = [int(x) for x in sys.argv[2].split("v")]
    games = int(sys.argv[3])
    specs = [tuple(map(int, s.split(","))) for s in sys.argv[4:]]
    run(preset, levels, games, 1, specs)
