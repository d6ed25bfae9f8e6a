refused: neighbouring threads along x already read neighbouring elements
