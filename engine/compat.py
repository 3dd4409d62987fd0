"""The few names that differ between CPython and MicroPython."""

try:
    from micropython import const
except ImportError:  # CPython

    def const(value):
        """Return value unchanged: MicroPython's compile-time constant marker."""
        return value


try:
    from time import ticks_ms, ticks_add, ticks_diff
except ImportError:  # CPython
    from time import monotonic_ns as _ns

    def ticks_ms():
        """Milliseconds from an arbitrary start, like MicroPython's time.ticks_ms."""
        return _ns() // 1000000

    def ticks_add(t, delta):
        """t + delta (MicroPython wraps; CPython need not)."""
        return t + delta

    def ticks_diff(a, b):
        """a - b in milliseconds."""
        return a - b
