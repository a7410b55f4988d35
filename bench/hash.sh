#!/usr/bin/env bash
# bench/hash.sh: time `neardup hash` against cat, xxhsum, md5sum, ssdeep, tlsh and
# Massey's simhash on the same input in the same run, and print one Markdown table.
#
#   bench/hash.sh [-n RUNS] [-b NEARDUP_BINARY] [-c CORPUSDIR] [-s 10m|100m|1g]
#
#   -n RUNS    timed runs of every contender (default 5)
#   -b BINARY  the neardup to time (default ./neardup)
#   -c DIR     corpus built by shared/bench/corpus.sh beside the project
#              (default ${CORPUS:-$HOME/.cache/neardup-corpus})
#   -s SIZE    single-stream input: 10m (big10m.txt), 100m (big100m.txt) or
#              1g (big.txt, the default)
#
# Runs alternate (round-robin): run 1 of every contender of a group, then run 2 of every
# contender, ...; each round starts one contender further on, so no contender always
# follows the same one. Every run is timed as a whole process by GNU time
# (`/usr/bin/time -f '%e %M'`: wall seconds, peak RSS). Reported: median wall time,
# throughput = input bytes / median (MB = 10^6 bytes), peak RSS (max over runs, MiB),
# and for neardup rows the ratio of neardup's throughput to each peer's in the same group
# (> 1: neardup is faster). Only the table goes to stdout; progress goes to stderr.
set -euo pipefail
export LC_ALL=C

usage() {
  echo "usage: bench/hash.sh [-n RUNS] [-b NEARDUP_BINARY] [-c CORPUSDIR] [-s 10m|100m|1g]" >&2
  exit 2
}
die() { echo "hash.sh: $*" >&2; exit 2; }
say() { echo "hash.sh: $*" >&2; }

runs=5
bin=./neardup
corpus=${CORPUS:-$HOME/.cache/neardup-corpus}
size=1g
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
  10m | 10M) big=big10m.txt ;;
  100m | 100M) big=big100m.txt ;;
  1g | 1G | big) big=big.txt ;;
  *) die "-s: want 10m, 100m or 1g, not '$size'" ;;
esac
[ -d "$corpus" ] || die "$corpus: no corpus (build it with shared/bench/corpus.sh beside the project)"
corpus=$(cd "$corpus" && pwd)
for f in "$big" big10m.txt big100m.txt kernel; do
  [ -e "$corpus/$f" ] || die "$corpus/$f: missing (run shared/bench/corpus.sh beside the project)"
done
case $bin in */*) ;; *) bin=./$bin ;; esac
{ [ -f "$bin" ] && [ -x "$bin" ]; } || die "$bin: no neardup binary (build it, or pass -b)"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
[ -x /usr/bin/time ] || die "/usr/bin/time (GNU time) is required"

have() { command -v "$1" >/dev/null 2>&1; }
q() { printf '%q' "$1"; }  # shell-quote a word for the command strings below

tmp=$(mktemp -d "${TMPDIR:-/tmp}/neardup-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# ---------------------------------------------------------------- header line
ncpu=$(nproc)
cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
[ -n "$cpu" ] || cpu=$(uname -m)
rev=unknown
bindir=$(dirname "$bin")
if r=$(git -C "$bindir" rev-parse --short HEAD 2>/dev/null); then
  rev=$r
  git -C "$bindir" diff --quiet HEAD -- 2>/dev/null || rev="$rev (dirty)"
fi
when=$(date -u '+%Y-%m-%d %H:%M UTC')

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
done

K=$corpus/kernel
Kq=$(q "$K")
Kbytes=$(find -H "$K" -type f -printf '%s\n' | awk '{ s += $1 } END { printf "%.0f", s }')
Kfiles=$(find -H "$K" -type f | wc -l)
Kname="kernel/ ($Kfiles files)"
say "warming the page cache with kernel/"
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
# $tmp/t.I: one "SECONDS KBYTES" line per run of contender I; $tmp/fail.I: first failure.
# A contender whose run fails is reported as failed and not run again.
run_one() {  # run_one I R
  local i=$1 r=$2 rc=0 why
  [ -e "$tmp/fail.$i" ] && return
  # eval: CMD[i] holds words quoted by q(); no shell sits between time and the tool.
  eval "/usr/bin/time -o \"\$tmp/time\" -f '%e %M' ${CMD[i]}" >/dev/null 2>"$tmp/err.$i" || rc=$?
  if [ "$rc" -ne 0 ]; then
    why="exit $rc"
    [ "$rc" -gt 128 ] && why="$why, SIG$(kill -l $((rc - 128)) 2>/dev/null || echo '?')"
    say "  ${LABEL[i]}: $why, dropped: $(head -n 1 "$tmp/err.$i")"
    echo "$why" >"$tmp/fail.$i"
    return
  fi
  tail -n 1 "$tmp/time" >>"$tmp/t.$i"
  say "  run $r/$runs ${LABEL[i]}: $(tail -n 1 "$tmp/time" | awk '{ printf "%s s, %.0f MiB", $1, $2 / 1024 }')"
}

for g in stream tree; do
  members=()
  for ((i = 0; i < n; i++)); do
    [ "${GROUP[i]}" = "$g" ] && [ -n "${CMD[i]}" ] && members+=("$i")
  done
  m=${#members[@]}
  for ((r = 1; r <= runs; r++)); do
    say "$g: round $r of $runs"
    for ((j = 0; j < m; j++)); do
      run_one "${members[$(((r - 1 + j) % m))]}" "$r"
    done
  done
done

# ---------------------------------------------------------------- table
# Per contender: median seconds, MB/s, peak MiB ("" when no successful run).
declare -a MED MBS MIB
for ((i = 0; i < n; i++)); do
  MED[i]='' MBS[i]='' MIB[i]=''
  [ -s "$tmp/t.$i" ] || continue
  MED[i]=$(sort -n "$tmp/t.$i" | awk '{ t[NR] = $1 }
    END { printf "%.2f", NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }')
  MIB[i]=$(awk '$2 > m { m = $2 } END { printf "%.1f", m / 1024 }' "$tmp/t.$i")
  MBS[i]=$(awk -v b="${BYTES[i]}" -v t="${MED[i]}" 'BEGIN { if (t > 0) printf "%.1f", b / t / 1e6 }')
done

fmt_mbs() {  # MB/s to 3 significant figures-ish; "—" below timer resolution
  awk -v v="$1" 'BEGIN { if (v == "") print "—"; else if (v >= 100) printf "%.0f", v;
    else printf "%.1f", v }'
}
fmt_mib() { awk -v v="$1" 'BEGIN { if (v >= 10) printf "%.0f", v; else printf "%.1f", v }'; }

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
