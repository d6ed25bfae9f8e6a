refused: the captured launches do not show the pointers as distinct allocations
