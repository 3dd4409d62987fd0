"""The game on the device (firmware.game): turns, AI steps, hints, catches, matches with
players coming and going, and pass-and-play privacy."""
from array import array

import pytest

from engine import events as ev
from engine import moves as mv
from engine.cards import deck, NO_CARD
from engine.round import IllegalMove
from engine.notation import parse
from firmware import story
from firmware.game import Game

PLAYOUTS = 12  # the Expert's budget in tests: a count, so every run decides the same


def setup(seats, preset="classic", kind="round", limit=1, **options):
    return {"seats": [list(s) for s in seats], "preset": preset, "options": options,
            "match": kind, "limit": limit}


def legal_list(game, seat):
    out = array("H", range(mv.MAX_MOVES))
    n = game.legal(seat, out)
    return list(out[:n])


def human_move(game):
    """A scripted human: the first legal move that is not a catch, saying Mau when it
    can (so pass-and-play games move on like real ones)."""
    moves = legal_list(game, game.to_move())
    for m in moves:
        if mv.kind(m) == mv.PLAY and mv.says_mau(m):
            return m
    for m in moves:
        if mv.kind(m) != mv.CATCH:
            return m
    return moves[0]


def drive(game, steps=20000, between=None, human=human_move, frame=None):
    """Play until the match is over, as the screens would; return the actions made."""
    actions = 0
    for _ in range(steps):
        if frame is not None:
            frame(game)
        if game.match_over():
            return actions
        if game.round_over():
            if between is not None:
                between(game)
            if game.match_over():
                return actions
            game.next_round()
            continue
        before = game.told
        if game.ai_to_act():
            game.step_ai()
        else:
            if game.needs_cover():
                game.uncover()
                continue
            game.play(human(game))
        assert game.told > before or game.round_over()  # every action moves the game on
        actions += 1
    raise AssertionError("the match did not end within %d steps" % steps)


def stack(game, hands, top, turn=0):
    """Lay a chosen table on the game's round: hands by seat (short names), the top
    card, every other card in the draw pile."""
    rnd = game.rnd
    laid = [[parse(c) for c in h.split()] for h in hands]
    discard = [parse(top)]
    rest = list(deck(rnd.rules.deck_name()))
    for c in [c for h in laid for c in h] + discard:
        rest.remove(c)
    rnd.set_table(laid, rest, discard, turn)


# -- AI turns ------------------------------------------------------------------------

@pytest.mark.parametrize("preset", ["classic", "nordic"])
def test_ai_always_moves_the_game_on_until_the_match_ends(preset):
    seats = [("Beth", 1), ("Carl", 2), ("Dora", 3), ("Emil", 4)]
    game = Game(setup(seats, preset, "rounds", 2), seed=11, playouts=PLAYOUTS)
    actions = drive(game)
    assert game.match_over() and game.rounds_played() == 2
    assert game.winner() in game.seated()
    assert actions > 20


def test_step_ai_makes_exactly_one_move_and_returns_it():
    game = Game(setup([("Anna", 0), ("Finn", 3), ("Greta", 2)]), seed=3, playouts=PLAYOUTS)
    while not game.ai_to_act():
        game.play(human_move(game))
    seat = game.catcher if game.catcher >= 0 else game.to_move()
    n = game.n_moves
    move = game.step_ai()
    assert game.n_moves == n + 1 and game.moves[n] == seat << 11 | move
    assert game.last_seat == seat and game.last_move == move


def test_step_ai_refuses_when_a_human_is_to_move():
    game = Game(setup([("Anna", 0), ("Finn", 2)]), seed=1, playouts=PLAYOUTS)
    while game.ai_to_act():
        game.step_ai()
    with pytest.raises(ValueError):
        game.step_ai()


def test_hints_are_legal_moves_of_the_human_to_move():
    game = Game(setup([("Anna", 0), ("Finn", 2), ("Greta", 0)], "nordic", "rounds", 2),
                seed=8, playouts=PLAYOUTS)
    hints = []

    def hinted(g):
        h = g.hint()
        assert h in legal_list(g, g.to_move())
        hints.append(h)
        return h

    drive(game, human=hinted)
    assert len(hints) > 10


def test_the_hint_is_strong_s_choice_where_no_expert_plays():
    from engine import ai
    game = Game(setup([("Anna", 0), ("Finn", 3), ("Greta", 2)], "nordic", "rounds", 2),
                seed=8, playouts=PLAYOUTS)
    seen = []

    def hinted(g):
        seat = g.to_move()
        moves = array("H", range(mv.MAX_MOVES))
        n = g.legal(seat, moves)
        strong = ai.new_player(g.rules, ai.STRONG, playouts=PLAYOUTS)
        assert g.hint() == strong.choose(g.view(seat), moves, n)
        assert g.helper is None
        seen.append(seat)
        return g.hint()

    drive(game, human=hinted)
    assert len(seen) > 10


def test_an_illegal_move_raises_the_engines_error_and_changes_nothing():
    game = Game(setup([("Anna", 0), ("Finn", 2)]), seed=5, playouts=PLAYOUTS)
    while game.ai_to_act():
        game.step_ai()
    before = bytes(game.rnd.s), game.n_moves, game.told
    seat = game.to_move()
    held = game.rnd.hand(seat)
    not_held = [c for c in deck("skat32") if c not in held][0]
    for bad in (mv.play(not_held), mv.catch(1 - seat), mv.PASS if mv.DRAW in legal_list(
            game, seat) else mv.play(not_held), "draw"):
        with pytest.raises(IllegalMove):
            game.play(bad)
    assert (bytes(game.rnd.s), game.n_moves, game.told) == before


# -- catching a forgotten Mau --------------------------------------------------------

def test_an_ai_catches_a_human_who_forgot_mau():
    game = Game(setup([("Anna", 0), ("Finn", 0), ("Greta", 2)]), seed=2, playouts=PLAYOUTS)
    stack(game, ["9H KH", "7S 8S 9S", "7C 8C 9C"], top="TH", turn=0)
    game.uncover()
    game.play(mv.play(parse("9H")))  # no Mau said
    assert game.rnd.debtor() == 0
    assert game.ai_to_act() and game.catcher == 2  # Greta (Casual) always catches
    with pytest.raises(ValueError):
        game.play(human_move(game))  # the catch comes first
    move = game.step_ai()
    assert move == mv.catch(0) and game.rnd.count(0) == 3
    assert game.story(0)[-1].startswith("You forgot to say Mau - caught by Greta: draw 2: ")
    assert game.story(1)[-1] == "Anna forgot to say Mau - caught by Greta: draws 2"


def test_a_human_catches_and_a_wrong_catch_costs_nothing():
    game = Game(setup([("Anna", 0), ("Finn", 0)]), seed=2, playouts=PLAYOUTS)
    stack(game, ["9H KH", "7S 8S 9S"], top="TH", turn=0)
    with pytest.raises(IllegalMove):
        game.catch(0)  # nobody owes a Mau
    game.play(mv.play(parse("9H")))
    assert not game.ai_to_act() and game.to_move() == 1
    game.catch()
    assert game.rnd.count(0) == 3 and game.rnd.debtor() is None
    assert game.to_move() == 1  # the catcher still has the turn


def test_an_ai_may_catch_on_its_own_turn():
    game = Game(setup([("Anna", 0), ("Finn", 3)]), seed=2, playouts=PLAYOUTS)
    stack(game, ["9H KH", "7S 8S 9S"], top="TH", turn=0)
    game.play(mv.play(parse("9H")))
    assert game.catcher == -1 and game.ai_to_act()  # Finn is to move: the catch is his
    assert game.step_ai() == mv.catch(0)
    assert game.rnd.count(0) == 3 and game.to_move() == 1


# -- matches -------------------------------------------------------------------------

@pytest.mark.parametrize("preset,kind,limit", [("classic", "rounds", 4),
                                               ("nordic", "rounds", 4),
                                               ("classic", "elimination", 60),
                                               ("nordic", "elimination", 80)])
def test_a_match_with_joins_and_leaves_plays_to_the_end(preset, kind, limit):
    game = Game(setup([("Anna", 0), ("Finn", 2), ("Greta", 3)], preset, kind, limit),
                seed=21, playouts=PLAYOUTS)
    log = []

    def between(g):
        log.append((g.rounds_played(), g.results()))
        assert [r[0] for r in g.results()] == [g.player_name(p) for p in g.match.last_seats]
        if g.rounds_played() == 1 and not g.match_over():
            worst = max(g.totals()[p] for p in g.seated())
            p = g.join("Ida", 4)
            assert g.player_name(p) == "Ida" and g.totals()[p] == worst
            assert g.seated()[-1] == p
        elif g.rounds_played() == 2 and len(g.seated()) > 2:
            g.leave(g.seated()[1])

    drive(game, between=between)
    assert game.match_over()
    assert game.winner() in game.seated()
    if kind == "rounds":
        assert game.rounds_played() == 4
    else:
        assert len(game.seated()) == 1 or game.rounds_played() >= 2
    assert log and log[0][0] == 1


def test_join_and_leave_only_between_rounds():
    game = Game(setup([("Anna", 0), ("Finn", 2)], kind="rounds", limit=3), seed=4,
                playouts=PLAYOUTS)
    with pytest.raises(ValueError):
        game.join("Ida", 2)
    with pytest.raises(ValueError):
        game.leave(1)


def test_a_bad_setup_names_what_is_wrong():
    with pytest.raises(ValueError, match="match"):
        Game(setup([("Anna", 0), ("Finn", 2)], kind="forever"))
    with pytest.raises(ValueError, match="level"):
        Game(setup([("Anna", 0), ("Finn", 7)]))
    with pytest.raises(ValueError, match="players"):
        Game(setup([("Anna", 0)]))
    with pytest.raises(ValueError, match="ace"):
        Game(setup([("Anna", 0), ("Finn", 1)], ace="huge"))


def test_options_override_the_preset_and_the_kind_of_match_sets_the_rounds():
    game = Game(setup([("Anna", 0), ("Finn", 2)], "classic", "rounds", 3, hand_size=6, max_players=5,
                      ace="draw4"), seed=1)
    r = game.rules
    assert (r.hand_size, r.rounds, r.preset, r.max_players) == (6, 3, "classic", 5)
    assert game.rnd.count(0) == 6
    game = Game(setup([("Anna", 0), ("Finn", 2)], "nordic", "elimination", 250), seed=1)
    assert game.rules.limit == 250


# -- pass-and-play -------------------------------------------------------------------

def hidden_except(view, seat):
    """True if the view shows `seat`'s cards and none of any other player's."""
    if view.player != seat:
        return False
    for q in range(view.players()):
        cards = view.hand(q)
        if (q == seat) == (NO_CARD in cards):
            return False
    return True


def masked_story(game, seat, start):
    """The story told from the ring with every card drawn by another player blanked:
    what the seat may know. It must read exactly like the real story."""
    ring = array("H", game.ring)
    for i in range(len(ring)):
        e = ring[i]
        if e >> 12 == ev.DRAW and (e >> 8 & 15) != seat:
            ring[i] = e & 0xFF00 | 0x3F  # no card at all
    return story.tell(ring, start, game.told, game.names_by_seat(), seat)


@pytest.mark.parametrize("preset", ["classic", "nordic"])
def test_pass_and_play_shows_only_the_hand_of_who_dismissed_the_cover(preset):
    seats = [("Anna", 0), ("Finn", 0), ("Greta", 3), ("Emma", 0)]
    game = Game(setup(seats, preset, "rounds", 2), seed=13, playouts=PLAYOUTS)
    state = {"holder": None, "covers": 0, "frames": 0, "stories": 0}
    drawn_by = {}

    def frame(g):
        """What a screen would show now: a cover, or the holder's hand."""
        if not g.in_round():
            assert g.hand_view() is None
            return
        if g.needs_cover():
            state["covers"] += 1
            assert g.cover_name() == g.name(g.to_move())
            return
        view = g.hand_view()
        if state["holder"] is None:
            assert view is None and g.holder_seat() == -1
            return
        seat = g.seated().index(state["holder"])
        assert g.holder_seat() == seat and g.is_human(seat)
        assert hidden_except(view, seat)
        state["frames"] += 1

    def human(g):
        seat = g.to_move()
        if g.seated()[seat] != state["holder"]:
            raise AssertionError("a human moved without the cover being dismissed")
        return human_move(g)

    real_uncover = game.uncover

    def uncover():
        real_uncover()
        seat = game.to_move()
        state["holder"] = game.seated()[seat]
        lines = game.story(seat)
        start = game.heard[game.seated()[seat]]
        assert lines == masked_story(game, seat, max(start, game.told - len(game.ring))) or lines[0] == "..."
        for line in lines:
            for name in game.names_by_seat():
                if name != game.name(seat) and (name + " draws") in line:
                    assert " of " not in line.split(name + " draws")[1], line
        state["stories"] += 1

    game.uncover = uncover
    drive(game, frame=frame, human=human)
    assert state["covers"] > 20 and state["frames"] > 50 and state["stories"] > 20


def test_one_human_never_needs_a_cover():
    game = Game(setup([("Anna", 0), ("Finn", 2), ("Greta", 1)]), seed=6, playouts=PLAYOUTS)

    def frame(g):
        assert not g.needs_cover()
        assert g.holder_seat() == g.seated().index(0)
        if g.in_round():
            assert hidden_except(g.hand_view(), g.seated().index(0))

    drive(game, frame=frame)


def test_a_resumed_match_and_a_new_deal_hand_the_device_over_with_a_cover():
    """Whoever held the device before a save and quit, a power cut or a round end, the
    next human to act takes it from a cover: no hand is shown before that."""
    from engine.ai import DEVICE_MS
    from firmware.resume import restore
    game = Game(setup([("Anna", 0), ("Finn", 0), ("Greta", 2)], kind="rounds", limit=3),
                seed=5, playouts=PLAYOUTS)
    while not game.round_over():
        if game.ai_to_act():
            game.step_ai()
            continue
        if game.needs_cover():
            game.uncover()
        assert not game.needs_cover() and game.hand_view() is not None
        state, dealt, moves = game.snapshot()
        resumed = restore(state, dealt, moves, PLAYOUTS, DEVICE_MS)
        assert resumed.needs_cover() and resumed.holder_seat() == -1
        assert resumed.hand_view() is None
        resumed.uncover()
        assert resumed.holder_seat() == game.holder_seat()
        game.play(human_move(game))
    game.next_round()
    while game.ai_to_act():
        game.step_ai()
    assert game.needs_cover() and game.hand_view() is None


def test_a_story_tells_what_happened_since_the_humans_last_move():
    game = Game(setup([("Anna", 0), ("Finn", 2), ("Greta", 2)]), seed=9, playouts=PLAYOUTS)
    while game.ai_to_act():
        game.step_ai()
    first = game.story(0)
    assert first[0] == "Greta deals" and first[1].startswith("The first card is ")
    game.play(human_move(game))
    assert game.story(0) == []
    while game.ai_to_act() and game.in_round():
        game.step_ai()
    if game.in_round():
        lines = game.story(0)
        assert lines and all(line.startswith(("Finn", "Greta", "Anna", "The", "Play", "You"))
                             for line in lines)
        assert lines[-len(game.last_lines()):] == game.last_lines()


def test_changes_are_reported_after_every_completed_move():
    game = Game(setup([("Anna", 0), ("Finn", 2)], kind="rounds", limit=2), seed=3,
                playouts=PLAYOUTS)
    seen = []
    game.on_change = lambda g: seen.append((g.n_moves, g.round_over()))
    drive(game)
    assert len(seen) > 10
    assert seen[0] == (1, False)


# -- on MicroPython: no allocation per move ----------------------------------------------

ALLOC_SCRIPT = """
from firmware.game import Game
import gc
setup = {"seats": [["Anna", 2], ["Finn", 3], ["Greta", 1], ["Emma", 4]], "preset": PRESET,
         "options": {}, "match": "rounds", "limit": 50}
G = Game(setup, 3, 12)

def run():
    moves = 0
    ends = 0
    stray = 0
    at_end = 0
    for i in range(400):
        if G.match_over():
            break
        if G.round_over():
            G.next_round()
            continue
        gc.disable()
        a = gc.mem_alloc()
        G.step_ai()
        b = gc.mem_alloc()
        gc.enable()
        moves += 1
        if G.round_over():
            ends += 1
            at_end += b - a
        elif b != a:
            stray += 1
    print("MOVES", moves, "ENDS", ends, "STRAY", stray, "END_BYTES", at_end)
"""


@pytest.mark.parametrize("preset", ["classic", "nordic"])
def test_an_ai_step_allocates_nothing_on_micropython_unless_it_ends_the_round(tmp_path, preset):
    import os
    import re
    import shutil
    from tools.vm import mpvm
    folder = tmp_path / "firmware"
    folder.mkdir()
    here = os.path.dirname(story.__file__)
    for name in ("__init__.py", "game.py", "deal.py", "story.py", "save.py"):
        shutil.copy(os.path.join(here, name), folder / name)
    result = mpvm.run("PRESET = %r\n%s" % (preset, ALLOC_SCRIPT), modules=("engine", str(folder)),
                      steps=["run()", "run()"], timeout=240, label="game allocations").check()
    runs = re.findall(r"MOVES (\d+) ENDS (\d+) STRAY (\d+) END_BYTES (\d+)", result.stdout)
    assert len(runs) == 2
    for moves, ends, stray, end_bytes in runs:
        assert int(moves) > 100 and int(ends) >= 1
        assert int(stray) == 0  # every other move: no allocation at all
    print("\n%s: %s AI moves without allocating; the %s moves that ended a round "
          "allocated %s bytes (scoring)" % (preset, sum(int(r[0]) - int(r[1]) for r in runs),
                                            sum(int(r[1]) for r in runs),
                                            sum(int(r[3]) for r in runs)))


@pytest.mark.parametrize("preset", ["classic", "nordic"])
def test_a_one_round_match_has_the_rules_of_the_preset_with_that_match(preset):
    # classic's own match is one round: its Rules come without the option table
    from engine.rules import Rules
    from engine.rules import rules_of
    one = rules_of({"seats": [], "preset": preset, "options": {}, "match": "round"})
    assert one.to_dict() == Rules(preset, match="rounds", rounds=1).to_dict()
    assert (one.match, one.rounds) == (0, 1)


@pytest.mark.parametrize("preset", ["classic", "nordic"])
@pytest.mark.parametrize("kind, limit", [("round", 1), ("rounds", 3), ("rounds", 999),
                                         ("elimination", 100), ("elimination", 9999)])
def test_a_match_of_a_preset_is_set_up_without_the_option_table(preset, kind, limit, monkeypatch):
    # the deal of a preset's 3-round match allocated 9 KB more: engine.options loaded and parsed
    import sys
    from engine.rules import rules_of
    setup = {"seats": [], "preset": preset, "options": {}, "match": kind, "limit": limit}
    with_table = rules_of(dict(setup, options={"stack_sevens": True}))   # both presets stack
    monkeypatch.setitem(sys.modules, "engine.options", None)    # importing it would fail
    rules = rules_of(setup)
    monkeypatch.undo()
    assert rules.to_dict() == with_table.to_dict()


@pytest.mark.parametrize("kind, limit", [("rounds", 0), ("rounds", 1000), ("rounds", True),
                                         ("rounds", "3"), ("elimination", 10000),
                                         ("elimination", 0), ("bo3", 3)])
def test_a_match_the_option_table_refuses_is_refused_as_before(kind, limit):
    # the preset's quick way takes only what engine.options allows for rounds and limit
    from engine.rules import rules_of
    with pytest.raises(ValueError):
        rules_of({"seats": [], "preset": "classic", "options": {}, "match": kind, "limit": limit})


def test_the_option_table_is_let_go_once_read():
    # engine.options stayed in the heap for the rest of the evening after one custom rule
    import sys
    from engine.rules import Rules
    rules = Rules("classic", play_drawn=False)
    assert "engine.options" not in sys.modules and rules.play_drawn == 0
