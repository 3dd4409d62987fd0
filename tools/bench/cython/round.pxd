# C types for engine/round.py when Cython compiles it (tools/bench/compiled.py): an
# augmenting .pxd, so the device source stays as it is. Public entry points that check
# their arguments (Round(), deal, apply, is_legal) stay Python functions.
cimport cython


cdef class Table:
    cdef public bytearray s


cdef class View(Table):
    cdef public object rules
    cdef public object player


cdef class Round(Table):
    cdef public object rules, rng, events, _pool
    cdef public int copies
    cdef public bytes effects

    @cython.locals(end=int, size=int, b=int, k=int)
    cpdef deal(self, players, dealer)
    cpdef int _draw_card(self, int p) except -1
    cpdef int _draw_cards(self, int p, int n) except -1
    cpdef bint _reshuffle(self) except -1
    cpdef void _ev(self, int kind, int p, int value) except *
    cpdef int legal_moves(self, int player, out, int only=*) except -1
    cdef bint _jack_fits(self, int top) except -1
    cpdef int apply_legal(self, int player, int move) except -2
    cdef int _play(self, int p, int move) except -1
    cdef int _effect(self, int p, int move, int effect, int left) except -1
    cdef void _one_card_left(self, int p, int said) except *
    cdef int _draw_move(self, int p) except -1
    cdef int _pass(self, int p) except -1
    cdef void _catch(self, int catcher, int target) except *
    cdef void _win(self, int p) except *
    cdef void _finish(self, int winner) except *


cdef void _hand_on(bytearray s, int x, int b, int to, int c) except *
cdef void _reverse(bytearray s, int lo, int hi) except *
cdef bint _seen(s, int lo, int i, int c) except -1
cdef int _variants(out, int n, int c, int size) except -1
