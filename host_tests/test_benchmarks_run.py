"""The benchmarks run and print every figure (their numbers are read by people, not asserted,
except allocation counts, which are exact)."""

import io

from tools import bench_micropython


def test_bench_micropython_prints_every_figure():
    figures = bench_micropython.measure(games=4, speed_games=2, timeout=300)
    out = io.StringIO()
    bench_micropython.report(figures, out)
    text = out.getvalue()
    for needle in ("resident after import", "4-player classic round", "5-player nordic round",
                   "bytes allocated per move", "calibration loop", "RP2040 est."):
        assert needle in text, needle
    for key in ("alloc_classic4", "alloc_nordic5"):
        moves, legal, apply, choose = figures[key]
        assert moves > 100 and legal == apply == choose == 0
