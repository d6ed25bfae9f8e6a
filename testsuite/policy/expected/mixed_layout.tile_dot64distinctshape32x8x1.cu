refused: the two products read one side's arrays in different layouts
