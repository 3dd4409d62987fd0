"""The terminal table (`python -m tools.table`): Mau-Mau in words, no screen."""

import subprocess
import sys
from types import SimpleNamespace

from tools.table import play


def test_auto_game_plays_to_the_end():
    out = subprocess.run([sys.executable, "-m", "tools.table", "--seed", "4", "--auto"],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    assert "Round 1" in out and "Match over. Winner:" in out
    assert "You plays" not in out  # grammar for seat 0


def test_a_human_chooses_from_the_listed_moves_and_gets_hints():
    typed = iter(["x", "99", "h"] + ["1"] * 500)
    lines = []
    args = SimpleNamespace(preset="nordic", players=3, level=2, seed=9, auto=False)
    match = play(args, read=lambda prompt: next(typed), out=lines.append)
    text = "\n".join(lines)
    assert match.is_over()
    assert "please type a number" in text and "hint:" in text
    assert "Your hand:" in text and "Top card:" in text
