#!/usr/bin/env bash
# bench/compare.sh: time `neardup compare A B` against the way ssdeep, tlsh and
# Massey's simhash compare two files, on pairs of partly overlapping documents of
# 1 MB, 10 MB and 100 MB, in the same run; print one Markdown table with the
# similarity each tool reports.
#
#   bench/compare.sh [-n RUNS] [-b NEARDUP_BINARY] [-c CORPUSDIR] [-s 1m|10m|100m]
#
#   -n RUNS    timed runs of every contender (default 5)
#   -b BINARY  the neardup to time (default ./neardup)
#   -c DIR     corpus built by shared/bench/corpus.sh beside the project
#              (default ${CORPUS:-$HOME/.cache/neardup-corpus}); the pairs are
#              built once from DIR/big.txt into DIR/compare/
#   -s SIZE    the largest pair: 1m, 10m or 100m (default 100m); hash.sh's 1g,
#              passed on by bench/run, means 100m, and quick (bench/run -q) 1m
#
# The pairs (deterministic, kept in DIR/compare/): aS.txt is the first S bytes of
# big.txt (kernel text); bS.txt is aS.txt edited by sections of 20 paragraphs (runs
# of non-empty lines): of every 10 sections the 3rd is replaced by 20 paragraphs of
# other kernel text (read from byte 600,000,000 of big.txt on), the 7th deleted, and
# 20 paragraphs of other text inserted before the 5th. About a fifth of each is not in
# the other: the exact resemblance of their word 3-gram sets is about 0.75.
#
# Contenders, for each pair (a group: runs alternate within it):
#   ssdeep -a -d A B        hashes both, compares B with A, prints the match score
#                           (0-100; -a: even 0)
#   tlsh -c A -f B          hashes both, prints the distance (0: same; no upper bound)
#   simhash -m A B          Massey's: hashes both, prints the similarity matrix
#   neardup compare A B     exact resemblance and containments of the shingle sets,
#                           and the estimates of the default scheme (64-bit simhash)
#   neardup compare --passages A B   the same and the shared passages (1 MB pair only)
# Runs alternate (round-robin, each round starting one contender further on), the
# pair is read (untimed) before every round so that runs read from the page cache,
# and every run is a whole process under GNU time (`%e %M`), output to /dev/null.
# The similarity column comes from one untimed run of each contender before the
# timed ones (neardup's with --format=tsv). Reported: median wall seconds, MB/s =
# (bytes of A + bytes of B) / median (MB = 10^6 bytes), peak RSS (max over runs), and
# on neardup rows the ratio of neardup's MB/s to each peer's in the same group (> 1:
# neardup is faster). Only the table goes to stdout; progress goes to stderr.
set -euo pipefail
export LC_ALL=C
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_init compare.sh

runs=5
bin=./neardup
corpus=${CORPUS:-$HOME/.cache/neardup-corpus}
size=100m
bench_options "bench/compare.sh [-n RUNS] [-b NEARDUP_BINARY] [-c CORPUSDIR] [-s 1m|10m|100m]" "$@"
case $size in
  1m | 1M | quick) sizes=(1m) ;;
  10m | 10M) sizes=(1m 10m) ;;
  100m | 100M | 1g | 1G | big) sizes=(1m 10m 100m) ;;
  *) die "-s: want 1m, 10m or 100m, not '$size'" ;;
esac
find_corpus "$corpus"
[ -f "$corpus/big.txt" ] || die "$corpus/big.txt: missing (run shared/bench/corpus.sh beside the project)"
find_bin "$bin"
need_time
make_tmp compare
machine_init
rev=$(neardup_rev)
load0=$(cut -d' ' -f1-3 /proc/loadavg)

# ---------------------------------------------------------------- the pairs
mkdir -p "$corpus/compare" || die "$corpus/compare: cannot create"
data=$(cd "$corpus/compare" && pwd)
recipe='v1: sections of 20 paragraphs; of 10, the 3rd replaced, the 7th deleted, 20 inserted before the 5th; other text from byte 600000000 of big.txt'
if [ "$(cat "$data/stamp" 2>/dev/null)" != "$recipe" ]; then
  rm -f "$data"/[ab]*.txt
  echo "$recipe" >"$data/stamp"
fi
bytes_of() { case $1 in 1m) echo 1000000 ;; 10m) echo 10000000 ;; 100m) echo 100000000 ;; esac; }
for s in "${sizes[@]}"; do
  S=$(bytes_of "$s")
  a=$data/a$s.txt b=$data/b$s.txt
  [ -f "$a" ] && [ "$(stat -c %s "$a")" = "$S" ] && [ -s "$b" ] && continue
  say "building the $s pair in $data (once)"
  head -c "$S" "$corpus/big.txt" >"$a.tmp"
  tail -c +600000001 "$corpus/big.txt" | head -c "$((S / 2))" >"$tmp/donor" || true
  awk -v donor="$tmp/donor" '
    function other(  l, got) {  # print the next paragraph of the other text
      got = 0
      while ((getline l < donor) > 0) {
        if (l == "") { if (got) break; continue }
        print l; got = 1
      }
      if (got) print ""
    }
    {
      if ($0 == "") { inpara = 0; if (act != "d") print; next }
      if (!inpara) {  # a paragraph begins: p-th, in section int((p - 1) / 20)
        inpara = 1; p++; k = int((p - 1) / 20) % 10; first = (p - 1) % 20 == 0
        act = k == 2 ? "r" : k == 6 ? "d" : ""
        if (first && (k == 2 || k == 4)) for (i = 0; i < 20; i++) other()
      }
      if (act == "") print
    }' "$a.tmp" >"$b.tmp"
  mv "$a.tmp" "$a"
  mv "$b.tmp" "$b"
done

# ---------------------------------------------------------------- contenders
#   GROUP  the pair (1m 10m 100m);  KEY  ssdeep tlsh simhash, or nd
#   LABEL  the command as shown;  NOTE  remark;  CMD  "" = skipped (NOTE says why)
#   SIMCMD the untimed run whose output gives the similarity column
declare -a GROUP KEY LABEL NOTE CMD SIMCMD
n=0
add() {  # add GROUP KEY LABEL NOTE CMD SIMCMD
  GROUP[n]=$1 KEY[n]=$2 LABEL[n]=$3 NOTE[n]=$4 CMD[n]=$5 SIMCMD[n]=$6
  n=$((n + 1))
}
declare -A PAIRBYTES PAIRNAME
B=$(q "$bin")
for s in "${sizes[@]}"; do
  a=$data/a$s.txt b=$data/b$s.txt
  A=$(q "$a") Bf=$(q "$b")
  PAIRBYTES[$s]=$(($(stat -c %s "$a") + $(stat -c %s "$b")))
  PAIRNAME[$s]=$(awk -v a="$(stat -c %s "$a")" -v b="$(stat -c %s "$b")" -v s="$s" \
    'BEGIN { printf "a%s.txt + b%s.txt (%.1f + %.1f MB)", s, s, a / 1e6, b / 1e6 }')
  for t in ssdeep tlsh simhash; do
    case $t in
      ssdeep) lab='ssdeep -a -d A B' c="ssdeep -a -d $A $Bf" note='' ;;
      tlsh) lab='tlsh -c A -f B' c="tlsh -c $A -f $Bf" note='' ;;
      simhash) lab='simhash -m A B' c="simhash -m $A $Bf" note='(Massey)' ;;
    esac
    if have "$t"; then add "$s" "$t" "$lab" "$note" "$c" "$c"
    else add "$s" "$t" "$lab" 'not installed, skipped' '' ''; fi
  done
  add "$s" nd 'neardup compare A B' '' "$B compare $A $Bf" "$B compare --format=tsv $A $Bf"
  [ "$s" != "${sizes[0]}" ] ||
    add "$s" nd 'neardup compare --passages A B' '' "$B compare --passages $A $Bf" \
      "$B compare --passages --format=tsv $A $Bf"
done

# neardup compare exits 1 when the documents are not similar (below -t): not a failure.
run_ok() { [ "$2" -eq 0 ] || { [ "$2" -eq 1 ] && [ "${KEY[$1]}" = nd ]; }; }
sim() {  # sim I: what contender I reports of the pair, from $tmp/sim.I
  local f=$tmp/sim.$1
  case ${KEY[$1]} in
    ssdeep) sed -n 's/.* matches .*(\([0-9]*\))$/score \1 (of 100)/p' "$f" | head -n 1 ;;
    tlsh) awk 'NR == 1 { printf "distance %s (0: same)", $1 }' "$f" ;;
    simhash) awk 'END { printf "similarity %.2f", $NF }' "$f" ;;
    nd) awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
          NR == 2 { printf "J %.3f, containments %.3f / %.3f (exact); cosine %.3f (%s of %s bits, est.)",
            $c["jaccard"], $c["containment_a_in_b"], $c["containment_b_in_a"], $c["cosine"],
            $c["distance"], $c["bits"] }
          NF == 0 { after = NR }
          after && NR > after + 1 { np++ }
          END { if (after) printf "; %d shared passages", np }' "$f" ;;
  esac
}

# ---------------------------------------------------------------- runs
for s in "${sizes[@]}"; do
  say "warming the page cache with the $s pair"
  cat "$data/a$s.txt" "$data/b$s.txt" >/dev/null
  members=()
  for ((i = 0; i < n; i++)); do
    [ "${GROUP[i]}" = "$s" ] || continue
    members+=("$i")
    [ -n "${CMD[i]}" ] || continue
    # The similarity: one untimed run, which also tells whether the command works.
    rc=0
    eval "${SIMCMD[i]}" >"$tmp/sim.$i" 2>"$tmp/err.$i" || rc=$?
    if ! run_ok "$i" "$rc"; then
      say "  ${LABEL[i]}: exit $rc, dropped: $(head -n 1 "$tmp/err.$i")"
      echo "exit $rc" >"$tmp/fail.$i"
    else
      say "  ${LABEL[i]}: $(sim "$i")"
    fi
  done
  # shellcheck disable=SC2317  # called by round_robin
  before_round() { cat "$data/a$s.txt" "$data/b$s.txt" >/dev/null; }
  round_robin "$s pair" "${members[@]}"
done

# ---------------------------------------------------------------- table
declare -a MED MBS MIB
for ((i = 0; i < n; i++)); do
  MED[i]=$(med_wall "$i")
  MIB[i]=$(peak_mib "$i")
  MBS[i]=''
  [ -n "${MED[i]}" ] && MBS[i]=$(awk -v b="${PAIRBYTES[${GROUP[i]}]}" -v t="${MED[i]}" \
    'BEGIN { if (t > 0) printf "%.1f", b / t / 1e6 }')
done
fmt_mbs() { awk -v v="$1" 'BEGIN { if (v == "") print "—"; else if (v >= 100) printf "%.0f", v;
  else printf "%.1f", v }'; }
peers=(ssdeep tlsh simhash)
peer_of() {  # peer_of GROUP KEY: that peer's row in GROUP, or -1
  local k
  for ((k = 0; k < n; k++)); do
    [ "${GROUP[k]}" = "$1" ] && [ "${KEY[k]}" = "$2" ] && { echo "$k"; return; }
  done
  echo -1
}

echo "neardup compare benchmark on $(uname -n): nproc $ncpu, $cpu, $when; neardup $rev;" \
  "$runs alternating runs each; MB/s = (bytes of A + B) / median;" \
  "vs PEER = neardup MB/s / PEER MB/s (> 1: neardup is faster); load average $load0 before"
echo
hdr='| inputs | contender | median s | MB/s | peak MiB | similarity reported |'
sep='|---|---|--:|--:|--:|---|'
for p in "${peers[@]}"; do hdr="$hdr vs $p |"; sep="$sep--:|"; done
echo "$hdr"
echo "$sep"
for ((i = 0; i < n; i++)); do
  g=${GROUP[i]}
  lab="\`${LABEL[i]}\`"
  [ -n "${NOTE[i]}" ] && [ -n "${CMD[i]}" ] && lab="$lab ${NOTE[i]}"
  if [ -z "${CMD[i]}" ]; then
    row="| ${PAIRNAME[$g]} | $lab ${NOTE[i]} | | | | |"
  elif [ -z "${MED[i]}" ]; then
    row="| ${PAIRNAME[$g]} | $lab | failed ($(cat "$tmp/fail.$i")) | | | |"
  else
    [ -e "$tmp/fail.$i" ] && lab="$lab (later run failed: $(cat "$tmp/fail.$i"))"
    row="| ${PAIRNAME[$g]} | $lab | ${MED[i]} | $(fmt_mbs "${MBS[i]}") | $(fmt_mib "${MIB[i]}") | $(sim "$i") |"
  fi
  for p in "${peers[@]}"; do
    cell=''
    if [ "${KEY[i]}" = nd ] && [ -n "${MBS[i]}" ]; then
      k=$(peer_of "$g" "$p")
      [ "$k" -ge 0 ] && [ -n "${MBS[k]}" ] &&
        cell=$(awk -v a="${MBS[i]}" -v b="${MBS[k]}" 'BEGIN { printf "%.2f", a / b }')
    fi
    row="$row $cell |"
  done
  echo "$row"
  role=peer
  [ "${KEY[i]}" = nd ] && role=neardup
  note=$(why "$i")
  [ -n "${CMD[i]}" ] && [ -n "${NOTE[i]}" ] && note="${NOTE[i]}${note:+; $note}"
  summary compare "${PAIRNAME[$g]}" "$role" "${LABEL[i]}" "${MED[i]}" "${MBS[i]}" MB/s \
    "${MIB[i]}" "$note"
done
echo
echo "Pairs: aS.txt is the first S bytes of big.txt; bS.txt is aS.txt with, of every 10" \
  "sections of 20 paragraphs, the 3rd replaced by other kernel text, the 7th deleted and" \
  "20 paragraphs of other text inserted before the 5th. J: exact resemblance of the word" \
  "3-gram sets. Load average after: $(cut -d' ' -f1-3 /proc/loadavg)."
