"""The questions a played card asks: the Jack's wish (the suit picker) and whether to say
Mau with a card that leaves one. firmware.app imports this module for a question and
lets it go (the table never holds its code; most cards ask nothing)."""

from engine.compat import const, forget
from firmware import screens as S

_MAU = const(0x100)         # engine.moves.MAU: a play says Mau
_MAU_OFF = const(2)         # engine.rules.MAU_OFF: forgetting Mau costs nothing


def ask(app, card):
    """Ask what `card` asks (app.picking and app.hinted set): the suit picker on the hint's
    suit (else clubs), else the Mau question."""
    forget("firmware.ask")
    hinted = app.hinted
    if app.table.wishes(card):
        sc = S.ListScreen("picker", "Wish a suit", ["Clubs", "Spades", "Hearts", "Diamonds"],
                          (), app.sizes.list_fit, hinted >> 6 & 3 if hinted >= 0 else 0)
        sc.suits = (0, 1, 2, 3)
        app.show(sc)
    else:
        ask_mau(app, 0)


def ask_mau(app, wish):
    """The card leaves one: "Play 9 of clubs" with Mau or without (with Mau first,
    unless a hint said otherwise); a card that leaves more is played at once."""
    from engine.text import card_name, long_name, suit_name
    forget("firmware.ask")
    t, card = app.table, app.picking
    app.wish = wish
    if not t.asks_mau(card) or app.game.rules.mau_penalty == _MAU_OFF:
        app.screen = t            # no question: it leaves more, or Mau costs nothing
        app._play(t.play_move(card, wish, t.asks_mau(card)))
        return
    cols = app.sizes.list_cols
    title = "Play " + long_name(card)
    if len(title) > cols:
        title = long_name(card) if len(long_name(card)) <= cols else "Play " + card_name(card)
    lines = ["Wish: " + suit_name(wish)] if t.wishes(card) else []
    quiet = app.hinted >= 0 and not app.hinted & _MAU
    app.show(S.ListScreen("mau", title, ["With Mau", "Without Mau"], lines,
                          app.sizes.list_fit, 1 if quiet else 0))
