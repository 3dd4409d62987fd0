"""A match's start: the state of a new Game (firmware.game), run once as it is made.

Game.__init__ imports this module, runs `open_game` and lets it go: the seed, the rules
read from the setup, the match, the players and the buffers a match keeps are made once,
so their code need not stay in the heap while the match is played.
"""

from array import array

from engine.compat import const, ticks_ms
from engine.match import Match
from engine.moves import MAX_MOVES
from engine.round import View
from engine.rules import rules_of

_RING = const(64)       # firmware.game's _RING (repeated: folded): events the stories keep
_MOVES = const(256)     # room for a round's moves before the list doubles (and an AI step
                        # allocates): nordic rounds with a beginner pass 120
_NO_ONE = const(-1)      # firmware.game's _NO_ONE


def fresh_seed():
    """A seed for a new match: hardware randomness where there is some."""
    try:
        from os import urandom
        b = urandom(4)
        return b[0] | b[1] << 8 | b[2] << 16 | (b[3] & 0x3F) << 24
    except (ImportError, AttributeError, OSError, NotImplementedError):
        return ticks_ms() & 0x3FFFFFFF


def open_game(game, setup, seed, playouts, deadline_ms):
    """Give `game` (a Game being made) its setup, seed, rules, match, players, buffers."""
    game.setup = setup
    game.seed = fresh_seed() if seed is None else seed
    game.playouts = playouts
    game.deadline_ms = deadline_ms if playouts is None else 0
    game.rules = rules = rules_of(setup)
    seats = setup["seats"]
    game.match = Match(rules, len(seats), game.seed)
    game.names = []
    game.levels = []
    game.ais = []
    for name, level in seats:
        game._add_player(name, level)
    game.rnd = None
    game.round_seated = []
    game.dealt = None        # the table as dealt (a copy of the round's bytes)
    game.deal_rng = (0, 0)
    game.moves = array("H", range(_MOVES))
    game.n_moves = 0
    game.ring = array("H", range(_RING))
    game.told = 0            # events written to the ring this round
    game.heard = []          # per player: game.told when they last moved
    game.seen = _NO_ONE      # the human who last saw their hand this round
    game.catcher = _NO_ONE   # an AI seat about to catch a forgotten Mau
    game.last_seat = _NO_ONE
    game.last_move = _NO_ONE
    game.last_mark = 0
    game.left = []           # by seat: the cards held when the last round ended
    game._view = View(rules)
    game._scratch = View(rules)
    game._legal = array("H", range(MAX_MOVES))
    game.on_change = None
    game.helper = None       # the Expert that searches the hints
    game.thinking = None     # the player whose decision is begun ...
    game.thought = 0         # ... at this move of ...
    game.thought_rnd = None  # ... this round
    game.walk_ms = 0         # the longest walk seen in this decision's slices (ms)
    game._walked = 0         # when the last walk of the slice ended
