refused: a builtin named with its scope (::threadIdx)
