refused: the thread reads rows by its own index (warp_rows' and stage's case)
