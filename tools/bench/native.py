"""The price of the colour show's native palette expansion (firmware/expand.py) on an RP2040.

    python -m tools.bench.native [--listing]

No chip runs here, so the price is counted from the machine code mpy-cross emits for the
Cortex-M0+ (-march=armv6m): the .mpy's viper function is taken out (`read_mpy`), listed
by arm-none-eabi-objdump when it is installed (`--listing`), and run, instruction by
instruction, by the small Thumb interpreter below, which adds each instruction's cycles
from the Cortex-M0+ Technical Reference Manual (r0p1, 3.3 "Instruction set summary"):
one for register operations (the RP2040 has the single-cycle multiplier), two for a
load or store and for a taken branch, one for a branch not taken, 1+N for PUSH and POP
of N registers, 3+N for POP with PC, two for BLX. Memory is zero-wait: native code from
an .mpy file is loaded into the heap, in SRAM, as are the canvas, band and table (code
frozen into flash would add XIP cache misses). The function's calls into the firmware
(mp_native_from_obj, one an argument) are C this interpreter does not run: they are
counted, and priced separately by an estimate (NATIVE_CALL_CYCLES).

Printed: the cycles of bands of the shapes the driver sends (the function's own code,
prologue to return), their cycles a pixel, the inner loop's cycles a pixel pair, and the
price a pixel at 125 MHz that tools/bench/firmware.py's cost model uses.
"""
import shutil
import subprocess
import sys
import tempfile
from functools import lru_cache

from tools import cli
from tools.vm.build_mpy import ROOT, compile_source

SOURCE = ROOT / "firmware" / "expand.py"
ARCHS = {0: None, 4: "armv6m", 10: "xtensawin"}   # .mpy header: arch << 2 | sub-version
MP_CODE_BYTECODE, MP_CODE_NATIVE_PY, MP_CODE_NATIVE_VIPER = 2, 3, 4
CPU_MHZ = 125
# The firmware's side of one call, not run here (an estimate, M0+ cycles): the bytecode's
# call into a viper function (mp_call_function_n_kw, fun_viper's call) about 150, and
# mp_native_from_obj for each of the 8 arguments (a small int about 20, a buffer through
# mp_get_buffer about 50: 3 x 50 + 5 x 20)
NATIVE_CALL_CYCLES = 150 + 3 * 50 + 5 * 20


# ---- the .mpy file --------------------------------------------------------------------

def _uint(data, at):
    value = 0
    while True:
        byte = data[at]
        at += 1
        value = value << 7 | byte & 0x7F
        if not byte & 0x80:
            return value, at


def read_mpy(data):
    """(arch name or None, [(kind, code bytes)]) of an .mpy v6 file's raw code, module first."""
    if data[:2] != b"M\x06":
        raise ValueError("not an .mpy v6 file")
    arch = ARCHS.get(data[2] >> 2, "arch %d" % (data[2] >> 2))
    at = 4
    qstrs, at = _uint(data, at)
    objects, at = _uint(data, at)
    for _ in range(qstrs):
        size, at = _uint(data, at)
        if not size & 1:                 # not a static qstr: its bytes and a NUL
            at += (size >> 1) + 1
    for _ in range(objects):
        kind = data[at]
        at += 1
        if kind >= 5:                    # str, bytes, int, float, complex: length, bytes
            size, at = _uint(data, at)
            at += size + (kind in (5, 6))
    codes = []

    def raw_code(at):
        kind_len, at = _uint(data, at)
        kind, children, size = (kind_len & 3) + MP_CODE_BYTECODE, kind_len >> 2 & 1, kind_len >> 3
        codes.append((kind, bytes(data[at:at + size])))
        at += size
        if kind == MP_CODE_NATIVE_PY:
            _, at = _uint(data, at)             # prelude offset
        elif kind == MP_CODE_NATIVE_VIPER:
            flags, at = _uint(data, at)         # scope flags
            if flags & 0x70:                    # MP_SCOPE_FLAG_VIPERRELOC, RODATA, BSS
                raise ValueError("viper code with relocations, rodata or bss: not read here")
        if children:
            count, at = _uint(data, at)
            for _ in range(count):
                at = raw_code(at)
        return at
    raw_code(at)
    return arch, codes


def viper_code(arch="armv6m"):
    """The machine code of firmware/expand.py's viper function, compiled for `arch`."""
    _, codes = read_mpy(compile_source(SOURCE, "firmware/expand.py", arch=arch))
    return [code for kind, code in codes if kind == MP_CODE_NATIVE_VIPER][0]


def listing(code):
    """arm-none-eabi-objdump's Thumb listing of the code, or None without binutils."""
    objdump = shutil.which("arm-none-eabi-objdump")
    if objdump is None:
        return None
    with tempfile.NamedTemporaryFile(suffix=".bin") as f:
        f.write(code)
        f.flush()
        out = subprocess.run([objdump, "-D", "-b", "binary", "-marm", "-Mforce-thumb", f.name],
                             capture_output=True, text=True, check=True).stdout
    return "\n".join(line for line in out.splitlines() if line[:1] == " ")


# ---- a Cortex-M0+ for the instructions viper emits -----------------------------------

class Fault(Exception):
    """The code did what the interpreter does not model (or a chip would fault on)."""


class Cpu:
    """Thumb registers, flags and a memory of named regions; run() counts M0+ cycles."""

    HOST = 0x0F000000           # addresses of firmware functions (C: counted, not run)

    def __init__(self):
        self.r = [0] * 16
        self.n = self.z = self.c = self.v = False
        self.regions = []       # (base, bytearray)
        self.cycles = self.host_calls = 0
        self.pairs = {}         # address -> times run (to find the inner loop)

    def region(self, base, data):
        """Map a bytearray at base; return base."""
        self.regions.append((base, data))
        return base

    def _find(self, address, size):
        for base, data in self.regions:
            if base <= address and address + size <= base + len(data):
                return data, address - base
        raise Fault("access to 0x%08x (%d bytes) outside every region" % (address, size))

    def load(self, address, size):
        if address % size:
            raise Fault("unaligned %d-byte access at 0x%08x (a HardFault on the M0+)" % (size, address))
        data, at = self._find(address, size)
        return int.from_bytes(data[at:at + size], "little")

    def store(self, address, size, value):
        if address % size:
            raise Fault("unaligned %d-byte store at 0x%08x (a HardFault on the M0+)" % (size, address))
        data, at = self._find(address, size)
        data[at:at + size] = (value & ((1 << 8 * size) - 1)).to_bytes(size, "little")

    def _nz(self, value):
        value &= 0xFFFFFFFF
        self.n, self.z = bool(value >> 31), value == 0
        return value

    def _add(self, a, b, carry=0):
        total = a + b + carry
        result = self._nz(total)
        self.c = total > 0xFFFFFFFF
        self.v = bool(~(a ^ b) & (a ^ result) & 0x80000000)
        return result

    def _sub(self, a, b):
        return self._add(a, ~b & 0xFFFFFFFF, 1)

    def _cond(self, cond):
        n, z, c, v = self.n, self.z, self.c, self.v
        return (z, not z, c, not c, n, not n, v, not v, c and not z, not c or z,
                n == v, n != v, not z and n == v, z or n != v)[cond]

    def run(self, entry, host):
        """Run from `entry` (lr = a return address) until that return; `host` maps the
        address of each firmware function to a Python function of the registers."""
        r = self.r
        r[14] = 0x0EFFFFF1       # the return address, odd (Thumb)
        r[15] = entry
        while r[15] != 0x0EFFFFF0:
            pc = r[15]
            self.pairs[pc] = self.pairs.get(pc, 0) + 1
            op = self.load(pc, 2)
            r[15] = pc + 2
            self.cycles += self.step(op, pc, host)
        return r[0]

    def step(self, op, pc, host):
        """Execute one 16-bit instruction; return its cycles."""
        r = self.r
        top5, rd, rn, rm = op >> 11, op & 7, op >> 3 & 7, op >> 6 & 7
        if op == 0xBF00:                                        # nop
            return 1
        if top5 in (0, 1, 2):                                   # lsls, lsrs, asrs #imm5
            shift, value = op >> 6 & 31, r[rn]
            if top5 == 0:
                r[rd] = self._nz(value << shift)
            elif top5 == 1:
                r[rd] = self._nz(value >> (shift or 32))
            else:
                signed = value - (1 << 32) if value >> 31 else value
                r[rd] = self._nz(signed >> (shift or 32))
            return 1
        if top5 == 3:                                           # adds/subs reg or #imm3
            b = rm if op & 0x400 else r[rm]
            r[rd] = self._sub(r[rn], b) if op & 0x200 else self._add(r[rn], b)
            return 1
        if 4 <= top5 <= 7:                                      # movs, cmp, adds, subs #imm8
            rdn, imm = op >> 8 & 7, op & 0xFF
            if top5 == 4:
                r[rdn] = self._nz(imm)
            elif top5 == 5:
                self._sub(r[rdn], imm)
            elif top5 == 6:
                r[rdn] = self._add(r[rdn], imm)
            else:
                r[rdn] = self._sub(r[rdn], imm)
            return 1
        if op >> 10 == 0x10:                                    # data processing
            kind, a, b = op >> 6 & 15, r[rd], r[rn]
            if kind == 0:
                r[rd] = self._nz(a & b)
            elif kind == 1:
                r[rd] = self._nz(a ^ b)
            elif kind == 2:
                r[rd] = self._nz(a << (b & 255)) if (b & 255) < 32 else self._nz(0)
            elif kind == 3:
                r[rd] = self._nz(a >> (b & 255)) if (b & 255) < 32 else self._nz(0)
            elif kind == 4:
                signed = a - (1 << 32) if a >> 31 else a
                r[rd] = self._nz(signed >> min(b & 255, 31))
            elif kind == 8:
                self._nz(a & b)
            elif kind == 10:
                self._sub(a, b)
            elif kind == 12:
                r[rd] = self._nz(a | b)
            elif kind == 13:
                r[rd] = self._nz(a * b)
            elif kind == 15:
                r[rd] = self._nz(~b)
            else:
                raise Fault("data processing op %d at 0x%x" % (kind, pc))
            return 1
        if op >> 8 == 0x46:                                     # mov (high registers)
            d = (op >> 4 & 8) | rd
            r[d] = r[op >> 3 & 15]
            if d == 15:
                r[15] &= ~1
                return 2
            return 1
        if op >> 8 == 0x47:                                     # bx, blx
            target = r[op >> 3 & 15]
            if op & 0x80:
                r[14] = (pc + 2) | 1
            if target & ~1 in host:
                self.host_calls += 1
                r[0] = host[target & ~1](r) & 0xFFFFFFFF
                return 2
            r[15] = target & ~1
            return 2
        if top5 == 9:                                           # ldr rd, [pc, #imm8]
            r[op >> 8 & 7] = self.load(((pc + 4) & ~3) + (op & 0xFF) * 4, 4)
            return 2
        if op >> 12 == 5:                                       # load/store register offset
            kind, address = op >> 9 & 7, r[rn] + r[rm]
            size = (4, 2, 1, 1, 4, 2, 1, 2)[kind]
            if kind in (0, 1, 2):
                self.store(address, size, r[rd])
            elif kind == 3:
                value = self.load(address, 1)
                r[rd] = value - 256 if value & 0x80 else value
            elif kind == 7:
                value = self.load(address, 2)
                r[rd] = value - 65536 if value & 0x8000 else value
            else:
                r[rd] = self.load(address, size)
            r[rd] &= 0xFFFFFFFF
            return 2
        if top5 in (12, 13, 14, 15, 16, 17):                    # str/ldr word, byte, half #imm5
            size = {12: 4, 13: 4, 14: 1, 15: 1, 16: 2, 17: 2}[top5]
            address = r[rn] + (op >> 6 & 31) * size
            if top5 & 1:
                r[rd] = self.load(address, size)
            else:
                self.store(address, size, r[rd])
            return 2
        if top5 in (18, 19):                                    # str/ldr rd, [sp, #imm8]
            address = r[13] + (op & 0xFF) * 4
            if top5 == 19:
                r[op >> 8 & 7] = self.load(address, 4)
            else:
                self.store(address, 4, r[op >> 8 & 7])
            return 2
        if op >> 8 == 0xB0:                                     # add/sub sp, #imm7
            step = (op & 0x7F) * 4
            r[13] += -step if op & 0x80 else step
            return 1
        if op >> 9 in (0x5A, 0x5E):                             # push, pop
            names = [i for i in range(8) if op >> i & 1]
            extra = op >> 8 & 1
            if op >> 9 == 0x5A:
                if extra:
                    names.append(14)
                r[13] -= 4 * len(names)
                for i, name in enumerate(names):
                    self.store(r[13] + 4 * i, 4, r[name])
                return 1 + len(names)
            if extra:
                names.append(15)
            for i, name in enumerate(names):
                r[name] = self.load(r[13] + 4 * i, 4)
            r[13] += 4 * len(names)
            if extra:
                r[15] &= ~1
                return 3 + len(names)
            return 1 + len(names)
        if op >> 12 == 0xD:                                     # b<cond>
            offset = op & 0xFF
            offset = offset - 256 if offset & 0x80 else offset
            if self._cond(op >> 8 & 15):
                r[15] = pc + 4 + 2 * offset
                return 2
            return 1
        if top5 == 28:                                          # b
            offset = op & 0x7FF
            offset = offset - 2048 if offset & 0x400 else offset
            r[15] = pc + 4 + 2 * offset
            return 2
        raise Fault("instruction 0x%04x at 0x%x is not modelled" % (op, pc))


def band_cycles(code, x, w, lines, canvas_width=240, canvas_height=135):
    """(cycles, firmware calls, the band's bytes, cpu) of one call of the viper function:
    a band of `lines` lines of `w` pixels from (x, 0) of a canvas of random pixels."""
    import random
    rng = random.Random(x * 1000 + w)
    cpu = Cpu()
    stride = (canvas_width + 1) // 2
    canvas = cpu.region(0x20010000, bytearray(rng.randrange(256) for _ in range(stride * canvas_height)))
    band = cpu.region(0x20020000, bytearray(2 * w * lines))
    lut = cpu.region(0x20030000, bytearray(rng.randrange(256) for _ in range(32)))
    cpu.region(0x10000000, bytearray(code))
    stack = cpu.region(0x20040000, bytearray(1024))
    # the function object: [4] its context; context [8] and [12] -> [0] the firmware's
    # function table, whose [12] is mp_native_from_obj (the argument's value is its own
    # object here) and [0] None
    table = bytearray(256)
    table[12:16] = (Cpu.HOST | 0x10).to_bytes(4, "little")
    table[0:4] = (0x0E000001).to_bytes(4, "little")
    fun_table = cpu.region(0x20050000, table)
    holder = cpu.region(0x20051000, bytearray(fun_table.to_bytes(4, "little")))
    context = cpu.region(0x20052000, bytearray(8) + bytearray(4) + holder.to_bytes(4, "little"))
    fun = cpu.region(0x20053000, bytearray(4) + context.to_bytes(4, "little"))
    args = [band, canvas, lut, stride, x, w, 0, lines]
    array = cpu.region(0x20054000, bytearray(b"".join(a.to_bytes(4, "little") for a in args)))
    cpu.r[0], cpu.r[1], cpu.r[2], cpu.r[3] = fun, len(args), 0, array
    cpu.r[13] = stack + 1024
    cpu.run(0x10000000, {Cpu.HOST | 0x10: lambda r: r[0]})
    out = cpu.regions[1][1]
    return cpu.cycles, cpu.host_calls, bytes(out), cpu


def inner_loop(cpu):
    """(first address, cycles) of the pixel-pair loop: the instructions run most often."""
    most = max(cpu.pairs.values())
    return min(a for a, n in cpu.pairs.items() if n == most), most


# the lines of a whole-width band the driver sends (firmware/st7789_wake.py:
# band_rows(240)), and band shapes it sends: as many of a rectangle's lines as fit in the
# band, then the rest
BAND_LINES = 1
SHAPES = ((0, 240, 1), (37, 192, 1), (0, 48, 5), (1, 16, 15), (3, 17, 14), (5, 235, 1))


@lru_cache(maxsize=None)
def price(code=None):
    """Per band shape (x, w, lines, cycles, firmware calls, cycles a pixel), the loop's
    cycles a pixel pair, and the price a pixel in us of a whole-width band."""
    code = code or viper_code()
    rows = []
    for x, w, lines in SHAPES:
        cycles, calls, _, _ = band_cycles(code, x, w, lines)
        rows.append((x, w, lines, cycles, calls, cycles / (w * lines)))
    lines = BAND_LINES
    wide, _, _, _ = band_cycles(code, 0, 240, lines)
    wider, _, _, _ = band_cycles(code, 0, 240, lines + 1)
    narrower, _, _, _ = band_cycles(code, 0, 238, lines)
    pair = (wide - narrower) / lines               # one pixel pair less on each line
    per_line = wider - wide                        # one line more
    fixed = wide - lines * per_line
    return {"shapes": rows, "pair": pair, "line": per_line, "fixed": fixed,
            "us_px": (wide + NATIVE_CALL_CYCLES) / (240 * lines) / CPU_MHZ}


def main(argv=None):
    """Command line: print the cycle counts (and with --listing the disassembly)."""
    parser = cli.Parser(prog="bench.native", description=__doc__.splitlines()[0])
    parser.add_argument("--listing", action="store_true", help="print objdump's listing too")
    args = parser.parse_args(argv)
    code = viper_code()
    if args.listing:
        print(listing(code) or "(arm-none-eabi-objdump not installed: apt-get install "
                               "binutils-arm-none-eabi)")
    figures = price(code)
    print("firmware/expand.py for armv6m: %d bytes of machine code" % len(code))
    print("%5s %5s %6s %8s %6s %9s" % ("x", "w", "lines", "cycles", "calls", "cycles/px"))
    for x, w, lines, cycles, calls, each in figures["shapes"]:
        print("%5d %5d %6d %8d %6d %9.1f" % (x, w, lines, cycles, calls, each))
    print("pixel pair: %.0f cycles; a line: %d cycles more; a call's own code beyond its lines:"
          " %d cycles; the firmware's side of a call (estimate, not run): %d cycles"
          % (figures["pair"], figures["line"], figures["fixed"], NATIVE_CALL_CYCLES))
    print("price at %d MHz, a whole-width band of %d lines with its call: %.3f us a pixel"
          " (framebuf.blit measured: 1.2)" % (CPU_MHZ, BAND_LINES, figures["us_px"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
