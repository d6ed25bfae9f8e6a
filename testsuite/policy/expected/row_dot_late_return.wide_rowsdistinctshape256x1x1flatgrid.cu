refused: the guard is not 'if (...) { ... }' (nor 'if (...) return;' before the loop)
