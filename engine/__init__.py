"""Mau-Mau rules engine and AI: pure Python for CPython, MicroPython and CircuitPython.

Import the submodules you need (``engine.rules``, ``engine.round``, ``engine.match``);
this package imports nothing itself so that a device pays only for what it uses.
"""

from sys import implementation

if implementation.name == "cpython":  # MicroPython's compiler folds const() names itself
    from engine.cpython import fold_consts
    fold_consts(__name__)
del implementation
