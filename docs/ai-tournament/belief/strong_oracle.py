"""Strong whose chance that the next player can follow is read from the real hand
(1 or 0): the ceiling of what Strong's inference could give it."""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))  # the repo
from engine import ai
from engine.match import Match
from tools import tournament
CUR = [None]
_start = Match.start_round
def start_round(self):
    r = _start(self)
    CUR[0] = r
    return r
Match.start_round = start_round

def p_follow(self, view, q, suit, rank):
    rnd = CUR[0]
    h = rnd.hand(q)
    rules = self.rules
    for c in h:
        r = c & 15
        if r == ai.JACK:
            if (rules.jack_on_jack or rank != ai.JACK) and not (len(h) == 1 and rules.no_finish_on_jack):
                return ai._P
        elif c >> 4 == suit or (rank and r == rank):
            return ai._P
    return 0

def p_holds(self, view, q, rank):
    return ai._P if any(c & 15 == rank for c in CUR[0].hand(q)) else 0

ai.Player._p_follow = p_follow
if "--holds" in sys.argv:
    sys.argv.remove("--holds")
    ai.Player._p_holds = p_holds
tournament.main(sys.argv[1:])
