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
#              hash.sh's sizes, passed on by bench/run, mean 5m
#
# The input is lines5m.txt: 5,000,000 lines of kernel source, 2,715,146 distinct. Runs
# alternate (round-robin, each round starting one contender further on); every run is
# timed as a whole process by GNU time (`%e %M`: wall seconds, peak RSS), output to
# /dev/null. Reported: median seconds, lines per second, peak RSS (max over runs), the
# lines printed (counted once, apart), neardup's median over awk's, and for neardup the
# peak RSS less the bytes of the lines printed, per line printed. Only the table goes to
# stdout; progress goes to stderr.
set -euo pipefail
export LC_ALL=C

usage() {
  echo "usage: bench/uniq.sh [-n RUNS] [-b NEARDUP_BINARY] [-c CORPUSDIR] [-s 1m|5m]" >&2
  exit 2
}
die() { echo "uniq.sh: $*" >&2; exit 2; }
say() { echo "uniq.sh: $*" >&2; }

runs=3
bin=./neardup
corpus=${CORPUS:-$HOME/.cache/neardup-corpus}
size=5m
while getopts ':n:b:c:s:h' opt; do
  case $opt in
    n) runs=$OPTARG ;;
    b) bin=$OPTARG ;;
    c) corpus=$OPTARG ;;
    s) size=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage
case $runs in '' | *[!0-9]* | 0) die "-n: want a positive integer, not '$runs'" ;; esac
case $size in
  1m | 1M) lines=1000000 ;;
  5m | 5M | 10m | 100m | 1g | 1G | big) lines=5000000 ;;
  *) die "-s: want 1m or 5m, not '$size'" ;;
esac
[ -f "$corpus/lines5m.txt" ] ||
  die "$corpus/lines5m.txt: missing (run shared/bench/corpus.sh beside the project)"
case $bin in */*) ;; *) bin=./$bin ;; esac
{ [ -f "$bin" ] && [ -x "$bin" ]; } || die "$bin: no neardup binary (build it, or pass -b)"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
[ -x /usr/bin/time ] || die "/usr/bin/time (GNU time) is required"
q() { printf '%q' "$1"; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/neardup-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

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
cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
[ -n "$cpu" ] || cpu=$(uname -m)
# The repository of the binary, or else of this script.
rev=unknown
for d in "$(dirname "$bin")" "$(dirname "$0")"; do
  r=$(git -C "$d" rev-parse --short HEAD 2>/dev/null) || continue
  rev=$r
  git -C "$d" diff --quiet HEAD -- 2>/dev/null || rev="$rev (dirty)"
  [ "$d" = "$(dirname "$bin")" ] || rev="$rev (binary copied from it)"
  break
done
echo "neardup uniq benchmark on $(uname -n): nproc $(nproc), $cpu," \
  "$(date -u '+%Y-%m-%d %H:%M UTC'); neardup $rev; $runs alternating runs each;" \
  "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

# ---------------------------------------------------------------- contenders
declare -a LABEL CMD KIND
n=0
add() { LABEL[n]=$1 CMD[n]=$2 KIND[n]=$3; n=$((n + 1)); }
add "awk '!seen[\$0]++'" "awk '!seen[\$0]++' $inq" peer
add 'sort -u' "sort -u $inq" peer
add 'neardup uniq' "$(q "$bin") uniq $inq" nd
add 'neardup uniq -t 1' "$(q "$bin") uniq -t 1 $inq" nd
add 'neardup uniq -t 0.9' "$(q "$bin") uniq -t 0.9 $inq" nd

# Lines printed, and their bytes, counted once apart.
declare -a KEPT KBYTES
for ((i = 0; i < n; i++)); do
  eval "${CMD[i]}" >"$tmp/out" 2>/dev/null || die "${LABEL[i]} failed"
  KEPT[i]=$(wc -l <"$tmp/out")
  KBYTES[i]=$(wc -c <"$tmp/out")
done

for ((r = 1; r <= runs; r++)); do
  say "round $r of $runs"
  for ((j = 0; j < n; j++)); do
    i=$(((r - 1 + j) % n))
    eval "/usr/bin/time -o \"\$tmp/time\" -f '%e %M' ${CMD[i]}" >/dev/null 2>&1 ||
      die "${LABEL[i]}: failed"
    tail -n 1 "$tmp/time" >>"$tmp/t.$i"
    say "  ${LABEL[i]}: $(tail -n 1 "$tmp/time" | awk '{ printf "%s s, %.0f MiB", $1, $2 / 1024 }')"
  done
done

median() {
  sort -n "$1" | awk '{ t[NR] = $1 }
    END { printf "%.2f", NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'
}
awk_med=$(median "$tmp/t.0")

echo "| contender | median s | lines/s | peak MiB | lines printed | × awk time | bytes / line kept |"
echo "|---|--:|--:|--:|--:|--:|--:|"
for ((i = 0; i < n; i++)); do
  med=$(median "$tmp/t.$i")
  kib=$(awk '$2 > m { m = $2 } END { print m }' "$tmp/t.$i")
  awk -v l="${LABEL[i]}" -v s="$med" -v k="$kib" -v n="$lines" -v kept="${KEPT[i]}" \
    -v kb="${KBYTES[i]}" -v a="$awk_med" -v nd="${KIND[i]}" 'BEGIN {
      ratio = nd == "nd" ? sprintf("%.2f", s / a) : ""
      per = nd == "nd" ? sprintf("%.0f", (k * 1024 - kb) / kept) : ""
      printf "| `%s` | %.2f | %.2fM | %.0f | %d | %s | %s |\n", l, s, n / s / 1e6, k / 1024,
        kept, ratio, per }'
done
echo
echo "Input: $name ($(wc -c <"$in") bytes). Load average after: $(cut -d' ' -f1-3 /proc/loadavg)."
