refused: the guard calls, reads memory or assigns
