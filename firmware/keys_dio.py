"""Buttons on CircuitPython: keypad events (and a PyGamer's thumbstick) into firmware.buttons keys.

The PyBadge and PyGamer read their buttons through a 74HC165 shift register with
`keypad.ShiftRegisterKeys`; its key numbers are the board's bit order (0 B, 1 A,
2 Start, 3 Select, 4 Right, 5 Down, 6 Up, 7 Left; a PyGamer has only bits 0-3 and an
analog thumbstick). `ShiftKeys` keeps the pressed-keys mask from keypad's events and
feeds firmware.buttons.Debouncer, so events, LONG and REPEAT work as on every board.
Start is firmware key X and Select is Y. The key layout "badge" lives here, since
firmware.buttons knows only two, abxy and dpad: the d-pad layout plus Start = MENU and
Select = BACK (`action`).
"""

from engine.compat import const
from firmware import buttons
from firmware.buttons import Debouncer, PRESS, CLICK, MENU, BACK

START = const(6)     # firmware.buttons.X
SELECT = const(7)    # firmware.buttons.Y
# thumbstick: AnalogIn values (0..65535) beyond these count as a direction held
STICK_LOW = const(16000)
STICK_HIGH = const(49000)


BADGE = "badge"      # the PyBadge/PyGamer key layout


def action(layout, event):
    """The action of an event in `layout`; "badge" is "dpad" with Start = MENU (on the
    press) and Select = BACK (on the click)."""
    if layout != BADGE:
        return buttons.action(layout, event)
    key, kind = event >> 3, event & 7
    if key == START:
        return MENU if kind == PRESS else 0
    if key == SELECT:
        return BACK if kind == CLICK else 0
    return buttons.action("dpad", event)


def key_bits(keys):
    """Shift-register bit -> firmware key number, from a board's KEYS ((name, bit), ...)."""
    bits = bytearray(8)
    for i in range(8):
        bits[i] = 255
    for name, bit in keys:
        bits[bit] = buttons.key_number(name)
    return bits


class Stick:
    """A thumbstick on two AnalogIn inputs, read as the d-pad keys it leans towards."""

    def __init__(self, x, y):
        self.x, self.y = x, y

    def read(self):
        """The pressed-keys mask of the directions the stick is pushed."""
        mask = 0
        x, y = self.x.value, self.y.value
        if x < STICK_LOW:
            mask |= 1 << buttons.LEFT
        elif x > STICK_HIGH:
            mask |= 1 << buttons.RIGHT
        if y < STICK_LOW:
            mask |= 1 << buttons.UP
        elif y > STICK_HIGH:
            mask |= 1 << buttons.DOWN
        return mask


class ShiftKeys(Debouncer):
    """keypad.ShiftRegisterKeys (or any keypad scanner) plus an optional Stick, debounced."""

    def __init__(self, scanner, keys, stick=None, event=None):
        super().__init__()
        self.scanner = scanner
        self.bits = key_bits(keys)
        self.stick = stick
        self.pressed = 0          # mask from the scanner's events so far
        self._event = event       # one keypad.Event reused by get_into (no allocation)

    def read(self):
        """The raw pressed-keys mask now: the scanner's queued events, then the stick."""
        queue = self.scanner.events
        while queue.get_into(self._event):
            key = self.bits[self._event.key_number]
            if key == 255:
                continue
            if self._event.pressed:
                self.pressed |= 1 << key
            else:
                self.pressed &= ~(1 << key)
        mask = self.pressed
        if self.stick is not None:
            mask |= self.stick.read()
        return mask

    def poll(self, now_ms):
        """Read the keys and feed the mask; call every frame."""
        self.feed(now_ms, self.read())


def shift_keys(keys, count, stick_pins=None):
    """The board's ShiftKeys on board.BUTTON_CLOCK/OUT/LATCH (device only)."""
    import board
    import keypad
    scanner = keypad.ShiftRegisterKeys(clock=board.BUTTON_CLOCK, data=board.BUTTON_OUT,
                                       latch=board.BUTTON_LATCH, key_count=count,
                                       value_when_pressed=True)
    stick = None
    if stick_pins is not None:
        from analogio import AnalogIn
        stick = Stick(AnalogIn(getattr(board, stick_pins[0])), AnalogIn(getattr(board, stick_pins[1])))
    return ShiftKeys(scanner, keys, stick, keypad.Event())
