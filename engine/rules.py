"""Rule options, the two presets, and validation.

Every row of RULES.md's preset table is a named option. Choice options are stored as
small ints (the index into their choices), switches as 0 or 1, numbers as ints, and
card points as a 16-byte table indexed by rank, so the round reads them cheaply.
"""

from engine.cards import DECKS, deck_size

# Choices of each choice option, in index order.
DECK_CHOICES = ("skat32", "french52", "double104")
FIRST_CARD_CHOICES = ("plain", "turn_again")
ACE_CHOICES = ("plain", "draw4", "play_again")
MAU_CHOICES = ("challenge", "auto", "off")
LAST_SEVEN_CHOICES = ("ends", "draws")
MATCH_CHOICES = ("rounds", "elimination")

ACE_PLAIN = 0
ACE_DRAW4 = 1
ACE_PLAY_AGAIN = 2
MAU_CHALLENGE = 0
MAU_AUTO = 1
MAU_OFF = 2
MATCH_ROUNDS = 0
MATCH_ELIMINATION = 1

CHOICES = {
    "deck": DECK_CHOICES,
    "first_card": FIRST_CARD_CHOICES,
    "ace": ACE_CHOICES,
    "mau_penalty": MAU_CHOICES,
    "last_seven": LAST_SEVEN_CHOICES,
    "match": MATCH_CHOICES,
}
SWITCHES = ("must_play_if_able", "play_drawn", "stack_sevens", "eight_skips",
            "nine_reverses", "jack_on_jack", "no_finish_on_jack")
# Number options: name -> (lowest, highest).
NUMBERS = {"min_players": (2, 6), "max_players": (2, 6), "hand_size": (1, 20),
           "rounds": (1, 999), "limit": (1, 9999)}

RANK_KEYS = "23456789TJQKA"
STANDARD_POINTS = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
                   "T": 10, "J": 11, "Q": 10, "K": 10, "A": 11}

CLASSIC = {
    "deck": "skat32", "min_players": 2, "max_players": 6, "hand_size": 5,
    "first_card": "plain", "must_play_if_able": False, "play_drawn": True,
    "stack_sevens": True, "eight_skips": True, "nine_reverses": False,
    "jack_on_jack": True, "no_finish_on_jack": False, "ace": "plain",
    "mau_penalty": "challenge", "last_seven": "ends", "points": STANDARD_POINTS,
    "match": "rounds", "rounds": 1, "limit": 100,
}
NORDIC = {
    "deck": "double104", "min_players": 2, "max_players": 5, "hand_size": 7,
    "first_card": "turn_again", "must_play_if_able": False, "play_drawn": False,
    "stack_sevens": True, "eight_skips": True, "nine_reverses": True,
    "jack_on_jack": True, "no_finish_on_jack": False, "ace": "play_again",
    "mau_penalty": "auto", "last_seven": "draws", "points": STANDARD_POINTS,
    "match": "elimination", "rounds": 1, "limit": 100,
}
PRESETS = {"classic": CLASSIC, "nordic": NORDIC}
OPTION_NAMES = tuple(CLASSIC)


def _bad(option, value, allowed):
    return ValueError("rule option %s=%r is not possible: %s" % (option, value, allowed))


class Rules:
    """A validated rule configuration: a preset with any options overridden."""

    def __init__(self, preset="classic", **options):
        if preset not in PRESETS:
            raise _bad("preset", preset, "choose one of " + ", ".join(PRESETS))
        self.preset = preset
        settings = dict(PRESETS[preset])
        for key in options:
            if key not in settings:
                raise _bad(key, options[key], "unknown option; known: " + ", ".join(OPTION_NAMES))
            settings[key] = options[key]
        for key in CHOICES:
            self._set_choice(key, settings[key])
        for key in SWITCHES:
            value = settings[key]
            if value not in (True, False, 0, 1):
                raise _bad(key, value, "true or false")
            setattr(self, key, 1 if value else 0)
        for key in NUMBERS:
            low, high = NUMBERS[key]
            value = settings[key]
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise _bad(key, value, "a whole number from %d to %d" % (low, high))
            setattr(self, key, value)
        self.points = _points_table(settings["points"])
        self._check_together()

    def _set_choice(self, key, value):
        choices = CHOICES[key]
        if value not in choices:
            raise _bad(key, value, "choose one of " + ", ".join(choices))
        setattr(self, key, choices.index(value))

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
                          self.max_players * self.hand_size + 1,
                          self.deck_name(), size, most, (size - 1) // self.hand_size))

    def deck_name(self):
        """Name of the deck option, e.g. ``skat32``."""
        return DECK_CHOICES[self.deck]

    def deck_size(self):
        """Number of cards in the deck."""
        return deck_size(self.deck_name())

    def check_players(self, players):
        """Raise ValueError unless `players` may sit at one table under these rules."""
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise _bad("players", players, "from %d to %d under these rules"
                       % (self.min_players, self.max_players))

    def to_dict(self):
        """Every option by name with its value, as in the replay log's game line."""
        out = {}
        for key in OPTION_NAMES:
            if key in CHOICES:
                out[key] = CHOICES[key][getattr(self, key)]
            elif key in SWITCHES:
                out[key] = bool(getattr(self, key))
            elif key == "points":
                out[key] = dict((k, self.points[RANK_KEYS.index(k) + 2]) for k in RANK_KEYS)
            else:
                out[key] = getattr(self, key)
        return out

    @classmethod
    def from_dict(cls, options, preset="classic"):
        """Rules from a dict of option values (a replay log's game line)."""
        return cls(preset, **options)


def _points_table(points):
    """A 16-byte table of points by rank from a dict like {"J": 11, ...}."""
    if not isinstance(points, dict):
        raise _bad("points", points, "a table of rank to points, e.g. {\"J\": 11}")
    table = bytearray(16)
    for i in range(len(RANK_KEYS)):
        table[i + 2] = STANDARD_POINTS[RANK_KEYS[i]]
    for key in points:
        value = points[key]
        if key not in STANDARD_POINTS:
            raise _bad("points", key, "ranks are 2-9 T J Q K A")
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 100:
            raise _bad("points", value, "points for %s must be from 0 to 100" % key)
        table[RANK_KEYS.index(key) + 2] = value
    return table
