"""The computer players (engine/ai.py) on CPython.

- Every level, on many rule-option mixes and table sizes, only ever makes a move from
  the round's legal-move list (own turns and catches alike).
- A decision depends on the player's View (and the public moves it was told) alone:
  for a fixed seed, dealing the hidden cards again in any way that agrees with the
  view (others' hands and the draw pile permuted: Round.fill_hidden on a second
  round) never changes any level's choice.
- The Expert is deterministic for a fixed seed and playout count.
- suggest() (the device's hint button) gives a legal move.
- What the players infer is sound on a stacked table; a new round forgets it.
"""

import copy
import io
import json
import random
from array import array

import pytest

from engine import ai, cards, easy, expert
from engine import moves as mv
from engine import round as rd
from engine.notation import parse, describe
from engine.rng import Random
from engine.round import Round, View
from engine.rules import (Rules, OPTION_NAMES, options, ACE_DRAW4, ACE_PLAY_AGAIN, MAU_OFF,
                          MATCH_ROUNDS)

LEVELS = (ai.RANDOM, ai.BEGINNER, ai.CASUAL, ai.STRONG, ai.EXPERT)
TEST_PLAYOUTS = 6  # keeps the Expert quick here; the tournament uses the real budget


def play_round(rules, players, levels, seed, playouts=TEST_PLAYOUTS, check=None, log=None):
    """One seeded round between computer players of `levels` (by seat, cycled).

    Asserts that every move is in the round's legal-move list. `check(rnd, seat, bot,
    view, moves, n)` runs before each turn decision; `log` collects (seat, move)."""
    bots = [ai.new_player(rules, levels[k % len(levels)], seed=seed * 16 + k, playouts=playouts)
            for k in range(players)]
    return play_bots(rules, bots, seed, before=check, log=log)


def play_bots(rules, bots, seed, before=None, after=None, log=None):
    """One seeded round between `bots` (by seat); asserts every move is listed.

    `before(rnd, seat, bot, view, moves, n)` runs before each turn decision,
    `after(rnd, seat, bot_before, view, moves, n, move)` after it with a copy of the bot
    as it was; a seat may catch a forgotten Mau out of turn first; `log` collects
    (seat, move)."""
    players = len(bots)
    rnd = Round(rules, players, Random(seed))
    views = [View(rules) for _ in range(players)]
    moves = array("H", range(mv.MAX_MOVES))
    for k in range(players):
        bots[k].new_round(rnd.view(k, views[k]))
    count = 0
    while not rnd.is_over():
        count += 1
        assert count < 20000, "round does not end"
        seat, move = _catch(rnd, bots, views, moves)
        if seat is None:
            seat = rnd.turn()
            n = rnd.legal_moves(seat, moves)
            view = rnd.view(seat, views[seat])
            if before is not None:
                before(rnd, seat, bots[seat], view, moves, n)
            copied = copy.deepcopy(bots[seat]) if after is not None else None
            move = bots[seat].choose(view, moves, n)
            assert move in list(moves[:n]), "%s chose %s; legal: %s" % (
                _who(bots[seat]), describe(move), [describe(m) for m in moves[:n]])
            if after is not None:
                after(rnd, seat, copied, view, moves, n, move)
        for k in range(players):
            if bots[k].watches:
                bots[k].observe(rnd.view(k, views[k]), seat, move)
        if log is not None:
            log.append((seat, move))
        rnd.apply(seat, move)
    return rnd


def _catch(rnd, bots, views, moves):
    """The first seat after the player to move that catches a forgotten Mau, and its move."""
    debtor = rnd.debtor()
    if debtor is not None:
        players = len(bots)
        turn = rnd.turn()
        for j in range(1, players):
            q = (turn + j) % players
            if q != debtor:
                n = rnd.legal_moves(q, moves)
                m = bots[q].choose(rnd.view(q, views[q]), moves, n)
                if m is not None:
                    assert m in list(moves[:n]), (describe(m), q)
                    return q, m
    return None, None


def _who(bot):
    """A bot named in a failure: its level, or its module."""
    level = getattr(bot, "level", None)
    return "level %d" % level if level is not None else type(bot).__module__


def option_mixes(count, seed):
    """`count` valid (rules, players) pairs with every option drawn at random."""
    rng = random.Random(seed)
    table = {o[0]: o for o in options()}
    out = []
    while len(out) < count:
        settings = {}
        for name in OPTION_NAMES:
            if name in ("points", "match", "rounds", "limit", "min_players", "max_players"):
                continue
            allowed = table[name][3]
            if name == "hand_size":
                settings[name] = rng.randint(1, 8)
            elif isinstance(allowed, range):
                settings[name] = rng.choice(list(allowed))
            else:
                settings[name] = rng.choice(allowed)
        try:
            rules = Rules(rng.choice(("classic", "nordic")), **settings)
            players = rng.randint(2, rules.max_players)
            rules.check_players(players)
        except ValueError:
            continue
        if rules.hand_size * players + 1 > rules.deck_size():
            continue
        out.append((rules, players))
    return out


MIXES = option_mixes(36, 2026)


@pytest.mark.parametrize("index", range(len(MIXES)))
def test_every_level_plays_only_legal_moves(index):
    rules, players = MIXES[index]
    for seed in range(2):
        levels = LEVELS[seed + index % 4:] + LEVELS[:seed + index % 4]
        play_round(rules, players, levels, seed * 1000 + index)


@pytest.mark.parametrize("preset", ["classic", "nordic"])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_presets_all_levels_legal(preset, players):
    rules = Rules(preset)
    for seed in range(3):
        play_round(rules, players, (ai.EXPERT, ai.STRONG, ai.CASUAL, ai.BEGINNER, ai.RANDOM),
                   seed + 50)


def _same_decision_on_every_consistent_table(samples):
    """A check for play_round: the decision of a copy of the player (same seed, same
    history) is the same on `samples` tables dealt anew from its view."""
    other = {}
    moves2 = array("H", range(mv.MAX_MOVES))

    def check(rnd, seat, bot, view, moves, n):
        rules = rnd.rules
        if rules not in other:
            other[rules] = (Round(rules, rnd.players(), Random(1)), View(rules))
        alt, alt_view = other[rules]
        expected = copy.deepcopy(bot).choose(view, moves, n)
        changed = False
        for k in range(samples):
            alt.fill_hidden(view, Random(k * 7919 + n))
            alt.s[rd._NEV] = rnd.s[rd._NEV]  # events of the last move: public, not dealt
            changed |= alt.s != rnd.s
            alt.view(seat, alt_view)
            assert alt_view.s == view.s
            assert alt.legal_moves(seat, moves2) == n and moves2[:n] == moves[:n]
            got = copy.deepcopy(bot).choose(alt_view, moves2, n)
            assert got == expected, "level %d: %s on the real table, %s on another" % (
                bot.level, describe(expected), describe(got))
        check.changed += changed
        check.count += 1

    check.changed = 0
    check.count = 0
    return check


@pytest.mark.parametrize("preset,players", [("classic", 2), ("classic", 4), ("nordic", 2),
                                            ("nordic", 5)])
def test_decisions_ignore_how_the_hidden_cards_lie(preset, players):
    rules = Rules(preset)
    check = _same_decision_on_every_consistent_table(3)
    for seed in range(2):
        play_round(rules, players, (ai.EXPERT, ai.STRONG, ai.CASUAL, ai.BEGINNER, ai.RANDOM),
                   seed + 7, check=check)
    assert check.count > 20
    assert check.changed > check.count // 2  # the other tables really were other tables


def test_decisions_ignore_hidden_cards_under_option_mixes():
    check = _same_decision_on_every_consistent_table(2)
    for rules, players in MIXES[:8]:
        play_round(rules, players, (ai.EXPERT, ai.STRONG, ai.CASUAL, ai.BEGINNER), 3,
                   check=check)
    assert check.count > 50


def test_expert_is_deterministic_for_a_seed_and_playout_count():
    for preset, players in (("classic", 2), ("nordic", 3)):
        rules = Rules(preset)
        logs = []
        for _ in range(2):
            log = []
            play_round(rules, players, (ai.EXPERT,), 11, playouts=12, log=log)
            logs.append(log)
        assert logs[0] == logs[1]
        assert len(logs[0]) > 10


def test_expert_stops_at_its_deadline():
    rules = Rules("nordic")
    rnd = Round(rules, 5, Random(3))
    moves = array("H", range(mv.MAX_MOVES))
    bot = ai.new_player(rules, ai.EXPERT, seed=1, playouts=10 ** 6, deadline_ms=30)
    view = rnd.view(rnd.turn(), View(rules))
    n = rnd.legal_moves(rnd.turn(), moves)
    import time
    t = time.perf_counter()
    move = bot.choose(view, moves, n)
    assert move in list(moves[:n])
    assert time.perf_counter() - t < 1.0


def test_suggest_gives_a_legal_move():
    for preset, players, level in (("classic", 3, ai.CASUAL), ("nordic", 4, ai.BEGINNER)):
        rules = Rules(preset)
        helper = ai.new_player(rules, ai.EXPERT, seed=4)

        def check(rnd, seat, bot, view, moves, n):
            legal = list(moves[:n])
            assert expert.suggest(view, moves, n) in legal
            assert expert.suggest(view, moves, n, helper) in legal

        for seed in range(3):
            play_round(rules, players, (level,), seed, check=check)


def test_levels_are_checked():
    rules = Rules("classic")
    for bad in (-1, 5, "expert", True, None):
        with pytest.raises(ValueError):
            ai.new_player(rules, bad)


def test_layout_and_constants_mirrored_from_the_engine():
    # ai.py, easy.py and expert.py repeat a few private constants so MicroPython folds
    # them at compile time: each module's copy matches the engine's.
    engine = {"_S_PLAYERS": rd._PLAYERS, "_S_NEV": rd._NEV, "_S_DIR": rd._DIR,
              "_S_PENDING": rd._PENDING, "_S_PEND_RANK": rd._PEND_RANK, "_S_WISH": rd._WISH,
              "_S_PHASE": rd._PHASE, "_S_DRAWN": rd._DRAWN, "_S_DEBTOR": rd._DEBTOR,
              "_NOBODY": rd.NOBODY, "_NO_WISH": rd.NO_WISH, "_S_END": rd._END,
              "_S_BOUNDS": rd._BOUNDS, "_S_CARDS": rd._CARDS, "_KIND": mv.KIND_MASK,
              "_DRAW": mv.DRAW, "_PASS": mv.PASS, "_CATCH": mv.CATCH, "_MAU": mv.MAU,
              "_DRAWN": rd.DRAWN, "_SEVEN": cards.SEVEN, "_EIGHT": cards.EIGHT,
              "_NINE": cards.NINE, "_JACK": cards.JACK, "_ACE": cards.ACE,
              "_ACE_DRAW4": ACE_DRAW4, "_ACE_PLAY_AGAIN": ACE_PLAY_AGAIN,
              "_MAU_OFF": MAU_OFF, "_MATCH_ROUNDS": MATCH_ROUNDS}
    found = set()
    for module in (ai, easy, expert):
        for name, value in engine.items():
            if hasattr(module, name):
                assert getattr(module, name) == value, (module.__name__, name)
                found.add(name)
    assert found == set(engine)
    assert expert._WIN == easy._WIN == ai._WIN


def _stacked(hands, draw, discard, turn=0, preset="classic"):
    rules = Rules(preset)
    rnd = Round(rules, len(hands), Random(1))
    rnd.set_table([[parse(c) for c in h.split()] for h in hands],
                  [parse(c) for c in draw.split()], [parse(c) for c in discard.split()], turn)
    return rules, rnd


def test_a_failed_follow_is_remembered_and_dealt_around():
    # Seat 1 cannot follow the 9 of hearts: it draws (the 7 of clubs) and keeps it.
    # Strong and Expert learn that its cards hold no hearts and no 9s (Jacks aside),
    # and the Expert's deals keep to that.
    rules, rnd = _stacked(["8C TC QC KC 7D", "7S 8S TS QS KS"],
                          "7C 9C JC AC 9S JS 7H 8H TH JH QH KH AH 8D 9D TD JD QD KD AD",
                          "AS 9H", turn=1)
    bot = ai.new_player(rules, ai.EXPERT, seed=2, playouts=8)
    view = View(rules)
    moves = array("H", range(mv.MAX_MOVES))
    bot.observe(rnd.view(0, view), 1, mv.DRAW)
    rnd.apply(1, mv.DRAW)
    assert bot.fixed[1 * 4 + 2] == 5 and bot.fixed[1 * 4 + 0] == 0
    assert bot.rank_lack[1] == 1 << 9 and bot.rank_fixed[1] == 5
    bot.observe(rnd.view(0, view), 1, mv.PASS)
    rnd.apply(1, mv.PASS)
    assert bot.fixed[1 * 4 + 2] == 6 and bot.rank_fixed[1] == 6
    rnd.view(0, view)
    n = rnd.legal_moves(0, moves)
    bot.choose(view, moves, n)
    for _ in range(20):
        bot._deal_world(view)
        for c in bot.world.hand(1):
            assert c & 15 == 11 or (c >> 4 != 2 and c & 15 != 9), bot.world.hand(1)
    bot.new_round(view)
    assert bot.fixed[6] == 0 and bot.rank_lack[1] == 0 and bot.rank_fixed[1] == 0


def test_going_out_and_saying_mau():
    rest = "7C 9C TC JC QC KC AC 9S JS AS 7H 8H TH JH QH KH AH 7D 8D TD JD QD KD AD"
    moves = array("H", range(mv.MAX_MOVES))
    # two cards, one fits: play it and say Mau
    rules, rnd = _stacked(["9H 8C", "7S 8S TS QS KS"], rest, "9D")
    view = rnd.view(0, View(rules))
    n = rnd.legal_moves(0, moves)
    for level in (ai.STRONG, ai.EXPERT):      # (the levels below forget it: test_levels.py)
        m = ai.new_player(rules, level, seed=1).choose(view, moves, n)
        assert m == mv.play(parse("9H"), mau=True), (level, describe(m))
    # the last card fits: go out
    rules, rnd = _stacked(["9H", "8C 7S 8S TS QS KS"], rest, "9D")
    view = rnd.view(0, View(rules))
    n = rnd.legal_moves(0, moves)
    for level in (ai.BEGINNER, ai.CASUAL, ai.STRONG, ai.EXPERT):
        m = ai.new_player(rules, level, seed=1).choose(view, moves, n)
        assert m == mv.play(parse("9H")), (level, describe(m))


@pytest.mark.parametrize("index", range(0, len(MIXES), 3))
def test_playout_policy_moves_are_legal(index):
    # The Expert's playouts pick moves straight from the table bytes (expert._policy) and
    # apply them unchecked: on every table of random games each pick must be listed.
    rules, players = MIXES[index]
    suits = bytearray(4)
    flags = ai.new_player(rules, ai.EXPERT).flags
    moves = array("H", range(mv.MAX_MOVES))
    for seed in range(3):
        rnd = Round(rules, players, Random(seed))
        rng = Random(seed + 99)
        steps = 0
        while not rnd.is_over() and steps < 3000:
            p = rnd.turn()
            n = rnd.legal_moves(p, moves)
            pick = expert._policy(rnd.s, p, flags, suits)
            assert pick in list(moves[:n]), (describe(pick), [describe(m) for m in moves[:n]])
            # walk on with random legal moves, so every kind of table comes up
            rnd.apply(p, pick if rng.below(2) else moves[rng.below(n)])
            steps += 1


def test_tournament_chunks_merge_into_one_run():
    # A long tournament is split into chunks (--first) and merged: the merged counts
    # must be exactly those of one run over the same games.
    from tools import tournament as tm
    rules = Rules("classic")
    whole = tm.run_pairing(rules, [2, 1], 8, first=0, seed=3)
    parts = [tm.run_pairing(rules, [2, 1], 4, first=f, seed=3) for f in (0, 4)]
    for r in parts:
        r.update(preset="classic", pairing="2v1", playouts=None)
    merged = tm.merge(parts)
    assert len(merged) == 1
    for key in ("games", "wins", "points_a", "points_b", "dec_a", "dec_b"):
        assert merged[0][key] == whole[key], key
    with pytest.raises(ValueError):
        tm.merge([parts[0], dict(parts[0])])        # overlapping chunks are refused


def test_tournament_pairs_two_runs_game_by_game(tmp_path, capsys):
    # --json keeps every game's outcome (chunks join in game order), so two runs on the
    # same seeds compare game by game: B less A over the games both played.
    from tools import tournament as tm
    rules = Rules("classic")
    whole = tm.run_pairing(rules, [2, 1], 8, first=0, seed=3)
    assert len(whole["won"]) == 8 and whole["won"].count("1") == whole["wins"]
    parts = [tm.run_pairing(rules, [2, 1], 4, first=f, seed=3) for f in (4, 0)]
    for r in parts + [whole]:
        r.update(preset="classic", pairing="2v1", playouts=None)
    merged = tm.merge(parts)[0]
    assert (merged["first"], merged["won"]) == (0, whole["won"])
    other = tm.run_pairing(rules, [0, 1], 6, first=2, seed=3)     # Random instead
    other.update(preset="classic", pairing="2v1", playouts=None)
    n, pa, pb, d, half = tm.paired(whole, other)
    mine = [int(c) for c in whole["won"][2:8]]
    theirs = [int(c) for c in other["won"]]
    assert n == 6 and pa == sum(mine) / 6 and pb == sum(theirs) / 6
    assert abs(d - (pb - pa)) < 1e-12 and half >= 0
    assert tm.paired(whole, whole)[3:] == (0.0, 0.0)
    with pytest.raises(ValueError):
        tm.paired(whole, tm.merge([dict(other, seed=4)])[0])     # other games
    paths = []
    for name, r in (("a", whole), ("b", other)):
        paths.append(str(tmp_path / (name + ".json")))
        with open(paths[-1], "w") as f:
            json.dump([r], f)
    assert tm.main(["--paired"] + paths) == 0
    line = capsys.readouterr().out.splitlines()[1]
    assert line.split()[:3] == ["classic", "2v1", "6"]
    assert "%+.1f +- %.1f points" % (100 * d, 100 * half) in line


def test_tournament_oracle_sees_the_real_table():
    # The oracle measurement (--oracle all) deals the Expert's worlds from the real
    # table: with the draw order known, a deal equals the round in play.
    from tools import tournament as tm
    rules = Rules("classic")
    rnd = Round(rules, 2, Random(5))
    bot = ai.new_player(rules, ai.EXPERT, seed=1, playouts=8)
    deal = tm._oracle_deal(bot, [rnd], "all")
    deal(rnd.view(0, View(rules)))
    assert bytes(bot.world.s[rd._CARDS:]) == bytes(rnd.s[rd._CARDS:])
    deal = tm._oracle_deal(bot, [rnd], "hands")
    deal(rnd.view(0, View(rules)))
    lo = rnd.s[rd._BOUNDS]
    assert bytes(bot.world.s[lo:]) == bytes(rnd.s[lo:])          # hands and discard
    assert sorted(bot.world.s[rd._CARDS:lo]) == sorted(rnd.s[rd._CARDS:lo])
    assert tm.run_pairing(rules, [4, 3], 2, playouts=8, oracle="hands")["games"] == 2


def test_bench_ai_keeps_the_quickest_run_and_the_worst_allocation():
    from tools.bench.ai import quickest
    # times are compared as RP2040 estimates: VM ms / the calibration loop timed with them
    slow = {"playouts": [0], "calibration_ms": [40], "time_classic2": [60, 900, 30, 2000, 40],
            "deadline_classic2": [60, 700, 20, 1900, 40], "alloc_classic2": [400, 0, 1700, 700]}
    fast = {"playouts": [0], "calibration_ms": [33], "time_classic2": [60, 600, 25, 2000, 40],
            "deadline_classic2": [60, 600, 21, 1900, 20], "alloc_classic2": [400, 16, 1700, 700]}
    best = quickest([slow, fast])
    assert best["calibration_ms"] == [33]
    assert best["time_classic2"] == fast["time_classic2"]
    assert best["deadline_classic2"] == slow["deadline_classic2"]   # 700/40 < 600/20
    assert best["alloc_classic2"] == fast["alloc_classic2"]     # any allocation shows


def test_bench_ai_models_the_firmware_s_slices():
    # The UI gap it prints is the firmware's slice: SLICE_MS and the walk under way,
    # none started that the longest walk would carry past GAP_MS.
    from tools.bench import ai as bench
    from firmware import game
    assert (bench.SLICE_MS, bench.GAP_MS) == (game.SLICE_MS, game.GAP_MS)


def test_tournament_rounds_plays_longer_matches(tmp_path):
    # --rounds N: every match is N rounds, lowest total wins; such lines are marked xN
    # and never merge with the preset's own matches.
    from engine.match import Match
    from tools import tournament as tm
    rules = Rules("classic", match="rounds", rounds=3)
    moves = array("H", range(mv.MAX_MOVES))
    match = Match(rules, 2, 11)
    played = 0
    while not match.is_over():
        rnd = match.start_round()
        while not rnd.is_over():
            rnd.legal_moves(rnd.turn(), moves)
            rnd.apply(rnd.turn(), moves[0])
        match.end_round()
        played += 1
    assert played == 3
    path = tmp_path / "x3.json"
    tm.main(["--preset", "classic", "--pairing", "2v1", "--games", "4", "--rounds", "3",
             "--vm", "0", "--quiet", "--json", str(path)])
    with open(path) as f:
        results = json.load(f)
    assert results[0]["rounds"] == 3
    out = io.StringIO()
    tm.print_table(results, out)
    assert "casual v beginner x3" in out.getvalue()
    one = tm.run_pairing(Rules("classic"), [2, 1], 2, seed=3)
    three = tm.run_pairing(rules, [2, 1], 2, seed=3)
    one.update(preset="classic", pairing="2v1", playouts=None, rounds=None)
    three.update(preset="classic", pairing="2v1", playouts=None, rounds=3)
    assert len(tm.merge([one, three])) == 2
