"""Sound cues (firmware.sound): the right cue for what happened at the table, note by note
without blocking the loop, a remembered mute, nothing at all on boards without a speaker,
the same PWM writes in the MicroPython VM, and the simulator's mixer and log."""
import importlib
import re
import sys
import types

import pytest

from engine import moves as mv
from firmware import buttons as B
from firmware import screens as S
from firmware import sound as snd
from firmware.app import App, AI_PACE_MS
from firmware.gfx import Canvas
from firmware.save import Store
from firmware.start import open_setup
from host_tests.test_game import stack
from tools.fakes import chipmodels
from tools.fakes.chipmodels import FakePWM
from tools.sim.circuitpython import Walker
from tools.sim.sound import Mixer, SimSound, Speaker, square_wave
from tools.vm import mpvm

SILENT_BOARDS = ("pico_display", "waveshare_lcd114", "tdisplay", "pico_oled")
KEYS = {S.NEXT: (B.RIGHT, B.PRESS), S.PREV: (B.LEFT, B.PRESS), S.OK: (B.A, B.PRESS),
        S.MENU: (B.B, B.LONG)}


def board(name):
    return importlib.import_module("board_configs." + name)


class Ears(Walker):
    """A player at a Thumby whose buzzer is a fake PWM; `heard()` names the cues so far."""

    def __init__(self, store=None, seed=11):
        self.board = board("thumby")
        self.canvas = Canvas(self.board.WIDTH, self.board.HEIGHT, self.board.DEPTH)
        self.pwm = Speaker()
        self.sound = SimSound(self.pwm)
        self.now = 0
        self.app = App(self.board, self.canvas, store, 0, playouts=8, seed=seed,
                       sound=self.sound)

    @property
    def screen(self):
        return self.app.screen

    def press(self, action):
        key, kind = KEYS[action]
        self.app.handle(key << 3 | kind)
        self.wait(10)

    def forward(self):
        self.press(S.NEXT)

    def ok(self):
        self.press(S.OK)

    def wait(self, ms):
        end = self.now + ms
        while self.now < end:
            self.now += 10
            self.app.tick(self.now)

    def heard(self):
        return [name for name, _ in self.sound.heard]

    def to_item(self, kind, card=None):
        """Move the table's cursor to the item of `kind` (a CARD_ITEM: holding `card`)."""
        t = self.screen
        for _ in range(t.item_n):
            i = t.cursor
            if t.item_kind[i] == kind and (card is None or t.hand[t.item_arg[i]] == card):
                return
            self.forward()
        raise AssertionError("no such item")

    def play_turn(self):
        """The first playable card (the first suit for a Jack), else draw or pass."""
        t = self.screen
        for i in range(t.item_n):
            if t.item_kind[i] == S.CARD_ITEM and t.playable[t.item_arg[i]]:
                break
        else:
            i = next(i for i in range(t.item_n) if t.item_kind[i] in (S.DRAW_ITEM, S.PASS_ITEM))
        while t.cursor != i:
            self.forward()
        self.ok()
        if self.screen.name == "picker":
            self.ok()

    def lay(self, hands, top, turn=0):
        """A chosen table (test_game.stack) as if just dealt, the app showing it; the
        holder to move has heard the turn cue, and the cues heard are forgotten."""
        game = self.app.game
        self.wait(600)                 # the cues of the real deal are over
        stack(game, hands, top, turn)
        game.last_seat = -1
        self.app.busy = True
        self.app._to_table()
        self.sound.heard.clear()
        self.wait(20 if turn == 0 else 0)
        assert self.heard() == (["turn"] if turn == 0 else [])
        self.sound.heard.clear()


def moves_of(game):
    """The moves of the round so far (game.moves holds seat << 11 | move)."""
    return [game.moves[i] & 0x7FF for i in range(game.n_moves)]


def card(name):
    from engine.notation import parse
    return parse(name)


def two_player(levels=(0, 3)):
    h = Ears()
    h.start(levels=list(levels))
    return h


# -- what the holder hears ----------------------------------------------------------

def test_saying_mau_with_the_play_sounds_mau():
    h = two_player()
    h.lay(["9H KH", "7S 8S 9S"], top="TH")
    h.to_item(S.CARD_ITEM, card("9H"))
    h.ok()
    assert h.screen.name == "mau" and h.screen.items[h.screen.cursor] == "With Mau"
    h.ok()
    assert h.heard() == ["mau"]


def test_a_forgotten_mau_caught_sounds_caught():
    h = two_player()
    h.lay(["9H KH", "7S 8S 9S"], top="TH")
    h.to_item(S.CARD_ITEM, card("9H"))
    h.ok()
    h.forward()                       # "Without Mau"
    h.ok()                            # no Mau said: the strong AI catches on its turn
    assert h.heard() == []
    h.wait(AI_PACE_MS + 20)
    assert mv.kind(h.app.game.last_move) != mv.CATCH or h.app.game.rnd.count(0) == 3
    assert any(mv.kind(m) == mv.CATCH for m in moves_of(h.app.game))
    assert h.heard()[0] == "caught"


def test_paying_the_sevens_sounds_penalty():
    h = two_player()
    h.lay(["8C 9C KD", "7H KS QS"], top="TH", turn=1)
    h.wait(2 * AI_PACE_MS)
    assert h.app.game.rnd.pending() == 2        # the AI's only fitting card was its seven
    assert h.heard() == ["turn"]
    h.to_item(S.DRAW_ITEM)
    h.ok()
    assert h.app.game.rnd.count(0) == 5 and h.heard() == ["turn", "penalty"]


def test_a_human_who_goes_out_hears_the_win_and_beaten_humans_hear_the_loss():
    h = two_player()
    h.lay(["9H", "7S 8S 9S"], top="TH")
    h.to_item(S.CARD_ITEM, card("9H"))
    h.ok()
    assert h.app.game.match_over() and h.heard() == ["win"]
    h = two_player()
    h.lay(["8C 9C", "9S"], top="TS", turn=1)
    h.wait(AI_PACE_MS)
    assert h.app.game.match_over() and h.heard() == ["lose"]


def test_the_turn_cue_starts_the_holders_turns_in_a_whole_game():
    """A scripted match against three AIs on the Thumby: "turn" only as the holder's turn
    begins (once a turn), and the match ends on the winner's cue."""
    h = Ears(seed=5)
    turns = []     # (moves so far, the holder to move and waiting for keys) at each turn cue

    def play(cue):
        if cue == snd.TURN:
            app = h.app
            turns.append((app.game.n_moves, app.screen is app.table and app.table.my_turn
                          and not app.busy))
        SimSound.play(h.sound, cue)
    h.sound.play = play
    h.start()

    def patient(ears):             # a player who waits until the last AI action was shown
        while ears.screen is ears.app.table and ears.app.busy and not ears.app.game.ai_to_act():
            ears.wait(10)
        while snd.TURN in (ears.sound.cue, ears.sound.queued):   # and hears the turn begin
            ears.wait(10)
    final = h.play_to(("final",), on_frame=patient)
    heard = h.heard()
    assert len(turns) >= 3 and all(waiting for _, waiting in turns)
    assert len(turns) == len(set(turns)) == heard.count("turn")
    assert heard[-1] == ("win" if final.title.startswith("You ") else "lose")


# -- note by note, never blocking ---------------------------------------------------

def test_a_cue_plays_note_by_note_over_several_ticks():
    pwm = FakePWM()
    sound = snd.Sound(pwm)
    sound.play(snd.WIN)
    assert pwm.writes == [("duty", 0)]          # queued: nothing before the tick
    log = []
    for now in range(0, 800, 10):
        before = len(pwm.writes)
        sound.tick(now)
        log += [(now, w) for w in pwm.writes[before:]]
    assert log == [(0, ("freq", 523)), (0, ("duty", 32768)),
                   (90, ("freq", 659)), (90, ("duty", 32768)),
                   (180, ("freq", 784)), (180, ("duty", 32768)),
                   (270, ("freq", 1047)), (270, ("duty", 32768)),
                   (530, ("duty", 0))]
    assert sound.cue == -1


def test_a_lower_cue_waits_for_none_and_a_higher_one_cuts_in():
    sound = snd.Sound(FakePWM())
    sound.play(snd.CAUGHT)
    sound.tick(0)
    sound.play(snd.TURN)                       # lower: dropped
    sound.tick(10)
    assert sound.cue == snd.CAUGHT and sound.queued == -1
    sound.play(snd.WIN)
    sound.tick(20)
    assert sound.cue == snd.WIN


def test_the_apps_frame_returns_while_the_cue_plays_on(monkeypatch):
    import threading
    import time
    loop = threading.current_thread()

    def never_here(sleep):
        def no_sleep(*args):
            if threading.current_thread() is loop:
                raise AssertionError("the loop slept")
            return sleep(*args)   # other threads (a displayio simulator's) sleep as usual
        return no_sleep
    for name in ("sleep", "sleep_ms", "sleep_us"):
        if hasattr(time, name):
            monkeypatch.setattr(time, name, never_here(getattr(time, name)))

    class NoKeys:
        def poll(self, now):
            pass

        def get(self):
            return -1
    h = two_player()
    h.lay(["9H", "7S 8S 9S"], top="TH")
    h.to_item(S.CARD_ITEM, card("9H"))
    h.app.handle(B.A << 3 | B.PRESS)            # the winning play: the win cue is queued
    h.app.frame(h.now + 10, NoKeys())
    assert h.sound.cue == snd.WIN and h.pwm.writes[-2:] == [("freq", 523), ("duty", 32768)]
    h.app.frame(h.now + 20, NoKeys())
    assert h.sound.cue == snd.WIN and h.pwm.writes[-1] == ("duty", 32768)   # the same note
    for k in range(3, 60):
        h.app.frame(h.now + 10 * k, NoKeys())
    assert h.sound.cue == -1 and h.pwm.writes[-1] == ("duty", 0)
    assert [w[1] for w in h.pwm.writes if w[0] == "freq"][-4:] == [523, 659, 784, 1047]


# -- the remembered mute ------------------------------------------------------------

def test_sound_off_in_the_pause_menu_is_remembered_across_a_restart(tmp_path):
    h = Ears(Store(str(tmp_path)))
    h.start()
    h.press(S.MENU)
    assert h.screen.name == "pause" and h.screen.items[-1] == "Sound: on"
    h.choose("Sound: on")
    assert h.screen.items[-1] == "Sound: off" and h.screen.cursor == len(h.screen.items) - 1
    assert not h.sound.on
    h.choose("Save and quit")
    again = Ears(Store(str(tmp_path)))           # power off, power on
    assert not again.sound.on
    again.choose("Continue")
    again.play_to(("scores",))
    assert again.heard() == [] and again.pwm.writes == [("duty", 0)]
    again.ok()
    again.choose("New game")                     # a new match keeps the choice
    again.press_row(("start", 0))
    third = Ears(Store(str(tmp_path)))
    assert not third.sound.on
    third.choose("Continue")
    third.press(S.MENU)
    third.choose("Sound: off")
    assert third.sound.on and Ears(Store(str(tmp_path))).sound.on


def test_a_board_with_a_speaker_boots_mute_as_remembered_without_the_setup_s_code(
        tmp_path, monkeypatch):
    # the title's first frame imports no firmware.setup for the sound's remembered choice
    # (its 13 KB of code had been the Thumby's peak at boot)
    Store(str(tmp_path)).save_settings({"seats": [["You", 0], ["Greta", 3]],
                                        "preset": "classic", "sound": False})
    monkeypatch.setitem(sys.modules, "firmware.setup", None)   # any import of it fails
    h = Ears(Store(str(tmp_path)))
    assert not h.sound.on and h.screen.name == "title"


def test_boards_without_a_speaker_have_no_sound_item():
    for name in SILENT_BOARDS:
        b = board(name)
        assert not hasattr(b, "open_sound")
        app = App(b, Canvas(b.WIDTH, b.HEIGHT, b.DEPTH), None, 0, playouts=4, seed=1)
        app.act(S.OK)
        open_setup(app)
        app._start(app.screen.setup)
        app.pause()
        assert not [item for item in app.screen.items if item.startswith("Sound")]
        assert "Save and quit" in app.screen.items


# -- the device's wiring ------------------------------------------------------------

VM_BOARDS = """
import sys
import chipmodels

def run(name):
    board = __import__("board_configs." + name, None, None, ("NAME",))
    rig = chipmodels.Rig(board, seed=4, model=False)
    chipmodels.play_game(rig, 8)
    pwm = chipmodels.FakePWM.made
    print("SOUND", name, rig.app.screen.name, "firmware.sound" in sys.modules, len(pwm),
          sum(len(p.writes) for p in pwm))
"""


def test_boards_without_a_speaker_import_no_sound_code_and_write_no_pwm():
    """In the MicroPython VM, as main.py opens them: the silent boards play without loading
    firmware.sound or making a PWM; the Thumby's buzzer is a PWM on GP28 that plays."""
    steps = ["run(%r)" % name for name in SILENT_BOARDS + ("thumby",)]
    result = mpvm.run(VM_BOARDS, modules=("engine", "firmware", "board_configs",
                                          "tools/fakes/chipmodels.py"),
                      extra_files={"/lib/machine.py": chipmodels.VM_MACHINE}, steps=steps,
                      heapsize=4 * 1024 * 1024, timeout=300).check()
    lines = [line.split() for line in result.stdout.splitlines() if line.startswith("SOUND ")]
    assert [line[1] for line in lines] == list(SILENT_BOARDS) + ["thumby"], result.stdout[-2000:]
    for line in lines[:-1]:
        assert line[2] == "table" and line[3:] == ["False", "0", "0"], line
    thumby = lines[-1]
    assert thumby[3:5] == ["True", "1"] and int(thumby[5]) > 1, thumby


def test_thumby_buzzer_is_a_pwm_on_gp28(monkeypatch):
    chipmodels.install_machine(monkeypatch)
    sound = board("thumby").open_sound()
    assert isinstance(sound, snd.Sound) and sound.pwm.pin.gpio == 28
    assert sound.pwm.writes == [("duty", 0)]    # silent until a cue


def test_the_badges_speaker_loops_a_square_wave_on_the_dac(monkeypatch):
    """CircuitPython: board.SPEAKER_ENABLE high, each note a looped RawSample at 16 x its pitch."""
    calls = []

    class Out:
        def __init__(self, pin):
            calls.append(("out", pin))

        def play(self, sample, loop=False):
            calls.append(("play", sample.sample_rate, loop))

        def stop(self):
            calls.append(("stop",))

    class Raw:
        def __init__(self, buffer, sample_rate=8000):
            self.buffer, self.sample_rate = buffer, sample_rate

    class Pin:
        def __init__(self, pin):
            self.pin = pin

        def switch_to_output(self, value=False):
            calls.append(("enable", self.pin, value))
    fakes = {"audioio": {"AudioOut": Out}, "audiocore": {"RawSample": Raw},
             "digitalio": {"DigitalInOut": Pin},
             "board": {"SPEAKER": "A0", "SPEAKER_ENABLE": "SPK_EN"}}
    for name, attrs in fakes.items():
        module = types.ModuleType(name)
        module.__dict__.update(attrs)
        monkeypatch.setitem(sys.modules, name, module)
    for name in ("pybadge", "pygamer"):
        del calls[:]
        sound = board(name).open_sound()
        sound.play(snd.TURN)
        for now in range(0, 200, 10):
            sound.tick(now)
        assert calls == [("enable", "SPK_EN", True), ("out", "A0"), ("stop",),
                         ("play", 1047 * 16, True), ("play", 1568 * 16, True), ("stop",)]
        wave = list(sound.pwm.wave.buffer)
        assert len(wave) == 16 and wave[:8] == [wave[0]] * 8 and wave[8:] == [wave[8]] * 8


VM_CUES = """
import micropython
from chipmodels import FakePWM
from firmware.sound import Sound, CUES

def cue(k):
    pwm = FakePWM()
    sound = Sound(pwm)
    sound.play(k)
    now = 0
    while now < 3000:
        n = len(pwm.writes)
        sound.tick(now)
        for w in pwm.writes[n:]:
            print("PWM", k, now, w[0], w[1])
        now += 10

def locked():
    FakePWM.record = False
    pwm = FakePWM()
    sound = Sound(pwm)
    played = 0
    for k in range(len(CUES)):
        sound.play(k)
        micropython.heap_lock()
        try:
            now = 0
            while now < 3000:
                sound.tick(now)
                now += 10
        finally:
            micropython.heap_unlock()
        played += 1
    print("LOCKED", played, pwm.duty)
"""


def cpython_writes(k):
    pwm = FakePWM()
    sound = snd.Sound(pwm)
    sound.play(k)
    out = []
    for now in range(0, 3000, 10):
        n = len(pwm.writes)
        sound.tick(now)
        out += ["PWM %d %d %s %d" % (k, now, w[0], w[1]) for w in pwm.writes[n:]]
    return out


def test_each_cue_writes_the_same_pwm_sequence_in_the_vm_allocating_nothing_per_tick():
    steps = ["cue(%d)" % k for k in range(len(snd.CUES))] + ["locked()"]
    result = mpvm.run(VM_CUES, modules=("engine", "firmware", "tools/fakes/chipmodels.py"),
                      steps=steps, timeout=120).check()
    lines = result.stdout.splitlines()
    vm = [line for line in lines if line.startswith("PWM ")]
    assert vm == [w for k in range(len(snd.CUES)) for w in cpython_writes(k)]
    assert "LOCKED %d 0" % len(snd.CUES) in lines, result.stdout[-1000:]


# -- the simulator ------------------------------------------------------------------

def test_headless_thumby_logs_its_cues_and_silent_boards_log_none(tmp_path, capsys):
    from tools.sim import __main__ as cli
    assert cli.main(["--board", "thumby", "--mode", "headless", "--script",
                     "A RIGHT*7 A wait:8000", "--save-dir", str(tmp_path / "t")]) == 0
    out = capsys.readouterr().out.splitlines()
    cues = [line for line in out if line.startswith("sound: ")]
    assert cues and all(re.fullmatch(r"sound: (%s) at \d+ ms" % "|".join(snd.NAMES), line)
                        for line in cues)
    assert "sound: turn at" in "\n".join(cues) and out[-1].startswith("thumby: ")
    log = tmp_path / "cues.txt"
    assert cli.main(["--board", "thumby", "--mode", "headless", "--script",
                     "A RIGHT*7 A wait:8000", "--save-dir", str(tmp_path / "t2"),
                     "--sound-log", str(log)]) == 0
    assert "sound: " not in capsys.readouterr().out
    assert "sound: turn at" in log.read_text()
    assert cli.main(["--board", "pico_oled", "--mode", "headless", "--script",
                     "A RIGHT*7 A wait:8000", "--save-dir", str(tmp_path / "o")]) == 0
    assert "sound:" not in capsys.readouterr().out


def test_a_seeded_thumby_keeps_its_speaker_and_the_pause_menus_sound_item(tmp_path, capsys):
    from tools.sim import __main__ as cli
    from tools.sim.device import Device, firmware_app_factory
    from tools.sim.sound import for_board
    assert cli.main(["--board", "thumby", "--mode", "headless", "--seed", "7", "--script",
                     "A RIGHT*7 A wait:8000", "--save-dir", str(tmp_path / "t")]) == 0
    assert "sound: turn at" in capsys.readouterr().out
    b = board("thumby")
    app = Device(b, cli.seeded(firmware_app_factory(), 7), str(tmp_path / "d"),
                 sound=for_board(b, "headless", str(tmp_path / "cues.txt"))).app
    open_setup(app)
    app._start(app.screen.setup)
    app.pause()
    assert app.screen.items[-1] == "Sound: on"


def test_the_simulators_speaker_plays_square_waves_on_the_mixer(monkeypatch):
    pytest.importorskip("pygame", reason="pygame-ce is in requirements.txt")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    wave = square_wave(441, rate=22050)
    samples = [int.from_bytes(wave[i:i + 2], "little", signed=True) for i in range(0, len(wave), 2)]
    assert len(samples) == 50 and samples[:25] == [samples[0]] * 25
    assert samples[25:] == [-samples[0]] * 25 and samples[0] > 0
    assert len(square_wave(441, rate=44100, channels=2)) == 100 * 2 * 2
    mixer = Mixer.open()
    assert mixer is not None
    try:
        speaker = Speaker(mixer)
        sound = SimSound(speaker)
        sound.play(snd.MAU)
        sound.tick(0)
        assert mixer.channel is not None and set(mixer.waves) == {1175}
        period = round(mixer.rate / 1175)        # samples of one period at the mixer's rate
        assert mixer.waves[1175].get_length() == pytest.approx(period / mixer.rate, abs=1e-5)
        sound.tick(90)
        assert set(mixer.waves) == {1175, 880}
        sound.tick(250)
        assert mixer.channel is None and sound.heard == [("mau", 0)]
    finally:
        mixer.pygame.mixer.quit()
