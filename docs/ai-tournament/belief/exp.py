"""Run tools.tournament with engine.ai constants overridden: VAR=value ... -- tournament args."""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))  # the repo
from engine import ai
args = sys.argv[1:]
i = args.index("--")
for kv in args[:i]:
    k, v = kv.split("=")
    setattr(ai, k, int(v))
from tools import tournament
tournament.main(args[i + 1:])
