"""Lifetime statistics: each finished round and match counted once in the stats file.

firmware.save's Store imports this module for a count (a round or a match has ended) or
a look (the title's Statistics) and lets it go after: between them it keeps only the mark
of what was counted last. The file: {"mark": [match seed, rounds counted, match end
counted], "players": {name: [games, wins, rounds, rounds won, minus points]}}.
"""

from engine.compat import const
from firmware.save import STATS

_GAMES = const(0)
_WINS = const(1)
_ROUNDS = const(2)
_ROUNDS_WON = const(3)
_POINTS = const(4)


def read(store):
    """The statistics as saved (a write the flash refused: as they were to be written;
    a fresh record where the file is missing or unsound); the store notes their mark."""
    value = store._later.get(STATS)
    if value is None:
        value, _ = store.read_json(STATS)
    if not (isinstance(value, dict) and isinstance(value.get("players"), dict)
            and isinstance(value.get("mark"), list) and len(value["mark"]) == 3):
        value = {"mark": [None, 0, False], "players": {}}
    store.mark = value["mark"]
    return value


def record(store, game):
    """Count the game's last finished round and its end, once each (by the mark)."""
    value = read(store)
    mark = value["mark"]
    if mark[0] != game.seed:
        mark = store.mark = value["mark"] = [game.seed, 0, False]
    players = value["players"]
    m = game.match
    changed = False
    if m.rounds_played > mark[1] and m.last_points is not None:
        for k in range(len(m.last_seats)):
            row = _row(players, game.names[m.last_seats[k]])
            row[_ROUNDS] += 1
            row[_POINTS] += m.last_points[k]
            if m.last_winner == m.last_seats[k]:
                row[_ROUNDS_WON] += 1
        mark[1] = m.rounds_played
        changed = True
    if m.is_over() and not mark[2]:
        for name in game.names:
            _row(players, name)[_GAMES] += 1
        if m.winner() is not None:
            _row(players, game.names[m.winner()])[_WINS] += 1
        mark[2] = True
        changed = True
    if changed:
        store.write_json(STATS, value)


def _row(players, name):
    """A player's row, made empty on their first count."""
    row = players.get(name)
    if row is None:
        row = players[name] = [0, 0, 0, 0, 0]
    return row
