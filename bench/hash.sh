#!/usr/bin/env bash
# bench/hash.sh: time `neardup hash` against cat, xxhsum, md5sum, ssdeep, tlsh and
# Massey's simhash on the same input in the same run, and print one Markdown table.
#
#   bench/hash.sh [-n RUNS] [-b NEARDUP_BINARY] [-c CORPUSDIR] [-s 10m|100m|1g]
#                 [-S SCALAR_BINARY]
#
#   -n RUNS    timed runs of every contender (default 5)
#   -b BINARY  the neardup to time (default ./neardup)
#   -c DIR     corpus built by shared/bench/corpus.sh beside the project
#              (default ${CORPUS:-$HOME/.cache/neardup-corpus})
#   -s SIZE    single-stream input: 10m (big10m.txt), 100m (big100m.txt) or
#              1g (big.txt, the default); quick (bench/run -q): big10m.txt, and
#              pairs/n1000 (1,000 files) instead of kernel/ for the tree rows
#   -S BINARY  a scalar build of neardup, for the scalar rows (default
#              build/scalar/neardup, made by
#              make O=build/scalar CFLAGS='-O2 -g -DNEARDUP_SCALAR')
#
# Each scheme has three rows: the best vector path of this CPU, AVX2 only
# (NEARDUP_NO_AVX512=1: no AVX-512 and no VBMI2 text scanners; the loops
# compiled for x86-64-v4 by target_clones still run where the CPU has it),
# and the scalar build (skipped, and said so, when it is not built).  On a
# CPU with AVX-512 another, without gathers (NEARDUP_GATHER=0), is what
# one whose gathers are slow runs (Ice Lake and Tiger Lake with the
# mitigation of Gather Data Sampling, on by default); on a CPU with VBMI2
# one more, AVX-512 without VBMI2 or gathers (NEARDUP_NO_VBMI2=1
# NEARDUP_GATHER=0), is what a Skylake or Cascade Lake server runs.
#
# Runs alternate (round-robin): run 1 of every contender of a group, then run 2 of every
# contender, ...; each round starts one contender further on, so no contender always
# follows the same one. Every run is timed as a whole process by GNU time
# (`/usr/bin/time -f '%e %M'`: wall seconds, peak RSS). Reported: median wall time,
# throughput = input bytes / median (MB = 10^6 bytes), peak RSS (max over runs, MiB),
# and for neardup rows the ratio of neardup's throughput to each peer's in the same group
# (> 1: neardup is faster). Only the table goes to stdout; progress goes to stderr.
# With BENCH_SUMMARY set (bench/run), summary rows are appended to it (bench/lib.sh).
set -euo pipefail
export LC_ALL=C
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_init hash.sh

runs=5
bin=./neardup
corpus=${CORPUS:-$HOME/.cache/neardup-corpus}
size=1g
scalar=build/scalar/neardup
bench_options -x S:scalar "bench/hash.sh [-n RUNS] [-b NEARDUP_BINARY] [-c CORPUSDIR] [-s 10m|100m|1g] [-S SCALAR_BINARY]" "$@"
# quick (bench/run -q): big10m.txt, and pairs/n1000 instead of kernel/ for the tree rows
tree=kernel
case $size in
  quick) big=big10m.txt tree=pairs/n1000 ;;
  10m | 10M) big=big10m.txt ;;
  100m | 100M) big=big100m.txt ;;
  1g | 1G | big) big=big.txt ;;
  *) die "-s: want 10m, 100m or 1g, not '$size'" ;;
esac
find_corpus "$corpus"
for f in "$big" big10m.txt big100m.txt "$tree"; do
  [ -e "$corpus/$f" ] || die "$corpus/$f: missing (run shared/bench/corpus.sh beside the project)"
done
find_bin "$bin"
[ -x "$scalar" ] && scalar=$(realpath "$scalar")
need_time
make_tmp bench

# ---------------------------------------------------------------- header line
machine_init
rev=$(neardup_rev)

# ---------------------------------------------------------------- contenders
# Parallel arrays, one entry per contender:
#   GROUP  stream | tree (runs alternate within a group)
#   KEY    peer key (cat xxhsum md5sum ssdeep tlsh simhash) or "nd" for neardup
#   LABEL  first column (the command as shown);  NOTE  remark after it
#   INPUT  input name shown;  BYTES  input size
#   CMD    command, words quoted for eval (stdout goes to /dev/null, stderr to a log);
#          "" = skipped (NOTE says why)
declare -a GROUP KEY LABEL NOTE INPUT BYTES CMD
n=0
add() {  # add GROUP KEY LABEL NOTE INPUT BYTES CMD
  GROUP[n]=$1 KEY[n]=$2 LABEL[n]=$3 NOTE[n]=$4 INPUT[n]=$5 BYTES[n]=$6 CMD[n]=$7
  n=$((n + 1))
}
fsize() { stat -L -c %s "$1"; }

# Seconds (GNU time %e) of one untimed-for-the-table run of a command.
probe() {
  /usr/bin/time -o "$tmp/probe" -f '%e' bash -c "$1" >/dev/null 2>&1 || true
  tail -n 1 "$tmp/probe"
}

B=$corpus/$big
Bq=$(q "$B")
Bbytes=$(fsize "$B")
say "warming the page cache with $big"
cat "$B" "$corpus/big10m.txt" "$corpus/big100m.txt" >/dev/null

add stream cat 'cat >/dev/null' '' "$big" "$Bbytes" "cat $Bq"
for t in xxhsum md5sum ssdeep; do
  have "$t" || { add stream "$t" "$t" 'not installed, skipped' "$big" 0 ""; continue; }
  case $t in
    xxhsum) add stream xxhsum 'xxhsum -H3' '' "$big" "$Bbytes" "xxhsum -H3 $Bq" ;;
    *) add stream "$t" "$t" '' "$big" "$Bbytes" "$t $Bq" ;;
  esac
done
# tlsh and simhash are slow: on big.txt, if one run would take more than 60 s (estimated
# from a run on big10m.txt), they read big100m.txt instead and the row says so.
for t in tlsh simhash; do
  case $t in
    tlsh) lab='tlsh -f' opt='-f ' note='' ;;
    simhash) lab='simhash' opt='' note='(Massey)' ;;
  esac
  have "$t" || { add stream "$t" "$lab" 'not installed, skipped' "$big" 0 ""; continue; }
  f=$big
  if [ "$big" = big.txt ]; then
    s10=$(probe "$t $opt$(q "$corpus/big10m.txt")")
    est=$(awk -v s="$s10" -v b="$Bbytes" 'BEGIN { printf "%.0f", s * b / 10000000 }')
    if [ "$est" -gt 60 ]; then
      f=big100m.txt
      note="${note:+$note, }on big100m.txt: est. ${est} s per run on big.txt > 60 s"
      say "$t: est. ${est} s per run on big.txt > 60 s, using big100m.txt"
    fi
  fi
  add stream "$t" "$lab" "$note" "$f" "$(fsize "$corpus/$f")" "$t $opt$(q "$corpus/$f")"
done
for a in '-a simhash -w 3' '-a simhash -c 5' '-a oph -k 128 -w 3' \
         '-a bottomk -k 128 -w 3' '-a minhash -k 128 -w 3' '-a key -w 3'; do
  add stream nd "neardup hash -j 1 $a" '' "$big" "$Bbytes" "$(q "$bin") hash -j 1 $a $Bq"
  if grep -qw avx512f /proc/cpuinfo 2>/dev/null; then
    add stream nd "neardup hash -j 1 $a" 'no gathers (NEARDUP_GATHER=0)' "$big" "$Bbytes" \
      "env NEARDUP_GATHER=0 $(q "$bin") hash -j 1 $a $Bq"
  fi
  if grep -qw avx512_vbmi2 /proc/cpuinfo 2>/dev/null; then
    add stream nd "neardup hash -j 1 $a" 'AVX-512 without VBMI2 or gathers (NEARDUP_NO_VBMI2=1 NEARDUP_GATHER=0)' \
      "$big" "$Bbytes" "env NEARDUP_NO_VBMI2=1 NEARDUP_GATHER=0 $(q "$bin") hash -j 1 $a $Bq"
  fi
  add stream nd "neardup hash -j 1 $a" 'AVX2 only (NEARDUP_NO_AVX512=1)' "$big" "$Bbytes" \
    "env NEARDUP_NO_AVX512=1 $(q "$bin") hash -j 1 $a $Bq"
  if [ -x "$scalar" ]; then
    add stream nd "neardup hash -j 1 $a" 'scalar build (-DNEARDUP_SCALAR)' "$big" "$Bbytes" \
      "$(q "$scalar") hash -j 1 $a $Bq"
  else
    add stream nd "neardup hash -j 1 $a" "scalar build: $scalar not built, skipped" "$big" 0 ""
  fi
done

K=$corpus/$tree
Kq=$(q "$K")
Kbytes=$(find -H "$K" -type f -printf '%s\n' | awk '{ s += $1 } END { printf "%.0f", s }')
Kfiles=$(find -H "$K" -type f | wc -l)
Kname="$tree/ ($Kfiles files)"
say "warming the page cache with $tree/"
find -H "$K" -type f -print0 | xargs -0 cat >/dev/null

if have ssdeep; then add tree ssdeep 'ssdeep -r' '' "$Kname" "$Kbytes" "ssdeep -r $Kq"
else add tree ssdeep 'ssdeep -r' 'not installed, skipped' "$Kname" 0 ""; fi
if have tlsh; then add tree tlsh 'tlsh -r' '' "$Kname" "$Kbytes" "tlsh -r $Kq"
else add tree tlsh 'tlsh -r' 'not installed, skipped' "$Kname" 0 ""; fi
add tree simhash 'simhash' '(Massey): no directory mode (-w FILE... writes FILE.sim beside each file), skipped' \
  "$Kname" 0 ""
add tree nd 'neardup hash -r -j 1' '' "$Kname" "$Kbytes" "$(q "$bin") hash -r -j 1 $Kq"
add tree nd 'neardup hash -r -j 2' '' "$Kname" "$Kbytes" "$(q "$bin") hash -r -j 2 $Kq"

# ---------------------------------------------------------------- timed runs
# lib.sh: $tmp/t.I gets one "SECONDS KBYTES" line per run of contender I, $tmp/fail.I
# the first failure; a contender whose run fails is reported as failed and not run again.
for g in stream tree; do
  members=()
  for ((i = 0; i < n; i++)); do [ "${GROUP[i]}" = "$g" ] && members+=("$i"); done
  round_robin "$g" "${members[@]}"
done

# ---------------------------------------------------------------- table
# Per contender: median seconds, MB/s, peak MiB ("" when no successful run).
declare -a MED MBS MIB
for ((i = 0; i < n; i++)); do
  MED[i]=$(med_wall "$i") MIB[i]=$(peak_mib "$i") MBS[i]=''
  [ -n "${MED[i]}" ] || continue
  MBS[i]=$(awk -v b="${BYTES[i]}" -v t="${MED[i]}" 'BEGIN { if (t > 0) printf "%.1f", b / t / 1e6 }')
done

fmt_mbs() {  # MB/s to 3 significant figures-ish; "—" below timer resolution
  awk -v v="$1" 'BEGIN { if (v == "") print "—"; else if (v >= 100) printf "%.0f", v;
    else printf "%.1f", v }'
}
peers=(cat xxhsum md5sum ssdeep tlsh simhash)
peer_of() {  # peer_of GROUP KEY: index of that peer's row in GROUP, or -1
  local k
  for ((k = 0; k < n; k++)); do
    [ "${GROUP[k]}" = "$1" ] && [ "${KEY[k]}" = "$2" ] && { echo "$k"; return; }
  done
  echo -1
}

echo "neardup hash benchmark on $(uname -n): nproc $ncpu, $cpu, $when; neardup $rev;" \
  "$runs alternating runs each; vs PEER = neardup MB/s / PEER MB/s (tree: PEER s / neardup s)"
echo
hdr='| contender | input | median s | MB/s | peak MiB |'
sep='|---|---|--:|--:|--:|'
for p in "${peers[@]}"; do hdr="$hdr vs $p |"; sep="$sep--:|"; done
echo "$hdr"
echo "$sep"
for ((i = 0; i < n; i++)); do
  lab="\`${LABEL[i]}\`${NOTE[i]:+ ${NOTE[i]}}"
  if [ -z "${CMD[i]}" ]; then
    row="| $lab | ${INPUT[i]} | | | |"
  elif [ -z "${MED[i]}" ]; then
    row="| $lab | ${INPUT[i]} | failed ($(cat "$tmp/fail.$i")) | | |"
  else
    [ -e "$tmp/fail.$i" ] && lab="$lab (later run failed: $(cat "$tmp/fail.$i"))"
    row="| $lab | ${INPUT[i]} | ${MED[i]} | $(fmt_mbs "${MBS[i]}") | $(fmt_mib "${MIB[i]}") |"
  fi
  for p in "${peers[@]}"; do
    cell=''
    if [ "${KEY[i]}" = nd ] && [ -n "${MBS[i]}" ]; then
      k=$(peer_of "${GROUP[i]}" "$p")
      if [ "$k" -ge 0 ] && [ -n "${MBS[k]}" ]; then
        cell=$(awk -v a="${MBS[i]}" -v b="${MBS[k]}" 'BEGIN { printf "%.2f", a / b }')
      fi
    fi
    row="$row $cell |"
  done
  echo "$row"
done

# Summary rows for bench/run: every peer, and neardup's default scheme and the tree.
for ((i = 0; i < n; i++)); do
  role=peer
  if [ "${KEY[i]}" = nd ]; then
    [ -z "${NOTE[i]}" ] || continue	# the best path only
    case ${LABEL[i]} in
      'neardup hash -j 1 -a simhash -w 3' | 'neardup hash -r -j '[12]) role=neardup ;;
      *) continue ;;
    esac
  fi
  note=$(why "$i")
  [ -n "${CMD[i]}" ] && [ -n "${NOTE[i]}" ] && note="${NOTE[i]}${note:+; $note}"
  if [ "${GROUP[i]}" = stream ]; then c=hash in=$big; else c='hash -r' in=$Kname; fi
  summary "$c" "$in" "$role" "${LABEL[i]}" "${MED[i]}" "${MBS[i]}" MB/s "${MIB[i]}" "$note"
done
