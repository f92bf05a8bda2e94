# The C fields of the MCTS tree's nodes and statistics (mcts.py is their one source: these
# lines only give its names C types).
cimport cython


@cython.final
cdef class _Stat:
    cdef public Py_ssize_t visits, avail
    cdef public double total, mean


@cython.final
cdef class _Node:
    cdef public dict children, stats
    cdef public object joint, moves, order
    cdef public list row

    cpdef _Node child(self, key)
