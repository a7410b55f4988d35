#!/usr/bin/env bash
# bench/quality.sh: precision and recall of `neardup cluster -r` against the exact
# Jaccard of shingle sets, on three labelled corpora (prose, code, licences), with
# word 3-grams and with character 5-grams, and print Markdown tables.
#
#   bench/quality.sh [-b NEARDUP_BINARY] [-c CORPUSDIR] [-l LICENCEDIR] [-n RUNS] [-s SIZE]
#
#   -b BINARY  the neardup to measure (default ./neardup)
#   -c DIR     corpus built by shared/bench/corpus.sh beside the project
#              (default ${CORPUS:-$HOME/.cache/neardup-corpus}); the labelled
#              corpora are built once under DIR/quality/ from DIR/kernel/
#   -l DIR     licence texts for the licences corpus (default /usr/share/common-licenses)
#   -n, -s     accepted for bench/run, which passes its arguments to every script;
#              no effect (nothing here is timed, and the corpora have one size; it adds
#              no row to bench/run's summary)
#
# The corpora (bench/quality.py build; its docstring says how each is chosen):
#   prose     300 kernel Documentation files (ASCII, 2-20 KB) and four edited copies
#             of each (words replaced, inserted, deleted at 1-40%, or lines moved):
#             1,500 documents
#   code      kernel source with its natural near-duplicates, unedited: the files of
#             512 B-64 KB under include/dt-bindings/, the AMD asic_reg headers,
#             arch/{arm,mips,powerpc}/configs/ and the imx*, sun*, omap*, kirkwood*
#             device trees of arch/arm/boot/dts/ (ASCII): 1,852 documents
#   licences  /usr/share/common-licenses and the kernel's LICENSES/ (ASCII), four
#             edited copies of each: 170 documents
# The truth: the exact Jaccard of every pair's word 3-gram sets (-w 3) and character
# 5-gram sets (-c 5) under neardup's default normalization, found by an exact
# all-pairs join, checked by brute force on 25 documents against all, and against
# `neardup compare -w 3` / `-c 5` on 60 pairs per corpus and shingling.
#
# For each corpus, shingling (-w 3, -c 5) and t in 0.5 0.7 0.8 0.9 the script runs
#   neardup cluster --pairs -t T -r docs                    pairs, scored
#   neardup cluster --format=tsv --all -t T -r docs         groups (leader rule)
#   neardup cluster --format=tsv --all --transitive ...     groups (components)
#   neardup cluster --exact --pairs / --format=tsv --all    when cluster --help
#                                                           lists --exact
# and, on prose with words only, the older rows from fingerprint lines (the
# estimate decides, no exact confirmation):
#   neardup cluster --pairs -t T FP    FP from neardup hash -a minhash, bottomk,
#                                      oph (-k 128)
#   neardup cluster --pairs -d D FP    simhash 64 and 128 bits, D the distance of
#                                      resemblance t (below)
# Pairs: precision (a reported pair is right if its exact J >= t - 0.05), strict
# precision (J >= t), recall (of the pairs with J >= t), F1 (strict), recall of the
# pairs with J >= t + 0.05. Groups: violations (members whose exact J with their
# group's kept member is below t), missed joins (pairs of J >= t left in two
# groups, or both kept).
#
# Simhash estimates the cosine of the shingle sets, not their resemblance. For two
# sets of equal size cosine = 2J / (1 + J), and the expected fraction of differing
# bits is the angle over pi, so D = round(bits / pi * acos(2t / (1 + t))).
#
# Only the tables go to stdout; progress goes to stderr.
set -euo pipefail
export LC_ALL=C
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
bench_init quality.sh

usage() {
  echo "usage: bench/quality.sh [-b NEARDUP_BINARY] [-c CORPUSDIR] [-l LICENCEDIR] [-n RUNS] [-s SIZE]" >&2
  exit 2
}

bin=./neardup
corpus=${CORPUS:-$HOME/.cache/neardup-corpus}
licences=/usr/share/common-licenses
while getopts ':b:c:l:n:s:h' opt; do
  case $opt in
    b) bin=$OPTARG ;;
    c) corpus=$OPTARG ;;
    l) licences=$OPTARG ;;
    n | s) ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ -d "$corpus/kernel/Documentation" ] ||
  die "$corpus/kernel: missing (run shared/bench/corpus.sh beside the project)"
[ -d "$licences" ] || die "$licences: missing (-l DIR: licence texts)"
find_corpus "$corpus"
find_bin "$bin"
command -v python3 >/dev/null 2>&1 || die "python3 is required"
start=$(date +%s)

Q=$corpus/quality
mkdir -p "$Q"
python3 "$here/quality.py" build "$corpus/kernel" "$licences" "$Q"
check=$(python3 "$here/quality.py" crosscheck "$Q" "$bin")
say "$check"

make_tmp quality

# NEARDUP_REV names a binary built outside the repository (from `git archive`, say).
rev=$(neardup_rev)
# --exact (a complete exact all-pairs join) when this neardup has it.
exact=
"$bin" cluster --help 2>&1 | grep -q -- --exact && exact=1

# What the cluster -v line says about the bands or distance.
how() {
  sed -n 's/.*; \([0-9]*\) bands x \([0-9]*\) rows.*/\1 x \2 bands/p
          s/.*; the \([0-9]*\) smallest hashes as bands.*/\1 smallest as bands/p
          s/.*; pairs within \([0-9]*\) bits.*/d = \1/p' "$1" | head -n 1
}

: >"$tmp/runs"
n=0
# run CORPUS S KIND LABEL T ARGS...: one `neardup cluster -v ARGS` in $Q/CORPUS,
# listed in $tmp/runs; KIND pairs or groups. A failed run is listed as such
# (and stops the script unless it is an --exact run: that option is new).
run() {
  local c=$1 s=$2 kind=$3 label=$4 t=$5 note
  shift 5
  n=$((n + 1))
  if (cd "$Q/$c" && "$bin" cluster -v "$@") >"$tmp/out.$n" 2>"$tmp/log.$n"; then
    # --exact uses no bands, though -v names those the sketch would use.
    case "$*" in *--exact*) note='exact join' ;; *) note=$(how "$tmp/log.$n") ;; esac
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$s" "$kind" "$label" "$t" \
      "$tmp/out.$n" "${note:+($note)}" >>"$tmp/runs"
    say "$c $s: $label, t $t: $(wc -l <"$tmp/out.$n") lines"
  else
    note="failed: $(grep -v '^neardup: [0-9]' "$tmp/log.$n" | head -n 1)"
    case "$*" in
      *--exact*) printf '%s\t%s\tfail\t%s\t%s\t-\t%s\n' "$c" "$s" "$label" "$t" "$note" >>"$tmp/runs" ;;
      *) die "neardup cluster $*, in $Q/$c: $note" ;;
    esac
  fi
}
dist() {  # dist BITS T: the simhash distance of resemblance T
  awk -v b="$1" -v t="$2" 'BEGIN { c = 2 * t / (1 + t);
    printf "%d", b / atan2(0, -1) * atan2(sqrt(1 - c * c), c) + 0.5 }'
}

# shellcheck disable=SC2016  # the backquotes are Markdown, in the labels
for c in prose code licences; do
  for s in w3 c5; do
    case $s in w3) sh=(-w 3) ;; c5) sh=(-c 5) ;; esac
    for t in 0.5 0.7 0.8 0.9; do
      run "$c" "$s" pairs '`cluster -r`' "$t" --pairs "${sh[@]}" -t "$t" -r docs
      if [ -n "$exact" ]; then
        run "$c" "$s" pairs '`cluster --exact -r`' "$t" --exact --pairs "${sh[@]}" -t "$t" -r docs
      fi
    done
    for t in 0.5 0.7 0.8 0.9; do
      run "$c" "$s" groups '`cluster -r`' "$t" --format=tsv --all "${sh[@]}" -t "$t" -r docs
      run "$c" "$s" groups '`cluster --transitive -r`' "$t" --format=tsv --all --transitive "${sh[@]}" -t "$t" -r docs
      if [ -n "$exact" ]; then
        run "$c" "$s" groups '`cluster --exact -r`' "$t" --format=tsv --all --exact "${sh[@]}" -t "$t" -r docs
      fi
    done
  done
done

# The older rows: fingerprint lines, where the estimate decides (prose, words).
# Names are docs/NAME as for the -r runs.
(
  cd "$Q/prose"
  for a in minhash bottomk oph; do
    "$bin" hash -a "$a" -k 128 -r docs >"$tmp/fp.$a"
  done
  "$bin" hash -a simhash -r docs >"$tmp/fp.simhash64"
  "$bin" hash -a simhash -k 128 -r docs >"$tmp/fp.simhash128"
)
# shellcheck disable=SC2016
for t in 0.5 0.7 0.8 0.9; do
  for a in minhash bottomk oph; do
    run prose w3 pairs "\`hash -a $a -k 128\` (estimate)" "$t" --pairs -t "$t" "$tmp/fp.$a"
  done
  for b in 64 128; do
    run prose w3 pairs "\`hash -a simhash -k $b\` (estimate)" "$t" --pairs -d "$(dist "$b" "$t")" "$tmp/fp.simhash$b"
  done
done

ndoc() { find "$Q/$1/docs" -type f | wc -l; }
echo "neardup cluster quality, $(date -u '+%Y-%m-%d %H:%M UTC'); neardup $rev;" \
  "corpora (bench/quality.py): prose $(ndoc prose) documents (300 kernel Documentation" \
  "files, 4 edited copies of each), code $(ndoc code) (kernel source, natural" \
  "near-duplicates), licences $(ndoc licences) (licence texts, 4 edited copies of each);" \
  "truth: exact Jaccard of word 3-gram and character 5-gram sets;" \
  "\`cluster --exact\`: $([ -n "$exact" ] && echo run || echo 'not in this neardup, no rows')"
echo
echo "Truth checks: $(cat "$Q"/*/bruteforce-w3.txt "$Q"/*/bruteforce-c5.txt | tr '\n' ';' | sed 's/;$//; s/;/; /g'); $check."
echo
python3 "$here/quality.py" table "$Q" "$tmp/runs"
echo
echo "Pairs by exact J:"
echo
python3 "$here/quality.py" histogram "$Q"
say "done in $(($(date +%s) - start)) s"
