nd1-simhash64-w3-fp-s0:d1327a92d4e379ad  lighthouse.txt
nd1-simhash64-w3-fp-s0:d1323818d0f6793c  lighthouse-near.txt
nd1-simhash64-w3-fp-s0:84c375c85ddd16f0  orchard.txt
nd1-simhash64-w3-fp-s0:fbe391df63e22869  utf8.txt
nd1-simhash64-w3-fp-s0:4d0815d86a1fc865  invalid-utf8.txt
nd1-simhash64-w3-fp-s0:252abe00bfca7018  short.txt
nd1-simhash64-w3-fp-s0:0000000000000000  empty.txt
