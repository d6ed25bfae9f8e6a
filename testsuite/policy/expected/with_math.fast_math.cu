refused: fast intrinsics change results: the user did not opt in (--cl1-fast-math)
