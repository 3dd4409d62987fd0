"""Stand-ins for the hardware: fake machine.Pin/SPI/I2C/PWM that record, and controller models.

The fakes let drivers and board configs run without a board, on CPython (via
`install_machine`) and inside the MicroPython VM (this file, written in the subset both
run, doubles there as the `machine` module). The models (`ST7789Model`, `SSD1306Model`)
read what a driver sent and turn the byte stream into the pixels the panel would show.
"""
import sys

# Calls on the fakes, counted even when nothing is recorded (tools/bench/firmware.py prices each
# as a C call): value/__call__/on/off on any fake pin (each once, in value), write on any fake
# SPI. Module globals: an increment of one costs a tenth of a class attribute's in the VM
# (about 0.1 against 0.85 us), and the fakes' Python is timed inside the redraws.
pin_calls = 0
spi_writes = 0


class FakePin:
    """machine.Pin: inputs read `level` (1 = released with a pull-up); outputs log writes."""

    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    made = {}      # GPIO -> the last FakePin made for it
    record = True  # log output writes (benchmarks turn it off: the log grows)

    def __init__(self, gpio, mode=-1, pull=-1, value=None):
        self.gpio = gpio
        self.mode = mode
        self.pull = pull
        self.level = 1
        self.writes = []
        if value is not None:
            self.value(value)
        FakePin.made[gpio] = self

    def init(self, mode=-1, pull=-1, value=None):
        """Reconfigure like machine.Pin.init."""
        if mode != -1:
            self.mode = mode
        if pull != -1:
            self.pull = pull
        if value is not None:
            self.value(value)

    def value(self, level=None):
        """Read the level, or drive it (and log the write)."""
        global pin_calls
        pin_calls += 1
        if level is None:
            return self.level
        self.level = 1 if level else 0
        if FakePin.record:
            self.writes.append(self.level)
        return None

    def on(self):
        """Drive high."""
        self.value(1)

    def off(self):
        """Drive low."""
        self.value(0)

    def __call__(self, level=None):
        return self.value(level)


def reset_fakes():
    """Forget every pin and bus made so far."""
    FakePin.made = {}
    FakeSPI.dc_gpio = FakeSPI.cs_gpio = None
    FakeSPI.made = []
    FakeSPI.record = FakePin.record = True
    FakeI2C.made = []
    FakePWM.made = []
    FakePWM.record = True
    Clocks.cpu_hz, Clocks.peripheral_hz = 125000000, 48000000


def wire_spi(dc, cs):
    """Tell the fake SPI buses which GPIOs are the display's DC and CS (before it opens)."""
    FakeSPI.dc_gpio = dc
    FakeSPI.cs_gpio = cs


class FakeSPI:
    """machine.SPI: records each write made with CS low as (DC level, bytes)."""

    made = []
    dc_gpio = None
    cs_gpio = None

    def __init__(self, bus_id, baudrate=1000000, polarity=0, phase=0, bits=8,
                 firstbit=0, sck=None, mosi=None, miso=None):
        self.bus_id = bus_id
        self.baudrate = baudrate
        self.polarity = polarity
        self.phase = phase
        self.sck = sck
        self.mosi = mosi
        self.log = []       # (dc level, bytes) of writes made with CS low
        self.ignored = 0    # bytes written with CS high (the chip does not listen)
        FakeSPI.made.append(self)

    def init(self, baudrate=None, **kw):
        """Change the bus speed like machine.SPI.init."""
        if baudrate is not None:
            self.baudrate = baudrate

    record = True   # keep what is written (benchmarks turn it off)
    sent = 0        # bytes written on any fake SPI, counted even when not recorded

    def write(self, data):
        """Record bytes sent with the DC level at that moment."""
        global spi_writes
        FakeSPI.sent += len(data)
        spi_writes += 1
        if not FakeSPI.record:
            return
        cs = FakePin.made.get(FakeSPI.cs_gpio)
        if cs is not None and cs.level:
            self.ignored += len(data)
            return
        dc = FakePin.made.get(FakeSPI.dc_gpio)
        self.log.append((dc.level if dc is not None else 1, bytes(data)))


class FakeI2C:
    """machine.I2C: records writeto/writevto per address; scan() lists the devices."""

    made = []
    sent = 0        # bytes on any fake I2C bus, each transaction's address byte included

    def __init__(self, bus_id, scl=None, sda=None, freq=400000):
        self.bus_id = bus_id
        self.scl = scl
        self.sda = sda
        self.freq = freq
        self.devices = (0x3C,)
        self.log = []       # (address, bytes) per transaction
        FakeI2C.made.append(self)

    def scan(self):
        """The addresses that answer."""
        return list(self.devices)

    def writeto(self, addr, data, stop=True):
        """One transaction: the address, then the bytes."""
        self._check(addr)
        FakeI2C.sent += 1 + len(data)
        if FakeSPI.record:
            self.log.append((addr, bytes(data)))
        return len(data)

    def writevto(self, addr, vector, stop=True):
        """One transaction made of several buffers (sent back to back). As on rp2
        (extmod/machine_i2c.c, mp_machine_i2c_transfer_adaptor), the buffers are first
        copied into one new heap block of their total length, on every call."""
        self._check(addr)
        total = 0
        for part in vector:
            total += len(part)
        joined = bytearray(total)
        at = 0
        for part in vector:
            joined[at:at + len(part)] = part
            at += len(part)
        FakeI2C.sent += 1 + total
        if FakeSPI.record:
            self.log.append((addr, bytes(joined)))
        return total

    def _check(self, addr):
        if addr not in self.devices:
            raise OSError(19)  # ENODEV: nobody acknowledged


class FakePWM:
    """machine.PWM: logs each freq(hz) and duty_u16(duty) set as ("freq", hz) / ("duty", d)."""

    made = []
    record = True   # off: only the last values are kept (allocation-free)

    def __init__(self, pin=None, freq=0, duty_u16=0):
        self.pin = pin
        self.hz = freq
        self.duty = duty_u16
        self.writes = []
        FakePWM.made.append(self)

    def freq(self, hz=None):
        """Read the frequency, or set it."""
        if hz is None:
            return self.hz
        self.hz = hz
        if FakePWM.record:
            self.writes.append(("freq", hz))
        return None

    def duty_u16(self, duty=None):
        """Read the duty (0-65535), or set it."""
        if duty is None:
            return self.duty
        self.duty = duty
        if FakePWM.record:
            self.writes.append(("duty", duty))
        return None

    def deinit(self):
        """Stop the output."""
        self.duty = 0


class Clocks:
    """An RP2040's clocks as `machine.freq` sets them: stock MicroPython runs the CPU at
    125 MHz and clocks the peripherals (clk_peri: SPI) from the 48 MHz USB PLL."""

    cpu_hz = 125000000
    peripheral_hz = 48000000


def freq(hz=None, peripheral_hz=None):
    """machine.freq as on rp2: the CPU clock, or set it (and with a second argument the
    peripheral clock, which must be 48 MHz or the CPU's)."""
    if hz is None:
        return Clocks.cpu_hz
    if peripheral_hz is not None and peripheral_hz not in (48000000, hz):
        raise ValueError("peripheral freq must be 48_000_000 or the same as the CPU frequency")
    Clocks.cpu_hz = hz
    if peripheral_hz is not None:
        Clocks.peripheral_hz = peripheral_hz


def rp2_spi_baud(asked, peripheral_hz):
    """The SPI clock an RP2040 really makes for `asked` Hz (the pico-sdk's spi_set_baudrate:
    an even prescale 2..254, then a post-divider 1..256)."""
    prescale = 2
    while prescale < 254 and peripheral_hz >= (prescale + 2) * 256 * asked:
        prescale += 2
    postdiv = 256
    while postdiv > 1 and peripheral_hz // (prescale * (postdiv - 1)) <= asked:
        postdiv -= 1
    return peripheral_hz // (prescale * postdiv)


# the `machine` module of the MicroPython VM (pass as extra_files={"/lib/machine.py": ...})
VM_MACHINE = ("from chipmodels import FakePin as Pin, FakeSPI as SPI, FakeI2C as I2C,"
              " FakePWM as PWM, freq\n")


def install_machine(monkeypatch):
    """Make `import machine` give the fakes in this CPython process (pytest monkeypatch)."""
    import types
    reset_fakes()
    module = types.ModuleType("machine")
    module.Pin, module.SPI, module.I2C, module.PWM = FakePin, FakeSPI, FakeI2C, FakePWM
    module.freq = freq
    monkeypatch.setitem(sys.modules, "machine", module)
    return module


# --- controller models ---------------------------------------------------------------

ST_CASET = 0x2A
ST_RASET = 0x2B
ST_RAMWR = 0x2C
ST_MADCTL = 0x36
ST_COLMOD = 0x3A
ST_ARGS = {ST_CASET: 4, ST_RASET: 4, ST_MADCTL: 1, ST_COLMOD: 1}
ST_NO_ARGS = (0x00, 0x01, 0x10, 0x11, 0x12, 0x13, 0x20, 0x21, 0x28, 0x29)


class ST7789Model:
    """An ST7789: 240x320 pixels of RAM, of which the panel shows a window.

    The panel's native (portrait) window is `panel_w` x `panel_h` at RAM column
    `col_start`, row `row_start` (a 135x240 panel: 52, 40). MADCTL maps the addresses
    the MCU sends to RAM: MV exchanges them, then MX mirrors the column, MY the row.
    """

    RAM_W = 240
    RAM_H = 320

    def __init__(self, panel_w=135, panel_h=240, col_start=52, row_start=40):
        self.panel_w, self.panel_h = panel_w, panel_h
        self.col_start, self.row_start = col_start, row_start
        self.ram = bytearray(self.RAM_W * self.RAM_H * 2)
        self.written = bytearray(self.RAM_W * self.RAM_H)
        self.madctl = 0
        self.colmod = 0x66          # 18-bit after reset; drivers must set 16-bit
        self.awake = False
        self.on = False
        self.inverted = False
        self.cols = (0, self.RAM_W - 1)
        self.rows = (0, self.RAM_H - 1)
        self.command = None
        self.args = []
        self.writing = False
        self.cursor = (0, 0)
        self.half = -1              # first byte of a pixel, waiting for the second
        self.pixels = 0             # pixels written since the model was made
        self.unknown = []           # commands the model does not know

    def feed_log(self, log):
        """Consume (dc, bytes) records from a FakeSPI, in order."""
        for dc, data in log:
            self.feed(dc, data)

    def feed(self, dc, data):
        """Bytes sent with DC low are commands, with DC high parameters or pixels."""
        if not dc:
            for b in data:
                self._command(b)
        elif self.writing:
            self._pixels(data)
        else:
            for b in data:
                self._argument(b)

    def _command(self, code):
        self.command = code
        self.args = []
        self.writing = False
        self.half = -1
        if code == 0x01:
            self.__init__(self.panel_w, self.panel_h, self.col_start, self.row_start)
        elif code == 0x11:
            self.awake = True
        elif code == 0x10:
            self.awake = False
        elif code == 0x29:
            self.on = True
        elif code == 0x28:
            self.on = False
        elif code == 0x21:
            self.inverted = True
        elif code == 0x20:
            self.inverted = False
        elif code == ST_RAMWR:
            self.writing = True
            self.cursor = (self.cols[0], self.rows[0])
        elif code not in ST_ARGS and code not in ST_NO_ARGS:
            self.unknown.append(code)

    def _argument(self, b):
        code = self.command
        self.args.append(b)
        if len(self.args) != ST_ARGS.get(code, -1):
            return
        a = self.args
        if code == ST_CASET:
            self.cols = (a[0] << 8 | a[1], a[2] << 8 | a[3])
        elif code == ST_RASET:
            self.rows = (a[0] << 8 | a[1], a[2] << 8 | a[3])
        elif code == ST_MADCTL:
            self.madctl = a[0]
        elif code == ST_COLMOD:
            self.colmod = a[0]

    def _pixels(self, data):
        if self.colmod & 0x07 != 0x05:
            raise AssertionError("pixels sent before COLMOD chose 16-bit colour")
        i, n = 0, len(data)
        if self.half >= 0 and n:
            self._store(self.half << 8 | data[0])
            self.half = -1
            i = 1
        c, r = self.cursor
        c0, c1 = self.cols
        r0, r1 = self.rows
        put = self.ram_put
        while i + 1 < n:
            put(c, r, data[i] << 8 | data[i + 1])
            i += 2
            c += 1
            if c > c1:
                c = c0
                r += 1
                if r > r1:
                    r = r0
        self.cursor = (c, r)
        if i < n:
            self.half = data[i]

    def _store(self, colour):
        c, r = self.cursor
        self.ram_put(c, r, colour)
        c += 1
        if c > self.cols[1]:
            c = self.cols[0]
            r += 1
            if r > self.rows[1]:
                r = self.rows[0]
        self.cursor = (c, r)

    def ram_put(self, c, r, colour):
        """Store one pixel at MCU address (column c, row r) through MADCTL."""
        m = self.madctl
        if m & 0x20:
            c, r = r, c
        if m & 0x40:
            c = self.RAM_W - 1 - c
        if m & 0x80:
            r = self.RAM_H - 1 - r
        self.pixels += 1
        if 0 <= c < self.RAM_W and 0 <= r < self.RAM_H:
            i = r * self.RAM_W + c
            self.ram[2 * i] = colour >> 8
            self.ram[2 * i + 1] = colour & 0xFF
            self.written[i] = 1

    def pixel(self, col, row):
        """The RGB565 colour at panel position (col, row) in its native orientation; -1 if never written."""
        c = self.col_start + col
        r = self.row_start + row
        i = r * self.RAM_W + c
        if not self.written[i]:
            return -1
        return self.ram[2 * i] << 8 | self.ram[2 * i + 1]

    def view(self, quarter_turns):
        """The panel's picture turned counter-clockwise by quarter_turns: rows of colours."""
        w, h = self.panel_w, self.panel_h
        turns = quarter_turns % 4
        out_w, out_h = (h, w) if turns % 2 else (w, h)
        rows = []
        for y in range(out_h):
            row = []
            for x in range(out_w):
                if turns == 0:
                    col, r = x, y
                elif turns == 1:
                    col, r = w - 1 - y, x
                elif turns == 2:
                    col, r = w - 1 - x, h - 1 - y
                else:
                    col, r = y, h - 1 - x
                row.append(self.pixel(col, r))
            rows.append(row)
        return rows

    def written_outside(self):
        """How many RAM pixels outside the panel's window were written (should be 0)."""
        n = 0
        for r in range(self.RAM_H):
            inside_r = self.row_start <= r < self.row_start + self.panel_h
            base = r * self.RAM_W
            for c in range(self.RAM_W):
                if self.written[base + c] and not (
                        inside_r and self.col_start <= c < self.col_start + self.panel_w):
                    n += 1
        return n

    def problems(self):
        """What keeps the panel from showing a picture (empty list when it shows one)."""
        out = []
        if not self.awake:
            out.append("still asleep (no SLPOUT)")
        if not self.on:
            out.append("display off (no DISPON)")
        if self.colmod & 0x07 != 0x05:
            out.append("colour mode not 16-bit")
        if self.unknown:
            out.append("unknown commands %r" % (self.unknown,))
        if self.half >= 0:
            out.append("half a pixel left over")
        return out


SSD_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1,
            0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}


class SSD1306Model:
    """An SSD1306: 128 columns x 8 pages of RAM; the glass shows `glass_w` x `glass_h`.

    The glass's columns start at RAM column `col_offset` (with segment remap on, the
    usual upright mounting); its rows are the multiplexed COM lines, scanned downwards
    (COM_SCAN_DOWN) for an upright picture.
    """

    def __init__(self, glass_w=128, glass_h=64, col_offset=0):
        self.glass_w, self.glass_h, self.col_offset = glass_w, glass_h, col_offset
        self.ram = bytearray(128 * 8)
        self.written = bytearray(128 * 8)
        self.mode = 2               # page addressing after reset
        self.cols = (0, 127)
        self.pages = (0, 7)
        self.col = 0
        self.page = 0
        self.mux = 63
        self.on = False
        self.pump = False
        self.remap = False
        self.scan_down = False
        self.start_line = 0
        self.offset = 0
        self.inverse = False
        self.all_on = False
        self.command = None
        self.args = []
        self.unknown = []
        self.data_bytes = 0

    def feed_spi_log(self, log):
        """Consume (dc, bytes) records from a FakeSPI: DC low commands, DC high RAM data."""
        for dc, data in log:
            for b in data:
                if dc:
                    self.data(b)
                else:
                    self.cmd_byte(b)

    def feed_i2c_log(self, log, addr=0x3C):
        """Consume (address, bytes) I2C transactions: control bytes pick commands or data."""
        for a, data in log:
            if a != addr:
                continue
            i = 0
            n = len(data)
            while i < n:
                control = data[i]
                i += 1
                is_data = control & 0x40
                if control & 0x80:        # Co = 1: one byte, then another control byte
                    if i < n and is_data:
                        self.data(data[i])
                    elif i < n:
                        self.cmd_byte(data[i])
                    i += 1
                    continue
                for b in data[i:]:        # Co = 0: the rest of the transaction
                    if is_data:
                        self.data(b)
                    else:
                        self.cmd_byte(b)
                break

    def cmd_byte(self, b):
        """One byte of the command stream (a command or one of its arguments)."""
        if self.command is not None:
            self.args.append(b)
            if len(self.args) == SSD_ARGS[self.command]:
                code, self.command = self.command, None
                self._with_args(code, self.args)
            return
        if b in SSD_ARGS:
            self.command = b
            self.args = []
            return
        self._simple(b)

    def _with_args(self, code, a):
        if code == 0x20:
            self.mode = a[0] & 3
        elif code == 0x21:
            self.cols = (a[0] & 127, a[1] & 127)
            self.col = self.cols[0]
        elif code == 0x22:
            self.pages = (a[0] & 7, a[1] & 7)
            self.page = self.pages[0]
        elif code == 0x8D:
            self.pump = bool(a[0] & 0x04)
        elif code == 0xA8:
            self.mux = a[0] & 63
        elif code == 0xD3:
            self.offset = a[0] & 63

    def _simple(self, b):
        if 0x40 <= b <= 0x7F:
            self.start_line = b - 0x40
        elif b in (0xA0, 0xA1):
            self.remap = b == 0xA1
        elif b in (0xC0, 0xC8):
            self.scan_down = b == 0xC8
        elif b in (0xA4, 0xA5):
            self.all_on = b == 0xA5
        elif b in (0xA6, 0xA7):
            self.inverse = b == 0xA7
        elif b in (0xAE, 0xAF):
            self.on = b == 0xAF
        elif 0xB0 <= b <= 0xB7 and self.mode == 2:
            self.page = b - 0xB0
        elif b <= 0x0F and self.mode == 2:
            self.col = (self.col & 0xF0) | b
        elif 0x10 <= b <= 0x1F and self.mode == 2:
            self.col = (self.col & 0x0F) | (b - 0x10) << 4
        elif b == 0x2E:
            pass                          # scrolling off
        else:
            self.unknown.append(b)

    def data(self, b):
        """One byte into RAM at the address pointer, which then moves per addressing mode."""
        i = self.page * 128 + self.col
        self.ram[i] = b
        self.written[i] = 1
        self.data_bytes += 1
        if self.mode == 0:
            self.col += 1
            if self.col > self.cols[1]:
                self.col = self.cols[0]
                self.page += 1
                if self.page > self.pages[1]:
                    self.page = self.pages[0]
        elif self.mode == 1:
            self.page += 1
            if self.page > self.pages[1]:
                self.page = self.pages[0]
                self.col += 1
                if self.col > self.cols[1]:
                    self.col = self.cols[0]
        else:
            self.col = self.col + 1 if self.col < 127 else self.cols[0]

    def pixel(self, x, y):
        """What the glass shows at (x, y): 1 lit, 0 dark, -1 RAM never written."""
        c = self.col_offset + x if self.remap else 127 - (self.col_offset + x)
        r = y if self.scan_down else self.mux - y
        r = (r + self.start_line + self.offset) & 63
        i = (r >> 3) * 128 + c
        if not self.written[i]:
            return -1
        lit = self.ram[i] >> (r & 7) & 1
        return lit ^ 1 if self.inverse else lit

    def view(self):
        """The glass's picture: rows of 0/1 (-1 where RAM was never written)."""
        return [[self.pixel(x, y) for x in range(self.glass_w)] for y in range(self.glass_h)]

    def written_outside(self):
        """RAM bytes written outside the glass's columns and pages (should be 0)."""
        n = 0
        pages = (self.glass_h + 7) // 8
        for i in range(128 * 8):
            c, p = i % 128, i // 128
            if self.written[i] and not (self.col_offset <= c < self.col_offset + self.glass_w
                                        and p < pages):
                n += 1
        return n

    def problems(self):
        """What keeps the glass from showing the RAM as it is (empty list when nothing)."""
        out = []
        if not self.on:
            out.append("display off")
        if not self.pump:
            out.append("charge pump off")
        if self.mux != self.glass_h - 1:
            out.append("multiplex %d for %d rows" % (self.mux + 1, self.glass_h))
        if self.all_on:
            out.append("entire display on")
        if self.unknown:
            out.append("unknown commands %r" % (self.unknown,))
        if self.command is not None:
            out.append("command 0x%02x waits for arguments" % self.command)
        return out


# --- what the app drew --------------------------------------------------------------

def canvas_colours(canvas):
    """The canvas as the panel should show it: rows of RGB565 (depth 4) or 0/1 (mono)."""
    fb, pal = canvas.fb, canvas.palette
    rows = []
    for y in range(canvas.height):
        if pal is None:
            rows.append([fb.pixel(x, y) for x in range(canvas.width)])
        else:
            rows.append([pal[fb.pixel(x, y)] for x in range(canvas.width)])
    return rows


def first_difference(seen, wanted):
    """(x, y, seen, wanted) of the first pixel that differs, or None."""
    if len(seen) != len(wanted) or len(seen[0]) != len(wanted[0]):
        return ("size", len(seen[0]), len(seen), (len(wanted[0]), len(wanted)))
    for y in range(len(wanted)):
        if seen[y] != wanted[y]:
            for x in range(len(wanted[y])):
                if seen[y][x] != wanted[y][x]:
                    return (x, y, seen[y][x], wanted[y][x])
    return None


class PlainCanvas:
    """The part of firmware.gfx.Canvas a driver reads: buf, fb, palette, width, height."""

    def __init__(self, width, height, depth, palette=None):
        import framebuf
        self.width, self.height, self.depth = width, height, depth
        if depth == 4:
            self.buf = bytearray((width + 1) // 2 * height)
            self.fb = framebuf.FrameBuffer(self.buf, width, height, framebuf.GS4_HMSB)
            self.palette = palette if palette is not None else tuple(
                (i * 0x0841 + 0x1234 * (i & 1)) & 0xFFFF for i in range(16))
        else:
            self.buf = bytearray(width * ((height + 7) // 8))
            self.fb = framebuf.FrameBuffer(self.buf, width, height, framebuf.MONO_VLSB)
            self.palette = None


def scribble(canvas, rng, count):
    """Draw `count` random filled rectangles, some text; return their (x, y, w, h) boxes."""
    colours = 16 if canvas.palette is not None else 2
    boxes = []
    for _ in range(count):
        w = 1 + rng.below(canvas.width // 2)
        h = 1 + rng.below(canvas.height // 2)
        x = rng.below(canvas.width - w + 1)
        y = rng.below(canvas.height - h + 1)
        canvas.fb.fill_rect(x, y, w, h, rng.below(colours))
        if w >= 8 and h >= 8:
            canvas.fb.text("7", x, y, rng.below(colours))
        boxes.append((x, y, w, h))
    return boxes


# --- a whole board on the fakes -----------------------------------------------------

def model_for(board):
    """(controller model, function feeding it what the board's bus recorded so far)."""
    if board.DEPTH == 4:
        model = ST7789Model()
        bus_type, take = FakeSPI, model.feed_log
    else:
        model = SSD1306Model(board.WIDTH, board.HEIGHT, getattr(board, "COLUMN_OFFSET", 0))
        if hasattr(board, "ADDRESS"):
            bus_type = FakeI2C

            def take(log):
                model.feed_i2c_log(log, board.ADDRESS)
        else:
            bus_type, take = FakeSPI, model.feed_spi_log

    def feed():
        bus = bus_type.made[-1]
        take(bus.log)
        bus.log = []
    return model, feed


ST7789_MAX_SPI = 62500000    # datasheet: serial write clock cycle >= 16 ns
SSD1306_MAX_SPI = 10000000   # datasheet: serial clock cycle >= 100 ns
SSD1306_MAX_I2C = 400000     # datasheet: I2C fast mode


def bus_problems(board):
    """The bus the board opened, against its controller's ratings (mode 0, clock)."""
    out = []
    if FakeI2C.made:
        bus = FakeI2C.made[-1]
        if bus.freq > SSD1306_MAX_I2C:
            out.append("I2C at %d Hz, the SSD1306 is rated for %d" % (bus.freq, SSD1306_MAX_I2C))
        return out
    bus = FakeSPI.made[-1]
    top = ST7789_MAX_SPI if board.DEPTH == 4 else SSD1306_MAX_SPI
    if bus.baudrate > top:
        out.append("SPI at %d Hz, the controller is rated for %d" % (bus.baudrate, top))
    if bus.polarity or bus.phase:
        out.append("SPI mode %d, the controller samples in mode 0" % (bus.polarity * 2 + bus.phase))
    return out


def board_view(board, model):
    """What the board's screen shows, in the canvas's orientation."""
    if board.DEPTH == 4:
        return model.view(board.ROTATION // 90)
    return model.view()


def paint_something(canvas, rng):
    """Draw with firmware.gfx.Canvas's own calls (a box, a card face, a card back, text) at
    random places in random colour roles; the canvas marks what it drew as dirty."""
    w, h = canvas.width, canvas.height
    cw, ch = canvas.card_size()
    x, y = rng.below(w), rng.below(h)
    canvas.rect(x, y, 1 + rng.below(w - x), 1 + rng.below(h - y), rng.below(19))
    canvas.card(rng.below(w - cw + 1), rng.below(h - ch + 1), rng.below(4) << 4 | 7 + rng.below(8))
    canvas.back(rng.below(w - cw + 1), rng.below(h - ch + 1))
    canvas.text("Mau", rng.below(w - 10), rng.below(h - 6), rng.below(19))


def check_board_display(board, canvas, seed, rounds):
    """Open the board's display on fakes; show random pictures whole, then what each
    drawing made dirty (firmware.gfx.Canvas: each of take_boxes(); a PlainCanvas: the box drawn);
    return a list of problems (empty when every panel pixel matched every time)."""
    from engine.rng import Random
    from firmware.main import show_boxes
    reset_fakes()
    if hasattr(board, "DC"):
        wire_spi(board.DC, board.CS)
    display = board.open_display()
    model, feed = model_for(board)
    rng = Random(seed)
    problems = bus_problems(board)
    scribble(canvas, rng, 8)
    display.show(canvas, 0, 0, canvas.width, canvas.height)
    for step in range(rounds + 1):
        feed()
        problems.extend(model.problems())
        wrong = first_difference(board_view(board, model), canvas_colours(canvas))
        if wrong is not None:
            problems.append("step %d: first wrong pixel (x, y, panel, canvas) %r" % (step, wrong))
        if model.written_outside():
            problems.append("step %d: wrote RAM outside the glass" % step)
        if problems:
            break
        if hasattr(canvas, "take_boxes"):
            canvas.take_boxes()
            paint_something(canvas, rng)
            show_boxes(canvas, display)
        else:
            box = scribble(canvas, rng, 1)[0]
            display.show(canvas, box[0], box[1], box[2], box[3])
    return problems


def check_board_buttons(board):
    """Open the board's buttons on fake pins; press and release each; return problems."""
    from firmware import buttons
    reset_fakes()
    pad = board.open_buttons()
    problems = []
    no_pull = getattr(board, "NO_PULL", ())
    t = 0
    for name, gpio in board.KEYS:
        pin = FakePin.made[gpio]
        want_pull = None if gpio in no_pull else FakePin.PULL_UP
        if pin.pull != want_pull or pin.mode != FakePin.IN:
            problems.append("GPIO %d: mode %r pull %r" % (gpio, pin.mode, pin.pull))
        got = []
        for level in (0, 1):
            pin.level = level
            for _ in range(5):
                t += 10
                pad.poll(t)
                e = pad.get()
                while e != -1:
                    got.append(buttons.describe(e))
                    e = pad.get()
        want = [name + " PRESS", name + " RELEASE", name + " CLICK"]
        if got != want:
            problems.append("GPIO %d: %r, wanted %r" % (gpio, got, want))
    return problems


# --- the app on a board made of fakes -----------------------------------------------

FRAME_MS = 10      # the device loop's period (firmware/main.py)
TAP_MS = 60        # a short press: past the 20 ms debounce, far from LONG
HOLD_MS = 700      # a long press: past LONG (600 ms), before the first REPEAT (750 ms)

# action -> (key name, held ms) per layout (docs/firmware.md)
KEYS_FOR = {
    "two": {1: ("A", TAP_MS), 2: ("B", TAP_MS), 3: ("A", HOLD_MS), 5: ("B", HOLD_MS)},
    "abxy": {1: ("Y", TAP_MS), 2: ("X", TAP_MS), 3: ("A", TAP_MS), 4: ("B", TAP_MS),
             5: ("B", HOLD_MS)},
    "dpad": {1: ("RIGHT", TAP_MS), 2: ("LEFT", TAP_MS), 3: ("A", TAP_MS), 4: ("B", TAP_MS),
             5: ("B", HOLD_MS)},
}


class Rig:
    """A board on fake pins and bus running firmware.app: pins pressed, frames on a virtual clock.

    Each frame is the device loop (firmware/main.py): poll the buttons, hand their events
    to the app, tick it, show each dirty box through the board's driver. With
    `model`, the controller model reads every byte sent, so `differences()` compares the
    panel with the canvas at any moment. With `direct`, a colour board draws on
    firmware.direct's canvas (each drawing sent as made; a mono board keeps its canvas).
    """

    def __init__(self, board, seed=1, playouts=8, model=True, store=None, direct=False):
        from firmware.app import App
        reset_fakes()
        FakeSPI.record = FakePin.record = model    # without a model nothing reads the logs
        if hasattr(board, "DC"):
            wire_spi(board.DC, board.CS)
        self.board = board
        self.display = board.open_display()
        self.pad = board.open_buttons()
        self.pins = {}
        for name, gpio in board.KEYS:
            if name not in self.pins:
                self.pins[name] = FakePin.made[gpio]
        if direct and board.DEPTH == 4:    # firmware.boot's where the heap is small (colour)
            from firmware.direct import DirectCanvas
            self.canvas = DirectCanvas(board.WIDTH, board.HEIGHT, self.display)
        else:
            from firmware.boxes import BoxCanvas
            self.canvas = BoxCanvas(board.WIDTH, board.HEIGHT, board.DEPTH)
        self.model, self.feed = model_for(board) if model else (None, None)
        self.now = 0
        self.shows = 0
        self.shown_pixels = 0
        self.frames = 0
        self.moves = 0             # moves of the game so far, as last seen
        self.sound = board.open_sound() if hasattr(board, "open_sound") else None  # main.py's
        self.app = App(board, self.canvas, store, 0, playouts=playouts, seed=seed, sound=self.sound)
        self.frame()

    def frame(self):
        """One turn of the device loop, FRAME_MS after the last."""
        self.now += FRAME_MS
        self.frames += 1
        app = self.app
        app.frame(self.now, self.pad)
        if app.game is not None:
            self.moves = app.game.n_moves
        canvas, boxes = self.canvas, self.canvas.boxes
        n = canvas.take_boxes()
        for i in range(0, 4 * n, 4):
            self.display.show(canvas, boxes[i], boxes[i + 1], boxes[i + 2], boxes[i + 3])
            self.shows += 1
            self.shown_pixels += boxes[i + 2] * boxes[i + 3]
        if self.feed is not None and (n or self.canvas.buf is None):   # (direct: as drawn)
            self.feed()
        if self.feed is None:
            for bus in FakeSPI.made:
                bus.log = []
            for bus in FakeI2C.made:
                bus.log = []

    def run(self, ms):
        """Let ms of frames pass with the pins as they are."""
        for _ in range(ms // FRAME_MS):
            self.frame()

    def hold(self, name, ms):
        """Hold a key's pin low for ms, then release it and let the release settle."""
        pin = self.pins[name]
        pin.level = 0
        self.run(ms)
        pin.level = 1
        self.run(TAP_MS)

    def act(self, action):
        """Press whatever gives `action` (NEXT, PREV, OK, BACK, MENU) on this board."""
        name, ms = KEYS_FOR[self.board.LAYOUT][action]
        self.hold(name, ms)

    def differences(self):
        """Problems of the panel now: model complaints, or the first pixel unlike the canvas."""
        out = list(self.model.problems())
        wrong = first_difference(board_view(self.board, self.model), canvas_colours(self.canvas))
        if wrong is not None:
            out.append("pixel (x, y, panel, canvas) %r on screen %s"
                       % (wrong, self.app.screen.name))
        return out


def choose(rig, label):
    """On a list screen, move to the item `label` and press OK."""
    sc = rig.app.screen
    for _ in range(len(sc.items)):
        if sc.items[sc.cursor] == label:
            break
        rig.act(1)
    rig.act(3)


def turn_target(t):
    """The table item a scripted player takes: the first card marked playable, else Draw
    or Pass, else -1."""
    from firmware import screens as S
    for i in range(t.item_n):
        if t.item_kind[i] == S.CARD_ITEM and t.playable[t.item_arg[i]]:
            return i
    for i in range(t.item_n):
        if t.item_kind[i] in (S.DRAW_ITEM, S.PASS_ITEM):
            return i
    return -1


def play_turn(rig):
    """The human to move plays the first card marked playable (first suit offered), else
    draws or passes."""
    t = rig.app.screen
    target = turn_target(t)
    for _ in range(t.item_n):
        if t.cursor == target:
            break
        rig.act(1)
    rig.act(3)
    if rig.app.screen.name == "picker":
        rig.act(3)


def play_game(rig, steps, check_every=0):
    """From the title: New game with the remembered setup, then play it to the final table.

    Runs at most `steps` decisions; returns the screen name reached. With check_every,
    every that many decisions the panel is compared with the canvas (problems raise).
    """
    for step in range(steps):
        sc = rig.app.screen
        name = sc.name
        if check_every and step % check_every == 0:
            problems = rig.differences()
            if problems:
                raise AssertionError("step %d: %r" % (step, problems))
        if name == "final":
            return name
        if name == "title":
            choose(rig, "New game")
        elif name == "setup":
            while sc.rows_of[sc.cursor][0] != "start":
                rig.act(1)
            rig.act(3)
        elif name == "table":
            if sc.my_turn:
                play_turn(rig)
            else:
                rig.run(1000)
        elif name == "between":
            choose(rig, "Deal next round")
        else:                      # cover, story, scores, rules pages: read on
            rig.act(3)
    return rig.app.screen.name
