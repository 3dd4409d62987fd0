"""Rule options and the two presets.

Every row of RULES.md's preset table is a named option. A Rules object stores a choice
as its index (so a switch is 0 or 1 and ``ace`` is one of ACE_PLAIN, ACE_DRAW4,
ACE_PLAY_AGAIN) and a number as itself; card points are a 16-byte table indexed by
rank. A preset is laid out from two byte strings here; any other setting is checked by
``engine.options`` (the table of what each option allows), imported only then and let
go once read.
"""

from engine.compat import const, forget

ACE_PLAIN = const(0)
ACE_DRAW4 = const(1)
ACE_PLAY_AGAIN = const(2)
MAU_CHALLENGE = const(0)
MAU_AUTO = const(1)
MAU_OFF = const(2)
MATCH_ROUNDS = const(0)
MATCH_ELIMINATION = const(1)

PRESETS = ("classic", "nordic")
OPTION_NAMES = ("deck", "min_players", "max_players", "hand_size", "first_card",
                "must_play_if_able", "play_drawn", "stack_sevens", "eight_skips",
                "nine_reverses", "jack_on_jack", "no_finish_on_jack", "ace", "mau_penalty",
                "last_seven", "match", "rounds", "limit", "points")

# The stored value of each option in OPTION_NAMES order (points aside), by preset;
# a test checks them against engine.options.OPTION_TABLE.
_PRESET_VALUES = (b"\x00\x02\x06\x05\x00\x00\x01\x01\x01\x00\x01\x00\x00\x00\x00\x00\x01\x64",
                  b"\x02\x02\x05\x07\x01\x00\x00\x01\x01\x01\x01\x00\x02\x01\x01\x01\x01\x64")
# Minus points by rank: 2-10 their number, Jack 11, Queen 10, King 10, Ace 11.
STANDARD_POINTS = b"\x00\x00\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0a\x0a\x0b\x00"


class Rules:
    """A validated rule configuration: a preset with any options overridden."""

    def __init__(self, preset="classic", **settings):
        if settings or preset not in PRESETS:
            from engine.options import configure
            configure(self, preset, settings)
            forget("engine.options")    # read once: its table need not stay in the heap
            return
        self.preset = preset
        values = _PRESET_VALUES[PRESETS.index(preset)]
        for i in range(len(values)):
            setattr(self, OPTION_NAMES[i], values[i])
        self.points = bytearray(STANDARD_POINTS)

    def deck_name(self):
        """Name of the deck option, e.g. ``skat32``."""
        return ("skat32", "french52", "double104")[self.deck]

    def deck_size(self):
        """Number of cards in the deck."""
        return b"\x20\x34\x68"[self.deck]  # 32, 52, 104

    def most_players(self):
        """The most players one deal serves: max_players, or fewer when the deck runs short
        of a hand each and the up-card."""
        return min(self.max_players, (self.deck_size() - 1) // self.hand_size)

    def check_players(self, players):
        """Raise ValueError unless `players` may sit at one table under these rules: seats
        allowed, and a hand each plus the up-card from the deck."""
        if not isinstance(players, int) or not self.min_players <= players <= self.most_players():
            from engine.options import bad_players
            raise bad_players(self, players)

    def to_dict(self):
        """Every option by name with its value, as in the replay log's game line."""
        from engine.options import to_dict
        return to_dict(self)


def options():
    """Each option as (name, classic value, nordic value, allowed): engine.options.options()."""
    from engine.options import options
    forget("engine.options")
    return options()


def rules_of(setup):
    """The Rules a setup asks for: its preset, its options, its kind of match."""
    options = dict(setup.get("options", {}))
    kind = setup.get("match", "round")
    limit = 1 if kind == "round" else setup.get("limit", 1)
    preset = setup.get("preset", "classic")
    # a preset with a match of its own: engine.options (its import and its table, 9 KB at
    # the deal) stays unloaded; the bounds are its rounds and limit (a test keeps them)
    if (not options and type(limit) is int
            and 0 < limit <= (9999 if kind == "elimination" else 999)):
        rules = Rules(preset)
        if kind == "elimination":
            rules.match, rules.limit = MATCH_ELIMINATION, limit
            return rules
        if kind in ("round", "rounds"):
            rules.match, rules.rounds = MATCH_ROUNDS, limit
            return rules
    if kind == "round":
        options["match"] = "rounds"
        options["rounds"] = 1
    elif kind == "rounds":
        options["match"] = "rounds"
        options["rounds"] = limit
    elif kind == "elimination":
        options["match"] = "elimination"
        options["limit"] = limit
    else:
        raise ValueError("match %r is not possible: choose round, rounds or elimination"
                         % (kind,))
    return Rules(preset, **options)
