nd1-simhash64-w3-fs-s0:0000000000000000  empty.txt
