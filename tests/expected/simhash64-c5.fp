nd1-simhash64-c5-fs-s0:4e2d045199e911a6  lighthouse.txt
nd1-simhash64-c5-fs-s0:4f0d045199a91186  lighthouse-near.txt
nd1-simhash64-c5-fs-s0:cb6e54ec9d801996  orchard.txt
nd1-simhash64-c5-fs-s0:b273aeb372961f17  utf8.txt
nd1-simhash64-c5-fs-s0:d8fdf1800813ff37  invalid-utf8.txt
nd1-simhash64-c5-fs-s0:ace15657a668b0fc  short.txt
nd1-simhash64-c5-fs-s0:0000000000000000  empty.txt
