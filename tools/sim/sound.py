"""The simulated speaker: firmware.sound's cues on a fake PWM, heard through pygame-ce's mixer
and logged.

    python -m tools.sim --board thumby --mode headless --script "..."   # prints "sound: turn at 4210 ms"
    python -m tools.sim --board thumby --sound-log cues.txt               # the log in a file

Only boards whose config has `open_sound()` get one (the simulator never calls it: the
device's PWM is replaced by `Speaker`, a tools.fakes.chipmodels.FakePWM that also plays).
A window (and the terminal, where pygame imports) plays each note as a looped square wave
at its frequency; without a sound card SDL's dummy audio driver takes the samples. Headless
runs play nothing and log every cue, on stdout unless --sound-log names a file.
"""
import os
import sys

from firmware.sound import NAMES, Sound
from tools.fakes.chipmodels import FakePWM

RATE = 22050        # mixer samples a second
VOLUME = 0.2        # of full scale: a buzzer, not an alarm


def has_sound(board):
    """True for a board with a speaker or buzzer (its config has open_sound)."""
    return hasattr(board, "open_sound")


def square_wave(hz, rate=RATE, channels=1, volume=VOLUME):
    """One period of a square wave at `hz` (as near as whole samples go): 16-bit samples,
    each repeated for every channel."""
    from array import array
    period = max(2, round(rate / hz))
    high = int(32767 * volume)
    half = period // 2
    return array("h", [high] * (half * channels) + [-high] * ((period - half) * channels)).tobytes()


class Mixer:
    """pygame-ce's mixer playing one looped square wave at a time (SDL's dummy driver when no
    sound card answers); `None` from `open()` when pygame is missing."""

    def __init__(self, pygame):
        self.pygame = pygame
        # the mixer's own format: pygame.init() (the displayio simulator's) may have started it
        self.rate, _, self.channels = pygame.mixer.get_init()
        self.waves = {}     # frequency -> pygame.mixer.Sound
        self.channel = None

    @classmethod
    def open(cls):
        """A started mixer, or None when pygame or every audio driver is missing."""
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        try:
            import pygame
        except ImportError:
            return None
        for driver in (None, "dummy"):
            if driver:
                os.environ["SDL_AUDIODRIVER"] = driver
            try:
                pygame.mixer.init(frequency=RATE, size=-16, channels=1)
                return cls(pygame)
            except pygame.error:
                continue
        return None

    def tone(self, hz):
        """Play `hz` until the next tone or silence."""
        wave = self.waves.get(hz)
        if wave is None:
            wave = self.waves[hz] = self.pygame.mixer.Sound(
                buffer=square_wave(hz, self.rate, self.channels))
        self.channel = wave.play(loops=-1)

    def silence(self):
        """Stop the tone."""
        if self.channel is not None:
            self.channel.stop()
            self.channel = None


class Speaker(FakePWM):
    """The board's PWM as the device has it (machine.PWM's freq, duty_u16), heard on a Mixer."""

    def __init__(self, mixer=None):
        FakePWM.__init__(self)
        self.mixer = mixer

    def duty_u16(self, duty=None):
        """Set the duty (0: silence; else the tone at the frequency set), or read it."""
        result = FakePWM.duty_u16(self, duty)
        if duty is not None and self.mixer is not None:
            if duty:
                self.mixer.tone(self.hz)
            else:
                self.mixer.silence()
        return result


class SimSound(Sound):
    """firmware.sound.Sound on a Speaker; each cue that starts is logged as it begins."""

    def __init__(self, speaker, log=None):
        Sound.__init__(self, speaker)
        self.log = log        # a file to write "sound: <cue> at <ms> ms" lines to, or None
        self.heard = []       # (cue name, ms) of every cue started

    def started(self, cue, now_ms):
        """Remember (and log) the cue."""
        self.heard.append((NAMES[cue], now_ms))
        if self.log is not None:
            self.log.write("sound: %s at %d ms\n" % (NAMES[cue], now_ms))
            self.log.flush()


def for_board(board, mode, log_path=None):
    """The SimSound a simulated board gets in `mode` (window, terminal, headless), or None
    for a board without a speaker. Headless logs to stdout unless `log_path` is given."""
    if not has_sound(board):
        return None
    log = open(log_path, "w") if log_path else (sys.stdout if mode == "headless" else None)
    mixer = Mixer.open() if mode != "headless" else None
    return SimSound(Speaker(mixer), log)
