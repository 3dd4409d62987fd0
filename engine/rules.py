"""Rule options, the two presets, and validation.

Every row of RULES.md's preset table is a named option. One table lists them all:
name, value in the classic preset (seed 000), value in the nordic preset (seed 003),
and what is allowed: a tuple of choices, or a ``range`` of whole numbers. A Rules
object stores a choice as its index (so a switch is 0 or 1 and ``ace`` is one of
ACE_PLAIN, ACE_DRAW4, ACE_PLAY_AGAIN) and a number as itself; card points are a
16-byte table indexed by rank.
"""

from engine.compat import const

ACE_PLAIN = const(0)
ACE_DRAW4 = const(1)
ACE_PLAY_AGAIN = const(2)
MAU_CHALLENGE = const(0)
MAU_AUTO = const(1)
MAU_OFF = const(2)
MATCH_ROUNDS = const(0)
MATCH_ELIMINATION = const(1)

PRESETS = ("classic", "nordic")

# One option a line: name, classic value, nordic value, what is allowed (choices
# separated by "|", "2..6" for whole numbers, "no|yes" for a switch). Kept as one
# string, not a tree of tuples, because a string costs a device far less heap.
OPTION_TABLE = """\
deck              skat32    double104   skat32|french52|double104
min_players       2         2           2..6
max_players       6         5           2..6
hand_size         5         7           1..20
first_card        plain     turn_again  plain|turn_again
must_play_if_able no        no          no|yes
play_drawn        yes       no          no|yes
stack_sevens      yes       yes         no|yes
eight_skips       yes       yes         no|yes
nine_reverses     no        yes         no|yes
jack_on_jack      yes       yes         no|yes
no_finish_on_jack no        no          no|yes
ace               plain     play_again  plain|draw4|play_again
mau_penalty       challenge auto        challenge|auto|off
last_seven        ends      draws       ends|draws
match             rounds    elimination rounds|elimination
rounds            1         1           1..999
limit             100       100         1..9999
"""


def options():
    """Each option as (name, classic value, nordic value, allowed), parsed from the table.

    ``allowed`` is a tuple of choices (a switch: ``(False, True)``) or a range.
    """
    out = []
    for line in OPTION_TABLE.split("\n")[:-1]:
        name, classic, nordic, allowed = line.split()
        if ".." in allowed:
            low, high = allowed.split("..")
            out.append((name, int(classic), int(nordic), range(int(low), int(high) + 1)))
        elif allowed == "no|yes":
            out.append((name, classic == "yes", nordic == "yes", _SWITCH))
        else:
            out.append((name, classic, nordic, tuple(allowed.split("|"))))
    return out


_SWITCH = (False, True)
# The names again, as a literal: computing them at import would leave garbage on the
# heap. A test checks that they match the table.
OPTION_NAMES = ("deck", "min_players", "max_players", "hand_size", "first_card",
                "must_play_if_able", "play_drawn", "stack_sevens", "eight_skips",
                "nine_reverses", "jack_on_jack", "no_finish_on_jack", "ace", "mau_penalty",
                "last_seven", "match", "rounds", "limit", "points")

RANK_KEYS = "23456789TJQKA"
_STANDARD_POINTS = b"\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0a\x0a\x0b"  # 2 .. A
_DECKS = ("skat32", "french52", "double104")
_DECK_SIZES = (32, 52, 104)


def _bad(option, value, allowed):
    return ValueError("rule option %s=%r is not possible: %s" % (option, value, allowed))


def _allowed(allowed):
    """Words for what an option allows."""
    if isinstance(allowed, range):
        return "a whole number from %d to %d" % (allowed[0], allowed[-1])
    if allowed is _SWITCH:
        return "true or false"
    return "choose one of " + ", ".join(allowed)


class Rules:
    """A validated rule configuration: a preset with any options overridden."""

    def __init__(self, preset="classic", **settings):
        if preset not in PRESETS:
            raise _bad("preset", preset, "choose one of " + ", ".join(PRESETS))
        self.preset = preset
        column = 1 + PRESETS.index(preset)
        for key in settings:
            if key not in OPTION_NAMES:
                raise _bad(key, settings[key], "unknown option; known: " + ", ".join(OPTION_NAMES))
        for option in options():
            key = option[0]
            value = settings[key] if key in settings else option[column]
            setattr(self, key, _index(key, value, option[3]))
        self.points = _points_table(settings.get("points", {}))
        self._check_together()

    def _check_together(self):
        if self.min_players > self.max_players:
            raise _bad("min_players", self.min_players,
                       "at most max_players (%d)" % self.max_players)
        size = self.deck_size()
        most = (size - 1) // self.max_players
        if self.hand_size > most:
            raise _bad("hand_size", self.hand_size,
                       "%d players x %d cards + 1 up-card need %d cards, deck %s has %d; "
                       "at most %d cards each, or max_players at most %d"
                       % (self.max_players, self.hand_size,
                          self.max_players * self.hand_size + 1, self.deck_name(), size,
                          most, (size - 1) // self.hand_size))

    def deck_name(self):
        """Name of the deck option, e.g. ``skat32``."""
        return _DECKS[self.deck]

    def deck_size(self):
        """Number of cards in the deck."""
        return _DECK_SIZES[self.deck]

    def check_players(self, players):
        """Raise ValueError unless `players` may sit at one table under these rules."""
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise _bad("players", players, "from %d to %d under these rules"
                       % (self.min_players, self.max_players))

    def to_dict(self):
        """Every option by name with its value, as in the replay log's game line."""
        out = {}
        for option in options():
            allowed = option[3]
            value = getattr(self, option[0])
            out[option[0]] = value if isinstance(allowed, range) else allowed[value]
        points = {}
        for i in range(13):
            points[RANK_KEYS[i]] = self.points[i + 2]
        out["points"] = points
        return out


def _index(key, value, allowed):
    """The stored form of an option's value, or ValueError naming what is allowed."""
    if isinstance(allowed, range):
        if isinstance(value, int) and not isinstance(value, bool) and value in allowed:
            return value
    else:
        for i in range(len(allowed)):
            # `is` for switches: 1 == True, but a switch takes only true or false
            if allowed[i] == value and (allowed is not _SWITCH or allowed[i] is value):
                return i
    raise _bad(key, value, _allowed(allowed))


def _points_table(points):
    """A 16-byte table of points by rank: the standard table with `points` overriding."""
    if not isinstance(points, dict):
        raise _bad("points", points, "a table of rank to points, e.g. {\"J\": 11}")
    table = bytearray(16)
    table[2:15] = _STANDARD_POINTS
    for key in points:
        value = points[key]
        if not isinstance(key, str) or len(key) != 1 or key not in RANK_KEYS:
            raise _bad("points", key, "ranks are 2-9 T J Q K A")
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 100:
            raise _bad("points", value, "points for %s must be from 0 to 100" % key)
        table[RANK_KEYS.index(key) + 2] = value
    return table
