# The C fields of the compiled State and the C entries of the methods the play loop calls
# (core.py is their one source; the games' compiled state classes extend it through this
# declaration, and a game's Python state class overrides the methods as usual).
cdef class State:
    cdef public object game
    cdef public list _history
    cdef public dict _legal_cache

    cpdef chance_outcomes(self)
    cpdef _chance_outcomes(self)
    cpdef _draw_chance(self, rng)
    cpdef _legal_actions(self, player)
    cpdef _apply(self, action, player)
    cpdef _play(self, action, player)
    cpdef _legal_now(self, player)
