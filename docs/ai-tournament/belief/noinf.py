"""Tournament with Strong told nothing (observe ignored for level 3): what its inference is worth."""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))  # the repo
from engine import ai
_obs = ai.Player.observe
def observe(self, view, seat, move):
    if self.level == ai.STRONG:
        return
    return _obs(self, view, seat, move)
ai.Player.observe = observe
from tools import tournament
tournament.main(sys.argv[1:])
