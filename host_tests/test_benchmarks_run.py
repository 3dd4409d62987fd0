"""The benchmarks run and print every figure (their numbers are read by people, not asserted,
except allocation counts, which are exact)."""

import importlib
import io
import re
import subprocess
import sys
from pathlib import Path

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
    for needle in ("games/s", "moves/s", "deals/s", "RLCard UNO", "OpenSpiel crazy_eights",
                   "target 2x", "Heap bytes of a round"):
        assert needle in text, needle
    for preset in ("classic", "nordic"):
        for players in (2, 4):
            assert "%-8s %7d" % (preset, players) in text
        assert "%-18s %-8s" % ("pure Python", preset) in text


def pure(classic, nordic):
    """Stands in for pure_figures: (games/s, moves/s) by preset."""
    return lambda seconds: {"classic": classic + (30.0,), "nordic": nordic + (90.0,)}


def test_a_missing_peer_is_named_in_one_line_and_the_rest_is_printed(monkeypatch):
    from tools.bench import engine as bench_engine, peers
    monkeypatch.setitem(sys.modules, "rlcard", None)  # import rlcard... raises ImportError
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    found = peers.measure_all(0.01, 1)
    assert found["RLCard UNO"].startswith("rlcard not installed")
    assert found["OpenSpiel crazy_eights"].startswith("open-spiel not installed")
    monkeypatch.setattr(peers, "run", lambda seconds, repeat: found)
    monkeypatch.setattr(bench_engine, "compiled_ready", lambda: ("not built", None))
    monkeypatch.setattr(bench_engine, "pure_figures", pure((1000.0, 30000.0), (300.0, 27000.0)))
    out = io.StringIO()
    bench_engine.against_peers(0.01, 2, out)
    lines = out.getvalue().splitlines()
    assert [line for line in lines if "not installed" in line] == [
        "  %-24s %s" % ("RLCard UNO", found["RLCard UNO"]),
        "  %-24s %s" % ("OpenSpiel crazy_eights", found["OpenSpiel crazy_eights"])]
    assert "  engine compiled (Cython): not built" in lines
    assert "  %-18s %-8s %9.0f %9.0f   (no peer timed)" % (
        "pure Python", "classic", 1000, 30000) in lines
    assert "  %-18s %-8s %9.0f %9.0f   (no peer timed)" % (
        "pure Python", "nordic", 300, 27000) in lines


def test_each_engine_figure_is_set_against_twice_each_peer(monkeypatch):
    from tools.bench import engine as bench_engine, peers
    runs = iter([{"RLCard UNO": [5000.0, 150000.0, 30.0], "OpenSpiel crazy_eights": "failed"},
                 {"RLCard UNO": [4000.0, 120000.0, 30.0],  # the best run of each is kept
                  "OpenSpiel crazy_eights": [4000.0, 130000.0, 32.5]}])
    monkeypatch.setattr(peers, "run", lambda seconds, repeat: next(runs))
    monkeypatch.setattr(bench_engine, "pure_figures", pure((9000.0, 300000.0), (3000.0, 240000.0)))
    monkeypatch.setattr(bench_engine, "compiled_ready", lambda: (None, "digests equal"))
    monkeypatch.setattr(bench_engine, "compiled_figures", lambda seconds: {
        "classic": [20000.0, 600000.0, 30.0], "nordic": [7000.0, 520000.0, 74.3]})
    out = io.StringIO()
    bench_engine.against_peers(0.01, 2, out)
    text = out.getvalue()
    assert "  %-24s %9.0f %9.0f %11.1f" % ("RLCard UNO", 5000, 150000, 30) in text
    assert "RLCard UNO 2.00x met; OpenSpiel crazy_eights 2.31x met" in text  # 300k: 2x 150k
    assert "RLCard UNO 1.60x not met; OpenSpiel crazy_eights 1.85x not met" in text
    assert "  %-18s %-8s %9.0f %9.0f   RLCard UNO 4.00x met" % (
        "compiled (Cython)", "classic", 20000, 600000) in text
    assert "  the compiled engine plays as pure Python does: digests equal" in text


# -- the compiled engine (tools/bench/compiled.py): built only by the benchmark --------------

def pxd_declarations(path):
    """(class or None, function name, argument names) of each def in a .pxd file."""
    found = []
    cls = None
    for line in path.read_text().splitlines():
        match = re.match(r"cdef class (\w+)", line)
        if match:
            cls = match.group(1)
            continue
        match = re.match(r"( *)c?p?def [\w ]*?(\w+)\((.*)\)", line)
        if match:
            owner = cls if match.group(1) else None
            names = [arg.split("=")[0].split()[-1] for arg in match.group(3).split(",")
                     if arg.strip()]  # ("int only=*": the default is the source's)
            found.append((owner, match.group(2), names))
    return found


def test_the_cython_types_name_the_engine_functions_and_their_arguments():
    import importlib
    import inspect
    from tools.bench import compiled
    for module in compiled.MODULES:
        pure = importlib.import_module("engine." + module)
        declared = pxd_declarations(Path(compiled.PXD) / (module + ".pxd"))
        assert declared
        for cls, name, args in declared:
            function = getattr(getattr(pure, cls) if cls else pure, name)
            assert list(inspect.signature(function).parameters) == args, (module, name)


def test_the_source_the_build_compiles_plays_as_the_engine(tmp_path):
    from tools.bench import compiled
    (tmp_path / "engine").mkdir()
    for module in compiled.MODULES:
        (tmp_path / "engine" / (module + ".py")).write_text(compiled.folded_source(module))
    child = ("import engine; engine.__path__.insert(0, %r)\n"
             "from engine import rng, round\n"
             "assert rng.__file__.startswith(%r) and round.__file__.startswith(%r)\n"
             "from tools.bench.compiled import replay_digest; print(replay_digest())"
             % ((str(tmp_path / "engine"),) + (str(tmp_path),) * 2))
    done = subprocess.run([sys.executable, "-c", child], cwd=compiled.ROOT,
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == compiled.replay_digest()


def test_a_build_from_another_source_is_not_loaded(tmp_path, monkeypatch):
    from tools.bench import compiled
    monkeypatch.setattr(compiled, "STAMP", str(tmp_path / "SOURCE"))
    meta_path = list(sys.meta_path)
    assert compiled.built().startswith("not built")
    assert compiled.install().startswith("not built")
    (tmp_path / "SOURCE").write_text("0" * 64 + "\n")
    assert compiled.install().startswith("built from another source")
    assert sys.meta_path == meta_path


def test_compiled_figures_are_not_shown_unless_it_plays_as_pure_python(monkeypatch):
    from tools.bench import compiled, engine as bench_engine
    monkeypatch.setattr(compiled, "built", lambda: None)
    monkeypatch.setattr(compiled, "check", lambda: (False, "digest pure 1, compiled 2"))
    assert bench_engine.compiled_ready() == (
        "NOT SHOWN: it does not play as pure Python does (digest pure 1, compiled 2)", None)
    monkeypatch.setattr(compiled, "check", lambda: (True, "digest pure 1, compiled 1"))
    assert bench_engine.compiled_ready() == (None, "digest pure 1, compiled 1")


def firmware_report(board, direct=False):
    """A short game on one board through tools.bench.firmware: its row and both reports."""
    from tools.bench import firmware as bench_firmware
    row = bench_firmware.quickest([bench_firmware.summary(
        board, bench_firmware.measure(board, decisions=40, timeout=300, direct=direct))])
    out = io.StringIO()
    bench_firmware.report([row], out)
    bench_firmware.report_model([row], out)
    return row, out.getvalue()


def test_bench_firmware_prints_every_figure():
    """One board, a short game: the VM figures and the cost model's are all printed."""
    from tools.bench import firmware as bench_firmware
    row, text = firmware_report("pico_display")
    for needle in ("heap use", "move ms", "p90", "bytes", "Cost model", "bus clock", "pixels",
                   "full ms", "target"):
        assert needle in text, needle
    model = row["model"]
    assert model["hz"] == 62500000          # the wiring raised rp2's peripheral clock
    assert model["pixels"] > 0 and model["move"] > model["bus"] > 0
    assert row["moves"] > 0 and "pico_display" in text
    # the device loop's frames that drew nothing are counted and priced (most of a move's)
    assert "frames with nothing drawn" in text and row["empty_frames_move"] > 10
    assert 0 <= row["empty_ms_move"] < model["paint"]
    # the whole-screen canvas's pin calls and SPI writes are the shows': a whole screen is one
    # window (CASET, RASET, RAMWR: 7 pin calls, 5 writes), its 135 bands of a line and CS up
    assert not row["calls_in_paint"] and row["pin_calls_move"] > 0
    assert (row["full_pin_calls"], row["full_spi_writes"]) == (8, 5 + 135)
    assert "Pin calls and SPI writes a move in the redraws (pico_display in show)" in text
    # the fakes' Python is taken off the show and as many C calls put back, both as Python;
    # on a busy machine the timed call prices can exceed the show's own Python, and then the
    # show's CPU stops at the floor of its blitted pixels' price
    swap = (row["calls_fake_ms"] - row["calls_c_ms"]) * bench_firmware.PYTHON_FACTOR
    saved = row["model_fakes"]["show"] - model["show"]
    floor = model["pixels"] * row["show_us"] / 1000
    if model["show"] > floor + 1e-6:
        assert saved == pytest.approx(swap)
    else:
        assert 0 <= saved <= swap + 1e-6


def test_the_fakes_count_the_pin_calls_and_spi_writes_a_window_makes(monkeypatch):
    """tools.bench.firmware prices each fake Pin call and SPI write the redraws make as a C
    call: the fakes count them (value, __call__, on, off once each; every write), as many as
    their logs keep for a known window and fill."""
    from host_tests.conftest import unslept
    from tools.fakes import chipmodels
    unslept(monkeypatch)
    chipmodels.install_machine(monkeypatch)
    display = importlib.import_module("board_configs.pico_display").open_display()
    spi, pins = chipmodels.FakeSPI.made[0], (display.cs, display.dc)
    logged = (sum(len(p.writes) for p in pins), len(spi.log))   # what the fakes record
    before = chipmodels.pin_calls, chipmodels.spi_writes
    display.window(10, 20, 30, 40)          # cs(0), dc() before and after each of 5 writes
    assert (chipmodels.pin_calls - before[0], chipmodels.spi_writes - before[1]) \
        == (7, 5)
    assert (sum(len(p.writes) for p in pins) - logged[0], len(spi.log) - logged[1]) == (7, 5)
    before = chipmodels.pin_calls, chipmodels.spi_writes
    display.solid(0, 0, 240, 7, 0xF800)     # a window, 1,680 pixels in 7 bands, CS up
    assert (chipmodels.pin_calls - before[0], chipmodels.spi_writes - before[1]) \
        == (8, 5 + 7)
    pin = chipmodels.FakePin(99)
    before = chipmodels.pin_calls
    pin.on(), pin.off(), pin(1), pin.value(0), pin.value()
    assert chipmodels.pin_calls - before == 5


def test_bench_firmware_prices_the_direct_canvas_by_its_pieces_pixels():
    """On firmware.direct's canvas every drawing goes to the panel inside the paint: the
    bench counts the pixels its pieces expand (fewer than the bytes sent would say: one-colour
    fills are not expanded), prices them apart from the paint, and says so."""
    from tools.bench import firmware as bench_firmware
    row, text = firmware_report("pico_display", direct=True)
    model = row["model"]
    assert row["direct"] and "on firmware.direct's canvas (pico_display)" in text
    assert 0 < model["pixels"] < row["move_bytes"] / 2
    assert model["show"] == pytest.approx(model["pixels"] * row["show_us"] / 1000)
    assert model["move"] > model["paint"] > model["bus"] > 0 and row["flights"] == 0
    # the panel's pin calls are counted in the timed paint, each piece's and fill's exactly:
    # its window's 7 and CS raised after it (the pieces and fills counted apart, by Counted)
    frames = row["redraw_frames"]
    assert row["calls_in_paint"] and row["pin_calls_move"] * row["moves"] == 8 * frames
    assert row["spi_writes_move"] * row["moves"] >= 6 * frames    # 5 a window, a band at least
    # the fakes' Python is taken off the paint and as many C calls put back, both as Python
    assert row["model_fakes"]["paint"] - model["paint"] == pytest.approx(
        (row["calls_fake_ms"] - row["calls_c_ms"]) * bench_firmware.PYTHON_FACTOR)


def test_bench_firmware_prices_the_tdisplay_at_its_own_bus_and_beside_an_esp32():
    """The T-Display: a flight's pixels on the wire at its 40 MHz (not the RP2040's stock 24),
    and a line of its figures on an ESP32 at 160 MHz beside the RP2040 model's: the Python
    quicker by the cited ratio, the bus's bytes the same plus ESP-IDF's time for each SPI
    write, no target."""
    from tools.bench import firmware as bench_firmware
    row, text = firmware_report("tdisplay")
    assert "16 bits at the bus's 40.0 MHz" in text and "16 bits at 24 MHz" not in text
    rp2040, esp32 = row["model"], row["model_esp32"]
    assert "tdisplay          on an ESP32 at 160 MHz" in text
    writes = row["spi_writes_move"] * bench_firmware.ESP32_WRITE_US / 1000.0
    assert writes > 0 and esp32["bus"] == pytest.approx(rp2040["bus"] + writes)
    assert esp32["paint"] == pytest.approx(rp2040["paint"] / bench_firmware.ESP32_SPEED)
    assert esp32["move"] > esp32["bus"]


def test_bench_firmware_prints_the_experts_decision_time_at_every_table_size():
    """The Expert as shipped, timed through engine.ai at 2 to 6 players on the cost model,
    each size's longest pause past the pace against the 1 s target (issue 17's, which
    replaced 250 ms a decision: the search runs in slices while the last move is shown)."""
    from tools.bench import firmware as bench_firmware
    figures = bench_firmware.measure_expert(2)
    assert sorted(figures) == [2, 3, 4, 5, 6]
    assert all(calib > 0 and len(times) == 2 for calib, times in figures.values())
    out = io.StringIO()
    bench_firmware.report_expert(figures, out)
    text = out.getvalue()
    for players in range(2, 7):
        assert "%d players mean" % players in text
    assert "target at most 1000 ms" in text and "fit into the pace" in text
    # the pause is the slowest decision less the pace's search, cut at PAUSE_MS: never over
    from tools.bench.ai import PAUSE_MS
    pauses = [float(p) for p in re.findall(r"pause (\d+) ms", text)]
    assert len(pauses) == 5 and all(0 <= p <= PAUSE_MS for p in pauses), text
    assert len(re.findall(r"cut short \d+ of 2", text)) == 5, text


def test_bench_needs_hides_the_vms_python_binascii():
    """A board's binascii is C; the VM's is Python (7.5 KB, 45 names): in the evening
    firmware.save never loads it and sums with its own crc32_slow."""
    from tools.bench import needs
    from tools.vm import mpvm
    out = mpvm.run("import sys\nfrom evening import *\nimport firmware.save as save\n"
                   "print(save.crc32, getattr(sys.modules['binascii'], 'crc32', None))",
                   modules=("engine", "firmware"), extra_files=needs.harness_files()).check().stdout
    assert out.split() == ["None", "None"]


def test_bench_needs_pins_are_made_with_machine_as_a_ports_are_in_rom():
    """rp2 and esp32 keep their Pin objects in a table in ROM: the evening's Pin(n) hands
    out pin n, made with its machine module before the baseline, not a new object."""
    from tools.bench import needs
    from tools.vm import mpvm
    out = mpvm.run("from evening import *\nP = machine.Pin\n"
                   "print(P(21, P.IN, P.PULL_UP) is P(21) is P.made[21], P(21).value(),"
                   " P(4, P.OUT) is P.made[4], len(P.made))",
                   extra_files=needs.harness_files()).check().stdout
    assert out.split() == ["True", "1", "True", "48"]


def test_the_games_imports_make_fewer_than_1000_names():
    """The modules a Pico Display imports make fewer than 1,000 names in the VM's pool:
    with the harness's and the 150 or so an evening makes as it plays, the pool ends under
    its 1,261st name, where it would take a 9 KB chunk (docs/boards.md, Heap needs)."""
    from tools.bench import needs
    out = needs.run_evening("pico_display", 1, 0, False, timeout=300)[1]
    pools = [int(n) for n in re.findall(r"n_qstr=(\d+)", out)]
    base, imported = pools[0], pools[1]           # at the baseline, after the imports
    assert imported - base < 1000, (base, imported)


@pytest.mark.timeout(900)
def test_bench_needs_caps_the_heap_and_prints_every_figure():
    """An evening plays through uncapped and in a cap above its peak (saying where it is as
    it goes), runs out at the boot in one far below what it keeps live, and the report
    prints every figure, where the cap below its needs ran out among them."""
    from tools.bench import needs
    found = needs.profile("thumby", 1, False)
    assert found["matches"] == 1 and found["peak"] >= found["live"] > found["code"] > 0
    assert found["largest"] >= 1024
    # the VM's name pool takes a 9 KB chunk at its 1,261st name: the evening, every screen
    # of it seen, ends below (1,223 names with two matches on 7 Dec: the Thumby's the most)
    assert found["names"][-1] < 1261, found["names"]
    frames = found["frames"] + 2
    finished, out, _, why = needs.run_evening("thumby", 1, frames, False,
                                              found["peak"] + 24 * 1024, timeout=600,
                                              base=found["base"])
    assert finished and why == ""
    assert re.fullmatch(r"\d+:title", needs.ran_out_at(out))   # said as it went: its last
    # (8 KB cannot hold the app: the run stops at the boot with a MemoryError; its timeout
    # need only outlast a boot: with room, the VM's start, the boot and 100 frames of the
    # title take under a second here, the whole capped evening above some 2.5 s)
    finished, out, _, why = needs.run_evening("thumby", 1, frames, False, 8 * 1024,
                                              timeout=8, base=found["base"])
    assert not finished and why and needs.ran_out_at(out) == "the boot"   # 8 KB: not the app
    found.update(board="thumby", needs=found["peak"] + 24 * 1024,
                 ran_out=(found["peak"] - 4096, "45:scores", "MemoryError allocating 512 bytes"))
    out = io.StringIO()
    needs.report([found], [({}, dict(found, keeps=20416))], out)
    text = out.getvalue()
    for needle in ("Heap needs", "in use", "peak", "needs", "largest", "frozen est.", "ROMFS",
                   "files", "thumby", "real firmware est.", "names in the VM's pool",
                   "ran out", "at 45:scores (MemoryError allocating 512 bytes)"):
        assert needle in text, needle
    # the target is the real firmware's 96 KB, met at the estimate's high end: in the VM's
    # figures that is 96 x 1.075 = 103.2 KB, and 24 KB above the peak is not met
    row = [line.split() for line in text.splitlines() if line.startswith("thumby")][0]
    assert row[1] == "files" and row[5] == "103.2" and row[8] == "no", row
    assert "(target 96.0)" in text


def test_bench_needs_weighs_what_each_table_module_keeps_when_its_body_runs():
    """The frozen estimate's module objects: every module the table imports, each body run
    again keeping its functions and classes (more than nothing; the font's tables in gfx)."""
    from tools.bench import needs
    from tools.bench.firmware import load_order
    keeps = needs.module_keeps("thumby")
    assert set(keeps) == set(["firmware.main"] + load_order("thumby"))
    assert all(n > 0 for n in keeps.values()), keeps
    assert keeps["firmware.gfx"] > keeps["engine.cards"], keeps


def test_bench_opcodes_counts_a_game_exactly_and_prints_it_a_move(capsys):
    """The redraw's Python counted over the bench's game: the same counts on every run (the
    figure a cut is read by where milliseconds swing), the canvas's marking among them."""
    from tools.bench import opcodes
    first, again = opcodes.count("thumby", 30), opcodes.count("thumby", 30)
    assert first["moves"] > 0 and first["shows"] > 0
    assert first["ops"] == again["ops"] and first["calls"] == again["calls"]
    assert first["ops"][("boxes.py", "mark")] > 0 and first["ops"][("ssd1306.py", "show")] > 0
    opcodes.report("thumby", first)
    text = capsys.readouterr().out
    assert "opcodes a move: painter" in text and "boxes.py:mark" in text and "shows a move" in text
