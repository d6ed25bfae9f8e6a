refused: an array is not walked along a row (a step's next element is not the next one): its lanes' loads are coalesced already
