"""Screens that are read rather than played on: pages of text (the rules, a story, the
statistics), a round's scores and the pass-and-play cover.

Whoever shows one imports this module, makes the screen and lets the module go: its code
stays in the heap only while one of these screens is kept (the table never holds it).
"""

from firmware.screens import (NEXT, PREV, OK, BACK, MENU, UP, DOWN, NOTHING, CANCEL, PAUSE,
                              DONE, wrap)


class PagesScreen:
    """`texts` to read page by page, wrapped to `cols`, `fit` lines a page (a text that fits
    on a page is never split across two). Only the page shown is wrapped (the texts are
    counted again at each turn): `lines` are its lines, `top` is where its first line is
    among all the lines. NEXT turns the page, OK (or NEXT on the last page) goes on."""

    kind = "pages"

    def __init__(self, name, title, texts, cols, fit=4):
        self.name, self.title = name, title
        self.texts, self.cols = texts, cols
        self.fit = max(1, fit)
        self.top = 0
        self.count = 0            # lines in all
        self._fill()

    def pages(self):
        """How many pages the text takes."""
        return max(1, (self.count + self.fit - 1) // self.fit)

    def page(self):
        """The page shown, from 0."""
        return self.top // self.fit

    def _fill(self):
        """Lay the texts out, counting their lines (none made), and wrap those of the page
        shown: a text that fits on a page but not in the room left on one starts the next
        (blank lines before it)."""
        fit, top, cols = self.fit, self.top, self.cols
        end = top + fit
        lines = []
        at = 0                    # where the text starts, in lines from the first page's top
        for text in self.texts:
            size = wrap(text, cols, True)
            room = fit - at % fit
            if room < size <= fit:
                at += room
            if at < end and at + size > top:       # on the page shown
                while len(lines) < at - top:
                    lines.append("")
                lines += wrap(text, cols)[max(0, top - at):end - at]
            at += size
        self.count = at
        self.lines = lines

    def on(self, action):
        """NEXT pages on or finishes, PREV pages back, OK finishes."""
        last = self.page() == self.pages() - 1
        if action == OK or (action in (NEXT, DOWN) and last):
            return DONE
        if action in (NEXT, DOWN):
            self.top += self.fit
            self._fill()
        elif action in (PREV, UP) and self.top > 0:
            self.top -= self.fit
            self._fill()
        elif action == BACK:
            return CANCEL
        elif action == MENU:
            return PAUSE
        return NOTHING


class ScoresScreen(PagesScreen):
    """Round end: under column headings `heads` (name, this round, total, cards left), a
    row per player in `rows`: (name, points this round, total, the cards still held as
    bytes). `fit` rows a page; NEXT pages on, OK (or NEXT on the last page) goes on."""

    kind = "scores"

    def __init__(self, title, heads, rows, fit=4):
        self.heads, self.rows = heads, rows
        PagesScreen.__init__(self, "scores", title, (), 0, fit)

    def _fill(self):
        """The rows paged as lines are (the painters draw them from `top`)."""
        self.count = len(self.rows)


class CoverScreen:
    """Hides every hand until `player` takes the device: "Pass to Finn"."""

    kind = "cover"

    def __init__(self, player, seat):
        self.name = "cover"
        self.player, self.seat = player, seat

    def on(self, action):
        """Any of NEXT, PREV, OK uncovers; MENU pauses."""
        if action == MENU:
            return PAUSE
        if action in (NEXT, PREV, OK, UP, DOWN):
            return DONE
        return NOTHING
