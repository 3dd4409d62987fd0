"""When the heap runs out in a frame: the app made again, its match a Continue away.

firmware.main's loop (and firmware.cp_main's) catches the MemoryError, takes the few
things a new app is made from (its store, speaker, button layout, link opener and test
settings: `remains`), lets the old app go (its match, screens, painter and their garbage
with it) and calls `remade` (`remade_dio`). Every completed move was saved as it was made,
so the title's Continue resumes the match at its last completed move; a save the heap ran
out in was left unfinished and the one before it is read (firmware.save). This module is
imported only then.
"""

import gc

NOTICE = "Out of memory: the last save is safe"   # Continue, the row below, resumes it
FRESH = "Out of memory: the game starts again"     # no match was saved yet


class Wiring:
    """What an App reads of its board: the buttons' layout and the link opener."""

    def __init__(self, layout, open_link):
        self.LAYOUT = layout
        self.open_link = open_link


def remade(canvas, remains, now_ms):
    """A new App on `canvas` from an old one's `remains`, showing the title and the notice."""
    from firmware.app import App
    return _made(App, canvas, remains, now_ms)


def remade_dio(painter, remains, now_ms):
    """The same on CircuitPython (firmware.cp_main): a DioApp drawn by the same painter (its
    displayio objects are made once and kept)."""
    from firmware.app_dio import DioApp
    return _made(DioApp, painter, remains, now_ms)


def _made(kind, drawn_on, remains, now_ms):
    """An app of class `kind` (App or DioApp: their second argument is what it draws on)."""
    gc.collect()
    store, sound, layout, open_link, playouts, seed = remains
    notice = NOTICE if store is not None and store.has_game() else FRESH
    return kind(Wiring(layout, open_link), drawn_on, store, now_ms, playouts, seed,
                sound=sound, notice=notice)
