#!/usr/bin/env bash
# bench/uniq.sh: time `neardup uniq` against awk '!seen[$0]++' and sort -u (exact duplicates
# only, the floor a near-duplicate uniq is held to) on the same lines in the same run, and
# print one Markdown table.
#
#   bench/uniq.sh [-n RUNS] [-b NEARDUP_BINARY] [-c CORPUSDIR] [-s 1m|5m]
#
#   -n RUNS    timed runs of every contender (default 3)
#   -b BINARY  the neardup to time (default ./neardup)
#   -c DIR     corpus built by shared/bench/corpus.sh beside the project
#              (default ${CORPUS:-$HOME/.cache/neardup-corpus})
#   -s SIZE    lines5m.txt whole (5m, the default) or its first million lines (1m);
#              hash.sh's sizes, passed on by bench/run, mean 5m, and quick
#              (bench/run -q) 1m
#
# The input is lines5m.txt: 5,000,000 lines of kernel source, 2,715,146 distinct. Runs
# alternate (round-robin, each round starting one contender further on); every run is
# timed as a whole process by GNU time (`%e %M`: wall seconds, peak RSS), output to
# /dev/null. Reported: median seconds, lines per second, peak RSS (max over runs), the
# lines printed (counted once, apart), neardup's median over awk's, and for neardup the
# peak RSS less the bytes of the lines printed, per line printed. Only the table goes to
# stdout; progress goes to stderr. With BENCH_SUMMARY set (bench/run), summary rows are
# appended to it (bench/lib.sh).
set -euo pipefail
export LC_ALL=C
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_init uniq.sh

runs=3
bin=./neardup
corpus=${CORPUS:-$HOME/.cache/neardup-corpus}
size=5m
bench_options "bench/uniq.sh [-n RUNS] [-b NEARDUP_BINARY] [-c CORPUSDIR] [-s 1m|5m]" "$@"
case $size in
  1m | 1M | quick) lines=1000000 ;;
  5m | 5M | 10m | 100m | 1g | 1G | big) lines=5000000 ;;
  *) die "-s: want 1m or 5m, not '$size'" ;;
esac
[ -f "$corpus/lines5m.txt" ] ||
  die "$corpus/lines5m.txt: missing (run shared/bench/corpus.sh beside the project)"
find_bin "$bin"
need_time
make_tmp bench

in=$corpus/lines5m.txt
if [ "$lines" -lt 5000000 ]; then
  head -n "$lines" "$in" >"$tmp/lines.txt"
  in=$tmp/lines.txt
fi
name=$(basename "$in")
[ "$name" = lines.txt ] && name="lines5m.txt, first $lines lines"
inq=$(q "$in")
say "warming the page cache with $name"
cat "$in" >/dev/null

# ---------------------------------------------------------------- header line
machine_init
# The repository of the binary, or else of this script.
rev=$(neardup_rev)
echo "neardup uniq benchmark on $(uname -n): nproc $ncpu, $cpu," \
  "$when; neardup $rev; $runs alternating runs each;" \
  "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

# ---------------------------------------------------------------- contenders
declare -a LABEL CMD KIND
n=0
add() { LABEL[n]=$1 CMD[n]=$2 KIND[n]=$3; n=$((n + 1)); }
add "awk '!seen[\$0]++'" "awk '!seen[\$0]++' $inq" peer
add 'sort -u' "sort -u $inq" peer
add 'neardup uniq' "$(q "$bin") uniq $inq" nd
add 'neardup uniq -t 0.7' "$(q "$bin") uniq -t 0.7 $inq" nd
add 'neardup uniq -t 1' "$(q "$bin") uniq -t 1 $inq" nd
add 'neardup uniq -t 0.9' "$(q "$bin") uniq -t 0.9 $inq" nd

# Lines printed, and their bytes, counted once apart.
declare -a KEPT KBYTES
for ((i = 0; i < n; i++)); do
  eval "${CMD[i]}" >"$tmp/out" 2>/dev/null || die "${LABEL[i]} failed"
  KEPT[i]=$(wc -l <"$tmp/out")
  KBYTES[i]=$(wc -c <"$tmp/out")
done

round_robin uniq $(seq 0 $((n - 1)))
awk_med=$(med_wall 0)

echo "| contender | median s | lines/s | peak MiB | lines printed | × awk time | bytes / line kept |"
echo "|---|--:|--:|--:|--:|--:|--:|"
for ((i = 0; i < n; i++)); do
  med=$(med_wall "$i")
  # Summary rows for bench/run: the peers, and neardup uniq with the defaults.
  insum=0
  { [ "${KIND[i]}" = peer ] || [ "${LABEL[i]}" = 'neardup uniq' ]; } && insum=1
  if [ -z "$med" ]; then
    echo "| \`${LABEL[i]}\` | failed ($(cat "$tmp/fail.$i")) | | | ${KEPT[i]} | | |"
    [ "$insum" = 0 ] ||
      summary uniq "$name" "${KIND[i]/nd/neardup}" "${LABEL[i]}" '' '' lines/s '' "$(why "$i")"
    continue
  fi
  kib=$(awk '$2 > m { m = $2 } END { print m }' "$tmp/t.$i")
  awk -v l="${LABEL[i]}" -v s="$med" -v k="$kib" -v n="$lines" -v kept="${KEPT[i]}" \
    -v kb="${KBYTES[i]}" -v a="$awk_med" -v nd="${KIND[i]}" 'BEGIN {
      ratio = nd == "nd" && a > 0 ? sprintf("%.2f", s / a) : ""
      per = nd == "nd" ? sprintf("%.0f", (k * 1024 - kb) / kept) : ""
      rate = s > 0 ? sprintf("%.2fM", n / s / 1e6) : "—"
      printf "| `%s` | %.2f | %s | %.0f | %d | %s | %s |\n", l, s, rate, k / 1024,
        kept, ratio, per }'
  [ "$insum" = 1 ] || continue
  summary uniq "$name" "${KIND[i]/nd/neardup}" "${LABEL[i]}" "$med" \
    "$(awk -v n="$lines" -v s="$med" 'BEGIN { if (s > 0) printf "%.0f", n / s }')" lines/s \
    "$(peak_mib "$i")" ''
done
echo
echo "Input: $name ($(wc -c <"$in") bytes). Load average after: $(cut -d' ' -f1-3 /proc/loadavg)."
