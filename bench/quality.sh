#!/usr/bin/env bash
# bench/quality.sh: precision and recall of `neardup cluster --pairs` against the
# exact Jaccard of word 3-gram shingle sets, on a labelled corpus of kernel
# documentation with edited copies, and print one Markdown table.
#
#   bench/quality.sh [-b NEARDUP_BINARY] [-c CORPUSDIR] [-n RUNS] [-s SIZE]
#
#   -b BINARY  the neardup to measure (default ./neardup)
#   -c DIR     corpus built by shared/bench/corpus.sh beside the project
#              (default ${CORPUS:-$HOME/.cache/neardup-corpus}); the labelled
#              corpus is built once under DIR/quality/ from DIR/kernel/
#   -n, -s     accepted for bench/run, which passes its arguments to every script;
#              no effect (nothing here is timed, and the corpus has one size; it adds
#              no row to bench/run's summary)
#
# The corpus (bench/quality.py build): 300 ASCII files of 2-20 KB from
# kernel/Documentation, each with four edited copies (words replaced, inserted,
# deleted or all three at 1%, 3%, 10%, 20% or 40%, or blocks of lines moved; the
# fourth copy edits the first), 1,500 documents; the ground truth is the exact
# Jaccard of every pair's shingle sets, checked against `neardup compare` on a
# sample. For each threshold t in 0.5 0.7 0.8 0.9 the script runs
#   neardup cluster --pairs -t T -r docs          the default scheme (oph)
#   neardup cluster --pairs -t T FP               FP from neardup hash -a minhash,
#                                                 bottomk, oph (-k 128)
#   neardup cluster --pairs -d D FP               simhash 64 and 128 bits, D the
#                                                 distance of resemblance t (below)
# and scores the pairs: precision (reported pairs with exact J >= t), recall (pairs
# with exact J >= t that were reported), F1; and a tolerance view where a reported
# pair is right if J >= t - 0.05 and recall counts only pairs with J >= t + 0.05.
#
# Simhash estimates the cosine of the shingle sets, not their resemblance. For two
# sets of equal size cosine = 2J / (1 + J), and the expected fraction of differing
# bits is the angle over pi, so D = round(bits / pi * acos(2t / (1 + t))).
#
# Only the table goes to stdout; progress goes to stderr.
set -euo pipefail
export LC_ALL=C
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_init quality.sh

usage() {
  echo "usage: bench/quality.sh [-b NEARDUP_BINARY] [-c CORPUSDIR] [-n RUNS] [-s SIZE]" >&2
  exit 2
}

bin=./neardup
corpus=${CORPUS:-$HOME/.cache/neardup-corpus}
while getopts ':b:c:n:s:h' opt; do
  case $opt in
    b) bin=$OPTARG ;;
    c) corpus=$OPTARG ;;
    n | s) ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ -d "$corpus/kernel/Documentation" ] ||
  die "$corpus/kernel: missing (run shared/bench/corpus.sh beside the project)"
find_corpus "$corpus"
find_bin "$bin"
command -v python3 >/dev/null 2>&1 || die "python3 is required"

Q=$corpus/quality
mkdir -p "$Q"
python3 "$here/quality.py" build "$corpus/kernel" "$Q"
say "$(python3 "$here/quality.py" crosscheck "$Q" "$bin")"

make_tmp quality

# NEARDUP_REV names a binary built outside the repository (from `git archive`, say).
rev=$(neardup_rev)
ndocs=$(find "$Q/docs" -type f | wc -l)

# Fingerprints, hashed once; names are docs/NAME as for the -r runs.
cd "$Q"
for a in minhash bottomk oph; do
  "$bin" hash -a "$a" -k 128 -r docs >"$tmp/fp.$a"
done
"$bin" hash -a simhash -r docs >"$tmp/fp.simhash64"
"$bin" hash -a simhash -k 128 -r docs >"$tmp/fp.simhash128"

# What the cluster -v line says about the bands or distance.
how() {
  sed -n 's/.*; \([0-9]*\) bands x \([0-9]*\) rows.*/\1 x \2 bands/p
          s/.*; the \([0-9]*\) smallest hashes as bands.*/\1 smallest as bands/p
          s/.*; pairs within \([0-9]*\) bits.*/d = \1/p' "$1" | head -n 1
}

: >"$tmp/runs"
n=0
run() {  # run LABEL T ARGS...: one cluster --pairs run, listed in $tmp/runs
  local label=$1 t=$2
  shift 2
  n=$((n + 1))
  "$bin" cluster -v --pairs "$@" >"$tmp/pairs.$n" 2>"$tmp/log.$n" ||
    die "neardup cluster --pairs $*: failed: $(grep -v '^neardup: [0-9]' "$tmp/log.$n" | head -n 1)"
  printf '%s\t%s\t%s\t(%s)\n' "$label" "$t" "$tmp/pairs.$n" "$(how "$tmp/log.$n")" >>"$tmp/runs"
  say "$label, t $t: $(wc -l <"$tmp/pairs.$n") pairs"
}
dist() {  # dist BITS T: the simhash distance of resemblance T
  awk -v b="$1" -v t="$2" 'BEGIN { c = 2 * t / (1 + t);
    printf "%d", b / atan2(0, -1) * atan2(sqrt(1 - c * c), c) + 0.5 }'
}
for t in 0.5 0.7 0.8 0.9; do
  run '`cluster -r` (default: oph, k 128)' "$t" -t "$t" -r docs
  for a in minhash bottomk oph; do
    run "\`hash -a $a -k 128\`" "$t" -t "$t" "$tmp/fp.$a"
  done
  for b in 64 128; do
    run "\`hash -a simhash -k $b\`" "$t" -d "$(dist "$b" "$t")" "$tmp/fp.simhash$b"
  done
done

echo "neardup cluster quality on $ndocs documents (bench/quality.py: 300 kernel" \
  "Documentation files and 1,200 edited copies), $(date -u '+%Y-%m-%d %H:%M UTC');" \
  "neardup $rev; truth: exact Jaccard of word 3-gram sets"
echo
python3 "$here/quality.py" table "$Q" "$tmp/runs"
echo
echo "Pairs by exact J: $(awk -F'\t' 'NR > 2 { if ($1 + 0 >= 1) printf "%s1.0: %s", sep, $2; else printf "%s%s-%.1f: %s", sep, $1, $1 + 0.1, $2; sep = ", " }' \
  "$Q/histogram.tsv") (the other $(awk -F'\t' 'NR == 2 { print $2 }' "$Q/histogram.tsv") below 0.1)."
