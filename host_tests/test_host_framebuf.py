"""tools/sim/framebuf.py draws byte for byte what MicroPython 1.29's framebuf draws.

Seeded random programs of drawing calls run twice: in the MicroPython VM on the real
framebuf, and on CPython on the host copy. After every call both print a checksum of the
buffer (and whatever the call returned); the lists must be equal, and so must the final
buffers. The first differing line names the call that went wrong.
"""
import random
import sys

import pytest

from tools.vm import mpvm
from tools.sim import framebuf as host_framebuf

FORMATS = {
    "MONO_VLSB": (0, 1), "RGB565": (1, 16), "GS4_HMSB": (2, 4), "MONO_HLSB": (3, 1),
    "MONO_HMSB": (4, 1), "GS2_HMSB": (5, 2), "GS8": (6, 8),
}
# Buffer shapes: (width, height, stride or None); odd sizes and strides find the edge cases.
SHAPES = [(37, 21, None), (16, 8, None), (29, 13, 35), (8, 17, 12), (64, 40, 70), (3, 3, None), (1, 9, None)]
OPS_PER_PROGRAM = 160
SOURCE_FORMATS = ("MONO_VLSB", "MONO_HLSB", "GS2_HMSB", "GS4_HMSB", "GS8", "RGB565")

# Shared by both runtimes: a checksum of the buffer that any Python computes the same way.
PRELUDE = """\
import framebuf
from array import array

def chk(tag, result=None):
    h = 0
    for b in buf:
        h = (h * 31 + b) & 0xFFFFFF
    print('OP', tag, h, result)

def make(fmt, w, h, fill):
    size = {0: ((h + 7) // 8) * w, 1: w * h * 2, 2: (w + 1) // 2 * h, 3: (w + 7) // 8 * h,
            4: (w + 7) // 8 * h, 5: (w + 3) // 4 * h, 6: w * h}[fmt]
    data = bytearray(size)
    for i in range(size):
        data[i] = (i * 73 + fill * 29 + 11) & 0xFF
    return data, framebuf.FrameBuffer(data, w, h, fmt)
"""


def buffer_size(fmt, w, h, stride):
    """Bytes a buffer of this shape needs (generous: whole strides on every row)."""
    stride = stride or w
    return {0: ((h + 7) // 8) * stride, 1: stride * h * 2, 2: (stride + 1) // 2 * h,
            3: (stride + 7) // 8 * h, 4: (stride + 7) // 8 * h, 5: (stride + 3) // 4 * h,
            6: stride * h}[fmt]


def colour(rng, bits):
    """A colour: usually a valid one for the format, sometimes out of range or negative."""
    roll = rng.random()
    if roll < 0.75:
        return rng.randrange(1 << bits)
    return rng.choice([-1, -7, 0x1FF, 0x12345, 255, 256, 17, 2 ** 30 - 1, -(2 ** 30)])


def program(fmt_name, shape, seed):
    """Source of one random drawing program for this format and buffer shape."""
    rng = random.Random(seed)
    fmt, bits = FORMATS[fmt_name]
    w, h, stride = shape
    lines = [PRELUDE, f"buf = bytearray({buffer_size(fmt, w, h, stride)})"]
    lines.append(f"fb = framebuf.FrameBuffer(buf, {w}, {h}, {fmt}" + (f", {stride})" if stride else ")"))
    sources = []
    for k, name in enumerate(SOURCE_FORMATS):
        sf, _ = FORMATS[name]
        sw, sh = rng.randint(1, 19), rng.randint(1, 13)
        lines.append(f"sd{k}, src{k} = make({sf}, {sw}, {sh}, {k})")
        sources.append((k, name, sw, sh))
    # Palettes in the target's format, one pixel high, wide enough for any source colour.
    for n in (2, 4, 16, 256):
        lines.append(f"pd{n}, pal{n} = make({fmt}, {n}, 1, {n})")
    lines.append("chk('start')")
    xs = lambda: rng.randint(-12, w + 12)  # noqa: E731
    ys = lambda: rng.randint(-12, h + 12)  # noqa: E731
    for i in range(OPS_PER_PROGRAM):
        op = rng.choice(["fill", "fill_rect", "fill_rect", "pixel", "pixel_get", "hline", "vline",
                         "rect", "line", "line", "ellipse", "ellipse", "poly", "poly", "text",
                         "text", "scroll", "blit", "blit", "blit_tuple", "blit_self"])
        c = colour(rng, bits)
        if op == "fill":
            call = f"fb.fill({c})"
        elif op == "fill_rect":
            call = f"fb.fill_rect({xs()}, {ys()}, {rng.randint(-3, w + 4)}, {rng.randint(-3, h + 4)}, {c})"
        elif op == "pixel":
            call = f"fb.pixel({xs()}, {ys()}, {c})"
        elif op == "pixel_get":
            call = f"fb.pixel({rng.randint(-2, w + 1)}, {rng.randint(-2, h + 1)})"
        elif op == "hline":
            call = f"fb.hline({xs()}, {ys()}, {rng.randint(-3, w + 4)}, {c})"
        elif op == "vline":
            call = f"fb.vline({xs()}, {ys()}, {rng.randint(-3, h + 4)}, {c})"
        elif op == "rect":
            fill = rng.choice(["", ", True", ", False", ", 1", ", 0"])
            call = f"fb.rect({xs()}, {ys()}, {rng.randint(-2, w + 4)}, {rng.randint(-2, h + 4)}, {c}{fill})"
        elif op == "line":
            call = f"fb.line({xs()}, {ys()}, {xs()}, {ys()}, {c})"
        elif op == "ellipse":
            extra = rng.choice(["", ", True", ", False", f", True, {rng.randrange(16)}",
                                f", False, {rng.randrange(16)}", f", 1, {rng.randint(-20, 40)}"])
            call = (f"fb.ellipse({xs()}, {ys()}, {rng.choice([0, 0, 1, 2, rng.randint(0, w)])}, "
                    f"{rng.choice([0, 1, 2, rng.randint(0, h)])}, {c}{extra})")
        elif op == "poly":
            n = rng.choice([1, 2, 3, 3, 4, 5, 7])
            pts = [rng.randint(-8, w + 8) if k % 2 == 0 else rng.randint(-8, h + 8) for k in range(2 * n)]
            kind = rng.choice(["h", "h", "i", "b"])
            if kind == "b":
                pts = [max(-128, min(127, p)) for p in pts]
            if rng.random() < 0.1:
                pts = pts[:-1]  # an odd count: rounded down to whole points
            fill = rng.choice(["", ", True", ", False"])
            call = f"fb.poly({rng.randint(-5, 5)}, {rng.randint(-5, 5)}, array('{kind}', {pts}), {c}{fill})"
        elif op == "text":
            alphabet = "".join(chr(k) for k in range(32, 127)) + "\x7f\t\xe9\u2665"
            text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 6)))
            colour_arg = "" if rng.random() < 0.2 else f", {c}"
            call = f"fb.text({text!r}, {rng.randint(-10, w)}, {rng.randint(-9, h)}{colour_arg})"
        elif op == "scroll":
            call = f"fb.scroll({rng.randint(-w - 2, w + 2)}, {rng.randint(-h - 2, h + 2)})"
        elif op in ("blit", "blit_tuple"):
            k, name, sw, sh = rng.choice(sources)
            sbits = FORMATS[name][1]
            x, y = rng.randint(-sw - 2, w + 2), rng.randint(-sh - 2, h + 2)
            args = ""
            roll = rng.random()
            if roll < 0.3:
                args = f", {colour(rng, min(sbits, 8))}"
            elif roll < 0.6 and sbits <= 8:
                pal = {1: 2, 2: 4, 4: 16, 8: 256}[sbits]
                args = f", {rng.choice([-1, colour(rng, bits)])}, pal{pal}"
            elif roll < 0.7:
                args = ", -1, None"
            if op == "blit":
                call = f"fb.blit(src{k}, {x}, {y}{args})"
            else:
                sf = FORMATS[name][0]
                call = f"fb.blit((sd{k}, {sw}, {sh}, {sf}), {x}, {y}{args})"
        else:  # blit_self: source and destination share the buffer
            key = rng.choice(["", f", {colour(rng, bits)}"])
            call = f"fb.blit(fb, {rng.randint(-w, w)}, {rng.randint(-h, h)}{key})"
        lines.append(f"chk({i}, {call})  # {op}")
    lines.append("print('BUF', ''.join('%02x' % b for b in buf))")
    return "\n".join(lines) + "\n"


def run_on_host(source):
    """Run a program on CPython with the host framebuf; return what it printed."""
    import contextlib
    import io
    out = io.StringIO()
    saved = sys.modules.get("framebuf")
    sys.modules["framebuf"] = host_framebuf
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(source, "<host program>", "exec"), {"__name__": "prog"})
    finally:
        if saved is not None:
            sys.modules["framebuf"] = saved
    return out.getvalue()


def first_difference(source, vm_out, host_out):
    """A message naming the first call whose checksum differs, with its source line."""
    calls = {f"chk({line.split('chk(')[1].split(',')[0]}": line for line in source.splitlines()
             if line.startswith("chk(")}
    for a, b in zip(vm_out.splitlines(), host_out.splitlines()):
        if a != b:
            tag = a.split()[1] if a.startswith("OP") else "BUF"
            return f"first difference at op {tag}: {calls.get(f'chk({tag}', '?')}\n  VM:   {a[:200]}\n  host: {b[:200]}"
    return "outputs differ in length"


@pytest.fixture(scope="module")
def vm_outputs():
    """Every format's programs run in one VM (one step each); program -> VM output."""
    programs = [(name, shape, seed) for name in FORMATS for seed, shape in enumerate(SHAPES)]
    sources = [program(name, shape, 1000 + seed) for name, shape, seed in programs]
    steps = [f"print('PROGRAM {k}')\n" + src for k, src in enumerate(sources)]
    result = mpvm.run("", modules=(), steps=steps, timeout=240, label="framebuf identity").check()
    chunks = result.stdout.split("PROGRAM ")[1:]
    assert len(chunks) == len(sources)
    return {key: (src, chunk.split("\n", 1)[1]) for key, src, chunk in zip(programs, sources, chunks)}


@pytest.mark.parametrize("fmt_name", list(FORMATS))
def test_random_drawing_matches_micropython(fmt_name, vm_outputs):
    for seed, shape in enumerate(SHAPES):
        source, vm_out = vm_outputs[(fmt_name, shape, seed)]
        host_out = run_on_host(source)
        assert vm_out.count("\nOP ") >= OPS_PER_PROGRAM
        assert host_out == vm_out, first_difference(source, vm_out, host_out)


def test_every_method_is_exercised():
    calls = " ".join(program(name, shape, 1000 + seed) for name in FORMATS for seed, shape in enumerate(SHAPES))
    for method in ("fill", "fill_rect", "pixel", "hline", "vline", "rect", "line", "ellipse",
                   "poly", "text", "scroll", "blit"):
        assert f"fb.{method}(" in calls
    assert "fb.blit((sd" in calls and ", pal16)" in calls and "fb.blit(fb," in calls


def test_font_is_micropythons():
    """The font bytes are the VM's own: every glyph drawn there equals the host's table."""
    code = ("import framebuf\nbuf = bytearray(8)\nfb = framebuf.FrameBuffer(buf, 8, 8, framebuf.MONO_VLSB)\n"
            "out = []\nfor c in range(32, 128):\n    fb.fill(0)\n    fb.text(chr(c), 0, 0, 1)\n"
            "    out.append(''.join('%02x' % b for b in buf))\nprint(''.join(out))")
    vm_font = mpvm.run(code, modules=()).check().stdout.strip()
    assert bytes.fromhex(vm_font) == host_framebuf.FONT


CONSTRUCTIONS = [
    "bytearray(10), 8, 8, 0", "bytearray(8), 8, 8, 0", "bytearray(8), 8, 9, 0",
    "bytearray(16), 8, 9, 0", "bytearray(32), 4, 4, 1", "bytearray(31), 4, 4, 1",
    "bytearray(8), 4, 4, 2", "bytearray(7), 4, 4, 2", "bytearray(4), 5, 4, 3",
    "bytearray(8), 0, 4, 6", "bytearray(8), 4, 0, 6", "bytearray(16), 4, 4, 6, 3",
    "bytearray(16), 4, 4, 7", "bytearray(20), 4, 4, 6, 5", "bytearray(19), 4, 4, 6, 5",
    "bytearray(4), 4, 4, 5", "bytearray(3), 4, 4, 5", "bytearray(6), 3, 4, 4, 9",
    "bytes(8), 8, 8, 0", "bytearray(8), 8, 8, 7", "bytearray(8), 8, 8, -1",
]


def test_constructor_accepts_and_rejects_what_micropython_does():
    lines = ["import framebuf", "def try_make(*args):", "    try:",
             "        framebuf.FrameBuffer(*args)", "        return 'ok'",
             "    except ValueError:", "        return 'ValueError'",
             "    except TypeError:", "        return 'TypeError'"]
    lines += [f"print(try_make({args}))" for args in CONSTRUCTIONS]
    source = "\n".join(lines) + "\n"
    vm = mpvm.run(source, modules=()).check().stdout
    assert run_on_host(source) == vm
    assert "ok" in vm and "ValueError" in vm and "TypeError" in vm


def test_fill_is_fast_enough_for_redraws():
    """Not a timed assertion: prints how long a full-screen fill and a scene take on the host."""
    import time
    buf = bytearray(240 * 135 // 2)
    fb = host_framebuf.FrameBuffer(buf, 240, 135, host_framebuf.GS4_HMSB)
    start = time.perf_counter()
    for c in range(100):
        fb.fill(c & 15)
        fb.fill_rect(3, 5, 201, 77, 9)
    per_fill = (time.perf_counter() - start) / 100
    print(f"host GS4 240x135 fill + fill_rect: {per_fill * 1e6:.0f} us")
    assert buf[:120] == b"\x33" * 120 and fb.pixel(3, 5) == 9 and fb.pixel(2, 5) == 3


def test_blit_reads_a_read_only_tuple_source_like_micropython():
    source = ("import framebuf\nbuf = bytearray(32)\nfb = framebuf.FrameBuffer(buf, 8, 8, framebuf.GS4_HMSB)\n"
              "fb.blit((b'\\x12\\x34\\x56\\x78' * 2, 4, 4, framebuf.GS4_HMSB), 2, 3, 5)\n"
              "fb.blit((b'\\xa5\\x0f', 8, 2, framebuf.MONO_HLSB), 0, 0)\n"
              "print(''.join('%02x' % b for b in buf))\n")
    vm = mpvm.run(source, modules=()).check().stdout
    assert run_on_host(source) == vm and vm.strip() != "00" * 32


def test_keywords_and_floats_fail_on_the_host_as_on_the_device():
    """MicroPython's methods take positional ints only: the host copy must not be kinder."""
    calls = ["fb.rect(0, 0, 4, 4, 1, f=True)", "fb.ellipse(4, 4, 2, 2, 1, f=True)", "fb.text('a', 0, 0, c=1)",
             "fb.blit(fb, 0, 0, key=0)", "fb.fill_rect(0.5, 0, 2, 2, 1)", "fb.pixel(1, 1.0, 1)", "fb.fill(1.0)",
             "fb.line(0, 0, 3, 3.0, 1)", "framebuf.FrameBuffer(buf, 8, 8, format=0)"]
    lines = ["import framebuf", "buf = bytearray(8)", "fb = framebuf.FrameBuffer(buf, 8, 8, 0)"]
    for call in calls:
        lines += ["try:", "    " + call, "    print('ok')", "except TypeError:", "    print('TypeError')"]
    source = "\n".join(lines) + "\n"
    vm = mpvm.run(source, modules=()).check().stdout
    assert vm.split() == ["TypeError"] * len(calls)
    assert run_on_host(source) == vm
