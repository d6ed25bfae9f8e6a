refused: no read-only array read at (i + di) * W + j + dj, (0, 0) among them, under one top-level if without else
