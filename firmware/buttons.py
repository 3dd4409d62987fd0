"""Buttons: raw pin levels debounced into key events, and key events into actions.

An event is one small int, `key << 3 | kind`. `Debouncer` turns a stream of raw
pressed-keys bitmasks into events; `Buttons` reads a board's pins into that mask;
`action(layout, event)` says what an event means on a board's layout.
"""
from engine.compat import const, ticks_diff

# Keys are bit numbers of the pressed-keys mask.
UP = const(0)
DOWN = const(1)
LEFT = const(2)
RIGHT = const(3)
A = const(4)
B = const(5)
X = const(6)
Y = const(7)
KEY_NAMES = ("UP", "DOWN", "LEFT", "RIGHT", "A", "B", "X", "Y")

# Event kinds.
PRESS = const(1)    # the debounced press edge
LONG = const(2)     # still held LONG_MS after the press; once per press
REPEAT = const(3)   # every _REPEAT_MS after LONG while held
RELEASE = const(4)  # the debounced release edge
CLICK = const(5)    # released before LONG: a short press (queued right after RELEASE)
KIND_NAMES = ("", "PRESS", "LONG", "REPEAT", "RELEASE", "CLICK")

# Actions, what screens understand (0 = nothing).
NEXT = const(1)
PREV = const(2)
OK = const(3)
BACK = const(4)
MENU = const(5)
ACT_UP = const(6)
ACT_DOWN = const(7)

_NONE = const(-1)        # get() on an empty queue
_STABLE_MS = const(20)   # a level must stay this long to count
LONG_MS = const(600)
_REPEAT_MS = const(150)
_QUEUE_SIZE = const(32)  # events; the app drains the queue every frame
_KEY_COUNT = const(8)


def event(key, kind):
    """The event int for `kind` happening to `key`."""
    return key << 3 | kind


def describe(event):
    """Readable name of an event, e.g. 'A CLICK' (for logs and test failures)."""
    return "%s %s" % (KEY_NAMES[event >> 3], KIND_NAMES[event & 7])


def key_number(name):
    """The key number of a key name such as 'A' or 'LEFT'."""
    return KEY_NAMES.index(name)


class Debouncer:
    """Raw pressed-keys masks in, key events out; allocates nothing after construction."""

    def __init__(self):
        self.raw = 0            # mask seen at the last feed
        self.stable = 0         # debounced mask
        self.changed = [0] * _KEY_COUNT     # when each key's raw level last changed
        self.held_since = [0] * _KEY_COUNT  # when each key's pressed level began
        self.next_repeat = [0] * _KEY_COUNT
        self.long_sent = 0      # mask of held keys whose LONG was queued
        self.queue = bytearray(_QUEUE_SIZE)
        self.head = 0           # next event to get
        self.count = 0          # events waiting
        self.dropped = 0        # events lost to a full queue

    def feed(self, now_ms, mask):
        """Take the raw pressed-keys mask read at now_ms; queue the events it settles."""
        flipped = mask ^ self.raw
        self.raw = mask
        busy = flipped | (mask ^ self.stable) | self.stable
        if not busy:
            return
        for key in range(_KEY_COUNT):
            bit = 1 << key
            if busy & bit:
                if flipped & bit:
                    self.changed[key] = now_ms
                else:
                    self._settle(key, bit, now_ms)

    def _settle(self, key, bit, now_ms):
        """Advance one key whose raw level did not change at this feed."""
        since = self.changed[key]
        if (self.raw ^ self.stable) & bit:
            if ticks_diff(now_ms, since) >= _STABLE_MS:
                if self.raw & bit:
                    self._press(key, bit, since)
                else:
                    self._release(key, bit)
        elif self.stable & bit:
            self._hold(key, bit, now_ms)

    def _press(self, key, bit, since):
        self.stable |= bit
        self.held_since[key] = since
        self.put(key << 3 | PRESS)

    def _release(self, key, bit):
        self.stable &= ~bit
        self.put(key << 3 | RELEASE)
        if self.long_sent & bit:
            self.long_sent &= ~bit
        else:
            self.put(key << 3 | CLICK)

    def _hold(self, key, bit, now_ms):
        held = ticks_diff(now_ms, self.held_since[key])
        if not self.long_sent & bit:
            if held >= LONG_MS:
                self.long_sent |= bit
                self._schedule_repeat(key, LONG_MS + _REPEAT_MS, held)
                self.put(key << 3 | LONG)
        elif held >= self.next_repeat[key]:
            self._schedule_repeat(key, self.next_repeat[key] + _REPEAT_MS, held)
            self.put(key << 3 | REPEAT)

    def _schedule_repeat(self, key, due, held):
        # after a stall (a busy frame) the next REPEAT is a full period away: no burst
        self.next_repeat[key] = due if due > held else held + _REPEAT_MS

    def put(self, value):
        """Queue one event (dropped, and counted, when the queue is full)."""
        if self.count == _QUEUE_SIZE:
            self.dropped += 1
            return
        self.queue[(self.head + self.count) % _QUEUE_SIZE] = value
        self.count += 1

    def get(self):
        """The next event, or -1 when none is waiting."""
        if not self.count:
            return _NONE
        value = self.queue[self.head]
        self.head = (self.head + 1) % _QUEUE_SIZE
        self.count -= 1
        return value

    def held(self):
        """The debounced mask of keys held down now."""
        return self.stable


class Buttons(Debouncer):
    """A board's buttons on machine.Pin inputs (pressed = 0); poll() feeds the Debouncer.

    keys: the board's KEYS, ((key name, GPIO), ...); a name may appear on two pins.
    no_pull: GPIOs without an internal pull-up (they have one on the board).
    """

    def __init__(self, keys, no_pull=()):
        from machine import Pin
        super().__init__()
        self.pins = []
        self.bits = bytearray(len(keys))
        for i in range(len(keys)):
            name, gpio = keys[i]
            pull = None if gpio in no_pull else Pin.PULL_UP
            self.pins.append(Pin(gpio, Pin.IN, pull))
            self.bits[i] = key_number(name)

    def read(self):
        """The raw pressed-keys mask from the pins."""
        mask = 0
        bits = self.bits
        pins = self.pins
        for i in range(len(pins)):
            if not pins[i].value():
                mask |= 1 << bits[i]
        return mask

    def poll(self, now_ms):
        """Read the pins and feed the mask; call every frame (every few ms)."""
        self.feed(now_ms, self.read())


def _moves(kind):
    """Press or auto-repeat: what stepping keys respond to."""
    return kind == PRESS or kind == REPEAT


def _two(key, kind):
    if key == A:
        return NEXT if kind == CLICK else OK if kind == LONG else 0
    if key == B:
        return PREV if kind == CLICK else MENU if kind == LONG else 0
    return 0


def _abxy(key, kind):
    if key == Y:
        return NEXT if _moves(kind) else 0
    if key == X:
        return PREV if _moves(kind) else 0
    if key == A:
        return OK if kind == PRESS else 0
    if key == B:
        return BACK if kind == CLICK else MENU if kind == LONG else 0
    return 0


def _dpad(key, kind):
    if key == A:
        return OK if kind == PRESS else 0
    if key == B:
        return BACK if kind == CLICK else MENU if kind == LONG else 0
    if not _moves(kind):
        return 0
    if key == RIGHT:
        return NEXT
    if key == LEFT:
        return PREV
    if key == UP:
        return ACT_UP
    if key == DOWN:
        return ACT_DOWN
    return 0


def action(layout, event):
    """The action (NEXT, PREV, OK, BACK, MENU, ACT_UP, ACT_DOWN) of an event, or 0."""
    key = event >> 3
    kind = event & 7
    if layout == "dpad":
        return _dpad(key, kind)
    if layout == "abxy":
        return _abxy(key, kind)
    if layout == "two":
        return _two(key, kind)
    raise ValueError("unknown layout %s" % layout)
