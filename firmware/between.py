"""Between rounds: the round's scores, who joins or leaves (the match's final table is
firmware.final's, imported at the match's end and let go).

firmware.app imports this module when a round ends to make the scores (and lets go of it
while they are drawn), again when they are read, and lets go of it at the next deal and
when the final table is left: its code is in the heap only between rounds.
At the final table the game's own code goes too (GAME_CODE).
"""

from engine.compat import forget
from firmware import screens as S


# The game's own code, firmware.game and what it imports: it goes with the match at its
# final table (the setup and the title load none of it; linked play keeps it), and the
# next deal imports it.
GAME_CODE = ("firmware.game", "firmware.story", "engine.match", "engine.round", "engine.ai",
             "engine.rules", "engine.text", "engine.moves", "engine.cards", "engine.rng")


def scores(app):
    """Round end: each player's points of the round, total and the cards they held."""
    game = app.game
    held = game.held()
    rows = []
    for k, row in enumerate(game.results()):
        cards = bytearray(held[k] if k < len(held) else b"")   # (a save from before)
        S.sort_cards(cards, len(cards), app._by_rank())
        rows.append((row[0], row[1], row[2], bytes(cards)))
    w = game.round_winner()
    head = wins(game.player_name(w)) if w is not None else "Nobody wins"
    wide = app.sizes.wide
    if wide:
        head = "Round %d: %s" % (game.rounds_played(), head)
    heads = ("Player", "Round", "Total", "Cards left") if wide else ("Name", "Rnd", "Tot", "Left")
    from firmware.pages import ScoresScreen
    forget("firmware.pages")
    app.show(ScoresScreen(head, heads, rows, app.sizes.list_fit - 1), True)
    forget("firmware.between")      # drawn on the next frame without this code; read again


def made(app):
    """The scores read (App.make): the final table when the match is over, else who joins
    or leaves."""
    if app.game.match_over():
        from firmware.final import final
        forget("firmware.final")
        final(app)
    else:
        seats(app)


def seats(app, cursor=0):
    """Join or leave between rounds, then deal: the screen's `acts` say what each item does."""
    game = app.game
    items = ["Deal next round"]
    acts = [("deal", 0)]
    if len(game.seated()) < game.rules.most_players():
        name = free_name(game)
        join = "Join: %s (%s)" if len(name) + 14 <= app.sizes.list_cols else "+ %s (%s)"
        items.append(join % (name, "AI"))       # 128x64 and 72x40: "+ Jonas (human)"
        items.append(join % (name, "human"))
        acts += [("join", 3), ("join", 0)]
    if len(game.seated()) > game.rules.min_players:
        for p in game.seated():
            items.append("Leave: %s" % game.player_name(p))
            acts.append(("leave", p))
    sc = S.ListScreen("between", "Next round", items, (), app.sizes.list_fit, cursor)
    sc.acts = acts
    app.show(sc, True)


def free_name(game):
    """The first name of the AIs' and the humans' lists no player has."""
    taken = [game.player_name(p) for p in range(len(game.names))]
    for name in S.AI_NAMES + S.HUMAN_NAMES:
        if name not in taken:
            return name
    return "P%d" % len(taken)


def on_seats(app, got):
    """An item of the screen between rounds: deal, or a player joins or leaves."""
    if got < 0:
        return
    what, arg = app.screen.acts[got]
    game = app.game
    if what == "deal" and app.looped:      # dealt on the next frame, this code let go first
        forget("firmware.between")
        app.hold(game)
    elif what == "deal":
        game.next_round()                  # saved there, through on_change
        app._begin(False)
    elif what == "join":
        game.join(free_name(game), arg)
        seats(app, got)
    else:
        game.leave(arg)
        seats(app, 0)


def wins(name):
    """"Greta wins", but "You win"."""
    return ("%s win" if name == "You" else "%s wins") % name
