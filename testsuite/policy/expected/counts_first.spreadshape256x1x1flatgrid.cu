refused: a statement comes before the thread index's declaration
