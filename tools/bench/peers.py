"""The engine's peers, timed with the same random player: RLCard's UNO and OpenSpiel's
crazy_eights, two players. Run by tools.bench.engine in .venv-bench, where they are
installed (tools/bench/requirements.txt):

    python -m tools.bench.peers --setup      # make .venv-bench (peers, mypyc)
    .venv-bench/bin/python -m tools.bench.peers --seconds 1 --repeat 3   # one JSON line

The player: a random fitting card (a play) when there is one, else the draw (or pass),
rolled by Python's random.Random, as tools.bench.engine.plays_first does. Whole games,
the deal included, for a fixed time; moves are the players' decisions (not the
dealing or drawing done by chance). Each figure is the best of a few runs.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VENV = os.path.join(ROOT, ".venv-bench")
PYTHON = os.path.join(VENV, "bin", "python")
REQUIREMENTS = os.path.join(ROOT, "tools", "bench", "requirements.txt")
MOVE_LIMIT = 16384  # a game still going after this many moves ends (engine.round's limit)


def setup(out=sys.stdout):
    """Make .venv-bench and install tools/bench/requirements.txt into it, a package at a
    time (a peer that cannot be installed leaves the others); return True if all were."""
    if not os.path.exists(PYTHON):
        out.write("making %s\n" % VENV)
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    ok = True
    for requirement in requirements():
        done = subprocess.run([PYTHON, "-m", "pip", "install", "-q",
                               "--disable-pip-version-check", requirement],
                              capture_output=True, text=True)
        if done.returncode:
            ok = False
            out.write("%s: could not be installed into .venv-bench (%s)\n"
                      % (requirement, (done.stderr.strip().splitlines() or ["?"])[-1]))
    return ok


def requirements():
    """The requirement lines of tools/bench/requirements.txt, comments left out."""
    with open(REQUIREMENTS) as f:
        return [line.split("#")[0].strip() for line in f if line.split("#")[0].strip()]


def rlcard_uno(seconds, rng):
    """RLCard's UNO, its round loop: legal actions, then proceed_round (the state
    dictionary that UnoGame.step also builds for a learning agent is left out). UNO
    lists the draw only when no card fits. Return (games, moves, elapsed)."""
    from rlcard.games.uno.game import UnoGame
    game = UnoGame(num_players=2)
    game.np_random.seed(rng.getrandbits(32))  # its deck shuffles
    bits = rng.getrandbits
    games = moves = 0
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    while True:
        game.init_game()
        rnd = game.round
        players = game.players
        legal_actions = rnd.get_legal_actions
        proceed = rnd.proceed_round
        count = 0
        while not rnd.is_over and count < MOVE_LIMIT:
            actions = legal_actions(players, rnd.current_player)
            proceed(players, actions[bits(30) % len(actions)])
            count += 1
        games += 1
        moves += count
        now = clock()
        if now >= deadline:
            return games, moves, now - start


def openspiel_crazy_eights(seconds, rng):
    """OpenSpiel's crazy_eights (its default rules, two players): chance nodes (deal,
    draws) take a random outcome; a player plays a random card or names a random suit
    when they may, else draws or passes. Return (games, moves, elapsed)."""
    import pyspiel
    game = pyspiel.load_game("crazy_eights", {"players": 2})
    draw = game.num_distinct_actions() - 6  # actions: 52 cards, draw, pass, 4 suits
    bits = rng.getrandbits
    games = moves = 0
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    while True:
        state = game.new_initial_state()
        count = 0
        while not state.is_terminal():
            actions = state.legal_actions()
            if state.is_chance_node():  # uniform outcomes: the cards left
                state.apply_action(actions[bits(30) % len(actions)])
                continue
            # (sorted: the plays, then the draw or the pass; or only suits to name)
            n = len(actions)
            if actions[0] < draw:
                n -= 1  # the draw or pass, last, is taken only when nothing else is listed
            state.apply_action(actions[bits(30) % n] if n else actions[0])
            count += 1
        games += 1
        moves += count
        now = clock()
        if now >= deadline:
            return games, moves, now - start


PEERS = (("RLCard UNO", "rlcard", rlcard_uno),
         ("OpenSpiel crazy_eights", "open-spiel", openspiel_crazy_eights))


def best_of(loop, repeat, seconds, seed=1):
    """(games/s, moves/s, moves a game) of the run with the most moves/s."""
    rng = random.Random(seed)
    best = None
    for _ in range(repeat):
        games, moves, elapsed = loop(seconds, rng)
        if best is None or moves / elapsed > best[1]:
            best = (games / elapsed, moves / elapsed, moves / games)
    return best


def measure_all(seconds, repeat):
    """{peer name: [games/s, moves/s, moves a game] or the reason it could not run}."""
    results = {}
    for name, package, loop in PEERS:
        try:
            loop(min(0.1, seconds), random.Random(0))  # import and warm up
        except ImportError as e:
            results[name] = "%s not installed (%s)" % (package, e)
            continue
        results[name] = list(best_of(loop, repeat, seconds))
    return results


def run(seconds, repeat):
    """measure_all in .venv-bench: its results, or a one-line reason for each peer."""
    if not os.path.exists(PYTHON):
        why = "no .venv-bench (python -m tools.bench.engine --peers makes it)"
        return {name: why for name, _, _ in PEERS}
    done = subprocess.run([PYTHON, "-m", "tools.bench.peers", "--seconds", str(seconds),
                           "--repeat", str(repeat)], cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        why = "failed in .venv-bench: %s" % (done.stderr.strip().splitlines() or ["?"])[-1]
        return {name: why for name, _, _ in PEERS}
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None):
    """Print the peers' figures as one JSON line (or set up .venv-bench)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--setup", action="store_true", help="make .venv-bench")
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    if args.setup:
        return 0 if setup() else 1
    print(json.dumps(measure_all(args.seconds, args.repeat)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
