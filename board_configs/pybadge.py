"""Adafruit PyBadge (SAMD51, CircuitPython): 1.8" ST7735R 160x128 as board.DISPLAY, eight buttons.

The buttons sit on a 74HC165 shift register (board.BUTTON_CLOCK, BUTTON_OUT, BUTTON_LATCH)
read with keypad.ShiftRegisterKeys, pressed = 1, in the bit order 0 B, 1 A, 2 Start,
3 Select, 4 Right, 5 Down, 6 Up, 7 Left. KEYS pairs each firmware key with its bit; Start
and Select are the firmware's X and Y (menu and back: firmware/keys_dio.py). The display
is CircuitPython's own: nothing to wire.
The speaker (board.SPEAKER: the DAC pin A0; its amplifier on board.SPEAKER_ENABLE)
plays firmware.sound's cues through firmware/sound_dio.py.
"""
NAME = "Adafruit PyBadge"
WIDTH, HEIGHT, DEPTH = 160, 128, 16
DISPLAYIO = True     # drawn with displayio (firmware/paint_dio.py), run by firmware/cp_main.py
LAYOUT = "dpad"
KEYS = (("B", 0), ("A", 1), ("X", 2), ("Y", 3), ("RIGHT", 4), ("DOWN", 5), ("UP", 6),
        ("LEFT", 7))
SPEAKER = ("SPEAKER", "SPEAKER_ENABLE")   # board pins: the DAC output, the amplifier's enable
KEY_COUNT = 8


def open_display():
    """The built-in display (device only)."""
    import board
    return board.DISPLAY


def open_buttons():
    """The buttons (device only)."""
    from firmware.keys_dio import shift_keys
    return shift_keys(KEYS, KEY_COUNT)


def open_sound():
    """The speaker, as firmware.sound plays it (device only)."""
    from firmware.sound_dio import speaker_sound
    return speaker_sound(*SPEAKER)
