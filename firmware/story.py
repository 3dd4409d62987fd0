"""Events in words: what happened at the table, told to one player, a sentence a line.

The game keeps a round's events in a ring of 16-bit ints (engine.events packing) and
writes two kinds of its own: a MOVE marker before each move's events (who moved, and
the move's kind) and UPCARD after the deal. `tell` turns a stretch of that ring into
sentences for one viewer:

    Greta plays 7 of clubs: Emma draws 2     Finn draws a card     Emma says Mau
    Greta wishes hearts     The draw pile is reshuffled     Finn misses a turn
    Emma forgot to say Mau - caught by Greta: draws 2

A card someone draws is named only to that player ("You draw 9 of hearts"); everyone
else hears "Finn draws a card". Played cards are public. Text stays ASCII (the
device fonts have no dash or quote marks beyond it).
"""

from engine.compat import const
from engine.text import long_name, suit_name

UPCARD = const(14)   # the game's own event: value is the card turned up after the deal
_MOVE = const(15)    # the game's own event: player moved; value: the move's kind (0..3),
                     # plus _PAYS when a draw takes the count of a 7 (or a draw-4 ace)
_PAYS = const(4)
NO_VIEWER = const(255)

# engine.events kinds (repeated as consts: folded at compile time)
_DEAL = const(0)
_PLAY = const(1)
_WISH = const(2)
_DRAW = const(3)
_PENALTY = const(4)
_RESHUFFLE = const(5)
_SKIP = const(6)
_REVERSE = const(7)
_MAU = const(8)
_FORGOT = const(9)
_CAUGHT = const(10)
_PASS = const(11)
_ROUND_END = const(13)
_NOBODY = const(255)
_DRAW_KIND = const(1)   # a MOVE marker's value for a draw (engine.moves.DRAW >> 9)


def marker(seat, move, pays=False):
    """The MOVE event written before the events of `seat`'s `move`; `pays`: the move
    draws the pending count."""
    return _MOVE << 12 | seat << 8 | (move >> 9 & 3) | (_PAYS if pays else 0)


def event(kind, player, value):
    """Pack an event (the same layout as engine.events)."""
    return kind << 12 | player << 8 | value


class _Teller:
    """Builds the sentences of one stretch of events."""

    def __init__(self, names, viewer):
        self.names = names
        self.viewer = viewer
        self.lines = []
        self.drawer = -1        # who is drawing in the current run of draws
        self.drawn = 0
        self.cards = []         # the cards drawn, named only for the viewer
        self.attach = -1        # line that the next draws complete (": draws 2")
        self.subject = -1       # the player that line is about
        self.mover = -1
        self.kind = 0
        self.moved = True       # the current move has told something
        self.play_line = -1     # the line of the last play, while it is the last line

    def who(self, seat, first):
        """A player's name, or you."""
        if seat == self.viewer:
            return "You" if first else "you"
        return self.names[seat]

    def say(self, seat, verb, rest=""):
        """Add "<name> <verb>s <rest>" (or "You <verb> <rest>"); return its index."""
        if seat != self.viewer:
            verb = _third(verb)
        self.lines.append("%s %s%s" % (self.who(seat, True), verb, rest))
        return len(self.lines) - 1

    def draws_text(self, first):
        """The words for the run of draws: "Finn draws 2", "You draw 9 of hearts"."""
        seat = self.drawer
        if self.drawn == 0:
            words = "draw no card: none left"
        elif seat == self.viewer:
            words = "draw " + (str(self.drawn) + ": " if self.drawn > 1 else "")
            words += ", ".join([long_name(c) for c in self.cards])
        else:
            words = "draw a card" if self.drawn == 1 else "draw %d" % self.drawn
        if seat != self.viewer:
            words = _third(words)
        if first is None:
            return words
        return "%s %s" % (self.who(seat, first), words)

    def flush(self):
        """Finish the run of draws, as its own line or completing a penalty line."""
        if self.drawer < 0:
            return
        if self.attach >= 0:
            line = self.lines[self.attach]
            if self.drawer == self.subject:
                line += ": " + self.draws_text(None)
            else:
                line += ": " + self.draws_text(False)
            self.lines[self.attach] = line
        else:
            self.lines.append(self.draws_text(True))
        self.drawer = -1
        self.drawn = 0
        self.cards = []
        self.attach = -1

    def event(self, e):
        """Take one event."""
        kind = e >> 12
        p = e >> 8 & 15
        v = e & 255
        if kind == _MOVE:
            self.end_move()
            self.mover = p
            self.kind = v & 3
            self.moved = False
            if v & _PAYS and self.play_line == len(self.lines) - 1:
                self.attach = self.play_line    # "Greta plays 7 of clubs: Emma draws 2"
                self.drawer = p
        elif kind == _DRAW:
            if self.drawer != p:
                self.flush()
                self.drawer = p
            self.drawn += 1
            if p == self.viewer:
                self.cards.append(v)
            self.moved = True
        elif kind == _RESHUFFLE:
            attach = self.attach
            self.lines.append("The draw pile is reshuffled")
            self.attach = attach
        elif kind == _PENALTY:
            self.flush()
            last = len(self.lines) - 1
            self.attach = last
            self.drawer = p     # the penalty's draws follow (even if none are left)
        else:
            self.flush()
            self.other(kind, p, v)

    def other(self, kind, p, v):
        """Events that make a line of their own."""
        if kind == _PLAY:
            self.play_line = self.say(p, "play", " " + long_name(v))
            self.subject = p
        elif kind == _WISH:
            self.say(p, "wish", " " + suit_name(v))
        elif kind == _MAU:
            self.say(p, "say", " Mau")
        elif kind == _FORGOT:
            self.lines.append("%s forgot to say Mau" % self.who(p, True))
            self.subject = p
        elif kind == _CAUGHT:
            self.lines.append("%s forgot to say Mau - caught by %s"
                              % (self.who(v, True), self.who(p, False)))
            self.subject = v
        elif kind == _SKIP:
            self.say(p, "miss", " a turn")
        elif kind == _REVERSE:
            self.lines.append("Play turns %s" % ("clockwise" if v else "counter-clockwise"))
        elif kind == _PASS:
            self.say(p, "pass")
        elif kind == _ROUND_END:
            if v == _NOBODY:
                self.lines.append("The round ends: nobody wins")
            else:
                self.say(v, "win", " the round")
        elif kind == _DEAL:
            self.say(p, "deal")
        elif kind == UPCARD:
            self.lines.append("The first card is " + long_name(v))
        self.moved = True

    def end_move(self):
        """Close a move: its draws, and a draw that found no card."""
        if self.mover >= 0 and self.kind == _DRAW_KIND and not self.moved:
            self.drawer = self.mover
        self.flush()
        self.mover = -1


def tell(ring, start, stop, names, viewer=NO_VIEWER):
    """Sentences for events ring[start:stop] (indices taken modulo the ring's length),
    told to seat `viewer` (NO_VIEWER: a spectator); `names` by seat."""
    t = _Teller(names, viewer)
    size = len(ring)
    for i in range(start, stop):
        t.event(ring[i % size])
    t.end_move()
    return t.lines


def _third(verb):
    """The third-person form of a phrase's first word: draw -> draws, miss -> misses."""
    space = verb.find(" ")
    word = verb if space < 0 else verb[:space]
    rest = "" if space < 0 else verb[space:]
    if word[-1] == "s" or word[-2:] == "sh":
        word += "es"
    else:
        word += "s"
    return word + rest
