"""The few names that differ between CPython and MicroPython."""

try:
    from micropython import const
    from time import ticks_ms, ticks_add, ticks_diff
except ImportError:  # CPython: the same names from engine.cpython, never loaded on a device
    from engine.cpython import const, ticks_ms, ticks_add, ticks_diff
