"""Adafruit PyGamer (SAMD51, CircuitPython): 1.8" ST7735R 160x128 as board.DISPLAY, four
buttons and an analog thumbstick.

B, A, Start and Select sit on the 74HC165 shift register (keypad.ShiftRegisterKeys, bits
0 B, 1 A, 2 Start, 3 Select, pressed = 1); the thumbstick (board.JOYSTICK_X, JOYSTICK_Y)
is read as the d-pad (firmware/keys_dio.py: Stick). Start and Select are the firmware's X
and Y (menu and back).
The speaker (board.SPEAKER: the DAC pin A0; its amplifier on board.SPEAKER_ENABLE)
plays firmware.sound's cues through firmware/sound_dio.py.
"""
NAME = "Adafruit PyGamer"
WIDTH, HEIGHT, DEPTH = 160, 128, 16
DISPLAYIO = True     # drawn with displayio (firmware/paint_dio.py), run by firmware/cp_main.py
LAYOUT = "dpad"
KEYS = (("B", 0), ("A", 1), ("X", 2), ("Y", 3))
STICK = ("JOYSTICK_X", "JOYSTICK_Y")
SPEAKER = ("SPEAKER", "SPEAKER_ENABLE")   # board pins: the DAC output, the amplifier's enable
KEY_COUNT = 4


def open_display():
    """The built-in display (device only)."""
    import board
    return board.DISPLAY


def open_buttons():
    """The buttons and the thumbstick (device only)."""
    from firmware.keys_dio import shift_keys
    return shift_keys(KEYS, KEY_COUNT, STICK)


def open_sound():
    """The speaker, as firmware.sound plays it (device only)."""
    from firmware.sound_dio import speaker_sound
    return speaker_sound(*SPEAKER)
