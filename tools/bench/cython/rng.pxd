# C types for engine/rng.py when Cython compiles it (tools/bench/compiled.py). Every
# intermediate value stays below 2**30 (the module's design), so C longs hold them.
cimport cython


cdef class Random:
    cdef public long x, y

    cpdef long below(self, long n) except -1

    @cython.locals(x=long, y=long, xl=long, yl=long, k=long, j=long)
    cpdef shuffle(self, buf, long lo, long hi)
