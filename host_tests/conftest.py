"""pytest setup shared by every host test."""
import pytest

from tools.sim import install_framebuf

# Firmware modules `import framebuf`; on CPython that is the simulator's byte-identical copy.
install_framebuf()


@pytest.fixture()
def st7789_bus(monkeypatch):
    """The fake SPI bus with an ST7789's DC on GPIO 16 and CS on 17; its waits not slept."""
    from firmware import st7789
    from tools.fakes import chipmodels
    chipmodels.reset_fakes()
    chipmodels.wire_spi(16, 17)
    monkeypatch.setattr(st7789, "sleep_ms", lambda ms: None)
    yield
    chipmodels.reset_fakes()
