"""Resuming a saved match: the save's bytes unpacked, the game rebuilt from them.

The match save (firmware.save) is Game.snapshot()'s: the setup and the counts, the table
as dealt and the moves since. A game is rebuilt by dealing that table again and making
the moves once more through the engine, the AIs watching. Used at boot (is the save
sound?) and on Continue only: firmware.save imports this module for `load_game` and
lets go of it after.
"""

import json

from engine.compat import const
from engine.round import Round
from firmware.game import Game

_SEAT_SHIFT = const(11)  # a recorded move is seat << 11 | move (firmware.game)
_MOVE_MASK = const(0x7FF)


def unpack(data):
    """(state, dealt, moves) from a match payload; ValueError if it does not fit."""
    size = len(data)
    n = data[0] | data[1] << 8
    at = 2 + n
    state = json.loads(data[2:at])       # from the bytes (a str of them would be a copy more)
    d = data[at] | data[at + 1] << 8
    at += 2
    dealt = bytearray(memoryview(data)[at:at + d]) if d else None
    at += d
    count = state["moves"]
    if at + 2 * count != size or (state["round"] and dealt is None):
        raise ValueError("the match save does not add up")
    moves = [data[at + 2 * i] | data[at + 2 * i + 1] << 8 for i in range(count)]
    return state, dealt, moves


def restore(state, dealt, moves, playouts, deadline_ms, kind=Game):
    """The game (a `kind`, Game or a subclass) a snapshot was taken of; ValueError if the
    pieces do not fit."""
    setup = state["setup"]
    game = kind(setup, state["seed"], playouts, deadline_ms, deal=False)
    for i in range(len(setup["seats"]), len(state["names"])):
        game._add_player(state["names"][i], state["levels"][i])
    m = game.match
    m.totals = list(state["totals"])
    m.seated = list(state["seated"])
    m.gone = list(state["gone"])
    m.rounds_played = state["played"]
    m.dealer = state["dealer"]
    m.last_points, m.last_seats, m.last_winner = state["last"]
    m.rng.set_state(state["rng"][0], state["rng"][1])
    if state["round"]:
        _replay(game, dealt, moves, state["moves"])
    if list(m.rng.state()) != list(state["now"]):
        raise ValueError("the saved moves do not replay to the saved table")
    for p in range(len(game.ais)):
        ai = game.ais[p]
        if ai is not None:
            saved = state["ais"][p]
            ai.rng.set_state(saved[0], saved[1])
            if len(saved) > 2:
                ai.prng.set_state(saved[2], saved[3])
    game.heard = list(state["heard"])
    game.left = [bytes(cards) for cards in state.get("left", ())]
    game.catcher = state["catcher"]
    return game


def play_on(app, game):
    """The app plays on with a loaded match (None: the save was damaged)."""
    if game is None:
        app.title("Save damaged, starting fresh")
        return
    app.game = game
    if game.setup.get("linked") and app.open_link is not None:
        from firmware.linkhost import resume
        resume(app)              # a linked match: its host again
    if app.looped:               # its table on the next frame: the load's garbage first
        from firmware.app import _BEGIN
        app.dealing = _BEGIN
    else:
        app._begin(False)


def _replay(game, dealt, moves, n):
    """Lay the dealt table and make the recorded moves again, the AIs watching."""
    m = game.match
    if m.dealer not in m.seated:
        raise ValueError("the saved dealer is not at the table")
    x, y = m.rng.state()
    rnd = Round(game.rules, len(m.seated), m.rng, m.seated.index(m.dealer))
    if len(dealt) != len(rnd.s):
        raise ValueError("the saved table is not one of these rules")
    m.round = rnd
    rnd.s[:] = dealt
    m.rng.set_state(x, y)
    game._begin(rnd)
    game._keep_deal(dealt)
    for i in range(n):
        word = moves[i]
        game._apply(word >> _SEAT_SHIFT, word & _MOVE_MASK)
        if rnd.is_over():
            raise ValueError("a saved round cannot be over")
