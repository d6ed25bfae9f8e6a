refused: no loop: each thread's work is short, more SMs would not pay
