"""MicroPython built-ins that CPython lacks, for engine.compat (never loaded on a device)."""

import time


def const(value):
    """Return value unchanged: MicroPython's compile-time constant marker."""
    return value


def ticks_ms():
    """Milliseconds from an arbitrary start, like MicroPython's time.ticks_ms."""
    return time.monotonic_ns() // 1000000


def ticks_add(t, delta):
    """t + delta (MicroPython wraps; CPython need not)."""
    return t + delta


def ticks_diff(a, b):
    """a - b in milliseconds."""
    return a - b
