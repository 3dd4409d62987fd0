"""Viper's pointers in CPython, so a `@micropython.viper` function's own source runs here.

    expand = load_viper(ROOT / "firmware/expand.py", "expand")

`ptr8(buffer)` and `ptr16(buffer)` are pointers into a pretend address space where each
buffer gets its own base address; `int(pointer)` is that address plus the offset, and
`ptr16(address)` points there again, as viper casts them. A pointer reads and writes its
buffer little-endian, as the Cortex-M0+ and the ESP32 do, stores only the low bits (viper
truncates), and raises IndexError outside its buffer, where a chip would read or write
whatever memory lies there.
"""
import sys
import types

_SPACING = 1 << 24          # bytes between two buffers' base addresses


class Memory:
    """The pretend address space: buffers by base address."""

    def __init__(self):
        self.buffers = []   # (base, buffer), kept alive so ids and bases stay unique

    def base(self, buffer):
        """The base address of `buffer`, given it on first use."""
        for base, known in self.buffers:
            if known is buffer:
                return base
        base = (len(self.buffers) + 1) * _SPACING
        self.buffers.append((base, buffer))
        return base

    def find(self, address):
        """(buffer, offset) of an address."""
        base = address // _SPACING * _SPACING
        for known_base, buffer in self.buffers:
            if known_base == base:
                return buffer, address - base
        raise IndexError("address 0x%x is in no buffer" % address)


class Pointer:
    """A viper pointer to items of `size` bytes: ptrN(buffer) or ptrN(address)."""

    def __init__(self, memory, size, target):
        self.memory, self.size = memory, size
        if isinstance(target, int):
            self.buffer, self.offset = memory.find(target)
        else:
            self.buffer, self.offset = target, 0
            memory.base(target)
        self.bytes = memoryview(self.buffer).cast("B")

    def __int__(self):
        return self.memory.base(self.buffer) + self.offset

    def _at(self, index):
        start = self.offset + index * self.size
        if start < 0 or start + self.size > len(self.bytes):
            raise IndexError("a viper pointer used outside its buffer (byte %d of %d)"
                             % (start, len(self.bytes)))
        return start

    def __getitem__(self, index):
        start = self._at(index)
        return int.from_bytes(self.bytes[start:start + self.size], "little")

    def __setitem__(self, index, value):
        start = self._at(index)
        value &= (1 << 8 * self.size) - 1
        self.bytes[start:start + self.size] = value.to_bytes(self.size, "little")


def _viper(function):
    """The decorator: arguments become what their annotations say, as viper converts them
    (a buffer given for a `ptr16` argument is a pointer to it)."""
    casts = [function.__annotations__.get(name, lambda value: value)
             for name in function.__code__.co_varnames[:function.__code__.co_argcount]]

    def call(*args):
        return function(*(cast(arg) for cast, arg in zip(casts, args)))
    return call


def load_viper(path, name):
    """The function `name` of the viper module at `path`, its source run in CPython."""
    memory = Memory()
    shim = types.ModuleType("micropython")
    shim.viper = _viper
    scope = {"__name__": "viper_" + name,
             "ptr8": lambda target: Pointer(memory, 1, target),
             "ptr16": lambda target: Pointer(memory, 2, target),
             "ptr32": lambda target: Pointer(memory, 4, target)}
    saved = sys.modules.get("micropython")
    sys.modules["micropython"] = shim
    try:
        exec(compile(open(path).read(), str(path), "exec"), scope)
    finally:
        if saved is None:
            del sys.modules["micropython"]
        else:
            sys.modules["micropython"] = saved
    return scope[name]
