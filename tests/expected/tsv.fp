nd1-simhash64-c5-fs-s0:a079485490027ba7  rec-1
nd1-simhash64-c5-fs-s0:627108559a0affa7  rec-2
nd1-simhash64-c5-fs-s0:bd107428f9043a81  rec-3
nd1-simhash64-c5-fs-s0:0000000000000000  rec-empty
