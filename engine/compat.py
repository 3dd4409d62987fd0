"""The few names that differ between CPython and MicroPython, and forget()."""

try:
    from micropython import const
    from time import ticks_ms, ticks_add, ticks_diff, sleep_ms
except ImportError:  # CPython: the same names from engine.cpython, never loaded on a device
    from engine.cpython import const, ticks_ms, ticks_add, ticks_diff, sleep_ms


def forget(name):
    """Drop module `name` from sys.modules and from its package: its code leaves the heap
    once nothing else refers to it (a module used for one phase, imported again if need be)."""
    import sys
    sys.modules.pop(name, None)
    dot = name.rfind(".")
    package = sys.modules.get(name[:dot]) if dot > 0 else None
    if package is not None:
        package.__dict__.pop(name[dot + 1:], None)
