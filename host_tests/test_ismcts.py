"""The SO-ISMCTS yardstick (tools/ismcts.py) and its place in the tournament.

- It only ever makes a listed move, in both presets and under rule mixes, beside the
  engine's levels (own turns and catches alike).
- It decides from its View alone: the same decision on every table dealt anew in a
  way that agrees with the view; deterministic for a seed and an iteration count.
- The search is real: at 200 iterations it always goes out when it can (it never
  draws with a winning card in hand) and finds a win two moves away; it beats Random.
- The tournament takes ``iN`` in a pairing and names it in the table.
"""

import copy
import io
import json
from array import array

from engine import ai
from engine import moves as mv
from engine import round as rd
from engine.rng import Random
from engine.round import Round, View
from engine.rules import Rules
from engine.notation import describe, parse
from test_ai import option_mixes, play_bots
from tools import ismcts
from tools import tournament as tm

QUICK = 24   # iterations for the legality runs: a small tree still branches


def seat(rules, players, seed, iterations=QUICK):
    """ISMCTS at the even seats, the engine's levels (Random to Expert, cycled) at the odd."""
    return [ismcts.Player(rules, iterations, seed=seed * 16 + k) if k % 2 == 0
            else ai.new_player(rules, (seed + k // 2) % 5, seed=seed * 16 + k, playouts=6)
            for k in range(players)]


def play_round(rules, bots, seed, check=None, log=None):
    """One seeded round between `bots` (by seat); asserts every move is listed.
    `check(rnd, seat, bot, view, moves, n, move)` runs after each turn decision, with a
    copy of the bot as it was before it."""
    return play_bots(rules, bots, seed, after=check, log=log)


def test_only_listed_moves_in_both_presets():
    for preset in ("classic", "nordic"):
        rules = Rules(preset)
        for players in (2, 3, 5):
            for seed in range(2):
                play_round(rules, seat(rules, players, seed), seed + 10 * players)


def test_only_listed_moves_under_rule_mixes():
    for index, (rules, players) in enumerate(option_mixes(16, 2027)):
        play_round(rules, seat(rules, players, index), index)


def _same_decision_on_every_consistent_table(samples):
    """A check for play_round: on `samples` tables dealt anew from the view, a copy of
    the player as it was before the decision makes the same decision."""
    other = {}
    moves2 = array("H", range(mv.MAX_MOVES))

    def check(rnd, p, bot, view, moves, n, move):
        if not isinstance(bot, ismcts.Player):
            return
        rules = rnd.rules
        if rules not in other:
            other[rules] = (Round(rules, rnd.players(), Random(1)), View(rules))
        alt, alt_view = other[rules]
        for k in range(samples):
            alt.fill_hidden(view, Random(k * 7919 + n))
            alt.s[rd._NEV] = rnd.s[rd._NEV]  # events of the last move: public, not dealt
            check.changed += alt.s != rnd.s
            alt.view(p, alt_view)
            assert alt_view.s == view.s
            assert alt.legal_moves(p, moves2) == n and moves2[:n] == moves[:n]
            got = copy.deepcopy(bot).choose(alt_view, moves2, n)
            assert got == move, "%s on the real table, %s on another" % (
                describe(move), describe(got))
            check.count += 1

    check.changed = 0
    check.count = 0
    return check


def test_decisions_ignore_how_the_hidden_cards_lie():
    check = _same_decision_on_every_consistent_table(2)
    for preset, players in (("classic", 2), ("nordic", 3)):
        rules = Rules(preset)
        for seed in range(2):
            play_round(rules, seat(rules, players, seed), seed + 7, check=check)
    assert check.count > 40
    assert check.changed > check.count // 2  # the other tables really were other tables


def test_deterministic_for_a_seed_and_an_iteration_count():
    played = {}
    for preset, players in (("classic", 2), ("nordic", 3)):
        rules = Rules(preset)
        logs = []
        for _ in range(2):
            log = []
            play_round(rules, [ismcts.Player(rules, 40, seed=5 + k) for k in range(players)],
                       11, log=log)
            logs.append(log)
        assert logs[0] == logs[1]
        assert len(logs[0]) > 10
        played[preset] = logs[0]
    # ... and a different iteration count searches differently somewhere (than the
    # classic heads-up round above: 40 iterations, the same seeds and deal)
    rules = Rules("classic")
    log = []
    play_round(rules, [ismcts.Player(rules, 41, seed=5 + k) for k in range(2)], 11, log=log)
    assert log != played["classic"]


def test_always_goes_out_when_it_can():
    # Wherever a listed play empties the hand, a 200-iteration search takes a play
    # (drawing or passing instead would throw a sure win away). Quick searches play
    # the rounds; the 200-iteration one decides at those tables.
    seen = [0]

    def check(rnd, p, bot, view, moves, n, move):
        if view.count(p) == 1 and any(m & mv.KIND_MASK == mv.PLAY for m in moves[:n]):
            seen[0] += 1
            best = ismcts.Player(rnd.rules, 200, seed=seen[0]).choose(view, moves, n)
            assert best & mv.KIND_MASK == mv.PLAY, describe(best)

    for preset, players in (("classic", 2), ("nordic", 2), ("classic", 3), ("nordic", 4)):
        rules = Rules(preset)
        for seed in range(6):
            play_round(rules, seat(rules, players, seed), seed + 100, check=check)
    assert seen[0] >= 20


def _stacked(hands, draw, discard, turn=0):
    rules = Rules("classic")
    rnd = Round(rules, len(hands), Random(1))
    rnd.set_table([[parse(c) for c in h.split()] for h in hands],
                  [parse(c) for c in draw.split()], [parse(c) for c in discard.split()], turn)
    return rules, rnd


def test_finds_a_win_two_moves_away():
    # Heads-up classic, 8C KC in hand on the 9C: the 8 skips the other player, and the
    # King then goes out on it. The King first (the Mau said just as well) leaves the
    # other player a turn; drawing throws the win away.
    rest = "7C TC JC QC AC 9S JS AS 7H 8H 9H TH JH QH KH AH 7D 8D 9D TD JD QD KD AD"
    rules, rnd = _stacked(["8C KC", "7S 8S TS QS KS"], rest, "9C")
    moves = array("H", range(mv.MAX_MOVES))
    n = rnd.legal_moves(0, moves)
    view = rnd.view(0, View(rules))
    for seed in range(3):
        move = ismcts.Player(rules, 200, seed=seed).choose(view, moves, n)
        assert move == mv.play(parse("8C"), mau=True), describe(move)


def test_counts_each_result_for_the_seat_that_moved():
    # Each node counts the result for the seat that made its move, so the search
    # expects the other player to go out when it can. Every unseen card is a spade
    # (the rest lie in the discard pile, the spade Jack too), so the other player's
    # last card is a spade in every deal: on the 9C, my 9S lets it go out, my 9H not.
    others = "7C 8C TC JC QC KC AC 7H 8H TH JH QH KH AH 7D 8D 9D TD JD QD AD JS"
    rules, rnd = _stacked(["9S 9H KD", "KS"], "7S 8S TS QS AS", others + " 9C")
    moves = array("H", range(mv.MAX_MOVES))
    n = rnd.legal_moves(0, moves)
    view = rnd.view(0, View(rules))
    for seed in range(3):
        bot = ismcts.Player(rules, 200, seed=seed)
        assert bot.choose(view, moves, n) != mv.play(parse("9S"))
        after = bot.root.children[mv.play(parse("9S"))]
        assert after.mover == 0 and after.wins < after.visits
        going_out = [r for m, r in after.children.items() if m & mv.KIND_MASK == mv.PLAY]
        assert going_out
        for reply in going_out:      # a win for the other seat, every time
            assert reply.mover == 1 and reply.wins == reply.visits > 0


def test_more_iterations_beat_random():
    rules = Rules("classic")
    strong = tm.run_pairing(rules, ["i100", 0], 40, seed=1)
    weak = tm.run_pairing(rules, ["i10", 0], 40, seed=1)
    print("\nSO-ISMCTS v Random, classic heads-up, 40 games: 10 iterations %d wins, 100 "
          "iterations %d wins" % (weak["wins"], strong["wins"]))
    assert strong["wins"] >= 30          # about 3 in 4 at the very least


def test_tournament_pairings_name_ismcts(tmp_path):
    assert tm.parse_pairing("i1000v3") == ["i1000", 3]
    assert tm.parse_pairing("3vI200v0") == [3, "i200", 0]
    for bad in ("i0v3", "ixv3", "5v3", "i1000001v3", "3"):
        try:
            tm.parse_pairing(bad)
        except ValueError as e:
            assert "iN (ISMCTS" in str(e)
        else:
            raise AssertionError("%s was accepted" % bad)
    bot = tm.make_player(Rules("classic"), "i50", 3)
    assert isinstance(bot, ismcts.Player) and bot.iterations == 50
    # the VM has no ISMCTS (host only): asked for a VM sample, the run skips it
    path = tmp_path / "i.json"
    tm.main(["--preset", "classic", "--pairing", "i8v2", "--games", "2", "--vm", "3",
             "--quiet", "--json", str(path)])
    with open(path) as f:
        results = json.load(f)
    assert results[0]["games"] == 2 and "vm_decisions" not in results[0]
    out = io.StringIO()
    tm.print_table(results, out)
    assert "ismcts 8 v casual" in out.getvalue()
