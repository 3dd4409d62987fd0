# Freeze Mau-Mau into a MicroPython firmware build (the modules then live in flash as
# bytecode: nothing to copy, less RAM to import). From a MicroPython checkout:
#
#   make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/mau-mau/manifest.py
#
# then put board.py (BOARD = "pico_display") and main.py (from firmware.main import run;
# run()) on the board. docs/deploy.md has the details.

include("$(PORT_DIR)/boards/manifest.py")  # the port's usual frozen modules

package("engine")
package("firmware")
package("board_configs")
