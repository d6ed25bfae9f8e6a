refused: a block reshape or grid-stride loop combines only with restrict, ldg, unroll and fast_math
