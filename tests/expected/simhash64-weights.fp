nd1-simhash64-w3-fs-s0-W6ce8897b8c849205:fe767a86cdfd53bf  lighthouse.txt
nd1-simhash64-w3-fs-s0-W6ce8897b8c849205:fe761c82d9ff1bbf  lighthouse-near.txt
nd1-simhash64-w3-fs-s0-W6ce8897b8c849205:85c6e3ea5b9d1ef0  orchard.txt
nd1-simhash64-w3-fs-s0-W6ce8897b8c849205:da4a8bd84ea576eb  utf8.txt
nd1-simhash64-w3-fs-s0-W6ce8897b8c849205:4f2c1fd0a21fe874  invalid-utf8.txt
nd1-simhash64-w3-fs-s0-W6ce8897b8c849205:252abe00bfca7018  short.txt
nd1-simhash64-w3-fs-s0-W6ce8897b8c849205:0000000000000000  empty.txt
