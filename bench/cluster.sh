#!/usr/bin/env bash
# bench/cluster.sh: time `neardup cluster` against the all-pairs comparisons of
# ssdeep, tlsh and Massey's simhash on the same files in the same run, and against
# `ssdeep -r` merely hashing the kernel tree; print two Markdown tables.
#
#   bench/cluster.sh [-n RUNS] [-b NEARDUP_BINARY] [-c CORPUSDIR] [-s 1000|2000|5000]
#
#   -n RUNS    timed runs of every contender (default 3)
#   -b BINARY  the neardup to time (default ./neardup)
#   -c DIR     corpus built by shared/bench/corpus.sh beside the project
#              (default ${CORPUS:-$HOME/.cache/neardup-corpus})
#   -s N       the largest file set of the all-pairs rows: 1000, 2000 or 5000
#              (default 5000; bench/run's 10m and 100m mean 1000 and 2000, 1g 5000)
#
# Groups (runs alternate within a group, round-robin, each round starting one
# contender further on; the group's input is read, untimed, before every round so
# that runs read from the page cache):
#   tree     kernel/ (78,579 files): `ssdeep -r` (hashing only, one thread) against
#            `neardup cluster -r` (hashing, candidates, confirmation, union-find,
#            output) with the default jobs and with -j 1
#   pairsN   pairs/nN (N = 1000, 2000, 5000 files of kernel source): every peer's
#            comparison of all N(N-1)/2 pairs, from the files (hashing included)
#            and from a hash list made beforehand (comparison only), against
#            `neardup cluster` from the files and from a fingerprint file
# Every run is timed as a whole process by GNU time (`/usr/bin/time -f '%e %M %U %S'`),
# output to /dev/null. Reported: median wall seconds, median CPU seconds (user +
# system: on a shared machine they move less than wall time when another job takes a
# core, and they show what the page cache did not: wall well above CPU with -j 1 is
# waiting for the disk), peak RSS (max over runs), and on neardup rows PEER s / neardup s against the peer's row of the same kind
# (from files / from hashes) in the same group: above 1, neardup is faster.
# Only the tables go to stdout; progress goes to stderr.
set -euo pipefail
export LC_ALL=C

usage() {
  echo "usage: bench/cluster.sh [-n RUNS] [-b NEARDUP_BINARY] [-c CORPUSDIR] [-s 1000|2000|5000]" >&2
  exit 2
}
die() { echo "cluster.sh: $*" >&2; exit 2; }
say() { echo "cluster.sh: $*" >&2; }

runs=3
bin=./neardup
corpus=${CORPUS:-$HOME/.cache/neardup-corpus}
maxn=5000
while getopts ':n:b:c:s:h' opt; do
  case $opt in
    n) runs=$OPTARG ;;
    b) bin=$OPTARG ;;
    c) corpus=$OPTARG ;;
    s) maxn=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage
case $runs in '' | *[!0-9]* | 0) die "-n: want a positive integer, not '$runs'" ;; esac
case $maxn in
  1000 | 10m | 10M) sizes=(1000) ;;
  2000 | 100m | 100M) sizes=(1000 2000) ;;
  5000 | 1g | 1G | big) sizes=(1000 2000 5000) ;;
  *) die "-s: want 1000, 2000 or 5000, not '$maxn'" ;;
esac
[ -d "$corpus" ] || die "$corpus: no corpus (build it with shared/bench/corpus.sh beside the project)"
corpus=$(cd "$corpus" && pwd)
for f in kernel "${sizes[@]/#/pairs/n}"; do
  [ -d "$corpus/$f" ] || die "$corpus/$f: missing (run shared/bench/corpus.sh beside the project)"
done
case $bin in */*) ;; *) bin=./$bin ;; esac
{ [ -f "$bin" ] && [ -x "$bin" ]; } || die "$bin: no neardup binary (build it, or pass -b)"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
[ -x /usr/bin/time ] || die "/usr/bin/time (GNU time) is required"

have() { command -v "$1" >/dev/null 2>&1; }
q() { printf '%q' "$1"; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/neardup-cluster.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

ncpu=$(nproc)
cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
[ -n "$cpu" ] || cpu=$(uname -m)
# NEARDUP_REV names a binary built outside the repository (from `git archive`, say).
rev=${NEARDUP_REV:-unknown}
if [ -z "${NEARDUP_REV:-}" ] && r=$(git -C "$(dirname "$bin")" rev-parse --short HEAD 2>/dev/null); then
  rev=$r
  git -C "$(dirname "$bin")" diff --quiet HEAD -- 2>/dev/null || rev="$rev (dirty)"
fi
when=$(date -u '+%Y-%m-%d %H:%M UTC')

# ---------------------------------------------------------------- contenders
#   GROUP  tree | pairsN;  KEY  peer (ssdeep tlsh simhash) or nd;  MODE  files | hashes
#   LABEL  the command as shown;  NOTE  remark;  N  files;  CMD  "" = skipped
declare -a GROUP KEY MODE LABEL NOTE NF CMD
declare -A WARM  # per group: the input, read again before each round
n=0
add() {  # add GROUP KEY MODE LABEL NOTE N CMD
  GROUP[n]=$1 KEY[n]=$2 MODE[n]=$3 LABEL[n]=$4 NOTE[n]=$5 NF[n]=$6 CMD[n]=$7
  n=$((n + 1))
}
skip() { add "$1" "$2" "$3" "$4" 'not installed, skipped' "$5" ""; }

K=$corpus/kernel
Kq=$(q "$K")
Kfiles=$(find -H "$K" -type f | wc -l)
WARM[tree]=$K
if have ssdeep; then add tree ssdeep files 'ssdeep -r' '(hashing only)' "$Kfiles" "ssdeep -r $Kq"
else skip tree ssdeep files 'ssdeep -r' "$Kfiles"; fi
add tree nd files 'neardup cluster -r' "(default -j: $ncpu)" "$Kfiles" "$(q "$bin") cluster -r $Kq"
add tree nd files 'neardup cluster -r -j 1' '' "$Kfiles" "$(q "$bin") cluster -r -j 1 $Kq"

for N in "${sizes[@]}"; do
  D=$corpus/pairs/n$N
  Dq=$(q "$D")
  g=pairs$N
  WARM[$g]=$D
  # The hash lists of the "from hashes" rows, made once, untimed.
  if have ssdeep; then
    ssdeep -r "$D" >"$tmp/ssdeep.$N"
    add "$g" ssdeep files 'ssdeep -d -r DIR' '' "$N" "ssdeep -d -r $Dq"
    add "$g" ssdeep hashes 'ssdeep -x HASHES' '(from `ssdeep -r DIR`)' "$N" \
      "ssdeep -x $(q "$tmp/ssdeep.$N")"
  else
    skip "$g" ssdeep files 'ssdeep -d -r DIR' "$N"
  fi
  if have tlsh; then
    tlsh -r "$D" >"$tmp/tlsh.$N"
    add "$g" tlsh files 'tlsh -xref -r DIR' '' "$N" "tlsh -xref -r $Dq"
    add "$g" tlsh hashes 'tlsh -xref -l HASHES' '(from `tlsh -r DIR`)' "$N" \
      "tlsh -xref -l $(q "$tmp/tlsh.$N")"
  else
    skip "$g" tlsh files 'tlsh -xref -r DIR' "$N"
  fi
  # Massey's simhash has no directory mode; -m FILE... prints the similarity matrix.
  if have simhash; then
    add "$g" simhash files 'simhash -m DIR/*' '(Massey)' "$N" "simhash -m $Dq/*"
  else
    skip "$g" simhash files 'simhash -m DIR/*' "$N"
  fi
  "$bin" hash -a oph -r "$D" >"$tmp/nd.$N"
  add "$g" nd files 'neardup cluster -r DIR' "(default -j: $ncpu)" "$N" "$(q "$bin") cluster -r $Dq"
  add "$g" nd files 'neardup cluster -r -j 1 DIR' '' "$N" "$(q "$bin") cluster -r -j 1 $Dq"
  add "$g" nd hashes 'neardup cluster HASHES' '(from `neardup hash -a oph -r DIR`)' "$N" \
    "$(q "$bin") cluster $(q "$tmp/nd.$N")"
done

# ---------------------------------------------------------------- timed runs
run_one() {  # run_one I R
  local i=$1 r=$2 rc=0 why
  [ -e "$tmp/fail.$i" ] && return
  eval "/usr/bin/time -o \"\$tmp/time\" -f '%e %M %U %S' ${CMD[i]}" >/dev/null 2>"$tmp/err.$i" || rc=$?
  if [ "$rc" -ne 0 ]; then
    why="exit $rc"
    [ "$rc" -gt 128 ] && why="$why, SIG$(kill -l $((rc - 128)) 2>/dev/null || echo '?')"
    say "  ${LABEL[i]}: $why, dropped: $(grep -v '^Command' "$tmp/err.$i" | head -n 1)"
    echo "$why" >"$tmp/fail.$i"
    return
  fi
  tail -n 1 "$tmp/time" >>"$tmp/t.$i"
  say "  run $r/$runs ${LABEL[i]} (${NF[i]} files): $(tail -n 1 "$tmp/time" |
    awk '{ printf "%s s (CPU %.2f s), %.0f MiB", $1, $3 + $4, $2 / 1024 }')"
}

groups=(tree)
for N in "${sizes[@]}"; do groups+=("pairs$N"); done
for g in "${groups[@]}"; do
  members=()
  for ((i = 0; i < n; i++)); do
    [ "${GROUP[i]}" = "$g" ] && [ -n "${CMD[i]}" ] && members+=("$i")
  done
  m=${#members[@]}
  for ((r = 1; r <= runs; r++)); do
    # The page cache is read back before every round: the machine may have
    # dropped some of it since (DAMON reclaim, other jobs).
    say "$g: round $r of $runs (reading ${WARM[$g]#"$corpus"/} first)"
    find -H "${WARM[$g]}" -type f -print0 | xargs -0 cat >/dev/null
    for ((j = 0; j < m; j++)); do
      run_one "${members[$(((r - 1 + j) % m))]}" "$r"
    done
  done
done

# ---------------------------------------------------------------- tables
declare -a MED CPU MIB
median() { sort -n | awk '{ t[NR] = $1 }
  END { printf "%.2f", NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'; }
for ((i = 0; i < n; i++)); do
  MED[i]='' CPU[i]='' MIB[i]=''
  [ -s "$tmp/t.$i" ] || continue
  MED[i]=$(awk '{ print $1 }' "$tmp/t.$i" | median)
  CPU[i]=$(awk '{ print $3 + $4 }' "$tmp/t.$i" | median)
  MIB[i]=$(awk '$2 > m { m = $2 } END { printf "%.1f", m / 1024 }' "$tmp/t.$i")
done
fmt_mib() { awk -v v="$1" 'BEGIN { if (v >= 10) printf "%.0f", v; else printf "%.1f", v }'; }
peer_of() {  # peer_of GROUP KEY MODE: that peer's row, or -1
  local k
  for ((k = 0; k < n; k++)); do
    [ "${GROUP[k]}" = "$1" ] && [ "${KEY[k]}" = "$2" ] && [ "${MODE[k]}" = "$3" ] &&
      { echo "$k"; return; }
  done
  echo -1
}
ratio() {  # ratio I PEER: PEER's median / I's median, or ""
  local k
  k=$(peer_of "${GROUP[$1]}" "$2" "${MODE[$1]}")
  [ "$k" -ge 0 ] && [ -n "${MED[k]}" ] && [ -n "${MED[$1]}" ] || return 0
  awk -v a="${MED[k]}" -v b="${MED[$1]}" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "—" }'
}
cell() {  # cell I: "median s" or why not
  if [ -z "${CMD[$1]}" ]; then echo "${NOTE[$1]}"
  elif [ -z "${MED[$1]}" ]; then echo "failed ($(cat "$tmp/fail.$1"))"
  else echo "${MED[$1]}"; fi
}

peers=(ssdeep tlsh simhash)
echo "neardup cluster benchmark on $(uname -n): nproc $ncpu, $cpu, $when; neardup $rev;" \
  "$runs alternating runs each; vs PEER = PEER s / neardup s, same group, same kind (files or hashes)"
echo
hdr='| contender | input | median s | CPU s | peak MiB |'
sep='|---|---|--:|--:|--:|'
for p in "${peers[@]}"; do hdr="$hdr vs $p |"; sep="$sep--:|"; done
echo "$hdr"
echo "$sep"
for ((i = 0; i < n; i++)); do
  lab="\`${LABEL[i]}\`"
  [ -n "${NOTE[i]}" ] && [ -n "${CMD[i]}" ] && lab="$lab ${NOTE[i]}"
  if [ "${GROUP[i]}" = tree ]; then input="kernel/ (${NF[i]} files)"; else input="pairs/n${NF[i]}"; fi
  mib=''
  [ -n "${MIB[i]}" ] && mib=$(fmt_mib "${MIB[i]}")
  row="| $lab | $input | $(cell "$i") | ${CPU[i]} | $mib |"
  for p in "${peers[@]}"; do
    c=''
    [ "${KEY[i]}" = nd ] && c=$(ratio "$i" "$p")
    row="$row $c |"
  done
  echo "$row"
done

# The curve: median seconds against N, and how they grow from the least N.
[ "${#sizes[@]}" -gt 1 ] || exit 0
echo
hdr='| contender |'
sep='|---|'
for N in "${sizes[@]}"; do hdr="$hdr N = $N |"; sep="$sep--:|"; done
last=${sizes[${#sizes[@]} - 1]}
hdr="$hdr × from N = ${sizes[0]} to $last (N² grows ×$(((last / sizes[0]) ** 2))) |"
sep="$sep--:|"
echo "$hdr"
echo "$sep"
for ((i = 0; i < n; i++)); do
  [ "${GROUP[i]}" = "pairs${sizes[0]}" ] || continue
  row="| \`${LABEL[i]}\` |"
  first='' end=''
  for N in "${sizes[@]}"; do
    k=-1
    for ((j = 0; j < n; j++)); do
      [ "${GROUP[j]}" = "pairs$N" ] && [ "${LABEL[j]}" = "${LABEL[i]}" ] && k=$j
    done
    c=''
    if [ "$k" -ge 0 ]; then
      c=$(cell "$k")
      [ -n "${MED[k]}" ] && { [ -n "$first" ] || first=${MED[k]}; end=${MED[k]}; }
    fi
    row="$row $c |"
  done
  g=''
  [ -n "$first" ] && [ -n "$end" ] &&
    g=$(awk -v a="$first" -v b="$end" 'BEGIN { if (a > 0) printf "%.1f", b / a; else print "—" }')
  echo "$row $g |"
done
