refused: something besides the thread index is declared before the guard, or the guard reads threadIdx
