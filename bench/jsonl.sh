#!/usr/bin/env bash
# bench/jsonl.sh: time `neardup uniq --jsonl` against `neardup uniq --tsv` on the same
# records in the same run, and print one Markdown table.
#
#   bench/jsonl.sh [-n RUNS] [-b NEARDUP_BINARY] [-c CORPUSDIR]
#
#   -n RUNS    timed runs of every contender (default 3)
#   -b BINARY  the neardup to time (default ./neardup)
#   -c DIR     corpus built by shared/bench/corpus.sh beside the project
#              (default ${CORPUS:-$HOME/.cache/neardup-corpus}); its kernel/Documentation
#
# The records are the files of the kernel's Documentation, one record per file, built
# by bench/docjsonl.py. A --tsv record cannot hold a newline or a tab, so both of the
# compared inputs hold the texts with every newline, tab and CR made a space:
# doc-flat.jsonl and doc-flat.tsv, the same texts, so that the two runs make the same
# decisions and differ only in how the records are read. A third contender reads
# doc.jsonl, the texts as they are (newlines escaped as \n), for the figure a user
# sees. Runs alternate (round-robin); each is timed by GNU time (%e %M), output to
# /dev/null. Reported: median seconds, MB/s of input, peak RSS, records printed, and
# the median over that of --tsv (target: at most 1.5). Two more rows time cluster on
# the same texts: `cluster --jsonl --dups` on doc.jsonl, and `cluster -r -c 5 --dups`
# on the Documentation files (its MB/s is of doc.jsonl's size, for comparison).
set -euo pipefail
export LC_ALL=C
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_init jsonl.sh

runs=3
bin=./neardup
corpus=${CORPUS:-$HOME/.cache/neardup-corpus}
size=
bench_options "bench/jsonl.sh [-n RUNS] [-b NEARDUP_BINARY] [-c CORPUSDIR]" "$@"
find_bin "$bin"
need_time
make_tmp bench

doc_records
cat "$tmp"/doc* >/dev/null

machine_init
rev=$(neardup_rev)
echo "neardup uniq --jsonl benchmark on $(uname -n): nproc $ncpu, $cpu," \
  "$when; neardup $rev; $runs alternating runs each;" \
  "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

declare -a LABEL CMD IN
n=0
add() { LABEL[n]=$1 CMD[n]=$2 IN[n]=$3; n=$((n + 1)); }
add 'uniq --tsv doc-flat.tsv' "$(q "$bin") uniq --tsv $(q "$tmp/doc-flat.tsv")" "$tmp/doc-flat.tsv"
add 'uniq --jsonl doc-flat.jsonl' "$(q "$bin") uniq --jsonl $(q "$tmp/doc-flat.jsonl")" "$tmp/doc-flat.jsonl"
add 'uniq --jsonl doc.jsonl' "$(q "$bin") uniq --jsonl $(q "$tmp/doc.jsonl")" "$tmp/doc.jsonl"
# cluster: the same records, every pair confirmed exactly from the texts set aside,
# against cluster -r on the files themselves, in the same scheme (char 5-grams).
add 'cluster --jsonl --dups doc.jsonl' "$(q "$bin") cluster --jsonl --dups $(q "$tmp/doc.jsonl")" "$tmp/doc.jsonl"
add 'cluster -r -c 5 --dups Documentation' "$(q "$bin") cluster -r -c 5 --dups $(q "$docs")" "$tmp/doc.jsonl"

declare -a KEPT
for ((i = 0; i < n; i++)); do
  eval "${CMD[i]}" >"$tmp/out" 2>/dev/null || die "${LABEL[i]} failed"
  KEPT[i]=$(wc -l <"$tmp/out")
done
[ "${KEPT[0]}" = "${KEPT[1]}" ] ||
  say "warning: --tsv kept ${KEPT[0]} records, --jsonl ${KEPT[1]}: not the same decisions"

round_robin jsonl $(seq 0 $((n - 1)))
tsv_med=$(med_wall 0)

echo "| contender | input MB | median s | MB/s | peak MiB | records printed | × --tsv time |"
echo "|---|--:|--:|--:|--:|--:|--:|"
for ((i = 0; i < n; i++)); do
  med=$(med_wall "$i")
  bytes=$(wc -c <"${IN[i]}")
  if [ -z "$med" ]; then
    echo "| \`${LABEL[i]}\` | | failed ($(cat "$tmp/fail.$i")) | | | ${KEPT[i]} | |"
    continue
  fi
  awk -v l="${LABEL[i]}" -v s="$med" -v b="$bytes" -v p="$(peak_mib "$i")" \
    -v kept="${KEPT[i]}" -v t="$tsv_med" 'BEGIN {
      rate = s > 0 ? b / 1e6 / s : 0
      ratio = t > 0 ? s / t : 0
      printf "| `%s` | %.1f | %.2f | %.1f | %s | %d | %.2f |\n", l, b / 1e6, s, rate,
        p, kept, ratio }'
  summary 'uniq --jsonl' 'kernel Documentation' neardup "${LABEL[i]}" "$med" \
    "$(awk -v b="$bytes" -v s="$med" 'BEGIN { if (s > 0) printf "%.1f", b / 1e6 / s }')" MB/s \
    "$(peak_mib "$i")" ''
done
echo
echo "Records: $(wc -l <"$tmp/doc.jsonl") files of $docs. Load average after:" \
  "$(cut -d' ' -f1-3 /proc/loadavg)."
