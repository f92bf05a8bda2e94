# The C fields of KoPlus's compiled classes and the C signatures of their inner methods
# (rules.py is their one source: these lines only give its names C types).
cimport cython

from meeple.engine.core cimport State


@cython.final
cdef class Geometry:
    cdef readonly object grid
    cdef readonly Py_ssize_t rows, cols, size, num_placements, pass_id, _nbytes
    cdef readonly list cells, mask, cover, conflict, touch, around, keep
    cdef readonly object on_board
    cdef readonly tuple shape_ids, cell_columns
    cdef dict _inner

    cpdef list ids_of(self, ids)


cdef class KoPlusState(State):
    cdef public Geometry geo
    cdef public Py_ssize_t nplayers, current_player
    cdef public tuple layout, free, inner
    cdef public object used, ok, inner_ids, occupied, live, cand, final
    cdef public bytes aliens, psum
    cdef public list placed, taken, running, bonus_left
    cdef public bint bonus_turn

    cpdef _chance_outcomes(self)
    cpdef _draw_chance(self, rng)
    cpdef _legal_actions(self, player)
    cpdef _apply(self, action, player)
    cpdef bint _nobody_can_place(self)
    cpdef _deal(self, action)
    cpdef _end(self)
    cpdef _settle_turn(self)
