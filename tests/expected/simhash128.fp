nd1-simhash128-w3-fs-s0:7ca591e73d4d84771a60b36cf9851e63  lighthouse.txt
nd1-simhash128-w3-fs-s0:fca1b3e77d4d8477da40b36e71851ee3  lighthouse-near.txt
nd1-simhash128-w3-fs-s0:2783996e5b93e51e5e36d682b2c54467  orchard.txt
nd1-simhash128-w3-fs-s0:22e489480c3821bf937efaa7bfc487bd  utf8.txt
nd1-simhash128-w3-fs-s0:0daf4cdb8f009761b336c24a086d1da1  invalid-utf8.txt
nd1-simhash128-w3-fs-s0:3d651f9aa682d9e34af6836364ad9ce8  short.txt
nd1-simhash128-w3-fs-s0:00000000000000000000000000000000  empty.txt
