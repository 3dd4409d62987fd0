"""A new game's setup: who sits where (a person by name, or an AI level), the rules, the
match, the hand's order; the name list and the letter grid for a new name.

firmware.app imports this module only while a game is being set up, for the setup screen
and for what its keys do (`take`; a custom setup's rule rows are firmware.custom's, the
name screens firmware.names'). Keys: NEXT/PREV (and UP/DOWN) move between rows, OK
changes a row's value forward (or opens, or starts), BACK changes it back, MENU leaves.
"""

from engine.compat import const, forget
from firmware.screens import (ListScreen, BACK, NOTHING, CANCEL, PAUSE,
                              DONE, HUMAN_NAMES, AI_NAMES)

LEVELS = ("human", "beginner", "casual", "strong", "expert")   # AI strengths 1-4
# each level in a line, and in a few words for the narrow screens: the title says it
# while a seat row is under the cursor
LEVEL_HINTS = ("A person at the device", "Plays any card that fits",
               "Plays its Jacks too soon", "Counts the cards played",
               "Thinks many deals ahead")
LEVEL_WORDS = ("A person", "Any card fits", "Wastes Jacks", "Counts cards", "Thinks ahead")
MATCH_KINDS = ("round", "rounds", "elimination")
_MAX_NAME = const(8)                 # characters in a player's name
REMEMBERED = const(6)                # names setup["names"] keeps for the name list
WIDE = const(24)                     # list columns for LEVEL_HINTS (else LEVEL_WORDS)


def default_setup():
    """The first setup offered: you against three strong AIs, classic, one round."""
    return {"seats": [["You", 0], ["Greta", 3], ["Hugo", 3], ["Ida", 3]],
            "preset": "classic", "options": {}, "match": "round", "limit": 1,
            "sort": "suit", "names": []}


def seat_names(levels, own=None):
    """Names for seats of these levels: a human's own name (`own[k]`, "" for none), else
    "You" when one human plays, else a name each; given names are never handed out again."""
    humans = 0
    for level in levels:
        if level == 0:
            humans += 1
    taken = [name for name in own if name] if own else []
    names = []
    for k in range(len(levels)):
        if levels[k]:
            name = _free(AI_NAMES, taken)
        elif own and own[k]:
            name = own[k]
        elif humans == 1:
            name = "You"
        else:
            mine = HUMAN_NAMES[k] if k < len(HUMAN_NAMES) else ""
            name = mine if mine and mine not in taken else _free(HUMAN_NAMES, taken)
        names.append(name)
        if name not in taken:
            taken.append(name)
    return names


def _free(pool, taken):
    """The first name of `pool` not taken yet."""
    for name in pool:
        if name not in taken:
            return name
    return "P%d" % len(taken)


def own_names(seats):
    """The names players gave their human seats in a setup ("" where the name is made up)."""
    own = []
    for k in range(len(seats)):
        name, level = seats[k][0], seats[k][1]
        made_up = name == "You" or (k < len(HUMAN_NAMES) and name == HUMAN_NAMES[k])
        own.append(name if level == 0 and not made_up else "")
    return own


def last_setup(store):
    """The setup played last (remembered by the store), else you against three AIs."""
    if store is not None:
        setup, _ = store.load_settings()
        if sound(setup):
            setup.setdefault("sort", "suit")
            setup.setdefault("names", [])
            return setup
    return default_setup()


def played_last(store):
    """last_setup for a look from elsewhere (the pause menu's Sound, link play): this
    module let go at once, as only a setup screen keeps its code."""
    forget("firmware.setup")
    return last_setup(store)


def sound(setup):
    """True when a remembered setup can be offered again (else the default is)."""
    try:
        from engine.rules import rules_of
        rules_of(setup).check_players(len(setup["seats"]))
        for name, level in setup["seats"]:
            if level not in (0, 1, 2, 3, 4) or not _fine_name(name):
                return False
        for name in setup.get("names", ()):
            if not _fine_name(name):
                return False
        return (setup.get("match", "round") in MATCH_KINDS and isinstance(setup["options"], dict)
                and setup.get("sort", "suit") in ("suit", "rank"))
    except (ValueError, KeyError, TypeError, AttributeError, IndexError):
        return False


def _fine_name(name):
    return isinstance(name, str) and 0 < len(name) <= _MAX_NAME


def remember(names, name):
    """`names` with `name` first (most recent first, each once, at most REMEMBERED)."""
    out = [name]
    for other in names:
        if other != name and len(out) < REMEMBERED:
            out.append(other)
    return out


class SetupScreen(ListScreen):
    """A new game's setup: seats, rules (a preset or custom options), match kind, Start,
    the hand's order, a name row per human seat.

    OK changes the value of the row under the cursor forward, BACK back (rows wrap);
    Start returns START, or REFUSED with the reason in `error` and the cursor on the row
    to change; a name row returns NAME (`naming` is its seat). `setup` is the dict
    firmware.game.Game takes; `opened` is the screen a NAME or REFUSED asks for.
    """

    START = 1000
    NAME = 1001
    REFUSED = 1002

    def __init__(self, setup, fit=4, cols=30, arrows=False):
        self.setup = setup
        self.cols = cols
        self.arrows = arrows              # the board has UP/DOWN as well (the letter grid)
        self.levels = [seat[1] for seat in setup["seats"]]
        self.own = own_names(setup["seats"])    # names players gave their seats ("": none)
        self.naming = -1
        self.custom = bool(setup.get("options"))
        self.error = ""
        self.opened = None
        self.rows_of = []
        ListScreen.__init__(self, "setup", "New game", [], (), fit)
        self.rebuild()

    def _rules(self):
        from engine.rules import Rules
        return Rules(self.setup.get("preset", "classic"), **self.setup.get("options", {}))

    def _row(self, rows, items, what, arg, short, long=None):
        rows.append((what, arg))
        items.append(long if long is not None and len(long) <= self.cols else short)

    def rebuild(self):
        """Recompute the rows (and the setup dict) from the choices made."""
        s = self.setup
        names = seat_names(self.levels, self.own)
        s["seats"] = [[names[k], self.levels[k]] for k in range(len(self.levels))]
        rows, items = [], []
        self._row(rows, items, "players", 0, "Players: %d" % len(self.levels))
        for k in range(len(self.levels)):
            level = LEVELS[self.levels[k]]
            self._row(rows, items, "seat", k, "%s %s" % (names[k], level),
                      "%d %s: %s" % (k + 1, names[k], level))
        self._row(rows, items, "preset", 0, "Rules: %s" % ("custom" if self.custom else s["preset"]))
        if self.custom:
            _custom().rows(self, rows, items)
        kind = MATCH_KINDS.index(s.get("match", "round"))
        self._row(rows, items, "match", 0, "Match: %s" % ("1 round", "rounds", "knockout")[kind])
        if kind == 1:
            self._row(rows, items, "limit", (2, 3, 4, 5, 8, 10), "Rounds: %d" % s["limit"])
        elif kind == 2:
            self._row(rows, items, "limit", (50, 100, 150, 200, 300), "Out above: %d" % s["limit"],
                      "Out above %d points" % s["limit"])
        self._row(rows, items, "start", 0, "Start")
        # after Start, so that the rows above keep their places
        self._row(rows, items, "sort", 0, "Sort: by %s" % s.get("sort", "suit"),
                  "Sort my hand by %s" % s.get("sort", "suit"))
        for k in range(len(self.levels)):
            if self.levels[k] == 0:
                self._row(rows, items, "name", k, "Rename %s" % names[k])
        self.rows_of, self.items = rows, items
        if self.cursor >= len(items):
            self.cursor = len(items) - 1
        self.follow()
        self._explain()

    def _explain(self):
        """The title: what the level under the cursor means (else "New game")."""
        what, arg = self.rows_of[self.cursor]
        if what == "seat":
            self.title = (LEVEL_HINTS if self.cols >= WIDE else LEVEL_WORDS)[self.levels[arg]]
        else:
            self.title = "New game"

    def on(self, action):
        """Move, change the row's value (OK forward, BACK back), name a seat, or start."""
        if action == BACK:
            what, arg = self.rows_of[self.cursor]
            if what in ("start", "name"):
                return NOTHING
            self.change(what, arg, -1)
            self.rebuild()
            return NOTHING
        got = ListScreen.on(self, action)
        if got < 0:
            self._explain()
            return got
        what, arg = self.rows_of[got]
        if what == "start":
            return self.start()
        if what == "name":
            from firmware.names import NameList
            self.naming = arg
            self.opened = NameList(arg, self)
            return self.NAME
        self.change(what, arg, 1)
        self.rebuild()
        return NOTHING

    def change(self, what, arg, step=1):
        """Step one setting to its next value (`step` 1) or its previous one (-1)."""
        s = self.setup
        if what == "players":
            most = self._rules().most_players()
            n = len(self.levels) + step
            if n > most:
                n = 2
            elif n < 2:
                n = most
            while len(self.levels) > n:
                self.levels.pop()
                self.own.pop()
            while len(self.levels) < n:
                self.levels.append(3)
                self.own.append("")
        elif what == "seat":
            self.levels[arg] = (self.levels[arg] + step) % len(LEVELS)
        elif what == "preset":     # classic, nordic, custom (from the preset before it)
            presets = ("classic", "nordic")
            state = (2 if self.custom else presets.index(s["preset"])) + step
            if state % 3 == 2:
                self.custom = True
                s["options"] = _custom().first(s)
            else:
                self.custom = False
                s["options"] = {}
                s["preset"] = presets[state % 3]
        elif what == "base":
            s["preset"] = "nordic" if s["preset"] == "classic" else "classic"
        elif what == "option":
            _custom().change(s, arg, step)
        elif what == "match":
            kind = (MATCH_KINDS.index(s.get("match", "round")) + step) % 3
            s["match"] = MATCH_KINDS[kind]
            s["limit"] = (1, 3, 100)[kind]
        elif what == "limit":
            s["limit"] = cycle(s["limit"], arg, step)
        elif what == "sort":
            s["sort"] = "rank" if s.get("sort", "suit") == "suit" else "suit"

    def rename(self, seat, name):
        """Give the human at `seat` their own name ("": a made-up one again)."""
        self.own[seat] = name
        self.rebuild()

    def after(self, screen, got):
        """What a screen this one opened decided: the screen to show next, or None (stay).
        A name given, the cursor waits on Start."""
        if screen.name == "names" and got == 0:
            from firmware.names import NameScreen
            return NameScreen(screen.seat, "", self.fit, self.arrows, self.cols)
        if screen.name == "names" and got > 0:
            return self._back(screen.seat, screen.items[got])
        if screen.name == "name" and got == DONE:
            return self._back(screen.seat, screen.text)
        if got == DONE and screen.name == "refused" or got in (CANCEL, PAUSE):
            return self._back()
        return None

    def _back(self, seat=-1, name=None):
        """Back to this screen (`name` given to the human at `seat`: the cursor on Start);
        the screen it opened and firmware.names let go."""
        self.opened = None
        forget("firmware.names")
        if name is not None:
            self.rename(seat, name)
            self.cursor = self.rows_of.index(("start", 0))
            self.follow()
            self._explain()
        return self

    def start(self):
        """START when these rules deal to these players under different names; else
        REFUSED, the reason in `error` (and on `opened`), the cursor on the row to change."""
        self.error = ""
        rules = self._rules()
        n = len(self.levels)
        names = [seat[0] for seat in self.setup["seats"]]
        for k in range(n):
            if names[k] in names[:k]:
                return self._refuse(("Two players are called %s." % names[k], "Rename one."),
                                    ("name", k) if self.levels[k] == 0 else ("seat", k))
        try:
            rules.check_players(n)
        except ValueError:
            if n > rules.max_players:
                why = ("These rules seat 2 to %d players." % rules.max_players,
                       "Fewer players, please.")
            else:
                why = ("%d players x %d cards need %d cards."
                       % (n, rules.hand_size, n * rules.hand_size + 1),
                       "The deck has %d: fewer players or cards." % rules.deck_size())
            return self._refuse(why, ("players", 0))
        names = self.setup.get("names", [])
        for name in self.own:
            if name:
                names = remember(names, name)
        self.setup["names"] = names
        return self.START

    def _refuse(self, why, row):
        """REFUSED: the sentences `why` on a page of their own, the cursor on `row`."""
        self.error = " ".join(why)
        self.cursor = self.rows_of.index(row)
        self.follow()
        self._explain()
        from firmware.pages import PagesScreen
        forget("firmware.pages")
        self.opened = PagesScreen("refused", "Cannot start", why, self.cols, self.fit - 1)
        return self.REFUSED


def take(app, got):
    """What `got` on the setup screen (or a screen it opened: the names, a name, why not)
    does for App.act: start the match, open a screen, or leave for the title."""
    sc = app.screen
    if sc.name != "setup":
        then = app.back_to.after(sc, got)
        if then is not None:
            app.show(then)
    elif got == sc.START:
        app.back_to = None
        forget("firmware.setup")    # its code leaves the heap with the setup screen
        if app.looped:              # dealt on the next frame, never beside it
            app.hold(sc.setup)
        else:
            app._start(sc.setup)
    elif got == sc.NAME or got == sc.REFUSED:   # the name list, or why not
        app.back_to = sc
        app.show(sc.opened)
    elif got == PAUSE:
        forget("firmware.setup")
        app.title()


def _custom():
    """firmware.custom, for one use: let go after (a preset's setup never loads it)."""
    from firmware import custom
    forget("firmware.custom")
    return custom


def cycle(value, allowed, step=1):
    """The value after (`step` 1) or before (-1) `value` among the allowed ones (numbers:
    a few useful steps)."""
    if isinstance(allowed, range):
        choices = [v for v in (3, 4, 5, 6, 7, 8, 10) if v in allowed]   # hand sizes
    else:
        choices = list(allowed)
    for i in range(len(choices)):
        if choices[i] == value and (value is not True and value is not False
                                    or choices[i] is value):
            return choices[(i + step) % len(choices)]
    return choices[0]
