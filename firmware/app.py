"""The app: the flows of a game on the handheld, and its main loop.

`App(board, canvas, store, now_ms, painter=None, sound=None, notice=None)`: without a
painter it draws on `canvas` with firmware.paint's framebuf Painter (imported only then);
`sound` is the board's firmware.sound.Sound, or None; `notice`, the title's words in place
of the boot's look at the saves (firmware.rescue's). Per frame the loop calls
`handle(event)` for each key event (firmware.buttons), then `tick(now_ms)`, then sends
each box of `canvas.take_boxes()` to the display; it stops when `done`. Flows: title (Continue /
New game), setup (with the players' names), the
table with pass-and-play covers and stories, AI turns at a readable pace, the Jack's
suit picker, pause menu (rules, save and quit); round end, join/leave and match end are
firmware.between's, loaded between rounds only (as firmware.setup for the setup).
"""

from engine.compat import const, forget, ticks_add, ticks_diff
from firmware import buttons
from firmware import screens as S

AI_PACE_MS = const(900)     # how long each AI action stays on screen
_PAGE_MS = const(700)       # a page of a long status line on a small screen
_PAUSE_MS = const(900)      # the longest an AI may think on once its move is due (game.think)
_MAU_OFF = const(2)         # engine.rules.MAU_OFF: forgetting Mau costs nothing


class App:
    """Screens, the game and the store, driven by key events and the clock (its state,
    each attribute with what it holds, is set by firmware.opening's open_app)."""

    def __init__(self, board, canvas, store, now_ms=0, playouts=None, seed=None, painter=None,
                 sound=None, notice=None):
        from firmware.opening import open_app   # run once, then let go (rescue runs it again)
        open_app(self, board, canvas, store, now_ms, playouts, seed, painter, sound)
        self.title(self._boot_notice() if notice is None else notice)
        forget("firmware.opening")

    # --- screens ---------------------------------------------------------------------

    def show(self, screen, later=False):
        """Make `screen` current and draw it; `later`: on a device loop's next frame (what
        making it took is garbage then, before the drawing loads its code)."""
        self.screen = self.shown = screen
        if later and self.looped:
            self.dealing = _PAINT
            self.painter.let_go()
        else:
            self.painter.paint(screen)

    def make(self, name):
        """Leave the screen shown for the one module `name` makes (its `made(app)`): on a
        device loop on the next frame, once this frame's garbage and the drawing code of
        the screen left are gone, and it is drawn on the frame after (show's `later`)."""
        if not self.looped:
            __import__(name, None, None, ("made",)).made(self)
            return
        self.painter.let_go()
        self.shown = self.screen         # nothing to draw on this frame
        self.making = name
        self.dealing = _MAKE

    def title(self, notice=""):
        """The title screen (firmware.title: its code loaded while it shows)."""
        from firmware.title import screen
        self.show(screen(self, notice))

    def pages(self, name, title, texts):
        """Texts to read, wrapped to the screen a page at a time, page breaks between them."""
        from firmware.pages import PagesScreen   # its code kept while the pages are
        forget("firmware.pages")
        self.show(PagesScreen(name, title, texts, self.sizes.list_cols, self.sizes.list_fit - 1),
                  True)

    def pause(self, cursor=0):
        """The pause menu over the table (or a cover, a story), on row `cursor` (or the
        item of those words): firmware.pause's, its code loaded while it shows; drawn on a
        device loop's next frame (the table's drawing, or the pages left, garbage by then)."""
        from firmware.pause import screen
        self.show(screen(self, cursor), True)

    # --- input -----------------------------------------------------------------------

    def handle(self, event):
        """One key event from the buttons."""
        action = buttons.action(self.layout, event)
        if action:
            self.act(action)

    def act(self, action):
        """One action (NEXT, PREV, OK, BACK, MENU, UP, DOWN); none while a deal is held."""
        if self.dealing is not None:
            return
        sc = self.screen
        got = sc.on(action)
        name = sc.name
        self.shown = None
        if self.link is not None and self.link.act(self, sc, got):
            self._drawn()
            return
        if name == "table":
            self._on_table(action, got)
        elif name == "title":
            from firmware.title import take
            take(self, got)
        elif name in ("setup", "names", "name", "refused"):   # and the screens it opened
            from firmware.setup import take
            take(self, got)
        elif name == "cover":
            if got == S.DONE:
                self._uncover()
            elif got == S.PAUSE:
                self.pause()
        elif name == "story":
            if got == S.DONE or got == S.CANCEL:
                self._to_table()
            elif got == S.PAUSE:
                self.pause()
        elif name == "recap":
            if got in (S.DONE, S.CANCEL, S.PAUSE):
                self.show(self.table)
        elif name == "picker":           # the Jack's wish: then the Mau question
            if got >= 0:
                _ask().ask_mau(self, got)
            elif got == S.CANCEL or got == S.PAUSE:
                self.show(self.table)
        elif name == "mau":
            if got >= 0:
                self.screen = self.table     # painted once the move is made
                move = self.table.play_move(self.picking, self.wish, got == 0)
                if self.looped:              # made on the next frame: the question's
                    self.painter.let_go()    # drawing code is garbage by then
                    self.shown = self.screen
                    self.dealing = move
                else:
                    self._play(move)
            elif got == S.CANCEL or got == S.PAUSE:
                self.show(self.table)
        elif name == "pause":
            from firmware.pause import take
            take(self, got)
        elif name == "rules":
            if got in (S.DONE, S.CANCEL, S.PAUSE):
                self.pause("Rules")
        elif name == "stats":
            if got in (S.DONE, S.CANCEL, S.PAUSE):
                self.title()
        elif name == "scores":
            if got == S.DONE:            # read: the final table, or who joins or leaves
                self.make("firmware.between")
        elif name == "between":
            _between().on_seats(self, got)
        elif name == "final" and got >= 0:
            forget("firmware.between")
            if got == 0:
                _start().open_setup(self)
            else:
                self.title()
        self._drawn()
        if self.dealing is not None:     # nothing more to draw before the deal
            forget("firmware.paint_list")

    def _drawn(self):
        """An action done: the screen on show drawn, unless show() drew that very screen
        during the action (a screen is shown once the action has changed it)."""
        if self.shown is not self.screen:
            self.painter.paint(self.screen)
        self.shown = None

    # --- the game --------------------------------------------------------------------

    def _start(self, setup):
        """Deal a new match for `setup` (remembered as the last setup)."""
        from firmware.game import Game
        if self.store is not None:
            self.store.save_settings(setup)
        self._release()
        self.game = Game(setup, self.seed, self.playouts)
        self._begin()

    def _begin(self, save=True):
        """Play on with self.game: a fresh table screen, saved (`save` False: the match is
        as saved, Continue's, or a next round saved as it was dealt), then whatever is due."""
        forget("firmware.between")        # a round is dealt: the code between rounds goes
        game = self.game
        game.on_change = self._save
        f = self.sizes
        names = [game.name(k) for k in range(game.players())]
        self.table = S.TableScreen(names, f.hand_fit, f.status_cols, f.status_fit,
                                   game.rules.deck_size(), self._by_rank())
        self.holder = -1
        self.placed = self.recapped = -1
        if save:
            self._save()
        self._next()

    def _next(self):
        """Show what comes next: round end, a cover, or the table."""
        game = self.game
        self.busy = True
        if game.round_over():
            self.table = None        # the round's table goes: the next deal makes its own
            _between().scores(self)
        elif game.needs_cover():
            from firmware.pages import CoverScreen   # kept while the cover is
            forget("firmware.pages")
            self.show(CoverScreen(game.cover_name(), game.to_move()))
        else:
            self._to_table()

    def _refresh(self):
        """Fill the table screen from the game, as the holder may see it."""
        game, t = self.game, self.table
        holder = game.holder_seat()
        turn = game.to_move()
        view = game.hand_view()
        if view is not None:
            mine = turn == holder and not game.ai_to_act()
            t.show(view, holder, self.moves, game.legal(holder, self.moves), mine)
        else:
            t.show(game.view(turn if turn >= 0 else 0), -1, self.moves, 0, False)
            t.item_n = 0
            t.cursor = 0
        if holder != self.holder:     # a new player took the device
            self.holder = holder
            self.placed = -1
            t.scroll = 0
            t.cursor = 0
            t._follow()
        if t.my_turn and game.n_moves != self.placed:   # a turn begins: on a card that fits
            self.placed = game.n_moves
            t.cursor = t.first_playable()
            t._follow()
        catch = t.catch_item()
        if catch >= 0 and not self.could_catch:
            t.cursor = catch          # a forgotten Mau: the catch is one OK away
            t._follow()
        self.could_catch = catch >= 0

    def _to_table(self):
        self._refresh()
        self.show(self.table)

    def _uncover(self):
        """The player took the device: their story since their last turn, then the table."""
        game = self.game
        game.uncover()
        seat = game.to_move()
        self.table.cursor = 0
        self.table.say("")
        self.recapped = game.n_moves
        lines = game.story(seat)
        if lines:
            self.pages("story", self._story_title(seat), lines)
        else:
            self._to_table()

    def _story_title(self, seat):
        """The story's title: Anna, since your turn (a narrow screen: the name alone), or
        Since your turn when one human plays."""
        name = self.game.name(seat)
        if name == "You" or self.game.solo():
            return "Since your turn"
        return "%s, since your turn" % name if self.sizes.wide else name

    def _recap(self):
        """The holder's turn begins: the story since their last move takes the place of
        the last move's words on the status lines (never of a notice), once a turn (the
        pause menu shows it as a page); else the status names the item under the cursor."""
        t, game = self.table, self.game
        if self.recapped != game.n_moves and (not t.status or t.status is self.said):
            self.recapped = game.n_moves
            lines = game.story(t.viewer)
            if lines:
                t.say(". ".join(lines))
                return
        if not t.status:
            t.say(self._item_text())

    def frame(self, now_ms, keys):
        """One turn of a device loop: poll the keys, handle each of their events, tick."""
        self.next_frame()
        keys.poll(now_ms)
        event = keys.get()
        while event >= 0:
            self.handle(event)
            event = keys.get()
        self.tick(now_ms)

    def next_frame(self):
        """A device loop's new frame: a match or round started on the last one is dealt
        now, the setup screen or the code between rounds let go between (a collection
        there takes them first)."""
        self.looped = True
        if self.dealing is not None:
            due, self.dealing = self.dealing, None
            self.dealt = True
            if due is self.game:
                due.next_round()               # saved there, through on_change
                self._begin(False)
            elif due is _BEGIN:                # a match loaded on the last frame
                self._begin(False)
            elif due is _PAINT:                # a screen made on the last frame
                self.painter.paint(self.screen)
            elif due is _MAKE:                 # a screen to make: its code loaded now
                __import__(self.making, None, None, ("made",)).made(self)
            elif type(due) is int:             # the move the Mau question was answered for
                self._play(due)
                self.painter.paint(self.screen)
            elif type(due) is tuple:           # a match read, its start's code loaded:
                from firmware.resume import play_on    # rebuilt (load_game lets it go)
                play_on(self, self.store.load_game(self.playouts, pieces=due)[0])
            elif type(due) is list and type(due[0]) is dict:   # a setup, its code loaded
                self._start(due[0])                            # on the last frame: dealt
            else:                              # a start's earlier steps (firmware.start's)
                _start().step(self, due)

    def hold(self, due):
        """Deal `due` on the next frame: a setup's new match (the frame after loads the
        game's code, the one after that deals), self.game's next round, self.store's saved
        match, the match read from it (a tuple) or _BEGIN (self.game as loaded) (the Mau
        question's answer, a move, is held in `dealing` the same way, by act). The
        screen stays as it is shown (a setup screen is let go for a list of its rows,
        "dealing": nothing to redraw); keys wait for the deal."""
        sc = self.screen
        if type(sc) is not S.ListScreen:
            held = S.ListScreen("dealing", sc.title, sc.items, sc.lines, sc.fit, sc.cursor)
            held.top = sc.top
            self.show(held)
        self.dealing = due

    def tick(self, now_ms):
        """Advance the clock: AI actions at their pace, long status lines page by page."""
        self.now = now_ms
        dealt, self.dealt = self.dealt, False
        if self.sound is not None:
            self.sound.tick(now_ms)
        if self.painter.flying >= 0:     # a card on its way to the pile: its next step
            self.painter.animate(now_ms)
        if self.link is not None:
            self.link.tick(now_ms, self)
        if self.game is None or self.screen is not self.table:
            return
        t = self.table
        if t.status is not self.paged:       # a new text: its first page shows in full
            self.paged = t.status
            self.page_due = ticks_add(now_ms, _PAGE_MS)
        elif len(t.status) > t.status_fit and ticks_diff(now_ms, self.page_due) >= 0:
            t.turn_status_page()
            self.page_due = ticks_add(now_ms, _PAGE_MS)
            self.painter.paint(t)
        if dealt:         # the deal's garbage goes before the first AI move makes its own
            return
        game, store = self.game, self.store
        if store is not None and not store.counted(game):
            store.count(game)     # a round or the match ended: counted on a frame of its own
            return
        if not game.think() and game.ai_to_act() and ticks_diff(now_ms, self.due) < _PAUSE_MS:
            return    # a slice of search a frame (the AI due, else the hint): the AI waits
        if not self.busy or ticks_diff(now_ms, self.due) < 0:
            return
        if game.ai_to_act():
            game.step_ai(False)         # the move on the table, held long enough to read
            if self.sound is not None:
                self.sound.after_move(game)
            self._refresh()
            t.say(". ".join(game.last_lines()))
            self.said = t.status
            self.due = ticks_add(now_ms, max(AI_PACE_MS, _PAGE_MS * t.status_pages()))
            self.painter.paint(t)
        elif game.round_over() or game.needs_cover():
            self._next()
        else:
            self.busy = False    # the human holding the device is to move: wait for keys
            if self.sound is not None:
                self.sound.your_turn(game)
            if t.my_turn:
                self._recap()
                self.painter.paint(t)

    def _on_table(self, action, got):
        """The table: skip ahead while AIs act; else play, draw, Mau, catch, hint, menu."""
        t, game = self.table, self.game
        if got == S.PAUSE:
            self.pause()
            return
        if game.ai_to_act() or game.round_over() or game.needs_cover():
            if got >= 0 and t.item_kind[got] == S.CATCH_ITEM:
                self._catch()
            elif got >= 0 and t.item_kind[got] == S.MENU_ITEM:
                self.pause()
            elif not self.could_catch:
                self.due = self.now   # any key skips ahead (not while a catch is open)
            return
        if got < 0:
            t.say(self._item_text())
            return
        kind = t.item_kind[got]
        if kind == S.CARD_ITEM:
            card = t.hand[t.item_arg[got]]
            if not t.my_turn or not t.playable[t.item_arg[got]]:
                t.say("That card does not fit." if t.my_turn else "Not your turn.")
            else:
                self._play_card(card, self.hinted if got == t.hint else -1)
        elif kind == S.DRAW_ITEM or kind == S.PASS_ITEM:
            self._play(t.move_for(got))
        elif kind == S.CATCH_ITEM:
            self._catch()
        elif kind == S.HINT_ITEM:
            from firmware.hint import hint   # loaded for the hint alone
            hint(self)
            forget("firmware.hint")
        elif kind == S.MENU_ITEM:
            self.pause()

    def _play_card(self, card, hinted):
        """Play `card`: a Jack asks for a wish, a card that leaves one whether to say Mau
        with it (firmware.ask's questions); `hinted`, the hint's move for it (or -1),
        chooses both beforehand."""
        self.picking = card
        self.hinted = hinted
        t = self.table
        if t.wishes(card) or t.asks_mau(card) and self.game.rules.mau_penalty != _MAU_OFF:
            _ask().ask(self, card)
        else:                    # no question: Mau said where it costs nothing
            self._play(t.play_move(card, 0, t.asks_mau(card)))

    def _play(self, move):
        """The human to move makes `move` (always one of their listed legal moves)."""
        if move < 0:
            return
        self.game.play(move)
        self._after_human()

    def _catch(self):
        """The holder calls out the player who forgot to say Mau."""
        self.game.catch(self.table.viewer)
        self._after_human()

    def _after_human(self):
        t, game = self.table, self.game
        if self.sound is not None:
            self.sound.after_move(game)
        self.busy = True
        t.hint = -1
        self._refresh()
        t.say(". ".join(game.last_lines()))
        self.said = t.status
        between = game.round_over() or game.needs_cover()   # the next screen waits its pace
        self.due = ticks_add(self.now, AI_PACE_MS if between or game.ai_to_act() else 0)
        self.recapped = game.n_moves      # the holder saw their own move

    def _item_text(self):
        """The item under the cursor in words."""
        from engine.text import long_name
        t = self.table
        if t.cursor >= t.item_n:
            return ""
        kind, arg = t.item_kind[t.cursor], t.item_arg[t.cursor]
        if kind == S.CARD_ITEM:
            card = t.hand[arg]
            fits = "" if t.playable[arg] or not t.my_turn else " (does not fit)"
            return long_name(card) + fits
        if kind == S.DRAW_ITEM:
            n = t.pending or 1
            return "Draw %d card%s" % (n, "s" if n > 1 else "")
        if kind == S.PASS_ITEM:
            return "Pass"
        if kind == S.CATCH_ITEM:
            return "Catch %s: forgot Mau" % t.names[arg]
        if kind == S.HINT_ITEM:
            return "Hint"
        return "Menu"

    def _by_rank(self):
        """The hands are shown by rank (the setup's "sort"), else by suit."""
        return self.game.setup.get("sort", "suit") == "rank"

    def _release(self):
        """Let go of the game and its table screen: the next deal never needs room for two."""
        self.game = self.table = self.back_to = None

    # --- the store -------------------------------------------------------------------

    def _boot_notice(self):
        """Words for the title at boot: the saves looked at once (firmware.opening's)."""
        from firmware.opening import boot_notice
        return boot_notice(self)

    def _save(self, game=None):
        """Save the match (also the game's on_change: every completed move and every change
        between rounds is saved at once); a full or failing flash costs the save (the
        table says NOT SAVED until one works again), never the game."""
        if self.store is not None and self.game is not None:
            self.store.save_game(self.game, not self.looped)   # a loop counts in tick
            self.painter.unsaved = self.store.trouble != ""


_BEGIN = "begin"    # App.dealing: play on with the match loaded on the last frame
_PAINT = "paint"    # App.dealing: draw the screen made on the last frame
_MAKE = "make"      # App.dealing: App.making's module makes the next screen


def _between():
    """firmware.between, imported for the end of a round (and let go at the next deal)."""
    from firmware import between
    return between


def _ask():
    """firmware.ask, for a played card's question (it lets itself go once asked)."""
    from firmware import ask
    return ask


def _start():
    """firmware.start, for one step of starting play (it lets itself go)."""
    from firmware import start
    return start
