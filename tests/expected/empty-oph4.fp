nd1-oph4-w3-fs-s0:ffffffffffffffffffffffffffffffff  empty.txt
