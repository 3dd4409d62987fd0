"""pytest setup shared by every host test."""
import pytest

from tools.sim import install_framebuf

# Firmware modules `import framebuf`; on CPython that is the simulator's byte-identical copy.
install_framebuf()


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
