"""The pause menu over the table (or a cover, a story): Resume, the story since your turn,
Rules, Save and quit, Sound. firmware.app imports this module while the menu shows;
taking an item, or leaving, lets it go (the table never holds its code)."""

from engine.compat import forget
from firmware import screens as S


def screen(app, cursor=0):
    """The menu, over the screen shown (kept as the way back); from the table it offers
    the story since the holder's turn. `cursor`: a row, or an item's words (back from
    its pages, on it again)."""
    if app.screen.name not in ("pause", "rules"):
        app.back_to = app.screen
    items = ["Resume", "Rules", "Save and quit"]
    if app.back_to is app.table and app.table.viewer >= 0:
        items.insert(1, "Since your turn")
    if app.sound is not None:
        items.append("Sound: %s" % ("on" if app.sound.on else "off"))
    if type(cursor) is str:
        cursor = items.index(cursor)
    return S.ListScreen("pause", "Paused", items, (), app.sizes.list_fit, cursor)


def take(app, got):
    """Item `got` of the menu taken, or the menu left (BACK, MENU); a cursor step: nothing."""
    item = app.screen.items[got] if got >= 0 else ""
    if not item and got != S.CANCEL and got != S.PAUSE:
        return
    forget("firmware.pause")
    if item == "Resume" or not item:
        app.show(app.back_to)
    elif item == "Since your turn":
        seat = app.table.viewer
        app.pages("recap", app._story_title(seat), app.game.story(seat) or ["Nothing yet."])
    elif item == "Rules":
        app.make("firmware.rulebook")
    elif item == "Save and quit":
        if app.game is not None and app.store is not None and app.store.unsaved:
            app._save()      # a save the flash refused, again (each move was saved as made)
        app._release()       # the game, its table screen and the way back: gone before
        app.make("firmware.title")   # the title is made
    elif item.startswith("Sound"):
        _switch_sound(app)


def _switch_sound(app):
    """Sound on or off, remembered with the last setup (it survives power-off)."""
    from firmware.setup import played_last
    setup = played_last(app.store)
    setup["sound"] = not app.sound.on
    app.sound.set_on(setup["sound"])
    if app.store is not None:
        try:
            app.store.save_settings(setup)
        except OSError:
            pass   # a full flash forgets the choice, never the game
    app.pause(len(app.screen.items) - 1)   # the cursor stays on Sound
