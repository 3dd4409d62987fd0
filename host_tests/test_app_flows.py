"""The app driven by button events on three screen sizes: whole games, pass-and-play
privacy, AI pace, the suit picker, pause menu, saves, round and match ends."""
import importlib
import sys

import pytest

from firmware import buttons as B
from firmware import screens as S
from firmware.app import App, AI_PACE_MS
from firmware.boxes import BoxCanvas
from firmware.gfx import CARD, HILITE, LARGE, MEDIUM
from firmware.save import Store
from tools.vm import mpvm
from tools.sim.circuitpython import Walker

BOARDS = ("tdisplay", "pico_oled", "thumby")   # 240x135 colour (two buttons), 128x64, 72x40


def board(name):
    return importlib.import_module("board_configs." + name)


class Hands(Walker):
    """Presses the keys that make an action on a board's layout (NEXT, PREV, OK, MENU)."""

    def __init__(self, name, store=None, seed=11):
        self.board = board(name)
        self.canvas = BoxCanvas(self.board.WIDTH, self.board.HEIGHT, self.board.DEPTH)
        self.now = 0
        self.app = App(self.board, self.canvas, store, 0, playouts=8, seed=seed)
        self.app.painter.trace = self.trace = []
        self.frames = 0
        self.check = None   # called with self after every frame
        self.say_mau = "With Mau"   # the answer when a card leaves one

    def press(self, action):
        before = self.frames
        layout = self.board.LAYOUT
        if layout == "two":
            key, kind = {S.NEXT: (B.A, B.CLICK), S.PREV: (B.B, B.CLICK),
                         S.OK: (B.A, B.LONG), S.MENU: (B.B, B.LONG)}[action]
        elif layout == "abxy":
            key, kind = {S.NEXT: (B.Y, B.PRESS), S.PREV: (B.X, B.PRESS),
                         S.OK: (B.A, B.PRESS), S.MENU: (B.B, B.LONG)}[action]
        else:
            key, kind = {S.NEXT: (B.RIGHT, B.PRESS), S.PREV: (B.LEFT, B.PRESS),
                         S.OK: (B.A, B.PRESS), S.MENU: (B.B, B.LONG)}[action]
        self.app.handle(key << 3 | kind)
        self.frame()

    def wait(self, ms):
        end = self.now + ms
        while self.now < end:
            self.now += 50
            self.app.tick(self.now)
            self.frame()

    def frame(self):
        self.frames += 1
        if self.check is not None:
            self.check(self)
        self.canvas.take_boxes()

    @property
    def screen(self):
        return self.app.screen

    def forward(self):
        self.press(S.NEXT)

    def ok(self):
        self.press(S.OK)

    def play_turn(self):
        """The human to move plays the first playable card (picking a suit), else draws."""
        t = self.screen
        legal = set(self.app.moves[k] for k in range(self.app.game.legal(t.viewer, self.app.moves)))
        target = None
        for i in range(t.item_n):
            if t.item_kind[i] == S.CARD_ITEM and t.playable[t.item_arg[i]]:
                assert t.move_for(i) in legal   # a card marked playable is a legal play
                target = target if target is not None else i
            elif t.item_kind[i] in (S.DRAW_ITEM, S.PASS_ITEM, S.CATCH_ITEM):
                assert t.move_for(i) in legal
        if target is None:
            target = next(i for i in range(t.item_n) if t.item_kind[i] in (S.DRAW_ITEM, S.PASS_ITEM))
        while t.cursor != target:
            self.press(S.NEXT)
        self.press(S.OK)
        if self.screen.name == "picker":
            self.press(S.NEXT)
            self.press(S.OK)
        if self.screen.name == "mau":
            self.choose(self.say_mau)


def every_line(sc):
    """The lines of every page of pages screen `sc` (a page's lines are made when it is
    turned to: each turned to, then back to the first)."""
    lines = list(sc.lines)
    while sc.page() < sc.pages() - 1:
        sc.on(S.NEXT)
        lines += sc.lines
    while sc.page() > 0:
        sc.on(S.PREV)
    return lines


@pytest.mark.parametrize("name", BOARDS)
def test_game_against_three_ais_to_match_end(name, tmp_path):
    h = Hands(name, Store(str(tmp_path)))
    assert h.screen.name == "title" and h.screen.items == ["New game", "Quit"]
    h.start()
    game = h.app.game
    assert [game.is_human(k) for k in range(4)] == [True, False, False, False]
    assert game.setup["seats"] == [["You", 0], ["Greta", 3], ["Hugo", 3], ["Ida", 3]]
    assert game.rules.preset == "classic"
    scores = h.play_to(("scores",))
    assert scores.title.endswith((" wins", "You win", "Nobody wins"))
    game = h.app.game
    assert [row[0] for row in scores.rows] == [game.name(k) for k in range(game.players())]
    assert h.app.table is None       # the round's table let go with the round
    while h.screen is scores:                  # 72x40 shows the rows a page at a time
        h.press(S.OK)
    final = h.screen
    assert final.name == "final" and final.title.endswith((" wins!", "You win!"))
    assert final.title.split()[0] == final.lines[0].split()[0]   # the winner heads the table
    assert len(final.lines) == 4
    assert "firmware.final" not in sys.modules   # its code made the table, then went
    assert not h.app.store.has_game()          # a finished match is not offered again
    assert h.app.store.stats()["You"][0] == 1  # games played by "You"
    h.choose("Title")
    assert h.screen.items == ["New game", "Statistics", "Quit"]
    h.choose("Statistics")
    assert h.screen.name == "stats" and any("You: matches 1" in line
                                               for line in every_line(h.screen))
    h.press(S.OK)
    h.press(S.OK) if h.screen.name == "stats" else None
    assert h.screen.name == "title"


def read_chips(canvas, x, y):
    """The held cards drawn as chips from (x, y) on: a white chip 8 high, the rank in the
    3x5 font from its second column, the suit glyph in its last 8 columns (hearts and
    diamonds red), one column between chips; read left to right until none matches."""
    from firmware.gfx import INK, RED
    found = []
    while True:
        for card in [s << 4 | r for s in range(4) for r in range(7, 15)]:
            w = 17 if card & 15 == 10 else 13
            t = BoxCanvas(canvas.width, canvas.height, canvas.depth)
            t.fill(CARD)
            ink = RED if card >> 4 >= 2 else INK
            t.small("10" if card & 15 == 10 else "JQKA"[(card & 15) - 11] if card & 15 > 10
                    else str(card & 15), x + 1, y + 2, ink)
            t.suit(x + w - 8, y, card >> 4, ink)
            if all(canvas.fb.pixel(x + dx, y + dy) == t.fb.pixel(x + dx, y + dy)
                   for dx in range(w) for dy in range(8)):
                found.append(card)
                x += w + 1
                break
        else:
            return found, x


@pytest.mark.parametrize("name", BOARDS)
def test_round_end_shows_headings_and_the_cards_each_loser_held(name):
    from firmware import paint
    from tools.sim.findtext import FONT_3X5, find_text, shows
    from tools.sim.image import screenshot
    h = Hands(name, seed=12)
    h.start(levels=[3, 3, 3, 3, 3, 3])          # six AIs: 72x40 needs two pages
    scores = h.play_to(("scores",))
    game, c = h.app.game, h.canvas
    rnd, s = game.rnd, c.size
    wide = s == LARGE
    assert scores.heads == (("Player", "Round", "Total", "Cards left") if wide
                            else ("Name", "Rnd", "Tot", "Left"))
    assert [r[:3] for r in scores.rows] == game.results()
    for seat, (_, points, _, held) in enumerate(scores.rows):
        assert sorted(held) == rnd.hand(seat) and list(held) == sorted(held)  # by suit
        assert points == rnd.points(seat)
    assert any(row[3] for row in scores.rows) and any(not row[3] for row in scores.rows)
    image = screenshot(c)
    for head in scores.heads[1:]:
        assert shows(image, head, FONT_3X5), head
    font = None if wide else FONT_3X5
    from firmware.paint_scores import _SCORE_COLS
    x_held = _SCORE_COLS[s][3]
    for r, (who, points, total, held) in enumerate(scores.rows[:scores.fit]):
        y = paint._ROW_Y[s] + (r + 1) * paint._ROW_H[s] + (0 if wide else 1)
        assert (_SCORE_COLS[s][0], y) in find_text(image, who[:5], font or "8x8")
        if s == 0:                               # 72x40: how many cards
            assert (x_held - 4 * len(str(len(held))), y) in find_text(image, str(len(held)), FONT_3X5)
            continue
        cards, x = read_chips(c, x_held, y - 1)
        assert cards == list(held[:len(cards)]) and len(cards) >= min(len(held), 3), (who, cards)
        if len(cards) < len(held):
            assert (x, y + 1) in find_text(image, "+%d" % (len(held) - len(cards)), FONT_3X5)
    if s == 0:
        assert scores.pages() == 2
        h.press(S.NEXT)
        assert h.screen is scores and scores.page() == 1
    h.press(S.OK)
    assert h.screen.name == "final"


def test_ai_turns_are_paced_and_skippable():
    h = Hands("pico_display")
    h.start(levels=[3, 3, 0])          # two AIs move before the human
    game = h.app.game
    assert h.screen.name == "table" and game.ai_to_act()
    h.wait(50)
    first = game.n_moves
    assert first >= 1 and h.screen.status    # the AI's action is told
    h.wait(AI_PACE_MS // 2)
    assert game.n_moves == first             # still shown: no next action yet
    h.press(S.NEXT)                          # any key skips ahead
    h.wait(50)
    assert game.n_moves == first + 1 or game.round_over()


def test_ui_never_stalls_when_an_ai_must_move():
    h = Hands("thumby")
    h.start(levels=[1, 2, 4])   # nobody human: the AIs play the whole match alone
    for _ in range(3000):
        if h.screen.name != "table":
            break
        before = h.app.game.n_moves
        h.wait(AI_PACE_MS * 2)
        assert h.app.game.n_moves > before or h.screen.name != "table"
    assert h.screen.name == "scores"


_TEMPLATES = {}    # (width, height, depth) -> {the pixels of a card drawn alone: the card}


class FaceReader:
    """Reads the cards in the hand row back from the canvas's pixels (template matching)."""

    def __init__(self, canvas):
        from firmware import gfx
        self.canvas = canvas
        self.w, self.h = canvas.card_size()
        shape = (canvas.width, canvas.height, canvas.depth)
        if shape not in _TEMPLATES:    # drawn once for each kind of screen, on a fresh canvas
            templates = {}
            scratch = BoxCanvas(*shape)
            for card in [s << 4 | r for s in range(4) for r in range(2, 15)]:
                for state in (gfx.NORMAL, gfx.SHADED):
                    scratch.fill(gfx.FELT if canvas.depth == 4 else gfx.BG)
                    scratch.card(0, 0, card, state)
                    templates[self.region(scratch, 0, 0)] = card
            _TEMPLATES[shape] = templates
        self.templates = _TEMPLATES[shape]

    def region(self, canvas, x, y):
        return tuple(canvas.fb.pixel(x + i, y + j) for j in range(self.h) for i in range(self.w))

    def cards(self, table):
        """The cards drawn in the visible slots of the hand row, read from the pixels."""
        from firmware import paint
        s = self.canvas.size
        found = []
        for slot in range(paint.hand_fit(self.canvas)):
            i = table.scroll + slot
            if i >= table.item_n:
                break
            x = paint._HAND_X[s] + slot * paint._STEP[s]
            for y in (paint._HAND_Y[s], paint._HAND_Y[s] - (2, 2, 5)[s]):
                card = self.templates.get(self.region(self.canvas, x, y))
                if card is not None:
                    found.append(card)
                    break
        return found


class Privacy:
    """Watches every frame: each hand painted (the painter's trace and the pixels of the
    hand row) is the hand of the human who dismissed the last cover since the device last
    left the table (the title: a save and quit or a power cut; round end: the scores)."""

    def __init__(self):
        self.uncovered = None
        self.hands = self.faces = self.covers = 0
        self.seen = set()          # the screens the device passed through

    def __call__(self, hands):
        sc, game = hands.screen, hands.app.game
        self.seen.add(sc.name)
        if sc.name in ("title", "scores"):
            self.uncovered = None  # whoever picks the device up next may be anybody
        if sc.name == "cover" and hands.canvas.depth == 4:   # a cover shows no card face
            ink = hands.canvas.ink(CARD)
            assert not any((b >> 4) == ink or (b & 15) == ink for b in hands.canvas.buf)
        for entry in hands.trace:
            if entry[0] == "cover":
                self.uncovered = entry[1]
                self.covers += 1
                continue
            seat = self.uncovered
            assert entry[1] == seat, (entry, seat, sorted(self.seen))
            assert sorted(entry[2]) == sorted(game.rnd.hand(seat))
            self.hands += 1
            t = hands.app.table                       # and by pixels
            on_screen = FaceReader(hands.canvas).cards(t)
            from firmware.paint import hand_fit
            window = range(t.scroll, min(t.item_n, t.scroll + hand_fit(hands.canvas)))
            expected = [t.hand[t.item_arg[i]] for i in window if t.item_kind[i] == S.CARD_ITEM]
            assert on_screen == expected and on_screen
            assert all(card in game.rnd.hand(seat) for card in on_screen)
            self.faces += len(on_screen)
        hands.trace.clear()


class JackHands(Hands):
    """Plays a Jack whenever one fits (so the suit picker comes up), backing out of the
    picker once before choosing."""

    def play_turn(self):
        t = self.screen
        jacks = [i for i in range(t.item_n) if t.item_kind[i] == S.CARD_ITEM
                 and t.playable[t.item_arg[i]] and t.hand[t.item_arg[i]] & 15 == 11]
        if not jacks:
            return Hands.play_turn(self)
        while t.cursor != jacks[0]:
            self.press(S.NEXT)
        self.press(S.OK)
        if self.screen.name == "picker":
            self.press(S.MENU)                     # back to the table, then the Jack again
            assert self.screen is t
            self.press(S.OK)
        while self.screen.name != "table":
            self.press(S.NEXT)
            self.press(S.OK)


def to_human_turn(h):
    """Play on until the human holding the device is to move at the table."""
    for _ in range(400):
        if h.screen.name == "table" and h.screen.my_turn:
            return h.screen
        h.play_to(("table",)) if h.screen.name != "table" else h.wait(AI_PACE_MS)
    raise AssertionError("no human turn")


@pytest.mark.parametrize("name", BOARDS)
def test_pass_and_play_shows_only_the_uncovered_hand_on_every_path(name, tmp_path):
    """Two humans and an AI: covers at every hand-over, round end, join and leave, the
    pause menu and its rules, the suit picker, save and quit, statistics, a power cut."""
    store = Store(str(tmp_path))
    watch = Privacy()
    h = JackHands(name, store, seed=3)
    h.check = watch
    h.start(levels=[0, 0])                        # a first match, so there are statistics
    h.play_to(("final",))
    h.choose("Title")
    h.start(levels=[0, 0, 3], match="rounds")
    to_human_turn(h)
    h.press(S.MENU)                               # the pause menu and the rules, resumed
    h.choose("Rules")
    h.press(S.OK)
    h.choose("Resume")
    h.play_turn()
    to_human_turn(h)
    h.press(S.MENU)
    h.choose("Save and quit")                     # the device may change hands here
    h.choose("Statistics")
    h.press(S.OK)
    h.choose("Continue")
    to_human_turn(h)
    h.play_turn()
    h = JackHands(name, Store(str(tmp_path)), seed=3)   # a power cut: on again, Continue
    h.check = watch
    h.choose("Continue")
    h.play_to(("between",))
    h.choose(h.screen.items[2])                   # "Join: Hugo (human)", "+ Hugo (human)"
    assert h.app.game.levels[-1] == 0
    h.choose("Leave: Anna")
    h.choose("Deal next round")
    h.play_to(("final",))
    assert {"pause", "rules", "picker", "stats", "story", "between"} <= watch.seen
    assert watch.covers > 20 and watch.hands > 20 and watch.faces > 2 * watch.hands


def test_story_after_cover_tells_what_happened():
    h = Hands("pico_display", seed=5)
    h.start(levels=[0, 3, 0])
    first = h.play_to(("story",))
    assert first.title == "Anna, since your turn" and "deals" in first.lines[0]
    h.press(S.OK)
    h.play_turn()
    second = h.play_to(("story",))
    assert second.title == "Cleo, since your turn"
    text = " ".join(second.lines)
    assert "Anna" in text and "Greta" in text   # what the human and the AI did
    h.press(S.OK)
    assert h.screen.name == "table" and h.screen.viewer == 2


def test_pause_menu_rules_and_save_and_quit(tmp_path):
    store = Store(str(tmp_path))
    h = Hands("pico_oled", store)
    h.start()
    h.play_to(("table",))
    h.press(S.MENU)
    assert h.screen.name == "pause"
    h.choose("Rules")
    assert h.screen.name == "rules" and any("7" in line for line in every_line(h.screen))
    h.press(S.OK)
    assert h.screen.name == "pause" and h.screen.items[h.screen.cursor] == "Rules"
    h.choose("Resume")
    assert h.screen.name == "table"
    while not h.screen.my_turn:
        h.wait(AI_PACE_MS)
    h.play_turn()
    moves = h.app.game.n_moves
    hand = bytes(h.app.game.rnd.hand(0))
    h.press(S.MENU)
    h.choose("Save and quit")
    assert h.screen.name == "title" and h.screen.items[0] == "Continue"
    again = Hands("pico_oled", store)          # power off and on
    assert again.screen.items[0] == "Continue"
    again.choose("Continue")
    assert again.app.game.n_moves == moves
    assert bytes(again.app.game.rnd.hand(0)) == hand



def paused_at_the_first_table(store):
    """A Pico + OLED app on `store` with its pause menu open over the first table."""
    h = Hands("pico_oled", store)
    h.start()
    h.play_to(("table",))
    h.press(S.MENU)
    return h


def test_save_and_quit_lets_the_table_go_and_continue_writes_nothing(tmp_path, monkeypatch):
    # Save and quit lets go of the game, its table screen and the pause's way back (the
    # title and Continue's load never need room beside them); Continue shows the match as
    # saved without writing it again (the load's frame needs no save beside it).
    h = paused_at_the_first_table(Store(str(tmp_path)))
    h.choose("Save and quit")
    assert (h.app.game, h.app.table, h.app.back_to) == (None, None, None)
    written = []
    write = Store.write
    monkeypatch.setattr(Store, "write",
                        lambda self, name, parts: written.append(name) or write(self, name, parts))
    h.choose("Continue")
    assert h.screen.name == "table" and h.app.game is not None
    assert written == []
    h.wait(3 * AI_PACE_MS)            # the next move is saved as ever
    assert "match" in written or h.screen.my_turn


def test_save_and_quit_writes_only_a_save_the_flash_refused(tmp_path):
    # each move is saved as it is made: Save and quit writes nothing more, unless a save
    # was refused (then it tries the match again, and a working flash takes it)
    store = CountingStore(str(tmp_path))
    h = paused_at_the_first_table(store)
    del store.written[:]
    h.choose("Save and quit")
    assert store.written == [] and h.screen.name == "title"
    h.choose("Continue")
    h.play_to(("table",))
    store.unsaved.append("match")         # as after a write the flash refused
    h.press(S.MENU)
    h.choose("Save and quit")
    assert store.written == ["match"] and store.unsaved == []


def test_on_a_device_loop_continue_reads_rebuilds_and_shows_the_table_on_four_frames(tmp_path):
    # the file and its parsing are garbage before the match is rebuilt (the game's start
    # loaded on a frame between), the rebuilding's (its modules, the replay) before the
    # table is built
    store = Store(str(tmp_path))
    h = paused_at_the_first_table(store)
    saved = h.app.game.n_moves
    h.choose("Save and quit")
    h.app.looped = True
    h.choose("Continue")
    assert h.app.dealing is store and h.app.game is None
    h.app.frame(h.now + 20, NoKeys())            # the file read
    assert h.app.game is None and type(h.app.dealing[0]) is tuple
    assert "firmware.deal" not in sys.modules
    h.app.frame(h.now + 40, NoKeys())            # the game's start loaded
    assert h.app.game is None and type(h.app.dealing) is tuple
    assert "firmware.deal" in sys.modules
    h.app.frame(h.now + 60, NoKeys())            # the match rebuilt (its start let go)
    assert h.app.game.n_moves == saved and h.app.table is None
    assert "firmware.deal" not in sys.modules
    assert h.screen.name == "title"              # as it was shown, its keys waiting
    h.app.frame(h.now + 80, NoKeys())            # its table
    assert h.screen.name == "table" and h.app.table is not None and h.app.dealing is None


def test_on_a_device_loop_a_new_phase_is_made_on_one_frame_and_drawn_on_the_next():
    # a phase's code and its screen come on one frame, the drawing's code on the next: the
    # last screen's drawing and its keys are let go first (each frame's garbage is collected
    # before the next; docs/boards.md, Real budgets)
    h = Hands("pico_oled")
    h.start(match="rounds")
    h.play_to(("scores",))
    drawn, h.app.looped = h.app.painter.screen, True
    assert drawn is h.screen and "firmware.between" not in sys.modules   # made, then let go
    h.press(S.OK)                                # the scores read
    assert h.screen is drawn and h.app.painter.screen is None      # nothing drawn yet ...
    assert "firmware.paint_list" not in sys.modules and "firmware.between" not in sys.modules
    h.app.frame(h.now + 20, NoKeys())            # ... who joins or leaves made
    assert h.screen.name == "between" and h.app.painter.screen is None
    assert "firmware.between" in sys.modules and "firmware.paint_list" not in sys.modules
    h.app.frame(h.now + 40, NoKeys())            # ... and drawn
    assert h.app.painter.screen is h.screen and h.app.dealing is None
    h.app.looped = False
    h.choose("Deal next round")
    h.play_to(("table",))
    h.press(S.MENU)
    h.app.looped = True
    h.choose("Rules")                            # the menu let go of; the pages made ...
    assert h.screen.name == "pause" and "firmware.paint_list" not in sys.modules
    h.app.frame(h.now + 20, NoKeys())
    assert h.screen.name == "rules" and h.app.painter.screen is None
    assert "firmware.rulebook" not in sys.modules    # the pages keep its words, not its code
    h.app.frame(h.now + 40, NoKeys())            # ... and drawn
    assert h.app.painter.screen is h.screen and any("7" in line for line in every_line(h.screen))
    # a page is drawn without the list screens' code, and its own is let go once drawn
    assert "firmware.paint_list" not in sys.modules and "firmware.paint_pages" not in sys.modules
    h.press(S.OK)                                # the pages read: the menu made ...
    assert h.screen.name == "pause" and h.app.painter.screen is None
    h.app.frame(h.now + 60, NoKeys())            # ... and drawn once the pages are garbage
    assert h.app.painter.screen is h.screen and h.app.dealing is None
    h.choose("Save and quit")                    # the match let go; the title made ...
    assert h.app.game is None and h.app.table is None and h.screen.name == "pause"
    h.app.frame(h.now + 80, NoKeys())            # ... once it has left the heap ...
    assert h.screen.name == "title"
    assert h.app.painter.screen is None
    h.app.frame(h.now + 100, NoKeys())           # ... and drawn
    assert h.app.painter.screen is h.screen and h.app.dealing is None


def test_on_a_device_loop_a_save_damaged_since_boot_continues_to_a_fresh_title(tmp_path):
    h = paused_at_the_first_table(Store(str(tmp_path)))
    h.choose("Save and quit")
    path = tmp_path / "match"
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF
    path.write_bytes(bytes(data))
    h.app.looped = True
    h.choose("Continue")
    h.app.frame(h.now + 20, NoKeys())            # the file read: damaged
    assert h.screen.name == "title" and " ".join(h.screen.lines) == "Save damaged, starting fresh"
    assert h.app.game is None and h.app.dealing is None and (tmp_path / "match.bad").exists()


def test_damaged_save_starts_fresh(tmp_path):
    store = Store(str(tmp_path))
    h = Hands("thumby", store)
    h.start()
    h.wait(AI_PACE_MS * 3)
    path = tmp_path / "match"
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF
    path.write_bytes(bytes(data))
    again = Hands("thumby", Store(str(tmp_path)))
    assert " ".join(again.screen.lines) == "Save damaged, starting fresh"
    assert again.screen.items == ["New game", "Quit"]
    assert (tmp_path / "match.bad").exists()


def test_last_setup_is_remembered(tmp_path):
    store = Store(str(tmp_path))
    h = Hands("pico_display", store)
    h.start(levels=[0, 2, 4], match="rounds")
    again = Hands("pico_display", store)
    again.choose("New game")
    assert again.screen.levels == [0, 2, 4] and again.screen.setup["match"] == "rounds"


def spell(h, word):
    """Type `word` on the letter grid with NEXT, PREV and OK: a row, then its letter."""
    from firmware.names import _GRID
    for letter in word.upper().replace(" ", "_"):
        row = next(r for r in range(len(_GRID)) if letter in _GRID[r])
        while h.screen.cursor != row:
            h.press(S.NEXT)
        h.press(S.OK)
        while _GRID[row][h.screen.col] != letter:
            h.press(S.NEXT if _GRID[row].index(letter) > h.screen.col else S.PREV)
        h.press(S.OK)


def done(h):
    while h.screen.cursor != len(h.screen.items) - 1:
        h.press(S.NEXT)
    h.press(S.OK)


def test_players_name_their_seats_with_keys_and_the_names_are_remembered(tmp_path):
    store = Store(str(tmp_path))
    h = Hands("tdisplay", store)                 # two buttons: NEXT, PREV, OK, MENU only
    h.choose("New game")
    sc = h.screen
    while sc.levels != [0, 0, 3, 3]:
        h.press_row(("seat", 1))
    assert sc.items[-2:] == ["Rename Anna", "Rename Ben"]
    h.press_row(("name", 1))
    assert h.screen.name == "names" and h.screen.items[0] == "New name"
    h.choose("New name")
    assert h.screen.name == "name" and h.screen.title == "Name: _"
    spell(h, "Zoe")
    assert h.screen.title == "Name: Zoe_"
    h.press(S.MENU)                              # MENU leaves the name as it was
    assert h.screen is sc and sc.items[-1] == "Rename Ben"
    h.press_row(("name", 1))
    h.choose("New name")
    spell(h, "Zox<e")
    done(h)
    assert h.screen is sc and sc.items[-2:] == ["Rename Anna", "Rename Zoe"]
    assert "2 Zoe: human" in sc.items
    h.press_row(("start", 0))
    game = h.app.game
    assert [game.name(k) for k in range(4)] == ["Anna", "Zoe", "Greta", "Hugo"]
    h.play_to(("final",))
    assert store.stats()["Zoe"][0] == 1 and store.stats()["Anna"][0] == 1
    again = Hands("tdisplay", store)
    again.choose("New game")
    assert again.screen.setup["seats"][1] == ["Zoe", 0] and again.screen.own == ["", "Zoe", "", ""]
    again.press_row(("name", 0))
    again.choose("Ben")                          # from the name list: no letters to type
    assert again.screen.setup["seats"][:2] == [["Ben", 0], ["Zoe", 0]]


def test_the_app_sizes_its_screens_by_the_painter_it_is_given():
    from firmware import paint
    from firmware.opening import sizes_of

    class Painter:                               # no canvas, no framebuf: only paint()
        sizes = S.Sizes(False, 7, 3, 20, 22, 1, 5)
        flying = -1                              # no card ever flies

        def __init__(self):
            self.painted = []

        def paint(self, screen):
            self.painted.append(screen.name)

    p = Painter()
    app = App(board("thumby"), None, None, 0, playouts=4, seed=3, painter=p)
    assert app.painter is p and app.screen.name == "title" and app.screen.fit == 3
    assert app.screen.items[0] == "New game"
    app.act(S.OK)
    assert app.screen.name == "setup" and app.screen.fit == 7 and app.screen.cols == 20
    while app.screen.rows_of[app.screen.cursor] != ("start", 0):
        app.act(S.NEXT)
    app.act(S.OK)
    t = app.table
    assert (t.fit, t.cols, t.status_fit) == (5, 22, 1) and "table" in p.painted
    for w, h, depth in ((240, 135, 4), (128, 64, 1), (72, 40, 1)):
        c = BoxCanvas(w, h, depth)
        f = sizes_of(paint.painter_for(c))           # the framebuf painter: paint's functions
        assert (f.wide, f.list_fit, f.title_fit, f.list_cols, f.status_cols, f.status_fit,
                f.hand_fit) == (w == 240, paint.list_fit(c), paint.title_fit(c), paint.list_cols(c),
                                paint.status_cols(c), paint.status_fit(c), paint.hand_fit(c))


def test_a_remembered_setup_with_a_bad_name_is_not_offered(tmp_path):
    store = Store(str(tmp_path))
    store.save_settings({"seats": [["A very long name", 0], ["Greta", 3]], "preset": "classic",
                         "options": {}, "match": "round", "limit": 1})
    h = Hands("pico_display", store)
    h.choose("New game")
    from firmware.setup import default_setup
    assert h.screen.setup["seats"] == default_setup()["seats"]


def test_rounds_match_with_join_and_leave():
    h = Hands("pico_display", seed=9)
    h.start(levels=[3, 3], match="rounds")   # AIs only, 3 rounds
    h.play_to(("between",))
    h.choose("Join: Ida (AI)")
    assert "Leave: Ida" in h.screen.items
    h.choose("Leave: Greta")
    h.choose("Deal next round")
    assert h.app.game.players() == 2
    assert h.app.table.names == ["Hugo", "Ida"]
    final = h.play_to(("final",))
    assert final.title.endswith((" wins!", "You win!"))


@pytest.mark.parametrize("name", ("pico_display",) + BOARDS)
def test_the_rows_between_rounds_fit_the_screen_and_say_who_joins_how(name):
    h = Hands(name, seed=9)
    h.start(levels=[3, 3], match="rounds")
    items = h.play_to(("between",)).items
    assert all(len(item) <= h.app.sizes.list_cols for item in items), items
    joins = [item for item in items if "Ida" in item]
    assert len(joins) == 2 and joins[0].endswith("(AI)") and joins[1].endswith("(human)")
    h.choose(joins[1])
    assert h.app.game.levels[-1] == 0 and "Leave: Ida" in h.screen.items


@pytest.mark.parametrize("name", ["pico_display", "pico_oled", "thumby"])
def test_hint_points_at_a_legal_move_and_mau_toggles(name):
    h = Hands(name, seed=2)
    h.start()
    t = h.play_to(("table",))
    while not t.my_turn:
        h.wait(AI_PACE_MS)
    hint = next(i for i in range(t.item_n) if t.item_kind[i] == S.HINT_ITEM)
    while t.cursor != hint:
        h.press(S.NEXT)
    before = len(h.trace)
    h.press(S.OK)
    assert t.hint >= 0 and t.cursor == t.hint and t.status[0].startswith("Hint")
    legal = [h.app.moves[k] for k in range(h.app.game.legal(t.viewer, h.app.moves))]
    assert t.move_for(t.cursor) in legal
    c = h.canvas
    if c.size == LARGE:  # a mark under the hinted card, as well
        w, card_h = c.card_size()
        x = 10 + (t.hint - t.scroll) * 22 + w // 2 - 1   # paint's hand row on LARGE
        assert all(c.fb.pixel(x + dx, 98 + card_h + 4 + dy) == c.ink(HILITE)
                   for dx in range(3) for dy in range(2))
    elif c.size == MEDIUM:  # no room under the cards: the arrow moved, no card was drawn
        assert len(h.trace) == before


def second_last_card(h):
    """Play on until the human at the table is to play a card that would leave one;
    return the table and that card's item."""
    for _ in range(3000):
        sc = h.screen
        if sc.name == "table" and sc.my_turn and sc.hand_n == 2:
            for i in range(sc.item_n):
                if sc.item_kind[i] == S.CARD_ITEM and sc.playable[sc.item_arg[i]]:
                    return sc, i
        if sc.name in ("scores", "between"):
            h.press(S.OK) if sc.name == "scores" else h.choose("Deal next round")
        elif sc.name == "final":
            h.choose("New game")
            h.press_row(("start", 0))
        elif sc.name != "table":
            h.play_to(("table",))
        else:
            h.play_turn() if sc.my_turn else h.wait(AI_PACE_MS)
    raise AssertionError("no second-to-last card")


def play_item(h, t, item):
    """Move the table's cursor to `item` and press OK (a Jack wishes the first suit)."""
    while t.cursor != item:
        h.press(S.NEXT)
    h.press(S.OK)
    if h.screen.name == "picker":
        h.press(S.OK)


@pytest.mark.parametrize("name", BOARDS)
def test_mau_is_said_with_the_second_last_card(name):
    """OK on a card that leaves one asks "Play 9 of clubs: With Mau / Without Mau" (with
    NEXT, PREV, OK alone); With Mau says it with the card."""
    from engine.text import card_name, long_name
    h = Hands(name, seed=4)
    h.start(levels=[0, 3])
    t, item = second_last_card(h)
    assert S.MAU_ITEM not in [t.item_kind[i] for i in range(t.item_n)]   # no tile before it
    card = t.hand[t.item_arg[item]]
    play_item(h, t, item)
    q = h.screen
    assert q.name == "mau" and q.items == ["With Mau", "Without Mau"] and q.cursor == 0
    assert q.title in ("Play " + long_name(card), long_name(card), "Play " + card_name(card))
    assert len(q.title) <= h.app.sizes.list_cols
    h.press(S.PREV)                              # the question wraps like every list
    h.press(S.NEXT)
    game = h.app.game
    h.press(S.OK)
    assert h.screen is t and game.rnd.count(0) == 1 and game.view(0).said_mau(0)
    assert "You say Mau" in " ".join(t.status).replace("  ", " ") or game.rnd.is_over()


def test_on_a_device_loop_the_mau_answer_is_played_on_the_next_frame():
    """The answer is held for one frame: the move is made and saved, and the table drawn,
    once the question's drawing code is garbage (a collection between frames takes it)."""
    h = Hands("pico_display", seed=4)
    h.start(levels=[0, 3])
    t, item = second_last_card(h)
    play_item(h, t, item)
    assert h.screen.name == "mau" and "firmware.paint_list" in sys.modules
    game = h.app.game
    made = game.n_moves
    saved = []
    game.on_change = lambda g: saved.append("firmware.paint_list" in sys.modules)
    h.app.looped = True
    h.press(S.OK)                                # With Mau: held ...
    assert game.n_moves == made and saved == [] and h.app.dealing is not None
    assert "firmware.paint_list" not in sys.modules and h.app.painter.screen is None
    h.press(S.NEXT)                              # (keys wait for it)
    h.app.frame(h.now + 20, NoKeys())            # ... and made on the next frame
    assert game.n_moves == made + 1 and saved == [False] and h.app.dealing is None
    assert game.view(0).said_mau(0) and game.rnd.count(0) == 1
    assert h.screen is t and h.app.painter.screen is t


def test_without_a_mau_penalty_a_card_that_leaves_one_is_played_at_once():
    """With the Mau rule off nobody is caught, so nobody is asked: Mau is said for you."""
    h = Hands("pico_display", seed=4)
    h.choose("New game")
    while len(h.screen.levels) != 2:
        h.choose(h.screen.items[0])
    h.screen.setup["options"]["mau_penalty"] = "off"
    h.press_row(("start", 0))
    assert h.app.game.rules.mau_penalty == 2          # engine.rules.MAU_OFF
    t, item = second_last_card(h)
    play_item(h, t, item)
    assert h.screen is t and h.app.game.rnd.count(0) == 1   # played, no question
    assert h.app.game.view(0).said_mau(0) or h.app.game.rnd.is_over()


def test_a_forgotten_mau_is_caught_by_a_human():
    h = Hands("tdisplay", seed=4)                # two buttons: NEXT, PREV, OK, MENU only
    h.say_mau = "Without Mau"
    h.start(levels=[0, 0])
    caught = []
    for _ in range(3000):
        sc = h.screen
        if sc.name == "table" and sc.catch_item() >= 0:
            assert sc.cursor == sc.catch_item()      # the cursor waits on Catch
            target = sc.names[sc.item_arg[sc.cursor]]
            before = h.app.game.rnd.count(sc.item_arg[sc.cursor])
            h.press(S.OK)
            caught.append((target, before, h.app.game.rnd.count(sc.item_arg[sc.cursor])))
            break
        if sc.name in ("scores", "final", "between"):
            h.press(S.OK) if sc.name != "between" else h.choose("Deal next round")
            continue
        h.play_to(("table",)) if sc.name != "table" else (
            h.play_turn() if sc.my_turn else h.wait(AI_PACE_MS))
    assert caught and caught[0][2] == caught[0][1] + 2    # the forgetful player drew 2
    assert "caught by you" in " ".join(h.screen.status)


def test_a_forgotten_mau_is_caught_by_an_ai():
    h = Hands("thumby", seed=4)
    h.start(levels=[0, 3, 3])                    # strong AIs catch every forgotten Mau
    t, item = second_last_card(h)
    play_item(h, t, item)
    h.choose("Without Mau")
    game = h.app.game
    assert game.rnd.count(0) == 1 and game.rnd.debtor() == 0
    h.wait(AI_PACE_MS * 2)
    assert game.rnd.count(0) == 3               # caught: two cards more
    assert "caught by" in " ".join(game.story(0)) or "caught by" in " ".join(t.status)


def test_no_hand_before_anybody_takes_the_device():
    h = Hands("pico_oled", seed=6)
    h.start(levels=[3, 0, 0])          # an AI moves before either human has the device
    assert h.screen.name == "table" and h.screen.viewer == -1 and h.screen.hand_n == 0
    h.press(S.NEXT)                     # keys do not break anything; they skip ahead
    h.press(S.OK)
    for _ in range(10):
        h.wait(AI_PACE_MS)
        if h.screen.name == "cover":
            break
    assert h.screen.name == "cover" and h.app.game.n_moves >= 1
    assert not [e for e in h.trace if e[0] == "hand"]


def test_custom_rules_reach_the_game():
    h = Hands("pico_oled", seed=8)
    h.choose("New game")
    sc = h.screen
    while not sc.custom:
        h.press_row(("preset", 0))
    assert sc.setup["preset"] == "nordic"          # custom starts from the last preset
    while sc.setup["preset"] != "classic":
        h.press_row(("base", 0))
    ace = next(row for row in sc.rows_of if row[0] == "option" and row[1][0] == "ace")
    while sc.setup["options"].get("ace") != "draw4":
        h.press_row(ace)
    assert "Ace: draw 4" in sc.items
    h.press_row(("start", 0))
    from engine.rules import ACE_DRAW4
    assert h.app.game.rules.ace == ACE_DRAW4 and h.app.game.rules.deck_name() == "skat32"
    h.press(S.MENU) if h.screen.name == "table" else None


VM_MATCH = '''
import os
from firmware.boxes import BoxCanvas
from firmware.app import App
from firmware import between
from firmware.save import Store

class Board:
    LAYOUT = "dpad"

OK, NEXT, PREV, MENU = 3, 1, 2, 5

def choose(app, label):
    sc = app.screen
    while sc.items[sc.cursor] != label:
        app.act(NEXT)
    app.act(OK)

def row(app, what):
    sc = app.screen
    while sc.rows_of[sc.cursor][0] != what:
        app.act(NEXT)
    app.act(OK)

def run():
    os.mkdir("/save")
    canvas = BoxCanvas(72, 40, 1)
    app = App(Board, canvas, Store("/save"), 0, playouts=4, seed=21)
    choose(app, "New game")
    sc = app.screen
    sc.cursor = 1
    while sc.levels[0] != 2:          # you become an AI: the AIs play it all
        row(app, "seat")
    row(app, "match")                 # 3 rounds
    row(app, "start")
    now, seen = 0, []
    for _ in range(20000):
        name = app.screen.name
        if name not in seen:
            seen.append(name)
        if name == "table":
            now += 1000
            app.tick(now)
        elif name == "between":
            if len(app.game.seated()) == 4:
                choose(app, "+ " + between.free_name(app.game) + " (AI)")   # 72x40's words
            choose(app, "Deal next round")
        elif name == "final":
            break
        else:
            app.act(OK)
    print("SCREENS", " ".join(seen))
    print("FINAL", app.screen.title, "|", " / ".join(app.screen.lines))
    choose(app, "Title")
    print("TITLE", ",".join(app.screen.items))

run()
'''


def test_a_whole_match_runs_in_micropython_with_saves():
    out = mpvm.run(VM_MATCH, modules=("engine", "firmware"), timeout=240,
                   heapsize=2 * 1024 * 1024).check().stdout
    print(out)
    assert "SCREENS table scores between final" in out
    final = next(line for line in out.splitlines() if line.startswith("FINAL "))
    assert final.split("|")[0].strip().endswith("wins!") and final.count(" / ") == 4  # 5 players
    assert "TITLE New game,Statistics,Quit" in out


VM_NAMES = '''
import os
from firmware.boxes import BoxCanvas
from firmware.app import App
from firmware.save import Store

class Board:
    LAYOUT = "two"

OK, NEXT, PREV = 3, 1, 2

def choose(app, label):
    sc = app.screen
    while sc.items[sc.cursor] != label:
        app.act(NEXT)
    app.act(OK)

def run():
    os.mkdir("/save")
    app = App(Board, BoxCanvas(72, 40, 1), Store("/save"), 0, playouts=4, seed=2)
    choose(app, "New game")
    choose(app, "Rename You")
    choose(app, "New name")
    # K: the second row at its middle; I: back two; M: on two; a slip (Y), deleted; Done
    for act in (NEXT, OK, OK, OK, PREV, PREV, OK, OK, NEXT, NEXT, OK,
                NEXT, NEXT, OK, OK, OK, NEXT, NEXT, NEXT, OK, NEXT, OK):
        app.act(act)
    print("ITEMS", ",".join(app.screen.items[-3:]))
    choose(app, "Start")
    print("NAME", app.game.name(0))
    again = App(Board, BoxCanvas(72, 40, 1), Store("/save"), 0, playouts=4, seed=2)
    choose(again, "New game")
    print("REMEMBERED", again.screen.setup["seats"][0], again.screen.setup["names"])

run()
'''


def test_names_are_spelt_and_remembered_in_micropython():
    out = mpvm.run(VM_NAMES, modules=("engine", "firmware"), timeout=120,
                   heapsize=1024 * 1024).check().stdout
    assert "ITEMS Start,Sort: by suit,Rename Kim" in out
    assert "NAME Kim" in out and "REMEMBERED ['Kim', 0] ['Kim']" in out


def test_the_move_buffer_fits_every_legal_move_list():
    # the app's opening repeats engine.moves.MAX_MOVES privately (folded at compile time),
    # and the canvas's the 3x5 font's text length
    from engine import moves as mv
    from engine.rules import MAU_OFF
    from firmware import app, ask, gfx, opening
    assert opening._MAX_MOVES == mv.MAX_MOVES and ask._MAU == mv.MAU
    assert app._MAU_OFF == ask._MAU_OFF == MAU_OFF
    assert opening._SPELT == gfx._SPELT


def test_a_matchs_start_repeats_the_games_constants():
    # firmware.deal (Game.__init__'s, let go after) repeats firmware.game's privately
    from firmware import deal, game
    assert deal._RING == game._RING and deal._NO_ONE == game._NO_ONE


def test_the_store_repeats_the_devices_decision_deadline():
    # firmware.save repeats engine.ai.DEVICE_MS privately: the title imports no AI for it
    from engine.ai import DEVICE_MS
    from firmware import save
    assert save._DEVICE_MS == DEVICE_MS


# --- the table at a turn's start: the cursor, the hint, the recap ----------------------

def lay(h, hands, top, turn=0):
    """Lay a chosen table on the app's round (hands by seat in short names), the human
    to move, and show it as the app would."""
    from engine.cards import deck
    from engine.notation import parse
    rnd = h.app.game.rnd
    laid = [[parse(c) for c in hand.split()] for hand in hands]
    rest = list(deck(rnd.rules.deck_name()))
    for c in [c for hand in laid for c in hand] + [parse(top)]:
        rest.remove(c)
    rnd.set_table(laid, rest, [parse(top)], turn)
    h.app._to_table()
    return h.screen


@pytest.mark.parametrize("name", BOARDS)
def test_a_hint_is_the_whole_move_its_wish_and_mau(name):
    """Jack of hearts and 7 of diamonds on the 8 of spades: the hint is the Jack, wishing
    diamonds, saying Mau; taking it finds both chosen already."""
    from engine import moves as mv
    from engine.notation import parse
    h = Hands(name, seed=2)
    h.start(levels=[0, 3])
    h.play_to(("table",))
    t = lay(h, ["JH 7D", "8C 9C TC"], "8S")
    hint = next(i for i in range(t.item_n) if t.item_kind[i] == S.HINT_ITEM)
    while t.cursor != hint:
        h.press(S.NEXT)
    h.press(S.OK)
    assert t.hand[t.item_arg[t.cursor]] == parse("JH") and t.hint == t.cursor
    said = " ".join(t.status)
    assert said.startswith("Hint: play Jack of hearts") and "wish diamonds" in said
    assert "say Mau" in said
    h.press(S.OK)                                # take it
    assert h.screen.name == "picker" and h.screen.cursor == 3        # diamonds
    h.press(S.OK)
    assert h.screen.name == "mau" and h.screen.items[h.screen.cursor] == "With Mau"
    assert "Wish: diamonds" in h.screen.lines
    h.press(S.OK)
    game = h.app.game
    assert game.last_move == mv.play(parse("JH"), 3, True) and game.view(0).said_mau(0)
    h.wait(AI_PACE_MS * 3)
    assert game.rnd.count(0) <= 1               # no penalty for following the hint


@pytest.mark.parametrize("name", ("pico_oled", "tdisplay"))
def test_each_turn_starts_on_a_card_that_fits(name):
    """At every turn's start the cursor is on the first playable card that is not a Jack,
    else a playable Jack, else Draw (or Pass); however it was left before."""
    h = Hands(name, seed=7)
    h.start(levels=[0, 3, 3], match="rounds")
    starts = 0
    mine = False
    for _ in range(4000):
        sc = h.screen
        if sc.name == "final":
            break
        if sc.name != "table":
            mine = False
            h.play_to(("table", "final"))
            continue
        if sc.my_turn and not mine:
            cards = [i for i in range(sc.hand_n) if sc.playable[i]]
            plain = [i for i in cards if sc.hand[i] & 15 != 11]
            draw = [i for i in range(sc.item_n) if sc.item_kind[i] in (S.DRAW_ITEM, S.PASS_ITEM)]
            assert sc.cursor == (plain or cards or draw)[0], (sc.cursor, starts)
            starts += 1
        mine = sc.my_turn
        if sc.my_turn:
            h.play_turn()
            mine = h.screen is sc and sc.my_turn     # still to move (a drawn card)
            if mine:
                continue
            for _ in range(3):                       # then walk the cursor off to Menu
                h.press(S.PREV)
        else:
            h.wait(AI_PACE_MS)
    assert starts > 15


def test_the_single_human_is_told_what_happened_since_their_turn():
    """The AIs' moves since the human's last one read on the status lines at the turn's
    start (it waits for nobody: keys work at once), and whole as a page from the menu."""
    h = Hands("pico_display", seed=5)
    h.start(levels=[0, 3, 3, 3])
    game = h.app.game
    for _ in range(400):
        t = to_human_turn(h)
        h.wait(AI_PACE_MS)                        # the last move has been read
        if len(game.story(0)) >= 3:
            break
        h.play_turn()
    story = game.story(0)
    assert len(story) >= 3 and t.status == S.wrap(". ".join(story), t.cols)
    tops = set()
    for _ in range(t.status_pages() * 14):      # page by page, every 0.7 s
        tops.add(t.status_top)
        h.wait(50)
    assert t.status_pages() > 1 and tops == set(range(0, len(t.status), t.status_fit))
    h.press(S.MENU)
    h.choose("Since your turn")
    page = h.screen
    assert page.name == "recap" and page.title == "Since your turn"
    wrapped = [part for line in story for part in S.wrap(line, h.app.sizes.list_cols)]
    assert [line for line in every_line(page) if line] == [part for part in wrapped if part]
    h.press(S.OK)
    assert h.screen is t and t.my_turn
    before = game.n_moves
    h.play_turn()                                 # the recap never held the turn up
    assert game.n_moves > before


def test_pass_and_play_reads_the_story_once():
    """After the cover the story is a page; the table then names the card under the
    cursor instead of telling the story again."""
    h = Hands("pico_display", seed=5)
    h.start(levels=[0, 3, 0])
    h.play_to(("story",))
    h.press(S.OK)
    t = h.screen
    h.wait(AI_PACE_MS)
    assert t.my_turn and t.status == S.wrap(h.app._item_text(), t.cols)


def test_a_long_status_shows_its_first_page_in_full():
    """A new status text (here the card under the cursor) pages only 0.7 s after it came,
    however long the last one stood."""
    h = Hands("thumby", seed=5)                   # one status line of 18 characters
    h.start()
    t = to_human_turn(h)
    h.wait(3000)
    for _ in range(t.item_n):
        h.press(S.NEXT)
        if len(t.status) > 1:
            break
    assert len(t.status) > 1 and t.status_top == 0
    h.wait(600)
    assert t.status_top == 0
    h.wait(200)
    assert t.status_top == 1


def test_the_setup_may_sort_hands_by_rank():
    """setup["sort"] == "rank" (a setup row sets it): hands and the cards held at round
    end by rank, then suit (the default, by suit: the round end test)."""
    h = Hands("pico_oled", seed=6)
    h.choose("New game")
    h.screen.setup["sort"] = "rank"
    h.press_row(("start", 0))
    t = h.app.table
    for _ in range(3):
        t = to_human_turn(h)
        ranks = [(c & 15, c >> 4) for c in t.hand[:t.hand_n]]
        assert ranks == sorted(ranks) and t.by_rank
        h.play_turn()
    scores = h.play_to(("scores",))
    for row in scores.rows:
        assert [(c & 15, c >> 4) for c in row[3]] == sorted((c & 15, c >> 4) for c in row[3])


def test_the_winner_is_named_in_good_english():
    from firmware.between import wins
    assert wins("Greta") == "Greta wins" and wins("You") == "You win"


class CountingStore(Store):
    """A store that remembers the name of every file it writes."""

    def __init__(self, root):
        super().__init__(root)
        self.written = []

    def write(self, name, parts):
        self.written.append(name)
        return super().write(name, parts)


@pytest.mark.parametrize("looped", [False, True])
def test_a_next_round_is_saved_once_as_it_is_dealt(tmp_path, looped):
    from firmware.save import MATCH
    store = CountingStore(str(tmp_path))
    h = Hands("pico_display", store=store, seed=9)
    h.start(levels=[3, 3], match="rounds")
    h.play_to(("between",))
    h.app.looped = looped        # a device loop deals on the next frame (App.hold)
    del store.written[:]
    h.choose("Deal next round")
    h.app.next_frame()
    assert h.app.game.in_round() and h.app.game.n_moves == 0
    assert store.written.count(MATCH) == 1
    resumed, _ = store.load_game(8)
    assert resumed.match.rounds_played == 1 and resumed.in_round()



def test_the_frame_that_deals_leaves_the_first_ai_move_to_the_next_frame(tmp_path):
    # a deal's frame allocates the game, its table and its save: an AI move due at once
    # waits one frame (a collection between), never its pace
    h = Hands("pico_display", store=Store(str(tmp_path)), seed=9)
    h.start(levels=[3, 3], match="rounds")
    while True:
        h.play_to(("between",))
        h.app.looped = True                # a device loop: the deal waits for the next frame
        h.choose("Deal next round")
        assert h.app.dealing is h.app.game
        now = h.now + 10 * AI_PACE_MS      # any AI long overdue
        h.app.frame(now, NoKeys())         # the deal
        game = h.app.game
        assert game.in_round() and game.n_moves == 0 and h.app.dealing is None
        if game.ai_to_act():
            break
        h.app.looped = False               # a human opens this round: on to the next
    h.app.frame(now + 20, NoKeys())
    assert game.n_moves == 1


class NoKeys:
    """A device's buttons with none pressed."""

    def poll(self, now_ms):
        pass

    def get(self):
        return -1


@pytest.mark.parametrize("name", ("pico_display",) + BOARDS)
def test_a_linked_boards_title_and_join_screen_fit_and_lead_to_host_and_join(name):
    import types
    b = types.SimpleNamespace(**{k: getattr(board(name), k) for k in dir(board(name))
                                 if not k.startswith("__")})
    b.open_link = lambda: None
    app = App(b, BoxCanvas(b.WIDTH, b.HEIGHT, b.DEPTH), None, 0, playouts=4, seed=1)
    items = app.screen.items
    assert len(items) == 4 and all(len(item) <= app.sizes.list_cols for item in items), items
    app.act(S.NEXT)
    app.act(S.OK)                          # Host: the setup, for a linked match
    assert app.screen.name == "setup" and app.link is not None


def test_the_final_tables_rows_above_the_cursor_are_seen_on_72x40():
    # 4 players and 2 items on a 4-row screen: with the cursor on New game the winner's row
    # was above the view, and PREV wrapped to Title without ever showing it
    h = Hands("thumby", seed=9)
    h.start(levels=[3, 3, 3, 3])
    sc = h.play_to(("final",))
    assert sc.top > 0 and sc.cursor == 0
    shown = lambda: (sc.lines + sc.items)[sc.top:sc.top + sc.fit]
    while sc.top > 0:
        h.press(S.PREV)
        assert sc.cursor == 0 and h.screen is sc
    assert shown() == sc.lines[:sc.fit]
    h.press(S.PREV)                        # then the list wraps round, as every list does
    assert sc.cursor == 1 and sc.items[1] in shown()
