"""The title screen: its rows, and what taking one does. firmware.app imports this module
while the title shows; taking a row lets it go (the table never holds its code)."""

from engine.compat import forget
from firmware import screens as S


def screen(app, notice=""):
    """The title screen: Continue (when a match is saved), New game, Statistics (once a
    match was recorded), the linked games (a board with a link), Quit."""
    items = ["New game", "Quit"]
    if app.open_link is not None:    # 128x64 and 72x40 rows hold 15 and 16 characters
        items[1:1] = (["Host a linked game", "Join a linked game"] if app.sizes.list_cols >= 18
                      else ["Host link play", "Join link play"])
    store = app.store
    if store is not None and store.has_game():
        items.insert(0, "Continue")
    if store is not None and store.stats():
        items.insert(-1, "Statistics")
    if not notice and store is not None:
        notice = store.trouble   # a refused save stays news until one works
    lines = S.wrap(notice, app.sizes.list_cols) if notice else []
    return S.ListScreen("title", "Mau-Mau", items, lines, app.sizes.title_fit)


def made(app):
    """The title after Save and quit (App.make): made once the match has left the heap."""
    app.show(screen(app), True)


def take(app, got):
    """Row `got` of the title taken (a negative `got`: nothing taken)."""
    if got < 0:
        return
    forget("firmware.title")
    item = app.screen.items[got]
    if item == "Continue" and app.looped:   # loaded on the next frame, as a deal
        app.hold(app.store)
    elif item == "Continue":
        from firmware.start import continue_match
        continue_match(app)
    elif item == "New game":
        from firmware.start import open_setup
        open_setup(app)
    elif item in ("Host a linked game", "Host link play"):   # no new names for the pool
        from firmware.linkhost import LinkHost
        from firmware.setup import played_last
        from firmware.start import open_setup
        app.link = LinkHost(app.open_link(), None, played_last(app.store)["seats"][0][0])
        open_setup(app)
    elif item in ("Join a linked game", "Join link play"):
        from firmware.linkclient import join
        join(app)
    elif item == "Statistics":      # each player's lifetime record
        stats, lines = app.store.stats(), []
        for name in sorted(stats):
            row = stats[name]
            lines.append("%s: matches %d, won %d; rounds %d, won %d; points %d"
                         % (name, row[0], row[1], row[2], row[3], row[4]))
        app.pages("stats", "Statistics", lines)
    elif item == "Quit":
        app.done = True
