"""One module per supported board: its data (screen, layout, keys, pins) and its wiring.

`board.py` on the device names the board (`BOARD = "pico_display"`); the simulator takes
`--board`. The helpers below are the wiring the configs share: each imports `machine`
and a driver only when called, so the data can be read anywhere. A board with a
speaker or buzzer has `open_sound()`; the others have none and never load firmware.sound.

The bus is made before the control pins on purpose: on the RP2040, SPI0 without a
`miso` takes its default MISO pin, GP16, which is DC on the Pico Display and CS on the
Thumby; making that Pin afterwards gives it back to the driver.
"""


def rp2_peripheral_clock():
    """Clock an RP2040's peripherals from the CPU clock: stock MicroPython takes them from
    the 48 MHz USB PLL, where SPI runs at 24 MHz at most (62.5 MHz asked or not) and 10 MHz
    asked gives 8 MHz. `machine.freq`'s second argument is rp2's: only RP2040 configs call
    this."""
    import machine
    hz = machine.freq()
    machine.freq(hz, hz)


def st7789_display(spi_id, baudrate, sck, mosi, cs, dc, rst, backlight, rotation):
    """An ST7789 135x240 panel on SPI, turned to landscape (rotation 90 or 270)."""
    from machine import Pin, SPI
    from firmware.st7789 import ST7789
    from firmware.st7789_wake import panel_135x240
    spi = SPI(spi_id, baudrate=baudrate, polarity=0, phase=0, sck=Pin(sck), mosi=Pin(mosi))
    width, height, madctl, x_offset, y_offset = panel_135x240(rotation)
    return ST7789(spi, Pin(dc, Pin.OUT), Pin(cs, Pin.OUT), width, height, x_offset, y_offset,
                  madctl, rst=None if rst is None else Pin(rst, Pin.OUT),
                  backlight=None if backlight is None else Pin(backlight, Pin.OUT))


def ssd1306_i2c_display(i2c_id, freq, sda, scl, addr, width, height):
    """An SSD1306 on I2C."""
    from machine import Pin, I2C
    from firmware.ssd1306_i2c import SSD1306_I2C
    i2c = I2C(i2c_id, sda=Pin(sda), scl=Pin(scl), freq=freq)
    if addr not in i2c.scan():
        raise OSError("no display answers at 0x%02x on I2C%d (SDA GP%d, SCL GP%d): check"
                      " the wiring and the module's address jumper" % (addr, i2c_id, sda, scl))
    return SSD1306_I2C(i2c, width, height, addr)


def ssd1306_spi_display(spi_id, baudrate, sck, mosi, cs, dc, rst, width, height, col_offset,
                        iref=False):
    """An SSD1306 on 4-wire SPI."""
    from machine import Pin, SPI
    from firmware.ssd1306_spi import SSD1306_SPI
    spi = SPI(spi_id, baudrate=baudrate, polarity=0, phase=0, sck=Pin(sck), mosi=Pin(mosi))
    return SSD1306_SPI(spi, Pin(dc, Pin.OUT), Pin(cs, Pin.OUT), width, height,
                       rst=None if rst is None else Pin(rst, Pin.OUT),
                       col_offset=col_offset, iref=iref)


def buttons(keys, no_pull=()):
    """The board's buttons, debounced (see firmware/buttons.py)."""
    from firmware.buttons import Buttons
    return Buttons(keys, no_pull)


def pwm_sound(gpio):
    """A buzzer on a PWM pin, played by firmware.sound."""
    from machine import Pin, PWM
    from firmware.sound import Sound
    return Sound(PWM(Pin(gpio)))
