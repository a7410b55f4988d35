#!/usr/bin/env bash
# bench/compress.sh: `neardup hash` of a compressed file read directly (decompressed
# through libarchive in a thread of its own) against the same file decompressed by its
# own tool into a pipe, `zstdcat FILE.zst | neardup hash`, and the same for gzip, with
# the plain text as a reference, in one run, and print one Markdown table.
#
#   bench/compress.sh [-n RUNS] [-b NEARDUP_BINARY] [-c CORPUSDIR] [-s 10m|100m|1g]
#
#   -n RUNS    timed runs of every contender (default 3)
#   -b BINARY  the neardup to time (default ./neardup)
#   -c DIR     corpus built by shared/bench/corpus.sh beside the project
#              (default ${CORPUS:-$HOME/.cache/neardup-corpus})
#   -s SIZE    the text: 10m (big10m.txt), 100m (big100m.txt, the default) or 1g
#              (big.txt); quick (bench/run -q): big10m.txt
#
# The compressed files are made once, in a temporary directory, by zstd and gzip at
# their default levels.  Runs alternate (round-robin, bench/lib.sh); each is a whole
# process under GNU time, a pipeline as `bash -c`, whose peak RSS is the largest of its
# processes (RUSAGE_CHILDREN).  Reported: median wall seconds, throughput in MB/s of
# decompressed text (MB = 10^6 bytes), peak RSS, and for each direct read the ratio of
# its throughput to the pipe's (>= 1: the direct read takes no longer).
set -euo pipefail
export LC_ALL=C
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_init compress.sh

runs=3
bin=./neardup
corpus=${CORPUS:-$HOME/.cache/neardup-corpus}
size=100m
bench_options "bench/compress.sh [-n RUNS] [-b NEARDUP_BINARY] [-c CORPUSDIR] [-s 10m|100m|1g]" "$@"
case $size in
  quick | 10m | 10M) big=big10m.txt ;;
  100m | 100M) big=big100m.txt ;;
  1g | 1G | big) big=big.txt ;;
  *) die "-s: want 10m, 100m or 1g, not '$size'" ;;
esac
find_corpus "$corpus"
[ -e "$corpus/$big" ] || die "$corpus/$big: missing (run shared/bench/corpus.sh beside the project)"
find_bin "$bin"
need_time
for t in zstd gzip; do have "$t" || die "$t: not installed (make deps)"; done
make_tmp compress
machine_init
rev=$(neardup_rev)

B=$corpus/$big
Bbytes=$(stat -L -c %s "$B")
say "compressing $big with zstd and gzip"
zstd -q -c "$B" >"$tmp/$big.zst"
gzip -c "$B" >"$tmp/$big.gz"
cat "$B" "$tmp/$big.zst" "$tmp/$big.gz" >/dev/null

declare -a LABEL CMD
n=0
add() { LABEL[n]=$1 CMD[n]=$2; n=$((n + 1)); }
nd=$(q "$bin")
add "neardup hash $big" "$nd hash $(q "$B")"
add "neardup hash $big.zst" "$nd hash $(q "$tmp/$big.zst")"
add "zstdcat $big.zst | neardup hash" \
  "bash -c $(q "zstdcat $(q "$tmp/$big.zst") | $nd hash")"
add "neardup hash $big.gz" "$nd hash $(q "$tmp/$big.gz")"
add "zcat $big.gz | neardup hash" "bash -c $(q "zcat $(q "$tmp/$big.gz") | $nd hash")"

round_robin compress $(seq 0 $((n - 1)))

declare -a MED MBS MIB
for ((i = 0; i < n; i++)); do
  MED[i]=$(med_wall "$i") MIB[i]=$(peak_mib "$i") MBS[i]=''
  [ -n "${MED[i]}" ] || continue
  MBS[i]=$(awk -v b="$Bbytes" -v t="${MED[i]}" 'BEGIN { if (t > 0) printf "%.1f", b / t / 1e6 }')
done

echo "neardup compressed input on $(uname -n): nproc $ncpu, $cpu, $when; neardup $rev;" \
  "$runs alternating runs each; vs pipe = direct MB/s / pipe MB/s"
echo
echo '| contender | median s | MB/s of text | peak MiB | vs pipe |'
echo '|---|--:|--:|--:|--:|'
for ((i = 0; i < n; i++)); do
  if [ -z "${MED[i]}" ]; then
    echo "| \`${LABEL[i]}\` | failed ($(cat "$tmp/fail.$i")) | | | |"
    continue
  fi
  vs=''
  if [ "$i" -eq 1 ] || [ "$i" -eq 3 ] && [ -n "${MBS[i + 1]}" ]; then
    vs=$(awk -v a="${MBS[i]}" -v b="${MBS[i + 1]}" 'BEGIN { printf "%.2f", a / b }')
  fi
  echo "| \`${LABEL[i]}\` | ${MED[i]} | ${MBS[i]} | $(fmt_mib "${MIB[i]}") | $vs |"
  role=peer
  case $i in 0 | 1 | 3) role=neardup ;; esac
  summary "hash (compressed)" "$big" "$role" "${LABEL[i]}" "${MED[i]}" "${MBS[i]}" MB/s \
    "${MIB[i]}" ""
done
