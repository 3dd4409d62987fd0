# C types for engine/rng.py when Cython compiles it (tools/bench/compiled.py). Every
# intermediate value stays below 2**30 (the module's design), so C longs hold them.
cimport cython

ctypedef fused buffer:  # a bytearray (every caller in engine/) read as C bytes, or anything
    bytearray
    object


cdef class Random:
    cdef public long x, y

    cpdef long below(self, long n) except -1

    @cython.locals(x=long, y=long, xl=long, yl=long, k=long, j=long)
    cpdef shuffle(self, buffer buf, long lo, long hi)
