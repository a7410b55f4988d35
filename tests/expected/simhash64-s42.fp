nd1-simhash64-w3-fs-s42:57cd623ff3a2f643  lighthouse.txt
nd1-simhash64-w3-fs-s42:55ed723fe3a2e663  lighthouse-near.txt
nd1-simhash64-w3-fs-s42:fef25ac5337df3e7  orchard.txt
nd1-simhash64-w3-fs-s42:96eb0fa66df60c68  utf8.txt
nd1-simhash64-w3-fs-s42:b734bc3a91b187ab  invalid-utf8.txt
nd1-simhash64-w3-fs-s42:92c1999e68c3ee51  short.txt
nd1-simhash64-w3-fs-s42:0000000000000000  empty.txt
