"""The benchmarks run and print every figure (their numbers are read by people, not asserted,
except allocation counts, which are exact)."""

import io

import pytest

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


def test_bench_firmware_prints_every_figure():
    """One board, a short game: the VM figures and the cost model's are all printed."""
    from tools.bench import firmware as bench_firmware
    row = bench_firmware.quickest([bench_firmware.summary(
        "pico_display", bench_firmware.measure("pico_display", decisions=40, timeout=300))])
    out = io.StringIO()
    bench_firmware.report([row], out)
    bench_firmware.report_model([row], out)
    text = out.getvalue()
    for needle in ("heap use", "move ms", "p90", "bytes", "Cost model", "bus clock", "pixels",
                   "full ms", "target"):
        assert needle in text, needle
    model = row["model"]
    assert model["hz"] == 62500000          # the wiring raised rp2's peripheral clock
    assert model["pixels"] > 0 and model["move"] > model["bus"] > 0
    assert row["moves"] > 0 and "pico_display" in text


@pytest.mark.timeout(900)
def test_bench_needs_caps_the_heap_and_prints_every_figure():
    """An evening plays through uncapped and in a cap above its peak, runs out in one far
    below what it keeps live, and the report prints every figure."""
    from tools.bench import needs
    found = needs.profile("thumby", 1, False)
    assert found["matches"] == 1 and found["peak"] >= found["live"] > found["code"] > 0
    assert found["largest"] >= 1024
    frames = found["frames"] + 2
    assert needs.run_evening("thumby", 1, frames, False, found["peak"] + 24 * 1024,
                             timeout=600, base=found["base"])[0]
    assert not needs.run_evening("thumby", 1, frames, False, 8 * 1024,
                                 timeout=60, base=found["base"])[0]
    found.update(board="thumby", needs=found["peak"] + 24 * 1024)
    out = io.StringIO()
    needs.report([found], [({}, dict(found))], out)
    text = out.getvalue()
    for needle in ("Heap needs", "in use", "peak", "needs", "largest", "frozen est.", "ROMFS",
                   "files", "thumby"):
        assert needle in text, needle
