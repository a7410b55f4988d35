#!/usr/bin/env bash
# bench/ab.sh: a change to the scanners timed against another revision
# in one process (bench/abshingle.c), for gains of a few percent that
# whole runs on a shared machine hide in their noise.
#
#   bench/ab.sh [-c CORPUSDIR] [-f FILE] [-n PASSES] [-s SCHEME]... A B
#
# A, B: git revisions, or . for the working tree.  Each is built with
# -fPIC under build/ab/ and linked, without the command layer, into a
# shared object.  SCHEME: w3 (word 3-grams), c5 (character 5-grams), any
# wN or cN; by default w3 and c5.  FILE: the text shingled, held in
# memory; by default 1 MB from each of eight places of the corpus's
# big.txt (8 MB: its mix of prose and code, and within the caches).
# Prints, for each scheme, each build's fastest and median pass and the
# median of the per-pass ratios B / A (below 1: B is faster), with their
# quartiles.  The paths are forced as for the command:
# NEARDUP_NO_AVX512=1 bench/ab.sh ... times the AVX2 copies.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
	echo "usage: bench/ab.sh [-c dir] [-f file] [-n passes] [-s scheme]... A B" >&2
	exit 2
}

corpus=${CORPUS:-$HOME/.cache/neardup-corpus}
file='' passes=200 schemes=()
while getopts c:f:n:s: opt; do
	case $opt in
	c) corpus=$OPTARG ;;
	f) file=$OPTARG ;;
	n) passes=$OPTARG ;;
	s) schemes+=("$OPTARG") ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage
[ ${#schemes[@]} -gt 0 ] || schemes=(w3 c5)
for s in "${schemes[@]}"; do
	case $s in
	[cw][1-9]|[cw][1-9][0-9]) ;;
	*) echo "bench/ab.sh: $s: not a scheme (w3, c5, ...)" >&2; exit 2 ;;
	esac
done
mkdir -p build/ab

# engine_objs DIR: the objects of DIR's build but the command layer's
engine_objs() {
	local o
	for o in "$1"/src/*/*.o; do
		case $o in
		*/cli/*) ;;
		*) printf '%s\n' "$o" ;;
		esac
	done
}

# build REV: build/ab/REV.so, the engine of REV (. for the work tree)
build() {
	local rev=$1 dir name objs
	if [ "$rev" = . ]; then
		name=work
		make -s O=build/ab/work CFLAGS='-O2 -g -fPIC' -j2 \
		    build/ab/work/neardup >&2
		objs=$(engine_objs build/ab/work)
	else
		name=$(git rev-parse --short "$rev")
		dir=build/ab/$name
		if [ ! -e "$dir/.built" ]; then
			rm -rf "$dir" && mkdir -p "$dir"
			git archive "$name" | tar -x -C "$dir"
			make -s -C "$dir" CFLAGS='-O2 -g -fPIC' -j2 neardup >&2
			touch "$dir/.built"
		fi
		objs=$(engine_objs "$dir")
	fi
	# shellcheck disable=SC2086
	cc -shared -o "build/ab/$name.so" $objs -lbsd -lxxhash -larchive \
	    -ljson-c -pthread -lm
	echo "build/ab/$name.so"
}

a=$(build "$1")
b=$(build "$2")
cc -std=c11 -Wall -Wextra -O2 -Isrc/text -Isrc/sketch -Isrc/lib \
    -isystem /usr/include/bsd -DLIBBSD_OVERLAY -o build/ab/abshingle \
    bench/abshingle.c -ldl

if [ -z "$file" ]; then
	file=build/ab/mix.txt
	if [ ! -s "$file" ]; then
		big=$corpus/big.txt
		[ -r "$big" ] || { echo "bench/ab.sh: no $big (bash ../shared/bench/corpus.sh)" >&2; exit 1; }
		mb=$(( $(stat -c %s "$big") / 1048576 ))
		for i in 0 1 2 3 4 5 6 7; do
			dd if="$big" bs=1M count=1 skip=$(( mb * i / 8 )) status=none
		done > "$file"
	fi
fi

echo "A = $1 ($a), B = $2 ($b); $file; $passes passes each"
for s in "${schemes[@]}"; do
	printf '%s: ' "$s"
	build/ab/abshingle "$a" "$b" "$file" "${s:0:1}" "${s:1}" \
	    "$(stat -c %s "$file")" "$passes"
done
