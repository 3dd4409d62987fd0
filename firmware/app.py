"""The app: the flows of a game on the handheld, and its main loop.

`App(board, canvas, store, now_ms, painter=None)`: without a painter it draws on `canvas`
with firmware.paint's framebuf Painter (imported only then). Per frame the loop calls
`handle(event)` for each key event (firmware.buttons), then `tick(now_ms)`, then sends
each box of `canvas.take_boxes()` to the display; it stops when `done`. Flows: title (Continue /
New game), setup (with the players' names), the
table with pass-and-play covers and stories, AI turns at a readable pace, the Jack's
suit picker, pause menu (rules, save and quit), round end, join/leave, match end.
"""

from array import array

from engine.compat import const, ticks_add, ticks_diff
from firmware import buttons
from firmware import screens as S

AI_PACE_MS = const(900)     # how long each AI action stays on screen
_PAGE_MS = const(700)       # a page of a long status line on a small screen
_MAX_MOVES = const(40)      # engine.moves.MAX_MOVES: the most legal moves a seat can have


def framebuf_sizes(canvas):
    """The Sizes firmware.paint's painter gives `canvas` (a firmware.gfx.Canvas)."""
    from firmware import paint
    from firmware.gfx import LARGE
    return S.Sizes(canvas.size == LARGE, paint.list_fit(canvas), paint.title_fit(canvas),
                   paint.list_cols(canvas), paint.status_cols(canvas),
                   paint.status_fit(canvas), paint.hand_fit(canvas))


def sizes_of(painter):
    """The painter's own Sizes (`painter.sizes`), else the framebuf painter's on its canvas."""
    sizes = getattr(painter, "sizes", None)
    return sizes if sizes is not None else framebuf_sizes(painter.c)


class App:
    """Screens, the game and the store, driven by key events and the clock."""

    def __init__(self, board, canvas, store, now_ms=0, playouts=None, seed=None, painter=None):
        self.layout = board.LAYOUT
        self.canvas = canvas
        self.store = store
        if painter is None:          # the framebuf painter, only when none is given
            from firmware.paint import Painter
            painter = Painter(canvas)
        self.painter = painter
        self.animate = getattr(painter, "animate", None)   # a painter's motion, every frame
        self.sizes = sizes_of(painter)
        self.now = now_ms
        self.playouts = playouts     # tests: AI budget as a count (deterministic)
        self.seed = seed
        self.done = False
        self.game = None
        self.table = None
        self.due = now_ms            # when the next AI action may be shown
        self.page_due = now_ms
        self.moves = array("H", range(_MAX_MOVES))
        self.back_to = None          # the screen a pause menu or picker returns to
        self.picking = -1            # the card the suit picker is for
        self.busy = False            # the game has something due that needs no key
        self.could_catch = False     # the holder had a Catch item at the last refresh
        self.holder = -1             # the seat whose hand the table showed last
        self.title(self._boot_notice())

    # --- screens ---------------------------------------------------------------------

    def show(self, screen):
        """Make `screen` current and draw it."""
        self.screen = screen
        self.painter.paint(screen)

    def title(self, notice=""):
        """The title screen: Continue (when a match is saved), New game, Rules, Quit."""
        items = ["New game", "Quit"]
        if self.store is not None and self.store.has_game():
            items.insert(0, "Continue")
        if self.store is not None and self.store.stats():
            items.insert(-1, "Statistics")
        lines = S.wrap(notice, self.sizes.list_cols) if notice else []
        self.show(S.ListScreen("title", "Mau-Mau", items, lines, self.sizes.title_fit))

    def setup(self):
        """The new-game setup, starting from the last one played (names included)."""
        self.show(S.SetupScreen(self._last_setup(), self.sizes.list_fit, self.sizes.list_cols))

    def pages(self, name, title, text_lines):
        """Text to read, wrapped to the screen."""
        lines = []
        for text in text_lines:
            lines += S.wrap(text, self.sizes.list_cols)
        self.show(S.PagesScreen(name, title, lines, self.sizes.list_fit - 1))

    def pause(self):
        """The pause menu over the table."""
        if self.screen.name not in ("pause", "rules"):
            self.back_to = self.screen
        self.show(S.ListScreen("pause", "Paused", ["Resume", "Rules", "Save and quit"],
                               (), self.sizes.list_fit))

    # --- input -----------------------------------------------------------------------

    def handle(self, event):
        """One key event from the buttons."""
        action = buttons.action(self.layout, event)
        if action:
            self.act(action)

    def act(self, action):
        """One action (NEXT, PREV, OK, BACK, MENU, UP, DOWN)."""
        sc = self.screen
        got = sc.on(action)
        name = sc.name
        if name == "table":
            self._on_table(action, got)
        elif name == "title":
            self._on_title(got)
        elif name == "setup":
            if got == sc.START:
                self._start(sc.setup)
            elif got == sc.NAME:
                self.back_to = sc
                self.show(S.NameScreen(sc.naming, sc.own[sc.naming], self.sizes.list_fit))
            elif got == S.CANCEL or got == S.PAUSE:
                self.title()
        elif name == "name":
            if got == S.DONE:
                self.back_to.rename(sc.seat, sc.text)
            if got in (S.DONE, S.CANCEL, S.PAUSE):
                self.show(self.back_to)
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
        elif name == "picker":
            self._on_picker(got)
        elif name == "pause":
            self._on_pause(got)
        elif name == "rules":
            if got in (S.DONE, S.CANCEL, S.PAUSE):
                self.pause()
        elif name == "stats":
            if got in (S.DONE, S.CANCEL, S.PAUSE):
                self.title()
        elif name == "scores":
            if got >= 0 and self.game.match_over():
                self._final()
            elif got >= 0:
                self._between()
        elif name == "between":
            self._on_between(got)
        elif name == "final":
            if got == 0:
                self.setup()
            elif got == 1:
                self.title()
        self.painter.paint(self.screen)

    def _on_title(self, got):
        if got < 0:
            return
        item = self.screen.items[got]
        if item == "Continue":
            self._continue()
        elif item == "New game":
            self.setup()
        elif item == "Statistics":
            self.pages("stats", "Statistics", self._stats_lines())
        elif item == "Quit":
            self.done = True

    def _on_pause(self, got):
        if got == 0 or got == S.CANCEL or got == S.PAUSE:
            self.show(self.back_to)
        elif got == 1:
            self.pages("rules", "Rules", S.rules_lines(self.game.rules))
        elif got == 2:
            if self.game is not None:
                self._save()
            self.game = None
            self.title()

    # --- the game --------------------------------------------------------------------

    def _start(self, setup):
        """Deal a new match for `setup` (remembered as the last setup)."""
        from firmware.game import Game
        if self.store is not None:
            self.store.save_settings(setup)
        self.game = Game(setup, self.seed, self.playouts)
        self._begin()

    def _begin(self):
        """Play on with self.game: a fresh table screen, then whatever is due."""
        game = self.game
        game.on_change = self._on_change
        f = self.sizes
        names = [game.name(k) for k in range(game.players())]
        self.table = S.TableScreen(names, f.hand_fit, f.status_cols, f.status_fit,
                                   game.rules.deck_size())
        self.holder = -1
        self._save()
        self._next()

    def _on_change(self, game):
        """Every completed move and every change between rounds is saved at once."""
        self._save()

    def _next(self):
        """Show what comes next: round end, a cover, or the table."""
        game = self.game
        self.busy = True
        if game.round_over():
            self._scores()
        elif game.needs_cover():
            self.show(S.CoverScreen(game.cover_name(), game.to_move()))
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
        if holder != self.holder:     # a new player took the device: start at a fitting card
            self.holder = holder
            t.scroll = 0
            t.cursor = t.first_playable() if t.my_turn else 0
            t._follow()
        catch = t.catch_item()
        if catch >= 0 and not self.could_catch:
            t.cursor = catch          # a forgotten Mau: the catch is one OK away
            t._follow()
        self.could_catch = catch >= 0

    def _to_table(self):
        self._refresh()
        if self.table.my_turn and not self.table.status:
            self.table.say(self._item_text())
        self.show(self.table)

    def _uncover(self):
        """The player took the device: their story since their last turn, then the table."""
        game = self.game
        game.uncover()
        seat = game.to_move()
        self.table.cursor = 0
        self.table.say("")
        lines = game.story(seat)
        if lines:
            self.pages("story", "%s, since your turn" % game.name(seat)
                       if self.sizes.wide else game.name(seat), lines)
        else:
            self._to_table()

    def frame(self, now_ms, keys):
        """One turn of a device loop: poll the keys, handle each of their events, tick."""
        keys.poll(now_ms)
        event = keys.get()
        while event >= 0:
            self.handle(event)
            event = keys.get()
        self.tick(now_ms)

    def tick(self, now_ms):
        """Advance the clock: AI actions at their pace, long status lines page by page."""
        self.now = now_ms
        if self.animate is not None:
            self.animate(now_ms)
        if self.game is None or self.screen is not self.table:
            return
        t = self.table
        if len(t.status) > t.status_fit and ticks_diff(now_ms, self.page_due) >= 0:
            t.turn_status_page()
            self.page_due = ticks_add(now_ms, _PAGE_MS)
            self.painter.paint(t)
        if not self.busy or ticks_diff(now_ms, self.due) < 0:
            return
        game = self.game
        if game.ai_to_act():
            game.step_ai()
            self._shown_move(now_ms)
        elif game.round_over() or game.needs_cover():
            self._next()
        else:
            self.busy = False    # the human holding the device is to move: wait for keys

    def _shown_move(self, now_ms):
        """Put the last move on the table and hold it there long enough to read."""
        t = self.table
        self._refresh()
        t.say(". ".join(self.game.last_lines()))
        pace = max(AI_PACE_MS, _PAGE_MS * t.status_pages())
        self.due = ticks_add(now_ms, pace)
        self.page_due = ticks_add(now_ms, _PAGE_MS)
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
            elif t.wishes(card):
                self._pick_suit(card)
            else:
                self._play(t.play_move(card, 0))
        elif kind == S.DRAW_ITEM or kind == S.PASS_ITEM:
            self._play(t.move_for(got))
        elif kind == S.MAU_ITEM:
            t.mau_on = not t.mau_on
            t.say(self._item_text())
        elif kind == S.CATCH_ITEM:
            self._catch()
        elif kind == S.HINT_ITEM:
            self._hint()
        elif kind == S.MENU_ITEM:
            self.pause()

    def _play(self, move):
        """The human to move makes `move` (always one of their listed legal moves)."""
        if move < 0:
            return
        self.table.mau_on = False
        self.game.play(move)
        self._after_human()

    def _catch(self):
        """The holder calls out the player who forgot to say Mau."""
        self.game.catch(self.table.viewer)
        self._after_human()

    def _after_human(self):
        t, game = self.table, self.game
        self.busy = True
        t.hint = -1
        self._refresh()
        t.say(". ".join(game.last_lines()))
        between = game.round_over() or game.needs_cover()   # the next screen waits its pace
        self.due = ticks_add(self.now, AI_PACE_MS if between or game.ai_to_act() else 0)
        self.page_due = ticks_add(self.now, _PAGE_MS)
        if not between and t.my_turn:
            t.cursor = t.first_playable()
            t._follow()

    def _hint(self):
        """Point the cursor at the move the AI suggests."""
        from engine import moves as mv
        from engine.text import long_name
        t = self.table
        move = self.game.hint()
        card = move & 63 if move is not None and mv.kind(move) == mv.PLAY else -1
        for i in range(t.item_n):
            if t.move_for(i) == move or (t.item_kind[i] == S.CARD_ITEM
                                         and t.hand[t.item_arg[i]] == card):
                t.cursor = i
                t.hint = i
                t._follow()
                break
        if move is None:
            t.say("No hint.")
        elif card >= 0:
            t.say("Hint: play %s" % long_name(card))
        else:
            t.say("Hint: " + self._item_text())

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
        if kind == S.MAU_ITEM:
            return "Say Mau with the play: %s" % ("on" if t.mau_on else "off")
        if kind == S.CATCH_ITEM:
            return "Catch %s: forgot Mau" % t.names[arg]
        if kind == S.HINT_ITEM:
            return "Hint"
        return "Menu"

    def _pick_suit(self, card):
        """The Jack's suit picker."""
        self.picking = card
        sc = S.ListScreen("picker", "Wish a suit", ["Clubs", "Spades", "Hearts", "Diamonds"],
                          (), self.sizes.list_fit)
        sc.suits = (0, 1, 2, 3)
        self.show(sc)

    def _on_picker(self, got):
        if got >= 0:
            move = self.table.play_move(self.picking, got)
            self.screen = self.table     # painted once the move is made
            self._play(move)
        elif got == S.CANCEL or got == S.PAUSE:
            self.show(self.table)

    # --- between rounds ----------------------------------------------------------------

    def _scores(self):
        """Round end: points of the round and the match table."""
        game = self.game
        rows = game.results()
        w = game.round_winner()
        head = "%s wins" % game.player_name(w) if w is not None else "Nobody wins"
        if self.sizes.wide:
            head = "Round %d: %s" % (game.rounds_played(), head)
        self.show(S.ListScreen("scores", head, ["Continue"], self._score_lines(rows),
                               self.sizes.list_fit))

    def _score_lines(self, rows):
        """Name, round points and total, aligned to the screen's width."""
        width = self.sizes.list_cols
        out = []
        for row in rows:
            name, pts, total = row[0], row[1], row[2]
            right = "%3d %4d" % (pts, total) if pts is not None else "%4d" % total
            out.append(name[:width - len(right) - 1] + " " * max(1, width - len(name) - len(right)) + right)
        return out

    def _between(self, cursor=0):
        """Join or leave between rounds, then deal."""
        game = self.game
        items = ["Deal next round"]
        self._between_acts = [("deal", 0)]
        if len(game.seated()) < game.rules.max_players:
            name = self._free_name()
            items.append("Join: %s (AI)" % name)
            self._between_acts.append(("join", 3))
            items.append("Join: %s (human)" % name)
            self._between_acts.append(("join", 0))
        if len(game.seated()) > game.rules.min_players:
            for p in game.seated():
                items.append("Leave: %s" % game.player_name(p))
                self._between_acts.append(("leave", p))
        sc = S.ListScreen("between", "Next round", items, (), self.sizes.list_fit, cursor)
        self.show(sc)

    def _free_name(self):
        game = self.game
        taken = [game.player_name(p) for p in range(len(game.names))]
        for name in S.AI_NAMES + S.HUMAN_NAMES:
            if name not in taken:
                return name
        return "P%d" % len(taken)

    def _on_between(self, got):
        if got < 0:
            return
        what, arg = self._between_acts[got]
        game = self.game
        if what == "deal":
            game.next_round()
            self._begin()
        elif what == "join":
            game.join(self._free_name(), arg)
            self._between(got)
        else:
            game.leave(arg)
            self._between(0)

    def _final(self):
        """Match end: the winner and the final table."""
        game = self.game
        w = game.winner()
        totals = game.totals()
        order = sorted(game.seated(), key=lambda p: totals[p])
        rows = [(game.player_name(p), None, totals[p]) for p in order]
        head = "%s wins!" % game.player_name(w) if w is not None else "Match over"
        self.game = None
        if self.store is not None:
            self.store.clear_game()
        self.show(S.ListScreen("final", head, ["New game", "Title"],
                               self._score_lines(rows), self.sizes.list_fit))

    # --- the store -------------------------------------------------------------------

    def _boot_notice(self):
        """Look at the saves once at boot; words for the player when one was damaged."""
        if self.store is None:
            return ""
        from firmware.save import DAMAGED
        _, settings = self.store.load_settings()
        _, match = self.store.load_game(self.playouts)
        if DAMAGED in (settings, match):
            return "Save damaged, starting fresh"
        return ""

    def _stats_lines(self):
        """Each player's lifetime record: games and wins, rounds and rounds won, points."""
        stats = self.store.stats()
        lines = []
        for name in sorted(stats):
            row = stats[name]
            lines.append("%s: matches %d, won %d; rounds %d, won %d; points %d"
                         % (name, row[0], row[1], row[2], row[3], row[4]))
        return lines

    def _continue(self):
        """Resume the saved match at its last completed move."""
        game, _ = self.store.load_game(self.playouts)
        if game is None:
            self.title("Save damaged, starting fresh")
            return
        self.game = game
        self._begin()

    def _save(self):
        """Save the match; a full or failing flash costs the save, never the game."""
        if self.store is not None and self.game is not None:
            try:
                self.store.save_game(self.game)
            except OSError:
                if self.table is not None:
                    self.table.say("Could not save: storage full?")

    def _last_setup(self):
        """The setup played last (remembered by the store), else you against three AIs."""
        if self.store is not None:
            setup, _ = self.store.load_settings()
            if _sound_setup(setup):
                return setup
        return S.default_setup()

def _sound_setup(setup):
    """True when a remembered setup can be offered again (else the default is)."""
    try:
        from firmware.game import rules_of
        levels = [seat[1] for seat in setup["seats"]]
        rules_of(setup).check_players(len(levels))
        for name, level in setup["seats"]:
            if level not in (0, 1, 2, 3, 4) or not isinstance(name, str):
                return False
            if not 0 < len(name) <= S.MAX_NAME:
                return False
        return setup.get("match", "round") in S.MATCH_KINDS and isinstance(setup["options"], dict)
    except (ValueError, KeyError, TypeError, AttributeError, IndexError):
        return False
