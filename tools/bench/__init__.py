"""Benchmarks: figures printed against their targets, never asserted.

`engine` (CPython speed), `micropython` (engine heap and speed in the VM), `ai` (AI
decision time), `firmware` (heap and redraw per board), `heap_parts` (where the heap goes).
"""
