"""The app on CircuitPython: firmware.app.App with the displayio painter and a drive that may be read-only.

`DioApp(board, painter, store, now_ms)` plays exactly the flows of firmware.app.App; only
the drawing (firmware.paint_dio.DioPainter, handed to App as its painter), the keys' layout
(firmware.keys_dio's "badge": Start = menu, Select = back) and the save notices differ.
`DriveStore` is firmware.save.Store on the CIRCUITPY drive: while a computer has the
drive mounted over USB, CircuitPython code may not write (OSError errno 30); the game
then plays on unsaved and says so once, on the title and on the table.
"""

from engine.compat import const
from firmware.app import App
from firmware.save import Store
from firmware import keys_dio

EROFS = const(30)   # errno: read-only filesystem
READ_ONLY_TITLE = "USB drive: no saving"
READ_ONLY_TABLE = "Not saved: the drive is read-only while USB has it"


class DriveStore(Store):
    """firmware.save.Store that counts the writes a read-only drive refused."""

    def __init__(self, root, read_only=None):
        self.refused = 0
        self.read_only = bool(read_only)   # known at boot (storage.getmount), else learnt
        Store.__init__(self, root)

    def _refused(self, name, errno):
        """Store._refused, counting the writes a read-only drive refused."""
        Store._refused(self, name, errno)
        if errno == EROFS:
            self.refused += 1
            self.read_only = True


class DioApp(App):
    """firmware.app.App drawn by a DioPainter."""

    def __init__(self, board, painter, store, now_ms=0, playouts=None, seed=None, sound=None,
                 notice=None):
        self._told = False
        App.__init__(self, board, None, store, now_ms, playouts, seed, painter, sound, notice)
        self.layout = keys_dio.BADGE    # the board's d-pad plus Start and Select

    def handle(self, event):
        """One key event in the "badge" layout (firmware.keys_dio)."""
        action = keys_dio.action(self.layout, event)
        if action:
            self.act(action)

    def act(self, action):
        """App.act, then the read-only notice if a save was just refused."""
        App.act(self, action)
        self._tell_read_only()

    def tick(self, now_ms):
        """App.tick, then the read-only notice if a save was just refused."""
        App.tick(self, now_ms)
        self._tell_read_only()

    def _boot_notice(self):
        notice = App._boot_notice(self)
        if not notice and self.store is not None and self.store.read_only:
            return READ_ONLY_TITLE
        return notice

    def _tell_read_only(self):
        """Say once, on the table, that the game is not being saved."""
        store = self.store
        if self._told or store is None or not store.refused:
            return
        if self.table is not None and self.screen is self.table:
            self._told = True
            self.table.say(READ_ONLY_TABLE)
            self.painter.paint(self.table)
