import sys, os
sys.path.insert(0, os.getcwd())
from array import array
import numpy as np
from engine import ai, moves as mv
from engine.match import Match
from engine.round import View
from engine.rules import Rules
preset = sys.argv[1]; P = int(sys.argv[2]); G = int(sys.argv[3])
rules = Rules(preset)
bots = [ai.Player(rules, 3, seed=k) for k in range(P)]
views = [View(rules) for _ in range(P)]
buf = array("H", range(mv.MAX_MOVES))
X = []; Y = []
S = ai
for g in range(G):
    rules_r = rules
    match = Match(rules, P, 5000 + g)
    rnd = match.start_round()
    for k in range(P): bots[k].new_round(rnd.view(k, views[k]))
    pos = []
    while not rnd.is_over():
        s = rnd.s
        if rnd.debtor() is None:
            # features per seat
            players = s[S._S_PLAYERS]
            turn = rnd.turn()
            for me in range(players):
                cnt = [rnd.count(q) for q in range(players)]
                jk = [sum(1 for i in range(s[S._S_BOUNDS+q], s[S._S_BOUNDS+q+1]) if s[i] & 15 == 11) for q in range(players)]
                others = [q for q in range(players) if q != me]
                best = min(others, key=lambda q: cnt[q])
                nxt = (turn + s[S._S_DIR]) % players
                pend = s[S._S_PENDING]
                f = [cnt[me], cnt[best], jk[me], jk[best], 1 if turn == me else 0,
                     pend if turn == me else 0, pend if turn == best else 0, 1 if cnt[me] == 1 else 0, 1 if cnt[best] == 1 else 0]
                pos.append((me, f))
        seat = rnd.turn()
        m = None
        d = rnd.debtor()
        if d is not None:
            for j in range(1, P):
                q = (seat + j) % P
                if q == d: continue
                n = rnd.legal_moves(q, buf)
                mm = bots[q].choose(rnd.view(q, views[q]), buf, n)
                if mm is not None: seat, m = q, mm; break
        if m is None:
            seat = rnd.turn()
            n = rnd.legal_moves(seat, buf)
            m = bots[seat].choose(rnd.view(seat, views[seat]), buf, n)
        for k in range(P): bots[k].observe(rnd.view(k, views[k]), seat, m)
        rnd.apply(seat, m)
    w = rnd.winner()
    for me, f in pos:
        X.append(f); Y.append(1 if w == me else 0)
X = np.array(X, float); Y = np.array(Y, float)
np.savez("judge_%s_%d.npz" % (preset, P), X=X, Y=Y)
# logistic regression by Newton
A = np.hstack([np.ones((len(X), 1)), X])
w = np.zeros(A.shape[1])
for it in range(25):
    p = 1 / (1 + np.exp(-A @ w)); g = A.T @ (Y - p); H = (A * (p * (1 - p))[:, None]).T @ A
    w += np.linalg.solve(H + 1e-6 * np.eye(len(w)), g)
names = ["const", "mine", "opp", "myJ", "oppJ", "myturn", "pend_me", "pend_opp", "me1", "opp1"]
print(len(X), "positions")
for n_, v in zip(names, w): print("%-9s %7.3f  x62.5 = %6.1f" % (n_, v, 62.5 * v))
p = 1 / (1 + np.exp(-A @ w))
print("logloss", -np.mean(Y * np.log(p) + (1 - Y) * np.log(1 - p)))
# current judge
cur = np.clip(250 / P + 25 * (X[:, 1] - X[:, 0]), 10, 240) / 250
print("cur judge brier", np.mean((cur - Y) ** 2), "fit brier", np.mean((p - Y) ** 2))
