refused: the guard is not 'if (...) { ... }'
