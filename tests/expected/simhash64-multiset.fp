nd1-simhash64-w3m-fs-s0:fe767a82ccfe53be  lighthouse.txt
nd1-simhash64-w3m-fs-s0:7e661e82d2fe1bbe  lighthouse-near.txt
nd1-simhash64-w3m-fs-s0:84c663ea5b9d1ef0  orchard.txt
nd1-simhash64-w3m-fs-s0:da4a8bd84ea576eb  utf8.txt
nd1-simhash64-w3m-fs-s0:4f2c1fd0a21fe874  invalid-utf8.txt
nd1-simhash64-w3m-fs-s0:252abe00bfca7018  short.txt
nd1-simhash64-w3m-fs-s0:0000000000000000  empty.txt
