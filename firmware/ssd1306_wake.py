"""The SSD1306's power-on, and its sleep and brightness (which the game does not use).

firmware.ssd1306's SSD1306 runs `wake` once when it is made and lets go of this module, so
that none of this code stays in the heap while the game is played. `power` and `contrast`
are here for a maker's board that wants them (import, call, let go).
"""
from engine.compat import const

_SET_MEMORY_MODE = const(0x20)    # 0 horizontal, 1 vertical, 2 page
_SET_CONTRAST = const(0x81)
_SET_CHARGE_PUMP = const(0x8D)
_SET_IREF = const(0xAD)           # internal current reference (the Thumby's panel wants it)
_SEG_REMAP = const(0xA1)          # column 127 on the left: upright on the usual modules
_DISPLAY_RAM = const(0xA4)
_NORMAL = const(0xA6)
_DISPLAY_OFF = const(0xAE)
_DISPLAY_ON = const(0xAF)
_SET_MUX = const(0xA8)
_COM_SCAN_DOWN = const(0xC8)
_SET_OFFSET = const(0xD3)
_SET_CLOCK = const(0xD5)
_SET_PRECHARGE = const(0xD9)
_SET_COM_PINS = const(0xDA)
_SET_VCOM = const(0xDB)
_START_LINE_0 = const(0x40)


def wake(panel, iref):
    """Configure and switch on: charge pump, multiplex, horizontal addressing (the panel's
    RAM then unknown: the next show sends the whole screen)."""
    panel.forget()
    for code in (_DISPLAY_OFF, _SET_CLOCK, 0x80, _SET_MUX, panel.height - 1,
                 _SET_OFFSET, 0, _START_LINE_0, _SET_CHARGE_PUMP, 0x14,
                 _SET_MEMORY_MODE, 0, _SEG_REMAP, _COM_SCAN_DOWN,
                 _SET_COM_PINS, 0x02 if panel.height == 32 else 0x12,
                 _SET_CONTRAST, 0xCF, _SET_PRECHARGE, 0xF1, _SET_VCOM, 0x40):
        panel.command(code)
    if iref:
        panel.command(_SET_IREF)
        panel.command(0x30)
    for code in (_DISPLAY_RAM, _NORMAL, _DISPLAY_ON):
        panel.command(code)


def contrast(panel, level):
    """Brightness 0..255."""
    panel.command(_SET_CONTRAST)
    panel.command(level)


def power(panel, on):
    """Panel on or off (sleep mode)."""
    if on:   # sleep keeps the RAM, but a board may cut the panel's supply meanwhile
        panel.forget()
    panel.command(_DISPLAY_ON if on else _DISPLAY_OFF)
