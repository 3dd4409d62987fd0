import sys, os
sys.path.insert(0, os.getcwd())
from array import array
from engine import ai, moves as mv
from engine.match import Match
from engine.round import View
from engine.rules import Rules
import importlib
preset = sys.argv[1] if len(sys.argv) > 1 else "classic"
pol = ai._policy
if len(sys.argv) > 2:
    mod = importlib.import_module(sys.argv[2]); pol = mod.policy
rules = Rules(preset)
bots = [ai.Player(rules, 3, seed=k) for k in range(2)]
views = [View(rules) for _ in range(2)]
buf = array("H", range(mv.MAX_MOVES)); suits = bytearray(4)
flags = bots[0].flags
agree = total = 0
kinds = {}
for g in range(300):
    match = Match(rules, 2, 1000 + g)
    while not match.is_over():
        rnd = match.start_round()
        for k in range(2): bots[k].new_round(rnd.view(k, views[k]))
        while not rnd.is_over():
            seat = rnd.turn()
            n = rnd.legal_moves(seat, buf)
            m = bots[seat].choose(rnd.view(seat, views[seat]), buf, n)
            plays = sum(1 for i in range(n) if buf[i] & 0x600 == 0 and not (buf[i] & 0x100))
            if plays >= 2 or (plays >= 1 and rnd.debtor() is None):
                p = pol(rnd.s, seat, flags, suits)
                total += 1
                if p == m or (p & 0x600 == 0 and m & 0x600 == 0 and p & 15 == 11 and m & 15 == 11 and (p & 0x1C0) == (m & 0x1C0)): agree += 1
                else:
                    key = ("S%d" % (m & 15) if m & 0x600 == 0 else "x%x" % (m & 0x600)) + "/P" + ("%d" % (p & 15) if p & 0x600 == 0 else "x%x" % (p & 0x600))
                    kinds[key] = kinds.get(key, 0) + 1
            for k in range(2):
                bots[k].observe(rnd.view(k, views[k]), seat, m)
            rnd.apply(seat, m)
        match.end_round()
print("agree %d/%d = %.1f%%" % (agree, total, 100 * agree / total))
for k, v in sorted(kinds.items(), key=lambda x: -x[1])[:15]: print(k, v)
