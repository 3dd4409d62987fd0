"""Starting play: the setup opened, a saved match continued, a new one's code loaded.

firmware.app imports this module for one of these steps and lets it go: what runs only
between the title and the table is not kept in the heap while the table is played (a
device loop takes a start a frame at a time: App.next_frame hands each held step here).
"""

from engine.compat import forget


def open_setup(app):
    """The new-game setup, starting from the last one played (names included)."""
    from firmware.setup import SetupScreen, last_setup   # kept only while a setup screen is
    forget("firmware.start")
    f = app.sizes
    app.show(SetupScreen(last_setup(app.store), f.list_fit, f.list_cols,
                         app.layout in ("dpad", "badge")))


def step(app, due):
    """A held start's step on a device loop's new frame: the saved match read (`due` the
    store), or a setup's or a read match's code loaded (the deal or the rebuild, App's,
    on the next frame)."""
    forget("firmware.start")
    if due is app.store:
        continue_match(app)
    elif type(due) is dict:            # a setup: the game's code loaded on this frame
        __import__("firmware.game")    # (the title and the setup load none of it),
        __import__("firmware.deal")    # its start's too (Game() lets it go); dealt on
        app.dealing = [due]            # the next (App.next_frame)
    else:                              # a match read on the last frame: its start's
        __import__("firmware.deal")    # code loaded now, the match rebuilt on the next
        app.dealing = due[0]


def continue_match(app):
    """Resume the saved match at its last completed move (on a device loop it is read
    on this frame and rebuilt on the next: the file and its parsing are garbage first)."""
    forget("firmware.start")
    if app.looped:
        pieces, _ = app.store.read_game()
        if pieces is not None:
            app.dealing = [pieces]           # next_frame loads the game's start, then
            return                           # rebuilds the match
        game = None
    else:
        game, _ = app.store.load_game(app.playouts)
    from firmware.resume import play_on
    play_on(app, game)
