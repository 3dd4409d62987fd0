"""Players joining and leaving a match between rounds (Match.join and Match.leave).

Imported on first use, so a device that plays with a fixed table keeps none of it.
"""


def join(match):
    """Seat a new player at the worst current total; return their number."""
    _between_rounds(match, "join")
    seated = match.seated
    if len(seated) >= match.rules.max_players:
        raise ValueError("players=%d: the table is full (max_players=%d)"
                         % (len(seated) + 1, match.rules.max_players))
    match.rules.check_players(len(seated) + 1)    # the deck serves one more hand
    worst = 0
    for p in seated:
        worst = max(worst, match.totals[p])
    match.totals.append(worst)
    player = len(match.totals) - 1
    seated.append(player)
    return player


def leave(match, player):
    """Remove a player; they leave the score list."""
    _between_rounds(match, "leave")
    if player not in match.seated:
        raise ValueError("player %r is not at the table" % (player,))
    match.seated.remove(player)
    match.gone.append(player)


def _between_rounds(match, what):
    if match.round is not None:
        raise ValueError("players may %s only between rounds" % what)
