"""The replay log: selfplay -> replay round trips, tampered logs, the two CLIs.

- Logs of both presets and 2..5 players replay (also with --selfplay's check that
  every move is the seeded random players').
- Every line is JSON with the fields docs/replay-format.md requires, and a checker
  that follows the piles from the log alone (no engine) agrees with every line:
  each deal holds the whole deck, drawn cards come off the top of the draw pile,
  reshuffles rebuild it from the discard pile, scores are the hands' points.
- A tampered log fails at exactly the first changed line, naming it, the expected and
  the actual text (and the engine's reason for an illegal move).
- `tools/selfplay.py` runs with the issue's command line; `tools/replay.py` accepts it.
"""

import json
import os
import subprocess
import sys
from collections import Counter

import pytest

from engine.rules import Rules, OPTION_NAMES
from tools import selfplay
from tools.replay import ReplayError, replay_lines, replay_file, split_log

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# --------------------------------------------------------------------------- helpers

_LOGS = {}


def selfplay_log(preset="classic", players=4, games=2, seed=7, rules=(), seat_changes=False):
    """The lines tools/selfplay.py writes for these arguments (cached: tests only read)."""
    key = (preset, players, games, seed, tuple(rules), seat_changes)
    if key not in _LOGS:
        lines = []
        selfplay.run(selfplay.make_rules(preset, list(rules)), players, games, seed,
                     lines.append, seat_changes)
        _LOGS[key] = tuple(lines)
    return list(_LOGS[key])


def objs(lines):
    return [json.loads(text) for text in lines]


def find(lines, pred, start=0):
    """Index of the first line from `start` whose parsed object satisfies pred."""
    for i in range(start, len(lines)):
        if pred(json.loads(lines[i])):
            return i
    raise AssertionError("no such line in the log")


def set_field(lines, i, update):
    """A copy of the log with line i's object changed by update(obj), written the
    engine's way (compact, same key order)."""
    out = list(lines)
    obj = json.loads(out[i])
    update(obj)
    if obj.get("type") == "move" and obj.get("move") in MOVE_KEYS:  # the writer's order
        order = MOVE_KEYS[obj["move"]]
        obj = dict(sorted(obj.items(), key=lambda kv: order.index(kv[0])
                          if kv[0] in order else len(order)))
    out[i] = json.dumps(obj, separators=(",", ":"))
    assert out[i] != lines[i]
    return out


def fails_at(lines, line, check_players=False):
    """Replay must fail at 1-based `line`; return the error."""
    with pytest.raises(ReplayError) as info:
        replay_lines(lines, check_players)
    err = info.value
    assert err.line == line, err.describe()
    text = str(err)
    assert text.startswith("line %d: " % line)
    if line <= len(lines):
        assert "actual:   " + lines[line - 1] in text
    return err


# ------------------------------------------------- a checker that needs no engine

RANKS = "23456789TJQKA"
DECKS = {"skat32": ("7", 1), "french52": ("2", 1), "double104": ("2", 2)}
MOVE_KEYS = {
    "play": ("type", "player", "move", "card", "wish", "mau", "drew", "penalty", "next"),
    "draw": ("type", "player", "move", "drew", "penalty", "next"),
    "pass": ("type", "player", "move", "next"),
    "catch": ("type", "player", "move", "target", "drew", "penalty", "next"),
}
REQUIRED = {
    "game": ("type", "rules", "players", "seed"),
    "deal": ("type", "round", "dealer", "seats", "hands", "draw", "discard"),
    "reshuffle": ("type", "draw"),
    "round_end": ("type", "round", "winner", "points", "totals"),
    "match_end": ("type", "totals", "winner"),
    "join": ("type", "player", "total"),
    "leave": ("type", "player"),
}


def full_deck(deck):
    low, copies = DECKS[deck]
    return Counter(dict((r + s, copies) for s in "CSHD" for r in RANKS[RANKS.index(low):]))


def is_card(c):
    return isinstance(c, str) and len(c) == 2 and c[0] in RANKS and c[1] in "CSHD"


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


class LogChecker:
    """Follows a log line by line from its own contents; .check(i, text) asserts."""

    def __init__(self, option_names=OPTION_NAMES):
        self.option_names = option_names
        self.game = None
        self.queued = []       # reshuffle lines waiting for their move

    def fail(self, msg):
        raise AssertionError("line %d: %s\n  %s" % (self.i + 1, msg, self.text[:400]))

    def check_all(self, lines):
        for i, text in enumerate(lines):
            self.check(i, text, lines[i + 1] if i + 1 < len(lines) else None)
        if self.game is None or not self.game["over"]:
            raise AssertionError("the log does not end with a match_end line")

    def check(self, i, text, following):
        self.i, self.text = i, text
        if text != text.strip() or ": " in text or ", " in text:
            self.fail("not compact JSON")
        o = json.loads(text)
        if not isinstance(o, dict) or not o or list(o)[0] != "type":
            self.fail("an object with type first is expected")
        kind = o["type"]
        keys = tuple(o)
        if kind == "move":
            allowed = MOVE_KEYS.get(o.get("move"))
            if allowed is None:
                self.fail("move kind %r" % (o.get("move"),))
            if tuple(k for k in allowed if k in o) != keys:
                self.fail("keys %s: unknown or out of order (%s)" % (keys, allowed))
            for k in ("player", "move"):
                if k not in o:
                    self.fail("no " + k)
        elif kind in REQUIRED:
            if keys != REQUIRED[kind]:
                self.fail("keys %s, expected %s" % (keys, REQUIRED[kind]))
        else:
            self.fail("unknown type %r" % (kind,))
        if kind == "game":
            return self.on_game(o)
        if self.game is None or self.game["over"]:
            self.fail("%s line outside a game" % kind)
        getattr(self, "on_" + kind)(o, following)

    def on_game(self, o):
        if self.game is not None and not self.game["over"]:
            self.fail("a game line inside a game")
        rules = o["rules"]
        if self.option_names is not None and tuple(rules) != tuple(self.option_names):
            self.fail("rules must list every option in order: %s" % list(rules))
        points = rules["points"]
        if list(points) != list(RANKS) or not all(is_int(v) for v in points.values()):
            self.fail("points by rank 2..A")
        if not is_int(o["players"]) or not is_int(o["seed"]):
            self.fail("players and seed are whole numbers")
        n = o["players"]
        self.game = {"rules": rules, "players": n, "totals": [0] * n, "round": 0,
                     "seated": list(range(n)), "dealer": None, "over": False}
        self.rnd = None

    def on_deal(self, o, following):
        g = self.game
        if self.rnd is not None:
            self.fail("deal inside a round")
        if o["round"] != g["round"] + 1:
            self.fail("round %r follows round %r" % (o["round"], g["round"]))
        g["round"] = o["round"]
        seats = o["seats"]
        if seats != g["seated"]:
            self.fail("seats %s; the players still in are %s" % (seats, g["seated"]))
        later = [p for p in seats if g["dealer"] is not None and p > g["dealer"]]
        dealer = seats[-1] if g["dealer"] is None else (later[0] if later else seats[0])
        if o["dealer"] != dealer:
            self.fail("dealer %r, expected %r" % (o["dealer"], dealer))
        g["dealer"] = dealer
        hands = o["hands"]
        if len(hands) != len(seats) or any(len(h) != g["rules"]["hand_size"] for h in hands):
            self.fail("one hand of hand_size cards per seat")
        for h in hands:
            if h != sorted(h, key=lambda c: ("CSHD".index(c[1]), RANKS.index(c[0]))):
                self.fail("hand not sorted by suit, then rank")
        if not o["discard"]:
            self.fail("no up-card")
        cards = Counter(o["draw"]) + Counter(o["discard"])
        for h in hands:
            cards += Counter(h)
        deck = full_deck(g["rules"]["deck"])
        if cards != deck:
            self.fail("not the deck: extra %s, missing %s" % (dict(cards - deck),
                                                             dict(deck - cards)))
        self.rnd = {"seats": seats, "hands": [Counter(h) for h in hands],
                    "draw": list(o["draw"]), "discard": list(o["discard"]),
                    "next": seats[(seats.index(dealer) + 1) % len(seats)], "over": False}

    def on_reshuffle(self, o, following):
        if self.rnd is None or self.rnd["over"]:
            self.fail("reshuffle outside a round")
        if not all(is_card(c) for c in o["draw"]) or not o["draw"]:
            self.fail("a reshuffle makes a non-empty draw pile")
        if following is None or not following.startswith('{"type":"'):
            self.fail("a move must follow")
        self.queued.append((self.i, o["draw"]))

    def on_move(self, o, following):
        r = self.rnd
        if r is None or r["over"]:
            self.fail("move outside a round")
        seats = r["seats"]
        p = o["player"]
        if p not in seats:
            self.fail("player %r is not seated" % (p,))
        kind = o["move"]
        if kind != "catch" and p != r["next"]:
            self.fail("player %d moves; the previous line said next %r" % (p, r["next"]))
        seat = seats.index(p)
        hand = r["hands"][seat]
        if kind == "play":
            c = o["card"]
            if not is_card(c) or hand[c] <= 0:
                self.fail("%r is not in the hand" % (c,))
            hand[c] -= 1
            r["discard"].append(c)
            left = sum(hand.values())
            if c[0] == "J" and left > 0:
                if o.get("wish") not in ("C", "S", "H", "D"):
                    self.fail("a Jack that is not the last card wishes a suit")
            elif "wish" in o:
                self.fail("only a Jack that is not the last card wishes")
            if left == 1 and "mau" not in o:
                self.fail("a play that leaves one card writes mau")
            if left != 1 and o.get("mau", True) is not True:
                self.fail("mau is false only for a play that leaves one card")
            if "mau" in o and not isinstance(o["mau"], bool):
                self.fail("mau is true or false")
        elif kind == "catch":
            t = o["target"]
            if t == p or t not in seats:
                self.fail("bad catch target")
            if o.get("penalty", {}).get("player") != t:
                self.fail("a catch makes its target draw a penalty")
            if o.get("next", r["next"]) != r["next"]:
                self.fail("a catch does not change the player to move")
        drew = o.get("drew", [])
        if "drew" in o and not drew:
            self.fail("an empty drew is left out")
        if kind == "pass" and drew:
            self.fail("a pass draws nothing")
        who = [seat] * len(drew)
        pen = o.get("penalty")
        if pen is not None:
            if tuple(pen) != ("player", "cards", "reason") or pen["reason"] not in (
                    "mau", "last_seven") or pen["player"] not in seats:
                self.fail("bad penalty object")
            pc = pen["cards"]
            if drew[len(drew) - len(pc):] != pc:
                self.fail("penalty cards must be the end of drew")
            who[len(drew) - len(pc):] = [seats.index(pen["player"])] * len(pc)
            if pen["reason"] == "last_seven" and not (kind == "play" and o["card"][0] in "7A"
                                                       and "next" not in o):
                self.fail("last_seven penalty only for a winning 7 (or ace)")
        for c, w in zip(drew, who):
            if not r["draw"]:
                if not self.queued:
                    self.fail("a card is drawn from an empty pile without a reshuffle line")
                j, new = self.queued.pop(0)
                if Counter(new) != Counter(r["discard"][:-1]):
                    raise AssertionError("line %d: reshuffle is not the discard pile under "
                                         "its top card" % (j + 1))
                r["draw"] = list(new)
                r["discard"] = r["discard"][-1:]
            if r["draw"][0] != c:
                self.fail("drew %s, but the draw pile's top card is %s" % (c, r["draw"][0]))
            r["draw"].pop(0)
            r["hands"][w][c] += 1
        if self.queued:
            raise AssertionError("line %d: a reshuffle line its move did not need"
                                 % (self.queued[0][0] + 1))
        if "next" in o:
            if o["next"] not in seats:
                self.fail("next is not seated")
            r["next"] = o["next"]
        else:
            if following is None or not following.startswith('{"type":"round_end"'):
                self.fail("a move without next must end the round")
            r["over"] = True

    def on_round_end(self, o, following):
        g, r = self.game, self.rnd
        if r is None or not r["over"]:
            self.fail("round_end while the round goes on")
        if o["round"] != g["round"]:
            self.fail("round number")
        points = o["points"]
        if len(points) != g["players"] or len(o["totals"]) != g["players"]:
            self.fail("points and totals by player")
        table = g["rules"]["points"]
        for p in range(g["players"]):
            if p in r["seats"]:
                h = r["hands"][r["seats"].index(p)]
                exp = sum(table[c[0]] * k for c, k in h.items())
                if points[p] != exp:
                    self.fail("player %d scores %r, but holds %s = %d"
                              % (p, points[p], sorted(h.elements()), exp))
                g["totals"][p] += exp
            elif points[p] is not None:
                self.fail("points of a player not seated must be null")
        w = o["winner"]
        if w is not None and (w not in r["seats"]
                              or sum(r["hands"][r["seats"].index(w)].values())):
            self.fail("the winner has played every card")
        if o["totals"] != g["totals"]:
            self.fail("totals %s, expected %s" % (o["totals"], g["totals"]))
        self.rnd = None
        if g["rules"]["match"] == "elimination":
            out = [p for p in g["seated"] if g["totals"][p] > g["rules"]["limit"]]
            if len(out) == len(g["seated"]):
                best = min(g["totals"][p] for p in out)
                out = [p for p in out if g["totals"][p] != best]
            g["seated"] = [p for p in g["seated"] if p not in out]

    def on_join(self, o, following):
        g = self.game
        if self.rnd is not None:
            self.fail("a player joins only between rounds")
        worst = max([g["totals"][p] for p in g["seated"]] + [0])
        if o["player"] != g["players"] or o["total"] != worst:
            self.fail("player %d joins at the worst total %d" % (g["players"], worst))
        g["totals"].append(worst)
        g["seated"].append(o["player"])
        g["players"] += 1

    def on_leave(self, o, following):
        g = self.game
        if self.rnd is not None or o["player"] not in g["seated"]:
            self.fail("only a seated player leaves, between rounds")
        g["seated"].remove(o["player"])

    def on_match_end(self, o, following):
        g = self.game
        if self.rnd is not None:
            self.fail("match_end inside a round")
        if o["totals"] != g["totals"]:
            self.fail("totals")
        if g["rules"]["match"] == "rounds":
            if g["round"] != g["rules"]["rounds"]:
                self.fail("a rounds match plays `rounds` rounds")
        elif len(g["seated"]) != 1:
            self.fail("an elimination match ends with one player left")
        best = min(g["seated"], key=lambda p: (g["totals"][p], p))
        if o["winner"] != best:
            self.fail("winner %r, expected %r" % (o["winner"], best))
        g["over"] = True


def check_log(lines, option_names=OPTION_NAMES):
    LogChecker(option_names).check_all(lines)


# ------------------------------------------------------------------- round trips

@pytest.mark.parametrize("preset", ["classic", "nordic"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_selfplay_replays(preset, players):
    games = 3 if preset == "classic" else 1
    lines = selfplay_log(preset, players, games, seed=100 + players)
    counts = replay_lines(lines)
    assert counts["games"] == games and counts["lines"] == len(lines)
    assert counts["moves"] == sum(1 for t in lines if t.startswith('{"type":"move"'))
    assert replay_lines(lines, check_players=True) == counts
    check_log(lines)
    game = json.loads(lines[0])
    assert game["players"] == players and game["seed"] == 100 + players
    assert game["rules"] == Rules(preset).to_dict()


CUSTOM = [
    ("classic", 3, ("ace=draw4", "deck=french52", "last_seven=draws", "nine_reverses=true")),
    ("classic", 2, ("ace=play_again", "mau_penalty=auto", "rounds=3")),
    ("classic", 4, ("must_play_if_able=true", "no_finish_on_jack=true", "jack_on_jack=false",
                    "mau_penalty=off", "first_card=turn_again", "hand_size=3")),
    ("classic", 3, ("match=elimination", "limit=25", 'points={"7":0,"A":20}')),
    ("nordic", 4, ("play_drawn=true", "mau_penalty=challenge", "ace=draw4",
                   "stack_sevens=false", "match=rounds", "rounds=2")),
    ("classic", 6, ()),
]


@pytest.mark.parametrize("preset,players,rules", CUSTOM)
def test_rule_options_replay(preset, players, rules):
    lines = selfplay_log(preset, players, 2, seed=3, rules=rules)
    replay_lines(lines, check_players=True)
    check_log(lines)
    written = json.loads(lines[0])["rules"]
    for text in rules:
        name, value = selfplay.parse_rule(text)
        if name == "points":
            assert all(written["points"][k] == v for k, v in value.items())
        else:
            assert written[name] == value


def test_logs_cover_every_line_type_and_field():
    """The logs of these tests exercise everything the format describes."""
    seen = Counter()
    lines = (selfplay_log() + selfplay_log("nordic", 3, 1, seed=11)
             + selfplay_log("nordic", 4, 1, seed=104))
    for o in objs(lines):
        seen[o["type"]] += 1
        if o["type"] == "move":
            seen["move:" + o["move"]] += 1
            for k in ("wish", "drew", "penalty", "target"):
                seen[k] += k in o
            seen["mau:%s" % o.get("mau")] += 1
            seen["end of round"] += "next" not in o
            if "penalty" in o:
                seen["reason:" + o["penalty"]["reason"]] += 1
        if o["type"] == "round_end":
            seen["null points"] += None in o["points"]
    for what in ("game", "deal", "reshuffle", "round_end", "match_end", "move:play",
                 "move:draw", "move:pass", "move:catch", "wish", "drew", "penalty",
                 "target", "mau:True", "mau:False", "end of round", "reason:mau",
                 "reason:last_seven", "null points"):
        assert seen[what], "no %s in the test logs: %s" % (what, dict(seen))


@pytest.mark.parametrize("rules", [("rounds=8",), ("match=elimination", "limit=120")])
def test_players_joining_and_leaving_replay(rules):
    lines = selfplay_log("classic", 3, 3, seed=5, rules=rules, seat_changes=True)
    kinds = Counter(o["type"] for o in objs(lines))
    assert kinds["join"] and kinds["leave"]
    assert replay_lines(lines, check_players=True)["lines"] == len(lines)
    check_log(lines)


def test_tampered_join_or_leave_fails_at_that_line():
    lines = selfplay_log("classic", 3, 3, seed=5, rules=("rounds=8",), seat_changes=True)
    i = find(lines, lambda o: o["type"] == "join")
    err = fails_at(set_field(lines, i, lambda o: o.update(total=o["total"] - 1)), i + 1)
    assert "join line differs" in err.reason and err.expected == lines[i]
    join = i
    i = find(lines, lambda o: o["type"] == "leave")
    err = fails_at(set_field(lines, i, lambda o: o.update(player=99)), i + 1)
    assert "refuses this leave" in err.reason and "not at the table" in err.reason
    err = fails_at(lines[:i] + lines[i + 1:], i + 1)  # the leaver is dealt in again
    assert "deal line differs" in err.reason
    deal = find(lines, lambda o: o["type"] == "deal", 2) + 1  # a join inside a round
    err = fails_at(lines[:deal] + [lines[join]] + lines[deal:], deal + 1)
    assert "not a join line" in err.reason


def test_same_seed_same_log_and_game_i_uses_seed_plus_i():
    lines = selfplay_log("classic", 3, 4, seed=40)
    assert lines == selfplay_log("classic", 3, 4, seed=40)
    starts = [i for i, t in enumerate(lines) if t.startswith('{"type":"game"')]
    assert [json.loads(lines[i])["seed"] for i in starts] == [40, 41, 42, 43]
    third = lines[starts[2]:starts[3]]
    assert third == selfplay_log("classic", 3, 1, seed=42)


def test_deal_lines_hold_the_deck_once_or_twice():
    for preset, deck, copies in (("classic", "skat32", 1), ("nordic", "double104", 2)):
        deals = [o for o in objs(selfplay_log(preset, 3, 1, seed=5)) if o["type"] == "deal"]
        assert deals
        for o in deals:
            cards = Counter(o["draw"]) + Counter(o["discard"])
            for h in o["hands"]:
                cards += Counter(h)
            assert set(cards.values()) == {copies}
            assert cards == full_deck(deck)


def test_every_line_is_json_with_the_required_fields():
    lines = selfplay_log("nordic", 3, 1, seed=11) + selfplay_log()
    for text in lines:
        o = json.loads(text)
        assert isinstance(o, dict)
        need = REQUIRED.get(o["type"], ("type", "player", "move"))
        assert all(k in o for k in need), text
        if o["type"] == "move":
            need = {"play": ["card"], "catch": ["target"]}.get(o["move"], [])
            assert all(k in o for k in need), text
            assert all(is_card(c) for c in [o.get("card", "2C")] + o.get("drew", []))


def test_checker_catches_a_broken_log():
    """The engine-free checker is not vacuous."""
    lines = selfplay_log()
    i = find(lines, lambda o: o["type"] == "move" and "drew" in o)
    bad = set_field(lines, i, lambda o: o["drew"].reverse() if len(o["drew"]) > 1
                    else o.update(drew=["2C"]))
    with pytest.raises(AssertionError, match="line %d" % (i + 1)):
        check_log(bad)


def test_docs_example_is_a_valid_log():
    with open(os.path.join(ROOT, "docs", "replay-format.md"), encoding="utf-8") as f:
        text = f.read()
    example = text.split("## Example", 1)[1].split("```\n", 2)[1]
    lines = example.strip("\n").split("\n")
    assert lines[0].startswith('{"type":"game"') and lines[-1].startswith('{"type":"match_end"')
    check_log(lines, option_names=None)


# -------------------------------------------------------------------- tampering

def test_tampered_play_card_fails_as_illegal_at_that_line():
    lines = selfplay_log()
    i = find(lines, lambda o: o["type"] == "move" and o["move"] == "play", 10)
    deal = json.loads(lines[find(lines, lambda o: o["type"] == "deal")])
    # a card that is in nobody's hand at the deal and not drawn before line i:
    # the upcard of the deal is on the discard pile
    upcard = deal["discard"][-1]
    bad = set_field(lines, i, lambda o: o.update(card=upcard))
    err = fails_at(bad, i + 1)
    assert "illegal move" in err.reason and "play " + upcard in err.reason
    assert "player %d" % json.loads(lines[i])["player"] in err.reason


def test_tampered_drawn_card_fails_at_that_line():
    lines = selfplay_log()
    i = find(lines, lambda o: o["type"] == "move" and o["move"] == "draw", 5)

    def change(o):
        o["drew"][0] = "AS" if o["drew"][0] != "AS" else "AC"
    err = fails_at(set_field(lines, i, change), i + 1)
    assert err.expected == lines[i]
    assert "move line differs" in err.reason
    assert "first difference at column" in str(err)


def test_tampered_penalty_fails_at_that_line():
    lines = selfplay_log()
    i = find(lines, lambda o: "penalty" in o)
    err = fails_at(set_field(lines, i, lambda o: o["penalty"].update(reason="last_seven")),
                   i + 1)
    assert err.expected == lines[i]


def test_another_legal_card_fails_at_that_line_with_selfplay_check():
    """Another fitting card is a legal move: the plain replay accepts the changed line
    (the log is a valid record of another game from there on) and fails later;
    --selfplay fails right at it."""
    lines = selfplay_log()
    cards = sorted(full_deck("skat32"))
    for i, o in enumerate(objs(lines)):
        if o["type"] != "move" or o["move"] != "play" or o["card"][0] in "J8" or "mau" in o:
            continue
        for card in cards:
            if card[0] in "J8" or card == o["card"]:
                continue
            bad = set_field(lines, i, lambda x: x.update(card=card))
            with pytest.raises(ReplayError) as probe:
                replay_lines(bad[:i + 1])
            if probe.value.line != i + 2:  # line i+1 did not reproduce: not legal there
                continue
            with pytest.raises(ReplayError) as plain:
                replay_lines(bad)
            assert plain.value.line > i + 1
            err = fails_at(bad, i + 1, check_players=True)
            assert "play %s" % card in err.reason and "play %s" % o["card"] in err.reason
            assert err.expected == lines[i]
            return
    pytest.fail("no play with a legal alternative card in the log")


def test_tampered_wish_fails_at_that_line():
    lines = selfplay_log()
    i = find(lines, lambda o: o.get("wish") is not None)
    old = json.loads(lines[i])["wish"]
    new = "D" if old != "D" else "S"
    bad = set_field(lines, i, lambda o: o.update(wish=new))
    # another wish is legal: --selfplay stops at the line ...
    err = fails_at(bad, i + 1, check_players=True)
    assert "wish %s" % new in err.reason and "wish %s" % old in err.reason
    assert err.expected == lines[i]
    # ... the plain replay at the first line that no longer reproduces (never before)
    with pytest.raises(ReplayError) as plain:
        replay_lines(bad)
    assert plain.value.line > i + 1


def test_wish_on_a_plain_card_or_a_bad_suit_fails_at_that_line():
    lines = selfplay_log()
    i = find(lines, lambda o: o.get("move") == "play" and o["card"][0] != "J", 5)
    err = fails_at(set_field(lines, i, lambda o: o.update(wish="H")), i + 1)
    assert "illegal move" in err.reason
    err = fails_at(set_field(lines, i, lambda o: o.update(wish="C")), i + 1)
    assert err.expected == lines[i]  # wish 0 is no wish: the text differs
    j = find(lines, lambda o: o.get("wish") is not None)
    err = fails_at(set_field(lines, j, lambda o: o.update(wish="X")), j + 1)
    assert "wish" in err.reason


def test_mau_said_early_replays_as_a_legal_move():
    """A log need not come from selfplay: any legal move replays. Saying "Mau" with a
    play that leaves more than one card changes nothing at the table (if the engine
    accepts it), so the edited log replays to the end; --selfplay stops at the line."""
    from engine import moves as mv
    from engine.match import Match
    from tools.replay import parse_move
    lines = selfplay_log()
    i = find(lines, lambda o: o.get("move") == "play" and "mau" not in o, 3)
    bad = set_field(lines, i, lambda o: o.update(mau=True))
    # does the engine accept it? ask a round in the same position
    game = json.loads(lines[0])
    match = Match(Rules(**game["rules"]), game["players"], game["seed"])
    rnd = match.start_round()
    for o in objs(lines[2:i]):
        if o["type"] == "move":
            rnd.apply(*parse_move(match, o, 0, ""))
    seat, move = parse_move(match, json.loads(bad[i]), i + 1, bad[i])
    assert move & mv.MAU
    if rnd.is_legal(seat, move):
        assert replay_lines(bad)["lines"] == len(lines)
        err = fails_at(bad, i + 1, check_players=True)
        assert err.expected == lines[i]
    else:
        assert "illegal move" in fails_at(bad, i + 1).reason
    # "mau":false where no Mau is due is not what the engine writes
    err = fails_at(set_field(lines, i, lambda o: o.update(mau=False)), i + 1)
    assert err.expected == lines[i]


def test_tampered_deal_card_fails_at_the_deal_line():
    lines = selfplay_log()
    deals = [i for i, o in enumerate(objs(lines)) if o["type"] == "deal"]
    for i in (deals[0], deals[-1]):
        def swap(o):  # still the whole deck: a hand card and a draw card change places
            o["hands"][1][0], o["draw"][3] = o["draw"][3], o["hands"][1][0]
        err = fails_at(set_field(lines, i, swap), i + 1)
        assert "deal line differs" in err.reason and err.expected == lines[i]


def test_tampered_totals_fail_at_that_line():
    lines = selfplay_log()
    for kind in ("round_end", "match_end"):
        i = find(lines, lambda o: o["type"] == kind)
        bad = set_field(lines, i, lambda o: o["totals"].__setitem__(0, o["totals"][0] + 1))
        err = fails_at(bad, i + 1)
        assert kind in err.reason and err.expected == lines[i]
    i = find(lines, lambda o: o["type"] == "round_end")
    fails_at(set_field(lines, i, lambda o: o.update(winner=None)), i + 1)


@pytest.mark.parametrize("what", ["game", "deal", "reshuffle", "move", "round_end",
                                  "match_end", "last"])
def test_removed_line_fails_at_its_place(what):
    lines = selfplay_log()
    if what == "last":
        i = len(lines) - 1
    elif what == "game":
        i = find(lines, lambda o: o["type"] == "game", 1)  # the second game
    elif what == "move":
        # a turn move followed by a move of another player: out of turn
        os_ = objs(lines)
        i = next(k for k in range(2, len(os_) - 1)
                 if os_[k]["type"] == "move" and os_[k]["move"] != "catch"
                 and os_[k + 1]["type"] == "move" and os_[k + 1]["move"] != "catch"
                 and os_[k + 1]["player"] != os_[k]["player"])
    else:
        i = find(lines, lambda o: o["type"] == what, 1)
    bad = lines[:i] + lines[i + 1:]
    err = fails_at(bad, i + 1)
    if what == "last":
        assert err.actual is None and err.expected == lines[i]
    if what == "move":
        assert "illegal move" in err.reason


def test_removed_catch_fails_at_its_place_with_selfplay_check():
    lines = selfplay_log()
    i = find(lines, lambda o: o.get("move") == "catch")
    err = fails_at(lines[:i] + lines[i + 1:], i + 1, check_players=True)
    assert "catch" in err.reason


def test_malformed_lines_fail_clearly():
    lines = selfplay_log()
    fails_at(lines[:3] + ["{not json"] + lines[4:], 4)
    fails_at(lines[:3] + [""] + lines[4:], 4)
    fails_at(lines[:3] + ['{"type":"move","player":9,"move":"draw"}'] + lines[4:], 4)
    fails_at(lines[:3] + ['{"type":"move","player":0,"move":"jump"}'] + lines[4:], 4)
    fails_at(lines + ["[1,2]"], len(lines) + 1)
    fails_at(lines[:-1] + [lines[-1] + " "], len(lines))
    err = fails_at(set_field(lines, 0, lambda o: o["rules"].update(deck="tarot")), 1)
    assert "deck" in err.reason
    err = fails_at(lines[:5], 6)  # the log stops inside a round
    assert err.actual is None
    with pytest.raises(ReplayError):
        replay_lines([])


def test_crlf_a_byte_order_mark_and_trailing_blank_lines_are_accepted(tmp_path):
    """A log as an editor on another system may save it reads as the log itself."""
    lines = selfplay_log("classic", 2, 1, seed=1)
    text = "\n".join(lines) + "\n"
    assert split_log(text.encode()) == lines
    assert replay_lines(split_log(text))["lines"] == len(lines)
    for edited in (text.replace("\n", "\r\n"), text + "\n", text + "\r\n\r\n",
                   "\ufeff" + text, "\ufeff" + text.replace("\n", "\r\n") + "\r\n",
                   "\n".join(lines)):
        assert split_log(edited.encode()) == lines
        path = tmp_path / "edited.jsonl"
        path.write_bytes(edited.encode())
        done = run(["-m", "tools.replay", str(path)])
        assert done.returncode == 0 and " OK, " in done.stdout, done.stderr
    with pytest.raises(ReplayError) as info:      # a blank line inside the log is still wrong
        replay_lines(split_log("\n".join(lines[:3] + [""] + lines[3:])))
    assert info.value.line == 4


# ----------------------------------------------------------------------- CLIs

def run(args, **kw):
    return subprocess.run([sys.executable] + args, cwd=ROOT, capture_output=True, text=True,
                          timeout=120, **kw)


def test_issue_command_line_end_to_end(tmp_path):
    out = tmp_path / "log.jsonl"
    done = run(["tools/selfplay.py", "--preset", "classic", "--players", "4", "--games",
                "100", "--seed", "7", "--out", str(out)])
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    summary = done.stderr.strip().splitlines()
    assert len(summary) == 1 and "100 games" in summary[0] and " moves" in summary[0] \
        and " rounds" in summary[0] and " s" in summary[0]
    data = out.read_bytes()
    assert data.endswith(b"\n") and b"\r" not in data
    lines = split_log(data)
    assert sum(1 for t in lines if t.startswith('{"type":"game"')) == 100
    check_log(lines)
    # the same games as the library function writes
    assert lines[:len(selfplay_log("classic", 4, 2, 7))] == selfplay_log("classic", 4, 2, 7)

    for argv in (["tools/replay.py", str(out)], ["-m", "tools.replay", "--selfplay", str(out)]):
        done = run(argv)
        assert done.returncode == 0, done.stderr
        assert "OK" in done.stdout and "100 games" in done.stdout
        assert "%d lines" % len(lines) in done.stdout
    assert replay_file(str(out), True)["games"] == 100

    # a tampered copy: exit status 1, the line number, expected and actual text
    i = find(lines, lambda o: o["type"] == "round_end")
    bad = set_field(lines, i, lambda o: o["totals"].__setitem__(1, 999))
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join(bad) + "\n")
    done = run(["tools/replay.py", str(broken)])
    assert done.returncode == 1
    assert "line %d" % (i + 1) in done.stderr
    assert "expected: " + lines[i] in done.stderr and "actual:   " + bad[i] in done.stderr


def test_module_form_stdout_and_rules(tmp_path):
    args = ["--preset", "nordic", "--players", "3", "--games", "2", "--seed", "5",
            "--rule", "match=rounds", "--rule", "rounds=2", "--rule", 'points={"J":20}']
    done = run(["-m", "tools.selfplay"] + args)
    assert done.returncode == 0, done.stderr
    lines = split_log(done.stdout)
    rules = json.loads(lines[0])["rules"]
    assert rules["match"] == "rounds" and rules["rounds"] == 2 and rules["points"]["J"] == 20
    assert lines == selfplay_log("nordic", 3, 2, 5, ("match=rounds", "rounds=2",
                                                    'points={"J":20}'))
    done = run(["tools/replay.py", "-"], input=done.stdout)
    assert done.returncode == 0, done.stderr


def test_cli_errors():
    done = run(["tools/selfplay.py", "--rule", "ace=draw5"])
    assert done.returncode == 2 and "ace" in done.stderr and "draw4" in done.stderr
    done = run(["tools/selfplay.py", "--players", "7"])
    assert done.returncode == 2 and "players" in done.stderr
    done = run(["tools/selfplay.py", "--rule", "nonsense"])
    assert done.returncode == 2 and "name=value" in done.stderr
    done = run(["tools/replay.py", "/nonexistent/log.jsonl"])
    assert done.returncode == 2


def test_parse_rule():
    assert selfplay.parse_rule("play_drawn=false") == ("play_drawn", False)
    assert selfplay.parse_rule("stack_sevens=True") == ("stack_sevens", True)
    assert selfplay.parse_rule("rounds=12") == ("rounds", 12)
    assert selfplay.parse_rule("deck=french52") == ("deck", "french52")
    assert selfplay.parse_rule('points={"J": 20, "A": 1}') == ("points", {"J": 20, "A": 1})
    rules = selfplay.make_rules("nordic", ["ace=draw4", "rounds=3", "rounds=4"])
    assert rules.to_dict()["ace"] == "draw4" and rules.rounds == 4
