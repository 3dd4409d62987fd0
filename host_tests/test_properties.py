"""Property tests of the round engine against RULES.md (CPython only: hypothesis).

Random rounds over both presets and many option mixes (deck, hand size, players,
every switch and choice). After every move:
- every card of the deck is on the table exactly once (twice in double104);
- each seat's legal moves (engine legal_moves) equal host_tests/oracle.py's, computed
  from the Round and again from that seat's View (a seat can tell its own moves);
- every accepted move applies: apply and apply_legal give the same table, and a play
  said with "Mau" too early does exactly what the plain play does (RULES.md, nordic;
  docs/replay-format.md); a sample of other moves (random ints, near misses: a wrong
  wish, a Mau flag on a draw, a card not held, a play while a count is pending, a
  draw when a card must be played, catches of the wrong seat ...) raise IllegalMove
  and leave the round unchanged;
- the move just made did what RULES.md says (which cards moved, turn, direction,
  pending count, wish, Mau penalty, round end);
- no View shows another seat's card or anything of the draw pile;
and every round ends within MOVE_LIMIT moves.

Profiles: the default ("mau-default") keeps this file near 30 s of CPU time;
MAU_PROPS_PROFILE=thorough runs 2000 rounds per test. A failure prints its rules,
players, seeds and policy; `check_game(preset, options, players, seed, policy,
dealer)` plays that round again.
"""

import os
from array import array
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

from engine import moves as mv
from engine import cards as cd
from engine.notation import describe, parse
from engine.text import card_name
from engine.cards import NO_CARD, deck
from engine.rng import Random
from engine.round import Round, View, IllegalMove, NORMAL, DRAWN, AGAIN, OVER
from engine.rules import Rules, ACE_DRAW4, ACE_PLAY_AGAIN, MAU_CHALLENGE, MAU_AUTO
from engine.tables import draw_pile, discard_pile

try:
    import oracle
except ImportError:  # imported as a package module
    from host_tests import oracle

settings.register_profile(
    "mau-default", max_examples=25, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile(
    "mau-thorough", max_examples=2000, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PROFILE = settings.get_profile(
    "mau-thorough" if os.environ.get("MAU_PROPS_PROFILE") == "thorough" else "mau-default")

MOVE_LIMIT = 20000      # no random round comes near this; exceeding it is a stall
POLICIES = ("uniform", "plays_first", "draws_often")
UNIFORM_MOVES = 1500     # then every policy plays first (see choose)
DRAWING_MOVES = 300
CANDIDATES = 24         # near-miss and random moves tried per seat and move
# Option values as docs/engine-api.md names them.
DECK_CHOICES = ("skat32", "french52", "double104")
FIRST_CARD_CHOICES = ("plain", "turn_again")
ACE_CHOICES = ("plain", "draw4", "play_again")
MAU_CHOICES = ("challenge", "auto", "off")
LAST_SEVEN_CHOICES = ("ends", "draws")
SWITCHES = ("must_play_if_able", "play_drawn", "stack_sevens", "eight_skips",
            "nine_reverses", "jack_on_jack", "no_finish_on_jack")

# Header byte of the last drawn card (engine.round._DRAWN). The rest of a View's
# header is public (turn, direction, counts, pending, wish, phase, debtor, ...).
DRAWN_SLOT = 6


# -- strategies ---------------------------------------------------------------

@st.composite
def preset_games(draw):
    """An unmodified preset at a legal number of players."""
    preset = draw(st.sampled_from(("classic", "nordic")))
    rules = Rules(preset)
    players = draw(st.integers(rules.min_players, rules.max_players))
    return preset, {}, players


@st.composite
def custom_games(draw):
    """A preset with any mix of options overridden, within the validation limits."""
    preset = draw(st.sampled_from(("classic", "nordic")))
    players = draw(st.integers(2, 6))
    max_players = draw(st.integers(players, 6))
    deck_name = draw(st.sampled_from(DECK_CHOICES))
    most = min(20, (len(deck(deck_name)) - 1) // max_players)
    options = {
        "deck": deck_name,
        "min_players": 2,
        "max_players": max_players,
        "hand_size": draw(st.integers(1, most)),
        "ace": draw(st.sampled_from(ACE_CHOICES)),
        "mau_penalty": draw(st.sampled_from(MAU_CHOICES)),
        "last_seven": draw(st.sampled_from(LAST_SEVEN_CHOICES)),
        "first_card": draw(st.sampled_from(FIRST_CARD_CHOICES)),
    }
    for key in SWITCHES:
        options[key] = draw(st.booleans())
    return preset, options, players


seeds = st.integers(0, 2 ** 30 - 1)


# -- reading a table ----------------------------------------------------------

def all_cards(rnd):
    """Every card on the table: draw pile, hands, discard pile."""
    cards = list(draw_pile(rnd)) + list(discard_pile(rnd))
    for p in range(rnd.players()):
        cards.extend(rnd.hand(p))
    return cards


def snapshot(rnd):
    """The public state plus every hand (for checking what a move did)."""
    n = rnd.players()
    return {
        "hands": [Counter(rnd.hand(p)) for p in range(n)],
        "draw": draw_pile(rnd),
        "discard": discard_pile(rnd),
        "top": rnd.top(), "wish": rnd.wish(), "pending": rnd.pending(),
        "phase": rnd.phase(), "turn": rnd.turn(), "direction": rnd.direction(),
        "debtor": rnd.debtor(), "said": [rnd.said_mau(p) for p in range(n)],
    }


def save(rnd):
    return bytes(rnd.s), rnd.rng.state(), rnd.events[:]


def restore(rnd, saved):
    s, rng_state, events = saved
    rnd.s[:] = s
    rnd.rng.set_state(*rng_state)
    rnd.events[:] = events


def engine_moves(rnd, seat, buf):
    n = rnd.legal_moves(seat, buf)
    return list(buf[:n])


def describe_all(moves):
    return sorted(describe(m) for m in moves)


# -- the checks ---------------------------------------------------------------

def check_cards(rnd, full):
    assert Counter(all_cards(rnd)) == full, "cards lost or duplicated"
    assert sum(rnd.count(p) for p in range(rnd.players())) + rnd.draw_size() \
        + rnd.discard_size() == rnd.rules.deck_size()


def check_invariants(rnd):
    rules = rnd.rules
    top = rnd.top()
    if rnd.wish() is not None:
        assert top & 15 == cd.JACK, "a wish without a Jack on top"
    if rnd.pending():
        assert top & 15 == cd.SEVEN or (top & 15 == cd.ACE and rules.ace == ACE_DRAW4), \
            "a pending draw without a 7 (or draw4 ace) on top"
    phase = rnd.phase()
    if phase == DRAWN:
        assert rules.play_drawn and rnd.drawn() in rnd.hand(rnd.turn())
        assert rnd.pending() == 0
    if phase == AGAIN:
        assert rules.ace == ACE_PLAY_AGAIN and top & 15 == cd.ACE
    d = rnd.debtor()
    if d is not None:
        assert rules.mau_penalty == MAU_CHALLENGE, "a debtor without the challenge rule"
        assert rnd.count(d) == 1 and not rnd.said_mau(d)
    if phase != OVER:  # after the round: test_the_winner_has_no_mau_left_to_say
        for p in range(rnd.players()):
            if rnd.said_mau(p):
                assert rnd.count(p) == 1, "said_mau(%d) with %d cards" % (p, rnd.count(p))
    if phase == OVER:
        w = rnd.winner()
        if w is not None:
            assert rnd.count(w) == 0


def check_legal_sets(rnd, buf, views):
    """Engine == oracle for every seat, from the Round and from the seat's View."""
    sets = []
    for seat in range(rnd.players()):
        got = engine_moves(rnd, seat, buf)
        assert len(got) == len(set(got)), "duplicate moves listed: %s" % describe_all(got)
        want = oracle.legal_moves(rnd, seat)
        if set(got) != want:
            raise AssertionError(
                "seat %d: engine lists %s; RULES.md (oracle) says %s; extra %s, missing %s"
                % (seat, describe_all(got), describe_all(want),
                   describe_all(set(got) - want), describe_all(want - set(got))))
        view = rnd.view(seat, views[seat])
        assert oracle.legal_moves(view, seat) == want, \
            "seat %d cannot tell its legal moves from its View" % seat
        sets.append(want)
    return sets


def check_view(rnd, seat, view):
    """The View shows the seat's own hand, the discard pile and public numbers only."""
    header = len(view.s) - rnd.rules.deck_size()
    own = Counter(rnd.hand(seat))
    seen = Counter(c for c in view.s[header:] if c != NO_CARD)
    assert seen == own + Counter(discard_pile(rnd)), \
        "seat %d's View shows cards it may not see" % seat
    assert view.hand(seat) == rnd.hand(seat)
    for q in range(rnd.players()):
        assert view.count(q) == rnd.count(q)
        if q != seat:
            assert all(c == NO_CARD for c in view.hand(q))
    assert [view.discard(i) for i in range(view.discard_size())] == \
        list(reversed(discard_pile(rnd)))
    for i in range(header):
        if i != DRAWN_SLOT:
            assert view.s[i] == rnd.s[i]
    if seat == rnd.turn() and rnd.phase() == DRAWN:
        assert view.drawn() == rnd.drawn()
    else:
        assert view.drawn() == NO_CARD
        # The raw byte as well: a card drawn and kept earlier is nobody else's business.
        c = view.s[DRAWN_SLOT]
        is_card = c < 64 and 2 <= c & 15 <= 14
        assert not is_card or c in own or c in discard_pile(rnd), (
            "seat %d's View header (drawn-card byte) still holds %s, a card drawn and kept "
            "earlier, now hidden from this seat" % (seat, card_name(c)))


def candidate_moves(rnd, seat, prng):
    """Near misses and random ints for `seat`: every play of every own card with
    every wish and Mau flag, cards not held, draw/pass/catch in all forms."""
    rules = rnd.rules
    cands = set()
    hand = rnd.hand(seat)
    for c in set(hand):
        for w in range(4):
            cands.add(mv.play(c, w, False))
            cands.add(mv.play(c, w, True))
    others = [c for c in set(deck(rules.deck_name())) if c not in hand]
    for _ in range(4):
        if others:
            c = others[prng.below(len(others))]
            cands.add(mv.play(c))
            cands.add(mv.play(c, 1, True))
    for bad in (0, 1, 15, 0x3F, 0x10, 0x2F):  # not cards: ranks 0, 1, 15
        cands.add(bad)
    for m in (mv.DRAW, mv.PASS, mv.DRAW | 1, mv.PASS | 0x20, mv.DRAW | mv.MAU,
              mv.PASS | mv.MAU, mv.CATCH | 8, mv.CATCH | 0x100):
        cands.add(m)
    for t in range(8):
        cands.add(mv.catch(t))
    d = rnd.debtor()
    if d is not None:
        cands.add(mv.catch(d) | 1 << 3)
        cands.add(mv.catch(d) | mv.MAU)
    for _ in range(8):
        cands.add(prng.below(2048))
    for m in (2048, 4095, 1 << 20, -1, -mv.DRAW):
        cands.add(m)
    # A random sample keeps the cost per move flat; the always-tried moves stay in.
    always = {mv.DRAW, mv.PASS} | {mv.catch(t) for t in range(rnd.players())}
    rest = sorted(cands - always)
    for i in range(len(rest) - 1, 0, -1):
        j = prng.below(i + 1)
        rest[i], rest[j] = rest[j], rest[i]
    return always | set(rest[:CANDIDATES])


def check_moves(rnd, sets, prng, full, apply_sample=4):
    """Every accepted move applies (apply and apply_legal agree; an early "Mau" does
    what the plain play does); a sample of other moves raise and change nothing."""
    before = save(rnd)
    for seat in range(rnd.players()):
        legal = sets[seat]
        accepted = oracle.accepted_moves(rnd, seat)
        for m in sorted(accepted):
            assert rnd.is_legal(seat, m) and rnd.why_illegal(seat, m) is None, \
                "seat %d: move %s is rejected: %s" % (
                    seat, describe(m), rnd.why_illegal(seat, m))
            rnd.apply(seat, m)
            check_cards(rnd, full)
            after_apply = bytes(rnd.s), list(rnd.events[:rnd.event_count()])
            restore(rnd, before)
            if m in legal:
                rnd.apply_legal(seat, m)
                what = "apply and apply_legal differ"
            else:
                rnd.apply(seat, m & ~mv.MAU)
                what = "an early Mau changed the play"
            assert (bytes(rnd.s), list(rnd.events[:rnd.event_count()])) == after_apply, \
                "%s for seat %d %s" % (what, seat, describe(m))
            restore(rnd, before)
        illegal = sorted(m for m in candidate_moves(rnd, seat, prng) if m not in accepted)
        for m in illegal:
            if rnd.is_legal(seat, m):
                raise AssertionError(
                    "seat %d: %s (move %d) is accepted but not legal per RULES.md/the "
                    "API (legal: %s)" % (seat, describe(m) if 0 <= m < 2048 else m, m,
                                         describe_all(legal)))
        for _ in range(apply_sample if illegal else 0):
            m = illegal[prng.below(len(illegal))]
            with pytest.raises(IllegalMove):
                rnd.apply(seat, m)
            assert bytes(rnd.s) == before[0], "a rejected move changed the round"
            assert rnd.rng.state() == before[1]
    restore(rnd, before)


def check_transition(rnd, old, seat, move, idle):
    """What RULES.md says the move does. Returns the new count of stall passes."""
    rules = rnd.rules
    n = rnd.players()
    d = old["direction"]
    kind = mv.kind(move)
    hands = [Counter(rnd.hand(p)) for p in range(n)]
    gained = [hands[p] - old["hands"][p] for p in range(n)]
    lost = [old["hands"][p] - hands[p] for p in range(n)]
    grew = [sum(hands[p].values()) - sum(old["hands"][p].values()) for p in range(n)]
    available = len(old["draw"]) + len(old["discard"]) - 1

    def nxt(p, k=1, direction=d):
        return (p + k * direction) % n

    if kind == mv.CATCH:
        t = move & 7
        assert old["debtor"] == t and seat != t
        assert grew[t] == min(2, available) and not lost[t], "a catch costs 2 cards"
        assert rnd.debtor() is None
        assert rnd.turn() == old["turn"] and rnd.phase() == old["phase"]
        assert rnd.pending() == old["pending"] and rnd.wish() == old["wish"]
        return idle

    assert seat == old["turn"]
    assert rnd.debtor() is None or (kind == mv.PLAY and rnd.debtor() == seat)
    if kind == mv.PLAY:
        c = move & 63
        size = sum(old["hands"][seat].values())
        # The card left the hand (a Mau penalty may bring an identical one back).
        assert old["hands"][seat][c] >= 1
        assert not old["hands"][seat] - (hands[seat] + Counter([c])), "only c left the hand"
        for p in range(n):
            assert not lost[p] or p == seat
        assert rnd.top() == c
        if sum(grew) + 1 <= len(old["draw"]):  # penalty draws without a reshuffle
            assert rnd.discard_size() == len(old["discard"]) + 1
        pending = old["pending"]
        if c & 15 == cd.SEVEN:
            pending += 2
        elif c & 15 == cd.ACE and rules.ace == ACE_DRAW4:
            pending += 4
        if size == 1:
            assert rnd.is_over() and rnd.winner() == seat, "the last card ends the round"
            if c & 15 == cd.SEVEN:
                drew = grew[nxt(seat)]
                if rules.last_seven:
                    assert drew == min(pending, available + 1), "last 7: next player draws"
                else:
                    assert drew == 0, "last 7 (ends): nobody draws"
            return 0
        if size == 2:
            if mv.says_mau(move):
                assert rnd.said_mau(seat) and rnd.count(seat) == 1
            elif rules.mau_penalty == MAU_AUTO:
                assert rnd.count(seat) == 1 + min(2, available + 1), "auto Mau penalty"
            elif rules.mau_penalty == MAU_CHALLENGE:
                assert rnd.debtor() == seat and rnd.count(seat) == 1
            else:
                assert rnd.count(seat) == 1 and rnd.debtor() is None
        else:
            assert rnd.count(seat) == size - 1
        assert rnd.pending() == pending
        if c & 15 == cd.JACK:
            assert rnd.wish() == move >> mv.WISH_SHIFT & 3
        else:
            assert rnd.wish() is None, "a played card ends the wish"
        r = c & 15
        if r == cd.ACE and rules.ace == ACE_PLAY_AGAIN:
            assert rnd.turn() == seat and rnd.phase() == AGAIN
        else:
            assert rnd.phase() == NORMAL
            if r == cd.EIGHT and rules.eight_skips:
                assert rnd.turn() == nxt(seat, 2), "8 skips"
            elif r == cd.NINE and rules.nine_reverses:
                assert rnd.direction() == (-d if n > 2 else 1)
                assert rnd.turn() == nxt(seat, 1, -d), "9 reverses"
            else:
                assert rnd.turn() == nxt(seat)
        if r != cd.NINE or not rules.nine_reverses:
            assert rnd.direction() == d
        return 0

    assert not any(lost), "no card leaves a hand on draw/pass"
    for p in range(n):
        if p != seat:
            assert not gained[p]
    got = sum(gained[seat].values())
    assert rnd.wish() == old["wish"] and rnd.direction() == d
    if kind == mv.DRAW:
        pending = old["pending"]
        want = min(pending or 1, available)
        assert got == want, "drew %d cards, expected %d" % (got, want)
        if want <= len(old["draw"]):
            assert gained[seat] == Counter(old["draw"][:want]), "draws come off the top"
        assert rnd.pending() == 0
        if not pending and old["phase"] == NORMAL and rules.play_drawn:
            assert rnd.phase() == DRAWN and rnd.turn() == seat
            assert rnd.drawn() in gained[seat]
        else:
            assert rnd.phase() == NORMAL and rnd.turn() == nxt(seat)
        return 0
    assert kind == mv.PASS and got == 0
    if old["phase"] == DRAWN:
        assert rnd.phase() == NORMAL and rnd.turn() == nxt(seat)
        return idle
    idle += 1
    if idle >= n:
        assert rnd.is_over() and rnd.winner() is None, "everybody passed: a draw game"
    else:
        assert rnd.phase() == NORMAL and rnd.turn() == nxt(seat)
    return idle


def check_deal(rnd, dealer):
    rules = rnd.rules
    n = rnd.players()
    for p in range(n):
        assert rnd.count(p) == rules.hand_size
    assert rnd.turn() == (dealer + 1) % n and rnd.direction() == 1
    assert rnd.pending() == 0 and rnd.wish() is None and rnd.phase() == NORMAL
    under = discard_pile(rnd)[:-1]
    if rules.first_card:
        assert all(oracle.is_action(rules, c) for c in under)
        assert not oracle.is_action(rules, rnd.top()) or rnd.draw_size() == 0
    else:
        assert not under


def choose(rnd, seat, moves, prng, policy, count):
    """Random players: uniform; plays first (a fitting card when there is one); or
    draws often (draw or pass half the time). After UNIFORM_MOVES (uniform) or
    DRAWING_MOVES (draws often) moves they play first: a player who keeps drawing can
    make a round last for ever, as the rules allow. Playing first makes one move in
    16 uniformly: players who always play a fitting drawn card can cycle for ever
    (test_soak.choose shows a table where they do), also as the rules allow."""
    if policy == "uniform" and count < UNIFORM_MOVES or prng.below(16) == 0:
        return moves[prng.below(len(moves))]
    if policy == "draws_often" and count < DRAWING_MOVES and prng.below(2):
        other = [m for m in moves if mv.kind(m) in (mv.DRAW, mv.PASS)]
        if other:
            return other[prng.below(len(other))]
    plays = [m for m in moves if mv.kind(m) == mv.PLAY]
    if plays:
        return plays[prng.below(len(plays))]
    return moves[prng.below(len(moves))]


def check_game(preset, options, players, seed, policy="uniform", dealer=0,
               catch_chance=3, full_checks=True):
    """Play one random round checking every property; return the number of moves."""
    rules = Rules(preset, **options)
    rnd = Round(rules, players, Random(seed), dealer % players)
    prng = Random(seed ^ 0x15EED)
    full = Counter(deck(rules.deck_name()))
    buf = array("H", bytes(2 * mv.MAX_MOVES))
    views = [View(rules) for _ in range(players)]
    check_deal(rnd, dealer % players)
    idle = 0
    for count in range(MOVE_LIMIT):
        check_cards(rnd, full)
        check_invariants(rnd)
        sets = check_legal_sets(rnd, buf, views)
        for p in range(players):
            check_view(rnd, p, views[p])
        if rnd.is_over():
            assert not any(sets)
            return count
        if full_checks:
            check_moves(rnd, sets, prng, full)
        seat = None
        debtor = rnd.debtor()
        if debtor is not None and prng.below(catch_chance) == 0:
            seat = (debtor + 1 + prng.below(players - 1)) % players
            move = mv.catch(debtor)
        else:
            seat = rnd.turn()
            move = choose(rnd, seat, engine_moves(rnd, seat, buf), prng, policy, count)
        old = snapshot(rnd)
        rnd.apply(seat, move)
        idle = check_transition(rnd, old, seat, move, idle)
    raise AssertionError("round did not end within %d moves" % MOVE_LIMIT)


# -- the property tests -------------------------------------------------------

@settings(PROFILE, max_examples=PROFILE.max_examples)
@given(game=preset_games(), seed=seeds, policy=st.sampled_from(POLICIES),
       dealer=st.integers(0, 5))
def test_presets_follow_the_rules(game, seed, policy, dealer):
    preset, options, players = game
    check_game(preset, options, players, seed, policy, dealer)


@settings(PROFILE, max_examples=PROFILE.max_examples * 2)
@given(game=custom_games(), seed=seeds, policy=st.sampled_from(POLICIES),
       dealer=st.integers(0, 5))
def test_option_mixes_follow_the_rules(game, seed, policy, dealer):
    preset, options, players = game
    check_game(preset, options, players, seed, policy, dealer)


@settings(PROFILE, max_examples=PROFILE.max_examples * 3)
@given(game=st.one_of(preset_games(), custom_games()), seed=seeds,
       policy=st.sampled_from(POLICIES))
def test_rounds_end_and_keep_the_cards(game, seed, policy):
    """Cheaper: only cards, legal sets, views, transitions and the end (no per-move
    trial of every legal and illegal move), so more rounds fit in the time."""
    preset, options, players = game
    check_game(preset, options, players, seed, policy, full_checks=False)


# -- targeted examples of what the properties check ----------------------------

def C(text):
    return parse(text)


def laid_round(preset, hands, draw, discard, turn=0, **options):
    """A round with a chosen table; the remaining cards go under the draw pile."""
    rules = Rules(preset, **options)
    rnd = Round(rules, len(hands), Random(1))
    used = Counter(draw) + Counter(discard)
    for h in hands:
        used += Counter(h)
    rest = list((Counter(deck(rules.deck_name())) - used).elements())
    rnd.set_table(hands, list(draw) + rest, discard, turn)
    return rnd


@pytest.mark.parametrize("bad", [None, "draw", 1.5, [mv.DRAW], True, 0x0F, 0x3F,
                                 0x0F | mv.MAU, 0x1CF, 2048, -1])
def test_a_move_that_is_not_a_move_raises_illegal_move(bad):
    """Not an int, or an int that is no move (rank 15, beyond 11 bits, negative)."""
    rnd = Round(Rules("classic"), 2, Random(5))
    before = bytes(rnd.s)
    with pytest.raises(IllegalMove):
        rnd.apply(rnd.turn(), bad)
    assert bytes(rnd.s) == before
    if isinstance(bad, int):
        assert rnd.is_legal(rnd.turn(), bad) is False
        assert rnd.why_illegal(rnd.turn(), bad)


def test_a_kept_card_does_not_show_in_the_next_players_view():
    """Classic: seat 0 draws a card and keeps it (PASS); seat 1's View must not carry it."""
    rnd = laid_round("classic", [[C("9C"), C("TC")], [C("8S"), C("KS")]],
                     [C("QH")], [C("7D"), C("8D")])
    rnd.apply(0, mv.DRAW)
    assert rnd.drawn() == C("QH")
    rnd.apply(0, mv.PASS)
    assert rnd.turn() == 1
    view = rnd.view(1, View(rnd.rules))
    assert view.drawn() == NO_CARD
    assert view.s[DRAWN_SLOT] != C("QH"), "seat 1's View holds seat 0's hidden card QH"


def test_the_winner_has_no_mau_left_to_say():
    """said_mau(p) is "True while player p has one card and said Mau for it"."""
    rnd = laid_round("classic", [[C("9C"), C("TC")], [C("8S"), C("KS")]],
                     [C("QH")], [C("7C")])
    rnd.apply(0, mv.play(C("9C"), mau=True))
    assert rnd.said_mau(0)
    rnd.apply(1, mv.DRAW)
    rnd.apply(1, mv.PASS)
    rnd.apply(0, mv.play(C("TC")))
    assert rnd.winner() == 0 and rnd.count(0) == 0
    assert not rnd.said_mau(0)


@settings(PROFILE, max_examples=PROFILE.max_examples)
@given(game=st.one_of(preset_games(), custom_games()), seed=seeds,
       policy=st.sampled_from(POLICIES), dealer=st.integers(0, 5))
def test_a_round_dealt_again_is_a_new_round(game, seed, policy, dealer):
    """Round.deal on a played-out round (how the device benchmarks and AI deal) gives the
    same table and events as a new Round from the same generator: nothing of the old
    round (pending count, wish, phase, debtor, Mau calls, move count) is left over."""
    preset, options, players = game
    rules = Rules(preset, **options)
    dealer %= players
    old = Round(rules, players, Random(seed + 1))
    buf = array("H", range(mv.MAX_MOVES))
    prng = Random(seed ^ 0x5A5A)
    count = 0
    while not old.is_over() and count < 200:
        seat = old.turn()
        old.apply_legal(seat, choose(old, seat, engine_moves(old, seat, buf), prng, policy, count))
        count += 1
    rng_a, rng_b = Random(seed), Random(seed)
    old.rng = rng_a
    old.deal(players, dealer)
    new = Round(rules, players, rng_b, dealer)
    assert bytes(old.s) == bytes(new.s)
    assert old.events[:old.event_count()] == new.events[:new.event_count()]
    assert rng_a.state() == rng_b.state()
