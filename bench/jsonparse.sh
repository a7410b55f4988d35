#!/usr/bin/env bash
# bench/jsonparse.sh: which JSON parser --jsonl uses, by measurement. Builds
# bench/jsonparse.c once per C library of Debian 12 (jansson, json-c, cJSON) and
# bench/jsonparse_simd.cpp with simdjson (C++), each reading the same JSON Lines and
# taking the "text" string of every object, and prints one Markdown table.
#
#   bench/jsonparse.sh [-n RUNS] [-c CORPUSDIR]
#
#   -n RUNS    timed runs of every parser (default 3)
#   -c DIR     corpus built by shared/bench/corpus.sh beside the project
#              (default ${CORPUS:-$HOME/.cache/neardup-corpus}); its kernel/Documentation
#
# The input is the kernel's Documentation, one object {"id": PATH, "text": TEXT} per
# file: doc.jsonl of bench/docjsonl.py, as bench/jsonl.sh reads it. A parser whose
# -dev package is missing (libjansson-dev, libjson-c-dev, libcjson-dev,
# libsimdjson-dev) is skipped. Runs alternate (round-robin), each timed by GNU time (%e %M). Reported: median seconds,
# MB/s, peak RSS, lines read and refused, and bytes of text taken (cJSON cuts a text
# at a NUL byte, its strings being C strings), and whether Debian ships the static
# library the s390x CI build links against.
set -euo pipefail
export LC_ALL=C
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_init jsonparse.sh

runs=3
bin=
corpus=${CORPUS:-$HOME/.cache/neardup-corpus}
size=
bench_options "bench/jsonparse.sh [-n RUNS] [-c CORPUSDIR]" "$@"
need_time
make_tmp bench
src=$BENCH_DIR

doc_records
in=$tmp/doc.jsonl
cat "$in" >/dev/null

declare -a LABEL CMD STATIC
n=0
# add NAME PKGCONFIG COMPILER SOURCE DEFINE: build a parser, or skip it
add() {
  LABEL[n]=$1 CMD[n]= STATIC[n]=no
  if pkg-config --exists "$2" && $3 -O2 $5 -o "$tmp/jp-$1" "$src/$4" \
    $(pkg-config --cflags --libs "$2") 2>"$tmp/cc.$n"; then
    CMD[n]="$(q "$tmp/jp-$1") text <$(q "$in")"
  else
    echo "not installed, skipped" >"$tmp/fail.$n"
  fi
  local dir
  dir=$(pkg-config --variable=libdir "$2" 2>/dev/null || true)
  [ -n "$dir" ] && ls "$dir"/lib*"${6:-$2}"*.a >/dev/null 2>&1 && STATIC[n]=yes
  n=$((n + 1))
}
add jansson jansson cc jsonparse.c -DWITH_JANSSON jansson
add json-c json-c cc jsonparse.c -DWITH_JSONC json-c
add cjson libcjson cc jsonparse.c -DWITH_CJSON cjson
add simdjson simdjson 'g++ -std=c++17' jsonparse_simd.cpp '' simdjson

machine_init
echo "JSON parser benchmark on $(uname -n): nproc $ncpu, $cpu, $when; $runs alternating" \
  "runs each; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

declare -a OUT
for ((i = 0; i < n; i++)); do
  [ -n "${CMD[i]}" ] || continue
  OUT[i]=$(eval "${CMD[i]}")
done
todo=()
for ((i = 0; i < n; i++)); do [ -n "${CMD[i]}" ] && todo+=("$i"); done
round_robin jsonparse "${todo[@]}"

bytes=$(wc -c <"$in")
echo "| parser | median s | MB/s | peak MiB | lines, refused, text bytes | static .a in Debian |"
echo "|---|--:|--:|--:|---|---|"
for ((i = 0; i < n; i++)); do
  med=$(med_wall "$i")
  if [ -z "$med" ]; then
    echo "| ${LABEL[i]} | $(cat "$tmp/fail.$i" 2>/dev/null) | | | | ${STATIC[i]} |"
    continue
  fi
  awk -v l="${LABEL[i]}" -v s="$med" -v b="$bytes" -v p="$(peak_mib "$i")" \
    -v o="${OUT[i]}" -v st="${STATIC[i]}" 'BEGIN {
      split(o, f, " ")
      rate = s > 0 ? b / 1e6 / s : 0
      printf "| %s | %.2f | %.0f | %s | %s, %s, %s | %s |\n", l, s, rate, p, f[2], f[4],
        f[6], st }'
done
echo
echo "Input: $(wc -l <"$in") lines, $bytes bytes. Load average after:" \
  "$(cut -d' ' -f1-3 /proc/loadavg)."
