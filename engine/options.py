"""The rule options in full: what each allows, checking settings, words for errors.

Imported only when a game differs from a preset (or for the replay log's rule list,
or for an error message), so a device that plays a preset never keeps this text.
"""

from engine.rules import PRESETS, OPTION_NAMES, STANDARD_POINTS

# One option a line: name, classic value, nordic value, what is allowed (choices
# separated by "|", "2..6" for whole numbers, "no|yes" for a switch). One string, not
# a tree of tuples, because a string costs a device far less heap. Same order as
# engine.rules.OPTION_NAMES (points aside).
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

RANK_KEYS = "23456789TJQKA"
_SWITCH = (False, True)


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


def bad(option, value, allowed):
    """The ValueError for an impossible setting: the option, the value, what is allowed."""
    return ValueError("rule option %s=%r is not possible: %s" % (option, value, allowed))


def configure(rules, preset, settings):
    """Set every option of `rules`: the preset's value unless `settings` names it."""
    if preset not in PRESETS:
        raise bad("preset", preset, "choose one of " + ", ".join(PRESETS))
    rules.preset = preset
    column = 1 + PRESETS.index(preset)
    for key in settings:
        if key not in OPTION_NAMES:
            raise bad(key, settings[key], "unknown option; known: " + ", ".join(OPTION_NAMES))
    for option in options():
        key = option[0]
        value = settings[key] if key in settings else option[column]
        setattr(rules, key, _index(key, value, option[3]))
    rules.points = _points_table(settings.get("points", {}))
    _check_together(rules)


def _check_together(rules):
    if rules.min_players > rules.max_players:
        raise bad("min_players", rules.min_players,
                  "at most max_players (%d)" % rules.max_players)
    if rules.most_players() < rules.min_players:     # not even the fewest players
        raise short_deal(rules, rules.min_players)


def short_deal(rules, players):
    """The ValueError for a deal the deck cannot serve: `players` hands and the up-card."""
    size = rules.deck_size()
    fewer = (size - 1) // rules.hand_size
    return bad("hand_size", rules.hand_size,
               "%d players x %d cards + 1 up-card need %d cards, deck %s has %d; "
               "at most %d cards each%s"
               % (players, rules.hand_size, players * rules.hand_size + 1, rules.deck_name(),
                  size, (size - 1) // players,
                  ", or at most %d players" % fewer if fewer >= rules.min_players else ""))


def bad_players(rules, players):
    """The ValueError for a number of players these rules do not seat (the seats allowed,
    or the deck too small for their hands: then it names hand_size)."""
    if isinstance(players, int) and rules.min_players <= players <= rules.max_players:
        return short_deal(rules, players)
    return bad("players", players, "from %d to %d under these rules"
               % (rules.min_players, rules.max_players))


def to_dict(rules):
    """Every option by name with its value, as in the replay log's game line."""
    out = {}
    for option in options():
        allowed = option[3]
        value = getattr(rules, option[0])
        out[option[0]] = value if isinstance(allowed, range) else allowed[value]
    points = {}
    for i in range(13):
        points[RANK_KEYS[i]] = rules.points[i + 2]
    out["points"] = points
    return out


def _allowed(allowed):
    """Words for what an option allows."""
    if isinstance(allowed, range):
        return "a whole number from %d to %d" % (allowed[0], allowed[-1])
    if allowed is _SWITCH:
        return "true or false"
    return "choose one of " + ", ".join(allowed)


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
    raise bad(key, value, _allowed(allowed))


def _points_table(points):
    """A 16-byte table of points by rank: the standard table with `points` overriding."""
    if not isinstance(points, dict):
        raise bad("points", points, "a table of rank to points, e.g. {\"J\": 11}")
    table = bytearray(STANDARD_POINTS)
    for key in points:
        value = points[key]
        if not isinstance(key, str) or len(key) != 1 or key not in RANK_KEYS:
            raise bad("points", key, "ranks are 2-9 T J Q K A")
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 100:
            raise bad("points", value, "points for %s must be from 0 to 100" % key)
        table[RANK_KEYS.index(key) + 2] = value
    return table
