#!/usr/bin/env bash
# bench/near.sh: time `neardup near` (Manku's permuted tables) on random 64-bit simhash
# fingerprints against a brute-force popcount scan (bench/scan.c) of the same
# fingerprints with the same queries, and print Markdown tables.
#
#   bench/near.sh [-n RUNS] [-b NEARDUP_BINARY] [-c CORPUSDIR] [-s 100k|1m|3m|10m]
#                 [-q QUERIES]
#
#   -n RUNS     timed runs of every contender (default 3)
#   -b BINARY   the neardup to time (default ./neardup)
#   -c DIR      cache directory; the fingerprint files go to DIR/near/
#               (default ${CORPUS:-$HOME/.cache/neardup-corpus})
#   -s SIZE     the largest index: 100k, 1m, 3m or 10m (default 10m; hash.sh's sizes
#               100m and 1g, passed on by bench/run, also mean 10m, and quick, from
#               bench/run -q, 100k)
#   -q QUERIES  queries per index (default 200000; at most N)
#
# Indexes: N = 100k, 1M, 3M, 10M lines "nd1-simhash64-w3-fs-s0:%016x  docI" of random
# fingerprints (python3, fixed seed; the smaller ones are the first N lines of the
# 10M file), generated once and cached. Queries: Q lines drawn from each index without
# replacement (fixed seed), so every query has at least one match.
#
# Contenders, for every N at d = 3 and for d = 0 1 2 4 6 8 at N = 1M:
#   load   neardup near -d 0 IDX /dev/null      reading + one table (an upper bound on
#                                                reading alone); N sweep only
#   build  neardup near -d D IDX /dev/null      reading + building every table
#   query  neardup near -d D IDX QUERIES...     the same + R passes of the Q queries,
#                                                R = max(1, N / 1M), so that the query
#                                                work stands above the noise of building
#   self   neardup near --self -d D IDX         reading + building + the self-join
#   scan   scan -d D -q QS IDX QUERIES          brute force, the first QS = 10^9 / N
#                                                queries, timed inside (reading excluded)
# and scan built both with `cc -O2` and with `cc -O2 -mpopcnt` (if the CPU has popcnt).
# neardup exits 1 when it prints nothing (no queries, no pairs): not a failure here.
#
# Runs alternate (round-robin, each round starting one contender further on). Every run
# is timed by GNU time (`%e %M %U %S`: wall seconds, peak RSS, CPU seconds). Reported:
# medians; per query = (median query - median build) / (R Q), in wall and in CPU time,
# which includes reading the query lines and writing the matches; scan ÷ index = the
# faster scan's per-query time / neardup's. Only the tables go to stdout; progress goes
# to stderr. With BENCH_SUMMARY set (bench/run), summary rows are appended to it
# (bench/lib.sh).
set -euo pipefail
export LC_ALL=C
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_init near.sh

runs=3
bin=./neardup
corpus=${CORPUS:-$HOME/.cache/neardup-corpus}
size=10m
Q=200000
bench_options -x q:Q "bench/near.sh [-n RUNS] [-b NEARDUP_BINARY] [-c CORPUSDIR] [-s 100k|1m|3m|10m] [-q QUERIES]" "$@"
case $Q in '' | *[!0-9]* | 0) die "-q: want a positive integer, not '$Q'" ;; esac
case $size in
  100k | 100K | quick) sizes=(100000) ;;
  1m | 1M) sizes=(100000 1000000) ;;
  3m | 3M) sizes=(100000 1000000 3000000) ;;
  10m | 10M | 100m | 100M | 1g | 1G | big) sizes=(100000 1000000 3000000 10000000) ;;
  *) die "-s: want 100k, 1m, 3m or 10m, not '$size'" ;;
esac
find_bin "$bin"
need_time
command -v python3 >/dev/null 2>&1 || die "python3 is required to generate the fingerprints"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$corpus/near" || die "$corpus/near: cannot create"
data=$(cd "$corpus/near" && pwd)

make_tmp near

# ---------------------------------------------------------------- header line
machine_init
rev=$(neardup_rev)

# ---------------------------------------------------------------- the scan
cc=${CC:-cc}
say "building the scan: $cc -O2 bench/scan.c"
"$cc" -O2 -o "$tmp/scan" "$here/scan.c" || die "cannot build bench/scan.c"
scans=(scan)
scanlab=('cc -O2')
if grep -qw popcnt /proc/cpuinfo 2>/dev/null; then
  "$cc" -O2 -mpopcnt -o "$tmp/scan-popcnt" "$here/scan.c" || die "cannot build bench/scan.c -mpopcnt"
  scans+=(scan-popcnt)
  scanlab+=('cc -O2 -mpopcnt')
fi

# ---------------------------------------------------------------- the data
name() {  # name N: 100k 1m 3m 10m
  case $1 in
    *000000) echo "$(($1 / 1000000))m" ;;
    *) echo "$(($1 / 1000))k" ;;
  esac
}
nlines() { wc -l <"$1" | tr -d ' '; }

has_lines() { [ -s "$1" ] && [ "$(nlines "$1")" = "$2" ]; }  # has_lines FILE N

# fp10m.txt is checked (and made) only when a file drawn from it is missing.
big=$data/fp10m.txt
need_big=0
warm=()
for N in "${sizes[@]}"; do has_lines "$data/fp$(name "$N").txt" "$N" || need_big=1; done
if [ "$need_big" = 1 ] && ! has_lines "$big" 10000000; then
  say "generating $big (10,000,000 lines; about 15 s, once)"
  python3 - "$big.tmp" <<'EOF'
import random, sys
r = random.Random(20261121)
with open(sys.argv[1], "w") as f:
    for base in range(0, 10000000, 100000):
        f.write("".join("nd1-simhash64-w3-fs-s0:%016x  doc%d\n" % (r.getrandbits(64), i)
                        for i in range(base, base + 100000)))
EOF
  mv "$big.tmp" "$big"
fi
for N in "${sizes[@]}"; do
  f=$data/fp$(name "$N").txt
  if [ "$N" != 10000000 ] && ! has_lines "$f" "$N"; then
    say "writing $f (the first $N lines of fp10m.txt)"
    head -n "$N" "$big" >"$f.tmp" && mv "$f.tmp" "$f"
  fi
  q=$((Q < N ? Q : N))
  qf=$data/q$q-fp$(name "$N").txt
  if ! has_lines "$qf" "$q"; then
    say "writing $qf ($q lines drawn from fp$(name "$N").txt)"
    python3 - "$f" "$N" "$q" "$qf.tmp" <<'EOF'
import random, sys
path, n, q, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
pick = random.Random(n * 7 + q).sample(range(n), q)
pos = {line: k for k, line in enumerate(pick)}
lines = [None] * q
with open(path) as f:
    for i, line in enumerate(f):
        k = pos.get(i)
        if k is not None:
            lines[k] = line
with open(out, "w") as f:
    f.write("".join(lines))
EOF
    mv "$qf.tmp" "$qf"
  fi
  warm+=("$f" "$qf")
done
say "warming the page cache"
cat "${warm[@]}" >/dev/null

# ---------------------------------------------------------------- contenders
# Parallel arrays: KIND (load build query self scan scan-popcnt), N, D, CMD (words
# quoted for eval), OUT (stdout file of the last run).
declare -a KIND NN DD CMD LABEL
n=0
add() {  # add KIND N D CMD
  KIND[n]=$1 NN[n]=$2 DD[n]=$3 CMD[n]=$4 LABEL[n]="$1 N=$2 d=$3"
  n=$((n + 1))
}
B=$(q "$bin")
declare -A IDX QF QN QR
for N in "${sizes[@]}"; do
  IDX[$N]=$data/fp$(name "$N").txt
  QN[$N]=$((Q < N ? Q : N))
  QF[$N]=$data/q${QN[$N]}-fp$(name "$N").txt
  QR[$N]=$((N > 1000000 ? N / 1000000 : 1))  # passes over the queries
done
cases=()  # "N D" pairs, in table order
for N in "${sizes[@]}"; do cases+=("$N 3"); done
if [[ " ${sizes[*]} " == *" 1000000 "* ]]; then
  for d in 0 1 2 4 6 8; do cases+=("1000000 $d"); done
fi
for c in "${cases[@]}"; do
  read -r N d <<<"$c"
  I=$(q "${IDX[$N]}") F=$(q "${QF[$N]}")
  qs=$((1000000000 / N))
  [ "$qs" -le "${QN[$N]}" ] || qs=${QN[$N]}
  [ "$d" != 3 ] || add load "$N" 0 "$B near -d 0 $I /dev/null"
  add build "$N" "$d" "$B near -d $d $I /dev/null"
  FF=$F
  for ((k = 1; k < QR[$N]; k++)); do FF="$FF $F"; done
  add query "$N" "$d" "$B near -d $d $I $FF"
  add self "$N" "$d" "$B near --self -d $d $I"
  for s in "${scans[@]}"; do add "$s" "$N" "$d" "$(q "$tmp/$s") -d $d -q $qs $I $F"; done
done

# ---------------------------------------------------------------- timed runs
# lib.sh: $tmp/t.I gets one "WALL KBYTES USER SYS" line per run of contender I, and
# $tmp/fail.I why it failed; here $tmp/out.I is its stdout (last run) and
# $tmp/scanline.I scan's line of every run. Exit 1 (neardup printed nothing) is not a
# failure of build, load or self.
TIME_FORMAT='%e %M %U %S'
run_out() { echo "$tmp/out.$1"; }
run_ok() {
  [ "$2" -eq 0 ] || { [ "$2" -eq 1 ] && case ${KIND[$1]} in build | load | self) true ;; *) false ;; esac; }
}
after_run() { case ${KIND[$1]} in scan*) cat "$tmp/out.$1" >>"$tmp/scanline.$1" ;; esac; }
say "$n contenders, $runs rounds"
round_robin all $(seq 0 $((n - 1)))

# ---------------------------------------------------------------- figures
med() { median %.6g; }
find_i() {  # find_i KIND N D: the contender's index, or -1
  local k
  for ((k = 0; k < n; k++)); do
    [ "${KIND[k]}" = "$1" ] && [ "${NN[k]}" = "$2" ] && [ "${DD[k]}" = "$3" ] && { echo "$k"; return; }
  done
  echo -1
}
ran() { [ "$1" -ge 0 ] && [ -s "$tmp/t.$1" ]; }  # ran I: has contender I a timed run?
wall() { local i; i=$(find_i "$@"); if ran "$i"; then awk '{ print $1 }' "$tmp/t.$i" | med; fi; }
cpu() { local i; i=$(find_i "$@"); if ran "$i"; then awk '{ print $3 + $4 }' "$tmp/t.$i" | med; fi; }
mib() { local i; i=$(find_i "$@"); if ran "$i"; then awk '$2 > m { m = $2 } END { printf "%.0f", m / 1024 }' "$tmp/t.$i"; else echo "—"; fi; }
failed() { local i; i=$(find_i "$@"); [ "$i" -ge 0 ] && [ -e "$tmp/fail.$i" ]; }
scan_us() {  # scan_us KIND N D FIELD: median of scan's FIELD (per_query_us, per_query_cpu_us)
  local i
  i=$(find_i "$1" "$2" "$3")
  if ran "$i"; then sed -n "s/.* $4=\([0-9.]*\).*/\1/p" "$tmp/scanline.$i" | med; fi
}
# The blocks B and tables C(B, d) index.c's rule chooses (choose_blocks in src/join/index.c).
tables() {  # tables N D
  awk -v n="$1" -v d="$2" 'function binom(a, k,  r, i) { r = 1; for (i = 1; i <= k; i++) r = r * (a - k + i) / i; return r }
    BEGIN { if (d == 0) { print "1, 1"; exit }
      best = d + 1
      for (b = d + 1; b <= 64; b++) {
        if (binom(b, d) > 64) break
        best = b; p = (b - d) * int(64 / b); if (p > 64) p = 64
        if (n / 2 ^ p <= 256) break
      }
      printf "%d, %d", best, binom(best, d) }'
}
fmt_s() { awk -v v="$1" 'BEGIN { if (v == "") print "—"; else printf "%.2f", v }'; }
fmt_us() { awk -v v="$1" 'BEGIN { if (v == "") print "—"; else if (v >= 100) printf "%.0f", v;
  else if (v >= 10) printf "%.1f", v; else printf "%.2f", v }'; }
ratio() { awk -v s="$1" -v u="$2" 'BEGIN { if (s == "" || u == "" || u <= 0) print "—"; else printf "%.0f", s / u }'; }
minof() { printf '%s\n' "$@" | awk 'NF && (b == "" || $1 < b) { b = $1 } END { print b }'; }
humann() { awk -v v="$1" 'BEGIN { if (v >= 1e6) printf "%gM", v / 1e6; else printf "%gk", v / 1e3 }'; }
secs() {  # secs KIND N D: median wall seconds for the table
  if failed "$@" && [ -z "$(wall "$@")" ]; then echo "failed"; else fmt_s "$(wall "$@")"; fi
}

row() {  # row N D: one table row
  local N=$1 d=$2 Qn=$((QN[$1] * QR[$1])) us cus s1 s2 sbest scbest pairs i qi si qs matches mine chk load
  us='' cus=''
  if [ -n "$(wall query "$N" "$d")" ] && [ -n "$(wall build "$N" "$d")" ]; then
    us=$(awk -v a="$(wall query "$N" "$d")" -v b="$(wall build "$N" "$d")" -v q="$Qn" \
      'BEGIN { printf "%.6g", (a - b) / q * 1e6 }')
    cus=$(awk -v a="$(cpu query "$N" "$d")" -v b="$(cpu build "$N" "$d")" -v q="$Qn" \
      'BEGIN { printf "%.6g", (a - b) / q * 1e6 }')
  fi
  s1=$(scan_us scan "$N" "$d" per_query_us)
  s2=$(scan_us scan-popcnt "$N" "$d" per_query_us)
  sbest=$(minof "$s1" "$s2")
  scbest=$(minof "$(scan_us scan "$N" "$d" per_query_cpu_us)" "$(scan_us scan-popcnt "$N" "$d" per_query_cpu_us)")
  pairs='—'
  i=$(find_i self "$N" "$d")
  if ran "$i"; then pairs=$(nlines "$tmp/out.$i"); fi
  # The cross-check: neardup's matches for the queries the scan ran, against scan's.
  chk='—'
  qi=$(find_i query "$N" "$d")
  si=$(find_i scan "$N" "$d")
  if ran "$qi" && ran "$si"; then
    read -r qs matches < <(sed -n 's/.*queries=\([0-9]*\) .*matches=\([0-9]*\) .*/\1 \2/p' "$tmp/out.$si")
    mine=$(awk -v qs="$qs" 'NR == FNR { if (FNR <= qs) { split($0, a, "  "); want[a[2]] = 1 } next }
      ($1 in want) { c++ } END { print c + 0 }' "${QF[$N]}" FS='\t' "$tmp/out.$qi")
    # Each of the R passes over the queries prints the matches again.
    mine=$((mine / QR[$N]))
    if [ "$mine" = "$matches" ]; then chk="$matches = $matches"; else chk="**$mine ≠ $matches**"; fi
  fi
  load='—'
  [ "$d" != 3 ] || load=$(secs load "$N" 0)
  printf '| %s | %s | %s | %s | %s | %s / %s | %s / %s | %s / %s | %s | %s | %s | %s / %s / %s |\n' \
    "$(humann "$N")" "$d" "$(tables "$N" "$d")" "$load" "$(secs build "$N" "$d")" \
    "$(fmt_us "$us")" "$(fmt_us "$cus")" "$(fmt_us "$s1")" "$(fmt_us "$s2")" \
    "$(ratio "$sbest" "$us")" "$(ratio "$scbest" "$cus")" "$chk" \
    "$(secs self "$N" "$d")" "$pairs" \
    "$(mib build "$N" "$d")" "$(mib query "$N" "$d")" "$(mib self "$N" "$d")"
}

hdr() {
  echo "| N | d | B, tables | load s | build s | µs/query wall / CPU | scan µs/query -O2 / -mpopcnt | scan ÷ index wall / CPU | matches neardup = scan | self s | self pairs | peak MiB build / query / self |"
  echo "|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
}

echo "neardup near benchmark on $(uname -n): nproc $ncpu, $cpu, $when; neardup $rev;" \
  "$runs alternating runs each; Q = $Q queries (at most N); random 64-bit fingerprints;" \
  "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
echo
echo "Growth with N (d = 3):"
echo
hdr
for N in "${sizes[@]}"; do row "$N" 3; done
if [[ " ${sizes[*]} " == *" 1000000 "* ]]; then
  echo
  echo "Growth with d (N = 1M):"
  echo
  hdr
  for d in 0 1 2 3 4 6 8; do row 1000000 "$d"; done
fi

# Summary rows for bench/run, at d = 3: queries per second in wall time, neardup's from
# (median query - median build) / (R Q), the scans' from their own clocks.
qps() { awk -v u="$1" 'BEGIN { if (u > 0) printf "%.0f", 1e6 / u }'; }
for N in "${sizes[@]}"; do
  in="N = $(humann "$N") random 64-bit fingerprints"
  us='' note=''
  if [ -n "$(wall query "$N" 3)" ] && [ -n "$(wall build "$N" 3)" ]; then
    us=$(awk -v a="$(wall query "$N" 3)" -v b="$(wall build "$N" 3)" -v q="$((QN[$N] * QR[$N]))" \
      'BEGIN { printf "%.6g", (a - b) / q * 1e6 }')
    [ -n "$(qps "$us")" ] || note="queries below the timer's resolution"
  else
    note=failed
  fi
  summary 'near -d 3' "$in" neardup 'neardup near -d 3 IDX QUERIES' '' "$(qps "$us")" queries/s \
    "$(mib query "$N" 3 | tr -d '—')" "$note"
  for ((k = 0; k < ${#scans[@]}; k++)); do
    s=${scans[k]}
    us=$(scan_us "$s" "$N" 3 per_query_us)
    note=''
    [ -n "$us" ] || note=failed
    summary 'near -d 3' "$in" peer "scan -d 3 (${scanlab[k]}, brute force)" '' "$(qps "$us")" \
      queries/s "$(mib "$s" "$N" 3 | tr -d '—')" "$note"
  done
done
