"""Saving (firmware.save): atomic files, power cuts at every byte, damaged and foreign
files, resuming exactly, settings and statistics; and the same core in the MicroPython VM."""
import binascii
import json
import os
import random
import shutil

import pytest

from firmware import load, save
from firmware.game import Game
from firmware.save import Store, OK, NONE, DAMAGED, MATCH

PLAYOUTS = 12
SEATS = [["Anna", 0], ["Finn", 4], ["Greta", 1], ["Emma", 3]]


def setup(preset="classic", kind="rounds", limit=2, seats=SEATS):
    return {"seats": [list(s) for s in seats], "preset": preset, "options": {},
            "match": kind, "limit": limit}


def advance(game):
    """One step as the screens make them: an AI action, the human's hinted move, or the
    next deal. Returns what happened, to compare two games step by step."""
    if game.round_over():
        game.next_round()
        return ("deal", game.rounds_played())
    if game.ai_to_act():
        return ("ai", game.step_ai())
    if game.needs_cover():
        game.uncover()
    move = game.hint()
    game.play(move)
    return ("human", move)


def snap(game):
    """Everything a resumed game must equal: the saved state, the table bytes, the moves,
    and what the stories hold."""
    state, dealt, moves = game.snapshot()
    if game.match.round is None:  # between rounds only the match is kept
        return json.dumps(state, sort_keys=True)
    ring = [game.ring[i % len(game.ring)] for i in range(game.told)]
    return (json.dumps(state, sort_keys=True), bytes(game.rnd.s), list(moves[:game.n_moves]),
            ring)


def file_bytes(path):
    with open(path, "rb") as f:
        return f.read()


# -- checksum and files ----------------------------------------------------------------

def test_table_free_crc32_equals_binascii():
    rng = random.Random(5)
    for size in (0, 1, 2, 3, 7, 64, 1000):
        data = bytes(rng.randrange(256) for _ in range(size))
        assert save.crc32_slow(data) == binascii.crc32(data)
        head, tail = data[:size // 3], data[size // 3:]
        assert save.crc32_slow(tail, save.crc32_slow(head)) == binascii.crc32(data)
        assert save.checksum(tail, save.checksum(head)) == binascii.crc32(data)


def test_nothing_saved_imports_no_resume_code(tmp_path, monkeypatch):
    # the boot's look at the saves: with no match saved, firmware.resume (and the game's
    # code under it) is not imported
    from firmware import load
    imported = []
    resume = load._resume
    monkeypatch.setattr(load, "_resume", lambda: imported.append(1) or resume())
    store = Store(str(tmp_path))
    assert store.load_game(4) == (None, NONE) and store.read_game() == (None, NONE)
    assert imported == []


def test_a_port_without_binascii_writes_the_same_file(tmp_path, monkeypatch):
    parts = (b"hello ", bytearray(b"world"), bytes(range(256)) * 3)
    Store(str(tmp_path / "c")).write("thing", parts)
    monkeypatch.setattr(save, "crc32", None)       # the CRC in 16-bit halves
    Store(str(tmp_path / "python")).write("thing", parts)
    assert file_bytes(tmp_path / "c" / "thing") == file_bytes(tmp_path / "python" / "thing")


def test_a_file_round_trips_with_its_header(tmp_path):
    store = Store(str(tmp_path / "saves"))
    store.write("thing", (b"hello ", bytearray(b"world")))
    raw = file_bytes(tmp_path / "saves" / "thing")
    assert raw[:4] == b"MauM" and raw[4:6] == b"\x01\x00"
    assert int.from_bytes(raw[6:10], "little") == 11
    assert int.from_bytes(raw[10:14], "little") == binascii.crc32(b"hello world")
    assert store.read("thing") == (b"hello world", OK)
    assert store.read("nothing") == (None, NONE)
    assert sorted(os.listdir(tmp_path / "saves")) == ["thing"]


@pytest.mark.parametrize("garbage", [b"", b"hello", b"MauM", b'{"seats": []}',
                                     b"MauM\x02\x00\x03\x00\x00\x00\x00\x00\x00\x00abc",
                                     b"MauM\x01\x00\xff\xff\xff\x7f\x00\x00\x00\x00abc",
                                     b"MauM\x01\x00\x02\x00\x00\x00\x00\x00\x00\x00abc",
                                     bytes(range(256)) * 400])
def test_a_foreign_file_is_set_aside_and_reported(tmp_path, garbage):
    store = Store(str(tmp_path))
    (tmp_path / MATCH).write_bytes(garbage)
    assert store.load_game() == (None, DAMAGED)
    assert file_bytes(tmp_path / "match.bad") == garbage
    assert not (tmp_path / MATCH).exists()
    assert store.load_game() == (None, NONE)  # the next start is a fresh one


def test_every_damaged_byte_is_caught_and_the_next_save_works(tmp_path):
    store = Store(str(tmp_path))
    game = Game(setup(), seed=3, playouts=PLAYOUTS)
    for _ in range(15):
        advance(game)
    store.save_game(game)
    good = file_bytes(tmp_path / MATCH)
    for i in range(0, len(good), max(1, len(good) // 97)):
        bad = bytearray(good)
        bad[i] ^= 1 << (i % 8)
        (tmp_path / MATCH).write_bytes(bytes(bad))
        assert store.load_game(PLAYOUTS) == (None, DAMAGED), i
        assert file_bytes(tmp_path / "match.bad") == bytes(bad)
    store.save_game(game)
    resumed, status = store.load_game(PLAYOUTS)
    assert status == OK and snap(resumed) == snap(game)


def test_a_sound_file_that_does_not_replay_counts_as_damaged(tmp_path):
    store = Store(str(tmp_path))
    game = Game(setup(), seed=3, playouts=PLAYOUTS)
    for _ in range(10):
        advance(game)
    store.save_game(game)
    data, _ = store.read(MATCH)
    n = int.from_bytes(data[:2], "little")
    state = json.loads(data[2:2 + n])
    for key, value in (("now", [1, 2]), ("seated", [0, 9]), ("moves", 0)):
        broken = dict(state)
        broken[key] = value
        head = json.dumps(broken).encode()
        store.write(MATCH, (len(head).to_bytes(2, "little"), head, data[2 + n:]))
        assert store.load_game(PLAYOUTS) == (None, DAMAGED), key
        assert (tmp_path / "match.bad").exists()


# -- power cuts ------------------------------------------------------------------------

class PowerCut(Exception):
    """The power went: nothing after this point runs."""


class CutFile:
    """A file that takes `budget` bytes, then loses power."""

    def __init__(self, f, budget):
        self.f, self.budget = f, budget

    def write(self, data):
        data = bytes(data)
        if len(data) > self.budget:
            self.f.write(data[:self.budget])
            self.budget = 0
            raise PowerCut()
        self.f.write(data)
        self.budget -= len(data)

    def flush(self):
        self.f.flush()

    def close(self):
        self.f.close()


class CutStore(Store):
    """A Store whose match write loses power: after `cut_at` bytes of the .tmp, before
    the rename, or (FAT) after the old file was removed. `fat`: rename never replaces."""

    def __init__(self, root, cut_at=None, before_rename=False, after_remove=False, fat=False):
        super().__init__(root)
        self.cut_at, self.before_rename = cut_at, before_rename
        self.after_remove, self.fat = after_remove, fat

    def _open(self, path, mode):
        f = open(path, mode)
        if "w" in mode and path.endswith(MATCH + ".tmp") and self.cut_at is not None:
            return CutFile(f, self.cut_at)
        return f

    def _rename(self, old, new):
        if self.fat and os.path.exists(new):
            raise OSError(17, "FAT: the target exists")
        if self.before_rename and old.endswith(MATCH + ".tmp"):
            raise PowerCut()
        os.rename(old, new)

    def _remove(self, path):
        super()._remove(path)
        if self.after_remove and path.endswith("/" + MATCH):
            raise PowerCut()


def saved_bytes(game, folder):
    shutil.rmtree(folder, ignore_errors=True)
    Store(folder).save_game(game)
    return file_bytes(os.path.join(folder, MATCH))


@pytest.mark.parametrize("preset,steps", [("classic", 23), ("nordic", 31)])
def test_a_power_cut_at_every_byte_resumes_at_the_last_completed_move(tmp_path, preset, steps):
    game = Game(setup(preset), seed=17, playouts=PLAYOUTS)
    for _ in range(steps):
        advance(game)
    assert game.in_round()
    old = saved_bytes(game, str(tmp_path / "old"))
    before = snap(game)
    advance(game)
    assert game.in_round()
    new = saved_bytes(game, str(tmp_path / "new"))
    after = snap(game)
    folder = str(tmp_path / "cut")
    for k in range(len(new) + 1):
        for with_old in (True, False):
            shutil.rmtree(folder, ignore_errors=True)
            os.mkdir(folder)
            if with_old:
                with open(os.path.join(folder, MATCH), "wb") as f:
                    f.write(old)
            if k < len(new):
                cutter = CutStore(folder, cut_at=k)
            else:
                cutter = CutStore(folder, before_rename=True)
            with pytest.raises(PowerCut):
                cutter.save_game(game)
            assert file_bytes(os.path.join(folder, MATCH + ".tmp")) == new[:k]
            assert Store(folder).has_game() == (with_old or k == len(new))
            resumed, status = Store(folder).load_game(PLAYOUTS)
            if with_old:
                assert status == OK and snap(resumed) == before, k
            elif k < len(new):
                assert (resumed, status) == (None, NONE), k  # nothing had ever been saved
            else:
                assert status == OK and snap(resumed) == after
            assert sorted(os.listdir(folder)) == ([MATCH] if resumed else [])
            assert Store(folder).has_game() == (resumed is not None)


def test_fat_removes_then_renames_and_a_cut_between_keeps_the_new_save(tmp_path):
    folder = str(tmp_path)
    game = Game(setup("nordic"), seed=5, playouts=PLAYOUTS)   # a round longer than 41 steps
    fat = CutStore(folder, fat=True)
    game.on_change = fat.save_game
    for _ in range(40):
        advance(game)
        resumed, status = Store(folder).load_game(PLAYOUTS)
        assert status == OK and snap(resumed) == snap(game)
    game.on_change = None
    advance(game)
    with pytest.raises(PowerCut):
        CutStore(folder, fat=True, after_remove=True).save_game(game)
    assert os.listdir(folder) == [MATCH + ".tmp"]
    assert Store(folder).has_game()
    resumed, status = Store(folder).load_game(PLAYOUTS)
    assert status == OK and snap(resumed) == snap(game)
    assert os.listdir(folder) == [MATCH]  # the interrupted replace was finished


# -- resuming is exact ---------------------------------------------------------------------

@pytest.mark.parametrize("preset", ["classic", "nordic"])
def test_a_resumed_game_plays_on_exactly_like_the_uninterrupted_one(tmp_path, preset):
    store = Store(str(tmp_path))
    game = Game(setup(preset, "rounds", 3), seed=30, playouts=PLAYOUTS)
    game.on_change = store.save_game
    store.save_game(game)
    checked = 0
    step = 0
    while not game.match_over():
        step += 1
        if step % 13 == 0:
            resumed, status = store.load_game(PLAYOUTS)
            assert status == OK and snap(resumed) == snap(game)
            for _ in range(9):  # the same decisions, move by move, after resuming
                if game.match_over():
                    break
                assert advance(resumed) == advance(game)
                assert snap(resumed) == snap(game)
            checked += 1
        else:
            advance(game)
    assert checked >= 5
    resumed, status = store.load_game(PLAYOUTS)
    assert status == OK and resumed.match_over() and resumed.winner() == game.winner()
    assert resumed.results() == game.results()


def test_resuming_between_rounds_keeps_the_results_and_joins(tmp_path):
    store = Store(str(tmp_path))
    game = Game(setup("classic", "rounds", 3), seed=8, playouts=PLAYOUTS)
    game.on_change = store.save_game
    while not game.round_over():
        advance(game)
    game.join("Ida", 2)
    game.leave(1)
    resumed, status = store.load_game(PLAYOUTS)
    assert status == OK and resumed.round_over() and snap(resumed) == snap(game)
    assert resumed.results() == game.results() and resumed.seated() == [0, 2, 3, 4]
    assert resumed.player_name(4) == "Ida"
    for _ in range(30):
        assert advance(resumed) == advance(game)


# -- settings and statistics -------------------------------------------------------------

def test_settings_remember_the_last_setup(tmp_path):
    store = Store(str(tmp_path))
    assert store.load_settings() == (None, NONE)
    store.save_settings(setup("nordic", "elimination", 150))
    assert Store(str(tmp_path)).load_settings() == (setup("nordic", "elimination", 150), OK)
    (tmp_path / "settings").write_bytes(b"MauM garbage")
    assert Store(str(tmp_path)).load_settings() == (None, DAMAGED)    # as at a boot
    assert (tmp_path / "settings.bad").exists()
    assert store.load_settings() == (setup("nordic", "elimination", 150), OK)   # as written


def reads(store, monkeypatch):
    """The files `store` opens and the times it takes firmware.load, noted as they happen."""
    seen = []
    opened = store._open
    monkeypatch.setattr(store, "_open", lambda path, mode: seen.append(path) or opened(path, mode))
    monkeypatch.setattr(save, "_load", lambda: seen.append("firmware.load") or load)
    return seen


def test_the_store_remembers_the_setup_it_wrote_or_read(tmp_path, monkeypatch):
    """The setup is read from its file once (at boot) and remembered when written: opening
    the setup reads nothing and imports no firmware.load (its code and a read were in the
    frame that opens the setup, the heap's highest)."""
    played = setup("nordic", "elimination", 150)
    store = Store(str(tmp_path))
    seen = reads(store, monkeypatch)
    assert store.load_settings() == (None, NONE) == store.load_settings()   # nothing saved
    assert seen == ["firmware.load", store.path("settings"), store.path("settings.tmp")]
    store.save_settings(played)
    del seen[:]                                      # the write's own
    first, status = store.load_settings()
    assert (first, status) == (played, OK) and seen == []
    first["seats"].pop()                             # a setup screen changes its copy ...
    first["limit"] = 300
    assert store.load_settings() == (played, OK) and seen == []   # ... and not the store's
    fresh = Store(str(tmp_path))                     # a boot: read once, then remembered
    seen = reads(fresh, monkeypatch)
    assert fresh.load_settings() == (played, OK) == fresh.load_settings()
    assert seen.count("firmware.load") == 1 and seen.count(fresh.path("settings")) == 1


def test_the_setup_after_a_match_is_offered_without_a_read_in_the_vm():
    """On MicroPython the last setup, once written, is offered from what the store remembers:
    its JSON parsed and checked, under 1 KB (2.7 KB before: firmware.load imported and let
    go, the file read and summed)."""
    from tools.vm import mpvm
    made = mpvm.measure_alloc("last_setup(store)", """
import firmware.game
from firmware.save import Store
from firmware.setup import default_setup, last_setup
store = Store("/")
store.save_settings(default_setup())
last_setup(store)
""", modules=("engine", "firmware"), timeout=60)
    assert made < 1024, made


def test_a_setup_the_flash_refused_is_read_back_as_the_file_holds_it(tmp_path, monkeypatch):
    store = Store(str(tmp_path))
    store.save_settings(setup("classic"))
    opened = store._open

    def full(path, mode):
        if "w" in mode:
            raise OSError(28, "full")
        return opened(path, mode)

    monkeypatch.setattr(store, "_open", full)
    store.save_settings(setup("nordic"))
    assert store.trouble and store.load_settings() == (setup("classic"), OK)
    monkeypatch.setattr(store, "_open", opened)        # written again with the next save
    store.save_game(Game(setup("nordic"), seed=1, playouts=PLAYOUTS))
    assert not store.trouble and store.load_settings() == (setup("nordic"), OK)
    assert Store(str(tmp_path)).load_settings() == (setup("nordic"), OK)


def test_statistics_count_each_round_and_match_once(tmp_path):
    store = Store(str(tmp_path))
    seats = [["Anna", 0], ["Finn", 2], ["Greta", 3]]
    results = []
    for seed in (1, 2):
        game = Game(setup("classic", "rounds", 2, seats), seed=seed, playouts=PLAYOUTS)
        game.on_change = store.save_game
        while not game.match_over():
            advance(game)
            if game.round_over():
                results.append((game.results(), game.round_winner()))
                store.save_game(game)  # saving again counts nothing twice
        Store(str(tmp_path)).save_game(game)  # nor does another store (no cached marks)
        results.append(("match", game.winner()))
    stats = Store(str(tmp_path)).stats()
    for name in ("Anna", "Finn", "Greta"):
        games, wins, rounds, won, points = stats[name]
        assert games == 2 and rounds == 4
        assert points == sum(p for r, _ in results if r != "match" for n, p, _ in r if n == name)
        player = [s[0] for s in seats].index(name)
        assert won == sum(1 for r, w in results if r != "match" and w == player)
        assert wins == sum(1 for r, w in results if r == "match" and w == player)


# -- the same core in the MicroPython VM ---------------------------------------------------

SCENARIO = """
from firmware.game import Game
from firmware.save import Store, OK, DAMAGED, NONE, crc32_slow, checksum
import json

def advance(game):
    if game.match_over():
        return ["over", game.winner()]
    if game.round_over():
        game.next_round()
        return ["deal", game.rounds_played()]
    if game.ai_to_act():
        return ["ai", game.step_ai()]
    if game.needs_cover():
        game.uncover()
    move = game.hint()
    game.play(move)
    return ["human", move]

def canon(x):
    # x with every dict as a sorted list of pairs (MicroPython dicts have no order)
    if isinstance(x, dict):
        return [[k, canon(x[k])] for k in sorted(x)]
    if isinstance(x, (list, tuple)):
        return [canon(v) for v in x]
    return x

def state(game):
    s, dealt, moves = game.snapshot()
    return json.dumps(canon([s, None if dealt is None else list(dealt),
                             [moves[i] for i in range(game.n_moves)]]))

assert 0 <= Game({"seats": [["A", 0], ["B", 1]]}).seed < 1 << 30  # seeds itself
data = bytes(range(256)) + b"Mau-Mau"
assert crc32_slow(data) == checksum(data)
setup = {"seats": [["Anna", 0], ["Finn", 4], ["Greta", 1], ["Emma", 0]], "preset": "nordic",
         "options": {}, "match": "rounds", "limit": 3}
store = Store(ROOT)
game = Game(setup, 77, 12)
game.on_change = store.save_game
store.save_game(game)
log = []
for i in range(70):
    log.append(advance(game))
resumed, status = store.load_game(12)
assert status == OK
assert state(resumed) == state(game)
for i in range(30):
    a = advance(resumed)
    b = advance(game)
    assert a == b
    log.append(b)
assert state(resumed) == state(game)
lines = game.story(0)
f = open(ROOT + "/match", "wb")
f.write(b"not a save")
f.close()
assert store.load_game(12) == (None, DAMAGED)
assert open(ROOT + "/match.bad", "rb").read() == b"not a save"
assert store.load_game(12) == (None, NONE)
print("LOG " + json.dumps(log))
print("STORY " + json.dumps(lines))
print("STATE " + state(game))
"""


TIMING = """
import time, os
game.on_change = None
while game.n_moves < 60 and not game.round_over():
    advance(game)
t = time.ticks_ms()
for i in range(20):
    store.save_game(game)
t1 = time.ticks_ms()
for i in range(20):
    store.load_game(12)
t2 = time.ticks_ms()
print("TIMING %.1f %.1f %d %d" % ((t1 - t) / 20, (t2 - t1) / 20,
                                  os.stat(ROOT + "/match")[6], game.n_moves))
"""


def firmware_copy(tmp_path):
    """Only this engineer's firmware modules (others may be mid-change)."""
    folder = tmp_path / "firmware"
    folder.mkdir()
    root = os.path.dirname(save.__file__)
    for name in ("__init__.py", "game.py", "deal.py", "story.py", "save.py", "load.py", "resume.py",
                 "stats.py"):
        shutil.copy(os.path.join(root, name), folder / name)
    return folder


def test_the_core_runs_the_same_in_the_micropython_vm(tmp_path, capsys):
    from tools.vm import mpvm
    result = mpvm.run("ROOT = '/tmp/saves'\n" + SCENARIO,
                      modules=("engine", str(firmware_copy(tmp_path))),
                      steps=["import gc\ngc.collect()\nA = gc.mem_alloc()",
                             "G = Game(setup, 5, None)\nG.on_change = None",
                             "gc.collect()\nprint('GAME_HEAP', gc.mem_alloc() - A)",
                             TIMING],
                      timeout=240, label="firmware core").check()
    printed = {}
    for line in result.stdout.splitlines():
        key, _, rest = line.partition(" ")
        printed[key] = rest
    folder = tmp_path / "host"
    namespace = {"ROOT": str(folder)}
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(SCENARIO, namespace)
    host = dict(line.partition(" ")[::2] for line in out.getvalue().splitlines())
    assert printed["LOG"] == host["LOG"]        # the same decisions on both runtimes
    assert printed["STORY"] == host["STORY"]
    assert printed["STATE"] == host["STATE"]
    save_ms, load_ms, size, moves = printed["TIMING"].split()
    with capsys.disabled():
        print("\nfirmware core in the VM: a 4-seat nordic Game (Expert, Beginner, two "
              "humans) holds %s bytes of heap after GC; a match save of %s bytes (%s moves "
              "into the round) takes %s ms to write and %s ms to load and replay (VM)"
              % (printed["GAME_HEAP"], size, moves, save_ms, load_ms))


def test_custom_options_survive_the_save(tmp_path):
    store = Store(str(tmp_path))
    custom = {"seats": [["Anna", 0], ["Finn", 3]], "preset": "classic",
              "options": {"must_play_if_able": True, "ace": "draw4", "points": {"J": 20},
                          "mau_penalty": "auto"},
              "match": "elimination", "limit": 90}
    game = Game(custom, seed=12, playouts=PLAYOUTS)
    game.on_change = store.save_game
    for _ in range(12):
        advance(game)
    resumed, status = store.load_game(PLAYOUTS)
    assert status == OK and snap(resumed) == snap(game)
    assert resumed.rules.to_dict() == game.rules.to_dict()
    assert resumed.rules.points[11] == 20 and resumed.rules.must_play_if_able


def test_paths_under_a_root_folder_the_filesystem_root_and_the_current_folder(tmp_path):
    assert Store("/").path(MATCH) == "/match"
    assert Store(str(tmp_path) + "/").path(MATCH) == str(tmp_path) + "/match"
    assert Store(str(tmp_path)).path("stats") == str(tmp_path) + "/stats"
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        store = Store("")
        store.save_settings({"seats": []})
        assert os.listdir(".") == ["settings"] and store.load_settings() == ({"seats": []}, OK)
    finally:
        os.chdir(here)


# -- a flash that refuses to write -------------------------------------------------------

ENOSPC, EROFS, EEXIST = 28, 30, 17
TROUBLE = {ENOSPC: "Storage full: not saved", EROFS: "Storage read-only: not saved"}
# the steps a refusing flash fails at; "fat": a rename never replaces a file (EEXIST)
STEPS = [("open",), ("write",), ("close",), ("rename",), ("rename", "remove"),
         ("write", "remove"), ("fat", "rename"), ("fat", "rename", "remove")]
FILES = (MATCH, save.SETTINGS, save.STATS)


class Refusing(Store):
    """A Store on a flash that fails with `errno` at `steps` (open, write, close, rename,
    remove) for the files in `names` (None: every file); `heal()` makes it work again."""

    def __init__(self, root, errno, steps, names=None):
        super().__init__(root)
        self.errno, self.steps, self.names = errno, steps, names
        self.refusals = 0

    def refuses(self, step, path):
        name = os.path.basename(path).split(".")[0]
        return step in self.steps and (self.names is None or name in self.names)

    def fail(self, step, path):
        if self.refuses(step, path):
            self.refusals += 1
            raise OSError(self.errno, os.strerror(self.errno))

    def heal(self):
        self.steps = ("fat",) if "fat" in self.steps else ()

    def _open(self, path, mode):
        if "w" in mode:
            self.fail("open", path)
            return RefusingFile(open(path, mode), self, path)
        return open(path, mode)

    def _rename(self, old, new):
        if "fat" in self.steps and os.path.exists(new):
            raise OSError(EEXIST, "FAT: the target exists")
        self.fail("rename", old)
        os.rename(old, new)

    def _remove(self, path):
        if not self.refuses("remove", path):   # else os.remove failed, which _remove takes quietly
            super()._remove(path)


class RefusingFile:
    """A file that takes half of a write and then fails, or fails when closed."""

    def __init__(self, f, store, path):
        self.f, self.store, self.path = f, store, path

    def write(self, data):
        if self.store.refuses("write", self.path):
            self.f.write(bytes(data)[:len(data) // 2])
        self.store.fail("write", self.path)
        self.f.write(data)

    def flush(self):
        self.f.flush()

    def close(self):
        self.f.close()
        self.store.fail("close", self.path)


def on_disk(folder, scratch):
    """{file: the match's snap, the settings, the stats} as a fresh start would read them
    (from a copy: reading tidies up)."""
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(folder, scratch)
    store = Store(scratch)
    game, _ = store.load_game(PLAYOUTS)
    return {MATCH: None if game is None else snap(game),
            save.SETTINGS: store.load_settings()[0], save.STATS: store.stats()}


def no_unfinished_tmp(folder):
    """Every .tmp left is a complete file and the only copy (FAT, between remove and rename)."""
    for name in FILES:
        tmp = os.path.join(folder, name + ".tmp")
        if os.path.exists(tmp):
            assert not os.path.exists(os.path.join(folder, name)), name
            assert load.payload(Store(folder), tmp), name


@pytest.mark.parametrize("errno", [ENOSPC, EROFS])
@pytest.mark.parametrize("steps", STEPS, ids="-".join)
@pytest.mark.parametrize("names", [None, (save.SETTINGS,), (save.STATS,), (MATCH,)],
                         ids=("all", "settings", "stats", "match"))
def test_a_refused_write_keeps_the_last_save_and_play_goes_on(tmp_path, errno, steps, names):
    """Settings at the start, the match after every move and the statistics at the round's
    end are refused until a little after the round; nothing raises, no unfinished .tmp
    stays, a fresh start finds the last save that worked, `trouble` says why, and once the
    flash works again every file is written as by a store that never failed."""
    folder, control = str(tmp_path / "flash"), str(tmp_path / "control")
    store, good = Refusing(folder, errno, steps, names), Store(control)
    seats = [["Anna", 0], ["Finn", 2], ["Greta", 3]]
    rules = setup("classic", "rounds", 2, seats)
    store.save_settings(rules)
    good.save_settings(rules)
    game = Game(rules, seed=6, playouts=PLAYOUTS)
    saved = {MATCH: None, save.SETTINGS: None, save.STATS: {}}   # what a restart finds
    after_round = None
    while after_round is None or game.n_moves < after_round + 5 or not game.in_round():
        if game.round_over() and after_round is None:
            after_round = 0
        store.save_game(game)
        good.save_game(game)
        now = {MATCH: snap(game), save.SETTINGS: rules,
               save.STATS: json.loads(json.dumps(good.stats()))}
        for name in FILES:
            if name not in store.unsaved:
                saved[name] = now[name]
        assert store.trouble == (TROUBLE[errno] if store.unsaved else "")
        found = on_disk(folder, str(tmp_path / "scratch"))
        for name in FILES:
            only_tmp = not os.path.exists(os.path.join(folder, name))   # the .tmp is the save
            assert found[name] == saved[name] or (only_tmp and found[name] == now[name]), name
        if "remove" not in steps:
            no_unfinished_tmp(folder)
        advance(game)
    assert store.refusals > 0 and set(store.unsaved) == set(names or FILES)
    store.heal()
    for _ in range(3):
        advance(game)
        store.save_game(game)
        good.save_game(game)
    assert store.trouble == "" and store.unsaved == []
    assert on_disk(folder, str(tmp_path / "scratch")) == {
        MATCH: snap(game), save.SETTINGS: rules, save.STATS: good.stats()}
    assert sorted(os.listdir(folder)) == sorted(os.listdir(control))


def test_a_read_only_flash_at_boot_reads_what_is_there(tmp_path):
    """A finished .tmp (FAT, cut between remove and rename) on a flash now read-only: it
    is the save, read as such; the rename that would tidy it up fails quietly."""
    folder = str(tmp_path)
    game = Game(setup(), seed=2, playouts=PLAYOUTS)
    for _ in range(9):
        advance(game)
    Store(folder).save_game(game)
    os.rename(os.path.join(folder, MATCH), os.path.join(folder, MATCH + ".tmp"))
    store = Refusing(folder, EROFS, ("open", "rename", "remove"))
    resumed, status = store.load_game(PLAYOUTS)
    assert status == OK and snap(resumed) == snap(game) and store.has_game()
    assert os.listdir(folder) == [MATCH + ".tmp"]


def test_a_read_only_flash_keeps_a_damaged_file_and_forgets_nothing_it_cannot(tmp_path):
    """Setting a damaged file aside and clearing a finished match are writes too: on a
    read-only flash they change nothing and raise nothing."""
    folder = str(tmp_path)
    (tmp_path / MATCH).write_bytes(b"not a save")
    store = Refusing(folder, EROFS, ("open", "rename", "remove"))
    assert store.load_game(PLAYOUTS) == (None, DAMAGED)
    assert os.listdir(folder) == [MATCH]            # not renamed, not removed
    store.clear_game()
    assert os.listdir(folder) == [MATCH]
    store.heal()
    assert store.load_game(PLAYOUTS) == (None, DAMAGED)
    assert os.listdir(folder) == [MATCH + ".bad"]


REFUSING_VM = """
import os
from firmware.game import Game
from firmware.save import Store, OK

class Refusing(Store):
    # the VM's filesystem gives WASI numbers: ENOSPC 51, EROFS 69
    errno = 0
    step = ""
    def _open(self, path, mode):
        if "w" in mode and self.step == "open":
            raise OSError(self.errno)
        f = open(path, mode)
        if "w" in mode and self.step == "write":
            f.write(b"half a header")
            f.close()
            raise OSError(self.errno)
        return f
    def _rename(self, old, new):
        if self.step == "rename":
            raise OSError(self.errno)
        os.rename(old, new)

def play(game, n):
    for _ in range(n):
        if game.round_over():
            game.next_round()
        elif game.ai_to_act():
            game.step_ai()
        else:
            if game.needs_cover():
                game.uncover()
            game.play(game.hint())

seats = {"seats": [["Anna", 0], ["Finn", 2], ["Greta", 3]], "preset": "classic",
         "options": {}, "match": "rounds", "limit": 2}
os.mkdir("/tmp/f")
store = Refusing("/tmp/f")
game = Game(seats, 6, 12)
game.on_change = store.save_game
store.save_settings(seats)
play(game, 3)
kept = game.n_moves
for errno in (51, 69):
    for step in ("open", "write", "rename"):
        store.errno, store.step = errno, step
        store.save_settings(seats)
        play(game, 2)
        print("TROUBLE %d %s %s|%s" % (errno, step, store.trouble, sorted(os.listdir("/tmp/f"))))
store.step = ""
resumed, status = Store("/tmp/f").load_game(12)
print("KEPT", status == OK and resumed.n_moves == kept)
play(game, 1)
print("HEALED", repr(store.trouble), sorted(os.listdir("/tmp/f")))
open("/tmp/file", "w").close()       # a real refusal: a folder that is a file
lost = Store("/tmp/file/saves")
print("REAL", lost.write("settings", (b"x",)), lost.trouble)
"""


def test_a_refused_write_in_the_micropython_vm(tmp_path):
    """The VM's own errno numbers (WASI) for a full and a read-only flash get their words,
    an unfinished .tmp goes, play goes on; and a write the VM's filesystem really refuses."""
    from tools.vm import mpvm
    result = mpvm.run(REFUSING_VM, modules=("engine", str(firmware_copy(tmp_path))),
                      timeout=240, label="refused writes").check()
    out = result.stdout.splitlines()
    files = ["match", "settings"]
    for errno, words in ((51, "Storage full: not saved"), (69, "Storage read-only: not saved")):
        for step in ("open", "write", "rename"):
            assert "TROUBLE %d %s %s|%s" % (errno, step, words, files) in out
    assert "KEPT True" in out
    assert "HEALED '' %s" % files in out
    assert "REAL False Storage error 54: not saved" in out     # ENOTDIR, WASI's number


# -- the app on a refusing flash ------------------------------------------------------------

TO_TABLE = {"abxy": "A Y*7 A", "dpad": "A RIGHT*7 A"}   # title -> New game -> Start
TO_TITLE = {"abxy": "long:B X A", "dpad": "long:B LEFT A"}   # pause -> Save and quit


@pytest.mark.parametrize("board_name", ["pico_display", "pico_oled", "thumby"])
@pytest.mark.parametrize("errno", [ENOSPC, EROFS])
def test_new_game_on_a_refusing_flash_plays_on_marked_not_saved(tmp_path, board_name, errno):
    """New game -> Start with every write refused: the table comes up marked NOT SAVED
    (72x40: "!") and play goes on; no .tmp is left; Save and quit leads to a title that
    says why; once the flash works again the mark goes with the next save."""
    from firmware.app import App
    from tools.sim import boards, headless
    from tools.sim.device import Device
    from tools.sim.findtext import shows, FONT_3X5
    folder = str(tmp_path / "flash")
    store = Refusing(folder, errno, ("write",))
    device = Device(boards.load(board_name), lambda b, c, s, now: App(b, c, store, now, 4, 11),
                    None)
    layout = device.board.LAYOUT
    run = headless.Runner(device).run
    run(headless.parse(TO_TABLE[layout] + " wait:1000 A wait:4000"))   # the human plays
    app = device.app
    assert app.screen.name == "table" and app.game.n_moves > 1
    assert app.painter.unsaved and store.trouble == TROUBLE[errno]
    mark = "!" if board_name == "thumby" else "NOT SAVED"
    assert shows(screenshot(device), mark, FONT_3X5)
    assert os.listdir(folder) == []
    run(headless.parse("wait:2000 " + TO_TITLE[layout]))
    assert app.screen.name == "title" and " ".join(app.screen.lines) == TROUBLE[errno]
    store.heal()
    run(headless.parse(TO_TABLE[layout] + " wait:3000"))
    assert app.screen.name == "table" and not app.painter.unsaved and store.trouble == ""
    assert not shows(screenshot(device), mark, FONT_3X5)
    assert sorted(os.listdir(folder)) == ["match", "settings"]


def screenshot(device):
    from tools.sim.image import screenshot as shot
    return shot(device.canvas)
