"""The device simulator: the firmware on a laptop, in a window, a terminal, or headless."""
import sys


def install_framebuf():
    """Make `import framebuf` work on CPython: the host framebuf when the real one is missing."""
    try:
        import framebuf  # noqa: F401  (MicroPython's own, when running there)
    except ImportError:
        from tools.sim import framebuf
        sys.modules["framebuf"] = framebuf
