"""When the heap runs out in a frame: the app made again, its match a Continue away.

firmware.main's loop (and firmware.cp_main's) catches the MemoryError, takes the few things a new app is made
from (its store, speaker, button layout, link opener and test settings: `remains`), lets
the old app go (its match, screens, painter and their garbage with it) and calls `remade`. Every completed move was saved as it was made, so the title's
Continue resumes the match at its last completed move; a save the heap ran out in was
left unfinished and the one before it is read (firmware.save). This module is imported
only then.
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
    gc.collect()
    from firmware.app import App
    store, sound, layout, open_link, playouts, seed = remains
    return App(Wiring(layout, open_link), canvas, store, now_ms, playouts, seed, sound=sound,
               notice=_notice(store))


def remade_dio(painter, remains, now_ms):
    """The same on CircuitPython (firmware.cp_main): a DioApp drawn by the same painter (its
    displayio objects are made once and kept)."""
    gc.collect()
    from firmware.app_dio import DioApp
    store, sound, layout, open_link, playouts, seed = remains
    return DioApp(Wiring(layout, open_link), painter, store, now_ms, playouts, seed, sound,
                  notice=_notice(store))


def _notice(store):
    """The title's words: the saved match is a Continue away, or there is none."""
    return NOTICE if store is not None and store.has_game() else FRESH
