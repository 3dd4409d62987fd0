"""Mau-Mau rules engine and AI: pure Python for CPython, MicroPython and CircuitPython.

Import the submodules you need (``engine.rules``, ``engine.round``, ``engine.match``);
this package imports nothing itself so that a device pays only for what it uses.
"""

VERSION = "0.1.0"
