#!/usr/bin/env bats
#
# neardup compare: exact and estimated figures, the threshold and the exit
# status, output formats, fingerprint operands (-F), shared passages and
# errors.

load helper

# The compare usage's first line, as printed after every bad option.
USAGE_RE='^usage: neardup compare '

# The fields of --format=json and of the tsv header, in order.
FIELDS='a b scheme jaccard containment_a_in_b containment_b_in_a shared size_a size_b est_jaccard est_containment_a_in_b est_containment_b_in_a distance bits cosine keys_equal threshold similar'

# quarter: files A (5 words, 3 word 3-grams) and B (14 words, 12 word
# 3-grams) where A is the start of B: resemblance 3/12 = 0.25 exactly,
# containment of A in B 1, of B in A 0.25.
quarter() {
	printf 'one two three four five\n' >A
	printf 'one two three four five six seven\neight nine ten eleven twelve thirteen fourteen\n' >B
}

# disjoint: files C and D without a word in common.
disjoint() {
	printf 'red green blue yellow purple orange\n' >C
	printf 'north south east west up down\n' >D
}

# json ARGS...: `neardup compare --format=json ARGS` into $output (run).
json() {
	run --separate-stderr neardup compare --format=json "$@"
}


# trouble ARGS...: `neardup compare ARGS` exits 2, prints nothing on stdout
# and a "neardup: " message first on stderr.
trouble() {
	run --separate-stderr neardup compare "$@"
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

# ---- exact figures and the exit status ---------------------------------

@test "compare-001: identical files: resemblance 1, exit 0" {
	local f
	f=$(fixture lighthouse.txt)
	run --separate-stderr neardup compare "$f" "$f"
	assert_exit OK
	assert_stderr_empty
	assert_line --regexp '^resemblance +1\.0000  \(([0-9]+) shared of \1\)$'
	assert_line 'containment a in b    1.0000'
	assert_line 'containment b in a    1.0000'
	assert_line 'similar (threshold 0.5)'
}

@test "compare-002: disjoint files: resemblance 0, exit 1" {
	disjoint
	run --separate-stderr neardup compare C D
	assert_exit DIFFER
	assert_stderr_empty
	assert_line --regexp '^resemblance +0\.0000  \(0 shared of 8\)$'
	assert_line 'not similar (threshold 0.5)'
	json C D
	assert_exit DIFFER
	jq_true '.jaccard == 0 and .shared == 0 and .size_a == 4 and .size_b == 4 and .similar == false'
}

@test "compare-003: a file contained in a larger one: containment 1 one way, 0.25 the other" {
	quarter
	json A B
	assert_exit DIFFER
	assert_stderr_empty
	jq_true '.containment_a_in_b == 1 and .containment_b_in_a == 0.25'
	jq_true '.jaccard == 0.25 and .shared == 3 and .size_a == 3 and .size_b == 12'
	json B A
	jq_true '.containment_a_in_b == 0.25 and .containment_b_in_a == 1'
	jq_true '.size_a == 12 and .size_b == 3'
}

@test "compare-004: the text report names both files and the exact counts" {
	quarter
	run --separate-stderr neardup compare A B
	assert_exit DIFFER
	assert_line --index 0 'a: A (3 shingles)'
	assert_line --index 1 'b: B (12 shingles)'
	assert_line --index 2 'resemblance           0.2500  (3 shared of 12)'
	assert_line --index 3 'containment a in b    1.0000'
	assert_line --index 4 'containment b in a    0.2500'
	assert_line --index 5 'estimated by nd1-simhash64-w3-fs-s0:'
	assert_line --index 6 --regexp '^  [0-9]+ of 64 bits differ, cosine -?[01]\.[0-9]{4}$'
	assert_line --index 7 'not similar (threshold 0.5)'
	assert_equal "${#lines[@]}" 8
}

@test "compare-005: the default threshold is 0.5, inclusive" {
	printf 'a b c d\n' >half
	printf 'a b c d e f g h\n' >whole
	printf 'a b c\n' >three
	printf 'a b c d e f g\n' >seven
	# 4 shared of 8: exactly 0.5.
	run neardup compare -w 1 half whole
	assert_exit OK
	# 3 shared of 7: below 0.5.
	run neardup compare -w 1 three seven
	assert_exit DIFFER
	json -w 1 half whole
	jq_true '.threshold == 0.5 and .jaccard == 0.5 and .similar == true'
}

@test "compare-006: -t equal to the exact resemblance passes, just above fails" {
	quarter
	run neardup compare -t 0.25 A B
	assert_exit OK
	assert_line 'similar (threshold 0.25)'
	run neardup compare -t 0.2500001 A B
	assert_exit DIFFER
	assert_line --regexp '^not similar '
	run neardup compare --threshold=0.25 A B
	assert_exit OK
	# The threshold reads back as given: 0.250000 would match the
	# jaccard beside "similar": false.
	json -t 0.2500001 A B
	jq_true '.threshold == 0.2500001 and .jaccard == 0.25 and .similar == false'
}

@test "compare-007: -t at the double nearest 1/3 passes 1/3, the next double fails" {
	# 200000 and 200000 distinct words, 100000 shared: resemblance 1/3.
	seq 1 200000 >s1
	seq 100001 300000 >s2
	run neardup compare -w 1 -t 0.3333333333333333 s1 s2
	assert_exit OK
	run neardup compare -w 1 -t 0.33333333333333337 s1 s2
	assert_exit DIFFER
}

@test "compare-008: -t 0 is always similar" {
	disjoint
	run neardup compare -t 0 C D
	assert_exit OK
	assert_line 'similar (threshold 0)'
	run neardup compare -t 0 --containment C D
	assert_exit OK
	run neardup compare -t 0 /dev/null C
	assert_exit OK
}

@test "compare-009: -t 1 passes only identical shingle sets" {
	local f g
	f=$(fixture lighthouse.txt)
	g=$(fixture lighthouse-near.txt)
	run neardup compare -t 1 "$f" "$f"
	assert_exit OK
	run neardup compare -t 1 "$f" "$g"
	assert_exit DIFFER
	quarter
	run neardup compare -t 1 A B
	assert_exit DIFFER
	# Case is folded: the same words in another case are the same set.
	tr a-z A-Z <"$f" >upper
	run neardup compare -t 1 "$f" upper
	assert_exit OK
}

@test "compare-010: -q prints nothing and keeps the exit status" {
	local f
	f=$(fixture lighthouse.txt)
	disjoint
	run --separate-stderr neardup compare -q "$f" "$f"
	assert_exit OK
	assert_output ''
	assert_stderr_empty
	run --separate-stderr neardup compare -q C D
	assert_exit DIFFER
	assert_output ''
	assert_stderr_empty
	run --separate-stderr neardup compare --quiet -t 0 C D
	assert_exit OK
	assert_output ''
	run --separate-stderr neardup compare -q --format=json C D
	assert_exit DIFFER
	assert_output ''
	# Trouble is still reported.
	run --separate-stderr neardup compare -q C nosuch
	assert_exit TROUBLE
	assert_output ''
	assert_stderr_line '^neardup: nosuch: '
}

@test "compare-011: --containment thresholds the larger containment" {
	quarter
	run neardup compare -t 0.9 A B
	assert_exit DIFFER
	run neardup compare --containment -t 0.9 A B
	assert_exit OK
	# Either order: the larger of the two containments.
	run neardup compare --containment -t 0.9 B A
	assert_exit OK
	run neardup compare --containment -t 1 B A
	assert_exit OK
	json --containment -t 0.9 B A
	jq_true '.similar == true and .containment_a_in_b == 0.25'
	disjoint
	run neardup compare --containment C D
	assert_exit DIFFER
}

@test "compare-012: empty documents: resemblance 1 for two, containment 1 for an empty A" {
	local e
	e=$(fixture empty.txt)
	json "$e" /dev/null
	assert_exit OK
	jq_true '.jaccard == 1 and .containment_a_in_b == 1 and .containment_b_in_a == 1'
	jq_true '.shared == 0 and .size_a == 0 and .size_b == 0'
	quarter
	json "$e" A
	assert_exit DIFFER
	jq_true '.jaccard == 0 and .containment_a_in_b == 1 and .containment_b_in_a == 0'
	run neardup compare --containment -t 1 "$e" A
	assert_exit OK
}

@test "compare-013: shingling options are those of hash, scheme and all" {
	local f g o s
	f=$(fixture lighthouse.txt)
	g=$(fixture lighthouse-near.txt)
	for o in '-c 4' '-w 2' '-s 42' '--keep-case' '--keep-punct' '--multiset' \
	    '-a minhash -k 16' '-a oph -k 8 -c 5' '-a bottomk -k 32' '-a key -k 2' \
	    '-a simhash -k 128'; do
		# shellcheck disable=SC2086
		s=$(fp_scheme "$(neardup hash $o "$f")")
		# shellcheck disable=SC2086
		json $o "$f" "$g"
		assert_exit OK
		jq_true ".scheme == \"$s\""
	done
	printf 'keeper\t4\nlighthouse\t0.5\n' >w
	s=$(fp_scheme "$(neardup hash --weights=w "$f")")
	json --weights=w "$f" "$g"
	jq_true ".scheme == \"$s\""
	[[ $s == *-W* ]] || fail "no weights digest in $s"
}

@test "compare-014: the shingling options change the exact figures" {
	printf 'Alpha beta Gamma delta\n' >x
	printf 'alpha Beta gamma Delta\n' >y
	json -w 1 x y
	jq_true '.jaccard == 1'
	json -w 1 --keep-case x y
	jq_true '.jaccard == 0'
	printf 'one two three four\n' >once
	printf 'one two three four one two three four\n' >twice
	json -w 1 once twice
	jq_true '.jaccard == 1 and .size_b == 4'
	json -w 1 --multiset once twice
	jq_true '.jaccard == 0.5 and .size_b == 8 and .containment_a_in_b == 1'
	printf 'x-ray cat\n' >p1
	printf 'x ray cat\n' >p2
	json -w 1 p1 p2
	jq_true '.jaccard == 1'
	json -w 1 --keep-punct p1 p2
	jq_true '.shared == 1 and .size_a == 2 and .size_b == 3'
	json -c 3 p1 p2
	jq_true '.scheme == "nd1-simhash64-c3-fs-s0" and .jaccard == 1'
}

@test "compare-015: exact counts survive many doublings of the set" {
	seq 1 200000 >s1
	seq 100001 300000 >s2
	json -w 1 s1 s2
	assert_exit DIFFER
	jq_true '.shared == 100000 and .size_a == 200000 and .size_b == 200000'
	jq_true '.containment_a_in_b == 0.5 and .containment_b_in_a == 0.5'
	# Repeats count once, whatever their number.
	{ cat s1; cat s1; } >s11
	json -w 1 s1 s11
	assert_exit OK
	jq_true '.jaccard == 1 and .size_b == 200000'
}

# ---- formats -----------------------------------------------------------

@test "compare-020: --format=tsv: a header of the named fields and one row" {
	local fa fb
	quarter
	run --separate-stderr neardup compare --format=tsv A B
	assert_exit DIFFER
	assert_stderr_empty
	assert_equal "${#lines[@]}" 2
	assert_line --index 0 "$(tr ' ' '\t' <<<"$FIELDS")"
	fa=$(awk -F '\t' 'NR == 1 { print NF }' <<<"$output")
	fb=$(awk -F '\t' 'NR == 2 { print NF }' <<<"$output")
	assert_equal "$fa" 18
	assert_equal "$fb" "$fa"
	# Each value under its name.
	run awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	    { print $col["a"], $col["b"], $col["jaccard"], $col["containment_a_in_b"],
	    $col["shared"], $col["size_a"], $col["size_b"], $col["est_jaccard"] "|",
	    $col["bits"], $col["keys_equal"] "|", $col["threshold"], $col["similar"] }' \
	    <<<"$output"
	assert_output 'A B 0.250000 1.000000 3 3 12 | 64 | 0.500000 false'
}

@test "compare-021: --format=json has every named field, in order" {
	local f
	f=$(fixture lighthouse.txt)
	json "$f" "$(fixture lighthouse-near.txt)"
	assert_exit OK
	assert_stderr_empty
	assert_equal "${#lines[@]}" 1
	run jq -r 'keys_unsorted | join(" ")' <<<"$output"
	assert_success
	assert_output "$FIELDS"
}

@test "compare-022: json: simhash gives distance, bits, cosine and nulls elsewhere" {
	json "$(fixture lighthouse.txt)" "$(fixture lighthouse-near.txt)"
	jq_true '.scheme == "nd1-simhash64-w3-fs-s0"'
	jq_true '.est_jaccard == null and .est_containment_a_in_b == null and .est_containment_b_in_a == null and .keys_equal == null'
	jq_true '(.distance | type) == "number" and .bits == 64 and (.cosine | type) == "number"'
	jq_true '(.jaccard | type) == "number" and (.shared | type) == "number"'
}

@test "compare-023: simhash cosine is cos(pi d / bits)" {
	local L=/usr/share/common-licenses d c
	[ -r "$L/LGPL-2" ] && [ -r "$L/GPL-2" ] || skip "no $L"
	json "$L/LGPL-2" "$L/GPL-2"
	d=$(jq .distance <<<"$output")
	c=$(jq .cosine <<<"$output")
	[ "$d" -gt 0 ] || fail "distance $d"
	# Six decimals, cut: within 1e-6 below (or above, below zero).
	run awk -v d="$d" -v c="$c" 'BEGIN { w = cos(atan2(0, -1) * d / 64);
	    exit !(w - c < 1e-6 && c - w < 1e-6) }'
	assert_success
}

@test "compare-024: -a simhash -k 128: bits 128" {
	local f
	f=$(fixture lighthouse.txt)
	json -a simhash -k 128 "$f" "$(fixture lighthouse-near.txt)"
	jq_true '.bits == 128 and .distance > 0 and .distance < 128'
	jq_true '.scheme == "nd1-simhash128-w3-fs-s0"'
	json -k 128 "$f" "$f"
	jq_true '.bits == 128 and .distance == 0 and .cosine == 1'
	run neardup compare -k 128 "$f" "$f"
	assert_line '  0 of 128 bits differ, cosine 1.0000'
}

@test "compare-025: -a minhash and -a oph estimate resemblance only" {
	local a f g
	f=$(fixture lighthouse.txt)
	g=$(fixture lighthouse-near.txt)
	for a in minhash oph; do
		json -a "$a" "$f" "$f"
		jq_true '.est_jaccard == 1'
		json -a "$a" "$f" "$g"
		jq_true '.est_jaccard > 0 and .est_jaccard < 1'
		jq_true '.est_containment_a_in_b == null and .est_containment_b_in_a == null'
		jq_true '.distance == null and .bits == null and .cosine == null and .keys_equal == null'
		run neardup compare -a "$a" "$f" "$g"
		assert_line --regexp "^estimated by nd1-${a}128-w3-fs-s0:\$"
		assert_line --regexp '^  resemblance +0\.[0-9]{4}$'
		refute_line --regexp '^  containment a in b'
	done
}

@test "compare-026: -a bottomk estimates resemblance and both containments" {
	local f
	quarter
	# k = 16 holds every shingle of both: the estimates are exact.
	json -a bottomk -k 16 A B
	jq_true '.est_jaccard == 0.25 and .est_containment_a_in_b == 1 and .est_containment_b_in_a == 0.25'
	jq_true '.distance == null and .keys_equal == null'
	run neardup compare -a bottomk -k 16 A B
	assert_line '  resemblance         0.2500'
	assert_line '  containment a in b  1.0000'
	assert_line '  containment b in a  0.2500'
	f=$(fixture lighthouse.txt)
	json -a bottomk "$f" "$f"
	jq_true '.est_jaccard == 1 and .est_containment_a_in_b == 1'
}

@test "compare-027: -a key tells whether the keys are equal" {
	local f
	f=$(fixture lighthouse.txt)
	json -a key "$f" "$f"
	jq_true '.keys_equal == true'
	jq_true '.est_jaccard == null and .est_containment_a_in_b == null and .distance == null and .cosine == null'
	run neardup compare -a key "$f" "$f"
	assert_line '  keys equal'
	disjoint
	json -a key C D
	jq_true '.keys_equal == false'
	run neardup compare -a key C D
	assert_line '  keys differ'
}

@test "compare-028: json and tsv escape names; text shows them safely" {
	local n=$'we"ird\\na\nme.txt'
	quarter
	cp A "$n"
	json "$n" B
	assert_exit DIFFER
	run jq -r .a <<<"$output"
	assert_success
	assert_output "$n"
	run --separate-stderr neardup compare --format=tsv "$n" B
	assert_equal "${#lines[@]}" 2
	run awk -F '\t' 'NR == 2 { print $1 }' <<<"$output"
	assert_output 'we"ird\\na\nme.txt'
	run --separate-stderr neardup compare "$n" B
	assert_equal "${#lines[@]}" 8
	assert_line --index 0 --regexp '^a: we"ird.*me\.txt \(3 shingles\)$'
}

@test "compare-029: the operand - reads standard input, in either place" {
	local f g
	f=$(fixture lighthouse.txt)
	g=$(fixture lighthouse-near.txt)
	json - "$g" <"$f"
	assert_exit OK
	jq_true '.a == "-"'
	assert_equal "$(jq -c 'del(.a)' <<<"$output")" \
	    "$(neardup compare --format=json "$f" "$g" | jq -c 'del(.a)')"
	json "$g" - <"$f"
	jq_true '.b == "-"'
	assert_equal "$(jq -c 'del(.b)' <<<"$output")" \
	    "$(neardup compare --format=json "$g" "$f" | jq -c 'del(.b)')"
}

@test "compare-030: -h prints the usage on stdout" {
	assert_usage_on_stdout compare
	assert_output "$(neardup help compare)"
}

# ---- -F: fingerprint operands ------------------------------------------

@test "compare-040: -F with two fingerprint files" {
	local f g
	f=$(fixture lighthouse.txt)
	g=$(fixture lighthouse-near.txt)
	neardup hash -a minhash "$f" >a.fp
	neardup hash -a minhash "$g" >b.fp
	run --separate-stderr neardup compare -F --format=json a.fp b.fp
	assert_exit OK
	assert_stderr_empty
	jq_true ".a == \"$f\" and .b == \"$g\" and .scheme == \"nd1-minhash128-w3-fs-s0\""
	# The same estimate as when the documents are compared.
	assert_equal "$(jq .est_jaccard <<<"$output")" \
	    "$(neardup compare --format=json -a minhash "$f" "$g" | jq .est_jaccard)"
}

@test "compare-041: -F with one file of two lines" {
	local f g
	f=$(fixture lighthouse.txt)
	g=$(fixture lighthouse-near.txt)
	neardup hash -a oph "$f" "$g" >ab.fp
	run --separate-stderr neardup compare -F --format=json ab.fp
	assert_exit OK
	assert_stderr_empty
	jq_true ".a == \"$f\" and .b == \"$g\" and .est_jaccard > 0"
	assert_equal "$(jq .est_jaccard <<<"$output")" \
	    "$(neardup compare --format=json -a oph "$f" "$g" | jq .est_jaccard)"
}

@test "compare-042: -F - reads two lines from a pipe from hash" {
	quarter
	run --separate-stderr bash -c '"$NEARDUP" hash -a bottomk -k 16 A B | "$NEARDUP" compare -F --format=json -'
	assert_exit DIFFER
	assert_stderr_empty
	jq_true '.a == "A" and .b == "B" and .est_jaccard == 0.25 and .est_containment_a_in_b == 1'
	run bash -c '"$NEARDUP" hash -a bottomk A A | "$NEARDUP" compare -F -'
	assert_exit OK
	assert_line 'similar (threshold 0.5)'
}

@test "compare-043: -F takes a fingerprint line itself as an operand" {
	local f line
	f=$(fixture lighthouse.txt)
	line=$(neardup hash -a minhash -k 8 "$f")
	neardup hash -a minhash -k 8 "$(fixture lighthouse-near.txt)" >b.fp
	run --separate-stderr neardup compare -F --format=json "$line" b.fp
	assert_exit OK
	assert_stderr_empty
	jq_true ".a == \"$f\" and .scheme == \"nd1-minhash8-w3-fs-s0\""
	run --separate-stderr neardup compare -F "$line" "$line"
	assert_exit OK
	assert_line '  resemblance         1.0000'
}

@test "compare-044: -F with - for one operand and a file for the other" {
	local f
	f=$(fixture lighthouse.txt)
	neardup hash "$f" >a.fp
	run --separate-stderr bash -c '"$NEARDUP" hash "$1" | "$NEARDUP" compare -F --format=json a.fp -' _ "$f"
	assert_exit OK
	jq_true '.distance == 0 and .cosine == 1'
}

@test "compare-045: -F gives estimates only: exact fields are null or empty" {
	neardup hash -a bottomk "$(fixture lighthouse.txt)" "$(fixture lighthouse-near.txt)" >ab.fp
	run --separate-stderr neardup compare -F --format=json ab.fp
	jq_true '.jaccard == null and .containment_a_in_b == null and .containment_b_in_a == null'
	jq_true '.shared == null and .size_a == null and .size_b == null'
	jq_true '(.est_jaccard | type) == "number"'
	run --separate-stderr neardup compare -F --format=tsv ab.fp
	run awk -F '\t' 'NR == 2 { print NF ":" $4 $5 $6 $7 $8 $9 ":" ($10 != "") }' <<<"$output"
	assert_output '18::1'
	run --separate-stderr neardup compare -F ab.fp
	refute_line --regexp '^resemblance '
	refute_line --regexp 'shingles\)$'
	assert_line --regexp '^estimated by nd1-bottomk128-w3-fs-s0:$'
}

@test "compare-046: -F thresholds the scheme's estimate (cosine, Jaccard, key)" {
	local s=nd1-simhash64-w3-fs-s0 m=nd1-minhash4-w3-fs-s0 k=nd1-key3-w3-fs-s0
	# 4 of 64 bits differ: cosine cos(pi/16) = 0.980785.
	json -F "$s:0000000000000000  x" "$s:000000000000000f  y"
	jq_true '.distance == 4 and .bits == 64 and .cosine == 0.980785 and .similar == true'
	run neardup compare -F -t 0.98 "$s:0000000000000000  x" "$s:000000000000000f  y"
	assert_exit OK
	run neardup compare -F -t 0.981 "$s:0000000000000000  x" "$s:000000000000000f  y"
	assert_exit DIFFER
	# 2 of 4 minhash values agree: 0.5.
	json -F -t 0.5 "$m:00000001000000020000000300000004  x" "$m:00000001000000020000000900000009  y"
	assert_exit OK
	jq_true '.est_jaccard == 0.5'
	run neardup compare -F -t 0.51 "$m:00000001000000020000000300000004  x" "$m:00000001000000020000000900000009  y"
	assert_exit DIFFER
	# Keys: 1 when equal, 0 when not.
	run neardup compare -F -t 1 "$k:00000000000000aa  x" "$k:00000000000000aa  y"
	assert_exit OK
	run neardup compare -F -t 0.01 "$k:00000000000000aa  x" "$k:00000000000000ab  y"
	assert_exit DIFFER
	run neardup compare -F -t 0 "$k:00000000000000aa  x" "$k:00000000000000ab  y"
	assert_exit OK
}

@test "compare-047: -F with two schemes is an error naming both" {
	local f
	f=$(fixture lighthouse.txt)
	neardup hash "$f" >s.fp
	neardup hash -a minhash -k 8 "$f" >m.fp
	trouble -F s.fp m.fp
	assert_stderr_line '^neardup: .*nd1-simhash64-w3-fs-s0.*nd1-minhash8-w3-fs-s0'
	neardup hash -s 1 "$f" >s1.fp
	trouble -F s.fp s1.fp
	assert_stderr_line 'nd1-simhash64-w3-fs-s0 and nd1-simhash64-w3-fs-s1'
	cat s.fp m.fp >sm.fp
	trouble -F sm.fp
	assert_stderr_line 'nd1-simhash64-w3-fs-s0.*nd1-minhash8-w3-fs-s0'
}

@test "compare-048: -F --containment needs bottomk" {
	local f g a
	f=$(fixture lighthouse.txt)
	for a in simhash minhash oph key; do
		neardup hash -a "$a" "$f" "$f" >x.fp
		trouble -F --containment x.fp
		assert_stderr_line "^neardup: --containment: .*$a"
	done
	quarter
	neardup hash -a bottomk -k 16 A B >ab.fp
	run --separate-stderr neardup compare -F --containment -t 0.9 ab.fp
	assert_exit OK
	assert_stderr_empty
	run neardup compare -F -t 0.9 ab.fp
	assert_exit DIFFER
	# The larger containment, whichever way round.
	neardup hash -a bottomk -k 16 B A >ba.fp
	run --separate-stderr neardup compare -F --containment -t 0.9 ba.fp
	assert_exit OK
	run neardup compare -F --containment --format=json ba.fp
	jq_true '.est_containment_a_in_b == 0.25 and .est_containment_b_in_a == 1 and .similar == true'
}

@test "compare-049: a malformed fingerprint line: FILE:LINE: reason, exit 2" {
	local f
	f=$(fixture lighthouse.txt)
	neardup hash "$f" >good.fp
	echo 'nd1-simhash64-w3-fs-s0:zz00000000000000  x' >bad.fp
	trouble -F bad.fp good.fp
	assert_stderr_line '^neardup: bad\.fp:1: .*hex'
	trouble -F good.fp bad.fp
	assert_stderr_line '^neardup: bad\.fp:1: '
	{ cat good.fp; echo 'nd1-simhash64-w3-fs-s0:0123  short'; } >two.fp
	trouble -F two.fp
	assert_stderr_line '^neardup: two\.fp:2: .*short'
	echo 'no colon here' >nocolon.fp
	trouble -F nocolon.fp good.fp
	assert_stderr_line '^neardup: nocolon\.fp:1: '
	echo 'nd1-nosuch64-w3-fs-s0:0000000000000000  x' >scheme.fp
	trouble -F scheme.fp good.fp
	assert_stderr_line '^neardup: scheme\.fp:1: '
}

@test "compare-050: -F with one operand needs two lines in it" {
	neardup hash "$(fixture lighthouse.txt)" >one.fp
	trouble -F one.fp
	assert_stderr_line '^neardup: one\.fp: '
	: >none.fp
	trouble -F none.fp
	assert_stderr_line '^neardup: none\.fp: '
	run --separate-stderr bash -c '"$NEARDUP" compare -F - <one.fp'
	assert_exit TROUBLE
	assert_output ''
	# An empty fingerprint file as one of two operands.
	trouble -F none.fp one.fp
	assert_stderr_line '^neardup: none\.fp: '
}

@test "compare-051: --passages with -F is a usage error" {
	neardup hash "$(fixture lighthouse.txt)" "$(fixture lighthouse.txt)" >ab.fp
	usage_error -F --passages ab.fp
	assert_stderr_line '^neardup: --passages'
}

# ---- errors ------------------------------------------------------------

@test "compare-060: a missing file: exit 2, its name in the message" {
	local f
	f=$(fixture lighthouse.txt)
	trouble nosuch "$f"
	assert_stderr_line '^neardup: nosuch: No such file or directory$'
	trouble "$f" nosuch
	assert_stderr_line '^neardup: nosuch: No such file or directory$'
	trouble -F nosuch.fp "$f"
	assert_stderr_line '^neardup: nosuch\.fp: '
}

@test "compare-061: a directory operand: exit 2" {
	mkdir dir
	trouble dir "$(fixture lighthouse.txt)"
	assert_stderr_line '^neardup: dir: Is a directory$'
	trouble --passages "$(fixture lighthouse.txt)" dir
	assert_stderr_line '^neardup: dir: Is a directory$'
}

@test "compare-062: an unreadable file: exit 2" {
	need_drop_dac
	cp "$(fixture lighthouse.txt)" locked
	chmod 000 locked
	run --separate-stderr drop_dac "$NEARDUP" compare locked "$(fixture lighthouse.txt)"
	assert_exit TROUBLE
	assert_output ''
	assert_stderr_line '^neardup: locked: Permission denied$'
}

@test "compare-063: - for both operands is a usage error" {
	usage_error - - </dev/null
	assert_stderr_line '^neardup: standard input'
}

@test "compare-064: one document operand, or three, is a usage error" {
	local f
	f=$(fixture lighthouse.txt)
	usage_error "$f"
	assert_stderr_line '^neardup: expected two documents$'
	usage_error "$f" "$f" "$f"
	assert_stderr_line '^neardup: too many operands: compare takes two documents$'
	usage_error
	usage_error -F a.fp b.fp c.fp
	assert_stderr_line '^neardup: too many operands: compare takes two fingerprints$'
}

@test "compare-065: bad -t values are usage errors" {
	local f t
	f=$(fixture lighthouse.txt)
	for t in -1 1.5 abc '' nan inf 0.5x -0.1 1e1; do
		usage_error -t "$t" "$f" "$f"
		assert_stderr_line "^neardup: -t: "
	done
}

@test "compare-066: a bad --format or --color is a usage error" {
	local f
	f=$(fixture lighthouse.txt)
	usage_error --format=xml "$f" "$f"
	assert_stderr_line '^neardup: --format: xml: '
	usage_error --format= "$f" "$f"
	usage_error --color=sometimes "$f" "$f"
	assert_stderr_line '^neardup: --color: sometimes: '
	usage_error --color= "$f" "$f"
	usage_error -x "$f" "$f"
}

@test "compare-067: a write error on stdout exits 2" {
	[ -w /dev/full ] || skip "no /dev/full"
	local f
	f=$(fixture lighthouse.txt)
	assert_write_error compare "$f" "$f"
	run --separate-stderr bash -c '"$NEARDUP" compare --format=json "$1" "$1" >/dev/full' _ "$f"
	assert_exit TROUBLE
	# Not similar, but the write error wins.
	disjoint
	run --separate-stderr bash -c '"$NEARDUP" compare C D >/dev/full'
	assert_exit TROUBLE
}

# ---- --passages ----------------------------------------------------------

# The shared paragraph is lines 10-14 of essay.txt and 3-7 of source.txt
# (40 words); a shared sentence of 10 words is on line 21 of the one and
# line 12 of the other.  Nothing else shares 4 words in a row.

@test "compare-070: --passages text: the passage's lines in a and b, and the text" {
	local a b
	a=$(fixture essay.txt)
	b=$(fixture source.txt)
	run --separate-stderr neardup compare --passages "$a" "$b"
	assert_stderr_empty
	assert_line '2 shared passages'
	assert_line '40 words: a lines 10-14, b lines 3-7'
	assert_line '10 words: a lines 21-21, b lines 12-12'
	assert_line '    10  Tidal records kept by the harbour master since'
	assert_line '    14  and accelerating sharply during the final two decades.'
	# Longest first.
	run grep -n 'words: a lines' <<<"$output"
	assert_line --index 0 --regexp ':40 words: '
	assert_line --index 1 --regexp ':10 words: '
}

@test "compare-071: --passages json: line ranges and text of each passage" {
	local a b
	a=$(fixture essay.txt)
	b=$(fixture source.txt)
	json --passages "$a" "$b"
	assert_stderr_empty
	jq_true '(.passages | length) == 2'
	jq_true '.passages[0] | .words == 40 and .a_first == 10 and .a_last == 14 and .b_first == 3 and .b_last == 7'
	jq_true '.passages[1] | .words == 10 and .a_first == 21 and .a_last == 21 and .b_first == 12 and .b_last == 12'
	run jq -r '.passages[0].text' <<<"$output"
	assert_output "$(sed -n 10,14p "$a")"
	# Without --passages there is no passages field.
	json "$a" "$b"
	jq_true 'has("passages") | not'
}

@test "compare-072: --passages tsv: a second table after a blank line" {
	run --separate-stderr neardup compare --format=tsv --passages \
	    "$(fixture essay.txt)" "$(fixture source.txt)"
	assert_stderr_empty
	assert_equal "${#lines[@]}" 5
	assert_equal "$(sed -n 3p <<<"$output")" ''
	assert_line --index 0 --regexp '^a	b	scheme	'
	assert_line --index 2 "$(printf 'words\ta_first\ta_last\tb_first\tb_last')"
	assert_line --index 3 "$(printf '40\t10\t14\t3\t7')"
	assert_line --index 4 "$(printf '10\t21\t21\t12\t12')"
}

@test "compare-073: every shared run of 8 words is found, wherever it is" {
	local i o p
	for ((i = 1; i <= 120; i++)); do echo "alpha$i"; done >a
	for o in 1 7 30 61 113; do
		for p in 0 17 40; do
			{
				for ((i = 1; i <= p; i++)); do echo "beta$i"; done
				sed -n "$o,$((o + 7))p" a
				for ((i = 1; i <= 12; i++)); do echo "gamma$i"; done
			} >b
			json --passages a b
			jq_true "(.passages | length) == 1 and .passages[0].words == 8"
			jq_true ".passages[0].a_first == $o and .passages[0].a_last == $((o + 7))"
			jq_true ".passages[0].b_first == $((p + 1)) and .passages[0].b_last == $((p + 8))"
		done
	done
}

@test "compare-074: --passages with nothing shared: 0 passages" {
	disjoint
	run --separate-stderr neardup compare --passages C D
	assert_exit DIFFER
	assert_line '0 shared passages'
	json --passages C D
	jq_true '.passages == []'
	run neardup compare --format=tsv --passages C D
	assert_equal "${#lines[@]}" 3
	assert_line --index 2 "$(printf 'words\ta_first\ta_last\tb_first\tb_last')"
}

@test "compare-075: --color=always colours passages; never and NO_COLOR do not" {
	local a b esc=$'\033['
	a=$(fixture essay.txt)
	b=$(fixture source.txt)
	run neardup compare --passages --color=always "$a" "$b"
	[[ $output == *"$esc"* ]] || fail "no ANSI escape with --color=always: $output"
	[[ $output == *"$esc"*'40 words: a lines 10-14, b lines 3-7'* ]] ||
	    fail "passage heading not coloured: $output"
	run neardup compare --passages --colour=always "$a" "$b"
	[[ $output == *"$esc"* ]] || fail "no ANSI escape with --colour=always"
	run neardup compare --passages --color=never "$a" "$b"
	assert_line '40 words: a lines 10-14, b lines 3-7'
	[[ $output != *$'\033'* ]] || fail "ANSI escape with --color=never"
	run env TERM=xterm NO_COLOR=1 "$NEARDUP" compare --passages --color=auto "$a" "$b"
	assert_line '40 words: a lines 10-14, b lines 3-7'
	[[ $output != *$'\033'* ]] || fail "ANSI escape with NO_COLOR"
	run env TERM=xterm "$NEARDUP" compare --passages "$a" "$b"
	assert_line '40 words: a lines 10-14, b lines 3-7'
	[[ $output != *$'\033'* ]] || fail "ANSI escape with auto on a pipe"
	# Machine formats are never coloured.
	run neardup compare --passages --color=always --format=json "$a" "$b"
	[[ $output != *$'\033'* ]] || fail "ANSI escape in json"
	jq_true '.passages[0].words == 40'
}

@test "compare-076: --color=auto colours on a terminal unless NO_COLOR is set" {
	command -v script >/dev/null || skip "no script(1) for a pseudo-terminal"
	local a b cmd
	a=$(fixture essay.txt)
	b=$(fixture source.txt)
	printf -v cmd '%q compare --passages %q %q' "$NEARDUP" "$a" "$b"
	run env TERM=xterm script -qefc "$cmd" /dev/null
	[[ $output == *"40 words: a lines 10-14, b lines 3-7"* ]] || fail "no passage: $output"
	[[ $output == *$'\033['* ]] || fail "no colour on a terminal"
	run env TERM=xterm NO_COLOR=1 script -qefc "$cmd" /dev/null
	[[ $output == *"40 words: a lines 10-14, b lines 3-7"* ]] || fail "no passage: $output"
	[[ $output != *$'\033'* ]] || fail "colour on a terminal despite NO_COLOR"
	run env TERM=dumb script -qefc "$cmd" /dev/null
	[[ $output != *$'\033'* ]] || fail "colour with TERM=dumb"
}

# golden_compare NAME ARGS...: `neardup compare ARGS`, run in
# tests/fixtures, prints exactly tests/expected/NAME.txt (UPDATE_GOLDEN=1
# rewrites it; review the diff).
golden_compare() {
	local name=$1 want rc=0
	shift
	want=$TESTS_DIR/expected/$name.txt
	(cd "$TESTS_DIR/fixtures" && "$NEARDUP" compare "$@") >got 2>err || rc=$?
	[ -s err ] && fail "neardup compare $*: $(cat err)"
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		cp got "$want"
		return
	fi
	[ -f "$want" ] || fail "$want is missing (make it with UPDATE_GOLDEN=1)"
	diff -u "$want" got || fail "output of 'neardup compare $*' differs from expected/$name.txt"
	return 0
}

@test "compare-077: the text report with --passages, byte for byte" {
	golden_compare compare-passages --passages --color=never essay.txt source.txt
	golden_compare compare-passages-color --passages --color=always essay.txt source.txt
}

@test "compare-078: -F takes a nameless literal fingerprint, named by itself" {
	"$NEARDUP" hash -a bottomk -k 8 "$(fixture essay.txt)" > a.fp
	lit=$(cut -d' ' -f1 a.fp)
	run "$NEARDUP" compare -F --format=json "$lit" a.fp
	assert_success
	[ "$(jq -r .a <<<"$output")" = "$lit" ]
	[ "$(jq -r .est_jaccard <<<"$output")" = 1 ]
}

@test "compare-079: shingling options with -F are a usage error" {
	"$NEARDUP" hash "$(fixture essay.txt)" "$(fixture source.txt)" > ab.fp
	run --separate-stderr "$NEARDUP" compare -F -a minhash ab.fp
	assert_exit TROUBLE
	assert_output ''
	[[ "$stderr" == *"do not apply to fingerprints"* ]]
}

@test "compare-080: an empty fingerprint file says there is no line" {
	: > empty.fp
	run --separate-stderr "$NEARDUP" compare -F empty.fp
	assert_exit TROUBLE
	[[ "$stderr" == *"empty.fp: no fingerprint line"* ]]
}

@test "compare-081: the text report shows the threshold as written" {
	run "$NEARDUP" compare -t 0.2500001 "$(fixture essay.txt)" "$(fixture source.txt)"
	assert_line --partial "(threshold 0.2500001)"
}

@test "compare-082: -t 0 makes any two similar, a simhash cosine below 0 included; -t -0 is 0" {
	a=nd1-simhash64-w3-fs-s0:0000000000000000
	b=nd1-simhash64-w3-fs-s0:ffffffffffffffff
	run --separate-stderr "$NEARDUP" compare -F -t 0 "$a" "$b"
	assert_exit OK
	assert_line --partial "cosine -1.0000"
	assert_line "similar (threshold 0)"
	run --separate-stderr "$NEARDUP" compare -F -t 0.001 "$a" "$b"
	assert_exit DIFFER
	run --separate-stderr "$NEARDUP" compare -F -t -0 --format=json "$a" "$b"
	assert_exit OK
	assert_output --partial '"threshold": 0.000000, "similar": true'
}

@test "compare-083: a resemblance just below 1 reads 0.9999, not 1.0000 beside 'not similar'" {
	seq 1 200000 | sed 's/^/word/' | tr '\n' ' ' >r1
	sed 's/word100000 /other /' r1 >r2
	run --separate-stderr neardup compare -t 1 r1 r2
	assert_exit DIFFER
	assert_line 'resemblance           0.9999  (199995 shared of 200001)'
	assert_line 'containment a in b    0.9999'
	assert_line 'not similar (threshold 1)'
	# Exactly at a threshold, a figure reads as it: 3 of 5 is 0.6000.
	printf 'a b c d\n' >s1
	printf 'a b c e\n' >s2
	run --separate-stderr neardup compare -w 1 -t 0.6 s1 s2
	assert_exit OK
	assert_line 'resemblance           0.6000  (3 shared of 5)'
	assert_line 'similar (threshold 0.6)'
}

@test "compare-084: tsv and json figures are cut, the threshold reads back as given; -F -z on lines without -z is an error" {
	seq -f 'w%.0f' 1 2000000 >s1
	{ cat s1; echo extra; } >s2
	# 2000000 of 2000001 is 0.9999995: cut, not rounded to 1.000000.
	json -w 1 -t 1 s1 s2
	jq_true '.jaccard == 0.999999 and .threshold == 1 and .similar == false'
	run -1 neardup compare -w 1 -t 0.9999999 --format=tsv s1 s2
	assert_equal "$(cut -f4,17,18 <<<"$output" | tail -n 1)" "$(printf '0.999999\t0.9999999\tfalse')"
	run -0 neardup compare -w 1 -t 0.5 --format=tsv s1 s2
	assert_equal "$(cut -f17 <<<"$output" | tail -n 1)" 0.500000
	# Lines written without -z, read with it, are one record.
	printf 'one two three four\n' >a.txt
	printf 'five six seven\n' >b.txt
	neardup hash a.txt b.txt >ab.fp
	neardup hash b.txt >b.fp
	run --separate-stderr -2 neardup compare -F -z ab.fp b.fp
	assert_output ''
	assert_equal "$stderr" 'neardup: ab.fp:1: a name holds fingerprint lines after a newline: input written without -z?'
	run --separate-stderr -2 neardup compare -F -z ab.fp
	assert_stderr_line '^neardup: ab.fp:1: a name holds fingerprint lines'
	# An operand with a colon that is neither file nor fingerprint.
	run --separate-stderr -2 neardup compare -F b.fp backup:b.fp
	assert_equal "$stderr" 'neardup: backup:b.fp: No such file or directory, and not a fingerprint line: not a fingerprint scheme'
	# One shingle is one.
	printf x >o
	run -0 neardup compare o o
	assert_line 'a: o (1 shingle)'
}

@test "compare-085: a bad second operand is reported before the first document is read" {
	# The first is a pipe whose writer stays 30 s: reading it first would
	# keep the user waiting that long for the message about the second.
	mkfifo slow
	sleep 30 >slow 3>&- &
	local writer=$!
	run --separate-stderr timeout 10 "$NEARDUP" compare slow missing
	kill "$writer" 2>/dev/null || :
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: missing: No such file or directory'
	printf 'one two three\n' >dir.txt
	mkdir adir
	run --separate-stderr -2 neardup compare dir.txt adir
	assert_equal "$stderr" 'neardup: adir: Is a directory'
}

@test "compare-086: one file named twice is read in turn, once for each; one pipe named twice is refused" {
	# The documents are read at once on two cores, but not one open
	# file, whose offset the two reads would share.
	seq -f 'w%.0f' 1 300000 >words
	run -0 bash -c '"$NEARDUP" compare -w 1 -t 0 /dev/stdin - <words'
	assert_line 'a: /dev/stdin (300000 shingles)'
	assert_line 'b: - (300000 shingles)'
	# A pipe read for one would be empty for the other (issue 26).
	run -2 --separate-stderr bash -c 'cat words | "$NEARDUP" compare -w 1 -t 0 /dev/stdin -'
	assert_output ''
	assert_equal "$stderr" 'neardup: /dev/stdin and - are one pipe: it can be read only once'
}

@test "compare-087: the two documents are read at once, with or without the progress line" {
	# a's writer ends only once b's has written all of b, more than a
	# pipe holds: read in turn, a would never end.
	local p wa wb
	for p in '' --progress; do
		rm -f fa fb b.done
		mkfifo fa fb
		{ printf 'alpha beta gamma delta\n'
		  while [ ! -e b.done ]; do sleep 0.05; done; } >fa 3>&- &
		wa=$!
		{ seq -f 'w%.0f' 1 50000; touch b.done; } >fb 3>&- &
		wb=$!
		run --separate-stderr timeout 20 "$NEARDUP" compare $p -w 1 fa fb
		# Writers left waiting (when it failed) are not waited for.
		kill "$wa" "$wb" 2>/dev/null || :
		assert_exit DIFFER
		assert_line 'a: fa (4 shingles)'
		assert_line 'b: fb (50000 shingles)'
	done
}

@test "compare-088: three operands say too many operands; -t 50 says use 0.5" {
	printf 'one two three\n' >a
	cp a b
	cp a c
	usage_error a b c
	assert_stderr_line '^neardup: too many operands: compare takes two documents$'
	usage_error -t 50 a b
	assert_stderr_line '^neardup: -t: 50: a fraction from 0 to 1: use 0\.5$'
	usage_error -t 62.5 a b
	assert_stderr_line '^neardup: -t: 62\.5: a fraction from 0 to 1: use 0\.625$'
	run -0 neardup compare -q -t 0.5 a b
}
