refused: part of the body comes out of a macro
