"""pytest setup shared by every host test."""
import os
from importlib.machinery import SourceFileLoader

import pytest

from tools.sim import install_framebuf

# Firmware modules `import framebuf`; on CPython that is the simulator's byte-identical copy.
install_framebuf()


def keep_compiled_code():
    """The project's modules compiled once per worker, as a .pyc would keep them: the
    firmware forgets modules (engine.compat.forget) and imports them again, each time a new
    module run from its source read anew; with PYTHONDONTWRITEBYTECODE set each such import
    compiled it again. Keyed by the source's bytes, so an edited file compiles anew."""
    compile_source = SourceFileLoader.source_to_code
    if getattr(compile_source, "keeps_code", False):
        return          # done (this file imported again, as host_tests.conftest)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ours = tuple(os.path.join(root, folder) + os.sep
                 for folder in ("engine", "firmware", "board_configs", "tools"))
    compiled = {}

    def source_to_code(self, data, path, *, _optimize=-1):
        if not (isinstance(path, str) and path.startswith(ours)):
            return compile_source(self, data, path, _optimize=_optimize)
        key = (path, _optimize, bytes(data))
        code = compiled.get(key)
        if code is None:
            code = compiled[key] = compile_source(self, data, path, _optimize=_optimize)
        return code

    source_to_code.keeps_code = True
    SourceFileLoader.source_to_code = source_to_code


keep_compiled_code()


@pytest.fixture()
def st7789_bus(monkeypatch):
    """The fake SPI bus with an ST7789's DC on GPIO 16 and CS on 17; its waits not slept."""
    from tools.fakes import chipmodels
    chipmodels.reset_fakes()
    chipmodels.wire_spi(16, 17)
    unslept(monkeypatch)
    yield
    chipmodels.reset_fakes()


def unslept(monkeypatch, wait=lambda ms: None):
    """The display drivers' reset waits handed to `wait`, not slept: firmware.ssd1306_spi's,
    and the ST7789's in firmware.st7789_wake (imported anew for each panel, its sleep_ms
    then engine.compat's)."""
    from engine import compat
    from firmware import ssd1306_spi, st7789_wake
    for module in (compat, st7789_wake, ssd1306_spi):
        monkeypatch.setattr(module, "sleep_ms", wait)
