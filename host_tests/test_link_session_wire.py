"""The link session over the real wire (firmware.link on tools/fakes/wire.py): a seeded
3-device match with one AI seat plays to its end through the faults, on the UART and
ESP-NOW models, and ends exactly as the same match on one device."""
import pytest

from tools.sim import linkplay as lp
from tools.fakes.wire import Wire
from tools.sim.linked import links

FAULTS = dict(drop=0.1, corrupt=0.05, duplicate=0.1, delay=20, reorder=0.1)
NAMES = ["Hana", "Ivo", "Jun", "Greta"]
LEVELS = [0, 0, 0, 2]


def linked_table(model, seed, faults, rounds=2):
    wire = Wire(seed=seed, **faults)
    setup = lp.setup_of(NAMES, LEVELS, rounds=rounds)

    def clock(now):
        wire.now_us = now * 1000
    t = lp.Table(setup, seed, links(model, wire, 3), ["Ivo", "Jun"], clock=clock)
    return wire, t, lp.play_alone(setup, seed)[0]


def told_to(game, seat):
    """The game's story words as `seat` may hear them: others' drawn cards masked."""
    return [w | 255 if w >> 12 == 3 and w >> 8 & 15 != seat else w
            for w in lp.story_words(game)]


@pytest.mark.parametrize("model", ["uart", "espnow"])
@pytest.mark.parametrize("seed", [7, 8])
def test_a_match_over_a_faulty_wire_ends_as_on_one_device(model, seed):
    wire, t, alone = linked_table(model, seed, FAULTS)
    assert t.run()
    assert t.log == alone
    assert t.host.refused == 0 and t.host.resyncs == 0   # no move stale, no view astray
    for c in t.clients:                # every device has the story of the last round (the
        assert c.game.told == t.game.told    # ring's last 64 words)
        assert lp.story_words(c.game) == told_to(t.game, c.game.me)
    for kind in ("dropped", "corrupted", "duplicated", "delayed", "reordered"):
        assert wire.log[kind] > 0, kind


@pytest.mark.parametrize("model", ["uart", "espnow"])
def test_a_cable_pulled_mid_match_pauses_it_and_it_ends_as_on_one_device(model):
    wire, t, alone = linked_table(model, 7, FAULTS)
    t.run(until=lambda t: len(t.log) > 30)
    end = wire.ends[-1]                # the last device's end of its cable (its radio)
    wire.unplug(end)
    paused = t.run(frames=600, until=lambda t: t.host.waiting == "Jun")
    assert paused                      # the host sees it within the link's timeout
    moves = len(t.log)
    t.run(frames=300, until=lambda t: t.clients[0].waiting == "Jun")
    assert t.clients[0].waiting == "Jun"    # Ivo's screen says whom they wait for
    t.run(frames=300)
    assert len(t.log) == moves         # nobody moves while the match waits
    wire.replug(end)
    assert t.run()
    assert t.log == alone


def test_the_link_bench_prints_bytes_per_move_per_device(capsys):
    from tools.bench import link_match
    assert link_match.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "uart    classic" in out and "espnow  classic" in out and "VIEW" in out
    assert out.count("recovery after a pulled cable") == 2


def catchable_by(player):
    """Until `player` may catch a forgetful player while another seat is to move."""
    def due(t):
        g = t.game
        seat = g.match.seated.index(player)
        return (g.in_round() and g.rnd.debtor() not in (None, seat)
                and g.rnd.turn() != seat)
    return due


def offered_catch(client):
    g = client.game
    n = g.legal(g.me, g._legal)
    return n == 1 and g._legal[0] & 0x600 == 0x600


@pytest.mark.parametrize("model", ["uart", "espnow"])
def test_a_linked_seat_catches_a_forgotten_mau_out_of_its_turn(model):
    wire, t, _ = linked_table(model, 7, FAULTS)
    assert t.run(until=catchable_by(1))
    t.hold = True                      # the host shows the forgetful move a while
    debtor, n = t.game.rnd.debtor(), t.game.n_moves
    ivo = t.clients[0]
    assert t.run(frames=300, until=lambda t: offered_catch(ivo))   # Ivo's Catch tile
    ivo.game.catch()
    assert t.run(frames=300, until=lambda t: t.game.n_moves > n)
    assert t.game.last_seat == t.game.match.seated.index(1)
    assert t.game.last_move == 0x600 | debtor and t.game.rnd.debtor() is None
    g = t.game
    caught = 10 << 12 | g.match.seated.index(1) << 8 | debtor    # engine.events.CAUGHT
    assert caught in [g.ring[i % len(g.ring)] for i in range(g.last_mark, g.told)]
    t.hold = False                     # every device tells it: "... caught by Ivo"
    assert t.run(frames=2000, until=lambda t: all(caught in lp.story_words(c.game)
                                                  for c in t.clients))
    assert t.run()
    assert t.host.refused == 0 and t.game.match_over()
