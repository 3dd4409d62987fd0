"""A human seat's name: the list of names to choose from and the letter grid for a new
one. firmware.setup loads this module while they show and lets it go once back."""

from engine.compat import const
from firmware.screens import (ListScreen, NEXT, PREV, OK, BACK, MENU, UP, DOWN, NOTHING,
                              CANCEL, PAUSE, DONE, HUMAN_NAMES)

_MAX_NAME = const(8)    # characters in a player's name (firmware.setup's)
_WIDE = const(24)       # list columns for the long title (firmware.setup.WIDE)


class NameList(ListScreen):
    """Who sits at a human seat: New name (the letter grid), then the names used last,
    then common names; names other seats have are left out."""

    def __init__(self, seat, setup_screen):
        self.seat = seat
        taken = [s[0] for s in setup_screen.setup["seats"]]
        items = ["New name"]
        common = HUMAN_NAMES + ("Mia", "Leo", "Zoe", "Max", "Mum", "Dad")
        for name in list(setup_screen.setup.get("names", ())) + list(common):
            if name not in items and name not in taken:
                items.append(name)
        wide = setup_screen.cols >= _WIDE
        ListScreen.__init__(self, "names", "Name of player %d" % (seat + 1) if wide
                            else "Player %d" % (seat + 1), items, (), setup_screen.fit)


# the letter grid: rows of cells; "_" is a space, "<" deletes, the last row is Done
_GRID = ("ABCDEFG", "HIJKLMN", "OPQRSTU", "VWXYZ_<", "")


class NameScreen(ListScreen):
    """A new name on a letter grid: the items are the grid's rows, the title the name so
    far. With UP/DOWN (`arrows`), the cursor is a cell: UP/DOWN change the row, NEXT/PREV
    go along the letters in reading order. With NEXT/PREV/OK alone, NEXT/PREV choose a
    row and OK opens it at its middle letter; OK on a letter adds it (a capital at a
    word's start) and the row closes again. BACK deletes the last letter (closes an open
    row; with nothing typed, leaves); MENU leaves; Done returns DONE."""

    def __init__(self, seat, name, fit=4, arrows=False, cols=30):
        self.seat = seat
        self.text = name[:_MAX_NAME]
        self.arrows = arrows
        self.col = 0 if arrows else -1           # -1: a row is chosen, not a letter
        hint = () if arrows or cols < _WIDE else ("Pick a row, then a letter.",)
        ListScreen.__init__(self, "name", "", [""] * len(_GRID), hint, fit)
        self._show()

    def _show(self):
        """The title and the rows, the cell under the cursor in brackets."""
        self.title = "Name: %s%s" % (self.text, "_" if len(self.text) < _MAX_NAME else "")
        for r in range(len(_GRID)):
            col = self.col if r == self.cursor else -1
            if not _GRID[r]:
                self.items[r] = "[Done]" if col >= 0 else "Done"
                continue
            cells = _GRID[r]
            text = ""
            for i in range(len(cells)):
                text += "[" if i == col else "]" if i == col + 1 and col >= 0 else " " if i else ""
                text += cells[i]
            self.items[r] = text + ("]" if col == len(cells) - 1 else "")
        self.follow()

    def _step(self, step):
        """Along the cells in reading order, row to row, wrapping at the ends."""
        n = len(_GRID[self.cursor]) or 1
        col = self.col + step
        if 0 <= col < n:
            self.col = col
            return
        self.cursor = (self.cursor + step) % len(_GRID)
        self.col = 0 if step > 0 else (len(_GRID[self.cursor]) or 1) - 1

    def on(self, action):
        """Move, open a row, add or delete a letter, or finish."""
        got = self._act(action)
        self._show()
        return got

    def _act(self, action):
        if action == MENU:
            return PAUSE
        if action == BACK:
            if self.col >= 0 and not self.arrows:
                self.col = -1
            elif self.text:
                self.text = self.text[:-1]
            else:
                return CANCEL
        elif action == UP or action == DOWN:
            self.cursor = (self.cursor + (1 if action == DOWN else -1)) % len(_GRID)
            if self.col >= 0:
                self.col = min(self.col, (len(_GRID[self.cursor]) or 1) - 1)
        elif action == NEXT or action == PREV:
            if self.col < 0:
                self.cursor = (self.cursor + (1 if action == NEXT else -1)) % len(_GRID)
            else:
                self._step(1 if action == NEXT else -1)
        elif action == OK:
            cells = _GRID[self.cursor]
            if self.col < 0 and len(cells) > 1:
                self.col = len(cells) // 2      # open the row at its middle letter
                return NOTHING
            if not cells:
                self.text = self.text.strip()
                return DONE
            cell = cells[max(0, self.col)]      # a letter, a space or a delete
            if cell == "<":
                self.text = self.text[:-1]
            elif cell == "_":
                if self.text and self.text[-1] != " " and len(self.text) < _MAX_NAME:
                    self.text += " "
            elif len(self.text) < _MAX_NAME:    # a capital at a word's start
                self.text += cell if not self.text or self.text[-1] == " " else cell.lower()
            if not self.arrows:
                self.col = -1
        return NOTHING
