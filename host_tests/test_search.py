"""The Expert's search (engine/search.py) and its slices, on CPython.

- A decision searched in slices (begin, think a few iterations at a time, best) is the
  decision one call makes: slicing changes when the search runs, not what it finds.
- At an opponent's turn the tree follows the opponent model: with the alternatives
  switched off and the opponent's hand known, each candidate has one reply, the
  playout policy's.
- The search keeps to its node tables: with room for a few nodes it still decides,
  legally, and never writes past them.
- It finds a win two moves away, and the whole move: the card, the wish, the Mau.
- The firmware's Game thinks in slices of SLICE_MS between frames (none carried past
  GAP_MS by the longest walk of its decision seen), for the AI due and,
  while a human is to move, for the hint; the move and the hint are those of one call.
"""

from array import array

from engine import ai
from engine.expert import Expert, _PONDER_MAX, _policy, ponder_budget
from engine import moves as mv
from engine.round import Round, View
from engine.rng import Random
from engine.rules import Rules
from engine.search import Search
from engine.notation import parse, describe
from firmware import game as fg
from firmware.game import Game
from test_ai import _stacked

BUDGET = 120


def _expert_turns(preset, players, seeds):
    """(rules, view, moves, n) at the Expert's turns of rounds against Strong."""
    rules = Rules(preset)
    moves = array("H", range(mv.MAX_MOVES))
    for seed in seeds:
        rnd = Round(rules, players, Random(seed))
        strong = ai.new_player(rules, ai.STRONG, seed=seed)
        while not rnd.is_over():
            seat = rnd.turn()
            n = rnd.legal_moves(seat, moves)
            view = rnd.view(seat, View(rules))
            if seat == 0:
                yield rules, view, moves, n
            rnd.apply(seat, strong.choose(view, moves, n))


def test_a_search_in_slices_decides_as_one_call():
    searched = 0
    for preset, players in (("classic", 2), ("nordic", 4)):
        for rules, view, moves, n in _expert_turns(preset, players, range(3)):
            whole = ai.new_player(rules, ai.EXPERT, seed=5, playouts=BUDGET)
            sliced = ai.new_player(rules, ai.EXPERT, seed=5, playouts=BUDGET)
            move = whole.choose(view, moves, n)
            sliced.begin(view, moves, n)
            view.s[:] = bytes(len(view.s))    # the caller may reuse its view meanwhile
            slices = 1
            while not sliced.think(3):
                slices += 1
            assert sliced.best() == move
            assert sliced.playouts_done == whole.playouts_done
            if whole.playouts_done:
                searched += 1
                assert slices >= BUDGET // 4
                assert whole.playouts_done >= BUDGET
            break
    assert searched >= 1


def test_the_tree_follows_the_opponent_model():
    # Every card the Expert does not hold is in seat 1's hand (the draw pile is empty
    # and the rest lie in the discard pile), so each deal gives seat 1 the same cards,
    # and with the alternatives switched off its reply to each candidate is the
    # playout policy's: one child per candidate, that move.
    rules, rnd = _stacked(["8H KH 9S QD", "TH 7S AS 9C"], "",
                          "AH 7C 8C TC JC QC KC AC 8S TS JS QS KS 7H 9H JH QH 7D 8D 9D TD "
                          "JD KD AD")
    moves = array("H", range(mv.MAX_MOVES))
    view = rnd.view(0, View(rules))
    n = rnd.legal_moves(0, moves)
    bot = ai.new_player(rules, ai.EXPERT, seed=3, playouts=150)
    search = bot.search
    search.other = 1 << 20
    try:
        bot.begin(view, moves, n)
        assert search.k >= 2
        while not bot.think(16):
            pass
    finally:
        search.other = 8
    flags = bot.flags
    checked = 0
    for c in range(1, search.k + 1):
        world = Round(rules, 2, Random(1))
        world.s[:] = rnd.s
        if world.apply_legal(0, search.move[c]) != 1:
            continue                   # an 8 that skips, or a draw: the Expert moves on
        checked += 1
        expected = _policy(world.s, 1, flags, bytearray(4))
        replies = []
        x = search.child[c]
        while x != 0xFFFF:
            replies.append(search.move[x])
            x = search.sib[x]
        assert replies == [expected], (describe(search.move[c]), [describe(m) for m in replies])
    assert checked >= 1


def test_the_search_keeps_to_its_node_tables():
    rules = Rules("nordic")
    small = Search(rules, 8)
    searched = 0
    for _, view, moves, n in _expert_turns("nordic", 3, range(2)):
        bot = ai.new_player(rules, ai.EXPERT, seed=1, playouts=300)
        bot.begin(view, moves, n)          # the candidates ...
        if bot.answer is not None:
            continue
        small.begin(bot, view, bot.cand, bot.search.k, 300)   # ... searched in 8 nodes
        while not small.think(50):
            pass
        assert small.best() in list(moves[:n])
        assert small.nodes == small.cap
        searched += 1
    assert searched >= 3


def _expert_moves(hands, rest, top):
    """What the Expert of seeds 0 to 2 plays from seat 0 of the stacked table."""
    rules, rnd = _stacked(hands, rest, top)
    moves = array("H", range(mv.MAX_MOVES))
    n = rnd.legal_moves(0, moves)
    view = rnd.view(0, View(rules))
    return [ai.new_player(rules, ai.EXPERT, seed=seed, playouts=BUDGET).choose(view, moves, n)
            for seed in range(3)]


def test_finds_a_win_two_moves_away_and_says_mau():
    # Heads-up classic, 8C KC in hand on the 9C: the 8 skips the other player, and the
    # King then goes out on it. The King first leaves the other player a turn.
    rest = "7C TC JC QC AC 9S JS AS 7H 8H 9H TH JH QH KH AH 7D 8D 9D TD JD QD KD AD"
    for move in _expert_moves(["8C KC", "7S 8S TS QS KS"], rest, "9C"):
        assert move == mv.play(parse("8C"), mau=True), describe(move)


def test_a_jack_comes_with_its_wish_and_the_mau():
    # Only the Jack fits the Ten of diamonds; it leaves the Nine of spades: the Expert
    # plays it wishing spades, and says Mau with it.
    rest = "7C 8C 9C TC JC QC KC AC 7H 8H 9H TH JH QH KH AH 7D 8D 9D JD QD KD AD 7S 8S"
    for move in _expert_moves(["JS 9S", "AS KS QS TS"], rest, "TD"):
        assert move == mv.play(parse("JS"), wish=1, mau=True), describe(move)


SETUP = {"seats": [["Ann", 0], ["Bot", 4]], "preset": "classic"}


class Clock:
    """A ticks_ms that moves on `step` ms at every look."""

    def __init__(self, step):
        self.now = 0
        self.step = step

    def __call__(self):
        self.now += self.step
        return self.now


def _to_ai_turn(game):
    while game.in_round() and not game.ai_to_act():
        game.play(game.hint())


def test_the_game_thinks_in_slices_and_moves_as_one_call(monkeypatch):
    # Each look at the clock finds 10 ms gone: a slice of SLICE_MS (20) makes at most
    # a few iterations, the search takes many slices, and the AI's move is the one a
    # game that never sliced makes.
    monkeypatch.setattr(fg, "ticks_ms", Clock(10))
    sliced = Game(SETUP, seed=4, playouts=BUDGET)
    whole = Game(SETUP, seed=4, playouts=BUDGET)
    for _ in range(3):
        _to_ai_turn(sliced)
        _to_ai_turn(whole)
        if not sliced.in_round():
            break
        bot = sliced.ais[1]
        slices = 0
        before = bot.playouts_done
        while not sliced.think():
            slices += 1
            assert bot.playouts_done - before <= 3 * slices
        assert sliced.step_ai(False) == whole.step_ai()
        if bot.playouts_done > before:
            assert slices >= BUDGET // 8


class Walks:
    """A device clock that stands still but for the walks: each walk of `bot` (a
    decision's or a ponder step that walked) takes the next of `ms` in turn."""

    def __init__(self, bot, ms):
        self.now = 0
        self.ms = ms
        self.walks = 0
        bot.think = self._timed(bot, bot.think)
        bot.ponder = self._timed(bot, bot.ponder)

    def __call__(self):
        return self.now

    def _timed(self, bot, step):
        def timed(*args):
            before = bot.playouts_done
            done = step(*args)
            if bot.playouts_done > before:
                self.now += self.ms[self.walks % len(self.ms)]
                self.walks += 1
            return done
        return timed


def test_a_slice_starts_no_walk_that_could_end_past_the_gap(monkeypatch):
    # Walks of 8, 8 and 30 ms in turn: once the 30 ms walk has been seen, a slice that
    # has spent 16 ms starts no walk (16 + 30 > GAP_MS), so no frame waits longer than
    # GAP_MS while the AI decides and ponders; and every slice still walks.
    game = Game(SETUP, seed=4, playouts=BUDGET)
    _to_ai_turn(game)
    clock = Walks(game.ais[1], (8, 8, 30))
    monkeypatch.setattr(fg, "ticks_ms", clock)
    slices = []
    for _ in range(60):
        start, walks = clock.now, clock.walks
        game.think()
        slices.append((clock.now - start, clock.walks - walks))
    assert slices[0] == (46, 3)          # the 30 ms walk not yet seen
    assert all(ms <= fg.GAP_MS and walks > 0 for ms, walks in slices[1:]), slices
    assert game.walk_ms == 30


def test_a_stalled_walk_shortens_the_slices_of_its_decision_alone(monkeypatch):
    # One walk stalls for 200 ms: the rest of that decision walks once a slice (8 + 200
    # > GAP_MS); the next decision learns its walks anew and walks 3 a slice again.
    game = Game(SETUP, seed=4, playouts=BUDGET)
    _to_ai_turn(game)
    clock = Walks(game.ais[1], (200,) + (8,) * 9999)
    monkeypatch.setattr(fg, "ticks_ms", clock)

    def walks_a_slice():
        counts = []
        done = False
        while not done:
            walks = clock.walks
            done = game.think()
            counts.append(clock.walks - walks)
        return counts

    stalled = walks_a_slice()
    after = [0]
    while len(after) < 3:               # the next decision that searches
        game.step_ai(False)
        _to_ai_turn(game)
        assert game.ai_to_act()
        after = walks_a_slice()
    assert stalled[0] == 1 and set(stalled[1:-1]) == {1}, stalled
    assert set(after[:-1]) == {3}, after


def test_the_hint_is_searched_when_asked_and_its_expert_let_go(monkeypatch):
    # Looking at the hand makes no Expert; asked for, the hint is the one a fresh search
    # of the table makes, and its Expert goes with the answer.
    monkeypatch.setattr(fg, "ticks_ms", Clock(10))
    game = Game(SETUP, seed=9, playouts=BUDGET)
    if game.ai_to_act():
        game.step_ai()
    assert not game.ai_to_act()
    seat = game.to_move()
    assert game.think() and game.helper is None
    moves = array("H", range(mv.MAX_MOVES))
    n = game.legal(seat, moves)
    early = game.hint(False)            # no search: the heuristic's first choice
    assert early in list(moves[:n])
    fresh = ai.new_player(game.rules, ai.EXPERT, seed=1, playouts=BUDGET)
    fresh.prng.seed(9 ^ game.match.rounds_played << 12 ^ game.n_moves << 16)  # the table's
    assert game.hint() == fresh.choose(game.view(seat), moves, n)
    assert game.helper is None and game.thinking is None


def test_the_human_s_turn_starts_after_the_pace(monkeypatch):
    # Only an AI's move waits for its search: once the last AI move has been shown for its
    # pace, the human is to move (the Expert pondering meanwhile; the hint is searched
    # when asked).
    from firmware.app import AI_PACE_MS
    from test_app_flows import Hands
    monkeypatch.setattr(fg, "ticks_ms", Clock(10))
    h = Hands("pico_display")
    h.app.playouts = 400
    h.start(levels=[0, 4])
    app = h.app
    game = app.game
    waits = []
    for _ in range(6):
        while app.busy:
            h.wait(50)
        if not game.in_round():
            break
        h.play_turn()
        shown = None
        moves = game.n_moves
        while app.busy and game.in_round():
            h.wait(50)
            if game.n_moves != moves and not game.is_human(game.last_seat):
                shown = h.now
                moves = game.n_moves
        if shown is not None and game.in_round():
            waits.append(h.now - shown)
    assert waits and max(waits) <= AI_PACE_MS + 50, waits


def _tree(search, node):
    """The subtree under `node` as {path of moves: (visits, wins)}."""
    out = {}
    stack = [(node, ())]
    while stack:
        c, path = stack.pop()
        x = search.child[c]
        while x != 0xFFFF:
            key = path + (search.move[x],)
            out[key] = (search.visits[x], search.wins[x])
            stack.append((x, key))
            x = search.sib[x]
    return out


def _accounted(search):
    """Every node used is in the tree (under the table's node) or free, once."""
    seen = set()
    stack = [search.cur]
    x = search.free
    while x != 0xFFFF:
        stack.append(x)
        x = search.sib[x]
    while stack:
        c = stack.pop()
        assert c not in seen
        seen.add(c)
        x = search.child[c]
        while x != 0xFFFF:
            stack.append(x)
            x = search.sib[x]
    return seen == set(range(search.nodes))


def _heads_up(seed):
    """A heads-up classic round, Expert (seat 0) against Strong, told every move."""
    rules = Rules("classic")
    rnd = Round(rules, 2, Random(seed))
    expert = ai.new_player(rules, ai.EXPERT, seed=seed, playouts=BUDGET)
    strong = ai.new_player(rules, ai.STRONG, seed=seed)
    return rules, rnd, (expert, strong), (View(rules), View(rules))


def _move(rnd, bots, views, seat, move):
    for k in range(2):
        bots[k].observe(rnd.view(k, views[k]), seat, move)
    rnd.apply(seat, move)


def test_the_next_decision_keeps_the_subtree_under_the_moves_made():
    # The Expert's tree goes down with the table (its own move, then the reply), and its
    # next decision starts from the node reached: the candidates it shares with the old
    # node's children keep their whole subtrees, visits and wins; every other node is
    # free for the walks to come.
    kept = 0
    moves = array("H", range(mv.MAX_MOVES))
    for seed in range(12):
        rules, rnd, bots, views = _heads_up(seed)
        expert = bots[0]
        search = expert.search
        old = None
        while not rnd.is_over():
            seat = rnd.turn()
            n = rnd.legal_moves(seat, moves)
            view = rnd.view(seat, views[seat])
            if seat == 0:
                if old is not None and search.owner is expert and search.cur != 0xFFFF:
                    before = _tree(search, search.cur)
                    expert.begin(view, moves, n)
                    if expert.answer is None:
                        after = _tree(search, search.cur)
                        cands = set(search.move[search.cnode[i]] for i in range(search.k))
                        want = {p: v for p, v in before.items() if p[0] in cands}
                        for c in cands:
                            want.setdefault((c,), (0, 0))    # a candidate new here
                        assert after == want
                        assert _accounted(search)
                        kept += len(want) > 0
                    move = expert.best() if expert.think(1 << 20) else None
                else:
                    move = expert.choose(view, moves, n)
                old = True
            else:
                move = bots[1].choose(view, moves, n)
            _move(rnd, bots, views, seat, move)
    assert kept >= 10


def test_pondering_walks_on_from_the_table_now():
    # After its own move the Expert ponders from the node of that move, in steps of a
    # walk at most (a deal dealt and led down to its next turn, then one candidate of
    # that turn a step): every walk goes through that node; what the walks do not reach
    # is free; not at its own turn, and not beyond _PONDER_MAX steps.
    moves = array("H", range(mv.MAX_MOVES))
    pondered = 0
    for seed in range(6):
        rules, rnd, bots, views = _heads_up(seed)
        expert = bots[0]
        search = expert.search
        while not rnd.is_over():
            seat = rnd.turn()
            n = rnd.legal_moves(seat, moves)
            view = rnd.view(seat, views[seat])
            bot = bots[seat]
            move = bot.choose(view, moves, n)
            _move(rnd, bots, views, seat, move)
            if rnd.is_over():
                break
            mine = rnd.view(0, View(rules))
            if rnd.turn() == 0 or search.owner is not expert:
                assert not expert.ponder(mine, 4)
                continue
            v = search.visits[search.cur]
            steps = search.pondered
            assert expert.ponder(mine, 30)
            assert search.pondered - steps == 30
            assert 15 <= search.visits[search.cur] - v <= 30   # a walk a step at most
            assert _accounted(search)
            pondered += 1
            while expert.ponder(mine, 50):
                pass
            assert search.pondered == _PONDER_MAX
    assert pondered >= 5


def test_the_game_ponders_while_the_human_thinks(monkeypatch):
    # While the human is to move, the slices go to the Expert that moved last: its walks
    # grow, and the hint (searched when asked, in tables of its own) is the one a fresh
    # search makes.
    monkeypatch.setattr(fg, "ticks_ms", Clock(10))
    pondered = 0
    for seed in range(4):
        game = Game(SETUP, seed=seed, playouts=BUDGET)
        bot = game.ais[1]
        for _ in range(6):
            if not game.in_round():
                break
            if game.ai_to_act():
                while not game.think():
                    pass
                game.step_ai(False)
                continue
            before = bot.playouts_done
            for _ in range(BUDGET // 2 + 10):   # the hint's walks, 2 a slice, and 10 more
                game.think()
            seat = game.to_move()
            moves = array("H", range(mv.MAX_MOVES))
            n = game.legal(seat, moves)
            fresh = ai.new_player(game.rules, ai.EXPERT, seed=1, playouts=BUDGET)
            fresh.prng.seed(seed ^ game.match.rounds_played << 12 ^ game.n_moves << 16)
            hint = game.hint()
            assert hint == fresh.choose(game.view(seat), moves, n)
            pondered += bot.playouts_done > before
            game.play(hint)
    assert pondered >= 3


def test_the_tournament_ponders_where_a_device_would(monkeypatch):
    # After each move: unless an Expert is to move next (its decision takes the time the
    # move is shown), the Expert whose tree the search holds ponders the device's walks
    # a move shown (ponder_budget); with ponder 0, never.
    from tools import tournament
    calls = []
    real = Expert.ponder

    def ponder(bot, view, walks):
        calls.append((view.turn(), view.player, walks))
        return real(bot, view, walks)

    monkeypatch.setattr(Expert, "ponder", ponder)
    rules = Rules("classic")
    tournament.play_match(rules, [ai.EXPERT, ai.STRONG, ai.EXPERT, ai.STRONG], 5)
    walks = ponder_budget(rules, 4)
    assert calls and all(w == walks for _, _, w in calls)
    assert all(turn % 2 == 1 and turn != me for turn, me, _ in calls)   # Strong next
    calls[:] = []
    tournament.play_match(rules, [ai.EXPERT, ai.STRONG], 5, ponder=0)
    assert calls == []
