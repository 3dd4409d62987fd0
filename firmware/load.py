"""Reading saves back (firmware.save's Store): each file checked, a damaged one set aside.

Boot, Continue, the title, the setup and the first statistics read use it; the per-move
save does not, so firmware.save imports it for a read and lets it go after.
"""

import json

from engine.compat import const, forget
from firmware.save import MAGIC, OK, NONE, DAMAGED, MATCH, checksum

_HEADER = const(14)              # firmware.save's header: magic, version, length, CRC-32
_VERSION = const(1)              # firmware.save's _VERSION
_MAX_PAYLOAD = const(48 * 1024)  # a match save of a round at the engine's move limit is ~35 KB


def _num(b, at, size):
    """The little-endian number in b[at:at + size]."""
    n = 0
    for i in range(size - 1, -1, -1):
        n = n << 8 | b[at + i]
    return n


def payload(store, path):
    """The payload of a sound file; None if there is no file, False if it is unsound."""
    try:
        f = store._open(path, "rb")
    except OSError:
        return None
    try:
        head = f.read(_HEADER)
        if (len(head) < _HEADER or head[0:4] != MAGIC or _num(head, 4, 2) != _VERSION
                or _num(head, 6, 4) > _MAX_PAYLOAD):
            return False  # not ours: read no further (it may be large)
        data = f.read(_num(head, 6, 4) + 1)
    finally:
        f.close()
    if len(data) != _num(head, 6, 4) or checksum(data) != _num(head, 10, 4):
        return False
    return data


def read(store, name):
    """(payload, status): the saved bytes or None, and OK, NONE or DAMAGED."""
    main = store.path(name)
    tmp = main + ".tmp"
    data = payload(store, main)
    status = OK
    if data is False:
        set_aside(store, name, main)
        status = DAMAGED
    elif data is not None:
        store._remove(tmp)  # an unfinished later write
        return data, OK
    data = payload(store, tmp)
    if data is not None and data is not False:
        try:
            store._replace(tmp, main)  # finish the interrupted replace
        except OSError:
            pass  # a read-only flash: the .tmp stays the save
        return data, OK
    store._remove(tmp)
    return None, (status if status == DAMAGED else NONE)


def set_aside(store, name, path=None):
    """Keep a damaged file as `name.bad` (replacing an older one)."""
    if path is None:
        path = store.path(name)
    bad = store.path(name) + ".bad"
    store._remove(bad)
    try:
        store._rename(path, bad)
    except OSError:
        store._remove(path)


def read_json(store, name):
    """(value, status) of a JSON file; an unreadable one counts as DAMAGED."""
    data, status = read(store, name)
    if data is None:
        return None, status
    try:
        return json.loads(bytes(data).decode()), status
    except (ValueError, UnicodeError):
        set_aside(store, name)
        return None, DAMAGED


def read_game(store):
    """(pieces, status): the saved match's (state, dealt, moves), not yet rebuilt, or None
    with NONE (nothing saved) or DAMAGED (the file is kept as match.bad)."""
    pieces, status, _ = _read_game(store)
    return pieces, status


def load_game(store, playouts, deadline_ms, pieces=None):
    """(game, status): the saved match (or the `pieces` read_game gave) resumed at its last
    completed move, or None with NONE (nothing saved) or DAMAGED (the file is kept as
    match.bad)."""
    resume = None
    if pieces is None:
        pieces, status, resume = _read_game(store)
        if pieces is None:
            return None, status
    try:
        state, dealt, moves = pieces
        return (resume or _resume()).restore(state, dealt, moves, playouts, deadline_ms), OK
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        set_aside(store, MATCH)
        return None, DAMAGED


def _read_game(store):
    """(pieces, status, firmware.resume or None): a payload that does not fit is set aside;
    with nothing saved, no resume code is imported."""
    data, status = read(store, MATCH)
    if data is None:
        return None, status, None
    resume = _resume()
    try:
        return resume.unpack(data), OK, resume
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        set_aside(store, MATCH)
        return None, DAMAGED, resume


def _resume():
    """firmware.resume, for one load (boot and Continue only): let go after."""
    from firmware import resume
    forget("firmware.resume")
    return resume
