"""A shuffle generator that gives the same numbers on CPython and MicroPython.

Two multiply-with-carry generators with base 2**15. Every intermediate value stays
below 2**30, inside MicroPython's small ints on 32-bit boards, so drawing a number
never allocates. Multipliers 32760 and 32730 make ``a * 2**15 - 1`` a safe prime,
which gives each generator a period of about 2**29.
"""

from engine.compat import const

_A1 = const(32760)
_A2 = const(32730)
_MASK = const(0x7FFF)


class Random:
    """Deterministic 30-bit generator; same seed, same cards on every runtime."""

    def __init__(self, seed=0):
        self.seed(seed)

    def seed(self, seed):
        """Restart the sequence from an integer seed (any size; reduced to 30 bits)."""
        seed = seed & 0x3FFFFFFF
        self.x = 1 + seed % (_A1 * 32768 - 2)
        self.y = 1 + ((seed >> 15) * 7919 + (seed & _MASK) * 31 + 12345) % (_A2 * 32768 - 2)
        for _ in range(4):
            self.below(2)

    def below(self, n):
        """A number in 0 .. n - 1 (n up to a few thousand; the bias is below 1e-5).
        below(1 << 30) is the raw 30-bit output."""
        x = self.x
        x = _A1 * (x & _MASK) + (x >> 15)
        self.x = x
        y = self.y
        y = _A2 * (y & _MASK) + (y >> 15)
        self.y = y
        return ((x & _MASK) << 15 | (y & _MASK)) % n

    def shuffle(self, buf, lo, hi):
        """Fisher-Yates shuffle of buf[lo:hi] in place (below() inlined: it is hot)."""
        x = self.x
        y = self.y
        xl = x & _MASK  # the low halves, each used twice: for the number and the next step
        yl = y & _MASK
        for k in range(hi - 1, lo, -1):  # swap buf[k] with one of buf[lo:k + 1]
            x = _A1 * xl + (x >> 15)
            xl = x & _MASK
            y = _A2 * yl + (y >> 15)
            yl = y & _MASK
            j = lo + (xl * 32768 + yl) % (k + 1 - lo)  # (xl << 15 | yl: the same 30 bits)
            buf[k], buf[j] = buf[j], buf[k]
        self.x = x
        self.y = y

    def state(self):
        """The generator's state as two ints, for saving."""
        return self.x, self.y

    def set_state(self, x, y):
        """Restore a state returned by state()."""
        self.x = x
        self.y = y
