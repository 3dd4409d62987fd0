"""The benchmarks run and print every figure (their numbers are read by people, not asserted,
except allocation counts, which are exact)."""

import io

from tools.bench import micropython as bench_micropython


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


def test_bench_engine_prints_every_figure(capsys):
    from tools.bench import engine as bench_engine
    assert bench_engine.main(["--seconds", "0.02", "--repeat", "1"]) == 0
    text = capsys.readouterr().out
    for needle in ("games/s", "moves/s", "deals/s", "RLCard", "OpenSpiel", "target 3x",
                   "Heap bytes of a round"):
        assert needle in text, needle
    for preset in ("classic", "nordic"):
        for players in (2, 4):
            assert "%-8s %7d" % (preset, players) in text
