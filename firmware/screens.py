"""Screens: renderer-independent state machines.

Each screen takes an action (`on(action)`, actions from firmware.buttons) and keeps
plain fields a painter reads (firmware/paint.py draws them on a framebuf Canvas; a
displayio painter can draw the same fields). `on` returns what the player decided, or
NOTHING; the app (firmware/app.py) turns decisions into flows.

Every screen works with NEXT, PREV, OK and MENU alone; UP, DOWN and BACK are shortcuts.
"""

from engine.compat import const

# actions (firmware.buttons)
NEXT = const(1)
PREV = const(2)
OK = const(3)
BACK = const(4)
MENU = const(5)
UP = const(6)
DOWN = const(7)

# what `on` returns besides an item index
NOTHING = const(-1)
CANCEL = const(-2)    # BACK
PAUSE = const(-3)     # MENU
DONE = const(-4)      # a screen without choices was read to the end


class Sizes:
    """The numbers a painter sizes screens by: rows and characters that fit, hand slots.

    `wide` is true where headings have room for more words (240 pixels and wider)."""

    def __init__(self, wide, list_fit, title_fit, list_cols, status_cols, status_fit, hand_fit):
        self.wide = wide
        self.list_fit, self.title_fit, self.list_cols = list_fit, title_fit, list_cols
        self.status_cols, self.status_fit, self.hand_fit = status_cols, status_fit, hand_fit


def wrap(text, cols, count=False):
    """Split `text` into lines of at most `cols` characters, breaking at spaces (`count`:
    how many lines, none of them made)."""
    # by indices into the text: the lines are its only new strings (a word is a span)
    lines = 0 if count else []
    end = len(text)
    at = 0
    while True:                               # a paragraph: text[at:stop]
        stop = text.find("\n", at)
        if stop < 0:
            stop = end
        a = b = at                            # the line so far: text[a:b]
        while True:                           # a word: text[at:w]
            w = text.find(" ", at, stop)
            if w < 0:
                w = stop
            while w - at > cols:              # too long for a line: cut
                if b > a:
                    lines = _line(lines, text, a, b)
                lines = _line(lines, text, at, at + cols)
                at += cols
                a = b = at
            if b == a:
                a, b = at, w
            elif b - a + 1 + w - at <= cols:
                b = w
            else:
                lines = _line(lines, text, a, b)
                a, b = at, w
            if w == stop:
                break
            at = w + 1
        lines = _line(lines, text, a, b)
        if stop == end:
            return lines
        at = stop + 1


def _line(lines, text, a, b):
    """`lines` with the line text[a:b] added (a count of lines: one more)."""
    if type(lines) is int:
        return lines + 1
    lines.append(text[a:b])
    return lines


class ListScreen:
    """A title, some lines of text, and items to choose from with a cursor.

    Rows are the lines then the items; `top` is the first row shown and `fit` how many
    rows the painter has room for (the view follows the cursor).
    """

    kind = "list"

    def __init__(self, name, title, items, lines=(), fit=4, cursor=0):
        self.name, self.title = name, title
        self.lines = list(lines)
        self.items = list(items)
        self.suits = None        # optional: a suit glyph per item (the suit picker)
        self.fit = fit
        self.cursor = cursor
        self.top = 0
        self.follow()

    def rows(self):
        """Number of rows: lines plus items."""
        return len(self.lines) + len(self.items)

    def follow(self):
        """Scroll so the cursor row is visible, showing lines above it when they fit."""
        row = len(self.lines) + self.cursor
        if row >= self.top + self.fit:
            self.top = row - self.fit + 1
        if row < self.top:
            self.top = row
        if self.cursor == 0 and row < self.fit:
            self.top = 0

    def move(self, step):
        """Move the cursor by `step`, wrapping round."""
        if self.items:
            self.cursor = (self.cursor + step) % len(self.items)
            self.follow()

    def on(self, action):
        """NEXT/PREV move (PREV on the first item shows the lines above it first); OK
        chooses the item under the cursor."""
        if action == NEXT or action == DOWN:
            self.move(1)
        elif (action == PREV or action == UP) and self.cursor == 0 and self.top > 0:
            self.top -= 1       # a final table on 72x40: the winner's row is above the view
        elif action == PREV or action == UP:
            self.move(-1)
        elif action == OK:
            return self.cursor if self.items else DONE
        elif action == BACK:
            return CANCEL
        elif action == MENU:
            return PAUSE
        return NOTHING


# table item kinds
CARD_ITEM = const(0)
DRAW_ITEM = const(1)
PASS_ITEM = const(2)
MAU_ITEM = const(3)     # no longer in the row (Mau is said with the card): kept for the numbering
CATCH_ITEM = const(4)
HINT_ITEM = const(5)
MENU_ITEM = const(6)

# engine.moves layout (the move's kind in bits 9-10, Mau in bit 8, wish in bits 6-7)
_KIND_MASK = const(0x600)
_PLAY = const(0)
_DRAW = const(0x200)
_PASS = const(0x400)
_CATCH = const(0x600)
_MAU = const(0x100)
_JACK = const(11)
_NO_CARD = const(255)
_MAX_HAND = const(120)      # cards a hand may hold when the table does not say (deck size)
_MORE_ITEMS = const(10)     # room after the cards for Draw, Pass, Catch, Hint and Menu


def sort_cards(cards, n, by_rank=False):
    """Order cards[0:n] in place for the eye: by suit then rank, or (`by_rank`) by rank
    then suit. An insertion sort: hands are short, and it allocates nothing."""
    for i in range(1, n):
        c = cards[i]
        key = (c & 15) << 2 | c >> 4 if by_rank else c
        j = i - 1
        while j >= 0:
            d = cards[j]
            if ((d & 15) << 2 | d >> 4 if by_rank else d) <= key:
                break
            cards[j + 1] = d
            j -= 1
        cards[j + 1] = c


class TableScreen:
    """The table as the viewer may see it, and the viewer's hand row with its cursor.

    The hand row holds the viewer's cards, sorted (`by_rank`: by rank, else by suit),
    then action items (Draw or Pass, Catch <name>, Hint, Menu). Fields the painter
    reads: players, names, counts, mau, turn, viewer, top, wish, pending, direction,
    draw_size, hand[0:hand_n], playable[0:hand_n], item_kind/item_arg[0:item_n], cursor,
    scroll, fit, status (lines), status_top, status_fit, hint, my_turn. `cards`: the
    most a hand can hold (the deck's size). `shown` counts the views taken: the seats' fields
    and the hand row's arrays change only then (the painter looks at them only after one).
    """

    kind = "table"

    def __init__(self, names, fit=8, cols=30, status_fit=2, cards=_MAX_HAND, by_rank=False):
        self.name = "table"
        self.names = names
        self.players = len(names)
        self.counts = bytearray(6)
        self.mau = bytearray(6)
        self.viewer = 0
        self.turn = 0
        self.top = _NO_CARD
        self.wish = -1
        self.pending = 0
        self.direction = 1
        self.draw_size = 0
        self.hand = bytearray(cards)           # a hand holds at most the deck
        self.hand_n = 0
        self.playable = bytearray(cards)
        self.item_kind = bytearray(cards + _MORE_ITEMS)
        self.item_arg = bytearray(cards + _MORE_ITEMS)
        self.item_n = 0
        self.cursor = 0
        self.scroll = 0
        self.fit = fit
        self.cols = cols
        self.status_fit = status_fit
        self.status = []
        self.status_top = 0
        self.hint = -1
        self.my_turn = False
        self.moves = None
        self.move_n = 0
        self.over = False
        self.by_rank = by_rank
        self.shown = 0     # views taken: the seats and the hand row's arrays change only then

    def show(self, view, viewer, moves, n, my_turn):
        """Take what `viewer` may see (an engine View) and their legal moves now; the
        cursor stays on the card (or the kind of item) it was on."""
        kept, arg = -1, 0
        if self.cursor < self.item_n:
            kept, arg = self.item_kind[self.cursor], self.item_arg[self.cursor]
            if kept == CARD_ITEM:
                arg = self.hand[arg]
        self.viewer, self.my_turn = viewer, my_turn
        self.moves, self.move_n = moves, n
        self.shown = (self.shown + 1) & 0xFFFFF
        self.players = view.players()
        for p in range(self.players):
            self.counts[p] = view.count(p)
            self.mau[p] = 1 if view.said_mau(p) else 0
        self.turn = view.turn()
        self.top = view.top()
        wish = view.wish()
        self.wish = -1 if wish is None or wish < 0 or wish > 3 else wish
        self.pending = view.pending()
        self.direction = view.direction()
        self.draw_size = view.draw_size()
        self.over = view.is_over()
        self.hand_n = view.hand_into(viewer, self.hand) if viewer >= 0 else 0
        sort_cards(self.hand, self.hand_n, self.by_rank)
        self._mark_playable()
        self._build_items()
        self._restore_cursor(kept, arg)

    def _mark_playable(self):
        """playable[i] = 1 when some legal move plays hand card i."""
        for i in range(self.hand_n):
            c = self.hand[i]
            ok = 0
            if self.my_turn:
                for k in range(self.move_n):
                    m = self.moves[k]
                    if m & _KIND_MASK == _PLAY and m & 0x3F == c:
                        ok = 1
                        break
            self.playable[i] = ok

    def _build_items(self):
        """Cards, then Draw/Pass, each Catch, Hint and Menu."""
        n = 0
        for i in range(self.hand_n):
            self.item_kind[n], self.item_arg[n] = CARD_ITEM, i
            n += 1
        for k in range(self.move_n):
            m = self.moves[k]
            kind = m & _KIND_MASK
            if kind == _DRAW:
                self.item_kind[n], self.item_arg[n] = DRAW_ITEM, 0
                n += 1
            elif kind == _PASS:
                self.item_kind[n], self.item_arg[n] = PASS_ITEM, 0
                n += 1
            elif kind == _CATCH:
                self.item_kind[n], self.item_arg[n] = CATCH_ITEM, m & 7
                n += 1
        if self.my_turn:
            self.item_kind[n], self.item_arg[n] = HINT_ITEM, 0
            n += 1
        self.item_kind[n], self.item_arg[n] = MENU_ITEM, 0
        n += 1
        self.item_n = n

    def _restore_cursor(self, kind, arg):
        """Put the cursor back on the card `arg` (kind CARD_ITEM) or the item of `kind` it
        was on (-1: nothing yet), else where it was in the row."""
        for i in range(self.item_n):
            if self.item_kind[i] == kind and (kind != CARD_ITEM or self.hand[self.item_arg[i]] == arg):
                self.cursor = i
                self._follow()
                return
        if self.cursor >= self.item_n:
            self.cursor = self.item_n - 1
        if self.my_turn and kind < 0:
            self.cursor = self.first_playable()
        self._follow()

    def first_playable(self):
        """Where a turn starts: the first playable card that is not a Jack (Jacks are
        worth keeping), else a playable Jack, else Draw or Pass, else 0."""
        jack = -1
        for i in range(self.hand_n):
            if self.playable[i]:
                if self.hand[i] & 15 != _JACK:
                    return i
                if jack < 0:
                    jack = i
        if jack >= 0:
            return jack
        for i in range(self.item_n):
            if self.item_kind[i] in (DRAW_ITEM, PASS_ITEM):
                return i
        return 0

    def catch_item(self):
        """Index of the first Catch item, or -1."""
        for i in range(self.item_n):
            if self.item_kind[i] == CATCH_ITEM:
                return i
        return -1

    def _follow(self):
        """Scroll the row so the cursor is visible."""
        if self.cursor < self.scroll:
            self.scroll = self.cursor
        elif self.cursor >= self.scroll + self.fit:
            self.scroll = self.cursor - self.fit + 1
        last = max(0, self.item_n - self.fit)
        if self.scroll > last:
            self.scroll = last

    def say(self, text):
        """Put `text` on the status line (wrapped to the screen's width)."""
        self.status = wrap(text, self.cols) if text else []
        self.status_top = 0

    def status_pages(self):
        """How many pages the status text takes."""
        return max(1, (len(self.status) + self.status_fit - 1) // self.status_fit)

    def turn_status_page(self):
        """Show the next page of a long status text; False when it wrapped round."""
        self.status_top += self.status_fit
        if self.status_top >= len(self.status):
            self.status_top = 0
            return False
        return True

    def move_for(self, item):
        """The legal move the item stands for (a card: without a wish), or -1."""
        kind, arg = self.item_kind[item], self.item_arg[item]
        if kind == CARD_ITEM:
            return self.play_move(self.hand[arg], 0)
        if kind == DRAW_ITEM:
            return self._find(_DRAW, 0x7FF)
        if kind == PASS_ITEM:
            return self._find(_PASS, 0x7FF)
        if kind == CATCH_ITEM:
            return self._find(_CATCH | arg, 0x7FF)
        return -1

    def _find(self, move, mask):
        for k in range(self.move_n):
            if self.moves[k] & mask == move:
                return self.moves[k]
        return -1

    def wishes(self, card):
        """True when playing `card` needs a wished suit (a Jack that is not the last card)."""
        for k in range(self.move_n):
            m = self.moves[k]
            if m & _KIND_MASK == _PLAY and m & 0x3F == card and m & 0xC0:
                return True
        return False

    def asks_mau(self, card):
        """True when playing `card` leaves one card: the player says Mau with it, or not."""
        return self._find(card | _MAU, _KIND_MASK | _MAU | 0x3F) >= 0

    def play_move(self, card, wish, mau=False):
        """The legal play of `card` with `wish`, saying Mau when `mau` and the play can;
        or -1."""
        best = -1
        for k in range(self.move_n):
            m = self.moves[k]
            if m & _KIND_MASK != _PLAY or m & 0x3F != card or (m >> 6 & 3) != wish:
                continue
            if bool(m & _MAU) == mau:
                return m
            best = m
        return best

    def on(self, action):
        """NEXT/PREV move along the row; OK chooses the item (the app acts on it)."""
        if self.item_n == 0:      # no hand shown (nobody has taken the device yet)
            return PAUSE if action == MENU or action == BACK else NOTHING
        if action == NEXT or action == DOWN:
            self.cursor = (self.cursor + 1) % self.item_n
        elif action == PREV or action == UP:
            self.cursor = (self.cursor - 1) % self.item_n
        elif action == OK:
            return self.cursor
        elif action == MENU or action == BACK:
            return PAUSE
        else:
            return NOTHING
        self.hint = -1
        self._follow()
        return NOTHING


# made-up names: the setup gives them to seats without a name of their own, and players
# who join between rounds take the first free one
HUMAN_NAMES = ("Anna", "Ben", "Cleo", "Dan", "Eva", "Finn")
AI_NAMES = ("Greta", "Hugo", "Ida", "Jonas", "Karl", "Lena")
