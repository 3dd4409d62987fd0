"""Sound cues: a few notes on a buzzer or speaker, played while the game loop runs on.

`Sound(pwm)` plays on anything with machine.PWM's `freq(hz)` and `duty_u16(duty)` (a
buzzer pin on MicroPython; firmware/sound_dio.py on CircuitPython; a fake in the
simulator). `play(cue)` only queues; `tick(now_ms)`, called every frame, starts a queued
cue and moves to the next note once a note's time is up: no sleeping, no threads, and
nothing allocated after construction. Only boards whose config has `open_sound()` load
this module (docs/boards.md). `after_move(game)` and `your_turn(game)` choose the cue
from what just happened at the table.
"""

from engine.compat import const, ticks_add, ticks_diff

# Cues, ranked: a cue does not cut one of a higher rank short.
TURN = const(0)       # the device's holder is to move
MAU = const(1)        # someone says Mau
PENALTY = const(2)    # the holder draws penalty cards (sevens, a Mau penalty)
CAUGHT = const(3)     # a forgotten Mau is caught
LOSE = const(4)       # an AI won the round or the match
WIN = const(5)        # a human won the round or the match (any winner at an AI-only table)
NAMES = ("turn", "mau", "penalty", "caught", "lose", "win")

# Each cue: frequency (Hz, 0 a rest), milliseconds, frequency, milliseconds, ...
CUES = (
    (1047, 50, 1568, 80),                            # turn: C6 G6, a light ding
    (1175, 90, 880, 160),                            # mau: D6 A5, "mau-u"
    (523, 90, 440, 90, 349, 200),                    # penalty: C5 A4 F4, down
    (1568, 60, 0, 40, 1568, 60, 0, 40, 1568, 120),   # caught: three high beeps
    (392, 150, 370, 150, 349, 150, 330, 350),        # lose: G4 F#4 F4 E4
    (523, 90, 659, 90, 784, 90, 1047, 260),          # win: C5 E5 G5 C6
)

_LOUD = const(32768)  # half duty: a square wave, the buzzer's loudest
_NONE = const(-1)
# engine.events kinds (e >> 12)
_DRAW = const(3)
_PENALTY = const(4)
_MAU = const(8)
_CAUGHT = const(10)
_ROUND_END = const(13)
_NOBODY = const(255)


class Sound:
    """Cues on a PWM output, note by note as the loop ticks."""

    def __init__(self, pwm, on=True):
        self.pwm = pwm
        self.on = on
        self.cue = _NONE      # the cue playing
        self.queued = _NONE   # the cue to start at the next tick
        self.at = 0           # its note: an index into CUES[cue]
        self.due = 0          # when that note ends
        pwm.duty_u16(0)

    def set_on(self, on):
        """Sound on or off (off: silent at once, and cues are ignored)."""
        self.on = on
        if not on:
            self.queued = _NONE
            if self.cue != _NONE:
                self.cue = _NONE
                self.pwm.duty_u16(0)

    def play(self, cue):
        """Start `cue` at the next tick, unless a cue of a higher rank is playing or queued."""
        if self.on and cue >= self.cue and cue >= self.queued:
            self.queued = cue

    def tick(self, now_ms):
        """Start a queued cue, or the next note once the note playing is done."""
        if self.queued != _NONE:
            self.cue = self.queued
            self.queued = _NONE
            self.at = 0
            self.started(self.cue, now_ms)
        elif self.cue == _NONE or ticks_diff(now_ms, self.due) < 0:
            return
        else:
            self.at += 2
        notes = CUES[self.cue]
        at = self.at
        if at >= len(notes):
            self.cue = _NONE
            self.pwm.duty_u16(0)
            return
        hz = notes[at]
        if hz:
            self.pwm.freq(hz)
            self.pwm.duty_u16(_LOUD)
        else:
            self.pwm.duty_u16(0)
        self.due = ticks_add(now_ms, notes[at + 1])

    def started(self, cue, now_ms):
        """A cue begins (the simulator logs it here)."""

    def your_turn(self, game):
        """The holder's turn begins: TURN, unless they just moved and move on."""
        if game.last_seat != game.to_move():
            self.play(TURN)

    def after_move(self, game):
        """The cue for the move just made, from the events it wrote (engine.events)."""
        rnd = game.rnd
        me = game.holder_seat()
        cue = _NONE
        draws = 0
        for i in range(rnd.event_count()):
            e = rnd.events[i]
            kind = e >> 12
            if kind == _DRAW and e >> 8 & 15 == me:
                draws += 1
            elif kind == _PENALTY and e >> 8 & 15 == me:
                cue = max(cue, PENALTY)
            elif kind == _MAU:
                cue = max(cue, MAU)
            elif kind == _CAUGHT:
                cue = max(cue, CAUGHT)
            elif kind == _ROUND_END and e & 255 != _NOBODY:
                cue = _ending(game)
        if draws > 1:       # a draw of two or more: the sevens' pending count
            cue = max(cue, PENALTY)
        if cue != _NONE:
            self.play(cue)


def _ending(game):
    """WIN when a human won the round (the match, if it is over), or nobody human plays."""
    w = game.winner() if game.match_over() else game.round_winner()
    levels = game.levels
    return WIN if w is None or levels[w] == 0 or 0 not in levels else LOSE
