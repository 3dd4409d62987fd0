"""A stand-in `framebuf` for CircuitPython, which has none: names only, no drawing.

firmware/app.py imports firmware.paint, and with it firmware.gfx, which imports framebuf;
the CircuitPython app draws with displayio and never makes a Canvas. cp_main installs this
module as `framebuf` only where the real one is missing.
"""

MONO_VLSB = 0
RGB565 = 1
GS4_HMSB = 2
MONO_HLSB = 3


class FrameBuffer:
    """Not available: CircuitPython draws with displayio (firmware/paint_dio.py)."""

    def __init__(self, *args):
        raise OSError("no framebuf on CircuitPython: draw with firmware.paint_dio")
