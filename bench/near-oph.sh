#!/usr/bin/env bash
# bench/near-oph.sh: time `neardup near` on oph fingerprint lines (LSH tables,
# src/join/lshindex.c), the rows that bench/near.sh (simhash, permuted tables) lacks,
# and print a Markdown table.
#
#   bench/near-oph.sh [-n RUNS] [-b NEARDUP_BINARY] [-c CORPUSDIR] [-s 100k|1m]
#                     [-t THRESHOLD]
#
#   -n RUNS       timed runs of every contender (default 3)
#   -b BINARY     the neardup to time (default ./neardup)
#   -c DIR        corpus directory, holding lines5m.txt (bench/README.md); the
#                 fingerprint files go to DIR/near/ (default
#                 ${CORPUS:-$HOME/.cache/neardup-corpus})
#   -s SIZE       index lines: 100k or 1m (default 1m; quick, from bench/run -q, 100k)
#   -t THRESHOLD  near -t (default 0.5, near's own default)
#
# Index: the first N distinct lines of lines5m.txt, `neardup hash --lines -a oph`
# (128 values a line, the default k); queries: the next 10000 distinct lines, hashed
# the same way, so that their matches are the near-duplicates a new line has.  Both are
# made once and cached.
#
# Contenders:
#   build  neardup near -t T IDX /dev/null    reading the lines + building the tables
#   query  neardup near -t T IDX Q x R         the same + R = 10 passes of the 10000
#                                              queries
#   top    neardup near -n 5 IDX Q100          exact 5 most similar of 100 queries (a
#                                              scan of the index whenever the tables
#                                              cannot prove the 5 best, see near -n)
#   self   neardup near --self -t T IDX        reading + the self-join (pairs counted)
# Reported: medians of wall and CPU seconds (GNU time), peak RSS; per query = (query -
# build) / (R 10000) and (top - build) / 100.  Runs alternate (bench/lib.sh).
set -euo pipefail
export LC_ALL=C
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_init near-oph.sh

runs=3
bin=./neardup
corpus=${CORPUS:-$HOME/.cache/neardup-corpus}
size=1m
T=0.5
bench_options -x t:T "bench/near-oph.sh [-n RUNS] [-b NEARDUP_BINARY] [-c CORPUSDIR] [-s 100k|1m] [-t THRESHOLD]" "$@"
case $size in
  100k | 100K | quick) N=100000 ;;
  1m | 1M | 3m | 10m | 100m | 1g | big) N=1000000 ;;
  *) die "-s: want 100k or 1m, not '$size'" ;;
esac
find_bin "$bin"
need_time
[ -s "$corpus/lines5m.txt" ] || die "$corpus/lines5m.txt: missing (see bench/README.md)"
mkdir -p "$corpus/near" || die "$corpus/near: cannot create"
data=$(cd "$corpus/near" && pwd)
make_tmp near-oph
machine_init
rev=$(neardup_rev)

# ---------------------------------------------------------------- the data
tag=$((N / 1000))k
IDX=$data/oph-$tag.fp QF=$data/oph-q10k-$tag.fp Q100=$data/oph-q100-$tag.fp
if [ ! -s "$IDX" ] || [ ! -s "$QF" ] || [ ! -s "$Q100" ]; then
  say "hashing the first $N distinct lines of lines5m.txt and 10000 more (once)"
  awk -v m=$((N + 10000)) '!seen[$0]++ { print; if (++n == m) exit }' "$corpus/lines5m.txt" \
    >"$tmp/lines"
  head -n "$N" "$tmp/lines" >"$tmp/idx.txt"
  tail -n 10000 "$tmp/lines" >"$tmp/q.txt"
  (cd "$tmp" && "$bin" hash --lines -a oph idx.txt) >"$IDX.tmp"
  (cd "$tmp" && "$bin" hash --lines -a oph q.txt) >"$QF.tmp"
  head -n 100 "$QF.tmp" >"$Q100.tmp"
  mv "$IDX.tmp" "$IDX" && mv "$QF.tmp" "$QF" && mv "$Q100.tmp" "$Q100"
  rm -f "$tmp/lines" "$tmp/idx.txt" "$tmp/q.txt"
fi
say "warming the page cache"
cat "$IDX" "$QF" >/dev/null

# ---------------------------------------------------------------- contenders
R=10
B=$(q "$bin") I=$(q "$IDX") F=$(q "$QF")
FF=$F
for ((k = 1; k < R; k++)); do FF="$FF $F"; done
declare -a CMD LABEL
CMD=("$B near -t $T $I /dev/null" "$B near -t $T $I $FF" "$B near -n 5 $I $(q "$Q100")"
  "$B near --self -t $T $I")
LABEL=(build query top self)
TIME_FORMAT='%e %M %U %S'
run_out() { if [ "$1" = 3 ]; then echo "$tmp/out.3"; else echo /dev/null; fi; }
run_ok() { [ "$2" -le 1 ]; }  # exit 1: nothing printed (build)
after_run() { if [ "$1" = 3 ]; then wc -l <"$tmp/out.3" >"$tmp/pairs"; : >"$tmp/out.3"; fi; }
round_robin all 0 1 2 3

# ---------------------------------------------------------------- figures
per() {  # per I DIVISOR FIELD(wall|cpu): (I - build) / DIVISOR, in ms
  local a b
  if [ "$3" = wall ]; then a=$(med_wall "$1") b=$(med_wall 0); else a=$(med_cpu "$1") b=$(med_cpu 0); fi
  awk -v a="$a" -v b="$b" -v d="$2" 'BEGIN { if (a == "" || b == "") print "—"; else printf "%.3f", (a - b) / d * 1e3 }'
}
echo "### near on oph lines (bench/near-oph.sh), $when"
echo
echo "neardup $rev; $cpu, $ncpu CPUs; index: $N distinct lines of lines5m.txt, oph k=128;"
echo "-t $T; $runs runs each, medians; seconds wall (CPU), peak RSS."
echo
echo '| contender | wall s | CPU s | peak MiB | per query, ms wall (CPU) |'
echo '|---|---|---|---|---|'
printf '| build | %s | %s | %s | |\n' "$(med_wall 0)" "$(med_cpu 0)" "$(peak_mib 0)"
printf '| query, %d queries | %s | %s | %s | %s (%s) |\n' $((R * 10000)) "$(med_wall 1)" \
  "$(med_cpu 1)" "$(peak_mib 1)" "$(per 1 $((R * 10000)) wall)" "$(per 1 $((R * 10000)) cpu)"
printf '| top, -n 5, 100 queries | %s | %s | %s | %s (%s) |\n' "$(med_wall 2)" "$(med_cpu 2)" \
  "$(peak_mib 2)" "$(per 2 100 wall)" "$(per 2 100 cpu)"
printf '| self, %s pairs | %s | %s | %s | |\n' "$(cat "$tmp/pairs" 2>/dev/null || echo '?')" \
  "$(med_wall 3)" "$(med_cpu 3)" "$(peak_mib 3)"
summary near "oph $tag lines" build neardup "$(med_wall 0)" "" "" "$(peak_mib 0)" ""
summary near "oph $tag lines" self neardup "$(med_wall 3)" "" "" "$(peak_mib 3)" ""
