"""The game a handheld holds: a match, its rounds, who sits where, AI turns, hints,
catches and pass-and-play. Screens read it and hand it the humans' moves; they never
touch the engine's hidden state.

    Game(setup, seed=None, playouts=None, deadline_ms=DEVICE_MS)

`setup` is `{"seats": [[name, level], ...], "preset": "classic", "options": {...},
"match": "round" | "rounds" | "elimination", "limit": n}` (level 0 a human, 1-4 an AI:
beginner .. expert). The AIs think within `playouts` (a count: tests, deterministic)
or `deadline_ms` (a device). A Game deals its first round at once.

| call | answer |
|---|---|
| `to_move()` | the seat to move, -1 when no round is being played |
| `is_human(seat)`, `name(seat)`, `players()`, `solo()` | about the seats of this round; one human plays |
| `view(seat)` | the seat's engine View (one shared object, refilled each call) |
| `legal(seat, out)` | the seat's legal moves into array('H') `out`; returns the count |
| `play(move)` | the human to move makes `move`; bad input raises the engine's IllegalMove |
| `catch(seat)` | human `seat` catches the player who forgot to say Mau |
| `hint(finish=True)` | a good legal move for the human to move, whole: the Expert's search at a table with an Expert, else Strong's choice |
| `ai_to_act()` / `step_ai(finish=True)` | an AI has an action due / make exactly one; returns the move |
| `think()` | one slice of search between frames (the AI due, else pondering); True: nothing left |
| `last_seat`, `last_move` | who made the last move, and which |
| `needs_cover()` / `uncover()` | pass-and-play: "Pass to <cover_name()>" is due / dismissed |
| `hand_view()` | the View of the human who last dismissed the cover (None: nobody) |
| `story(seat)` | sentences of what happened since that seat's human last moved |
| `last_lines()` | sentences of the last move, told to the human holding the device |
| `round_over()`, `results()`, `held()` | the round has been scored; [(name, points, total)]; the cards each seat held |
| `next_round()`, `join(name, level)`, `leave(player)` | between rounds |
| `seated()`, `player_name(p)`, `totals()` | players (numbered by joining) between rounds |
| `match_over()`, `winner()` | the match has ended; the winner's player number |
| `on_change` | called with the game after every completed move and every change between rounds |

The save (firmware.save) is `snapshot()`; firmware.resume rebuilds the game from it: the
dealt table, the generator at the deal and the moves since, replayed through the engine.
"""

from array import array

from engine import moves as mv
from engine.ai import new_player, DEVICE_MS, STRONG, EXPERT, ponderer
from engine.compat import const, forget, ticks_ms, ticks_add, ticks_diff
import engine.round     # the rounds the match deals: their code loads with the game's
from firmware import story

_RING = const(64)       # events kept for the stories: a human's story is about a lap (at most
                        # 31 events in 60 matches of 4 and 5 players); older ones read "..."
_HUMAN = const(0)
_NO_ONE = const(-1)
_SEAT_SHIFT = const(11)  # a recorded move is seat << 11 | move (moves fit in 11 bits)
_MOVE_MASK = const(0x7FF)
SLICE_MS = const(20)    # a slice of search between two frames: walks while under this ...
GAP_MS = const(45)      # ... starting none that the longest walk of the decision seen
                        # would carry past this (the UI's longest pause, issue 17) ...
_SLICE_WALKS = const(4)  # ... and at most this many walks (so the simulator's games,
                        # on a quick CPU, depend on the frames alone)


class Game:
    """A match in play on one device: humans and AIs, pass-and-play, stories."""

    def __init__(self, setup, seed=None, playouts=None, deadline_ms=DEVICE_MS, deal=True):
        from firmware.deal import open_game    # run once, then let go
        open_game(self, setup, seed, playouts, deadline_ms)
        forget("firmware.deal")
        if deal:
            self.next_round()

    def _add_player(self, name, level):
        if level is True or level is False or not (isinstance(level, int) and 0 <= level <= 4):
            raise ValueError("level %r is not possible: 0 (human) or 1 to 4 (AI)" % (level,))
        p = len(self.names)
        self.names.append(name)
        self.levels.append(level)
        if level == _HUMAN:
            self.ais.append(None)
        else:
            seed = (self.seed * 7 + p * 7919 + 1) & 0x3FFFFFFF
            self.ais.append(new_player(self.rules, level, seed, self.playouts, self.deadline_ms))
        return p

    # -- seats ---------------------------------------------------------------

    def players(self):
        """Seats in the current round (or the next one, between rounds)."""
        return len(self.match.seated)

    def name(self, seat):
        """The name of the player at `seat`."""
        return self.names[self.match.seated[seat]]

    def names_by_seat(self):
        """Names in the seat order of the round being told (kept when it ends)."""
        return [self.names[p] for p in self.round_seated]

    def is_human(self, seat):
        """True if a person plays `seat`."""
        return self.levels[self.match.seated[seat]] == _HUMAN

    def seated(self):
        """Player numbers at the table, in seat order."""
        return list(self.match.seated)

    def player_name(self, player):
        """The name of player number `player`."""
        return self.names[player]

    def totals(self):
        """Minus points of every player so far, by player number."""
        return list(self.match.totals)

    def solo(self):
        """True when one human plays: the device never changes hands."""
        return self._humans()[0] == 1

    def _humans(self):
        n = 0
        only = _NO_ONE
        for p in self.match.seated:
            if self.levels[p] == _HUMAN:
                n += 1
                only = p
        return n, only

    # -- the round in play ---------------------------------------------------

    def in_round(self):
        """True while a round is being played."""
        return self.rnd is not None and not self.rnd.is_over()

    def to_move(self):
        """The seat to move, or -1 when no round is being played."""
        return self.rnd.turn() if self.in_round() else -1

    def view(self, seat):
        """What `seat` may know, as an engine View (refilled on each call)."""
        return self.rnd.view(seat, self._view)

    def legal(self, seat, out):
        """Write `seat`'s legal moves into array('H') `out`; return how many."""
        if self.rnd is None:
            return 0
        return self.rnd.legal_moves(seat, out)

    def ai_to_act(self):
        """True when step_ai() has an action to make: an AI's catch or an AI's turn."""
        if not self.in_round():
            return False
        return self.catcher >= 0 or not self.is_human(self.rnd.turn())

    def play(self, move):
        """The human to move makes `move` (IllegalMove, unchanged, on bad input)."""
        seat = self.to_move()
        if seat < 0 or not self.is_human(seat):
            raise ValueError("no human is to move")
        if self.catcher >= 0:
            raise ValueError("an AI acts first: call step_ai()")
        self._make(seat, move)

    def catch(self, seat=None):
        """Human `seat` (default: the one to move) calls out the player who forgot Mau."""
        if seat is None:
            seat = self.to_move()
        if not self.in_round() or not self.is_human(seat):
            raise ValueError("only a human at the table catches here")
        debtor = self.rnd.debtor()
        target = debtor if debtor is not None else (seat + 1) % self.players()
        self._make(seat, mv.catch(target))

    def hint(self, finish=True):
        """A good legal move for the human to move, whole (card, wish, Mau), from the
        human's view: the Expert's search where an Expert plays at the table (`finish`
        False: its heuristic's first choice), else Strong's choice; its player made when
        asked and let go after."""
        helper = self._thinker(self.to_move())
        if finish:
            self._finish(helper)
        move = helper.best()
        self.helper = self.thinking = None
        return move

    def think(self):
        """One slice of search between frames (SLICE_MS, ending by GAP_MS) for the AI due
        to act; while a human is to move, the Expert that moved last ponders (the hint is
        searched when asked). True when there is nothing (more) to think about."""
        if not self.in_round() or self.catcher >= 0:
            return True
        seat = self.rnd.turn()
        start = self._walked = ticks_ms()
        if self.ais[self.match.seated[seat]] is None:
            self._ponder(start, _SLICE_WALKS)
            return True
        ai = self._thinker(seat)
        for i in range(_SLICE_WALKS):
            if ai.think(1):
                if self._walk_fits(start):
                    self._ponder(start, _SLICE_WALKS - i)
                return True
            if not self._walk_fits(start):
                break
        return False

    def _walk_fits(self, start):
        """After a walk: whether the slice begun at `start` makes another (under
        SLICE_MS, and the longest walk seen would end by GAP_MS)."""
        now = ticks_ms()
        walk = ticks_diff(now, self._walked)
        self._walked = now
        if walk > self.walk_ms:
            self.walk_ms = walk
        spent = ticks_diff(now, start)
        return spent < SLICE_MS and spent + self.walk_ms <= GAP_MS

    def _ponder(self, start, walks):
        """The rest of a slice: the Expert whose tree the search holds searches on in
        it (engine.ai Player.ponder) while another seat moves or a move is shown."""
        ai = ponderer(self.rules)
        if ai is None or ai not in self.ais:
            return
        seated = self.match.seated
        p = self.ais.index(ai)
        if p not in seated:
            return
        view = self.rnd.view(seated.index(p), self._scratch)   # still in a slice
        while walks and ai.ponder(view, 1):
            if not self._walk_fits(start):
                return
            walks -= 1

    def _thinker(self, seat):
        """The player deciding for `seat` now (the hint's player for a human), its
        decision begun once for this table."""
        ai = self.ais[self.match.seated[seat]]
        if ai is None:
            if self.helper is None:
                self.helper = self._hinter()
            ai = self.helper
        if (self.thinking is not ai or self.thought != self.n_moves
                or self.thought_rnd is not self.rnd):
            self.thinking = ai
            self.thought = self.n_moves
            self.thought_rnd = self.rnd
            if ai is self.helper:
                # the hint judges the view alone; an Expert's random numbers come from the
                # table alone (a resumed game hints as the uninterrupted one)
                ai.new_round()
                if ai.level == EXPERT:
                    ai.prng.seed(self.seed ^ self.match.rounds_played << 12
                                 ^ self.n_moves << 16)
            n = self.rnd.legal_moves(seat, self._legal)
            ai.begin(self.rnd.view(seat, self._scratch), self._legal, n)
            self.walk_ms = 0      # learnt anew: a stall once does not shorten every slice
        return ai

    def _hinter(self):
        """The hint's player: an Expert where one plays at this table (its code is in
        memory then), else Strong, its first choice (the Expert's search would load 16 KB
        of code from files at the table, and keeps Strong's choice nine times in ten)."""
        seed = self.seed ^ 0x4E17
        for ai in self.ais:
            if ai is not None and ai.level == EXPERT:
                from engine.expert import Expert
                # its own tables: the AIs' tree stays as it is
                return Expert(self.rules, seed, self.playouts, own=True)
        return new_player(self.rules, STRONG, seed, self.playouts)

    def _finish(self, ai):
        """Search to the end of the budget (or the device deadline)."""
        deadline = self.deadline_ms
        stop = ticks_add(ticks_ms(), deadline)
        while not ai.think(8):
            if deadline and ticks_diff(stop, ticks_ms()) <= 0:
                return

    def step_ai(self, finish=True):
        """Make exactly one AI action (a due catch, else the AI to move); return the move.
        The AI's search runs to its end, or with `finish` False stops where think() got."""
        if not self.ai_to_act():
            raise ValueError("no AI action is due")
        rnd = self.rnd
        if self.catcher >= 0:
            seat = self.catcher
            move = mv.catch(rnd.debtor())
        else:
            seat = rnd.turn()
            ai = self._thinker(seat)
            if finish:
                self._finish(ai)
            move = ai.best()
            if move is None:
                n = rnd.legal_moves(seat, self._legal)
                move = self._legal[n - 1]  # never happens for the seat to move: be safe
        self._make(seat, move)
        return move

    def _make(self, seat, move):
        """Check, apply, then what follows the move."""
        rnd = self.rnd
        if not (isinstance(move, int) and rnd.is_legal(seat, move)):
            rnd.apply(seat, move)  # raises the engine's IllegalMove with its reason
        self._apply(seat, move)
        player = self.match.seated[seat]
        if self.levels[player] == _HUMAN:
            self.heard[player] = self.told
        self._after_move()

    def _apply(self, seat, move):
        """Tell the AIs, apply the (legal) move to the round, record it."""
        rnd = self.rnd
        self._observe(seat, move)
        pays = rnd.pending() > 0
        rnd.apply(seat, move)
        self._record(seat, move, pays)

    def _observe(self, seat, move):
        """Every watching AI learns from the move, seen from its own seat before it."""
        seated = self.match.seated
        for k in range(len(seated)):
            ai = self.ais[seated[k]]
            if ai is not None and ai.watches:    # its own moves too (the Expert's tree)
                ai.observe(self.rnd.view(k, self._scratch), seat, move)

    def _record(self, seat, move, pays):
        """Keep the move (for the save) and its events (for the stories)."""
        n = self.n_moves
        if n == len(self.moves):
            grown = array("H", range(2 * n))
            for i in range(n):
                grown[i] = self.moves[i]
            self.moves = grown
        self.moves[n] = seat << _SEAT_SHIFT | move
        self.n_moves = n + 1
        self.last_seat = seat
        self.last_move = move
        self.last_mark = self.told
        self._tell(story.marker(seat, move, pays and move & mv.KIND_MASK == mv.DRAW))
        rnd = self.rnd
        for i in range(rnd.event_count()):
            self._tell(rnd.events[i])

    def _tell(self, e):
        self.ring[self.told % _RING] = e
        self.told += 1

    def _after_move(self):
        """Score a finished round; else ask the AIs whether they catch a forgotten Mau."""
        self.catcher = _NO_ONE
        if self.rnd.is_over():
            self._keep_left()
            self.match.end_round()
        else:
            self._ask_catchers()
        self._changed()

    def _keep_left(self):
        """Remember the cards each seat holds as the round ends (they are scored)."""
        rnd = self.rnd
        self.left = [bytes(rnd.hand(k)) for k in range(rnd.players())]

    def _ask_catchers(self):
        """AIs not to move are asked in seat order after the debtor; the AI to move
        decides on its turn (the catch is among its legal moves)."""
        rnd = self.rnd
        debtor = rnd.debtor()
        if debtor is None:
            return
        players = rnd.players()
        for k in range(1, players):
            seat = (debtor + k) % players
            ai = self.ais[self.match.seated[seat]]
            if ai is None or seat == rnd.turn():
                continue
            n = rnd.legal_moves(seat, self._legal)
            if ai.choose(rnd.view(seat, self._scratch), self._legal, n) is not None:
                self.catcher = seat
                return

    # -- pass-and-play -------------------------------------------------------

    def _actor(self):
        """The player number of the human to act next, or -1 (an AI acts, or no round)."""
        if not self.in_round() or self.ai_to_act():
            return _NO_ONE
        return self.match.seated[self.rnd.turn()]

    def needs_cover(self):
        """True when the human to act is not the one who last saw a hand."""
        p = self._actor()
        if p < 0 or p == self.seen:
            return False
        return self._humans()[0] > 1

    def cover_name(self):
        """The name on the cover screen: "Pass to <name>"."""
        p = self._actor()
        return self.names[p] if p >= 0 else ""

    def uncover(self):
        """The human to act dismissed the cover: from now on their hand may be shown."""
        p = self._actor()
        if p < 0:
            raise ValueError("no human is to act")
        self.seen = p

    def _holder(self):
        """The human holding the device: the one who last saw a hand, or the only one."""
        n, only = self._humans()
        if n == 1:
            return only
        return self.seen if self.seen in self.match.seated else _NO_ONE

    def holder_seat(self):
        """The seat of the human holding the device (who last saw a hand, or the only
        human), or -1: nobody's hand may be shown."""
        p = self._holder()
        if p < 0:
            return _NO_ONE
        return self.match.seated.index(p)

    def hand_view(self):
        """The View of the human holding the device, for drawing; None if nobody (or
        between rounds)."""
        p = self._holder()
        if p < 0 or self.match.round is None:
            return None
        return self.rnd.view(self.match.seated.index(p), self._view)

    def story(self, seat):
        """What happened since `seat`'s human last moved, told to that seat."""
        start = self.heard[self.round_seated[seat]]
        return self._lines(start, seat)

    def last_lines(self):
        """The last move in words, told to the human holding the device."""
        p = self._holder()
        seats = self.round_seated
        seat = seats.index(p) if p in seats else story.NO_VIEWER
        return self._lines(self.last_mark, seat)

    def _lines(self, start, viewer):
        lines = []
        if start < self.told - _RING:
            start = self.told - _RING
            lines.append("...")
        if self.rnd is None:
            return lines
        return lines + story.tell(self.ring, start, self.told, self.names_by_seat(), viewer)

    # -- between rounds ------------------------------------------------------

    def round_over(self):
        """True between rounds (the last round is scored; none dealt yet)."""
        return self.match.round is None

    def results(self):
        """The last round by seat: [(name, points, total)], or [] before any."""
        m = self.match
        if m.last_points is None:
            return []
        return [(self.names[p], m.last_points[k], m.totals[p])
                for k, p in enumerate(m.last_seats)]

    def held(self):
        """The cards each seat still held when the last round ended (bytes, by seat as in
        results())."""
        return self.left

    def round_winner(self):
        """The player who won the last round, or None (nobody, or no round yet)."""
        return self.match.last_winner

    def rounds_played(self):
        """Rounds scored so far."""
        return self.match.rounds_played

    def match_over(self):
        """True once no further round will be dealt."""
        return self.match.is_over()

    def winner(self):
        """The winner's player number once the match is over, else None."""
        return self.match.winner()

    def next_round(self):
        """Deal the next round."""
        m = self.match
        rnd = m.start_round()
        self._begin(rnd)
        self._keep_deal(rnd.s)
        self._changed()

    def _keep_deal(self, table):
        """Remember the table as dealt and the generator after the deal (for the save)."""
        if self.dealt is None:
            self.dealt = bytearray(len(table))
        self.dealt[:] = table
        self.deal_rng = self.match.rng.state()

    def _begin(self, rnd):
        """Start keeping a freshly dealt (or restored) round."""
        self.rnd = rnd
        self.round_seated = list(self.match.seated)
        self.n_moves = 0
        self.told = 0
        self.catcher = _NO_ONE
        self.last_seat = _NO_ONE
        self.last_move = _NO_ONE
        self.last_mark = 0
        self.heard = [0] * len(self.names)
        # a new deal, or a resumed one: the device may have changed hands, so the first
        # human to act takes it from a cover
        self.seen = _NO_ONE
        for p in self.match.seated:
            ai = self.ais[p]
            if ai is not None:
                ai.new_round()
        self._tell(rnd.events[0])  # the deal
        self._tell(story.event(story.UPCARD, 0, rnd.top()))

    def join(self, name, level):
        """Seat a new player between rounds at the worst total; return their number."""
        self.match.join()
        p = self._add_player(name, level)
        self.heard.append(0)
        self._changed()
        return p

    def leave(self, player):
        """Player number `player` leaves between rounds."""
        self.match.leave(player)
        self._changed()

    def _changed(self):
        """Tell on_change (the save) that the game changed."""
        if self.on_change is not None:
            self.on_change(self)

    # -- saving ----------------------------------------------------------------

    def snapshot(self):
        """(state, dealt, moves): what the save keeps. `state` is JSON-ready; `dealt` the
        table as dealt (or None between rounds); `moves` the recorded moves, an array('H')
        (seat << 11 | move) of which the first n_moves count."""
        m = self.match
        ais = []
        for ai in self.ais:
            if ai is None:
                ais.append(None)
            elif ai.level == EXPERT:
                ais.append([ai.rng.x, ai.rng.y, ai.prng.x, ai.prng.y])
            else:
                ais.append([ai.rng.x, ai.rng.y])
        playing = m.round is not None
        state = {
            "setup": self.setup, "seed": self.seed, "names": self.names,
            "levels": self.levels, "totals": m.totals, "seated": m.seated, "gone": m.gone,
            "played": m.rounds_played, "dealer": m.dealer,
            "last": [m.last_points, m.last_seats, m.last_winner],
            "rng": list(self.deal_rng if playing else m.rng.state()),
            "now": list(m.rng.state()),
            "ais": ais, "heard": self.heard, "catcher": self.catcher,
            "round": playing, "moves": self.n_moves if playing else 0,
            "left": [] if playing else [list(cards) for cards in self.left],
        }
        return state, (self.dealt if playing else None), self.moves
