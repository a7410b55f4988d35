#!/usr/bin/env bats
#
# neardup hash: schemes, line format, inputs, record modes, names,
# threads, normalization and errors.

load helper

# The hash usage's first line, as printed after every bad option.
USAGE_RE='^usage: neardup hash '

# hash_hex ARGS...: the HEX field of the single line `neardup hash ARGS` prints.
hash_hex() {
	local line
	line=$("$NEARDUP" hash "$@") || return
	fp_hex "$line"
}

# text_hex TEXT ARGS...: the HEX of TEXT read on standard input.
text_hex() {
	local text=$1
	shift
	printf '%s' "$text" | hash_hex "$@"
}

# bad_option ARGS...: neardup hash ARGS must fail with exit 2, a one-line
# "neardup: " message, then the usage, and print nothing on stdout.
bad_option() {
	run --separate-stderr neardup hash "$@" "$(fixture lighthouse.txt)"
	assert_exit TROUBLE
	assert_output ''
	[[ ${stderr_lines[0]} == neardup:\ * ]] ||
	    fail "first stderr line is not a neardup: message: ${stderr_lines[0]-}"
	assert_stderr_line "$USAGE_RE"
}

# ---- schemes and line format ------------------------------------------

@test "hash-001: default scheme is simhash64 over word 3-grams, folded, seed 0" {
	run --separate-stderr neardup hash "$(fixture lighthouse.txt)"
	assert_exit OK
	assert_stderr_empty
	assert_output --regexp "^nd1-simhash64-w3-fs-s0:[0-9a-f]{16}  $(fixture lighthouse.txt)\$"
}

@test "hash-002: -a simhash is the default scheme" {
	run neardup hash -a simhash "$(fixture lighthouse.txt)"
	assert_exit OK
	assert_output "$(neardup hash "$(fixture lighthouse.txt)")"
}

@test "hash-003: -a simhash -k 128 gives 32 hex digits" {
	run neardup hash -a simhash -k 128 "$(fixture lighthouse.txt)"
	assert_exit OK
	assert_output --regexp "^nd1-simhash128-w3-fs-s0:[0-9a-f]{32}  $(fixture lighthouse.txt)\$"
}

@test "hash-004: -a minhash defaults to k=128, 8 hex digits per value" {
	run neardup hash -a minhash "$(fixture lighthouse.txt)"
	assert_exit OK
	assert_output --regexp "^nd1-minhash128-w3-fs-s0:[0-9a-f]{1024}  $(fixture lighthouse.txt)\$"
}

@test "hash-005: -a minhash -k 7 gives 7*8 hex digits" {
	run neardup hash -a minhash -k 7 "$(fixture lighthouse.txt)"
	assert_exit OK
	assert_output --regexp "^nd1-minhash7-w3-fs-s0:[0-9a-f]{56}  $(fixture lighthouse.txt)\$"
}

@test "hash-006: -a bottomk defaults to k=128, 16 hex digits per value" {
	run neardup hash -a bottomk "$(fixture lighthouse.txt)"
	assert_exit OK
	assert_output --regexp "^nd1-bottomk128-w3-fs-s0:[0-9a-f]{2048}  $(fixture lighthouse.txt)\$"
}

@test "hash-007: -a bottomk -k 5 gives 5*16 hex digits" {
	run neardup hash -a bottomk -k 5 "$(fixture lighthouse.txt)"
	assert_exit OK
	assert_output --regexp "^nd1-bottomk5-w3-fs-s0:[0-9a-f]{80}  $(fixture lighthouse.txt)\$"
}

@test "hash-008: -a oph defaults to k=128, 8 hex digits per value" {
	run neardup hash -a oph "$(fixture lighthouse.txt)"
	assert_exit OK
	assert_output --regexp "^nd1-oph128-w3-fs-s0:[0-9a-f]{1024}  $(fixture lighthouse.txt)\$"
}

@test "hash-009: -a oph -k 9 gives 9*8 hex digits" {
	run neardup hash -a oph -k 9 "$(fixture lighthouse.txt)"
	assert_exit OK
	assert_output --regexp "^nd1-oph9-w3-fs-s0:[0-9a-f]{72}  $(fixture lighthouse.txt)\$"
}

@test "hash-010: -a key defaults to n=3, 16 hex digits" {
	run neardup hash -a key "$(fixture lighthouse.txt)"
	assert_exit OK
	assert_output --regexp "^nd1-key3-w3-fs-s0:[0-9a-f]{16}  $(fixture lighthouse.txt)\$"
}

@test "hash-011: -a key -k 5 is still 16 hex digits, and differs from n=3" {
	run neardup hash -a key -k 5 "$(fixture lighthouse.txt)"
	assert_exit OK
	assert_output --regexp "^nd1-key5-w3-fs-s0:[0-9a-f]{16}  $(fixture lighthouse.txt)\$"
	[ "$(fp_hex "$output")" != "$(hash_hex -a key "$(fixture lighthouse.txt)")" ]
}

@test "hash-012: -k limits: 4096 accepted for minhash, bottomk, oph, key" {
	local a
	for a in minhash bottomk oph key; do
		run neardup hash -a "$a" -k 4096 "$(fixture short.txt)"
		assert_exit OK
		assert_output --regexp "^nd1-${a}4096-w3-fs-s0:"
	done
}

@test "hash-013: long options equal short ones" {
	local f
	f=$(fixture lighthouse.txt)
	run neardup hash --algorithm=minhash --size=6 --words=2 --seed=7 "$f"
	assert_exit OK
	assert_output "$(neardup hash -a minhash -k 6 -w 2 -s 7 "$f")"
	run neardup hash --algorithm oph --size 6 --chars 4 "$f"
	assert_exit OK
	assert_output "$(neardup hash -a oph -k 6 -c 4 "$f")"
}

@test "hash-014: bottomk values are ascending, unused slots ffffffffffffffff" {
	local hex i v prev=
	hex=$(text_hex 'alpha beta gamma' -a bottomk -k 6 -w 1)
	[ "${#hex}" -eq 96 ]
	for ((i = 0; i < 6; i++)); do
		v=${hex:i*16:16}
		if ((i >= 3)); then
			[ "$v" = ffffffffffffffff ] || fail "slot $i: $v"
		else
			[ "$v" != ffffffffffffffff ] || fail "slot $i unused"
		fi
		[[ -z $prev || $prev < $v || $prev == "$v" ]] ||
		    fail "not ascending: $prev then $v"
		prev=$v
	done
}

# ---- scheme string fields ---------------------------------------------

@test "hash-020: --lines defaults to character 5-grams (c5)" {
	run neardup hash --lines "$(fixture lines.txt)"
	assert_exit OK
	assert_line --index 0 --regexp '^nd1-simhash64-c5-fs-s0:[0-9a-f]{16}  '
}

@test "hash-021: --tsv defaults to character 5-grams (c5)" {
	run neardup hash --tsv <<<$'id\tsome text'
	assert_exit OK
	assert_output --regexp '^nd1-simhash64-c5-fs-s0:[0-9a-f]{16}  id$'
}

@test "hash-022: -w n in --lines mode gives word n-grams" {
	run neardup hash --lines -w 2 "$(fixture lines.txt)"
	assert_exit OK
	assert_line --index 0 --regexp '^nd1-simhash64-w2-fs-s0:'
}

@test "hash-023: -c n gives character n-grams on whole documents" {
	run neardup hash -c 4 "$(fixture lighthouse.txt)"
	assert_exit OK
	assert_output --regexp '^nd1-simhash64-c4-fs-s0:[0-9a-f]{16}  '
	[ "$(fp_hex "$output")" != "$(hash_hex "$(fixture lighthouse.txt)")" ]
}

@test "hash-024: of -c and -w the last one wins" {
	run neardup hash -c 4 -w 2 "$(fixture lighthouse.txt)"
	assert_output --regexp '^nd1-simhash64-w2-fs-s0:'
	run neardup hash -w 2 -c 4 "$(fixture lighthouse.txt)"
	assert_output --regexp '^nd1-simhash64-c4-fs-s0:'
}

@test "hash-025: --multiset adds m to the kind and counts repeats" {
	local once twice
	run neardup hash --multiset -w 1 - <<<'alpha beta'
	assert_exit OK
	assert_output --regexp '^nd1-simhash64-w1m-fs-s0:[0-9a-f]{16}  -$'
	once=$(fp_hex "$output")
	twice=$(text_hex 'alpha beta alpha beta' --multiset -w 1)
	[ "$once" != "$twice" ] || fail "--multiset ignores the repeat"
	# Without it, the repeat adds no shingle.
	[ "$(text_hex 'alpha beta' -w 1)" = "$(text_hex 'alpha beta alpha beta' -w 1)" ]
}

@test "hash-026: --keep-case sets c, --keep-punct sets p" {
	local f
	f=$(fixture lighthouse.txt)
	run neardup hash --keep-case "$f"
	assert_output --regexp '^nd1-simhash64-w3-cs-s0:'
	run neardup hash --keep-punct "$f"
	assert_output --regexp '^nd1-simhash64-w3-fp-s0:'
	run neardup hash --keep-case --keep-punct "$f"
	assert_output --regexp '^nd1-simhash64-w3-cp-s0:'
}

@test "hash-027: -s changes the scheme and the hash" {
	local f
	f=$(fixture lighthouse.txt)
	run neardup hash -s 42 "$f"
	assert_exit OK
	assert_output --regexp '^nd1-simhash64-w3-fs-s42:[0-9a-f]{16}  '
	[ "$(fp_hex "$output")" != "$(hash_hex "$f")" ]
	[ "$(hash_hex -a minhash -k 4 -s 42 "$f")" != "$(hash_hex -a minhash -k 4 "$f")" ]
}

@test "hash-028: the largest seed 9223372036854775807 is accepted" {
	run neardup hash -s 9223372036854775807 "$(fixture short.txt)"
	assert_exit OK
	assert_output --regexp '^nd1-simhash64-w3-fs-s9223372036854775807:[0-9a-f]{16}  '
}

@test "hash-029: --weights adds -W and the table's digest" {
	printf 'keeper\t4\nlighthouse\t0.5\n' >w1
	printf 'keeper\t2\nlighthouse\t0.5\n' >w2
	run neardup hash --weights=w1 "$(fixture lighthouse.txt)"
	assert_exit OK
	assert_output --regexp '^nd1-simhash64-w3-fs-s0-W[0-9a-f]{16}:[0-9a-f]{16}  '
	local s1 s2
	s1=$(fp_scheme "$output")
	s2=$(fp_scheme "$(neardup hash --weights w2 "$(fixture lighthouse.txt)")")
	[ "$s1" != "$s2" ] || fail "different tables, same digest: $s1"
}

@test "hash-030: weights of 1 give the unweighted hash, other weights change it" {
	local f plain
	f=$(fixture lighthouse.txt)
	plain=$(hash_hex "$f")
	printf 'keeper\t1\nthe\t1\n' >ones
	[ "$(hash_hex --weights=ones "$f")" = "$plain" ]
	printf 'the\t0\nof\t0\nand\t0\nkeeper\t50\nlogbook\t50\n' >skew
	[ "$(hash_hex --weights=skew "$f")" != "$plain" ]
}

# ---- standard input ----------------------------------------------------

@test "hash-040: no operand reads standard input, named -" {
	run neardup hash <"$(fixture lighthouse.txt)"
	assert_exit OK
	assert_output "$(neardup hash "$(fixture lighthouse.txt)" | sed 's/  .*$/  -/')"
}

@test "hash-041: the operand - reads standard input, in operand order" {
	local f
	f=$(fixture orchard.txt)
	run neardup hash "$(fixture short.txt)" - "$f" <"$(fixture lighthouse.txt)"
	assert_exit OK
	assert_equal "${#lines[@]}" 3
	assert_line --index 0 --regexp "  $(fixture short.txt)\$"
	assert_line --index 1 "$(neardup hash <"$(fixture lighthouse.txt)")"
	assert_line --index 2 --regexp "  $f\$"
}

# ---- -r and -L ---------------------------------------------------------

# A tree with files, a subdirectory, a FIFO and symbolic links.
make_tree() {
	mkdir -p d/b d/sub real
	echo 'one two three' >d/b.txt
	echo 'four five six' >d/a.txt
	echo 'upper case name' >d/B
	echo 'seven eight' >d/b/q
	echo 'nine ten' >d/sub/z
	echo 'behind a link' >real/target
	mkfifo d/fifo
	ln -s ../../real/target d/sub/filelink
	ln -s ../real d/dirlink
}

@test "hash-050: -r walks directories in byte order of names, regular files only" {
	make_tree
	run --separate-stderr neardup hash -r d
	assert_exit OK
	assert_equal "$stderr" 'neardup: d/fifo: not a regular file, skipped'
	assert_equal "$(fp_name "${lines[0]}")" d/B
	assert_equal "$(fp_name "${lines[1]}")" d/a.txt
	assert_equal "$(fp_name "${lines[2]}")" d/b/q
	assert_equal "$(fp_name "${lines[3]}")" d/b.txt
	assert_equal "$(fp_name "${lines[4]}")" d/sub/z
	assert_equal "${#lines[@]}" 5
}

@test "hash-051: -r does not follow symbolic links" {
	make_tree
	run --separate-stderr neardup hash -r d
	assert_exit OK
	refute_output --partial link
	refute_output --partial target
}

@test "hash-052: -L follows symbolic links to files and directories" {
	make_tree
	run --separate-stderr neardup hash -r -L d
	assert_exit OK
	assert_equal "$stderr" 'neardup: d/fifo: not a regular file, skipped'
	assert_line --regexp '  d/dirlink/target$'
	assert_line --regexp '  d/sub/filelink$'
	local want
	want=$(hash_hex real/target)
	for l in "${lines[@]}"; do
		case $l in
		*link*) assert_equal "$(fp_hex "$l")" "$want" ;;
		esac
	done
	assert_equal "${#lines[@]}" 7
}

@test "hash-053: -L reports a symbolic link loop and hashes the rest" {
	mkdir -p d/sub
	echo 'alpha beta gamma' >d/a
	echo 'delta epsilon' >d/sub/b
	ln -s .. d/sub/up
	run --separate-stderr neardup hash -rL d
	assert_exit TROUBLE
	assert_stderr_line '^neardup: d/sub/up: '
	assert_line --regexp '  d/a$'
	assert_line --regexp '  d/sub/b$'
	assert_equal "${#lines[@]}" 2
}

@test "hash-054: -r still hashes file operands" {
	make_tree
	run neardup hash -r d/a.txt
	assert_exit OK
	assert_output --regexp '^nd1-simhash64-w3-fs-s0:[0-9a-f]{16}  d/a.txt$'
}

# ---- --files0-from ----------------------------------------------------

@test "hash-060: --files0-from=FILE reads NUL-ended names" {
	local a b
	a=$(fixture short.txt) b=$(fixture orchard.txt)
	printf '%s\0%s\0' "$a" "$b" >list
	run --separate-stderr neardup hash --files0-from=list
	assert_exit OK
	assert_stderr_empty
	assert_output "$(neardup hash "$a" "$b")"
}

@test "hash-061: --files0-from=- reads the names from standard input" {
	local a b
	a=$(fixture short.txt) b=$(fixture orchard.txt)
	run neardup hash --files0-from=- < <(printf '%s\0%s\0' "$a" "$b")
	assert_exit OK
	assert_output "$(neardup hash "$a" "$b")"
}

@test "hash-062: --files0-from takes names with newlines as they are" {
	cp "$(fixture short.txt)" $'two\nlines'
	printf 'two\nlines\0' >list
	run neardup hash --files0-from list
	assert_exit OK
	assert_output "\\$(fp_scheme "$(neardup hash "$(fixture short.txt)")"):$(hash_hex "$(fixture short.txt)")  two\\nlines"
}

@test "hash-063: --files0-from: a zero-length name is an error, others hashed" {
	local a b
	a=$(fixture short.txt) b=$(fixture orchard.txt)
	printf '%s\0\0%s\0' "$a" "$b" >list
	run --separate-stderr neardup hash --files0-from=list
	assert_exit TROUBLE
	assert_stderr_line '^neardup: list:2: .*zero-length'
	assert_output "$(neardup hash "$a" "$b")"
}

@test "hash-064: --files0-from=-: the name - is an error, others hashed" {
	local a
	a=$(fixture short.txt)
	run --separate-stderr neardup hash --files0-from=- < <(printf '%s\0-\0' "$a")
	assert_exit TROUBLE
	assert_stderr_line "^neardup: -:2: .*'-'"
	assert_output "$(neardup hash "$a")"
}

@test "hash-065: --files0-from with file operands is a usage error" {
	printf '%s\0' "$(fixture short.txt)" >list
	run --separate-stderr neardup hash --files0-from=list "$(fixture orchard.txt)"
	assert_exit TROUBLE
	assert_output ''
	assert_stderr_line '^neardup: '
	assert_stderr_line "$USAGE_RE"
}

@test "hash-066: --files0-from a missing list is an error" {
	run --separate-stderr neardup hash --files0-from=nolist
	assert_exit TROUBLE
	assert_output ''
	assert_stderr_line '^neardup: nolist: No such file or directory$'
}

# ---- --lines -----------------------------------------------------------

@test "hash-070: --lines names each line FILE:LINENO" {
	local f
	f=$(fixture lines.txt)
	run neardup hash --lines "$f"
	assert_exit OK
	assert_equal "${#lines[@]}" 4
	local i
	for i in 0 1 2 3; do
		assert_equal "$(fp_name "${lines[i]}")" "$f:$((i + 1))"
	done
}

@test "hash-071: --lines on standard input names lines -:N" {
	run neardup hash --lines < <(printf 'first line\nsecond line\n')
	assert_exit OK
	assert_line --index 0 --regexp '  -:1$'
	assert_line --index 1 --regexp '  -:2$'
	assert_equal "${#lines[@]}" 2
	run neardup hash --lines - < <(printf 'first line\nsecond line\n')
	assert_line --index 1 --regexp '  -:2$'
}

@test "hash-072: --lines: an empty line gets the empty fingerprint" {
	run neardup hash --lines "$(fixture lines.txt)"
	assert_equal "$(fp_hex "${lines[2]}")" "$EMPTY_SIMHASH64"
	run neardup hash --lines -a minhash -k 3 "$(fixture lines.txt)"
	assert_equal "$(fp_hex "${lines[2]}")" ffffffffffffffffffffffff
}

@test "hash-073: --lines: a line is hashed as the document of its text" {
	run neardup hash --lines < <(printf 'the quick brown fox\njumps over\n')
	assert_equal "$(fp_hex "${lines[0]}")" "$(text_hex 'the quick brown fox' -c 5)"
	assert_equal "$(fp_hex "${lines[1]}")" "$(text_hex 'jumps over' -c 5)"
}

@test "hash-074: --lines: a last line without newline is a record" {
	run neardup hash --lines < <(printf 'one two\nthree four')
	assert_exit OK
	assert_equal "${#lines[@]}" 2
	assert_equal "$(fp_hex "${lines[1]}")" "$(text_hex 'three four' -c 5)"
}

@test "hash-075: --lines numbers the lines of each file from 1" {
	printf 'a b\nc d\n' >x
	printf 'e f\n' >y
	run neardup hash --lines x y
	assert_exit OK
	assert_line --index 0 --regexp '  x:1$'
	assert_line --index 1 --regexp '  x:2$'
	assert_line --index 2 --regexp '  y:1$'
}

# ---- --tsv -------------------------------------------------------------

@test "hash-080: --tsv names each record by its ID and hashes its TEXT" {
	printf 'doc-1\tthe quick brown fox\ndoc-2\tjumps over\n' >t.tsv
	run --separate-stderr neardup hash --tsv t.tsv
	assert_exit OK
	assert_stderr_empty
	assert_equal "$(fp_name "${lines[0]}")" doc-1
	assert_equal "$(fp_name "${lines[1]}")" doc-2
	assert_equal "$(fp_hex "${lines[0]}")" "$(text_hex 'the quick brown fox' -c 5)"
	assert_equal "$(fp_hex "${lines[1]}")" "$(text_hex 'jumps over' -c 5)"
}

@test "hash-081: --tsv: a line without a tab is reported, others hashed, exit 2" {
	printf 'a\tfirst text\nno tab here\nb\tthird text\n' >t.tsv
	run --separate-stderr neardup hash --tsv t.tsv
	assert_exit TROUBLE
	assert_stderr_line '^neardup: t\.tsv:2: no tab'
	assert_equal "${#lines[@]}" 2
	assert_equal "$(fp_name "${lines[0]}")" a
	assert_equal "$(fp_name "${lines[1]}")" b
}

@test "hash-082: --tsv: only the first tab separates ID and TEXT" {
	run neardup hash --tsv < <(printf 'id\tleft\tright\n')
	assert_exit OK
	assert_equal "$(fp_name "$output")" id
	assert_equal "$(fp_hex "$output")" "$(text_hex $'left\tright' -c 5)"
}

# ---- -z ----------------------------------------------------------------

@test "hash-090: -z ends output lines with NUL, not newline" {
	neardup hash -z "$(fixture short.txt)" "$(fixture orchard.txt)" >out
	[ "$(tr -cd '\0' <out | wc -c)" -eq 2 ]
	[ "$(tr -cd '\n' <out | wc -c)" -eq 0 ]
	[ "$(tail -c 1 out | od -An -tx1 | tr -d ' ')" = 00 ]
	tr '\0' '\n' <out >got
	neardup hash "$(fixture short.txt)" "$(fixture orchard.txt)" >want
	cmp got want
}

@test "hash-091: -z --lines reads NUL-separated records" {
	printf 'first record\nstill first\0second record\0' >recs
	neardup hash -z --lines recs >out
	tr '\0' '\n' <out >got
	run cat got
	assert_equal "${#lines[@]}" 2
	assert_equal "$(fp_name "${lines[0]}")" recs:1
	assert_equal "$(fp_name "${lines[1]}")" recs:2
	assert_equal "$(fp_hex "${lines[0]}")" "$(text_hex $'first record\nstill first' -c 5)"
}

@test "hash-092: -z does not escape names" {
	cp "$(fixture short.txt)" $'a\\b\nc'
	neardup hash -z $'a\\b\nc' >out
	local want
	want="$(fp_scheme "$(neardup hash "$(fixture short.txt)")"):$(hash_hex "$(fixture short.txt)")"
	printf '%s  a\\b\nc\0' "$want" >expect
	cmp out expect
}

# ---- name escaping -----------------------------------------------------

@test "hash-100: a newline in a name is escaped as \\n, line begins with \\" {
	cp "$(fixture short.txt)" $'new\nline'
	run neardup hash $'new\nline'
	assert_exit OK
	assert_output --regexp '^\\nd1-simhash64-w3-fs-s0:[0-9a-f]{16}  new\\nline$'
}

@test "hash-101: a backslash in a name is escaped as \\\\" {
	cp "$(fixture short.txt)" 'back\slash'
	run neardup hash 'back\slash'
	assert_exit OK
	assert_output --regexp '^\\nd1-simhash64-w3-fs-s0:[0-9a-f]{16}  back\\\\slash$'
}

@test "hash-102: a carriage return in a name is escaped as \\r" {
	cp "$(fixture short.txt)" $'car\rret'
	run neardup hash $'car\rret'
	assert_exit OK
	assert_output --regexp '^\\nd1-simhash64-w3-fs-s0:[0-9a-f]{16}  car\\rret$'
}

@test "hash-103: a tab in a name is left as it is" {
	cp "$(fixture short.txt)" $'tab\tname'
	run neardup hash $'tab\tname'
	assert_exit OK
	assert_output --regexp $'^nd1-simhash64-w3-fs-s0:[0-9a-f]{16}  tab\tname$'
}

@test "hash-104: --tsv IDs are escaped like names" {
	run neardup hash --tsv < <(printf 'a\\b\tsome text\n')
	assert_exit OK
	assert_output --regexp '^\\nd1-simhash64-c5-fs-s0:[0-9a-f]{16}  a\\\\b$'
}

@test "hash-105: --lines names of escaped files are escaped" {
	printf 'x y\n' >'q\r'
	run neardup hash --lines 'q\r'
	assert_exit OK
	assert_output --regexp '^\\nd1-simhash64-c5-fs-s0:[0-9a-f]{16}  q\\\\r:1$'
}

# ---- threads -----------------------------------------------------------

@test "hash-110: -j 1, 2 and 4 give identical output on 200 files" {
	local i
	mkdir tree
	for ((i = 0; i < 200; i++)); do
		printf -v name 'tree/f%03d.txt' "$i"
		{
			printf 'document number %d of the test tree\n' "$i"
			repeat "word$((i % 7)) text$((i % 13)) more$((i % 3)) " $((i * 7 % 97 + 1))
			printf '\n'
		} >"$name"
	done
	neardup hash -j 1 -r tree >j1
	neardup hash -j 2 -r tree >j2
	neardup hash -j 4 -r tree >j4
	[ "$(wc -l <j1)" -eq 200 ]
	cmp j1 j2
	cmp j1 j4
	neardup hash -j 4 -a bottomk -k 16 -r tree >b4
	neardup hash -j 1 -a bottomk -k 16 -r tree >b1
	cmp b1 b4
}

@test "hash-111: -j 1, 2 and 4 give identical output on 50,000 lines" {
	awk 'BEGIN { for (i = 1; i <= 50000; i++)
	    printf "line %d says %s and %d\n", i, (i % 5 ? "hello" : ""), i * 7919 % 1000 }' >big
	neardup hash --lines -j 1 big >j1
	neardup hash --lines -j 2 big >j2
	neardup hash --lines -j 4 big >j4
	[ "$(wc -l <j1)" -eq 50000 ]
	cmp j1 j2
	cmp j1 j4
	[ "$(sed -n '50000s/.*  //p' j1)" = big:50000 ]
}

# ---- normalization -----------------------------------------------------

@test "hash-120: case is folded: HELLO World equals hello world" {
	[ "$(text_hex 'HELLO World')" = "$(text_hex 'hello world')" ]
	[ "$(text_hex 'HELLO World' -c 3)" = "$(text_hex 'hello world' -c 3)" ]
}

@test "hash-121: case folding covers Latin-1, Greek and Cyrillic" {
	[ "$(text_hex 'ÉCOLE ÇA ΑΒΓΔ ПРИВЕТ МИР')" = "$(text_hex 'école ça αβγδ привет мир')" ]
}

@test "hash-122: --keep-case makes case matter" {
	[ "$(text_hex 'HELLO World' --keep-case)" != "$(text_hex 'hello world' --keep-case)" ]
	[ "$(text_hex 'hello world' --keep-case)" = "$(text_hex 'hello world')" ]
}

@test "hash-123: punctuation separates words: hello, world equals hello world" {
	[ "$(text_hex 'hello, world')" = "$(text_hex 'hello world')" ]
	[ "$(text_hex '"hello" -- world!')" = "$(text_hex 'hello world')" ]
}

@test "hash-124: --keep-punct keeps punctuation in words" {
	[ "$(text_hex 'hello, world' --keep-punct)" != "$(text_hex 'hello world' --keep-punct)" ]
}

@test "hash-125: runs of white space are one boundary" {
	[ "$(text_hex $'hello \t\n  world\n')" = "$(text_hex 'hello world')" ]
	[ "$(text_hex $'  hello   world  ' --keep-punct)" = "$(text_hex 'hello world' --keep-punct)" ]
}

@test "hash-126: character shingles see one space per boundary run, none at the ends" {
	[ "$(text_hex '  sample -- document!! ' -c 3)" = "$(text_hex 'sample document' -c 3)" ]
	[ "$(text_hex 'sampledocument' -c 3)" != "$(text_hex 'sample document' -c 3)" ]
}

@test "hash-127: --keep-punct with -c keeps punctuation characters" {
	[ "$(text_hex 'a,b,c' -c 3 --keep-punct)" != "$(text_hex 'a b c' -c 3 --keep-punct)" ]
	[ "$(text_hex 'a,b,c' -c 3)" = "$(text_hex 'a b c' -c 3)" ]
}

@test "hash-128: U+00D7 separates words, U+00AA is a letter" {
	[ "$(text_hex 'a×b' -w 1)" = "$(text_hex 'a b' -w 1)" ]
	[ "$(text_hex 'aªb' -w 1)" != "$(text_hex 'a b' -w 1)" ]
}

@test "hash-129: with --keep-punct, U+00A0 and U+3000 separate words" {
	[ "$(text_hex $'hello\u00a0world' --keep-punct -w 1)" = "$(text_hex 'hello world' --keep-punct -w 1)" ]
	[ "$(text_hex $'hello\u3000world' --keep-punct -w 1)" = "$(text_hex 'hello world' --keep-punct -w 1)" ]
}

# ---- empty and short documents ------------------------------------------

@test "hash-130: the empty file has the documented fingerprint in every scheme" {
	local e
	e=$(fixture empty.txt)
	assert_equal "$(hash_hex "$e")" "$EMPTY_SIMHASH64"
	assert_equal "$(hash_hex -k 128 "$e")" "$EMPTY_SIMHASH128"
	assert_equal "$(hash_hex -a minhash -k 4 "$e")" "$(repeat ffffffff 4)"
	assert_equal "$(hash_hex -a minhash "$e")" "$(repeat ffffffff 128)"
	assert_equal "$(hash_hex -a oph -k 4 "$e")" "$(repeat ffffffff 4)"
	assert_equal "$(hash_hex -a oph "$e")" "$(repeat ffffffff 128)"
	assert_equal "$(hash_hex -a bottomk -k 4 "$e")" "$(repeat ffffffffffffffff 4)"
	assert_equal "$(hash_hex -a bottomk "$e")" "$(repeat ffffffffffffffff 128)"
	assert_equal "$(hash_hex -a key "$e")" "$EMPTY_KEY"
}

@test "hash-131: a document of punctuation only is empty" {
	assert_equal "$(text_hex $'!!! ... --- ?\n')" "$EMPTY_SIMHASH64"
	assert_equal "$(text_hex $'!!! ... ---\n' -a key)" "$EMPTY_KEY"
}

@test "hash-132: a document shorter than n words is not empty, in every scheme" {
	local s
	s=$(fixture short.txt)
	[ "$(hash_hex "$s")" != "$EMPTY_SIMHASH64" ]
	[ "$(hash_hex -k 128 "$s")" != "$EMPTY_SIMHASH128" ]
	[ "$(hash_hex -a minhash -k 4 "$s")" != "$(repeat ffffffff 4)" ]
	[ "$(hash_hex -a oph -k 4 "$s")" != "$(repeat ffffffff 4)" ]
	[ "$(hash_hex -a bottomk -k 4 "$s")" != "$(repeat ffffffffffffffff 4)" ]
	[ "$(hash_hex -a key "$s")" != "$EMPTY_KEY" ]
	[ "$(text_hex 'ab' -c 5)" != "$EMPTY_SIMHASH64" ]
}

@test "hash-133: a short document's one shingle is all of it" {
	# "hello world" with -w 3 and with -w 2 has the same single shingle.
	assert_equal "$(text_hex 'hello world' -w 3)" "$(text_hex 'hello world' -w 2)"
	assert_equal "$(text_hex 'abc' -c 5)" "$(text_hex 'abc' -c 3)"
}

# ---- invalid UTF-8 and identity ---------------------------------------

@test "hash-140: invalid UTF-8 does not crash and is deterministic" {
	local f a
	f=$(fixture invalid-utf8.txt)
	for a in simhash minhash bottomk oph key; do
		run --separate-stderr neardup hash -a "$a" "$f"
		assert_exit OK
		assert_stderr_empty
		assert_output "$(neardup hash -a "$a" "$f")"
		run --separate-stderr neardup hash -a "$a" -c 3 "$f"
		assert_exit OK
	done
}

@test "hash-141: an invalid byte counts as the letter U+FFFD" {
	[ "$(text_hex $'a\xffb c' -c 3)" = "$(text_hex $'a\uFFFDb c' -c 3)" ]
	[ "$(text_hex $'\xff')" != "$EMPTY_SIMHASH64" ]
	[ "$(text_hex $'x\xffy')" != "$(text_hex 'x y')" ]
}

@test "hash-142: UTF-8 text hashes, and differs from its ASCII transliteration" {
	run --separate-stderr neardup hash "$(fixture utf8.txt)"
	assert_exit OK
	assert_stderr_empty
	[ "$(text_hex 'привет мир')" != "$(text_hex 'privet mir')" ]
}

@test "hash-143: identical texts give identical fingerprints" {
	cp "$(fixture lighthouse.txt)" copy.txt
	local a
	for a in simhash minhash bottomk oph key; do
		run neardup hash -a "$a" "$(fixture lighthouse.txt)" copy.txt
		assert_equal "$(fp_hex "${lines[0]}")" "$(fp_hex "${lines[1]}")"
		assert_equal "$(fp_scheme "${lines[0]}")" "$(fp_scheme "${lines[1]}")"
	done
}

@test "hash-144: a near copy is closer in Hamming distance than an unrelated text" {
	local a n u near far
	a=$(hash_hex "$(fixture lighthouse.txt)")
	n=$(hash_hex "$(fixture lighthouse-near.txt)")
	u=$(hash_hex "$(fixture orchard.txt)")
	near=$(hamming "$a" "$n")
	far=$(hamming "$a" "$u")
	echo "near $near far $far"
	[ "$near" -lt "$far" ]
	[ "$near" -le 12 ]
	[ "$a" != "$n" ]
}

@test "hash-145: a near copy agrees at more minhash positions than an unrelated text" {
	local a n u i same_n=0 same_u=0
	a=$(hash_hex -a minhash -k 64 "$(fixture lighthouse.txt)")
	n=$(hash_hex -a minhash -k 64 "$(fixture lighthouse-near.txt)")
	u=$(hash_hex -a minhash -k 64 "$(fixture orchard.txt)")
	for ((i = 0; i < 64; i++)); do
		[ "${a:i*8:8}" = "${n:i*8:8}" ] && same_n=$((same_n + 1))
		[ "${a:i*8:8}" = "${u:i*8:8}" ] && same_u=$((same_u + 1))
	done
	echo "near $same_n unrelated $same_u"
	[ "$same_n" -gt 32 ]
	[ "$same_u" -lt 8 ]
}

# ---- errors ------------------------------------------------------------

@test "hash-150: a missing file is reported, the others hashed, exit 2" {
	local a b
	a=$(fixture short.txt) b=$(fixture orchard.txt)
	run --separate-stderr neardup hash "$a" nosuch "$b"
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: nosuch: No such file or directory'
	assert_output "$(neardup hash "$a" "$b")"
}

@test "hash-151: a directory without -r is reported, pointing to -r, exit 2" {
	mkdir dir
	run --separate-stderr neardup hash dir "$(fixture short.txt)"
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: dir: is a directory: -r walks it'
	assert_output "$(neardup hash "$(fixture short.txt)")"
}

@test "hash-152: an unreadable file is reported, the others hashed, exit 2" {
	need_drop_dac
	echo 'secret words here' >locked
	chmod 000 locked
	run --separate-stderr drop_dac "$NEARDUP" hash locked "$(fixture short.txt)"
	chmod 600 locked
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: locked: Permission denied'
	assert_output "$(neardup hash "$(fixture short.txt)")"
}

@test "hash-153: -k 0 is a bad option value" {
	bad_option -k 0
	assert_stderr_line '^neardup: -k: 0.*too small'
}

@test "hash-154: -k 63 with simhash is a bad option value" {
	bad_option -k 63
	assert_stderr_line '^neardup: -k: 63'
	bad_option -a simhash -k 256
}

@test "hash-155: -k 99999999 is a bad option value" {
	bad_option -a minhash -k 99999999
	assert_stderr_line '^neardup: -k: 99999999.*too large'
	bad_option -a bottomk -k 4097
}

@test "hash-156: -w 0 is a bad option value" {
	bad_option -w 0
	assert_stderr_line '^neardup: -w: 0'
}

@test "hash-157: -w -1 is a bad option value" {
	bad_option -w -1
	assert_stderr_line '^neardup: -w: -1'
}

@test "hash-158: -c 65 is a bad option value" {
	bad_option -c 65
	assert_stderr_line '^neardup: -c: 65.*too large'
}

@test "hash-159: -a nosuch is a bad option value" {
	bad_option -a nosuch
	assert_stderr_line '^neardup: -a: nosuch'
}

@test "hash-160: -j 0 is a bad option value" {
	bad_option -j 0
	assert_stderr_line '^neardup: -j: 0'
	bad_option -j 257
}

@test "hash-161: -s -1 is a bad option value" {
	bad_option -s -1
	assert_stderr_line '^neardup: -s: -1'
}

@test "hash-162: -s 99999999999999999999 overflows: a bad option value" {
	bad_option -s 99999999999999999999
	assert_stderr_line '^neardup: -s: 99999999999999999999'
	bad_option -s 9223372036854775808
}

@test "hash-163: a number with trailing junk is a bad option value" {
	bad_option -k 12x
	bad_option -w ''
}

@test "hash-164: an unknown long option is a usage error" {
	bad_option --no-such-option
	assert_stderr_line '^neardup: .*no-such-option'
}

@test "hash-165: an unknown short option is a usage error" {
	bad_option -Q
	assert_stderr_line "^neardup: .*Q"
}

@test "hash-166: --lines with --tsv is a usage error" {
	bad_option --lines --tsv
	bad_option --tsv --lines
}

@test "hash-167: --weights with minhash or character shingles is an error" {
	printf 'keeper\t2\n' >w
	bad_option --weights=w -a minhash
	bad_option --weights=w -c 5
	bad_option --weights=w --lines
}

@test "hash-168: --weights: a malformed line gives FILE:LINE, exit 2" {
	printf 'keeper\t2\nno weight here\n' >w
	run --separate-stderr neardup hash --weights=w "$(fixture lighthouse.txt)"
	assert_exit TROUBLE
	assert_output ''
	assert_stderr_line '^neardup: w:2: '
}

@test "hash-169: --weights: a negative, NaN, infinite or too large weight is an error" {
	local bad
	for bad in -1 nan inf 1e999 1e308 1.000001e12 abc ''; do
		printf 'keeper\t2\nsea\t%s\n' "$bad" >w
		run --separate-stderr neardup hash --weights=w "$(fixture lighthouse.txt)"
		assert_exit TROUBLE
		assert_output ''
		assert_stderr_line '^neardup: w:2: '
	done
}

@test "hash-179: --weights: the largest weights give a fingerprint, not the empty document's" {
	printf 'sea\t1e12\nkeeper\t0\n' >w
	run --separate-stderr neardup hash --weights=w "$(fixture lighthouse.txt)" /dev/null
	assert_exit OK
	assert_stderr_empty
	[[ "${lines[0]%% *}" != "${lines[1]%% *}" ]]
}

@test "hash-170: --weights: a missing file is an error" {
	run --separate-stderr neardup hash --weights=nofile "$(fixture lighthouse.txt)"
	assert_exit TROUBLE
	assert_output ''
	assert_stderr_line '^neardup: nofile: No such file or directory$'
}

@test "hash-171: a write error on stdout exits 2 and names stdout" {
	[ -w /dev/full ] || skip "no /dev/full"
	run --separate-stderr bash -c '"$NEARDUP" hash "$1" >/dev/full' _ "$(fixture lighthouse.txt)"
	assert_exit TROUBLE
	assert_stderr_line '^neardup: stdout: No space left on device$'
}

@test "hash-172: a write error on stdout after much output exits 2" {
	[ -w /dev/full ] || skip "no /dev/full"
	awk 'BEGIN { for (i = 0; i < 20000; i++) print "line", i }' >big
	assert_write_error hash --lines big
}

@test "hash-173: hash | head -1 ends quietly" {
	awk 'BEGIN { for (i = 0; i < 200000; i++) print "line number", i }' >big
	run --separate-stderr bash -c '"$NEARDUP" hash --lines big | head -1'
	assert_stderr_empty
	assert_output --regexp '^nd1-simhash64-c5-fs-s0:[0-9a-f]{16}  big:1$'
}

@test "hash-174: -h prints the usage on stdout and exits 0" {
	assert_usage_on_stdout hash
}

@test "hash-175: an empty file name is reported, exit 2" {
	run --separate-stderr neardup hash '' "$(fixture short.txt)"
	assert_exit TROUBLE
	assert_stderr_line '^neardup: : No such file or directory$'
	assert_output "$(neardup hash "$(fixture short.txt)")"
}

@test "hash-176: minhash vector and scalar loops give identical lines" {
	for f in "$(fixture lighthouse.txt)" "$(fixture utf8.txt)" "$(fixture orchard.txt)"; do
		cat "$f"
	done > all.txt
	for k in 7 8 13 16 17 40 128; do
		run "$NEARDUP" hash -a minhash -k "$k" all.txt "$(fixture lighthouse-near.txt)"
		assert_success
		vec=$output
		NEARDUP_NO_AVX2=1 run "$NEARDUP" hash -a minhash -k "$k" all.txt "$(fixture lighthouse-near.txt)"
		assert_success
		assert_output "$vec"
		NEARDUP_NO_AVX512=1 run "$NEARDUP" hash -a minhash -k "$k" all.txt "$(fixture lighthouse-near.txt)"
		assert_success
		assert_output "$vec"
	done
}

@test "hash-177: character n-grams: AVX-512 and portable block scanners agree, with and without VBMI2 and gathers" {
	for f in "$(fixture lighthouse.txt)" "$(fixture essay.txt)" "$(fixture utf8.txt)" "$(fixture source.txt)"; do
		cat "$f" "$f"
	done > all.txt
	for opts in "-c 5" "-c 1" "-c 3 --keep-punct" "-c 7 --keep-case" "-a oph -c 4"; do
		# shellcheck disable=SC2086
		run "$NEARDUP" hash $opts all.txt "$(fixture lighthouse-near.txt)"
		assert_success
		vec=$output
		# shellcheck disable=SC2086
		NEARDUP_NO_AVX512=1 run "$NEARDUP" hash $opts all.txt "$(fixture lighthouse-near.txt)"
		assert_success
		assert_output "$vec"
		# shellcheck disable=SC2086
		NEARDUP_NO_VBMI2=1 run "$NEARDUP" hash $opts all.txt "$(fixture lighthouse-near.txt)"
		assert_success
		assert_output "$vec"
		for g in 0 1; do
			# shellcheck disable=SC2086
			NEARDUP_GATHER=$g run "$NEARDUP" hash $opts all.txt "$(fixture lighthouse-near.txt)"
			assert_success
			assert_output "$vec"
		done
	done
}

# all.txt, four fixtures twice each, and lengths.txt, words of every length
# from 1 to 130 bytes in mixed case, so that all of XXH3's length ranges
# meet every block boundary and every vector lane: for the tests that the
# word scanners and hashes of each processor agree.
word_inputs() {
	for f in "$(fixture lighthouse.txt)" "$(fixture essay.txt)" "$(fixture utf8.txt)" "$(fixture source.txt)"; do
		cat "$f" "$f"
	done > all.txt
	awk 'BEGIN { for (i = 0; i < 3000; i++) { n = 1 + (i * 7) % 130; w = "";
		for (j = 0; j < n; j++) w = w substr("aBcDeFgHiJ0123", 1 + (i + j) % 14, 1);
		printf "%s%s", w, i % 11 ? " " : ",\n" } }' > lengths.txt
}

@test "hash-178: words: the AVX-512 scanners, with and without VBMI2 and gathers, and the portable ones agree" {
	word_inputs
	for opts in "-a bottomk -k 4096" "-a bottomk -k 4096 -w 1" "-a bottomk -k 4096 -w 64" \
	    "-a bottomk -k 4096 --keep-punct --keep-case -w 2" "-a minhash -k 64 -w 5" ""; do
		# shellcheck disable=SC2086
		run "$NEARDUP" hash $opts all.txt lengths.txt "$(fixture lighthouse-near.txt)"
		assert_success
		vec=$output
		# shellcheck disable=SC2086
		NEARDUP_NO_AVX512=1 run "$NEARDUP" hash $opts all.txt lengths.txt "$(fixture lighthouse-near.txt)"
		assert_success
		assert_output "$vec"
		# shellcheck disable=SC2086
		NEARDUP_NO_VBMI2=1 run "$NEARDUP" hash $opts all.txt lengths.txt "$(fixture lighthouse-near.txt)"
		assert_success
		assert_output "$vec"
		for g in 0 1; do
			# shellcheck disable=SC2086
			NEARDUP_GATHER=$g run "$NEARDUP" hash $opts all.txt lengths.txt "$(fixture lighthouse-near.txt)"
			assert_success
			assert_output "$vec"
			# shellcheck disable=SC2086
			NEARDUP_GATHER=$g NEARDUP_NO_VBMI2=1 run "$NEARDUP" hash $opts all.txt lengths.txt "$(fixture lighthouse-near.txt)"
			assert_success
			assert_output "$vec"
		done
	done
}

@test "hash-188: words: the AVX2 batch hash and the word-by-word hash agree" {
	word_inputs
	for opts in "-a bottomk -k 4096" "-a bottomk -k 4096 -w 1" "-a bottomk -k 4096 -w 64" \
	    "-a bottomk -k 4096 --keep-punct --keep-case -w 2" "-a oph -k 128 -s 7" ""; do
		# shellcheck disable=SC2086
		NEARDUP_NO_AVX512=1 run "$NEARDUP" hash $opts all.txt lengths.txt "$(fixture lighthouse-near.txt)"
		assert_success
		avx2=$output
		# shellcheck disable=SC2086
		NEARDUP_NO_AVX512=1 NEARDUP_NO_AVX2=1 run "$NEARDUP" hash $opts all.txt lengths.txt "$(fixture lighthouse-near.txt)"
		assert_success
		assert_output "$avx2"
	done
}

@test "hash-180: -L without -r is a usage error, as for cluster and near" {
	run --separate-stderr neardup hash -L "$(fixture lighthouse.txt)"
	assert_exit TROUBLE
	assert_output ''
	assert_stderr_line '^neardup: -L applies to -r$'
	assert_stderr_line '^usage: neardup hash '
}

@test "hash-181: --lines on a live stream: each line's fingerprint comes out as it comes" {
	mkfifo in
	{ echo 'the first line of a live log'; sleep 5; echo 'a second line'; } >in &
	neardup hash --lines <in >out &
	for i in $(seq 1 40); do [ -s out ] && break; sleep 0.1; done
	assert_equal "$(wc -l <out)" 1
	wait
	assert_equal "$(wc -l <out)" 2
	assert_equal "$(cut -d' ' -f3 out)" $'-:1\n-:2'
}

@test "hash-182: --weights: a weight is decimal, as -t is: hexadecimal and blanks are errors" {
	printf 'alpha beta gamma delta\n' >a.txt
	for w in '0x10' ' 1' '1 ' 'inf' '0x1p-1'; do
		printf 'alpha\t%s\n' "$w" >w.tsv
		run --separate-stderr neardup hash --weights=w.tsv a.txt
		assert_exit TROUBLE
		assert_output ''
		assert_equal "$stderr" 'neardup: w.tsv:1: weight is not a number from 0 to 1e12'
	done
	for w in 0.5 2e3 7 .25; do
		printf 'alpha\t%s\n' "$w" >w.tsv
		run --separate-stderr neardup hash --weights=w.tsv a.txt
		assert_exit OK
	done
}

@test "hash-183: the file standard output writes to is not read: -r over a tree that holds it, or >>" {
	mkdir tr
	for i in 1 2 3 4 5 6 7 8; do echo "document $i of the tree" >"tr/f$i"; done
	neardup hash -r tr >want
	# Read, it would be hashed half written: its line would depend on -j.
	for j in 1 8; do
		rm -f tr/zz.fp
		run -2 sh -c "\"\$NEARDUP\" hash -j $j -r tr >tr/zz.fp"
		assert_output 'neardup: tr/zz.fp: input file is also the output'
		run cat tr/zz.fp
		assert_output "$(cat want)"
	done
	# With >>, records read back as they are written would never end.
	printf 'one line\nanother line\n' >rec
	run -2 timeout 10 sh -c '"$NEARDUP" hash --lines rec >>rec'
	assert_output 'neardup: rec: input file is also the output'
	run -2 timeout 10 sh -c '"$NEARDUP" hash --lines - <rec >>rec'
	assert_output 'neardup: -: input file is also the output'
	assert_equal "$(wc -l <rec)" 2
	# Other files still go to it; /dev/null and pipes are not files.
	run -0 sh -c '"$NEARDUP" hash tr/f1 >>rec'
	run -0 sh -c '"$NEARDUP" hash -r tr | cat >tr/piped'
}

@test "hash-184: a binary file (a NUL in its first 32 KiB) is skipped with a note, exit 0; --binary hashes it" {
	printf 'alpha\0beta gamma delta' >nul.bin
	printf 'alpha beta gamma delta' >sp.txt
	cp /bin/sh exe	# an executable: not $NEARDUP, a script under an emulator
	run --separate-stderr neardup hash exe nul.bin sp.txt
	assert_exit OK
	assert_equal "${#lines[@]}" 1
	assert_equal "${lines[0]##*  }" sp.txt
	assert_equal "$stderr" "$(printf '%s\n' \
	    'neardup: exe: binary file skipped' \
	    'neardup: nul.bin: binary file skipped')"
	# With --binary, read as ever: a NUL separates words as a blank does.
	run --separate-stderr neardup hash --binary exe nul.bin sp.txt
	assert_exit OK
	assert_stderr_empty
	assert_equal "${#lines[@]}" 3
	assert_equal "$(fp_hex "${lines[1]}")" "$(fp_hex "${lines[2]}")"
	# Standard input too, its first bytes in several reads from a pipe.
	run --separate-stderr sh -c '{ printf "one two three "; sleep 0.2;
	    printf "four\0five"; } | "$NEARDUP" hash'
	assert_exit OK
	assert_output ''
	assert_equal "$stderr" 'neardup: -: binary file skipped'
	# A NUL after the first 32 KiB is in text; one at its last byte is not.
	{ repeat 'word ' 6553; printf '   \0 tail'; } >late.txt
	{ repeat 'word ' 6553; printf '  \0 tail'; } >edge.bin
	run --separate-stderr neardup hash late.txt edge.bin
	assert_exit OK
	assert_equal "${#lines[@]}" 1
	assert_equal "${lines[0]##*  }" late.txt
	assert_equal "$stderr" 'neardup: edge.bin: binary file skipped'
	# Bytes that are not UTF-8 (Latin-1 text) are text.
	run --separate-stderr neardup hash "$(fixture invalid-utf8.txt)"
	assert_exit OK
	assert_stderr_empty
	# A note is not an error: a real one still makes the status 2.
	run --separate-stderr neardup hash -r exe missing sp.txt
	assert_exit TROUBLE
	assert_equal "${#lines[@]}" 1
	# Records are hashed as they are: --binary has no say there.
	run --separate-stderr neardup hash --lines nul.bin
	assert_exit OK
	assert_stderr_empty
	assert_equal "${#lines[@]}" 1
	run -2 --separate-stderr neardup hash --binary --tsv nul.bin
	assert_output ''
	assert_stderr_line 'applies to whole documents'
}

@test "hash-185: under -r, hidden files and directories are passed over unless --hidden; operands never are" {
	mkdir -p t/.git/objects t/.cache t/sub .conf/d
	for f in t/a t/.git/objects/x t/.cache/y t/.hid t/sub/b t/sub/.z \
	    .conf/d/c; do
		echo "text of $f" >"$f"
	done
	run --separate-stderr neardup hash -r t
	assert_exit OK
	assert_stderr_empty
	assert_equal "$(printf '%s\n' "${lines[@]##*  }")" "$(printf '%s\n' \
	    t/a t/sub/b)"
	run --separate-stderr neardup hash --hidden -r t
	assert_exit OK
	assert_equal "$(printf '%s\n' "${lines[@]##*  }")" "$(printf '%s\n' \
	    t/.cache/y t/.git/objects/x t/.hid t/a t/sub/.z t/sub/b)"
	# What was named is walked: a hidden directory, ".", a path through one.
	run -0 neardup hash -r .conf
	assert_output --partial '  .conf/d/c'
	cd t
	run -0 neardup hash -r .
	assert_equal "$(printf '%s\n' "${lines[@]##*  }")" "$(printf '%s\n' \
	    ./a ./sub/b)"
	run -0 neardup hash -r "$BATS_TEST_TMPDIR/.conf"
	assert_equal "${#lines[@]}" 1
	run -0 neardup hash .hid
	assert_equal "${#lines[@]}" 1
	# --hidden shapes the walk of -r.
	run -2 --separate-stderr neardup hash --hidden a
	assert_equal "${stderr%%$'\n'*}" 'neardup: --hidden and --exclude-dir apply to -r'
}

@test "hash-186: --exclude and --exclude-dir skip base names, as GNU grep's; --exclude skips operands too" {
	mkdir -p t/sub/deep t/keep/sub t/obj
	for f in t/a.txt t/a.o t/sub/b.txt t/sub/deep/c.txt t/keep/d.txt \
	    t/keep/sub/e.txt t/obj/f.txt; do
		echo "text of $f" >"$f"
	done
	run -0 --separate-stderr neardup hash -r --exclude='*.o' t
	assert_equal "$(printf '%s\n' "${lines[@]##*  }")" "$(printf '%s\n' \
	    t/a.txt t/keep/d.txt t/keep/sub/e.txt t/obj/f.txt t/sub/b.txt \
	    t/sub/deep/c.txt)"
	assert_stderr_empty
	# Repeatable; a directory's base name at any depth; not the operand.
	run -0 neardup hash -r --exclude-dir=sub --exclude-dir='o?j' \
	    --exclude='*.o' t
	assert_equal "$(printf '%s\n' "${lines[@]##*  }")" "$(printf '%s\n' \
	    t/a.txt t/keep/d.txt)"
	run -0 neardup hash -r --exclude-dir=sub t/sub
	assert_equal "${#lines[@]}" 2
	# --exclude names files, not directories; --exclude-dir, directories.
	run -0 neardup hash -r --exclude=sub --exclude-dir='*.txt' t
	assert_equal "${#lines[@]}" 7
	# An operand: its whole name or a part after a "/", silently.
	run -0 --separate-stderr neardup hash --exclude='*.o' t/a.o t/a.txt
	assert_equal "${lines[*]##*  }" t/a.txt
	assert_stderr_empty
	run -0 neardup hash --exclude='sub/*.txt' t/sub/b.txt t/a.txt
	assert_equal "${lines[*]##*  }" t/a.txt
	run -0 neardup hash --exclude='t/a.*' t/a.o t/sub/b.txt
	assert_equal "${lines[*]##*  }" t/sub/b.txt
	printf 't/a.o\0t/a.txt\0' >list
	run -0 neardup hash --exclude='*.o' --files0-from=list
	assert_equal "${lines[*]##*  }" t/a.txt
	# Standard input has no name to match.
	run -0 neardup hash --exclude='*' - <t/a.txt
	assert_equal "${#lines[@]}" 1
	run -2 --separate-stderr neardup hash --exclude-dir=sub t/a.txt
	assert_equal "${stderr%%$'\n'*}" 'neardup: --hidden and --exclude-dir apply to -r'
}

@test "hash-187: -r with no operand walks the working directory, as hash -r . does" {
	# A directory of its own: run keeps its files in the test's.
	mkdir w && cd w || return
	mkdir d
	printf 'one two three\n' >d/a
	printf 'four five six\n' >b
	run -0 --separate-stderr neardup hash -r
	assert_stderr_empty
	local here=$output
	run -0 neardup hash -r .
	assert_equal "$here" "$output"
	assert_equal "${#lines[@]}" 2
	# Without -r, standard input; with --files0-from, the list.
	run -0 bash -c 'printf "one two three\n" | "$NEARDUP" hash'
	assert_output --regexp '  -$'
	run -0 bash -c 'printf "b\0" | "$NEARDUP" hash -r --files0-from=-'
	assert_output --regexp '  b$'
}
