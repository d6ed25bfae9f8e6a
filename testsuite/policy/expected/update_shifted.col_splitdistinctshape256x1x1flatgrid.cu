refused: the loop after the sum writes an element other iterations could touch
