#!/usr/bin/env bats
#
# Determinism: the same bytes out whatever the number of threads (-j), and
# whether the input is hashed by one process or in shards by GNU parallel
# and put back together.  (The same bytes on a big-endian machine are
# checked by running the whole suite there: make check-s390x.)

load helper

# The schemes and the options that change what a worker computes, one
# word-split list of hash options each.
SCHEMES=(
	'-a simhash'
	'-a simhash -k 128 --multiset'
	'-a minhash'
	'-a minhash -k 8 -c 4'
	'-a bottomk -k 16'
	'-a oph'
	'-a oph -k 32 --keep-case --keep-punct'
	'-a key'
	'-a key -k 1 --multiset'
)

# The same in record modes, with few values a line: the output of 60,000
# records by 128 values is large and slow to compare, under qemu or ASan.
LINE_SCHEMES=(
	'-a simhash'
	'-a simhash -k 128 --multiset'
	'-a minhash -k 8 -c 4'
	'-a bottomk -k 4'
	'-a oph -k 16 -w 2'
	'-a key'
)

JOBS=(2 3 8 64)

# corpus: tree/, 300 documents in 4 directories, in walk order in
# tree.list (NUL-ended names): texts of 0 to 1,200 words from a 3,000-word
# vocabulary with some accented and Greek words, every seventh a near copy
# of the one before, an empty one, one with invalid UTF-8, and seven of
# about 170 KB in a row in tree/d0, so that -j hands out batches both by
# count (64 files) and by size (1 MiB).  The same bytes from every awk: a
# Park-Miller generator.
corpus() {
	mkdir -p tree/d0 tree/d1 tree/d2 tree/d3
	awk 'function rnd(n) { x = (x * 16807) % 2147483647; return x % n }
	function word(  r) {
		r = rnd(3000)
		if (r % 97 == 0) return "gr\303\266\303\237e" r
		if (r % 89 == 0) return "\316\261\316\262\316\263" r
		return "w" r
	}
	BEGIN {
		x = 42
		for (i = 0; i < 300; i++) {
			f = sprintf("tree/d%d/f%03d.txt", i % 4, i)
			if (i == 13) { printf "" >f; close(f); continue }
			big = i % 4 == 0 && i >= 100 && i < 128
			if (i % 7 == 6 && !big) {
				# A near copy of the previous text: 2% of the
				# words changed.
				for (k = 1; k <= n; k++)
					printf "%s%s", (rnd(50) ? w[k] : "edit" k),
					    (k % 11 ? " " : "\n") >f
			} else {
				n = big ? 30000 : rnd(1200)
				for (k = 1; k <= n; k++) {
					w[k] = word()
					printf "%s%s", w[k], (k % 11 ? " " : "\n") >f
				}
			}
			if (i == 77)
				printf "bad \377\376 bytes \300\200 here\n" >f
			printf "\n" >f
			close(f)
		}
	}'
	(cd tree && find . -type f) | LC_ALL=C sort |
	    sed 's|^\./|tree/|' | tr '\n' '\0' >tree.list
	[ "$(tr -cd '\0' <tree.list | wc -c)" -eq 300 ]
}

# records: lines.txt, 60,000 lines (about 2.6 MB, so 3 record batches) of
# 0 to 15 words, some repeated, and records.tsv, ID<TAB>TEXT of each line.
records() {
	awk 'BEGIN {
		x = 7
		for (i = 1; i <= 60000; i++) {
			x = (x * 16807) % 2147483647
			if (x % 10 == 0) { print prev; continue }
			n = x % 16
			s = ""
			for (k = 0; k < n; k++) {
				x = (x * 16807) % 2147483647
				s = s (k ? " " : "") "v" (x % 5000)
			}
			print s
			prev = s
		}
	}' >lines.txt
	awk '{ printf "id%06d\t%s\n", NR, $0 }' lines.txt >records.tsv
}

# same_for_jobs FILE ARGS...: `neardup ARGS -j N` writes FILE's bytes for
# every N in JOBS, and for the default number of threads.
same_for_jobs() {
	local want=$1 j
	shift
	for j in "${JOBS[@]}"; do
		"$NEARDUP" "$@" -j "$j" >got || fail "neardup $* -j $j failed"
		cmp -s "$want" got || fail "neardup $* -j $j differs from -j 1:
$(diff "$want" got | head -5)"
	done
	"$NEARDUP" "$@" >got || fail "neardup $* failed"
	cmp -s "$want" got || fail "neardup $* (default -j) differs from -j 1"
}

# need_parallel: skip unless GNU parallel is installed.
need_parallel() {
	command -v parallel >/dev/null || skip "no GNU parallel"
}

# ---- threads ----------------------------------------------------------------

@test "det-001: hash -r: -j 1, 2, 3, 8, 64 and the default give the same bytes, every scheme" {
	corpus
	local s
	for s in "${SCHEMES[@]}"; do
		# shellcheck disable=SC2086 # $s is a list of options
		neardup hash $s -j 1 -r tree >j1 || fail "hash $s failed"
		[ "$(wc -l <j1)" -eq 300 ] || fail "hash $s: $(wc -l <j1) lines"
		# shellcheck disable=SC2086
		same_for_jobs j1 hash $s -r tree
	done
}

@test "det-002: hash --files0-from and -r give the same bytes, -j 1 and -j 8" {
	corpus
	neardup hash -j 1 -r tree >walk
	neardup hash -j 8 --files0-from=tree.list >list
	[ "$(wc -l <walk)" -eq 300 ]
	cmp walk list
}

@test "det-003: hash --lines: 60,000 lines in 3 batches, -j 1 to 64, every scheme" {
	records
	local s
	for s in "${LINE_SCHEMES[@]}"; do
		# shellcheck disable=SC2086
		neardup hash --lines $s -j 1 lines.txt >j1 || fail "hash --lines $s"
		[ "$(wc -l <j1)" -eq 60000 ] || fail "$(wc -l <j1) lines"
		[ "$(sed -n '60000s/.*  //p' j1)" = lines.txt:60000 ]
		# shellcheck disable=SC2086
		same_for_jobs j1 hash --lines $s lines.txt
	done
}

@test "det-004: hash --tsv, -z --lines, --bands and standard input: -j 1 to 64" {
	records
	neardup hash --tsv -a minhash -k 16 -j 1 records.tsv >j1
	same_for_jobs j1 hash --tsv -a minhash -k 16 records.tsv
	tr '\n' '\0' <lines.txt >lines.z
	neardup hash -z --lines -a oph -k 16 -j 1 lines.z >j1
	[ "$(tr -cd '\0' <j1 | wc -c)" -eq 60000 ]
	same_for_jobs j1 hash -z --lines -a oph -k 16 lines.z
	neardup hash --bands -a oph -k 16 -j 1 --lines lines.txt >j1
	same_for_jobs j1 hash --bands -a oph -k 16 --lines lines.txt
	neardup hash --lines -j 1 <lines.txt >j1
	[ "$(sed -n '1s/.*  //p' j1)" = -:1 ]
	for j in "${JOBS[@]}"; do
		neardup hash --lines -j "$j" <lines.txt >got
		cmp j1 got || fail "standard input, -j $j differs"
	done
}

@test "det-005: cluster -r: -j 1 to 64 give the same groups, tsv, json and pairs" {
	corpus
	local args n
	for args in '' '--format=tsv' '--format=json --all' '--pairs' \
	    '-a minhash -k 64 --format=tsv' '-a simhash --dups'; do
		# shellcheck disable=SC2086
		neardup cluster $args -j 1 -r tree >j1 ||
		    fail "cluster $args failed"
		[ -s j1 ] || fail "cluster $args: no output"
		if [ -z "$args" ]; then
			# Most of the 42 near copies are found.
			n=$(grep -c '^$' j1)
			((n >= 30)) || fail "only $((n + 1)) groups"
		fi
		# shellcheck disable=SC2086
		same_for_jobs j1 cluster $args -r tree
	done
}

# ---- shards with GNU parallel ----------------------------------------------

@test "det-010: files in shards of 37 by parallel -k, one process each: the same bytes as one process, every scheme" {
	need_parallel
	corpus
	local s
	for s in "${SCHEMES[@]}"; do
		# shellcheck disable=SC2086
		neardup hash $s --files0-from=tree.list >one
		parallel --will-cite -0 -k -j 4 -N 37 \
		    "\"\$NEARDUP\" hash $s -j 2 {}" <tree.list >sharded ||
		    fail "parallel hash $s failed"
		cmp one sharded || fail "hash $s: shards differ from one process"
	done
}

@test "det-011: name lists in shards by parallel --pipe, --files0-from=-, sorted and merged: the same bytes" {
	need_parallel
	corpus
	neardup hash -a bottomk -k 32 -r tree | LC_ALL=C sort >one
	parallel --will-cite --pipe --recend '\0' -N 29 -j 4 \
	    "\"\$NEARDUP\" hash -a bottomk -k 32 --files0-from=- | LC_ALL=C sort >part.{#}" \
	    <tree.list
	[ "$(ls part.* | wc -l)" -eq 11 ] || fail "expected 11 shards: $(ls part.*)"
	LC_ALL=C sort -m part.* >merged
	cmp one merged
}

@test "det-012: --tsv records in shards by parallel --pipe: the same bytes, every scheme" {
	need_parallel
	records
	local s
	for s in "${LINE_SCHEMES[@]}"; do
		# shellcheck disable=SC2086
		neardup hash --tsv $s records.tsv >one
		parallel --will-cite --pipe -k -j 4 --block 300k \
		    "\"\$NEARDUP\" hash --tsv $s" <records.tsv >sharded ||
		    fail "parallel hash --tsv $s failed"
		cmp one sharded || fail "hash --tsv $s: shards differ"
	done
}

@test "det-013: --lines on standard input in shards of 7,001 lines: the same fingerprints, line for line" {
	need_parallel
	records
	local s
	for s in '-a simhash' '-a minhash -k 16' '-a key'; do
		# shellcheck disable=SC2086
		neardup hash --lines $s lines.txt | sed 's/  .*//' >one
		parallel --will-cite --pipe -k -j 4 -N 7001 \
		    "\"\$NEARDUP\" hash --lines $s" <lines.txt >sharded
		# Each shard numbers its lines from 1: -:1 to -:7001.
		[ "$(grep -c '  -:1$' sharded)" -eq 9 ] ||
		    fail "expected 9 shards"
		sed 's/  .*//' sharded >fps
		cmp one fps || fail "hash --lines $s: shards differ"
	done
}

@test "det-014: documents hashed in shards, then clustered once with --verify: the same bytes as cluster -r" {
	need_parallel
	corpus
	local fmt s
	for s in '' '-a minhash -k 64' '-a simhash'; do
		# cluster hashes documents as hash -a oph -k 128 -w 3 does, and
		# confirms candidates by their exact resemblance, as --verify
		# does for fingerprint lines.
		# shellcheck disable=SC2086
		parallel --will-cite -0 -k -j 4 -N 41 \
		    "\"\$NEARDUP\" hash ${s:--a oph} {}" <tree.list >sharded.fp
		# shellcheck disable=SC2086
		neardup hash ${s:--a oph} -r tree | cmp - sharded.fp ||
		    fail "hash $s: shards differ from one process"
		for fmt in groups tsv json; do
			# shellcheck disable=SC2086
			neardup cluster $s --format="$fmt" -r tree >one
			[ -s one ] || fail "cluster $s: no group"
			neardup cluster --verify --format="$fmt" sharded.fp >sharded
			cmp one sharded ||
			    fail "cluster $s --format=$fmt: shards differ:
$(diff one sharded | head -5)"
		done
	done
}
