refused: a return before the guard: not every thread would reach the barrier
