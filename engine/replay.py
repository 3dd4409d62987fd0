"""The replay log: one JSON object per line, the same bytes on every runtime.

The writer builds each line by hand with a fixed key order (MicroPython's dicts keep
no order, and its ``json`` spaces differently), so CPython and MicroPython produce
byte-identical logs. ``docs/replay-format.md`` describes every line.
"""

from engine.cards import JACK
from engine import events as ev
from engine import moves as mv
from engine.rules import OPTION_NAMES
from engine.text import card_name, SUIT_LETTERS, REASON_NAMES
from engine.tables import draw_pile, discard_pile


def _str(text):
    return '"' + text + '"'


def _cards(cards):
    return "[" + ",".join(['"' + card_name(c) + '"' for c in cards]) + "]"


def _ints(values):
    return "[" + ",".join([str(v) for v in values]) + "]"


def _value(v):
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return _str(v)
    if isinstance(v, dict):  # card points: fixed rank order
        return "{" + ",".join([_str(k) + ":" + _value(v[k]) for k in "23456789TJQKA"]) + "}"
    raise ValueError("cannot log %r" % (v,))


def _obj(pairs):
    return "{" + ",".join([_str(k) + ":" + v for k, v in pairs]) + "}"


def game_line(match, seed):
    """The first line of a game: every rule option, the number of players, the seed."""
    options = match.rules.to_dict()
    rules = "{" + ",".join([_str(k) + ":" + _value(options[k]) for k in OPTION_NAMES]) + "}"
    return _obj((("type", '"game"'), ("rules", rules),
                 ("players", str(len(match.totals))), ("seed", str(seed))))


def deal_line(match):
    """The table right after a deal: hands by seat, draw pile top first, discard pile."""
    rnd = match.round
    hands = "[" + ",".join([_cards(rnd.hand(k)) for k in range(rnd.players())]) + "]"
    return _obj((("type", '"deal"'), ("round", str(match.rounds_played + 1)),
                 ("dealer", str(match.dealer)), ("seats", _ints(match.seated)),
                 ("hands", hands), ("draw", _cards(draw_pile(rnd))),
                 ("discard", _cards(discard_pile(rnd)))))


def move_lines(match, player, move):
    """Lines for a move just applied by match player `player`: reshuffles, then the move."""
    rnd = match.round
    seated = match.seated
    out = []
    drew = []
    reshuffles = []       # index into drew where each reshuffle happened
    penalty = None
    pen_cards = []
    for i in range(rnd.event_count()):
        e = rnd.events[i]
        k = e >> 12
        if k == ev.DRAW:
            drew.append(e & 255)
            if penalty is not None and (e >> 8 & 15) == penalty[0]:
                pen_cards.append(e & 255)
        elif k == ev.RESHUFFLE:
            reshuffles.append(len(drew))
        elif k == ev.PENALTY:
            penalty = (e >> 8 & 15, e & 255)
    pile = draw_pile(rnd)
    for j in range(len(reshuffles)):
        start = reshuffles[j]
        if j + 1 < len(reshuffles):
            cards = drew[start:reshuffles[j + 1]]
        else:
            cards = drew[start:] + list(pile)
        out.append(_obj((("type", '"reshuffle"'), ("draw", _cards(cards)))))
    kind = move & mv.KIND_MASK
    pairs = [("type", '"move"'), ("player", str(player))]
    if kind == mv.PLAY:
        c = move & 63
        pairs.append(("move", '"play"'))
        pairs.append(("card", _str(card_name(c))))
        if c & 15 == JACK and _wished(rnd):
            pairs.append(("wish", _str(SUIT_LETTERS[move >> 6 & 3])))
        if move & mv.MAU or _left_one(rnd, match.seat_of(player)):
            pairs.append(("mau", "true" if move & mv.MAU else "false"))
    elif kind == mv.CATCH:
        pairs.append(("move", '"catch"'))
        pairs.append(("target", str(seated[move & 7])))
    else:
        pairs.append(("move", '"draw"' if kind == mv.DRAW else '"pass"'))
    if drew:
        pairs.append(("drew", _cards(drew)))
    if penalty is not None:
        pairs.append(("penalty", _obj((("player", str(seated[penalty[0]])),
                                        ("cards", _cards(pen_cards)),
                                        ("reason", _str(REASON_NAMES[penalty[1]]))))))
    if not rnd.is_over():
        pairs.append(("next", str(seated[rnd.turn()])))
    out.append(_obj(pairs))
    return out


def _wished(rnd):
    for i in range(rnd.event_count()):
        if rnd.events[i] >> 12 == ev.WISH:
            return True
    return False


def _left_one(rnd, seat):
    for i in range(rnd.event_count()):
        k = rnd.events[i] >> 12
        if (k == ev.MAU or k == ev.FORGOT) and (rnd.events[i] >> 8 & 15) == seat:
            return True
    return False


def round_end_line(match, points):
    """The scores of a finished round: minus points by player, and running totals."""
    per_player = [None] * len(match.totals)
    seated_before = match.last_seats
    for k in range(len(points)):
        per_player[seated_before[k]] = points[k]
    winner = match.last_winner
    return _obj((("type", '"round_end"'), ("round", str(match.rounds_played)),
                 ("winner", "null" if winner is None else str(winner)),
                 ("points", "[" + ",".join([_value(v) for v in per_player]) + "]"), ("totals", _ints(match.totals))))


def join_line(match, player):
    """A player who joined between rounds, with the total they start from."""
    return _obj((("type", '"join"'), ("player", str(player)),
                 ("total", str(match.totals[player]))))


def leave_line(player):
    """A player who left between rounds."""
    return _obj((("type", '"leave"'), ("player", str(player))))


def match_end_line(match):
    """The final totals and the match winner."""
    w = match.winner()
    return _obj((("type", '"match_end"'), ("totals", _ints(match.totals)),
                 ("winner", "null" if w is None else str(w))))
