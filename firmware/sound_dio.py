"""The PyBadge's and PyGamer's speaker with machine.PWM's two calls, for firmware.sound.

board.SPEAKER is the SAMD51's DAC pin (A0), which no timer reaches, so pwmio cannot
drive it; as Adafruit's simpleio.tone does on such pins, a note is a short square wave
looped by audioio.AudioOut (audiocore.RawSample), its pitch set by the sample rate. The
amplifier listens once board.SPEAKER_ENABLE is high. Playing is done by the DAC's DMA:
the loop only starts and stops it.
"""

from engine.compat import const

_SAMPLES = const(16)   # samples in one period of the wave: the rate is 16 x the pitch
_HIGH = const(0xA000)  # the wave swings this far either side of the DAC's middle: moderate
_LOW = const(0x6000)


class Speaker:
    """machine.PWM's `freq(hz)` and `duty_u16(duty)` over a looped wave on the DAC."""

    def __init__(self, speaker, enable):
        import array
        import audiocore
        import audioio
        import board
        import digitalio
        self.enable = digitalio.DigitalInOut(getattr(board, enable))
        self.enable.switch_to_output(value=True)
        half = _SAMPLES // 2
        wave = array.array("H", [_HIGH] * half + [_LOW] * half)
        self.wave = audiocore.RawSample(wave, sample_rate=8000)
        self.out = audioio.AudioOut(getattr(board, speaker))
        self.hz = 440

    def freq(self, hz):
        """The pitch of the next note."""
        self.hz = hz

    def duty_u16(self, duty):
        """0: silence; else play the wave at the pitch set."""
        if duty:
            self.wave.sample_rate = self.hz * _SAMPLES
            self.out.play(self.wave, loop=True)
        else:
            self.out.stop()


def speaker_sound(speaker, enable):
    """firmware.sound's Sound on the speaker at board pins named `speaker` and `enable`."""
    from firmware.sound import Sound
    return Sound(Speaker(speaker, enable))
