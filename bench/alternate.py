#!/usr/bin/env python3
# bench/alternate.py ROUNDS LABEL 'COMMAND' [LABEL 'COMMAND' ...]
#
# A quick side-by-side timing: each round runs every command once, in
# turn, starting one further on each round, with output to /dev/null;
# then prints each command's median wall and CPU seconds and its speed
# against the first, and the median (and quartiles) of that speed taken
# round by round: on a host whose slow stretches last a few seconds, the
# rounds' own ratios vary less than the ratio of medians.  For a look at
# a few rows between full runs of bench/hash.sh; the figures are read as
# bench/README.md says.
import resource
import statistics
import subprocess
import sys
import time

if len(sys.argv) < 4 or len(sys.argv) % 2 != 0:
    sys.exit("usage: bench/alternate.py rounds label 'command' ...")
rounds = int(sys.argv[1])
pairs = list(zip(sys.argv[2::2], sys.argv[3::2]))
wall = {label: [] for label, _ in pairs}
cpu = {label: [] for label, _ in pairs}
for r in range(rounds):
    k = r % len(pairs)
    for label, cmd in pairs[k:] + pairs[:k]:
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(cmd, shell=True, stdout=subprocess.DEVNULL, check=True)
        wall[label].append(time.perf_counter() - t0)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu[label].append(r1.ru_utime + r1.ru_stime - r0.ru_utime -
                          r0.ru_stime)
first = statistics.median(wall[pairs[0][0]])
for label, _ in pairs:
    m = statistics.median(wall[label])
    ratios = sorted(a / b for a, b in zip(wall[pairs[0][0]], wall[label]))
    q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
    print(f"{label:30s} wall {m:.3f} s  cpu "
          f"{statistics.median(cpu[label]):.3f} s  "
          f"{first / m:.2f}x the first  min {min(wall[label]):.3f} s  "
          f"per round {q[1]:.2f}x ({q[0]:.2f}, {q[2]:.2f})")
