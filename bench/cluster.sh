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
#              (or 3000 alone, made from sub100m if missing)
#              (default 5000; bench/run's 10m and 100m mean 1000 and 2000, 1g 5000;
#              quick, from bench/run -q, means 1000 and pairs/n1000 for the tree group)
#
# Groups (runs alternate within a group, round-robin, each round starting one
# contender further on; the group's input is read, untimed, before every round so
# that runs read from the page cache):
#   tree     kernel/ (78,579 files): `ssdeep -r` (hashing only, one thread) against
#            `neardup cluster -r` (hashing, candidates, exact confirmation, leader
#            groups, output) with the default jobs and with -j 1, and with
#            NEARDUP_BASE set, that older binary's `cluster -r` too
#   pairsN   pairs/nN (N = 1000, 2000, 5000 files of kernel source): every peer's
#            comparison of all N(N-1)/2 pairs, from the files (hashing included)
#            and from a hash list made beforehand (comparison only), against
#            `neardup cluster` from the files (LSH, and --exact: every pair) and
#            from a fingerprint file
# Every run is timed as a whole process by GNU time (`/usr/bin/time -f '%e %M %U %S'`),
# output to /dev/null. Reported: median wall seconds, median CPU seconds (user +
# system: on a shared machine they move less than wall time when another job takes a
# core, and they show what the page cache did not: wall well above CPU with -j 1 is
# waiting for the disk), peak RSS (max over runs), and on neardup rows PEER s / neardup s against the peer's row of the same kind
# (from files / from hashes) in the same group: above 1, neardup is faster.
# Only the tables go to stdout; progress goes to stderr. With BENCH_SUMMARY set
# (bench/run), summary rows are appended to it (bench/lib.sh).
set -euo pipefail
export LC_ALL=C
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_init cluster.sh

runs=3
bin=./neardup
corpus=${CORPUS:-$HOME/.cache/neardup-corpus}
maxn=5000
size=$maxn
bench_options "bench/cluster.sh [-n RUNS] [-b NEARDUP_BINARY] [-c CORPUSDIR] [-s 1000|2000|5000]" "$@"
maxn=$size
tree=kernel
case $maxn in
  quick) sizes=(1000) tree=pairs/n1000 ;;
  1000 | 10m | 10M) sizes=(1000) ;;
  3000) sizes=(3000) ;;
  2000 | 100m | 100M) sizes=(1000 2000) ;;
  5000 | 1g | 1G | big) sizes=(1000 2000 5000) ;;
  *) die "-s: want 1000, 2000, 3000 or 5000, not '$maxn'" ;;
esac
find_corpus "$corpus"
# pairs/n3000, the size the exact join is judged at: made here as
# corpus.sh makes the others, the first N files of sub100m by name.
if [ "${sizes[*]}" = 3000 ] && [ ! -d "$corpus/pairs/n3000" ] && [ -d "$corpus/sub100m" ]; then
  mkdir -p "$corpus/pairs/n3000.tmp"
  mapfile -t subnames < <(find "$corpus/sub100m" -type f -printf '%f\n' | sort)
  for f in "${subnames[@]:0:3000}"; do cp "$corpus/sub100m/$f" "$corpus/pairs/n3000.tmp/"; done
  mv "$corpus/pairs/n3000.tmp" "$corpus/pairs/n3000"
fi
for f in "$tree" "${sizes[@]/#/pairs/n}"; do
  [ -d "$corpus/$f" ] || die "$corpus/$f: missing (run shared/bench/corpus.sh beside the project)"
done
find_bin "$bin"
need_time
make_tmp cluster
machine_init
# NEARDUP_REV names a binary built outside the repository (from `git archive`, say).
rev=$(neardup_rev)

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

K=$corpus/$tree
Kq=$(q "$K")
Kfiles=$(find -H "$K" -type f | wc -l)
WARM[tree]=$K
if have ssdeep; then add tree ssdeep files 'ssdeep -r' '(hashing only)' "$Kfiles" "ssdeep -r $Kq"
else skip tree ssdeep files 'ssdeep -r' "$Kfiles"; fi
add tree nd files 'neardup cluster -r' "(default -j: $ncpu)" "$Kfiles" "$(q "$bin") cluster -r $Kq"
add tree nd files 'neardup cluster -r -j 1' '' "$Kfiles" "$(q "$bin") cluster -r -j 1 $Kq"
# NEARDUP_BASE: an older binary, timed side by side (a change's cost).
if [ -n "${NEARDUP_BASE:-}" ]; then
  add tree base files 'neardup cluster -r (NEARDUP_BASE)' "($NEARDUP_BASE)" "$Kfiles" \
    "$(q "$NEARDUP_BASE") cluster -r $Kq"
fi

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
  add "$g" nd files 'neardup cluster --exact -r DIR' '(every pair, exact join)' "$N" \
    "$(q "$bin") cluster --exact -r $Dq"
  add "$g" nd hashes 'neardup cluster HASHES' '(from `neardup hash -a oph -r DIR`)' "$N" \
    "$(q "$bin") cluster $(q "$tmp/nd.$N")"
done

# ---------------------------------------------------------------- timed runs
# lib.sh: $tmp/t.I gets one "WALL KBYTES USER SYS" line per run of contender I.
TIME_FORMAT='%e %M %U %S'
groups=(tree)
for N in "${sizes[@]}"; do groups+=("pairs$N"); done
for g in "${groups[@]}"; do
  members=()
  for ((i = 0; i < n; i++)); do [ "${GROUP[i]}" = "$g" ] && members+=("$i"); done
  # The page cache is read back before every round: the machine may have
  # dropped some of it since (DAMON reclaim, other jobs).
  # shellcheck disable=SC2317  # called by round_robin
  before_round() {
    say "$g: reading ${WARM[$g]#"$corpus"/} first"
    find -H "${WARM[$g]}" -type f -print0 | xargs -0 cat >/dev/null
  }
  round_robin "$g" "${members[@]}"
done

# ---------------------------------------------------------------- tables
declare -a MED CPU MIB
for ((i = 0; i < n; i++)); do
  MED[i]=$(med_wall "$i") CPU[i]=$(med_cpu "$i") MIB[i]=$(peak_mib "$i")
done
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
  if [ "${GROUP[i]}" = tree ]; then input="$tree/ (${NF[i]} files)"; else input="pairs/n${NF[i]}"; fi
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

# Summary rows for bench/run, rate = files / median s: every peer; neardup with the
# default jobs (and -j 1 on the tree) from the files, and from its fingerprints.
for ((i = 0; i < n; i++)); do
  role=peer
  if [ "${KEY[i]}" = nd ]; then
    case ${LABEL[i]} in
      'neardup cluster -r' | 'neardup cluster -r -j 1' | 'neardup cluster -r DIR' | \
        'neardup cluster HASHES') role=neardup ;;
      *) continue ;;
    esac
  fi
  if [ "${GROUP[i]}" = tree ]; then c='cluster -r' in="$tree/ (${NF[i]} files)"
  elif [ "${MODE[i]}" = files ]; then c='cluster -r' in="pairs/n${NF[i]} (from the files)"
  else c=cluster in="pairs/n${NF[i]} (from hash lists)"; fi
  rate=''
  [ -n "${MED[i]}" ] &&
    rate=$(awk -v f="${NF[i]}" -v t="${MED[i]}" 'BEGIN { if (t > 0) printf "%.0f", f / t }')
  note=$(why "$i")
  [ -n "${CMD[i]}" ] && [ -n "${NOTE[i]}" ] && note="${NOTE[i]}${note:+; $note}"
  summary "$c" "$in" "$role" "${LABEL[i]}" "${MED[i]}" "$rate" files/s "${MIB[i]}" "$note"
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
