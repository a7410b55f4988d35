nd1-key1-w3-fs-s0:00302f518f2a7355  lighthouse.txt
nd1-key1-w3-fs-s0:00302f518f2a7355  lighthouse-near.txt
nd1-key1-w3-fs-s0:01e00bce98904dda  orchard.txt
nd1-key1-w3-fs-s0:1babeaf56ef6b618  utf8.txt
nd1-key1-w3-fs-s0:1eecdc90b2456d78  invalid-utf8.txt
nd1-key1-w3-fs-s0:252abe00bfca7018  short.txt
nd1-key1-w3-fs-s0:0000000000000000  empty.txt
