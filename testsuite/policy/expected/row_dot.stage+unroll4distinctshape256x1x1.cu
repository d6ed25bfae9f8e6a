refused: stage rewrites the loop itself: it combines with restrict and launch_bounds only
