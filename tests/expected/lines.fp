nd1-simhash64-c5-fs-s0:a1beb8b92eb62ee6  lines.txt:1
nd1-simhash64-c5-fs-s0:b46c1e9f4ec3c68e  lines.txt:2
nd1-simhash64-c5-fs-s0:0000000000000000  lines.txt:3
nd1-simhash64-c5-fs-s0:a1beb8b92eb62ee6  lines.txt:4
nd1-simhash64-c5-fs-s0:f348ce61f68e9a03  utf8.txt:1
nd1-simhash64-c5-fs-s0:06fb221651326d9e  utf8.txt:2
nd1-simhash64-c5-fs-s0:33710ff3085c2104  utf8.txt:3
