#!/usr/bin/env bats
#
# neardup near: neighbours within d bits of each query, the self-join,
# --docs, -n, output formats, names, exit status, errors, and a randomized
# cross-check against a brute-force scan.

load helper

# The near usage's first line, as printed after every bad option.
USAGE_RE='^usage: neardup near '

S64=nd1-simhash64-w3-fs-s0
S128=nd1-simhash128-w3-fs-s0

# fpl SCHEME HEX NAME...: one fingerprint line per HEX NAME pair.
fpl() {
	local s=$1
	shift
	while (($# >= 2)); do
		printf '%s:%s  %s\n' "$s" "$1" "$2"
		shift 2
	done
}

# rows 'Q M D'...: the expected text output, one QUERY<TAB>MATCH<TAB>DISTANCE
# line per argument (fields separated by single spaces in the argument).
rows() {
	local r
	for r; do
		printf '%s\n' "${r// /$'\t'}"
	done
}

# ladder64: ix64.fp, whose lines are at known distances from 0, and q0.fp,
# the query 0.  Distances from 0: z 0, b1 1, b2 2, b3 3, b8 8, b9 9, hi 1,
# f 64.
ladder64() {
	fpl $S64 \
	    0000000000000000 z \
	    0000000000000001 b1 \
	    0000000000000003 b2 \
	    0000000000000007 b3 \
	    00000000000000ff b8 \
	    00000000000001ff b9 \
	    8000000000000000 hi \
	    ffffffffffffffff f >ix64.fp
	fpl $S64 0000000000000000 q >q0.fp
}

# ladder128: ix128.fp and q128.fp (the query 0), 128-bit, with bits on both
# sides of the boundary between the two 64-bit words.  Distances from 0:
# z 0, c1 1, w1 1 (bit 63), x2 2 (bits 63 and 64), x3 3, y8 8, y9 9,
# h 64 (the first word all ones), f 128.
ladder128() {
	fpl $S128 \
	    00000000000000000000000000000000 z \
	    00000000000000000000000000000001 c1 \
	    00000000000000010000000000000000 w1 \
	    00000000000000018000000000000000 x2 \
	    00000000000000018000000000000001 x3 \
	    000000000000000ff000000000000000 y8 \
	    000000000000001ff000000000000000 y9 \
	    ffffffffffffffff0000000000000000 h \
	    ffffffffffffffffffffffffffffffff f >ix128.fp
	fpl $S128 00000000000000000000000000000000 q >q128.fp
}

# near ARGS...: `neardup near ARGS` into $output and $stderr (run).
near() {
	run --separate-stderr neardup near "$@"
}

# json ARGS...: `neardup near --format=json ARGS` (run).
json() {
	run --separate-stderr neardup near --format=json "$@"
}


# trouble ARGS...: `neardup near ARGS` exits 2, prints nothing on stdout
# and a "neardup: " message first on stderr.
trouble() {
	run --separate-stderr neardup near "$@"
	assert_exit TROUBLE
	assert_output ''
	[[ ${stderr_lines[0]-} == neardup:\ * ]] ||
	    fail "first stderr line is not a neardup: message: ${stderr_lines[0]-}"
}

# usage_error ARGS...: as trouble, and the usage follows the message.
usage_error() {
	trouble "$@"
	assert_stderr_line "$USAGE_RE"
}

# ---- exact match sets on hand-written fingerprints -------------------------

@test "near-001: 64-bit: the matches of 0 at -d 0, 1, 3, 8 and 32, with their distances" {
	ladder64
	near -d 0 ix64.fp q0.fp
	assert_exit OK
	assert_stderr_empty
	assert_output "$(rows 'q z 0')"
	near -d 1 ix64.fp q0.fp
	assert_exit OK
	assert_output "$(rows 'q z 0' 'q b1 1' 'q hi 1')"
	near -d 3 ix64.fp q0.fp
	assert_output "$(rows 'q z 0' 'q b1 1' 'q hi 1' 'q b2 2' 'q b3 3')"
	near -d 8 ix64.fp q0.fp
	assert_output "$(rows 'q z 0' 'q b1 1' 'q hi 1' 'q b2 2' 'q b3 3' 'q b8 8')"
	near -d 32 ix64.fp q0.fp
	assert_output "$(rows 'q z 0' 'q b1 1' 'q hi 1' 'q b2 2' 'q b3 3' 'q b8 8' 'q b9 9')"
	near --distance=2 ix64.fp q0.fp
	assert_output "$(rows 'q z 0' 'q b1 1' 'q hi 1' 'q b2 2')"
}

@test "near-002: 64-bit: a query away from every line matches by its own distances" {
	ladder64
	# fffffffffffffffe is 1 bit from f, ffffffffffffff00 8; both are 55 or
	# more from every other line.
	fpl $S64 fffffffffffffffe one ffffffffffffff00 eight >qf.fp
	near -d 8 ix64.fp qf.fp
	assert_exit OK
	assert_output "$(rows 'one f 1' 'eight f 8')"
	near -d 0 ix64.fp qf.fp
	assert_exit DIFFER
	assert_output ''
	assert_stderr_empty
}

@test "near-003: 128-bit: the matches of 0 at -d 0, 1, 3, 8 and 63, across the word boundary" {
	ladder128
	near -d 0 ix128.fp q128.fp
	assert_exit OK
	assert_stderr_empty
	assert_output "$(rows 'q z 0')"
	near -d 1 ix128.fp q128.fp
	assert_output "$(rows 'q z 0' 'q c1 1' 'q w1 1')"
	near -d 3 ix128.fp q128.fp
	assert_output "$(rows 'q z 0' 'q c1 1' 'q w1 1' 'q x2 2' 'q x3 3')"
	near -d 8 ix128.fp q128.fp
	assert_output "$(rows 'q z 0' 'q c1 1' 'q w1 1' 'q x2 2' 'q x3 3' 'q y8 8')"
	near -d 63 ix128.fp q128.fp
	assert_output "$(rows 'q z 0' 'q c1 1' 'q w1 1' 'q x2 2' 'q x3 3' 'q y8 8' 'q y9 9')"
	# From the all-ones side.
	fpl $S128 ffffffffffffffff7fffffffffffffff g1 >qg.fp
	near -d 63 ix128.fp qg.fp
	assert_output "$(rows 'g1 f 1' 'g1 h 63')"
}

@test "near-004: 128-bit: -d 64, the largest, finds fingerprints exactly 64 bits away" {
	ladder128
	near -d 64 ix128.fp q128.fp
	assert_exit OK
	assert_stderr_empty
	assert_output "$(rows 'q z 0' 'q c1 1' 'q w1 1' 'q x2 2' 'q x3 3' 'q y8 8' 'q y9 9' 'q h 64')"
	near -d 64 --self ix128.fp
	assert_exit OK
	assert_stderr_empty
	assert_output "$(rows \
	    'z c1 1' 'z w1 1' 'z x2 2' 'z x3 3' 'z y8 8' 'z y9 9' 'z h 64' \
	    'c1 w1 2' 'c1 x3 2' 'c1 x2 3' 'c1 y8 9' 'c1 y9 10' \
	    'w1 x2 1' 'w1 x3 2' 'w1 y8 7' 'w1 y9 8' 'w1 h 63' \
	    'x2 x3 1' 'x2 y8 6' 'x2 y9 7' 'x2 h 64' \
	    'x3 y8 7' 'x3 y9 8' \
	    'y8 y9 1' 'y8 h 64' \
	    'y9 h 63' \
	    'h f 64')"
}

@test "near-005: nearest first, ties in the order of the index lines" {
	fpl $S64 \
	    0000000000000003 two-a \
	    0100000000000000 one-a \
	    0000000000000000 zero \
	    3000000000000000 two-b \
	    0000000000000010 one-b \
	    0000000000000000 zero-b \
	    0000000000000800 one-c >ix.fp
	fpl $S64 0000000000000000 q >q.fp
	near -d 2 ix.fp q.fp
	assert_exit OK
	assert_output "$(rows 'q zero 0' 'q zero-b 0' 'q one-a 1' 'q one-b 1' 'q one-c 1' \
	    'q two-a 2' 'q two-b 2')"
	# The same index in reverse order reverses the ties only.
	tac ix.fp >xi.fp
	near -d 2 xi.fp q.fp
	assert_output "$(rows 'q zero-b 0' 'q zero 0' 'q one-c 1' 'q one-b 1' 'q one-a 1' \
	    'q two-b 2' 'q two-a 2')"
}

@test "near-006: several query lines and files: answered in order, each query nearest first" {
	ladder64
	fpl $S64 0000000000000007 q7 ffffffffffffffff qf >qa.fp
	fpl $S64 00000000000000fe qfe >qb.fp
	near -d 2 ix64.fp qa.fp qb.fp
	assert_exit OK
	assert_output "$(rows 'q7 b3 0' 'q7 b2 1' 'q7 b1 2' 'qf f 0' 'qfe b8 1' 'qfe b9 2')"
	near -d 2 ix64.fp qb.fp qa.fp
	assert_output "$(rows 'qfe b8 1' 'qfe b9 2' 'q7 b3 0' 'q7 b2 1' 'q7 b1 2' 'qf f 0')"
}

@test "near-007: a query without a match prints nothing for it; the others still print" {
	ladder64
	fpl $S64 5555555555555555 lonely 0000000000000000 q >qs.fp
	near -d 3 ix64.fp qs.fp
	assert_exit OK
	assert_output "$(rows 'q z 0' 'q b1 1' 'q hi 1' 'q b2 2' 'q b3 3')"
}

# ---- -n ---------------------------------------------------------------------

@test "near-010: -n keeps the n nearest of each query, ties in index order" {
	ladder64
	near -n 2 -d 8 ix64.fp q0.fp
	assert_exit OK
	assert_output "$(rows 'q z 0' 'q b1 1')"
	near -n 3 -d 8 ix64.fp q0.fp
	assert_output "$(rows 'q z 0' 'q b1 1' 'q hi 1')"
	near -n 1 -d 8 ix64.fp q0.fp
	assert_output "$(rows 'q z 0')"
	near --count=5 -d 8 ix64.fp q0.fp
	assert_output "$(rows 'q z 0' 'q b1 1' 'q hi 1' 'q b2 2' 'q b3 3')"
}

@test "near-011: -n larger than the matches prints them all; it applies per query" {
	ladder64
	near -n 100 -d 3 ix64.fp q0.fp
	assert_output "$(rows 'q z 0' 'q b1 1' 'q hi 1' 'q b2 2' 'q b3 3')"
	fpl $S64 0000000000000000 qa 0000000000000007 qb >q2.fp
	near -n 2 -d 3 ix64.fp q2.fp
	assert_exit OK
	assert_output "$(rows 'qa z 0' 'qa b1 1' 'qb b3 0' 'qb b2 1')"
}

# ---- standard input -----------------------------------------------------------

@test "near-020: no query operand, or -, reads the queries from standard input" {
	ladder64
	run --separate-stderr bash -c '"$NEARDUP" near -d 1 ix64.fp <q0.fp'
	assert_exit OK
	assert_stderr_empty
	assert_output "$(rows 'q z 0' 'q b1 1' 'q hi 1')"
	run --separate-stderr bash -c '"$NEARDUP" near -d 1 ix64.fp - <q0.fp'
	assert_exit OK
	assert_output "$(rows 'q z 0' 'q b1 1' 'q hi 1')"
	# - among query files, in operand order.
	fpl $S64 ffffffffffffffff qf >qf.fp
	run --separate-stderr bash -c '"$NEARDUP" near -d 1 ix64.fp qf.fp - <q0.fp'
	assert_output "$(rows 'qf f 0' 'q z 0' 'q b1 1' 'q hi 1')"
}

@test "near-021: hash piped into near: neardup hash new.txt | neardup near -d 3 corpus.fp -" {
	printf 'the lighthouse keeper climbs the stairs at dusk every night\n' >a.txt
	printf 'completely different words about gardens and orchards here\n' >c.txt
	neardup hash a.txt c.txt >corpus.fp
	run --separate-stderr bash -c '"$NEARDUP" hash a.txt | "$NEARDUP" near -d 0 corpus.fp -'
	assert_exit OK
	assert_stderr_empty
	assert_output "$(rows 'a.txt a.txt 0')"
}

@test "near-022: the index may come from standard input" {
	ladder64
	run --separate-stderr bash -c '"$NEARDUP" near -d 1 - q0.fp <ix64.fp'
	assert_exit OK
	assert_stderr_empty
	assert_output "$(rows 'q z 0' 'q b1 1' 'q hi 1')"
	run --separate-stderr bash -c '"$NEARDUP" near -d 1 --self - <ix64.fp'
	assert_exit OK
	assert_output "$(rows 'z b1 1' 'z hi 1' 'b1 b2 1' 'b2 b3 1' 'b8 b9 1')"
}

# ---- documents hashed by hash ----------------------------------------------

# corpus: base.txt (300 words), e1.txt, e2.txt, e5.txt (1, 2 and 5 words
# replaced), u1.txt and u2.txt (unrelated), and idx.fp, their fingerprints.
corpus() {
	awk 'BEGIN { srand(7); for (i = 1; i <= 300; i++)
	    printf "w%d%s", int(rand() * 1000), (i % 12 ? " " : "\n") }' >base.txt
	edit_words 150 >e1.txt
	edit_words 100 200 >e2.txt
	edit_words 20 80 140 200 260 >e5.txt
	awk 'BEGIN { srand(11); for (i = 1; i <= 300; i++)
	    printf "u%d ", int(rand() * 1000); print "" }' >u1.txt
	awk 'BEGIN { for (i = 1; i <= 300; i++) printf "other%d ", i; print "" }' >u2.txt
	neardup hash base.txt e1.txt e2.txt e5.txt u1.txt u2.txt >idx.fp
}

# edit_words N...: base.txt with its Nth words replaced.
edit_words() {
	awk -v pos=" $* " '{ for (i = 1; i <= NF; i++)
	    if (index(pos, " " ++n " ")) $i = "edited" n; print }' base.txt
}

# brute QUERYLINE D: the expected output for QUERYLINE against idx.fp at
# distance D, computed with the helper's hamming, nearest first, ties in
# index order.
brute() {
	local q=$1 d=$2 line h i=0
	h=$(fp_hex "$q")
	while IFS= read -r line; do
		printf '%s\t%s\t%s\t%s\n' "$(hamming "$h" "$(fp_hex "$line")")" \
		    "$((i++))" "$(fp_name "$q")" "$(fp_name "$line")"
	done <idx.fp | awk -F '\t' -v d="$d" '$1 <= d' | sort -t "$tab" -k1,1n -k2,2n |
	    awk -F '\t' -v OFS='\t' '{ print $3, $4, $1 }'
}

@test "near-030: documents with 1, 2 and 5 edited words: the matches a brute-force scan finds" {
	local tab=$'\t' d q want
	corpus
	q=$(neardup hash base.txt)
	fpl $S64 "$(fp_hex "$q")" base.txt >q.fp
	for d in 0 1 3 8; do
		want=$(brute "$q" "$d")
		near -d "$d" idx.fp q.fp
		assert_exit OK
		assert_stderr_empty
		assert_output "$want"
	done
	# The edited copies are near; the unrelated texts are not.
	near -d 8 idx.fp q.fp
	assert_line --index 0 "$(rows 'base.txt base.txt 0')"
	assert_line --regexp '^base\.txt	e1\.txt	[0-8]$'
	assert_line --regexp '^base\.txt	e2\.txt	[0-8]$'
	assert_line --regexp '^base\.txt	e5\.txt	[0-8]$'
	refute_line --regexp '	u[12]\.txt	'
	assert_equal "${#lines[@]}" 4
}

@test "near-031: --self over the documents: each near pair once, none with the unrelated" {
	local tab=$'\t' a b d ha hb want= fps
	corpus
	# The pairs within 8 bits, from hamming over every pair of lines.
	mapfile -t fps <idx.fp
	for ((a = 0; a < ${#fps[@]}; a++)); do
		for ((b = a + 1; b < ${#fps[@]}; b++)); do
			ha=$(fp_hex "${fps[a]}")
			hb=$(fp_hex "${fps[b]}")
			d=$(hamming "$ha" "$hb")
			((d <= 8)) && want+="$a$tab$d$tab$b$tab$(fp_name "${fps[a]}")$tab$(fp_name "${fps[b]}")"$'\n'
		done
	done
	want=$(printf '%s' "$want" | sort -t "$tab" -k1,1n -k2,2n -k3,3n |
	    awk -F '\t' -v OFS='\t' '{ print $4, $5, $2 }')
	[ -n "$want" ] || fail "no pair within 8 bits among the edited copies"
	near -d 8 --self idx.fp
	assert_exit OK
	assert_stderr_empty
	assert_output "$want"
	refute_output --partial u1.txt
}

# ---- --docs ---------------------------------------------------------------

@test "near-040: --docs hashes the queries as hash does: same output as hash | near" {
	corpus
	run --separate-stderr bash -c '"$NEARDUP" hash e1.txt u1.txt | "$NEARDUP" near -d 8 idx.fp -'
	assert_exit OK
	local want=$output
	[ -n "$want" ] || fail "no match for e1.txt"
	near -d 8 --docs idx.fp e1.txt u1.txt
	assert_exit OK
	assert_stderr_empty
	assert_output "$want"
	assert_line --index 0 --regexp '^e1\.txt	e1\.txt	0$'
}

@test "near-041: --docs with options giving the index's scheme: -w 3, -w 5, -c 4, -k 128, --keep-case" {
	local o want
	corpus
	for o in '-w 3' '-w 5' '-c 4' '-k 128' '--keep-case' '-s 9' '--keep-punct -w 2'; do
		# shellcheck disable=SC2086
		neardup hash $o base.txt e2.txt u2.txt >ix.fp
		# shellcheck disable=SC2086
		want=$(neardup hash $o e2.txt | "$NEARDUP" near -d 8 ix.fp -)
		# shellcheck disable=SC2086
		near -d 8 --docs $o ix.fp e2.txt
		assert_exit OK
		assert_stderr_empty
		assert_output "$want"
		assert_line --index 0 "$(rows 'e2.txt e2.txt 0')"
	done
}

@test "near-042: --docs with options giving another scheme than the index's: exit 2" {
	corpus
	trouble -d 3 --docs -w 5 idx.fp e1.txt
	assert_stderr_line '^neardup: --docs: documents hashed as nd1-simhash64-w5-fs-s0 cannot be compared with the index'"'"'s nd1-simhash64-w3-fs-s0$'
	trouble -d 3 --docs -c 5 idx.fp e1.txt
	assert_stderr_line '^neardup: --docs: documents hashed as nd1-simhash64-c5-fs-s0 '
	trouble -d 3 --docs -k 128 idx.fp e1.txt
	assert_stderr_line '^neardup: --docs: documents hashed as nd1-simhash128-w3-fs-s0 '
	trouble -d 3 --docs --keep-case idx.fp e1.txt
	assert_stderr_line '^neardup: --docs: documents hashed as nd1-simhash64-w3-cs-s0 '
	trouble -d 3 --docs -s 1 idx.fp e1.txt
	assert_stderr_line '^neardup: --docs: documents hashed as nd1-simhash64-w3-fs-s1 '
	printf 'w1\t2\n' >weights
	trouble -d 3 --docs --weights=weights idx.fp e1.txt
	assert_stderr_line '^neardup: --docs: documents hashed as nd1-simhash64-w3-fs-s0-W[0-9a-f]{16} '
}

@test "near-043: --docs -r walks a directory in byte order; without -r a directory is an error" {
	corpus
	mkdir -p dir/sub
	cp e1.txt dir/b.txt
	cp base.txt dir/sub/a.txt
	cp u1.txt dir/a.txt
	printf 'nothing like any of the others at all\n' >dir/c.txt
	near -d 0 --docs -r idx.fp dir
	assert_exit OK
	assert_stderr_empty
	assert_output "$(rows 'dir/a.txt u1.txt 0' 'dir/b.txt e1.txt 0' 'dir/sub/a.txt base.txt 0')"
	near -d 0 --docs --recursive idx.fp dir/sub e2.txt
	assert_output "$(rows 'dir/sub/a.txt base.txt 0' 'e2.txt e2.txt 0')"
	near -d 0 --docs idx.fp dir
	assert_exit TROUBLE
	assert_output ''
	assert_stderr_line '^neardup: dir: is a directory: -r walks it$'
}

@test "near-044: --docs -L follows a symbolic link to a directory" {
	corpus
	mkdir real
	cp e2.txt real/x.txt
	mkdir top
	ln -s ../real top/link
	near -d 0 --docs -r idx.fp top
	assert_exit DIFFER
	assert_output ''
	near -d 0 --docs -r -L idx.fp top
	assert_exit OK
	assert_output "$(rows 'top/link/x.txt e2.txt 0')"
}

@test "near-045: --docs reads standard input, named -, with no query operand or -" {
	corpus
	run --separate-stderr bash -c '"$NEARDUP" near -d 0 --docs idx.fp <e5.txt'
	assert_exit OK
	assert_stderr_empty
	assert_output "$(rows '- e5.txt 0')"
	run --separate-stderr bash -c '"$NEARDUP" near -d 0 --docs idx.fp e1.txt - <e5.txt'
	assert_output "$(rows 'e1.txt e1.txt 0' '- e5.txt 0')"
}

@test "near-046: --docs: a missing document is reported, the others answered, exit 2" {
	corpus
	near -d 0 --docs idx.fp nosuch e1.txt
	assert_exit TROUBLE
	assert_stderr_line '^neardup: nosuch: No such file or directory$'
	assert_output "$(rows 'e1.txt e1.txt 0')"
}

# ---- --self -----------------------------------------------------------------

@test "near-050: --self: every pair within d once, earlier line first, sorted by first, distance, second" {
	ladder64
	near -d 1 --self ix64.fp
	assert_exit OK
	assert_stderr_empty
	assert_output "$(rows 'z b1 1' 'z hi 1' 'b1 b2 1' 'b2 b3 1' 'b8 b9 1')"
	near -d 3 --self ix64.fp
	assert_output "$(rows 'z b1 1' 'z hi 1' 'z b2 2' 'z b3 3' \
	    'b1 b2 1' 'b1 b3 2' 'b1 hi 2' 'b2 b3 1' 'b2 hi 3' \
	    'b8 b9 1')"
	near -d 0 --self ix64.fp
	assert_exit DIFFER
	assert_output ''
}

@test "near-051: --self includes exact duplicates, each pair of them once" {
	fpl $S64 \
	    00000000000000f0 a \
	    00000000000000f0 b \
	    1234567812345678 other \
	    00000000000000f0 c \
	    00000000000000f1 d >ix.fp
	near -d 0 --self ix.fp
	assert_exit OK
	assert_output "$(rows 'a b 0' 'a c 0' 'b c 0')"
	near -d 1 --self ix.fp
	assert_output "$(rows 'a b 0' 'a c 0' 'a d 1' 'b c 0' 'b d 1' 'c d 1')"
	# A fingerprint does not pair with itself.
	refute_line --regexp '^([a-z]+)	\1	'
}

@test "near-052: --self with 128-bit fingerprints" {
	ladder128
	near -d 1 --self ix128.fp
	assert_exit OK
	assert_output "$(rows 'z c1 1' 'z w1 1' 'w1 x2 1' 'x2 x3 1' 'y8 y9 1')"
	near -d 2 --self ix128.fp
	assert_output "$(rows 'z c1 1' 'z w1 1' 'z x2 2' 'c1 w1 2' 'c1 x3 2' 'w1 x2 1' 'w1 x3 2' 'x2 x3 1' 'y8 y9 1')"
}

# ---- -z --------------------------------------------------------------------

@test "near-060: -z reads NUL-ended lines as hash -z writes them and prints NUL-ended records" {
	printf 'one two three four five six\n' >$'a\tb'
	printf 'one two three four five six\n' >$'c\nd'
	printf 'one two three four five seven\n' >'e\f'
	neardup hash -z $'a\tb' $'c\nd' 'e\f' >ix.zfp
	neardup hash -z $'c\nd' >q.zfp
	neardup near -z -d 0 ix.zfp q.zfp >out
	printf 'c\nd\ta\tb\t0\0c\nd\tc\nd\t0\0' >want
	cmp want out || fail "near -z: $(od -c out)"
	neardup near -z -d 0 --self ix.zfp >out
	printf 'a\tb\tc\nd\t0\0' >want
	cmp want out || fail "near -z --self: $(od -c out)"
	run neardup near --null-data -d 0 ix.zfp q.zfp
	assert_exit OK
}

# ---- names -----------------------------------------------------------------

@test "near-070: names with backslash, tab, newline and CR are escaped as \\\\ \\t \\n \\r" {
	printf 'one two three four five six\n' >$'a\tb'
	printf 'one two three four five six\n' >$'c\nd'
	printf 'one two three four five six\n' >'e\f'
	printf 'one two three four five six\n' >$'g\rh'
	neardup hash $'a\tb' $'c\nd' 'e\f' $'g\rh' >ix.fp
	near -d 0 --self ix.fp
	assert_exit OK
	assert_output "$(printf '%s\n' \
	    'a\tb	c\nd	0' 'a\tb	e\\f	0' 'a\tb	g\rh	0' \
	    'c\nd	e\\f	0' 'c\nd	g\rh	0' 'e\\f	g\rh	0')"
	# The query's name too.
	neardup hash $'c\nd' >q.fp
	near -d 0 ix.fp q.fp
	assert_line --index 0 'c\nd	a\tb	0'
	assert_equal "${#lines[@]}" 4
}

@test "near-071: a record is always three fields, whatever the names hold" {
	printf 'one two three four five six\n' >$'t\t\tt'
	printf 'one two three four five six\n' >$'n\n\nn'
	neardup hash $'t\t\tt' $'n\n\nn' >ix.fp
	near -d 0 --self ix.fp
	assert_exit OK
	assert_equal "${#lines[@]}" 1
	run awk -F '\t' '{ print NF }' <<<"$output"
	assert_output 3
}

# ---- --format=json -----------------------------------------------------------

@test "near-080: --format=json: an array of {query, match, distance}, nearest first" {
	ladder64
	json -d 1 ix64.fp q0.fp
	assert_exit OK
	assert_stderr_empty
	jq_true 'type == "array" and length == 3'
	jq_true 'all(.[]; keys == ["distance", "match", "query"])'
	jq_true '[.[].match] == ["z", "b1", "hi"]'
	jq_true '[.[].distance] == [0, 1, 1]'
	jq_true 'all(.[]; .query == "q" and (.distance | type) == "number")'
}

@test "near-081: --format=json with no match: an empty array, exit 1" {
	ladder64
	fpl $S64 5555555555555555 lonely >q.fp
	json -d 3 ix64.fp q.fp
	assert_exit DIFFER
	assert_stderr_empty
	assert_output '[]'
	jq_true '. == []'
	json -d 0 --self ix64.fp
	assert_exit DIFFER
	assert_output '[]'
	json -d 3 /dev/null q.fp
	assert_exit DIFFER
	assert_output '[]'
}

@test "near-082: --format=json --self, and names decoded to what they were" {
	printf 'one two three four five six\n' >$'a\tb'
	printf 'one two three four five six\n' >$'c\nd'
	printf 'one two three four five six\n' >'e\"f'
	neardup hash $'a\tb' $'c\nd' 'e\"f' >ix.fp
	json -d 0 --self ix.fp
	assert_exit OK
	jq_true 'length == 3'
	jq_true '.[0] == {"query": "a\tb", "match": "c\nd", "distance": 0}'
	jq_true '.[2] == {"query": "c\nd", "match": "e\\\"f", "distance": 0}'
	run --separate-stderr neardup near --format=text -d 0 --self ix.fp
	assert_exit OK
	assert_line --index 0 'a\tb	c\nd	0'
}

@test "near-083: --format=json -n, and the records of several queries in one array" {
	ladder64
	fpl $S64 0000000000000000 qa 00000000000000ff qb >q.fp
	json -n 2 -d 1 ix64.fp q.fp
	assert_exit OK
	jq_true 'length == 4'
	jq_true '[.[] | [.query, .match, .distance]] == [["qa","z",0],["qa","b1",1],["qb","b8",0],["qb","b9",1]]'
}

# ---- exit status and output ---------------------------------------------------

@test "near-090: exit 0 with a match, 1 without, 2 on trouble" {
	ladder64
	near -d 0 ix64.fp q0.fp
	assert_exit OK
	fpl $S64 5555555555555555 lonely >q.fp
	near -d 3 ix64.fp q.fp
	assert_exit DIFFER
	assert_output ''
	assert_stderr_empty
	: >empty.fp
	near -d 3 ix64.fp empty.fp
	assert_exit DIFFER
	near -d 3 empty.fp q0.fp
	assert_exit DIFFER
	near -d 3 --self empty.fp
	assert_exit DIFFER
	near -d 3 ix64.fp nosuch.fp
	assert_exit TROUBLE
}

@test "near-091: a write error on stdout exits 2" {
	[ -w /dev/full ] || skip "no /dev/full"
	ladder64
	assert_write_error near -d 3 ix64.fp q0.fp
	assert_write_error near -d 3 --self --format=json ix64.fp
}

@test "near-092: -h prints the usage on stdout" {
	assert_usage_on_stdout near
	assert_output "$(neardup help near)"
}

# ---- errors ----------------------------------------------------------------

@test "near-100: -d is required" {
	ladder64
	usage_error ix64.fp q0.fp
	assert_stderr_line '^neardup: -d: the largest distance is required$'
	usage_error --self ix64.fp
	assert_stderr_line '^neardup: -d: '
}

@test "near-101: -d out of range: 33 for 64-bit, 65 for 128-bit, negative, not a number" {
	ladder64
	ladder128
	trouble -d 33 ix64.fp q0.fp
	assert_stderr_line '^neardup: -d: 33: too large for 64-bit fingerprints \(at most 32\)$'
	trouble -d 33 --self ix64.fp
	assert_stderr_line '^neardup: -d: 33: too large for 64-bit fingerprints \(at most 32\)$'
	near -d 32 ix64.fp q0.fp
	assert_exit OK
	usage_error -d 65 ix128.fp q128.fp
	assert_stderr_line '^neardup: -d: 65: too large'
	usage_error -d -1 ix64.fp q0.fp
	assert_stderr_line '^neardup: -d: -1: too small'
	usage_error -d x ix64.fp q0.fp
	assert_stderr_line '^neardup: -d: x: invalid'
	usage_error -d '' ix64.fp q0.fp
	assert_stderr_line '^neardup: -d: '
}

@test "near-102: a non-simhash line in the index or a query file: file:line: reason" {
	ladder64
	printf 'one two three\n' >doc.txt
	{ cat ix64.fp; neardup hash -a minhash -k 4 doc.txt; } >mh.fp
	trouble -d 3 mh.fp q0.fp
	assert_stderr_line '^neardup: mh\.fp:9: not a simhash fingerprint \(minhash\)$'
	neardup hash -a key doc.txt >key.fp
	trouble -d 3 ix64.fp key.fp
	assert_stderr_line '^neardup: key\.fp:1: not a simhash fingerprint \(key\)$'
	neardup hash -a bottomk -k 2 doc.txt >bk.fp
	trouble -d 3 --self bk.fp
	assert_stderr_line '^neardup: bk\.fp:1: not a simhash fingerprint \(bottomk\)$'
}

@test "near-103: an index mixing widths or schemes: file:line: the schemes" {
	ladder64
	ladder128
	cat ix64.fp ix128.fp >mixed.fp
	trouble -d 3 mixed.fp q0.fp
	assert_stderr_line '^neardup: mixed\.fp:9: scheme nd1-simhash128-w3-fs-s0 differs from the first line'"'"'s nd1-simhash64-w3-fs-s0$'
	{ cat ix64.fp; fpl nd1-simhash64-w5-fs-s0 0000000000000000 w5; } >mixed2.fp
	trouble -d 3 --self mixed2.fp
	assert_stderr_line '^neardup: mixed2\.fp:9: scheme nd1-simhash64-w5-fs-s0 differs from the first line'"'"'s nd1-simhash64-w3-fs-s0$'
	# A query file mixing schemes.
	cat q0.fp q128.fp >qmixed.fp
	trouble -d 3 ix64.fp qmixed.fp
	assert_stderr_line '^neardup: qmixed\.fp:2: scheme nd1-simhash128-w3-fs-s0 differs'
}

@test "near-104: queries of another scheme than the index's: exit 2, both schemes named" {
	ladder64
	ladder128
	trouble -d 3 ix64.fp q128.fp
	assert_stderr_line '^neardup: q128\.fp: scheme nd1-simhash128-w3-fs-s0 differs from the index'"'"'s nd1-simhash64-w3-fs-s0$'
	trouble -d 3 ix128.fp q0.fp
	assert_stderr_line '^neardup: q0\.fp: scheme nd1-simhash64-w3-fs-s0 differs from the index'"'"'s nd1-simhash128-w3-fs-s0$'
	fpl nd1-simhash64-w3-fs-s1 0000000000000000 seeded >qs.fp
	trouble -d 3 ix64.fp qs.fp
	assert_stderr_line '^neardup: qs\.fp: scheme nd1-simhash64-w3-fs-s1 differs'
}

@test "near-105: malformed lines: file:line: what is wrong" {
	ladder64
	{ cat ix64.fp; printf '%s\n' "$S64:00000000000000  short"; } >bad.fp
	trouble -d 3 bad.fp q0.fp
	assert_stderr_line '^neardup: bad\.fp:9: fingerprint too short for its scheme$'
	{ cat q0.fp; printf '%s\n' "$S64:000000000000000g  x"; } >badq.fp
	trouble -d 3 ix64.fp badq.fp
	assert_stderr_line '^neardup: badq\.fp:2: bad hex digit in fingerprint$'
	printf '%s\n' "$S64:0000000000000000 one-space" >sp.fp
	trouble -d 3 sp.fp q0.fp
	assert_stderr_line '^neardup: sp\.fp:1: expected two spaces before the name$'
	printf 'garbage\n' >g.fp
	trouble -d 3 g.fp q0.fp
	# Text for the index: a first mistake, told what near takes.
	assert_stderr_line '^neardup: g\.fp:1: not a fingerprint line: the index is fingerprint lines, as neardup hash prints them$'
	{ cat ix64.fp; printf 'garbage\n'; } >g2.fp
	trouble -d 3 g2.fp q0.fp
	assert_stderr_line '^neardup: g2\.fp:9: no '"'"':'"'"' after the scheme$'
	{ cat ix64.fp; echo; } >blank.fp
	trouble -d 3 blank.fp q0.fp
	assert_stderr_line '^neardup: blank\.fp:9: '
	printf '%s\n' "nd1-nosuch64-w3-fs-s0:0000000000000000  x" >sch.fp
	trouble -d 3 sch.fp q0.fp
	assert_stderr_line '^neardup: sch\.fp:1: '
}

@test "near-106: a missing index or query file: exit 2, its name in the message" {
	ladder64
	trouble -d 3 nosuch.fp q0.fp
	assert_stderr_line '^neardup: nosuch\.fp: No such file or directory$'
	trouble -d 3 ix64.fp nosuch.fp
	assert_stderr_line '^neardup: nosuch\.fp: No such file or directory$'
	trouble -d 3 --self nosuch.fp
	assert_stderr_line '^neardup: nosuch\.fp: No such file or directory$'
}

@test "near-107: --self with queries, --docs or -n is a usage error" {
	ladder64
	usage_error -d 3 --self ix64.fp q0.fp
	assert_stderr_line '^neardup: --self takes the index alone, without queries, --docs or -n$'
	usage_error -d 3 --self --docs ix64.fp
	assert_stderr_line '^neardup: --self takes the index alone'
	usage_error -d 3 --self -n 2 ix64.fp
	assert_stderr_line '^neardup: --self takes the index alone'
}

@test "near-108: the index and the queries both on standard input: a usage error" {
	ladder64
	run --separate-stderr bash -c '"$NEARDUP" near -d 3 - <ix64.fp'
	assert_exit TROUBLE
	assert_output ''
	assert_stderr_line '^neardup: the index and the queries cannot both be standard input$'
	assert_stderr_line "$USAGE_RE"
	run --separate-stderr bash -c '"$NEARDUP" near -d 3 --docs - <ix64.fp'
	assert_exit TROUBLE
	assert_output ''
	assert_stderr_line '^neardup: the index and the queries cannot both be standard input$'
}

@test "near-109: - as both the index and a query operand is a usage error" {
	ladder64
	run --separate-stderr bash -c '"$NEARDUP" near -d 3 - - <ix64.fp'
	assert_exit TROUBLE
	assert_output ''
	assert_stderr_line '^neardup: the index and the queries cannot both be standard input$'
	run --separate-stderr bash -c '"$NEARDUP" near -d 3 - q0.fp - <ix64.fp'
	assert_exit TROUBLE
	assert_output ''
	run --separate-stderr bash -c '"$NEARDUP" near -d 3 --docs - - <ix64.fp'
	assert_exit TROUBLE
	assert_output ''
	assert_stderr_line '^neardup: the index and the queries cannot both be standard input$'
}

@test "near-110: -r or -L without --docs is a usage error" {
	ladder64
	usage_error -d 3 -r ix64.fp q0.fp
	assert_stderr_line '^neardup: -r and -L apply to --docs$'
	usage_error -d 3 -L ix64.fp q0.fp
	assert_stderr_line '^neardup: -r and -L apply to --docs$'
	usage_error -d 3 --recursive --self ix64.fp
	assert_stderr_line '^neardup: -r and -L apply to --docs$'
}

@test "near-111: -a key, and -d with -a minhash, oph or bottomk, are usage errors; -a simhash is accepted" {
	ladder64
	local a
	usage_error -d 3 -a key ix64.fp q0.fp
	assert_stderr_line '^neardup: -a: near searches simhash fingerprints by -d and minhash, oph and bottomk ones by -t$'
	for a in minhash bottomk oph; do
		usage_error -d 3 -a "$a" --docs ix64.fp q0.fp
		assert_stderr_line "^neardup: $a fingerprints are searched by -t, not -d\$"
	done
	near -d 0 -a simhash ix64.fp q0.fp
	assert_exit OK
	assert_output "$(rows 'q z 0')"
}

@test "near-112: other usage errors: no index, -n 0, a bad --format, an unknown option" {
	ladder64
	usage_error -d 3
	assert_stderr_line '^neardup: expected an index of fingerprint lines$'
	usage_error -n 0 -d 3 ix64.fp q0.fp
	assert_stderr_line '^neardup: -n: 0: too small'
	usage_error -n x -d 3 ix64.fp q0.fp
	assert_stderr_line '^neardup: -n: x: '
	usage_error --format=tsv -d 3 ix64.fp q0.fp
	assert_stderr_line '^neardup: --format: tsv: expected text or json$'
	usage_error -x -d 3 ix64.fp q0.fp
}

# ---- randomized cross-check against a brute-force scan ------------------------

# crosscheck BITS N DS [SELF]: N random fingerprints of BITS bits in
# clusters (so that every distance has matches, exact duplicates included),
# N/10 queries (at most 200) near them, and for each distance in DS
# (comma-separated) the output of near compared with a brute-force scan in
# python3; so is that of near --self, unless SELF is "queries": then, for
# an index too large to scan every pair, --self is compared with the
# answers to the index's own lines as queries, each pair taken once.
crosscheck() {
	command -v python3 >/dev/null || skip "no python3 for the brute-force scan"
	local bits=$1 n=$2 ds=$3 self=${4:-brute} seed=${NEAR_SEED:-$RANDOM} d tab=$'\t'
	python3 - "$bits" "$n" "$ds" "$seed" "$self" <<'EOF' || fail "python3 failed"
import random, sys
bits, n, ds, seed = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
brute_self = sys.argv[5] == 'brute'
ds = [int(x) for x in ds.split(',')]
r = random.Random(seed)
maxflip = max(ds) // 2 + 2
centers = [r.getrandbits(bits) for _ in range(max(1, n // 25))]
def point():
    if r.random() < 0.1:
        return r.getrandbits(bits)
    v = r.choice(centers)
    for _ in range(r.randrange(0, maxflip + 1)):
        v ^= 1 << r.randrange(bits)
    return v
ix = [point() for _ in range(n)]
qs = [point() for _ in range(max(1, min(200, n // 10)))]
# A query and an index pair exactly d apart for each d, so that no seed
# leaves a distance without a match to check.
def flip(v, d):
    for b in r.sample(range(bits), d):
        v ^= 1 << b
    return v
for d in ds:
    qs.append(flip(r.choice(ix), d))
    ix.append(flip(r.choice(ix), d))
n = len(ix)
sch = 'nd1-simhash%d-w3-fs-s0' % bits
def write(path, vals, pre):
    with open(path, 'w') as f:
        for i, v in enumerate(vals):
            f.write('%s:%0*x  %s%d\n' % (sch, bits // 4, v, pre, i))
write('index.fp', ix, 'i')
write('queries.fp', qs, 'q')
dmax = max(ds)
near_q = []
for qi, q in enumerate(qs):
    near_q.append([((q ^ v).bit_count(), i) for i, v in enumerate(ix) if (q ^ v).bit_count() <= dmax])
near_s = []
for i in range(n if brute_self else 0):
    a = ix[i]
    near_s.append([((a ^ ix[j]).bit_count(), j) for j in range(i + 1, n) if (a ^ ix[j]).bit_count() <= dmax])
for d in ds:
    with open('want-%d' % d, 'w') as f:
        for qi, m in enumerate(near_q):
            for dist, i in sorted(x for x in m if x[0] <= d):
                f.write('q%d\ti%d\t%d\n' % (qi, i, dist))
    if not brute_self:
        continue
    with open('want-self-%d' % d, 'w') as f:
        for i, m in enumerate(near_s):
            for dist, j in sorted(x for x in m if x[0] <= d):
                f.write('i%d\ti%d\t%d\n' % (i, j, dist))
EOF
	for d in ${ds//,/ }; do
		[ -s "want-$d" ] || fail "seed $seed: no brute-force match at d=$d; the test is too weak"
		"$NEARDUP" near -d "$d" index.fp queries.fp >"got-$d" 2>err
		[ -s err ] && fail "seed $seed, d=$d: $(cat err)"
		diff -u "want-$d" "got-$d" >/dev/null ||
		    fail "seed $seed (NEAR_SEED=$seed reproduces), $bits-bit, d=$d: near differs from the brute-force scan: $(diff -u "want-$d" "got-$d" | head -20)"
		if [ "$self" = queries ]; then
			# Each line's neighbours but itself, the earlier line first,
			# in the order of --self; the pairs found twice kept once.
			"$NEARDUP" near -d "$d" index.fp index.fp |
			    awk -F '\t' -v OFS='\t' '{ a = substr($1, 2) + 0; b = substr($2, 2) + 0 }
			        a < b { print a, $3, b } a > b { print b, $3, a }' |
			    sort -u -t "$tab" -k1,1n -k2,2n -k3,3n |
			    awk -F '\t' -v OFS='\t' '{ print "i" $1, "i" $3, $2 }' >"want-self-$d"
			[ -s "want-self-$d" ] || fail "seed $seed: no pair at d=$d; the test is too weak"
		fi
		"$NEARDUP" near -d "$d" --self index.fp >"got-self-$d" 2>err
		[ -s err ] && fail "seed $seed, d=$d --self: $(cat err)"
		diff -u "want-self-$d" "got-self-$d" >/dev/null ||
		    fail "seed $seed (NEAR_SEED=$seed reproduces), $bits-bit, d=$d: near --self differs from the brute-force scan: $(diff -u "want-self-$d" "got-self-$d" | head -20)"
	done
}

@test "near-120: 2000 random 64-bit fingerprints, d = 0..6: query and --self equal a brute-force scan" {
	crosscheck 64 2000 0,1,2,3,4,5,6
}

@test "near-121: 2000 random 128-bit fingerprints, d = 0..6: query and --self equal a brute-force scan" {
	crosscheck 128 2000 0,1,2,3,4,5,6
}

@test "near-122: 400 random 64-bit fingerprints, large d up to 32: equal a brute-force scan" {
	crosscheck 64 400 7,8,10,13,16,20,24,28,31,32
}

@test "near-123: 400 random 128-bit fingerprints, large d up to 63: equal a brute-force scan" {
	crosscheck 128 400 7,9,16,24,32,40,48,56,62,63
}

@test "near-124: 400 random 128-bit fingerprints at d = 64: equal a brute-force scan" {
	crosscheck 128 400 64
}

@test "near-125: 40000 random 64-bit fingerprints at d = 8 and 9 (more blocks than d + 1): equal a brute-force scan" {
	crosscheck 64 40000 8,9 queries
}

@test "near-126: -L without -r is a usage error" {
	run --separate-stderr neardup near --docs -L -d 3 "$(fixture lighthouse.txt)"
	assert_exit TROUBLE
	assert_output ''
	assert_stderr_line '^neardup: -L applies to -r$'
}

@test "near-127: -d too large for the queries is refused when the index is empty too" {
	printf 'alpha beta gamma delta\n' >a.txt
	neardup hash a.txt >q.fp
	for args in "/dev/null q.fp" "--docs /dev/null a.txt"; do
		run --separate-stderr neardup near -d 60 $args
		assert_exit TROUBLE
		assert_output ''
		assert_equal "$stderr" 'neardup: -d: 60: too large for 64-bit fingerprints (at most 32)'
	done
	run --separate-stderr neardup near -d 32 /dev/null q.fp
	assert_exit DIFFER
	assert_equal "$stderr" ''
}

@test "near-128: --format=json is closed when a bad query file stops near" {
	neardup hash "$(fixture lighthouse.txt)" "$(fixture lighthouse-near.txt)" >idx
	head -n 1 idx >q1
	echo garbage >qbad
	run --separate-stderr -2 neardup near -d 3 --format=json idx q1 qbad
	assert_stderr_line '^neardup: qbad:1: '
	run jq -e 'length == 1 and .[0].distance == 0' <<<"$output"
	assert_success
}

@test "near-129: --docs: a binary query is skipped with a note; --binary, --hidden, --exclude as for hash" {
	mkdir -p q/.h
	cp "$(fixture lighthouse.txt)" q/a.txt
	cp "$(fixture lighthouse.txt)" q/.h/b.txt
	cp q/a.txt q/c.o
	printf 'alpha\0beta' >q/bin
	neardup hash "$(fixture lighthouse.txt)" >idx
	run --separate-stderr neardup near -d 3 --docs -r idx q
	assert_exit OK
	assert_equal "$(cut -f1 <<<"$output")" "$(printf 'q/a.txt\nq/c.o')"
	assert_equal "$stderr" 'neardup: q/bin: binary file skipped'
	run --separate-stderr neardup near -d 3 --docs --binary --hidden \
	    --exclude='*.o' -r idx q
	assert_exit OK
	assert_stderr_empty
	assert_equal "$(cut -f1 <<<"$output")" "$(printf 'q/.h/b.txt\nq/a.txt')"
	# The operand was named: --exclude-dir does not skip it.
	run -0 --separate-stderr neardup near -d 3 --docs -r --exclude-dir=q \
	    idx q
	assert_equal "${#lines[@]}" 2
	# A binary operand alone: a note, no match, no error.
	run --separate-stderr neardup near -d 3 --docs idx q/bin
	assert_exit DIFFER
	assert_equal "$stderr" 'neardup: q/bin: binary file skipped'
	run -2 --separate-stderr neardup near -d 3 --binary idx q/bin
	assert_stderr_line '^neardup: --archives, --binary, --exclude, --exclude-dir and --hidden apply to --docs$'
}

@test "near-140: --files0-from: --docs queries, or files of query lines, named in a NUL-ended list" {
	cp "$(fixture lighthouse.txt)" $'new\nline.txt'
	cp "$(fixture orchard.txt)" o.txt
	neardup hash "$(fixture lighthouse.txt)" "$(fixture orchard.txt)" >idx
	printf 'o.txt\0new\nline.txt\0' >list
	run --separate-stderr neardup near -d 3 --docs --files0-from=list idx
	assert_exit OK
	assert_stderr_empty
	assert_equal "${#lines[@]}" 2
	assert_line --index 0 --regexp '^o\.txt	.*orchard\.txt	0$'
	assert_line --index 1 --regexp '^new\\nline\.txt	.*lighthouse\.txt	0$'
	run --separate-stderr bash -c 'printf "o.txt\0" | "$NEARDUP" near -d 3 --docs --files0-from=- idx'
	assert_exit OK
	assert_equal "${#lines[@]}" 1
	# Without --docs, the list names files of query lines.
	neardup hash o.txt >q
	printf 'q\0' >qlist
	run -0 --separate-stderr neardup near -d 3 --files0-from=qlist idx
	assert_line --index 0 --regexp '^o\.txt	.*orchard\.txt	0$'
}

@test "near-141: --files0-from: refused with query operands, --self, and with the index on standard input too" {
	neardup hash "$(fixture orchard.txt)" >idx
	printf 'idx\0' >list
	run -2 --separate-stderr neardup near -d 3 --files0-from=list idx idx
	assert_stderr_line '^neardup: file operands cannot be combined with --files0-from$'
	run -2 --separate-stderr neardup near -d 3 --self --files0-from=list idx
	assert_stderr_line '^neardup: --self takes the index alone: --files0-from names queries$'
	run -2 --separate-stderr neardup near -d 3 --files0-from=- - <idx
	assert_stderr_line '^neardup: the index and the queries cannot both be standard input$'
	# A bad name in the list: reported with LIST:N, the rest asked.
	printf '\0idx\0' >list
	run -2 --separate-stderr neardup near -d 3 --files0-from=list idx
	assert_stderr_line '^neardup: list:1: invalid zero-length file name$'
	assert_equal "${#lines[@]}" 1
}

@test "near-130: a text file for the index or a query, or a directory, says what near takes" {
	printf 'the quick brown fox\n' >a.txt
	neardup hash a.txt >ix
	trouble -d 3 a.txt
	assert_stderr_line '^neardup: a\.txt:1: not a fingerprint line: the index is fingerprint lines, as neardup hash prints them$'
	trouble -d 3 ix a.txt
	assert_stderr_line '^neardup: a\.txt:1: not a fingerprint line: queries that are documents need --docs$'
	run -0 neardup near -d 3 --docs ix a.txt
	mkdir q
	run --separate-stderr neardup near -d 3 ix q
	assert_exit TROUBLE
	assert_stderr_line '^neardup: q: is a directory: queries in it need --docs -r$'
	trouble -d 3 q
	assert_stderr_line '^neardup: q: is a directory: the index is a file of fingerprint lines$'
}

# ---- minhash, oph and bottomk: -t, -n and --self against a brute-force scan --

# lshdata ALGO K: idx.fp and q.fp, `hash --lines -a ALGO -k K` of lines in
# families (a random line of words and copies of it with a share of its
# words replaced, from none to most), so that every resemblance has pairs;
# the queries are other members of the same families, and a few strangers.
# The seed is fixed (NEAR_SEED overrides it) so that every threshold has
# its pairs.
lshdata() {
	command -v python3 >/dev/null || skip "no python3 for the brute-force scan"
	python3 - "${NEAR_SEED:-24}" <<'EOF' || fail "python3 failed"
import random, sys
r = random.Random(int(sys.argv[1]))
vocab = ['w%d' % i for i in range(3000)]
def family(n):
    base = [r.choice(vocab) for _ in range(40)]
    out = []
    for _ in range(n):
        p = r.choice([0, 0.01, 0.02, 0.03, 0.05, 0.08, 0.1, 0.15, 0.2, 0.3, 0.4, 0.6])
        out.append(' '.join(w if r.random() >= p else r.choice(vocab) for w in base))
    return out
with open('idx.txt', 'w') as f, open('q.txt', 'w') as g:
    for _ in range(50):
        fam = family(12)
        f.write('\n'.join(fam[:10]) + '\n')
        g.write('\n'.join(fam[10:]) + '\n')
    g.write('\n'.join(' '.join(r.choice(vocab) for _ in range(40)) for _ in range(5)) + '\n')
EOF
	neardup hash --lines -a "$1" -k "$2" idx.txt >idx.fp
	neardup hash --lines -a "$1" -k "$2" q.txt >q.fp
}

# lshbrute MODE ARG GOT: check near's output GOT against a brute-force scan
# of the estimates of idx.fp and q.fp.  MODE t (ARG the threshold): every
# row is a pair of estimate at least ARG, with that estimate, each query's
# rows most similar first, ties in index order, and 99 % of the pairs of
# estimate at least ARG + 0.05 are there.  MODE self: the same for the
# pairs of idx.fp, earlier line first.  MODE n (ARG the count): GOT is
# exactly the ARG most similar of each query.
lshbrute() {
	python3 - "$@" <<'EOF' || fail "near differs from the brute-force scan"
import math, sys
mode, arg, got = sys.argv[1], sys.argv[2], sys.argv[3]
EMPTY = (1 << 64) - 1
def load(path):
    out = []
    for line in open(path):
        head, name = line.rstrip('\n').split('  ', 1)
        sch, hx = head.split(':')
        d = 16 if 'bottomk' in sch else 8
        out.append((name, [int(hx[i:i + d], 16) for i in range(0, len(hx), d)], 'bottomk' in sch))
    return out
def est(a, b, bk):
    k = len(a)
    if not bk:
        return sum(x == y for x, y in zip(a, b)) / k
    a = [x for x in a if x != EMPTY]
    b = [x for x in b if x != EMPTY]
    if not a and not b:
        return 1.0
    i = j = seen = shared = 0
    while seen < k and (i < len(a) or j < len(b)):
        if j == len(b) or (i < len(a) and a[i] < b[j]): i += 1
        elif i == len(a) or b[j] < a[i]: j += 1
        else: shared += 1; i += 1; j += 1
        seen += 1
    return shared / seen
def cut(x):
    return '%.6f' % (math.floor(x * 1e6 + 1e-7) / 1e6)
ix = load('idx.fp')
qs = ix if mode == 'self' else load('q.fp')
pos = {name: i for i, (name, _, _) in enumerate(ix)}
qpos = {name: i for i, (name, _, _) in enumerate(qs)}
rows = [l.rstrip('\n').split('\t') for l in open(got)]
def fail(msg):
    sys.exit('%s %s: %s' % (mode, arg, msg))
if mode == 'n':
    n = int(arg)
    want = []
    for qn, qv, bk in qs:
        s = sorted((-est(qv, v, bk), i) for i, (_, v, _) in enumerate(ix))[:n]
        want += [[qn, ix[i][0], cut(-e)] for e, i in s]
    if rows != want:
        bad = next(i for i in range(len(want)) if i >= len(rows) or rows[i] != want[i])
        fail('row %d: got %s, want %s' % (bad, rows[bad] if bad < len(rows) else None, want[bad]))
    sys.exit(0)
t = float(arg)
seen = set()
for k, (q, m, s) in enumerate(rows):
    a, b = qpos[q], pos[m]
    e = est(qs[a][1], ix[b][1], ix[b][2])
    if e < t or s != cut(e):
        fail('%s %s: estimate %s printed, %.6f brute, below %s?' % (q, m, s, e, t))
    if mode == 'self' and a >= b:
        fail('%s %s: not the earlier line first' % (q, m))
    if (a, b) in seen:
        fail('%s %s: twice' % (q, m))
    seen.add((a, b))
    if k > 0:
        pa, pb = qpos[rows[k - 1][0]], pos[rows[k - 1][1]]
        pe = float(rows[k - 1][2])
        if (pa, -pe, pb) >= (a, -float(s), b):
            fail('row %d out of order' % k)
want = [(a, b) for a in range(len(qs)) for b in range(a + 1 if mode == 'self' else 0, len(ix))
        if est(qs[a][1], ix[b][1], ix[b][2]) >= t + 0.05]
found = sum(p in seen for p in want)
if len(want) < 50:
    fail('only %d pairs of %s + 0.05 or more: the test is too weak' % (len(want), t))
if found < 0.99 * len(want):
    fail('recall %d of %d' % (found, len(want)))
EOF
}

@test "near-142: oph -t 0.5, 0.7, 0.9: no match below t, 99 % of those of t + 0.05 found" {
	local t
	lshdata oph 64
	for t in 0.5 0.7 0.9; do
		near -t "$t" idx.fp q.fp
		assert_exit OK
		assert_stderr_empty
		printf '%s\n' "$output" >got
		lshbrute t "$t" got
	done
}

# lshsweep MODE 'ALGOS' 'ARGS': for each algorithm, lshdata of 64 values,
# then for each ARG near's output (-t ARG, -n ARG, or --self -t ARG by MODE)
# checked by lshbrute MODE ARG.
lshsweep() {
	local a x
	for a in $2; do
		lshdata "$a" 64
		for x in $3; do
			case $1 in
			t) "$NEARDUP" near -t "$x" idx.fp q.fp ;;
			n) "$NEARDUP" near -n "$x" idx.fp q.fp ;;
			self) "$NEARDUP" near --self -t "$x" idx.fp ;;
			esac >got
			lshbrute "$1" "$x" got
		done
	done
}

@test "near-131: minhash and bottomk -t 0.6 and 0.8: no match below t, 99 % of those of t + 0.05 found" {
	lshsweep t 'minhash bottomk' '0.6 0.8'
}

@test "near-132: -n without -t: exactly the n most similar by the estimate, ties in index order" {
	lshsweep n 'oph minhash bottomk' '1 3 25'
}

@test "near-133: --self -t 0.5 and 0.8 over oph and bottomk: every pair once, 99 % of those of t + 0.05" {
	lshsweep self 'oph bottomk' '0.5 0.8'
}

# lshfiles: three documents (a, a with 15 words changed, and an unrelated
# one) and their oph fingerprints of 64 values in oph.fp.
lshfiles() {
	seq -f 'w%g' 1 300 >a.txt
	sed '150,164s/^w/changed/' a.txt >b.txt
	seq -f 'w%g' 1000 1300 >c.txt
	neardup hash -a oph -k 64 a.txt b.txt c.txt >oph.fp
}

@test "near-134: oph without -d or -t: the default threshold, the estimate printed, most similar first" {
	lshfiles
	neardup hash -a oph -k 64 b.txt >q.fp
	near oph.fp q.fp
	assert_exit OK
	assert_stderr_empty
	assert_equal "${#lines[@]}" 2
	assert_line --index 0 "$(rows 'b.txt b.txt 1.000000')"
	assert_line --index 1 --regexp '^b\.txt	a\.txt	0\.(8|9)[0-9]{5}$'
	near -t 0.99 oph.fp q.fp
	assert_output "$(rows 'b.txt b.txt 1.000000')"
	near -t 0.99 --header oph.fp q.fp
	assert_line --index 0 "$(printf 'query\tmatch\test_jaccard')"
}

@test "near-135: --format=json: est_jaccard, the estimated resemblance, for oph" {
	lshfiles
	json --self -t 0.5 oph.fp
	assert_exit OK
	jq_true '. | length == 1'
	jq_true '.[0].query == "a.txt" and .[0].match == "b.txt"'
	jq_true '.[0].est_jaccard > 0.8 and .[0].est_jaccard < 1 and (.[0] | has("distance") | not)'
}

@test "near-136: --docs -a oph: documents hashed as the index was, same output as hash | near" {
	lshfiles
	neardup hash -a oph -k 64 a.txt b.txt c.txt | neardup near -t 0.5 oph.fp - >want
	near --docs -a oph -k 64 -t 0.5 oph.fp a.txt b.txt c.txt
	assert_exit OK
	assert_output "$(cat want)"
	assert_equal "${#lines[@]}" 5
	# Documents hashed with another scheme than the index's.
	trouble --docs -a oph -k 32 -t 0.5 oph.fp a.txt
	assert_stderr_line '^neardup: --docs: documents hashed as nd1-oph32-.* cannot be compared with the index'"'"'s nd1-oph64-'
}

@test "near-137: -n -t: the n most similar among the matches of -t" {
	lshfiles
	neardup hash -a oph -k 64 a.txt >q.fp
	near -n 1 -t 0.5 oph.fp q.fp
	assert_exit OK
	assert_output "$(rows 'a.txt a.txt 1.000000')"
	near -n 5 -t 0.5 oph.fp q.fp
	assert_equal "${#lines[@]}" 2
	near -n 5 oph.fp q.fp
	assert_equal "${#lines[@]}" 3
}

@test "near-138: schemes that do not go with -d, -t or the index: exit 2, the file named" {
	ladder64
	lshfiles
	usage_error -d 3 -t 0.5 ix64.fp q0.fp
	assert_stderr_line '^neardup: -d and -t do not go together: near searches simhash fingerprints by -d and minhash, oph and bottomk ones by -t$'
	trouble -t 0.5 ix64.fp q0.fp
	assert_stderr_line '^neardup: ix64\.fp: simhash fingerprints are searched by -d, not -t$'
	# --docs hashes simhash unless -a says otherwise.
	usage_error -t 0.5 --docs oph.fp a.txt
	assert_stderr_line '^neardup: simhash fingerprints are searched by -d, not -t$'
	trouble -d 3 oph.fp q0.fp
	assert_stderr_line '^neardup: oph\.fp:1: not a simhash fingerprint \(oph\)$'
	# Without -d or -t, the index says which; simhash needs -d.
	usage_error ix64.fp q0.fp
	assert_stderr_line '^neardup: -d: the largest distance is required$'
	trouble oph.fp q0.fp
	assert_stderr_line '^neardup: q0\.fp: scheme nd1-simhash64-w3-fs-s0 differs from the index'"'"'s nd1-oph64-w3-fs-s0$'
	neardup hash -a oph -k 32 a.txt >k32.fp
	trouble -t 0.5 oph.fp k32.fp
	assert_stderr_line '^neardup: k32\.fp: scheme nd1-oph32-w3-fs-s0 differs from the index'"'"'s nd1-oph64-w3-fs-s0$'
	neardup hash -a minhash -k 64 a.txt >mh.fp
	trouble oph.fp mh.fp
	assert_stderr_line '^neardup: mh\.fp: scheme nd1-minhash64-w3-fs-s0 differs'
	neardup hash -a key a.txt >key.fp
	trouble -t 0.5 key.fp
	assert_stderr_line '^neardup: key\.fp: key fingerprints cannot be searched: near searches simhash fingerprints by -d and minhash, oph and bottomk ones by -t$'
	# An empty index: the queries say which.
	: >empty.fp
	trouble -t 0.5 empty.fp q0.fp
	assert_stderr_line '^neardup: q0\.fp: simhash fingerprints are searched by -d, not -t$'
	near -t 0.5 empty.fp oph.fp
	assert_exit DIFFER
	usage_error -t 0 oph.fp
	assert_stderr_line '^neardup: -t: 0: not a number in \(0, 1\]$'
	usage_error -t 1.5 oph.fp
	assert_stderr_line '^neardup: -t: 1\.5: '
}

@test "near-139: without -t, the one default threshold, 0.5: nothing below it, 99 % of the pairs of 0.55 found, queries and --self" {
	local a
	for a in oph minhash bottomk; do
		lshdata "$a" 64
		"$NEARDUP" near idx.fp q.fp >got
		lshbrute t 0.5 got
		"$NEARDUP" near --self idx.fp >got
		lshbrute self 0.5 got
	done
}

# lshwant ARGS...: want, the output of `neardup near -t 0.5 ARGS` on the
# fingerprint lines that `neardup hash -a oph -k 64 --archives` or
# `... --jsonl` (the options before --) prints of the files after --.
lshwant() {
	local h=()
	while [ "$1" != -- ]; do
		h+=("$1")
		shift
	done
	shift
	neardup hash -a oph -k 64 "${h[@]}" "$@" >want.fp
	neardup near -t 0.5 oph.fp want.fp >want
	[ -s want ] || fail "no match to compare with"
}

@test "near-143: -t with --files0-from, --docs --jsonl and --docs --archives: as hash | near -t" {
	lshfiles
	# --files0-from: documents with --docs, files of lines without.
	lshwant -- a.txt b.txt
	printf 'a.txt\0b.txt\0' >list
	near --docs -a oph -k 64 -t 0.5 --files0-from=list oph.fp
	assert_exit OK
	assert_output "$(cat want)"
	neardup hash -a oph -k 64 a.txt >qa.fp
	neardup hash -a oph -k 64 b.txt >qb.fp
	printf 'qa.fp\0qb.fp\0' >qlist
	near -t 0.5 --files0-from=qlist oph.fp
	assert_exit OK
	assert_output "$(cat want)"
	# --jsonl: each record a query, named by its id (records are
	# shingled by characters unless told).
	jq -cn --rawfile a a.txt --rawfile b b.txt \
	    '{id: "ra", text: $a}, {id: "rb", text: $b}' >recs.jsonl
	lshwant --jsonl --id=id -w 3 -- recs.jsonl
	near --docs --jsonl --id=id -a oph -k 64 -w 3 -t 0.5 oph.fp recs.jsonl
	assert_exit OK
	assert_output "$(cat want)"
	assert_line --index 0 --regexp '^ra	a\.txt	1\.000000$'
	# --archives: each member a query.
	tar cf ab.tar a.txt b.txt
	lshwant --archives -- ab.tar
	near --docs --archives -a oph -k 64 -t 0.5 oph.fp ab.tar
	assert_exit OK
	assert_output "$(cat want)"
	assert_line --index 0 --regexp '^ab\.tar//a\.txt	a\.txt	1\.000000$'
}
