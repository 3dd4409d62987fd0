"""What the canvas and the app run once, as each is made, and let go (none of it stays in
the heap while the game is played): the canvas's buffers and stamps; the app's state, its
painter and the sizes the screens are laid out by, the speaker as last set, and the boot's
look at the saves.

firmware.gfx's Canvas.__init__ and firmware.app's App.__init__ import it and let go of it
after (firmware.rescue's remade app runs it again).
"""

from array import array

from engine.compat import const
from firmware import screens as S

_MAX_MOVES = const(40)      # engine.moves.MAX_MOVES: the most legal moves a seat can have
_SPELT = const(64)          # firmware.gfx's _SPELT: a text's bytes the 3x5 font reads


def open_canvas(c, width, height, depth, fb):
    """Give a new firmware.gfx Canvas `c` its pixels (or `fb`: firmware.direct's panel, which
    sends drawings as made), its colours and size class, and its stamps' scratch."""
    import framebuf
    from firmware.gfx import PALETTE, LARGE, MEDIUM, TINY, _GS4, _MONO, _SUITS, _TINY_SUITS
    c.width, c.height, c.depth = width, height, depth
    if depth == 4:
        c.buf = None if fb else bytearray((width + 1) // 2 * height)
        c.fb = fb or framebuf.FrameBuffer(c.buf, width, height, framebuf.GS4_HMSB)
        c.palette = PALETTE
        c._roles = _GS4
        ink_format = framebuf.GS4_HMSB
    else:
        c.buf = bytearray(width * ((height + 7) // 8))
        c.fb = framebuf.FrameBuffer(c.buf, width, height, framebuf.MONO_VLSB)
        c.palette = None
        c._roles = _MONO
        ink_format = framebuf.MONO_HLSB
    c.size = LARGE if width >= 200 else MEDIUM if width >= 120 else TINY
    c.cw = 4 if c.size == TINY else 8       # text cell width and height
    c.ch = 6 if c.size == TINY else 8
    # one-bit stamps blitted in one colour: scratch for eight small letters, a big
    # letter and its 8x8 original (the suits and tens are firmware.gfx's constants)
    c._eight = array("I", bytes(32))        # MONO_VLSB: a byte a column, a word a letter
    c._eight_fb = framebuf.FrameBuffer(c._eight, 32, 8, framebuf.MONO_VLSB)
    c._four_fb = framebuf.FrameBuffer(c._eight, 16, 8, framebuf.MONO_VLSB)  # its half
    c._spelt = bytearray(2 * _SPELT + 1)    # a text's bytes, then zeros its reading may reach
    c._glyph = bytearray(32)
    c._glyph_fb = framebuf.FrameBuffer(c._glyph, 16, 16, framebuf.MONO_HLSB)
    c._letter = bytearray(8)
    c._letter_fb = framebuf.FrameBuffer(c._letter, 8, 8, framebuf.MONO_HLSB)
    c._rank_fb = framebuf.FrameBuffer(c._letter, 8, 8, framebuf.MONO_VLSB)  # tiny ranks
    c._ink_buf = bytearray(1)       # 2-entry palette: 0 -> "not c" (the key), 1 -> c
    c._ink_fb = framebuf.FrameBuffer(c._ink_buf, 2, 1, ink_format)
    c._inked = -1                   # the colour the 2-entry palette holds
    c._suits = _TINY_SUITS if c.size == TINY else _SUITS
    c.box_n = 0                     # dirty boxes (firmware.boxes): the device loop reads it
    c.big_letters = None            # firmware.paint_large's, once a big letter is drawn


def open_app(app, board, canvas, store, now_ms, playouts, seed, painter, sound):
    """Give a new App its state (see App); without a painter, firmware.paint's framebuf
    Painter drawing on `canvas`."""
    app.layout = board.LAYOUT
    app.canvas = canvas
    app.store = store
    if painter is None:          # the framebuf painter, only when none is given
        from firmware.paint import painter_for
        painter = painter_for(canvas)
    app.painter = painter        # paint(screen), sizes; flying: a card on its way, or -1
    app.sizes = sizes_of(painter)
    app.now = now_ms
    app.playouts = playouts      # tests: AI budget as a count (deterministic)
    app.seed = seed
    app.done = False
    app.game = None
    app.table = None
    app.due = now_ms             # when the next AI action may be shown
    app.page_due = now_ms
    app.paged = None             # the status text whose pages page_due times
    app.moves = array("H", range(_MAX_MOVES))
    app.back_to = None           # the screen a pause menu or picker returns to
    app.picking = -1             # the card the suit picker and the Mau question are for
    app.wish = 0                 # the suit wished with it
    app.hinted = -1              # the move the last hint named (playing a card: its hint)
    app.placed = -1              # game.n_moves when the cursor was put at a turn's start
    app.recapped = -1            # game.n_moves when the holder was last told the story
    app.said = None              # the status text that tells the last move
    app.busy = False             # the game has something due that needs no key
    app.could_catch = False      # the holder had a Catch item at the last refresh
    app.holder = -1              # the seat whose hand the table showed last
    app.looped = False           # a device loop drives the app (frame)
    app.dealing = None           # what its next frame deals (see hold)
    app.making = None            # the module that makes the next screen (see make)
    app.dealt = False            # this frame dealt: what is due waits for the next one
    app.link = None              # linked play: firmware.linkhost.LinkHost or linkclient.LinkClient
    app.open_link = getattr(board, "open_link", None)   # the board's firmware.link.Link
    app.sound = sound            # firmware.sound.Sound, or None: the board has no speaker
    app.shown = None             # the screen show() drew during an action (see act)
    if sound is not None:        # as remembered (firmware.setup's code not loaded for it)
        last = store.load_settings()[0] if store is not None else None
        sound.set_on(last.get("sound", True) if isinstance(last, dict) else True)


def sizes_of(painter):
    """The painter's own Sizes (`painter.sizes`), else the ones firmware.paint's framebuf
    painter gives its canvas (`painter.c`, a firmware.gfx.Canvas)."""
    sizes = getattr(painter, "sizes", None)
    if sizes is not None:
        return sizes
    from firmware import paint
    from firmware.gfx import LARGE
    c = painter.c
    return S.Sizes(c.size == LARGE, paint.list_fit(c), paint.title_fit(c), paint.list_cols(c),
                   paint.status_cols(c), paint.status_fit(c), paint.hand_fit(c))


def boot_notice(app):
    """Look at the saves once at boot; words for the player when one was damaged."""
    if app.store is None:
        return ""
    from firmware.save import DAMAGED
    _, settings = app.store.load_settings()
    _, match = app.store.load_game(app.playouts)
    if DAMAGED in (settings, match):
        return "Save damaged, starting fresh"
    return ""
