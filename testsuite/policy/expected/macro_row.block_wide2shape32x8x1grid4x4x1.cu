refused: the macro MY_ROW names the thread's coordinates
