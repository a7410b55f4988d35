nd1-minhash4-w3-fs-s0:ffffffffffffffffffffffffffffffff  empty.txt
