"""Linked matches played without screens, for the link session's tests and bench.

A table of devices: the host (firmware.linkhost over a HostGame) and clients
(firmware.linkclient), each on a Link from `links` (one per device, the host's first).
The humans are played by `pick`, a rule that reads only the seat's View and legal
moves, so the same seeded match can be played on one device (`play_alone`) and over
the link (`play_linked`) and the two compared move by move.
`by_keys` plays the real app the same way by its keys, a screen at a time.
"""
from array import array

from engine import moves as mv
from firmware.game import Game
from firmware.linkclient import LinkClient
from firmware.linkhost import HostGame, LinkHost

FRAME_MS = 10


def pick(view, moves, n):
    """A human's choice from what their seat knows: a play or catch when there is one,
    chosen by the table's move count, else the draw or pass."""
    plays = [moves[i] for i in range(n) if moves[i] & mv.KIND_MASK in (mv.PLAY, mv.CATCH)]
    if plays:
        return plays[(view.moves_made() * 7 + view.player) % len(plays)]
    return moves[0]


def setup_of(names, levels, preset="classic", rounds=3):
    """A setup: seats by name and level, a match of `rounds` rounds."""
    return {"seats": [[n, lv] for n, lv in zip(names, levels)], "preset": preset,
            "options": {}, "match": "rounds", "limit": rounds}


def play_alone(setup, seed, playouts=20):
    """The match on one device: every human played by `pick`. Returns the move log."""
    game = Game(setup, seed, playouts)
    log = []
    game.on_change = lambda g: log.append(_entry(g))
    out = array("H", range(mv.MAX_MOVES))
    while not game.match_over():
        if game.round_over():
            game.next_round()
        elif game.ai_to_act():
            game.step_ai()
        else:
            seat = game.to_move()
            n = game.legal(seat, out)
            game.play(pick(game.view(seat), out, n))
    return log, game


def story_words(game):
    """The story words a game's (or a link client's) ring still holds, oldest first."""
    ring = game.ring
    return [ring[i % len(ring)] for i in range(max(0, game.told - len(ring)), game.told)]


def _entry(game):
    return (game.rounds_played(), game.n_moves, game.last_seat, game.last_move,
            tuple(game.totals()))


def host_frame(host, now, out, hold=False):
    """The host device's frame: the wire, then one action of its game (an AI's, the deal
    of the next round, or its own human's move by `pick`) unless the match waits or
    `hold` (the host's screen still shows the last move)."""
    game = host.game
    host.tick(now)
    if host.waiting or hold:
        return
    if game.ai_to_act():
        game.step_ai()
    elif game.round_over() and not game.match_over():
        game.next_round()
    elif game.to_move() >= 0 and game.linked_to_move() < 0:
        seat = game.to_move()               # the host's own human
        n = game.legal(seat, out)
        game.play(pick(game.view(seat), out, n))


def client_frame(c, now, out, idle=False):
    """A client device's frame: the wire, then its player (`pick`, unless idle)."""
    c.tick(now)
    g = c.game
    if g is None:
        if c.offer:
            c.take(c.offer[0][0])           # the first free seat offered
            c.offer = []
        return
    if g.unshown:
        g.step_ai()                         # the others' moves, seen
    if g.to_move() == g.me and not idle:
        n = g.legal(g.me, out)
        if n:
            g.play(pick(g.tv, out, n))


def host_done(host):
    """The match is over and every device has been told all of it."""
    return (host.game.match_over() and not host.behind and not host.owed
            and all(not host.link.pending(p) for p in host.peers.values()))


class Table:
    """A host and its clients, frame by frame on one clock."""

    def __init__(self, setup, seed, links, client_names, playouts=20, clock=None, linked=None):
        if linked is None:           # the seats named after the clients' players
            linked = [i for i, s in enumerate(setup["seats"]) if s[0] in client_names]
        setup = dict(setup, linked=linked)
        self.game = HostGame(setup, seed, playouts)
        self.log = []
        self.game.on_change = lambda g: self.log.append(_entry(g))
        self.host = LinkHost(links[0], self.game, setup["seats"][0][0])
        self.host.started = True
        self.clients = [LinkClient(link, name) for link, name in zip(links[1:], client_names)]
        self.now = 0
        self.clock = clock           # called with the time each frame (a wire's clock)
        self.out = array("H", range(mv.MAX_MOVES))
        self.off = set()             # clients switched off (not ticked)
        self.idle = set()            # clients whose player does not move
        self.hold = False            # the host's game makes no action (shows a move)

    def frame(self):
        """One frame on every device: the wire, the host's game, each client's player."""
        self.now += FRAME_MS
        if self.clock is not None:
            self.clock(self.now)
        host_frame(self.host, self.now, self.out, self.hold)
        for c in self.clients:
            if c not in self.off:
                client_frame(c, self.now, self.out, c in self.idle)

    def run(self, frames=200000, until=None):
        """Frames until the match is over and every client has the final scores."""
        for _ in range(frames):
            self.frame()
            if until is not None and until(self):
                return True
            if self.game.match_over() and all(
                    c.game is not None and c.game.match_over() for c in self.clients
                    if c not in self.off):
                return True
        return False


def choose(app, item):
    """On a list screen, move to `item` and press OK."""
    from firmware import screens as S
    sc = app.screen
    for _ in range(len(sc.items)):
        if sc.items[sc.cursor] == item:
            break
        app.act(S.NEXT)
    app.act(S.OK)


def by_keys(app, entry):
    """What a player does by keys with the screen in front of them: `entry` on the title
    (New game, Host or Join a linked game), Start once every guest has joined, the first
    card marked playable (else Draw or Pass), OK on what asks for it; waits otherwise."""
    from firmware import screens as S
    sc = app.screen
    name = sc.name
    if name == "title":
        choose(app, entry)
    elif name == "setup":
        while sc.rows_of[sc.cursor][0] != "start":
            app.act(S.NEXT)
        app.act(S.OK)
    elif name == "lobby":
        if all(i.endswith(": joined") for i in sc.items[:-1]):
            choose(app, "Start")
    elif name == "table":
        if sc.my_turn and not app.busy:
            target = -1
            for i in range(sc.item_n):
                kind = sc.item_kind[i]
                if kind == S.CARD_ITEM and sc.playable[sc.item_arg[i]]:
                    target = i
                    break
                if target < 0 and kind in (S.DRAW_ITEM, S.PASS_ITEM):
                    target = i
            for _ in range(sc.item_n):
                if sc.cursor == target:
                    break
                app.act(S.NEXT)
            app.act(S.OK)
            if app.screen.name == "picker":
                app.act(S.OK)
    elif name == "between":
        choose(app, "Deal next round")
    elif name in ("cover", "story", "scores", "mau", "picker"):
        app.act(S.OK)
