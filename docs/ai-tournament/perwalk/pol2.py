"""The playout policy closer to Strong (screen POL2): engine.ai's own policy with its
7s and 8s scored otherwise, made from that function's source (weights W7, W8, V7 from
the environment)."""
import inspect
import os

from engine import ai

_SHIPPED = "            if (r == _SEVEN or r == _EIGHT) and (size > 3 or few):\n"
_CLOSER = """            if r == _EIGHT and players == 2:
                # heads-up, an 8 comes back to me: good with a card to follow it
                f = suits[c >> 4] - 1
                for j in range(lo, hi):
                    if s[j] & 15 == _EIGHT and s[j] != c:
                        f += 1
                sc += W8 if f > 0 else -W8
            elif r == _SEVEN and (size > 3 or few or V7):
                sc += W7
            elif r == _EIGHT and (size > 3 or few):
"""


def _variant():
    src = inspect.getsource(ai._policy)
    assert _SHIPPED in src, "engine.ai._policy changed: update this screen"
    src = src.replace("def _policy(", "def policy(").replace("best_score = -1\n", "best_score = -1000\n")
    space = dict(vars(ai), W7=int(os.environ.get("W7", "10")), W8=int(os.environ.get("W8", "16")),
                 V7=int(os.environ.get("V7", "0")))
    exec(src.replace(_SHIPPED, _CLOSER), space)
    return space["policy"]


policy = _variant()
