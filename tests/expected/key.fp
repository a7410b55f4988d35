nd1-key3-w3-fs-s0:0438994586702f87  lighthouse.txt
nd1-key3-w3-fs-s0:02908001c1af77d4  lighthouse-near.txt
nd1-key3-w3-fs-s0:067af4a17807ed98  orchard.txt
nd1-key3-w3-fs-s0:5bdc773efb286578  utf8.txt
nd1-key3-w3-fs-s0:61ea0b2b31bb4b6d  invalid-utf8.txt
nd1-key3-w3-fs-s0:252abe00bfca7018  short.txt
nd1-key3-w3-fs-s0:0000000000000000  empty.txt
