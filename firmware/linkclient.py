"""A device that joined a linked match: it holds one seat, shows that seat's hand and the
public table with the same screens as local play, and sends its moves to the host.

    client = LinkClient(link, "Anna")   # link: firmware.link.Link
    client.tick(now_ms, app)            # every frame (App.tick calls it)

`RemoteGame` gives the app's screens the parts of firmware.game.Game they use, filled
from what the host sends: the seat's View, its legal moves, the story words, the
scores. The other seats' moves are shown the way the app shows an AI's. The host's
game is the truth: this side keeps no save. Messages: docs/link-messages.md.
"""

from array import array

from engine.compat import const, forget, ticks_add, ticks_diff
from engine.round import View
from firmware import linkmsg as M
from firmware import screens as S
from firmware import story

_RING = const(64)         # the story's events, as firmware.game keeps them
_MOVES = const(40)        # engine.moves.MAX_MOVES
_CATCH = const(0x600)     # engine.moves.CATCH
_KIND = const(0x600)
_MARK = const(15)         # firmware.story's MOVE marker kind
_BEAT_MS = const(1000)    # how often the device says which table it holds


class RemoteGame:
    """The match as one linked seat sees it: the table of the Game interface the
    screens read, fed by the host."""

    def __init__(self, info):
        from engine.rules import rules_of
        self.setup = info["r"]
        self.rules = rules_of(self.setup)
        self.tv = View(self.rules)
        self.ring = array("H", range(_RING))
        self.events = array("H", range(_MOVES))   # the last move's engine events (sound)
        self.nev = 0
        self.rnd = self                           # sound reads game.rnd.events
        self._legal = array("H", range(_MOVES))
        self.n_legal = 0
        self.on_change = None
        self.seat_info(info)
        self.round_no = -1
        self.n_moves = 0
        self.new_round()
        self.paused = False        # the match waits for a device (or for the host)
        self.scores = None         # (round, over, winner, rows, held, match winner)

    def seat_info(self, info):
        """The seats of this round, and which one is this device's."""
        self.me = info["s"]
        self.names = info["n"]
        self.levels = info["l"]
        self.host = info["h"]

    def new_round(self):
        """A new deal: the story starts again."""
        self.told = 0
        self.heard = 0
        self.last_mark = 0
        self.last_seat = -1
        self.last_move = -1
        self.unshown = False
        self.loaded = False
        self.sent = False          # a move went to the host; its answer has not come
        self.sent_n = -1           # the move number it was sent at
        self.legal_n = -1          # the move number the legal moves are for
        self.catch_n = -1          # the move number a catch out of turn is offered at
        self.catch_move = 0
        self.asked = False         # legal moves came: the table is to be filled again

    # -- what the host sends -------------------------------------------------------------

    def take_view(self, p):
        """VIEW: the seat's table at a move number."""
        self.n_moves = M.get16(p, 1)
        self.tv.s[:] = p[3:3 + len(self.tv.s)]
        self.tv.player = self.me
        self.loaded = True
        if self.n_moves != self.sent_n:
            self.sent = False         # the table moved on: the move was made (a view of
                                      # the same move number is a copy: it still waits)
        self.scores = None if not self.tv.is_over() else self.scores

    def take_legal(self, p):
        """LEGAL: the seat's moves when it is to move; a catch alone, out of its turn."""
        n = (len(p) - 3) // 2
        if n == 1 and M.get16(p, 3) & _KIND == _CATCH:
            self.catch_move = M.get16(p, 3)   # a turn has a draw or pass besides
            self.catch_n = M.get16(p, 1)
            self.asked = True
            return
        for i in range(n):
            self._legal[i] = M.get16(p, 3 + 2 * i)
        self.n_legal = n
        self.legal_n = M.get16(p, 1)
        self.asked = True

    def take_events(self, p):
        """EVENTS: story words, as the game's ring keeps them."""
        for i in range(3, len(p) - 1, 2):
            if p[i + 1] & 15 >= len(self.names):
                raise ValueError("a word about no seat")
        self.last_mark = self.told
        mine = False
        for i in range(3, len(p) - 1, 2):
            e = p[i] | p[i + 1] << 8
            if e >> 12 == _MARK:
                self.nev = 0
                self.last_seat = e >> 8 & 15
                mine = self.last_seat == self.me
            elif self.nev < len(self.events):
                self.events[self.nev] = e
                self.nev += 1
            self.ring[self.told % _RING] = e
            self.told += 1
        if mine:
            self.heard = self.told
        self.unshown = True

    def take_scores(self, p):
        """SCORES: the round's points, totals and the cards each seat held."""
        rows, held = [], []
        n = 5
        if p[3] != len(self.names):
            raise ValueError("scores of another table")
        for k in range(p[3]):
            pts, total, m = M.get16(p, n), M.get16(p, n + 2), p[n + 4]
            rows.append((self.names[k], _signed(pts), _signed(total)))
            held.append(bytes(p[n + 5:n + 5 + m]))
            n += 5 + m
        if n != len(p):
            raise ValueError("scores cut short")
        self.scores = (p[0], p[1] == 1, p[2], rows, held, p[4])

    # -- the Game interface the screens use ----------------------------------------------

    def event_count(self):
        """Engine events of the last move shown (the sound's cues read them)."""
        return self.nev

    def players(self):
        """Seats in this round."""
        return len(self.names)

    def name(self, seat):
        """The name at `seat`."""
        return self.names[seat]

    player_name = name

    def is_human(self, seat):
        """True if a person plays `seat` (here or on another device)."""
        return self.levels[seat] == 0

    def seated(self):
        """Seats, as player numbers of this device's match: the round's seat order."""
        return list(range(len(self.names)))

    def solo(self):
        """A linked device is held by one player."""
        return True

    def in_round(self):
        """True while a round is played and its table is here."""
        return self.loaded and not self.tv.is_over()

    def to_move(self):
        """The seat to move; -1 between rounds or while this seat's move is on its way."""
        if self.sent or self.paused or not self.in_round():
            return -1
        turn = self.tv.turn()
        if turn == self.me and self.legal_n != self.n_moves:
            return -1                 # its legal moves are on their way
        return turn

    def view(self, seat):
        """The seat's table (the only one this device has)."""
        return self.tv

    def hand_view(self):
        """The View whose hand the table shows."""
        return self.tv if self.loaded else None

    def holder_seat(self):
        """This device's seat."""
        return self.me

    def legal(self, seat, out):
        """The seat's legal moves into `out` when it is to move now, the catch it may make
        out of turn, else 0."""
        if seat != self.me or self.sent or self.paused or not self.in_round():
            return 0
        if self.catch_n == self.n_moves and self.to_move() != seat:
            out[0] = self.catch_move
            return 1
        if self.legal_n != self.n_moves or self.to_move() != seat:
            return 0
        for i in range(self.n_legal):
            out[i] = self._legal[i]
        return self.n_legal

    def ai_to_act(self):
        """Another seat's move came from the host and is not yet shown."""
        return self.unshown

    def think(self):
        """Nothing to search here: the host's AIs think on the host."""
        return True

    def step_ai(self, finish=True):
        """Show the move the host sent (the app shows it at an AI's pace)."""
        self.unshown = False
        return self.last_move

    def needs_cover(self):
        """Nothing to hide: one player holds this device."""
        return False

    def cover_name(self):
        """No cover on a linked device."""
        return ""

    def uncover(self):
        """No cover on a linked device."""

    def hint(self, finish=True):
        """The move the AI suggests, from this seat's table and legal moves."""
        from engine.expert import suggest
        return suggest(self.tv, self._legal, self.legal(self.me, self._legal))

    def play(self, move):
        """Send the move to the host; it comes back as the host made it."""
        self.link_move(move)
        self.sent = True
        self.sent_n = self.n_moves

    def catch(self, seat=None):
        """Call out the player who forgot Mau (the catch among the legal moves)."""
        for i in range(self.legal(self.me, self._legal)):
            if self._legal[i] & _KIND == _CATCH:
                self.play(self._legal[i])
                return

    def last_lines(self):
        """The last move(s) shown, in words for this seat."""
        if self.sent:
            return []
        return story.tell(self.ring, max(self.last_mark, self.told - _RING), self.told,
                          self.names, self.me)

    def story(self, seat):
        """What happened since this seat last moved."""
        start = self.heard
        lines = []
        if start < self.told - _RING:
            start = self.told - _RING
            lines.append("...")
        return lines + story.tell(self.ring, start, self.told, self.names, self.me)

    def round_over(self):
        """True once the host sent the scores of the round."""
        return self.scores is not None and not self.unshown

    def results(self):
        """[(name, points, total)] by seat."""
        return self.scores[3] if self.scores else []

    def held(self):
        """The cards each seat held when the round ended."""
        return self.scores[4] if self.scores else []

    def round_winner(self):
        """The seat that won the round, or None."""
        w = self.scores[2] if self.scores else 255
        return None if w == 255 else w

    def rounds_played(self):
        """Rounds scored so far."""
        return self.scores[0] if self.scores else 0

    def match_over(self):
        """True once the host says no round follows."""
        return self.scores is not None and self.scores[1]

    def winner(self):
        """The match winner's seat, or None."""
        w = self.scores[5] if self.scores else 255
        return None if w == 255 else w

    def totals(self):
        """Totals by seat."""
        return [row[2] for row in self.results()]


def _signed(v):
    return v - 0x10000 if v & 0x8000 else v


class LinkClient:
    """A device in the lobby and then at a linked seat: the wire's side of RemoteGame."""

    def __init__(self, link, name, version=M.VERSION):
        self.link = link
        self.name = name
        self.version = version
        self.host = None           # the host's address, once heard
        self.game = None           # RemoteGame, once seated
        self.offer = []            # (seat, name) the host offered
        self.refused = ""          # the host's words when it refused this device
        self.waiting = ""          # the name the match waits for ("" : playing)
        self.lost = False          # the host went quiet: waiting for it
        self.buf = bytearray(8)
        self.move = bytearray(5)   # the move on its way: sent until the link takes it
        self.moving = False
        self.beat_due = 0
        self.changed = False       # the app has news to show (the lobby, a pause)
        self.malformed = 0         # messages of the wrong shape, dropped
        self.seated = b""          # the parts of a SEATED message so far

    def tick(self, now_ms, app=None):
        """Receive what the host sent; say hello, heartbeat, notice a lost host."""
        link = self.link
        while True:
            got = link.poll()
            if got is None:
                break
            try:
                self._on(got[0], got[1], got[2], app)
            except (ValueError, IndexError, KeyError, TypeError):
                self.malformed += 1    # a message of the wrong shape: dropped, counted
        if self.host is not None:
            up = link.up(self.host)
            if not up and not self.lost:
                self.lost = True
                self.changed = True
            elif up and self.lost:
                self.lost = False
                self.changed = True
                g = self.game
                if g is not None:      # a move on its way may be lost with a reset host:
                    g.sent = False     # it is chosen again from the moves the host sends
                    g.legal_n = -1
                    self.moving = False
                self.hello()           # the host may have started again: seat me anew
            if self.moving and link.send(self.host, M.MOVE, self.move):
                self.moving = False
            if ticks_diff(now_ms, self.beat_due) >= 0 and up:
                self.beat_due = ticks_add(now_ms, _BEAT_MS)
                if self.game is None and not self.offer and not self.refused:
                    self.hello()       # the first hello may have found the window full
                self.send_digest()
        g = self.game
        if g is not None:
            g.paused = self.lost or self.waiting != ""
        if app is not None:
            self._show(app)

    def hello(self):
        """Ask the host for a seat: the one this device holds, else the one named after
        its player, else a free one."""
        g = self.game
        word = (g.names[g.me] if g is not None else self.name).encode()
        self.link.send(self.host, M.HELLO, bytes([self.version]) + word)

    def take(self, seat):
        """Take the free seat `seat` the host offered."""
        self.link.send(self.host, M.TAKE, bytes([seat]))

    def _on(self, peer, kind, p, app):
        if kind == M.HOST:
            if self.host is None and not self.refused:
                self.host = peer
                self.hello()
            return
        if peer != self.host:
            return
        g = self.game
        if kind == M.REFUSE:
            self.refused = bytes(p[1:]).decode()
            self.changed = True
        elif kind == M.SEATS:
            self.offer = []
            i = 0
            while i + 1 < len(p):
                self.offer.append((p[i], bytes(p[i + 2:i + 2 + p[i + 1]]).decode()))
                i += 2 + p[i + 1]
            self.changed = True
        elif kind == M.SEATED:
            if p[0] == 0:
                self.seated = b""
            self.seated += bytes(p[2:])
            if p[0] + 1 < p[1]:
                return                 # more parts to come
            import json
            info = json.loads(self.seated.decode())
            self.seated = b""
            if g is None:
                self.game = RemoteGame(info)
                self.game.link_move = self.send_move
            else:
                g.seat_info(info)
                g.told = g.heard = g.last_mark = 0   # the round's story comes again
        elif g is None:
            return
        elif kind == M.VIEW:
            if len(p) != 3 + len(g.tv.s):
                raise ValueError("a view of another deck")
            if p[0] != g.round_no:
                g.round_no = p[0]
                g.new_round()
                self.changed = True
            g.take_view(p)
            self.send_digest()
        elif kind == M.LEGAL:
            if len(p) & 1 == 0 or len(p) > 3 + 2 * _MOVES:
                raise ValueError("legal moves of odd size")
            g.take_legal(p)
        elif kind == M.EVENTS:
            if p[0] == g.round_no:
                g.take_events(p)
        elif kind == M.NO:
            g.sent = False
        elif kind == M.SCORES:
            g.take_scores(p)
        elif kind == M.PAUSE:
            self.waiting = bytes(p).decode()
            self.changed = True

    def send_digest(self):
        """Which table this device holds (the host sends it again when theirs differs)."""
        g = self.game
        if g is None or not g.loaded:
            return
        b = self.buf
        b[0] = g.round_no
        M.put16(b, 1, g.n_moves)
        d = M.digest(g.tv.s)
        M.put16(b, 3, d & 0xFFFF)
        M.put16(b, 5, d >> 16)
        self.link.send(self.host, M.DIGEST, memoryview(b)[:7])

    def send_move(self, move):
        """The move this seat chose, for the host's next move number."""
        g = self.game
        b = self.move
        b[0] = g.round_no
        M.put16(b, 1, g.n_moves)
        M.put16(b, 3, move)
        self.moving = not self.link.send(self.host, M.MOVE, b)

    # -- the device's screens ------------------------------------------------------------

    def screen_for(self, app):
        """The lobby's screen as things stand."""
        if self.refused:
            from firmware.pages import PagesScreen
            forget("firmware.pages")
            return PagesScreen("linkrefused", "Refused", [self.refused], app.sizes.list_cols)
        if self.offer and self.game is None:
            return S.ListScreen("linkjoin", "Take a seat",
                                [name for _, name in self.offer] + ["Back"], (),
                                app.sizes.list_fit)
        words = "Connecting..." if self.host is not None else "Looking for a host..."
        cols = app.sizes.list_cols
        return S.ListScreen("linkjoin", "Join a linked game" if cols >= 18 else "Join link play",
                            ["Back"], S.wrap(words, cols), app.sizes.list_fit)

    def _show(self, app):
        g = self.game
        if g is not None and g.loaded and app.game is not g:
            app.game = g
            app._begin()              # (a pause that came with the view shows next frame)
            self.changed = True
        elif g is not None and app.game is g and self.changed and g.loaded:
            self.changed = False
            wait = self.host_name() if self.lost else self.waiting
            if wait:      # shown again when the name changes (a lobby's next missing seat)
                title = "Waiting for %s" % wait
                if app.screen.name != "linkwait" or app.screen.title != title:
                    app.show(S.ListScreen("linkwait", title, ["Wait", "Leave the match"], (),
                                          app.sizes.list_fit))
            elif app.screen.name == "linkround" or (app.screen.name == "linkwait"
                                                    and app.table is None):
                app._begin()          # a new deal: its table
            elif app.screen.name == "linkwait":
                app._next()           # play goes on
        elif self.changed and app.screen.name in ("linkjoin", "linkrefused") or (
                self.changed and g is None):
            self.changed = False
            app.show(self.screen_for(app))
        if g is not None and app.game is g and (g.unshown or g.asked):
            if g.asked and app.screen is app.table and not g.unshown:
                app._refresh()        # the seat's turn: its moves are on the table now
            g.asked = False
            app.busy = True

    def host_name(self):
        """The host's player, as the waiting screen names it."""
        return self.game.host if self.game is not None else "the host"

    def act(self, app, sc, got):
        """The lobby's screens and the linked table's between-round screens."""
        name = sc.name
        if name == "linkjoin":
            if got >= 0 and got < len(self.offer) and self.game is None:
                self.take(self.offer[got][0])
            elif got >= 0 or got == S.CANCEL or got == S.PAUSE:
                leave(app)
            return True
        if name == "linkrefused":
            if got in (S.DONE, S.CANCEL, S.PAUSE):
                leave(app)
            return True
        if name == "linkwait":
            if got == 1:
                leave(app)
            return True
        if name == "scores" and self.game is not None and got == S.DONE:
            if self.game.match_over():
                from firmware.final import final
                final(app)
            else:
                app.show(S.ListScreen("linkround", "Next round", ["Wait"],
                                      ["The host deals"], app.sizes.list_fit))
            return True
        if name == "linkround":
            return True
        if name == "final":
            app.link = None
            app.store = self.store
            return False              # the app's own final screen goes on
        if name == "pause" and self.game is not None:
            item = sc.items[got] if got >= 0 else ""
            if item == "Save and quit":
                leave(app)
                return True
        return False


def join(app):
    """The title's Join a linked game: the lobby, with the device's player's name."""
    from firmware.setup import played_last
    seats = played_last(app.store).get("seats", [["You", 0]])
    name = seats[0][0]
    client = LinkClient(app.open_link(), name)
    client.store = app.store
    app.store = None               # the host keeps the save; this device none
    app.link = client
    app.show(client.screen_for(app))


def leave(app):
    """Back to the title, the link let go."""
    client = app.link
    app.link = None
    app.store = client.store
    app.game = app.table = None
    app.title()
