"""The match's final table (firmware.between imports it at the match's end and lets it go)."""

import sys

from engine.compat import forget
from firmware import screens as S
from firmware.between import GAME_CODE, wins


def final(app):
    """Match end: the winner and the final table, the game let go."""
    game = app.game
    w = game.winner()
    totals = game.totals()
    order = sorted(game.seated(), key=lambda p: totals[p])
    width = app.sizes.list_cols
    lines = []
    for p in order:       # name and total, aligned to the screen's width
        name, right = game.player_name(p), "%4d" % totals[p]
        lines.append(name[:width - len(right) - 1] + " " * max(1, width - len(name) - len(right))
                     + right)
    head = wins(game.player_name(w)) + "!" if w is not None else "Match over"
    app._release()
    if app.store is not None:
        app.store.clear_game()
    app.show(S.ListScreen("final", head, ["New game", "Title"], lines, app.sizes.list_fit), True)
    forget("firmware.between")      # the final table's keys are the app's
    # the setup and the title need none of the game's code; linked play keeps it for the
    # link's next match (its host's and client's modules import it), and on CPython the
    # tests and tools hold the engine's classes
    if app.link is None and sys.implementation.name == "micropython":
        for name in GAME_CODE:
            forget(name)
