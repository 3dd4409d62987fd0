"""Stand-ins for the hardware: fake machine.Pin/SPI/I2C that record, and controller models.

The fakes let drivers and board configs run without a board, on CPython (via
`install_machine`) and inside the MicroPython VM (this file, written in the subset both
run, doubles there as the `machine` module). The models (`ST7789Model`, `SSD1306Model`)
read what a driver sent and turn the byte stream into the pixels the panel would show.
"""
import sys


class FakePin:
    """machine.Pin: inputs read `level` (1 = released with a pull-up); outputs log writes."""

    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    made = {}      # GPIO -> the last FakePin made for it

    def __init__(self, gpio, mode=-1, pull=-1, value=None):
        self.gpio = gpio
        self.mode = mode
        self.pull = pull
        self.level = 1
        self.writes = []
        if value is not None:
            self.value(value)
        FakePin.made[gpio] = self
        bus = FakePin.listener
        if bus is not None:
            bus.pin_made(self)

    listener = None  # a bus that wants to see DC and CS pins as they change

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
        if level is None:
            return self.level
        self.level = 1 if level else 0
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
    FakePin.listener = None
    FakeSPI.made = []
    FakeI2C.made = []


class FakeSPI:
    """machine.SPI: records every write as (level of each watched pin, bytes)."""

    made = []

    def __init__(self, bus_id, baudrate=1000000, polarity=0, phase=0, bits=8,
                 firstbit=0, sck=None, mosi=None, miso=None):
        self.bus_id = bus_id
        self.baudrate = baudrate
        self.polarity = polarity
        self.phase = phase
        self.sck = sck
        self.mosi = mosi
        self.watch = None   # (dc pin, cs pin) once a model connects
        self.log = []       # (dc level, bytes) of writes made with CS low
        self.ignored = 0    # bytes written with CS high (the chip does not listen)
        FakeSPI.made.append(self)

    def init(self, baudrate=None, **kw):
        """Change the bus speed like machine.SPI.init."""
        if baudrate is not None:
            self.baudrate = baudrate

    def write(self, data):
        """Record bytes sent with the DC level at that moment."""
        dc, cs = self.watch if self.watch else (None, None)
        if cs is not None and cs.level:
            self.ignored += len(data)
            return
        self.log.append((dc.level if dc is not None else 1, bytes(data)))


class FakeI2C:
    """machine.I2C: records writeto/writevto per address; scan() lists the devices."""

    made = []

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
        self.log.append((addr, bytes(data)))
        return len(data)

    def writevto(self, addr, vector, stop=True):
        """One transaction made of several buffers (sent back to back)."""
        self._check(addr)
        joined = b""
        for part in vector:
            joined += bytes(part)
        self.log.append((addr, joined))
        return len(joined)

    def _check(self, addr):
        if addr not in self.devices:
            raise OSError(19)  # ENODEV: nobody acknowledged


def install_machine(monkeypatch):
    """Make `import machine` give the fakes in this CPython process (pytest monkeypatch)."""
    import types
    reset_fakes()
    module = types.ModuleType("machine")
    module.Pin, module.SPI, module.I2C = FakePin, FakeSPI, FakeI2C
    monkeypatch.setitem(sys.modules, "machine", module)
    return module
