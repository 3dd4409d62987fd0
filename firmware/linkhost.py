"""The host of a linked match: the Game is here (engine, AI seats, the save after every
move); the other devices hold linked seats and hear only what their seat may know.

    game = HostGame(setup)          # setup["linked"]: the player numbers on other devices
    host = LinkHost(link, game)     # link: firmware.link.Link
    host.tick(now_ms, app)          # every frame (App.tick calls it): the wire's news

Each device gets its seat's View (engine.round.View: every other hand and the draw pile
masked), the story words of each move with other seats' drawn cards masked, its legal
moves when it is to move, and the scores between rounds. A move from a device is made
only when it is the next one of the round and legal for its seat; else it is refused
and the device gets its view again. Messages: docs/link-messages.md.
"""

from engine.ai import new_player, DEVICE_MS
from engine.compat import const, ticks_add, ticks_diff
from firmware.game import Game
from firmware import linkmsg as M
from firmware import screens as S

_BEACON_MS = const(500)   # how often the host says it is here
_NO_CARD = const(255)
_DRAW_EV = const(3)       # engine.events.DRAW
_TAKE_LEVEL = const(3)    # the AI that takes a seat whose device does not return
_SIZES = {M.TAKE: 1, M.MOVE: 5, M.DIGEST: 7}   # the messages of one size (bytes)
_CATCH = const(0x600)     # engine.moves.CATCH (and its kind mask)
_THERE = ("joined", "waiting", "on this device")   # a lobby seat's device; where a row
_NEAR = ("in", "wait", "here")                     # has no room for it, in short


class HostGame(Game):
    """A Game whose linked seats are humans on other devices: never covered or shown
    here; their moves come over the link and are shown like an AI's."""

    def __init__(self, setup, seed=None, playouts=None, deadline_ms=DEVICE_MS, deal=True):
        self.linked = setup.setdefault("linked", [])
        self.unshown = False      # a linked seat's move is made but not yet shown
        Game.__init__(self, setup, seed, playouts, deadline_ms, deal)

    def _humans(self):
        n, only = 0, -1
        for p in self.match.seated:
            if self.levels[p] == 0 and p not in self.linked:
                n += 1
                only = p
        return n, only

    def ai_to_act(self):
        """An AI's action is due, or a linked seat's move waits to be shown."""
        return self.unshown or Game.ai_to_act(self)

    def step_ai(self, finish=True):
        """Show a linked seat's move made already, else make one AI action."""
        if self.unshown:
            self.unshown = False
            return self.last_move
        return Game.step_ai(self, finish)

    def think(self):
        """A slice of search, but none for a linked seat's hint (its device hints)."""
        return self.linked_to_move() >= 0 or Game.think(self)

    def needs_cover(self):
        """Pass-and-play covers are for the humans at this device only."""
        p = self._actor()
        return p >= 0 and p not in self.linked and Game.needs_cover(self)

    def linked_to_move(self):
        """The linked player to move when nothing else is due, else -1."""
        if not self.in_round() or Game.ai_to_act(self) or self.unshown:
            return -1
        p = self.match.seated[self.rnd.turn()]
        return p if p in self.linked else -1

    def catcher_of(self, player):
        """The catch linked `player` may make now, out of turn too, else -1."""
        rnd = self.rnd
        if not self.in_round() or player not in self.match.seated or rnd.debtor() is None:
            return -1
        move = _CATCH | rnd.debtor()
        return move if rnd.is_legal(self.match.seated.index(player), move) else -1

    def catch(self, seat=None):
        """A human here catches, unless a linked seat's catch came first (nothing then:
        the host's Catch tile stays until that catch is shown)."""
        if self.in_round() and self.rnd.debtor() is None:
            return
        Game.catch(self, seat)

    def play_linked(self, player, move):
        """Linked `player` moves: 0 when made, else why not (linkmsg STALE .. NOT_YOURS)."""
        if move & _CATCH == _CATCH:
            if self.catcher_of(player) != move:      # any seat catches, in turn or not
                return M.ILLEGAL
            seat = self.match.seated.index(player)
        elif self.linked_to_move() != player:
            return M.NOT_YOURS
        else:
            seat = self.rnd.turn()
            if not self.rnd.is_legal(seat, move):
                return M.ILLEGAL
        mark = self.last_mark
        self._make(seat, move)
        if self.unshown:
            self.last_mark = mark     # the move not yet shown is told with the catch
        self.unshown = True
        return 0

    def take_over(self, player, level=_TAKE_LEVEL):
        """An AI plays the linked seat from now on (its device did not come back)."""
        self.linked.remove(player)
        self.levels[player] = level
        seats = self.setup["seats"]
        if player < len(seats):
            seats[player][1] = level      # the save's setup says so too
        seed = (self.seed * 7 + player * 7919 + 1) & 0x3FFFFFFF
        self.ais[player] = new_player(self.rules, level, seed, self.playouts, self.deadline_ms)


class LinkHost:
    """The host's side of the link: the lobby, and every seat's news on the wire."""

    def __init__(self, link, game, name="Host"):
        self.link = link
        self.game = game
        self.name = name            # said in the beacon: which host this is
        self.word = name.encode()
        self.peers = {}             # linked player -> the address of their device
        self.buf = bytearray(200)   # one outgoing message at a time (firmware.link copies it)
        self.beacon_due = 0
        self.rnd = None             # the round last published
        self.heard = {}             # player -> the story words their device has (ring index)
        self.owed = []              # players whose device is owed the round's scores
        self.n = -1                 # its move number last published
        self.scored = False
        self.behind = []            # players whose view must be sent again
        self.fresh = []             # players whose seat must be told again (SEATED)
        self.part = {}              # player -> the next part of their SEATED to send
        self.asked = -1             # the move number whose legal moves were sent
        self.offered = {}           # player -> the move number their catch was offered at
        self.waiting = ""           # the name the match waits for
        self.paused = {}            # player -> the waiting name their device was told
        self.notice = ""            # news for the host's screen ("Refused a device ...")
        self.started = game is not None and game.n_moves > 0   # the host chose Start
        self.refused = 0            # moves refused
        self.resyncs = 0            # views sent again after a digest differed
        self.malformed = 0          # messages of the wrong size or shape, dropped

    # -- every frame -------------------------------------------------------------------

    def tick(self, now_ms, app=None):
        """Receive, answer, beacon, publish what changed, pause or resume."""
        link = self.link
        while True:
            got = link.poll()
            if got is None:
                break
            if self.game is not None:
                self._on(got[0], got[1], got[2], app)
        if self.game is None:
            return                        # the host is still setting the match up
        if ticks_diff(now_ms, self.beacon_due) >= 0:
            self.beacon_due = ticks_add(now_ms, _BEACON_MS)
            self._beacon()
        self._publish()
        self._watch(app)

    def _beacon(self):
        b, name = self.buf, self.word
        b[0] = M.VERSION
        b[1] = len(self._free())
        b[2:2 + len(name)] = name
        self.link.broadcast(M.HOST, memoryview(b)[:2 + len(name)])

    # -- messages from the devices -----------------------------------------------------

    def _on(self, peer, kind, p, app):
        if len(p) != _SIZES.get(kind, len(p)) or (kind == M.HELLO and not len(p)):
            self.malformed += 1           # refused, counted, never applied
            return
        if kind == M.HELLO:
            self._hello(peer, p)
        elif kind == M.TAKE:
            self._take(peer, p[0])
        else:
            player = self._player_of(peer)
            if player < 0:
                return                  # a device without a seat: nothing to say to it
            if kind == M.MOVE:
                self._move(peer, player, p, app)
            elif kind == M.DIGEST:
                self._digest(player, p)

    def _hello(self, peer, p):
        if len(p) < 1 or p[0] != M.VERSION:
            theirs = p[0] if len(p) else 0
            self.notice = "Refused a device: protocol %d, not %d" % (theirs, M.VERSION)
            self._text(peer, M.REFUSE, "This host speaks protocol %d, this device %d"
                       % (M.VERSION, theirs))
            return
        try:
            name = bytes(p[1:]).decode()
        except ValueError:
            self.malformed += 1
            return
        game = self.game
        if self._player_of(peer) in game.linked:
            self._seat(peer, self._player_of(peer))   # back after a reset: its seat again
            return
        free = self._free()
        for player in free:
            if game.player_name(player) == name:
                self._seat(peer, player)  # the seat the host named for them, if no
                return                    # device that is up holds it
        if not free:
            self._text(peer, M.REFUSE, "No free seat at this table")
            return
        b = self.buf
        n = 0
        for player in free:
            word = game.player_name(player).encode()
            b[n] = game.match.seated.index(player)
            b[n + 1] = len(word)
            b[n + 2:n + 2 + len(word)] = word
            n += 2 + len(word)
        self.link.send(peer, M.SEATS, memoryview(b)[:n])

    def _take(self, peer, seat):
        game = self.game
        if seat < game.players() and game.match.seated[seat] in self._free():
            self._seat(peer, game.match.seated[seat])
        else:
            self._text(peer, M.REFUSE, "That seat is taken")

    def _move(self, peer, player, p, app):
        game = self.game
        move = M.get16(p, 3)
        if p[0] != self._round() or M.get16(p, 1) != game.n_moves:
            why = M.LATE if move & _CATCH == _CATCH and p[0] == self._round() else M.STALE
        elif self.waiting:
            why = M.NOT_YOURS         # the match waits for a device
        else:
            why = game.play_linked(player, move)
        if why:
            self.refused += 1
            b = self.buf
            b[0:5] = p[0:5]
            b[5] = why
            self.link.send(peer, M.NO, memoryview(b)[:6])
            self._catch_up(player)
        elif app is not None:
            app.busy = True           # the app shows it at the pace of an AI's move

    def _digest(self, player, p):
        game = self.game
        if p[0] != self._round() or M.get16(p, 1) != game.n_moves or game.rnd is None:
            return                    # about an older table: a newer view is on its way
        theirs = M.get16(p, 3) | M.get16(p, 5) << 16
        if theirs != M.digest(game.view(game.match.seated.index(player)).s):
            self.resyncs += 1
            self._catch_up(player)

    # -- to the devices ----------------------------------------------------------------

    def _seat(self, peer, player):
        """Give `player`'s seat to the device at `peer`, and its view."""
        old = self.peers.get(player)
        if old is not None and old != peer:
            self.link.forget(old)
        self.peers[player] = peer
        self.part[player] = 0
        if player not in self.fresh:
            self.fresh.append(player)
        self._catch_up(player)

    def _catch_up(self, player):
        if player not in self.behind:
            self.behind.append(player)

    def _send_seated(self, player, peer):
        import json
        game = self.game
        seated = game.match.seated
        info = {"s": seated.index(player), "n": [game.player_name(q) for q in seated],
                "l": [game.levels[q] for q in seated], "h": self.name,
                "r": {k: game.setup[k] for k in ("preset", "options", "match", "limit", "sort")
                      if k in game.setup}}
        text = json.dumps(info).encode()
        parts = (len(text) + M.PART - 1) // M.PART
        b = self.buf
        k = self.part.get(player, 0)
        while k < parts:                          # in parts: six names and a custom rule
            piece = text[k * M.PART:(k + 1) * M.PART]   # set pass 200 bytes
            b[0] = k
            b[1] = parts
            b[2:2 + len(piece)] = piece
            if not self.link.send(peer, M.SEATED, memoryview(b)[:2 + len(piece)]):
                self.part[player] = k             # the rest next frame
                return False
            k += 1
        self.part[player] = 0
        return True

    def _send_view(self, player, peer):
        game = self.game
        seat = game.match.seated.index(player)
        table = game.view(seat).s
        b = self.buf
        b[0] = self._round()
        M.put16(b, 1, game.n_moves)
        b[3:3 + len(table)] = table
        return self.link.send(peer, M.VIEW, memoryview(b)[:3 + len(table)])

    def _send_legal(self, player, peer):
        game = self.game
        n = game.legal(game.match.seated.index(player), game._legal)
        b = self.buf
        b[0] = self._round()
        M.put16(b, 1, game.n_moves)
        for i in range(n):
            M.put16(b, 3 + 2 * i, game._legal[i])
        return self.link.send(peer, M.LEGAL, memoryview(b)[:3 + 2 * n])

    def _send_catch(self, player, peer, move):
        """LEGAL with the catch alone: `player` may catch out of turn."""
        b = self.buf
        b[0] = self._round()
        M.put16(b, 1, self.game.n_moves)
        M.put16(b, 3, move)
        return self.link.send(peer, M.LEGAL, memoryview(b)[:5])

    def _send_events(self, player, peer, start, stop):
        """Story words start..stop, another seat's drawn cards masked."""
        game = self.game
        me = game.round_seated.index(player)
        b = self.buf
        b[0] = self._round()
        M.put16(b, 1, game.n_moves)
        n = 0
        for i in range(start, stop):
            e = game.ring[i % len(game.ring)]
            if e >> 12 == _DRAW_EV and e >> 8 & 15 != me:
                e = e | _NO_CARD      # "Finn draws a card": which card is Finn's to know
            M.put16(b, 3 + 2 * n, e)
            n += 1
        return self.link.send(peer, M.EVENTS, memoryview(b)[:3 + 2 * n])

    def _send_scores(self, peer):
        game = self.game
        b = self.buf
        rows = game.results()
        held = game.held()
        w = game.round_winner()
        b[0] = game.rounds_played() & 255
        b[1] = 1 if game.match_over() else 0
        b[2] = game.match.last_seats.index(w) if w is not None else 255
        b[3] = len(rows)
        mw = game.winner() if game.match_over() else None
        b[4] = game.match.last_seats.index(mw) if mw in game.match.last_seats else 255
        n = 5
        for k in range(len(rows)):
            cards = held[k] if k < len(held) else b""
            M.put16(b, n, rows[k][1] & 0xFFFF)
            M.put16(b, n + 2, rows[k][2] & 0xFFFF)
            m = min(len(cards), 200 - n - 5 - 5 * (len(rows) - k - 1))
            b[n + 4] = m
            b[n + 5:n + 5 + m] = cards[:m]
            n += 5 + m
        return self.link.send(peer, M.SCORES, memoryview(b)[:n])

    def _text(self, peer, kind, text):
        b = self.buf
        b[0] = M.VERSION
        word = text.encode()[:150]
        b[1:1 + len(word)] = word
        self.link.send(peer, kind, memoryview(b)[:1 + len(word)])

    def _publish(self):
        """Send every device what changed since the last frame."""
        game = self.game
        peers = self.peers
        if game.rnd is not self.rnd:              # a new deal: every seat anew
            self.rnd = game.rnd
            self.n = -1
            self.scored = False
            for player in peers:
                self.heard[player] = 0
                self._catch_up(player)
                if player not in self.fresh:
                    self.fresh.append(player)
        if game.n_moves != self.n:
            self.n = game.n_moves
            for player in peers:
                self._catch_up(player)
        if game.round_over() and not self.scored:
            self.scored = True
            for player in peers:
                self._catch_up(player)
        i = 0
        while i < len(self.behind):               # views (and scores) owed
            player = self.behind[i]
            peer = peers.get(player)
            if peer is None or self._bring(player, peer):
                self.behind.pop(i)
            else:
                i += 1
        told = game.told
        for player in peers:                      # the story words each device lacks
            if player not in game.round_seated or player in self.behind:
                continue
            start = max(self.heard.get(player, told), told - len(game.ring))
            while start < told:
                stop = min(told, start + M.WORDS)
                if not self._send_events(player, peers[player], start, stop):
                    break                         # the window is full: next frame
                start = stop
            self.heard[player] = start
        i = 0
        while i < len(self.owed):                 # the scores, after the round's last words
            player = self.owed[i]
            if player in peers and player not in self.behind and self.heard.get(player) == told:
                if self._send_scores(peers[player]):
                    self.owed.pop(i)
                    continue
            i += 1
        for player in peers:                      # the pause as it stands, once each
            if self.paused.get(player) != self.waiting and player not in self.behind:
                if self._send_pause(peers[player]):
                    self.paused[player] = self.waiting
        p = game.linked_to_move()
        if p >= 0 and p in peers and p not in self.behind and self.asked != game.n_moves:
            if self._send_legal(p, peers[p]):
                self.asked = game.n_moves     # (one seat is to move at a move number)
        if game.in_round() and game.rnd.debtor() is not None and not self.waiting:
            for q in peers:               # a forgotten Mau: each seat's catch, out of turn
                if q != p and q not in self.behind and self.offered.get(q) != game.n_moves:
                    move = game.catcher_of(q)
                    if move < 0 or self._send_catch(q, peers[q], move):
                        self.offered[q] = game.n_moves

    def _bring(self, player, peer):
        """A device's seat and view (the scores follow between rounds); False when
        the link's window is full (tried again next frame)."""
        game = self.game
        if player not in game.match.seated and player not in game.round_seated:
            return True                           # left between rounds: nothing more to say
        if player in self.fresh:
            if not self._send_seated(player, peer):
                return False
            self.fresh.remove(player)
            self.heard[player] = max(0, game.told - M.WORDS)   # the round's story so far
        if player in game.round_seated and not self._send_view(player, peer):
            return False
        self.asked = -1                           # its legal moves follow the view
        self.offered.pop(player, None)            # and its catch
        if game.round_over() and player not in self.owed:
            self.owed.append(player)              # the scores, once the story is told
        self.paused[player] = None                # and the pause, as it stands, follows
        return True

    def _send_pause(self, peer):
        word = self.waiting.encode()
        self.buf[0:len(word)] = word
        return self.link.send(peer, M.PAUSE, memoryview(self.buf)[:len(word)])

    # -- seats and pauses ----------------------------------------------------------------

    def _round(self):
        game = self.game
        return (game.rounds_played() + (0 if game.round_over() else 1)) & 255

    def _player_of(self, peer):
        for player in self.peers:
            if self.peers[player] == peer:
                return player
        return -1

    def _free(self):
        """Linked seats of this round without a device that is up."""
        game = self.game
        out = []
        for player in game.match.seated:
            if player in game.linked:
                peer = self.peers.get(player)
                if peer is None or not self.link.up(peer):
                    out.append(player)
        return out

    def missing(self):
        """The name of the first linked seat without a device, or "" (every frame: no list)."""
        game = self.game
        for player in game.match.seated:
            if player in game.linked:
                peer = self.peers.get(player)
                if peer is None or not self.link.up(peer):
                    return game.player_name(player)
        return ""

    def _watch(self, app):
        """Pause while a linked seat has no device; play on when it is back."""
        name = self.missing() or ("" if self.started else self.name)
        if name == self.waiting:
            return
        if app is not None and app.screen is not None and app.screen.name == "lobby":
            self.waiting = name
            self.lobby(app)               # a device came or went: the seats say so
            return
        self.waiting = name
        if app is None or app.game is not self.game:
            return
        if name:
            if app.screen is not None and app.screen.name not in ("lobby", "linkwait"):
                app.back_to = app.screen
            if app.screen is None or app.screen.name != "lobby":
                self.wait_screen(app)
        elif app.screen.name == "linkwait":
            app._next()

    # -- the host's screens ----------------------------------------------------------------

    def lobby(self, app):
        """The seats before the match: which humans are linked, which devices came."""
        game, cols = self.game, app.sizes.list_cols
        items = []
        for p in game.match.seated:
            if game.levels[p] == 0 and p != game.match.seated[0]:
                k = (0 if p in game.linked and p not in self._free() else
                     1 if p in game.linked else 2)
                name = game.player_name(p)
                there = _THERE[k] if len(name) + 2 + len(_THERE[k]) <= cols else _NEAR[k]
                items.append("%s: %s" % (name, there))
        items.append("Start")
        lines = S.wrap(self.notice or "Others: Join %s" % ("a linked game" if cols >= 18
                                                            else "link play"), cols)
        app.show(S.ListScreen("lobby", "Linked game", items, lines, app.sizes.list_fit,
                              getattr(app.screen, "cursor", 0) if app.screen.name == "lobby" else 0))

    def wait_screen(self, app):
        """"Waiting for Ben": wait for the device, or let an AI play the seat."""
        name = self.waiting
        app.show(S.ListScreen("linkwait", "Waiting for %s" % name,
                              ["Wait", "AI plays %s" % name], (), app.sizes.list_fit))

    def act(self, app, sc, got):
        """The host's own screens and the setup's Start; True when handled here."""
        name = sc.name
        if name == "title":
            app.link = None               # the linked match was left
            return False
        if name == "setup" and app.game is None and got == getattr(sc, "START", -9):
            from engine.compat import forget
            if app.store is not None:
                app.store.save_settings(sc.setup)
            forget("firmware.setup")
            setup = sc.setup
            humans = [p for p in range(len(setup["seats"])) if setup["seats"][p][1] == 0]
            setup["linked"] = humans[1:]          # the first human holds the host
            self.game = app.game = HostGame(setup, app.seed, app.playouts)
            self.lobby(app)
            return True
        if name == "lobby":
            if got == len(sc.items) - 1:
                if self.missing():
                    self.notice = "Waiting for %s" % self.missing()
                    self.lobby(app)
                else:
                    self.started = True
                    app._begin()
            elif got >= 0:
                game = self.game
                humans = [p for p in game.match.seated
                          if game.levels[p] == 0 and p != game.match.seated[0]]
                p = humans[got]
                if p in game.linked and p in self._free():
                    game.linked.remove(p)
                elif p not in game.linked:
                    game.linked.append(p)
                self.lobby(app)
            elif got == S.PAUSE or got == S.CANCEL:
                app.link = app.game = None
                app.title()
            return True
        if name == "linkwait":
            if got == 1:
                for p in self._free():
                    self.game.take_over(p)
                self.waiting = ""
                app._save()
                app._next()
            elif got == S.PAUSE:
                app.pause()
            return True
        return False


def resume(app):
    """Continue a saved linked match as its host: the game with its linked seats."""
    game = app.game
    state, dealt, moves = game.snapshot()
    from engine.compat import forget
    from firmware import resume as saved
    app.game = saved.restore(state, dealt, moves, app.playouts, DEVICE_MS, HostGame)
    forget("firmware.resume")
    app.link = LinkHost(app.open_link(), app.game, app.game.player_name(0))
    app.link.started = True
