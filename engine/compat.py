"""The few names that differ between CPython and MicroPython."""

try:
    from micropython import const
except ImportError:  # CPython

    def const(value):
        """Return value unchanged: MicroPython's compile-time constant marker."""
        return value
