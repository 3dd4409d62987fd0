"""Saving: files that survive a power cut, and what the game keeps in them.

Every file is written whole to `name.tmp` (header, then payload), flushed, then renamed
over `name`; where a rename cannot replace a file (FAT), the old file is removed
first. A power cut therefore leaves either the old file, or (FAT, between remove and
rename) a complete `.tmp`; `read` prefers a valid `name`, then a valid `name.tmp`,
and throws away an unfinished `.tmp`. A file that fails its check (damaged, or not
ours) is renamed `name.bad` and reported as DAMAGED; nothing raises.

A write the flash refuses (full, read-only, failing) raises nothing either: the old
file stays, the unfinished `.tmp` is removed (a complete one is kept only where it is
the sole copy, FAT between remove and rename), `write` returns False and `trouble`
says why until every refused file has been written again. Settings and statistics
that could not be written are tried again with each match save.

The checksum is binascii.crc32 where the port has it (the VM does; rp2 and esp32 build
at the EXTRA_FEATURES level, where MicroPython enables it), else `crc32_slow`.

Header, 14 bytes little-endian: magic "MauM", version (2 bytes), payload length (4),
CRC-32 of the payload (4).

Files: `match` (the match in play: see Game.snapshot; its moves are replayed on
load), `settings` (the last setup, JSON), `stats` (per player name: games, wins,
rounds, rounds won, minus points; JSON).
"""

import json
import os
import sys
from array import array
from struct import pack_into

from engine.compat import const, forget

try:
    from binascii import crc32
except ImportError:  # a port built without binascii.crc32
    crc32 = None

try:     # MicroPython: a str's UTF-8 bytes, viewed where they are (no copy made each save)
    memoryview("")
    _utf8 = memoryview
except TypeError:    # CPython
    _utf8 = str.encode

MAGIC = b"MauM"
_VERSION = const(1)              # firmware.load's _VERSION, which it checks

OK = 0        # read: the file was there and sound
NONE = 1      # read: nothing saved
DAMAGED = 2   # read: the file was damaged or foreign; it is kept as name.bad

MATCH = "match"
SETTINGS = "settings"
STATS = "stats"

_APART = ("setup", "ais")     # a match save's longest values, each dumped on its own

_DEVICE_MS = const(250)       # engine.ai.DEVICE_MS (repeated: the title loads no AI)

# errno of a full and of a read-only flash: MicroPython's (as Linux), then the
# WebAssembly VM's WASI numbers
_FULL = (28, 51)
_READ_ONLY = (30, 69)


def crc32_slow(data, crc=0):
    """CRC-32 (the zip/PNG one) without a table; for ports without binascii.crc32."""
    register = array("H", ((crc >> 16) ^ 0xFFFF, (crc & 0xFFFF) ^ 0xFFFF))
    _crc_halves(data, register)
    return (register[0] ^ 0xFFFF) << 16 | (register[1] ^ 0xFFFF)


def _crc_halves(data, register):
    """Run the CRC-32 register (its high and low 16 bits, inverted) over `data`, in halves
    so that MicroPython keeps every step a small int (a 32-bit value is a long: a heap
    object at each step)."""
    hi, lo = register[0], register[1]
    for b in data:
        lo ^= b
        for _ in range(8):
            carry = lo & 1
            lo = lo >> 1 | (hi & 1) << 15
            hi >>= 1
            if carry:
                lo ^= 0x8320
                hi ^= 0xEDB8
    register[0], register[1] = hi, lo


def checksum(data, crc=0):
    """CRC-32 of `data` continuing from `crc`."""
    if crc32 is None:
        return crc32_slow(data, crc)
    return crc32(data, crc) & 0xFFFFFFFF


def _le(n, size):
    """`n` as `size` little-endian bytes."""
    out = bytearray(size)
    for i in range(size):
        out[i] = n >> 8 * i & 255
    return out


def _sync():
    """Ask the filesystem to commit (MicroPython ports that have os.sync; a host's
    own filesystem is left alone)."""
    if sys.implementation.name == "micropython":
        sync = getattr(os, "sync", None)
        if sync is not None:
            sync()


class Store:
    """Atomic files in folder `root` (created if missing)."""

    def __init__(self, root):
        self.root = root
        self.mark = None     # the statistics' mark of what they counted (None: unread)
        self._setup = None   # the settings' JSON as last read or written ("": none; None: unread)
        self.trouble = ""    # why the last refused write failed, while one is unsaved
        self.unsaved = []    # names whose last write the flash refused
        self._later = {}     # JSON values to write again: {name: value}
        # a file's header, and a CRC's register, made once: a save allocates neither
        self._head = bytearray(14)
        pack_into("<4sH", self._head, 0, MAGIC, _VERSION)
        self._register = array("H", (0, 0))
        if root and root != "/":
            try:
                os.mkdir(root)
            except OSError:
                pass  # there already

    def path(self, name):
        """Where file `name` lives ("/" and "" roots included)."""
        root = self.root
        if not root or root[-1] == "/":
            return root + name
        return root + "/" + name

    # -- the filesystem, one place each (tests imitate FAT and power cuts here) ----

    def _open(self, path, mode):
        return open(path, mode)

    def _rename(self, old, new):
        os.rename(old, new)

    def _remove(self, path):
        try:
            os.remove(path)
        except OSError:
            pass  # not there

    def _exists(self, path):
        try:
            os.stat(path)
            return True
        except OSError:
            return False

    # -- atomic files --------------------------------------------------------

    def write(self, name, parts):
        """Replace file `name` with the bytes-like `parts`, in one piece or not at all.
        True if written; False if the flash refused (the old file stays; see `trouble`)."""
        head, register = self._head, self._register
        length = 0
        if crc32 is None:
            register[0] = register[1] = 0xFFFF
            for part in parts:
                _crc_halves(part, register)
                length += len(part)
            register[0] ^= 0xFFFF
            register[1] ^= 0xFFFF
        else:
            crc = 0
            for part in parts:
                crc = crc32(part, crc)
                length += len(part)
            register[0], register[1] = crc >> 16 & 0xFFFF, crc & 0xFFFF
        pack_into("<HHHH", head, 6, length & 0xFFFF, length >> 16, register[1], register[0])
        main = self.path(name)
        tmp = main + ".tmp"
        whole = False    # the .tmp holds the complete new file
        try:
            f = self._open(tmp, "wb")
            try:
                f.write(head)
                for part in parts:
                    f.write(part)
                f.flush()
            finally:
                f.close()
            whole = True
            _sync()
            self._replace(tmp, main)
            _sync()
        except OSError as e:
            if not (whole and not self._exists(main)):  # else the .tmp is the only copy
                self._remove(tmp)
            self._refused(name, e.args[0] if e.args else 0)
            return False
        if name in self.unsaved:
            self.unsaved.remove(name)
            if not self.unsaved:
                self.trouble = ""
        return True

    def _refused(self, name, errno):
        """Note that the flash refused to write file `name`, and why."""
        if name not in self.unsaved:
            self.unsaved.append(name)
        if errno in _FULL:
            self.trouble = "Storage full: not saved"
        elif errno in _READ_ONLY:
            self.trouble = "Storage read-only: not saved"
        else:
            self.trouble = "Storage error %s: not saved" % errno

    def _replace(self, tmp, main):
        """Rename tmp over main; where that fails (FAT) remove main first (not when the
        flash refused the rename: then main stays)."""
        try:
            self._rename(tmp, main)
        except OSError as e:
            if e.args[0] in _FULL or e.args[0] in _READ_ONLY or not self._exists(main):
                raise
            self._remove(main)
            self._rename(tmp, main)

    def read(self, name):
        """(payload, status): the saved bytes or None, and OK, NONE or DAMAGED."""
        return _load().read(self, name)

    def set_aside(self, name, path=None):
        """Keep a damaged file as `name.bad` (replacing an older one)."""
        _load().set_aside(self, name, path)

    def remove(self, name):
        """Delete file `name` (and any unfinished write of it)."""
        self._remove(self.path(name))
        self._remove(self.path(name) + ".tmp")

    def write_json(self, name, value):
        """Save `value` as JSON in file `name` (if the flash refuses, again at the next
        match save). The settings are remembered as written (a refused write: as read)."""
        text = json.dumps(value)
        written = self.write(name, (_utf8(text),))
        if written:
            self._later.pop(name, None)
        else:
            self._later[name] = value
        if name == SETTINGS:
            self._setup = text if written else None

    def read_json(self, name):
        """(value, status) of a JSON file; an unreadable one counts as DAMAGED."""
        return _load().read_json(self, name)

    # -- the match -----------------------------------------------------------

    def save_game(self, game, count=True):
        """Save the match after a completed move (and count finished rounds and matches
        in the statistics first; `count` False: left for `count`, which a device loop
        calls on a frame of its own). Use as `game.on_change`."""
        for name in list(self._later):   # settings or statistics the flash refused
            self.write_json(name, self._later[name])
        if count:
            self.count(game)
        state, dealt, moves = game.snapshot()
        # the round's moves so far (not the whole list's room), 16-bit little-endian
        # words (every supported port is LE)
        raw = bytes(memoryview(moves)[0:state["moves"]])
        head = _json_pieces(state, _APART)
        table = dealt if dealt is not None else b""
        size = 0
        for piece in head:
            size += len(piece)
        self.write(MATCH, [_le(size, 2)] + head + [_le(len(table), 2), table, raw])

    def load_game(self, playouts=None, deadline_ms=_DEVICE_MS, pieces=None):
        """(game, status): the saved match (or the `pieces` read_game gave) resumed at its
        last completed move, or None with NONE (nothing saved) or DAMAGED (the file is kept
        as match.bad)."""
        return _load().load_game(self, playouts, deadline_ms, pieces)

    def read_game(self):
        """(pieces, status): load_game's first half, the match read but not rebuilt."""
        return _load().read_game(self)

    def has_game(self):
        """True if a match save is there to continue (an unfinished first write is not)."""
        main = self.path(MATCH)
        if self._exists(main):
            return True
        data = _load().payload(self, main + ".tmp")
        return data is not None and data is not False

    def clear_game(self):
        """Forget the match save (the match is over, or a new one begins)."""
        self.remove(MATCH)

    # -- settings and statistics ---------------------------------------------

    def save_settings(self, setup):
        """Remember the last setup."""
        self.write_json(SETTINGS, setup)

    def load_settings(self):
        """(setup, status): the last setup, or None. The file is read once (at boot); after,
        a fresh copy of what was read or written, or None, with nothing read or imported."""
        known = self._setup
        if known is None:
            setup, status = self.read_json(SETTINGS)
            self._setup = json.dumps(setup) if status == OK else ""
            return setup, status
        if known:
            return json.loads(known), OK
        return None, NONE

    def stats(self):
        """Lifetime statistics: {name: [games, wins, rounds, rounds won, points]}."""
        return _stats().read(self)["players"]

    def count(self, game):
        """Count the game's finished rounds and its end in the statistics, once each
        (firmware.stats loaded only when one is new)."""
        mark = self.mark
        if mark is not None and mark[0] != game.seed:
            self.mark = [game.seed, 0, False]    # a new match: none of it counted yet
        if not self.counted(game):
            _stats().record(self, game)

    def counted(self, game):
        """True if the statistics hold every round and end the match has finished (by
        their mark; unread, or another match's: not known)."""
        mark, m = self.mark, game.match
        return (mark is not None and mark[0] == game.seed
                and not (m.rounds_played > mark[1] and m.last_points is not None)
                and (mark[2] or not m.is_over()))


def _json_pieces(state, keys):
    """The JSON text of dict `state` as a list of bytes-likes, the values of `keys` each
    dumped on its own: one object's text, in pieces no longer than a third of it (a save
    each move then needs no long free block of the heap)."""
    pieces = []
    for key in keys:
        pieces.append(_utf8('%s"%s": ' % (", " if pieces else "{", key)))
        pieces.append(_utf8(json.dumps(state.pop(key))))
    rest = _utf8(json.dumps(state))       # "{...}": its brace dropped, the object goes on
    pieces.append(_utf8(", ") if state else _utf8("}"))
    if state:
        pieces.append(rest[1:])
    return pieces


def _load():
    """firmware.load, for one read: let go after (the per-move save never reads)."""
    from firmware import load
    forget("firmware.load")
    return load


def _stats():
    """firmware.stats, for one count or look: let go after (a move that ends nothing
    counts nothing)."""
    from firmware import stats
    forget("firmware.stats")
    return stats
