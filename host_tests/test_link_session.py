"""Linked play's session: roles, messages, privacy, faults (firmware.linkhost,
firmware.linkclient over a Link)."""
from collections import deque

import pytest

from tools.sim import linkplay as lp


class Hub:
    """A perfect in-process wire: every message arrives, in order, at once; a device
    can be unplugged (its messages and those to it are lost) and plugged in again."""

    def __init__(self):
        self.inbox = {}
        self.unplugged = set()
        self.sent = []                  # (from, to, kind, payload bytes)
        self.spy = None                 # told of each message as it is sent

    def link(self, addr):
        self.inbox[addr] = deque()
        return PerfectLink(self, addr)


class PerfectLink:
    """firmware.link.Link's interface on the Hub."""

    def __init__(self, hub, addr):
        self.hub, self.addr = hub, addr

    def send(self, peer, kind, payload):
        if len(payload) > 200 or not 16 <= kind <= 255:   # as firmware.link.Link
            raise ValueError("kind %d, %d bytes" % (kind, len(payload)))
        hub = self.hub
        hub.sent.append((self.addr, peer, kind, bytes(payload)))
        if hub.spy is not None:
            hub.spy.sent(self.addr, peer, kind, bytes(payload))
        if self.addr not in hub.unplugged and peer not in hub.unplugged:
            hub.inbox[peer].append((self.addr, kind, bytes(payload)))
        return True

    def broadcast(self, kind, payload):
        for peer in self.hub.inbox:
            if peer != self.addr:
                self.send(peer, kind, payload)

    def poll(self):
        box = self.hub.inbox[self.addr]
        if not box:
            return None
        peer, kind, payload = box.popleft()
        return peer, kind, memoryview(payload)

    def up(self, peer):
        return self.addr not in self.hub.unplugged and peer not in self.hub.unplugged

    def forget(self, peer):
        pass


NAMES = ["Hana", "Ivo", "Jun", "Greta"]
LEVELS = [0, 0, 0, 2]


def test_a_linked_match_ends_as_the_same_match_on_one_device():
    setup = lp.setup_of(NAMES, LEVELS)
    alone, game = lp.play_alone(setup, 7)
    hub = Hub()
    t = lp.Table(setup, 7, [hub.link(a) for a in range(3)], ["Ivo", "Jun"])
    assert t.run()
    assert t.log == alone
    assert t.game.totals() == game.totals()


# -- privacy: every byte sent to every device ------------------------------------------

from engine.tables import draw_pile, discard_pile
from firmware import linkmsg as M

CARD_KINDS = (1, 3, 14)          # engine.events PLAY and DRAW, firmware.story UPCARD


class Spy:
    """Keeps every message the host sends a device, with the cards hidden from that
    device's seat at that moment (other hands and the draw pile, less any card of the
    same face the seat can see: a double deck has two of each)."""

    def __init__(self, table, hub):
        self.table, self.records = table, []
        hub.spy = self

    def sent(self, src, dst, kind, payload):
        t = self.table
        game = t.game
        if src != 0 or game.rnd is None:
            return
        players = [p for p, a in t.host.peers.items() if a == dst]
        if not players or players[0] not in game.round_seated:
            self.records.append((dst, kind, payload, None, None, None))
            return
        me = game.round_seated.index(players[0])
        rnd = game.rnd
        over = rnd.is_over()
        hidden_hands = [] if over else [bytes(rnd.s[rnd.s[15 + k]:rnd.s[16 + k]])
                                        for k in range(rnd.players()) if k != me]
        hidden = set(b"".join(hidden_hands)) | set(draw_pile(rnd))
        seen = set(rnd.hand(me)) | set(discard_pile(rnd))
        if over:                        # the hands are shown at the round's end
            seen |= set(b"".join(bytes(rnd.hand(k)) for k in range(rnd.players())))
        self.records.append((dst, kind, payload, me, hidden - seen,
                             hidden_hands + [bytes(draw_pile(rnd))]))
        if kind == M.VIEW:             # its header is the engine View's, no more
            assert payload[3:27] == game.view(me).s[:24]


def leaks(records):
    """Every way a message shows a card hidden from the device it went to."""
    found = []
    seated = {}
    for dst, kind, p, me, hidden, runs in records:
        if me is None:
            assert kind in (M.HOST, M.SEATS, M.REFUSE, M.PAUSE), (kind, p)
            continue
        cards = []
        body = p[3:]
        if kind == M.VIEW:
            body = p[3 + 24:]
            cards = list(body)
        elif kind == M.EVENTS:
            for i in range(3, len(p), 2):
                e = p[i] | p[i + 1] << 8
                if e >> 12 in CARD_KINDS:
                    cards.append(e & 255)
        elif kind == M.LEGAL:
            cards = [p[i] | (p[i + 1] & 1) << 8 for i in range(3, len(p), 2)
                     if not (p[i + 1] >> 1) & 3]
            cards = [c & 63 for c in cards]
        elif kind == M.SCORES:             # rows: points, total, the cards held
            at, body = 5, b""
            for _ in range(p[3]):
                held = p[at + 5:at + 5 + p[at + 4]]
                cards += list(held)
                body += held
                at += 5 + p[at + 4]
            assert at == len(p)
        elif kind == M.SEATED:             # a part of a JSON text: seats, names, rules
            parts = seated.setdefault(dst, [])
            parts.append(bytes(p[2:]))
            if p[0] + 1 == p[1]:
                text = b"".join(parts[-p[1]:])
                assert set(__import__("json").loads(text)) == {"s", "n", "l", "h", "r"}
        else:
            assert kind in (M.HOST, M.SEATS, M.REFUSE, M.PAUSE, M.NO), (kind, p)
        for c in cards:
            if c in hidden:
                found.append((dst, kind, "card %d" % c))
        for run in runs:                    # a hand or the pile copied, in table order
            for i in range(len(run) - 2):   # or sorted, anywhere in the bytes
                for piece in (run[i:i + 3], bytes(sorted(run))[i:i + 3]):
                    if piece in body:
                        found.append((dst, kind, "run %r" % piece))
    return found


def spied_match(seed, preset="classic"):
    hub = Hub()
    setup = lp.setup_of(NAMES, LEVELS, preset, rounds=2)
    t = lp.Table(setup, seed, [hub.link(a) for a in range(3)], ["Ivo", "Jun"])
    spy = Spy(t, hub)
    assert t.run()
    return spy.records


@pytest.mark.parametrize("seed,preset", [(3, "classic"), (11, "classic"), (5, "nordic")])
def test_no_device_hears_a_card_its_seat_may_not_know(seed, preset):
    records = spied_match(seed, preset)
    kinds = {r[1] for r in records}
    assert {M.VIEW, M.EVENTS, M.LEGAL, M.SCORES, M.SEATED} <= kinds
    assert sum(len(r[2]) for r in records) > 5000
    assert leaks(records) == []


def test_the_privacy_check_finds_a_drawn_card_told_unmasked(monkeypatch):
    from firmware import linkhost
    monkeypatch.setattr(linkhost, "_NO_CARD", 0)     # "| 0": the drawn card goes out
    assert any(k == M.EVENTS for _, k, _ in leaks(spied_match(3)))


def test_the_privacy_check_finds_another_hand_in_the_view(monkeypatch):
    from firmware.linkhost import LinkHost
    send_view = LinkHost._send_view

    def leaky(self, player, peer):      # the next seat's hand in the view's masked slots
        game = self.game
        k = (game.match.seated.index(player) + 1) % game.players()
        real = self.link.send

        def send(peer_, kind, payload):
            payload = bytearray(payload)
            hidden = [i for i in range(27, len(payload)) if payload[i] == 255]
            for i, card in zip(hidden, game.rnd.hand(k)):
                payload[i] = card
            return real(peer_, kind, payload)
        self.link.send = send
        try:
            return send_view(self, player, peer)
        finally:
            self.link.send = real
    monkeypatch.setattr(LinkHost, "_send_view", leaky)
    assert any(k == M.VIEW for _, k, _ in leaks(spied_match(3)))


# -- faults: a pulled cable, a device switched off, a reset host --------------------------

def table(seed=7, rounds=3):
    hub = Hub()
    setup = lp.setup_of(NAMES, LEVELS, rounds=rounds)
    t = lp.Table(setup, seed, [hub.link(a) for a in range(3)], ["Ivo", "Jun"])
    return hub, t, lp.play_alone(setup, seed)[0]


def frames(t, n):
    for _ in range(n):
        t.frame()


def mid_match(t, moves=30):
    assert t.run(until=lambda t: len(t.log) >= moves)
    assert not t.game.match_over()


def test_a_pulled_cable_pauses_everyone_until_it_is_back():
    hub, t, alone = table()
    mid_match(t)
    hub.unplugged.add(2)                    # Jun's cable
    frames(t, 10)
    moves = len(t.log)
    assert t.host.waiting == "Jun"
    assert t.clients[0].waiting == "Jun"    # Ivo's screen: "Waiting for Jun"
    assert t.clients[1].lost                # Jun's: waiting for the host
    frames(t, 1000)
    assert len(t.log) == moves              # nobody moved meanwhile
    hub.unplugged.clear()
    assert t.run()
    assert t.log == alone
    assert t.host.waiting == "" and t.clients[0].waiting == ""


def test_a_device_switched_off_gets_its_view_again_when_it_is_back():
    from firmware.linkclient import LinkClient
    hub, t, alone = table()
    mid_match(t)
    jun = t.clients[1]
    t.off.add(jun)
    hub.unplugged.add(2)
    hub.inbox[2].clear()                    # what was on its way is gone with the power
    frames(t, 300)
    assert t.host.waiting == "Jun"
    hub.unplugged.clear()
    fresh = LinkClient(hub_link(hub, 2), "Jun")
    t.clients[1] = fresh
    frames(t, 200)
    g = fresh.game
    assert g is not None and g.me == 2 and g.loaded
    assert bytes(g.tv.s) == bytes(t.game.view(2).s)
    assert t.run()
    assert t.log == alone


def hub_link(hub, addr):
    return PerfectLink(hub, addr)


def test_a_reset_host_resumes_from_its_save_and_the_devices_sit_down_again():
    from firmware.linkhost import HostGame, LinkHost
    hub, t, alone = table()
    mid_match(t, 40)
    state, dealt, moves = t.game.snapshot()  # the save after the last completed move
    hub.unplugged.add(0)                     # the power goes
    hub.inbox[0].clear()
    frames_clients(t, 300)
    assert t.clients[0].lost and t.clients[1].lost
    hub.unplugged.clear()
    from firmware import resume
    game = resume.restore(state, dealt, moves, 20, 0, HostGame)
    game.on_change = t.game.on_change
    t.game = game
    t.host = LinkHost(hub_link(hub, 0), game, "Hana")
    t.host.started = True
    assert t.run()
    assert t.log == alone


def frames_clients(t, n):
    for _ in range(n):
        t.now += lp.FRAME_MS
        for c in t.clients:
            c.tick(t.now)


def test_the_host_may_give_a_seat_whose_device_does_not_return_to_an_ai():
    hub, t, _ = table()
    mid_match(t)
    hub.unplugged.add(2)
    frames(t, 50)
    assert t.host.missing() == "Jun"
    t.game.take_over(2)
    t.off.add(t.clients[1])
    assert t.run()
    assert t.game.match_over() and t.host.waiting == ""
    assert t.game.setup["seats"][2] == ["Jun", 3]   # the save says so too


def test_a_stale_or_illegal_move_is_refused_and_reported_never_applied():
    hub, t, _ = table()
    ivo = t.clients[0]
    t.idle.add(ivo)
    t.run(until=lambda t: t.game.linked_to_move() == 1 and ivo.game.to_move() == 1
          and ivo.game.legal_n == t.game.n_moves and not t.game.unshown)
    g = ivo.game
    before = len(t.log)
    link = ivo.link
    for n, move, why in ((g.n_moves - 1, g._legal[0], M.STALE),
                         (g.n_moves, 0x3F, M.ILLEGAL)):     # no such card in the deck
        b = bytearray(5)
        b[0] = g.round_no
        M.put16(b, 1, n)
        M.put16(b, 3, move)
        link.send(0, M.MOVE, b)
        t.host.tick(t.now)
        assert len(t.log) == before
        answer = [m for m in hub.inbox[1] if m[1] == M.NO]
        assert answer[-1][2][5] == why
    assert t.host.refused == 2


def greta_forgets_mau(seed=3):
    """Seed 3: Greta (an AI) forgets to say Mau with Hana to move; the host holds the
    table there (its screen shows the move), and both linked seats are offered the catch."""
    hub, t, _ = table(seed)
    assert t.run(until=lambda t: t.game.in_round() and t.game.rnd.debtor() == 3)
    t.hold = True
    assert t.run(frames=20, until=lambda t: all(c.game.legal(c.game.me, c.game._legal)
                                                for c in t.clients))
    return hub, t


def caught_words(game):
    return [w for w in lp.story_words(game) if w >> 12 == 10]    # engine.events.CAUGHT


def refusals(hub, addr):
    return [m[2][5] for m in hub.inbox[addr] if m[1] == M.NO]


def test_of_two_linked_catches_the_first_wins_and_the_second_is_refused_as_late():
    hub, t = greta_forgets_mau()
    ivo, jun = t.clients
    n = t.game.n_moves
    jun.game.catch()
    ivo.game.catch()                   # the same chance, a moment later
    t.host.tick(t.now)
    assert t.game.n_moves == n + 1 and t.game.last_seat == 2
    assert caught_words(t.game) == [10 << 12 | 2 << 8 | 3]    # Jun caught Greta, once
    assert refusals(hub, 1) == [M.LATE] and t.host.refused == 1
    t.hold = False
    assert t.run()


def test_the_hosts_own_human_catching_after_a_linked_catch_changes_nothing():
    hub, t = greta_forgets_mau()
    jun = t.clients[1]
    jun.game.catch()
    t.host.tick(t.now)                 # made; the host's table shows it at an AI's pace
    n = t.game.n_moves
    t.game.catch(0)                    # Hana presses the Catch tile still on her table
    assert t.game.n_moves == n and caught_words(t.game) == [10 << 12 | 2 << 8 | 3]
    t.hold = False
    assert t.run()


def test_a_catch_after_the_chance_passed_is_refused_as_late_never_applied():
    hub, t = greta_forgets_mau()
    ivo = t.clients[0]
    t.off.add(ivo)                     # Ivo's device hears nothing more for a while
    game = t.game
    n = game.legal(0, game._legal)
    game.play([m for m in game._legal[:n] if m & 0x600 != 0x600][0])   # Hana plays on
    t.host.tick(t.now)
    moves = game.n_moves
    assert game.rnd.debtor() is None   # the chance passed with her move
    ivo.game.catch()                   # from the table Ivo still shows
    t.host.tick(t.now)
    assert t.game.n_moves == moves and caught_words(t.game) == []
    assert refusals(hub, 1) == [M.LATE] and t.host.refused == 1
    t.off.discard(ivo)
    t.hold = False
    assert t.run()


def test_a_device_of_another_protocol_is_refused_with_words_on_both_screens():
    from firmware.linkclient import LinkClient
    hub, t, _ = table()
    frames(t, 50)
    other = LinkClient(hub.link(9), "Kai", version=2)
    for _ in range(100):
        t.frame()
        other.tick(t.now)
    assert other.refused == "This host speaks protocol 1, this device 2"
    assert t.host.notice == "Refused a device: protocol 2, not 1"
    assert other.game is None


def test_a_second_device_claiming_a_seat_already_taken_is_refused():
    from firmware.linkclient import LinkClient
    hub, t, alone = table()
    frames(t, 50)
    ivo = t.clients[0]
    other = LinkClient(hub.link(9), "Ivo")        # another device of a player named Ivo
    for _ in range(100):
        t.frame()
        other.tick(t.now)
    assert other.refused == "No free seat at this table" and other.game is None
    other.refused = ""
    other.take(1)                                 # Ivo's seat, asked for outright
    for _ in range(20):
        t.frame()
        other.tick(t.now)
    assert other.refused == "That seat is taken" and other.game is None
    assert t.host.peers == {1: 1, 2: 2} and ivo.game.me == 1
    assert t.run()
    assert t.log == alone                         # Ivo played on, undisturbed


def test_a_device_whose_table_differs_gets_it_again():
    hub, t, alone = table()
    mid_match(t)
    ivo = t.clients[0]
    t.idle.update(t.clients)                   # the match waits for a linked seat
    t.run(until=lambda t: t.game.linked_to_move() >= 0
          and ivo.game.n_moves == t.game.n_moves)
    g = ivo.game
    g.tv.s[30] ^= 0x55                         # a view gone wrong
    ivo.send_digest()                          # (each view and each second)
    t.host.tick(t.now)
    assert t.host.resyncs == 1
    ivo.tick(t.now)
    assert bytes(g.tv.s) == bytes(t.game.view(1).s)
    ivo.send_digest()
    t.host.tick(t.now)
    assert t.host.resyncs == 1                 # they agree now
    t.idle.clear()
    assert t.run()
    assert t.log == alone


def test_a_seat_is_offered_to_a_device_the_host_did_not_name():
    from firmware.linkclient import LinkClient
    hub = Hub()
    setup = lp.setup_of(NAMES, LEVELS)
    t = lp.Table(setup, 7, [hub.link(a) for a in range(3)], ["Ivo", "Kai"], linked=[1, 2])
    for _ in range(100):
        t.frame()
    kai = t.clients[1]
    assert kai.game is not None and kai.game.me == 2 and kai.game.names[2] == "Jun"
    assert t.run()


def test_the_host_keeps_pass_and_play_seats_beside_the_linked_ones():
    hub = Hub()
    setup = lp.setup_of(NAMES, LEVELS)
    t = lp.Table(setup, 7, [hub.link(0), hub.link(2)], ["Jun"], linked=[2])
    game = t.game
    covers = []
    for _ in range(20000):
        t.frame()
        if game.needs_cover():
            covers.append(game.cover_name())
            game.uncover()
        if game.match_over():
            break
    assert game.match_over()
    assert set(covers) == {"Hana", "Ivo"}       # the device changes hands between them only
    assert t.log == lp.play_alone(setup, 7)[0]


def test_malformed_messages_are_dropped_and_counted_never_applied():
    hub, t, alone = table()
    mid_match(t)
    ivo = t.clients[0]
    view = bytes(ivo.game.tv.s)
    link = ivo.link
    for kind, payload in ((M.MOVE, b"\x01\x02\x03"), (M.DIGEST, b"\x01\x02"), (M.TAKE, b""),
                          (M.HELLO, b""), (M.HELLO, b"\x01\xff\xfe")):
        link.send(0, kind, payload)                  # to the host
    t.host.tick(t.now)
    assert t.host.malformed == 5
    host_link = t.host.link
    r = bytes([ivo.game.round_no])
    for kind, payload in ((M.VIEW, r + b"\x00\x00" + bytes(10)), (M.SEATED, b"\x00\x01{not json"),
                          (M.LEGAL, r + b"\x00\x00\x05"), (M.SCORES, r + b"\x00\x00\x04\xff"),
                          (M.EVENTS, r + b"\x00\x00\x00\x19")):    # a word about seat 9
        host_link.send(1, kind, payload)             # to Ivo, as if from the host
    ivo.tick(t.now)
    assert ivo.malformed == 5
    assert bytes(ivo.game.tv.s) == view and ivo.game.scores is None
    assert t.run()
    assert t.log == alone


def test_six_long_names_and_custom_rules_reach_a_device_in_parts():
    from engine.rules import Rules
    hub = Hub()
    names = ["Annabell", "Benedikt", "Cornelia", "Dietrich", "Emmanuel", "Fredrika"]
    options = Rules("classic").to_dict()
    for k in ("min_players", "max_players", "match", "rounds", "limit"):
        options.pop(k)
    options["hand_size"] = 4
    setup = dict(lp.setup_of(names, [0, 0, 3, 3, 3, 3]), options=options)
    t = lp.Table(setup, 3, [hub.link(0), hub.link(1)], ["Benedikt"])
    for _ in range(50):
        t.frame()
    parts = [p for src, dst, kind, p in hub.sent if kind == M.SEATED]
    assert len(parts) >= 4 and parts[0][1] == len(parts)       # JSON past 700 bytes
    g = t.clients[0].game
    assert g.names == names and g.me == 1 and g.rules.to_dict() == t.game.rules.to_dict()
    assert t.run()
