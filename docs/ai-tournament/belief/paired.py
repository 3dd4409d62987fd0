"""Paired comparison of two settings of engine.ai constants on the same games.
python paired.py preset pairing seed games "A=1,B=2" "A=4,B=2" """
import math
import os
import sys
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))  # the repo
from engine import ai
from engine.rules import Rules
from tools import tournament

def setv(spec):
    for kv in spec.split(","):
        if kv:
            k, v = kv.split("=")
            setattr(ai, k, int(v))

preset, pairing, seed, games = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
specs = sys.argv[5:]
rules = Rules(preset)
levels = tournament.parse_pairing(pairing)
players = len(levels)
wins = [0] * len(specs)
diff = [[] for _ in specs]
t0 = time.time()
for i in range(games):
    shift = i % players
    seating = [levels[(k - shift) % players] for k in range(players)]
    res = []
    for spec in specs:
        setv(spec)
        winner, _ = tournament.play_match(rules, seating, seed + i)
        res.append(1 if winner == shift else 0)
    for j in range(len(specs)):
        wins[j] += res[j]
        diff[j].append(res[j] - res[0])
for j, spec in enumerate(specs):
    d = diff[j]
    m = sum(d) / games
    sd = math.sqrt(sum((x - m) ** 2 for x in d) / max(1, games - 1))
    lo, hi = tournament.wilson(wins[j], games)
    print("%s %s seeds %d+ %d games [%s]: %.1f%% [%.1f, %.1f]; minus the first setting %+.2f points +- %.2f (95%%)" % (
        preset, pairing, seed, games, spec, 100 * wins[j] / games, 100 * lo, 100 * hi, 100 * m, 196 * sd / math.sqrt(games)))
print("%.0f s" % (time.time() - t0))
