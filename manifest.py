# Freeze Mau-Mau into a MicroPython firmware build (the modules then live in flash as
# bytecode: nothing to copy, less RAM to import). From a MicroPython checkout:
#
#   make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/mau-mau/manifest.py
#
# then put board.py (BOARD = "pico_display") and main.py (from firmware.main import run;
# run()) on the board. docs/deploy.md has the details. MicroPython's build runs this file
# with the current folder set to the folder it is in.
import os


def micropython_modules(folder):
    """The .py files of `folder` a MicroPython board runs: not CircuitPython's displayio back
    end (*_dio.py, cp_main.py), nor the configs of CircuitPython boards (DISPLAYIO = True),
    nor CPython's stand-ins for MicroPython's built-ins (engine/cpython.py), nor the
    engine's self-play and replay log, which the laptop's tools run and the game never
    imports (engine/autoplay.py, engine/replay.py)."""
    names = []
    for name in sorted(os.listdir(folder)):
        if (not name.endswith(".py") or name.endswith("_dio.py")
                or name in ("cp_main.py", "cpython.py", "autoplay.py", "replay.py")):
            continue
        with open(os.path.join(folder, name)) as f:
            if "\nDISPLAYIO = True" not in f.read():
                names.append(name)
    return names


include("$(PORT_DIR)/boards/manifest.py")  # the port's usual frozen modules

# opt=3 (mpy-cross -O3, as tools/vm/build_mpy.py compiles device code): no line numbers
# in the bytecode, no asserts
package("engine", files=micropython_modules("engine"), opt=3)
package("firmware", files=micropython_modules("firmware"), opt=3)
package("board_configs", files=micropython_modules("board_configs"), opt=3)
