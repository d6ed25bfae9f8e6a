refused: the transforms edit the same text (column_totals: edits overlap or leave the kernel (at byte 699))
