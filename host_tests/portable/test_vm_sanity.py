"""Runtime features the engine relies on; must pass on CPython and MicroPython alike."""
import sys
from array import array

SMALL_INT_MAX = (1 << 30) - 1  # MicroPython's 31-bit small ints on a 32-bit board


def test_bytearray_slicing():
    b = bytearray(range(10))
    assert b[2:5] == bytearray(b"\x02\x03\x04")
    assert bytes(b[-2:]) == b"\x08\x09"
    b[0:3] = b"\xff\xfe\xfd"
    assert b[:4] == bytearray(b"\xff\xfe\xfd\x03") and len(b) == 10
    b[5] &= ~(1 << 2)
    assert b[5] == 1
    copy = b[:]
    copy[0] = 0
    assert b[0] == 0xFF


def test_memoryview_writes_through():
    b = bytearray(b"hello")
    view = memoryview(b)[1:]
    view[0:2] = b"EL"
    assert b == bytearray(b"hELlo")


def test_array_h_indexing():
    a = array("H", bytes(8))
    assert len(a) == 4 and a[3] == 0
    a[0] = 0xFFFF
    a[1] = 0x800 | 5
    a[-1] = 7
    assert (a[0], a[1], a[2], a[3]) == (65535, 0x805, 0, 7)
    assert list(a[1:3]) == [0x805, 0]
    assert list(array("H", range(4))) == [0, 1, 2, 3]


def _allocates(n, delta):
    """True if computing n + delta needs the heap (the result is not a small int)."""
    import micropython

    micropython.heap_lock()
    try:
        n + delta
        return False
    except MemoryError:
        return True
    finally:
        micropython.heap_unlock()


def test_small_int_range():
    assert SMALL_INT_MAX + 1 == 1 << 30
    assert (SMALL_INT_MAX * 4) >> 2 == SMALL_INT_MAX
    assert (123456 * 40503) & SMALL_INT_MAX == 705371072  # via a big int and back
    assert -SMALL_INT_MAX - 1 == -(1 << 30)
    if sys.implementation.name == "micropython":
        assert not _allocates(SMALL_INT_MAX - 1, 1)
        assert _allocates(SMALL_INT_MAX, 1)
        assert not _allocates(-SMALL_INT_MAX, -1)
        assert _allocates(-SMALL_INT_MAX - 1, -1)
