"""The ST7789's palette expansion in machine code: 4-bit canvas pixels to RGB565 (device only).

`expand` is `@micropython.viper`: mpy-cross compiles it for the board's chip (the board
config's NATIVE_ARCH), as nano-gui expands its GS4 canvas. Where viper cannot run, the
driver's import fails and it keeps framebuf's blit: the VM build leaves this module out
(ImportError); a MicroPython without native code (the VM, as a virtual board) refuses
the compiled module (ValueError) and cannot compile its source (SyntaxError); CPython has
no `micropython`, or a stand-in for it without viper's pointer types (NameError).
"""
import micropython


@micropython.viper
def expand(band: ptr16, canvas: ptr8, lut: ptr16, stride: int, x: int, w: int, top: int,
           lines: int):
    """Fill the band with `lines` lines of `w` canvas pixels from (x, top), each through the
    16-colour lut (a canvas byte holds two pixels, the left one in the high nibble)."""
    # band and canvas are the two locals viper keeps in registers: they walk the pixels
    start = int(canvas) + top * stride + (x >> 1)
    for _ in range(lines):
        canvas = ptr8(start)
        end = int(band) + 2 * w
        if x & 1:                          # the line starts on a byte's right pixel
            band[0] = lut[canvas[0] & 15]
            band = ptr16(int(band) + 2)
            canvas = ptr8(int(canvas) + 1)
        pair = end - 4                     # the last place two pixels fit
        while int(band) <= pair:           # two pixels a byte
            b = canvas[0]
            band[0] = lut[b >> 4]
            band[1] = lut[b & 15]
            band = ptr16(int(band) + 4)
            canvas = ptr8(int(canvas) + 1)
        if int(band) < end:                # the line ends on a byte's left pixel
            band[0] = lut[canvas[0] >> 4]
            band = ptr16(int(band) + 2)
        start += stride
