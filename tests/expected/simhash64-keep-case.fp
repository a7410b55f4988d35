nd1-simhash64-w3-cs-s0:fe667282caf653be  lighthouse.txt
nd1-simhash64-w3-cs-s0:fe6672aacad613be  lighthouse-near.txt
nd1-simhash64-w3-cs-s0:85b2e6ea5b9d5c30  orchard.txt
nd1-simhash64-w3-cs-s0:fef222b5eee1c00c  utf8.txt
nd1-simhash64-w3-cs-s0:4f2c1fd0a21fe874  invalid-utf8.txt
nd1-simhash64-w3-cs-s0:252abe00bfca7018  short.txt
nd1-simhash64-w3-cs-s0:0000000000000000  empty.txt
