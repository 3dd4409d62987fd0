"""A custom setup's rules: a row for each rule option, its values in the player's words.
firmware.setup imports this module for one use at a time and lets it go (a setup of a
preset never loads it, nor engine.options)."""

from firmware.setup import cycle

_NO_YES = ("no", "yes")
# a rule option's row: a short label (a 128x64 row holds 15 characters with the value),
# a longer one for wide rows, and its values in words, in engine.options' order
_WORDS = {"deck": ("Deck", "Deck", ("32 cards", "52 cards", "104 cards")),
          "hand_size": ("Cards each", "Cards dealt each", ()),
          "first_card": ("1st card", "First card up", ("any", "plain")),
          "must_play_if_able": ("Must play", "Must play if able", _NO_YES),
          "play_drawn": ("Play drawn", "Play a drawn card", _NO_YES),
          "stack_sevens": ("Stack 7s", "7 on a 7 passes on", _NO_YES),
          "eight_skips": ("8 skips", "8 skips a player", _NO_YES),
          "nine_reverses": ("9 reverses", "9 turns the play", _NO_YES),
          "jack_on_jack": ("Jack on J", "Jack on a Jack", _NO_YES),
          "no_finish_on_jack": ("Jack last", "Go out on a Jack", ("yes", "no")),
          "ace": ("Ace", "Ace", ("plain", "draw 4", "play again")),
          "mau_penalty": ("Mau", "Forgot Mau", ("if caught", "always +2", "no penalty")),
          "last_seven": ("Last 7", "Going out on 7", ("no draw", "draws 2"))}


def rows(sc, rows, items):
    """Setup screen `sc`'s custom rows, added to `rows` and `items`: the preset it is
    based on, then each rule option (the seat and match rows set the others)."""
    s = sc.setup
    sc._row(rows, items, "base", 0, "Base: %s" % s["preset"], "Custom, based on %s" % s["preset"])
    for option in _options():
        if option[0] not in ("min_players", "max_players", "match", "rounds", "limit"):
            short, long, words = _WORDS[option[0]]
            value = _word(_value(s, option), option[3], words)
            sc._row(rows, items, "option", option, "%s: %s" % (short, value),
                    "%s: %s" % (long, value))


def first(setup):
    """The options of a setup just made custom (not empty: custom), from its preset."""
    return {"ace": _value(setup, _option("ace"))}


def change(setup, option, step=1):
    """Step rule `option` of a custom setup to its next value (`step` 1) or its previous (-1)."""
    setup["options"][option[0]] = cycle(_value(setup, option), option[3], step)


def _value(setup, option):
    """The value an option has now: set in the options, else the preset's."""
    options = setup.get("options", {})
    if option[0] in options:
        return options[option[0]]
    return option[1] if setup["preset"] == "classic" else option[2]


def _options():
    from engine.rules import options
    return options()


def _option(name):
    for option in _options():
        if option[0] == name:
            return option
    raise KeyError(name)


def _word(value, allowed, words):
    """An option's value in a player's words (numbers as they are)."""
    if not words:
        return "%d" % value
    for i in range(len(allowed)):
        if allowed[i] == value and (value is not True and value is not False
                                    or allowed[i] is value):
            return words[i]
    return "%s" % value
