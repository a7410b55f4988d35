nd1-key3-w3-fs-s0:0000000000000000  empty.txt
