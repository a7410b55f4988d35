#!/usr/bin/env bats
#
# The machine formats of every command (OUTPUT FORMATS in neardup(1)):
# JSON that jq reads, with the documented fields and types; tables with
# --header; -z wherever names are printed; colour only where wanted.

load helper

ALGOS="simhash minhash bottomk oph key"

# Near-duplicate documents with awkward names under docs/: a tab, a
# newline, a control byte, bytes that are not UTF-8.
setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	mkdir docs
	cp "$(fixture lighthouse.txt)" docs/lighthouse.txt
	cp "$(fixture lighthouse-near.txt)" $'docs/light\thouse\nnear\x01.txt'
	cp "$(fixture lighthouse.txt)" $'docs/copy\xff\xfe.txt'
	cp "$(fixture orchard.txt)" docs/orchard.txt
}

# json_ok: $output is one JSON text (and ends with a newline).
json_ok() {
	jq -e . <<<"$output" >/dev/null || fail "not JSON: $output"
	[ "$(jq -s length <<<"$output")" = 1 ] ||
	    fail "more than one JSON text: $output"
}

@test "formats-001: compare --format=json: one object of the documented fields and types" {
	local a b algo
	a=docs/lighthouse.txt
	b=$'docs/light\thouse\nnear\x01.txt'
	for algo in $ALGOS; do
		run neardup compare -a "$algo" --format=json "$a" "$b"
		json_ok
		jq_true '(keys_unsorted) == ["a", "b", "scheme", "jaccard",
		    "containment_a_in_b", "containment_b_in_a", "shared",
		    "size_a", "size_b", "est_jaccard", "est_containment_a_in_b",
		    "est_containment_b_in_a", "distance", "bits", "cosine",
		    "keys_equal", "threshold", "similar"]'
		jq_true '(.a, .b, .scheme | type == "string") and
		    (.jaccard, .containment_a_in_b, .containment_b_in_a,
		     .threshold | type == "number") and
		    (.shared, .size_a, .size_b | . == floor) and
		    (.similar | type == "boolean")'
		jq_true '.b == "docs/light\thouse\nnear\u0001.txt"'
	done
	run neardup compare -a simhash --format=json "$a" "$b"
	jq_true '(.distance, .bits | . == floor) and (.cosine | type == "number")
	    and .est_jaccard == null and .keys_equal == null'
	run neardup compare -a key --format=json "$a" "$b"
	jq_true '(.keys_equal | type == "boolean") and .distance == null'
	run neardup compare -a bottomk --format=json "$a" "$b"
	jq_true '(.est_containment_a_in_b, .est_containment_b_in_a |
	    type == "number")'
	# -F: the exact figures are null.
	neardup hash -a bottomk "$a" docs/orchard.txt >fp
	run neardup compare -F --format=json fp
	json_ok
	jq_true '.jaccard == null and .shared == null and .size_a == null and
	    (.est_jaccard | type == "number")'
	# --passages: an array of objects, text and all.
	run neardup compare --passages --format=json "$a" "$b"
	json_ok
	jq_true '(.passages | length > 0) and (.passages | all(
	    (keys_unsorted == ["words", "a_first", "a_last", "b_first",
	    "b_last", "text"]) and (.text | type == "string")))'
	# Empty documents: still numbers or null, never nan.
	: >e1
	: >e2
	for algo in $ALGOS; do
		run neardup compare -a "$algo" --format=json --passages e1 e2
		json_ok
	done
}

@test "formats-002: cluster --format=json: groups, --all, --dups, --uniques, --pairs" {
	local algo
	local -a t
	for algo in $ALGOS; do
		t=(-t 0.5)
		[ "$algo" = simhash ] && t=(-d 16)
		[ "$algo" = key ] && t=()
		run neardup cluster -a "$algo" "${t[@]}" --format=json -r docs
		json_ok
		jq_true 'type == "array" and length >= 1 and all(
		    (keys_unsorted == ["cluster", "kept", "members"]) and
		    (.cluster | . == floor) and (.kept | type == "string") and
		    (.members | all(keys_unsorted == ["name", "similarity", "basis"] and
		    (.similarity | type == "number"))) and
		    .members[0].name == .kept and .members[0].basis == "kept" and
		    (.members[1:] | all(.basis == "exact")))'
		run neardup cluster -a "$algo" "${t[@]}" --format=json --all -r docs
		json_ok
		jq_true '[.[].members[].name] | length == 4'
		run neardup cluster -a "$algo" "${t[@]}" --format=json --dups -r docs
		json_ok
		jq_true 'all(.kept as $k | .members | all(.name != $k))'
		run neardup cluster -a "$algo" "${t[@]}" --format=json --uniques -r docs
		json_ok
		jq_true 'type == "array" and all(type == "string")'
		run neardup cluster -a "$algo" "${t[@]}" --format=json --pairs -r docs
		json_ok
		jq_true 'length >= 1 and all(keys_unsorted == ["a", "b", "similarity", "basis"]
		    and (.similarity | type == "number") and .basis == "exact")'
	done
	# The name with a tab, a newline and bytes that are not UTF-8.
	run neardup cluster --format=json --all -r docs
	jq_true '[.[].members[].name] | index("docs/light\thouse\nnear\u0001.txt") != null'
	jq_true '[.[].members[].name] | index("docs/copy\ufffd\ufffd.txt") != null'
	# Nothing to group: an empty array.
	run neardup cluster --format=json -r docs/orchard.txt
	assert_output '[]'
	run neardup cluster --format=json --pairs -r docs/orchard.txt
	assert_output '[]'
}

@test "formats-003: cluster --format=json from band lines and sorted keys" {
	neardup hash -a oph --bands -r docs >bands
	run neardup cluster --bands --format=json bands
	json_ok
	jq_true 'length >= 1 and all(.members[0].similarity == 1 and .members[0].basis == "kept" and
	    (.members[1:] | all(.similarity == null and .basis == null)))'
	LC_ALL=C sort bands >sorted
	run neardup cluster --bands --sorted --format=json sorted
	json_ok
	jq_true 'length >= 1'
	neardup hash -a key -k 2 -r docs | LC_ALL=C sort >keys
	run neardup cluster --sorted --format=json keys
	json_ok
	jq_true 'length >= 1 and all(.members | all(.similarity | type == "number"))'
	run neardup cluster --sorted --uniques --format=json keys
	json_ok
	jq_true 'all(type == "string")'
}

@test "formats-004: near --format=json: queries, --self, --docs, nothing" {
	neardup hash -r docs >ix
	run neardup near -d 8 --format=json ix ix
	assert_success
	json_ok
	jq_true 'length >= 4 and all(keys_unsorted == ["query", "match", "distance"]
	    and (.query, .match | type == "string") and (.distance | . == floor))'
	run neardup near -d 8 --self --format=json ix
	json_ok
	jq_true 'all(.query != .match)'
	run neardup near -d 8 --docs -r --format=json ix docs
	json_ok
	jq_true 'any(.query == "docs/light\thouse\nnear\u0001.txt")'
	run neardup near -d 0 --self --format=json <(grep orchard ix)
	assert_failure "$EXIT_DIFFER"
	assert_output '[]'
}

@test "formats-005: cluster --header: the columns of each table, named as in JSON" {
	run neardup cluster --format=tsv --header -r docs
	assert_success
	assert_line --index 0 $'cluster\tname\tsimilarity\tbasis'
	# The same names as the JSON fields.
	run neardup cluster --format=json -r docs
	assert_equal "$(jq -r '.[0] | ["cluster"] + (.members[0] | keys_unsorted)
	    | join("\t")' <<<"$output")" $'cluster\tname\tsimilarity\tbasis'
	run neardup cluster --pairs --format=json -r docs
	assert_equal "$(jq -r '.[0] | keys_unsorted | join("\t")' <<<"$output")" \
	    $'a\tb\tsimilarity\tbasis'
	run neardup cluster --pairs --header -r docs
	assert_line --index 0 $'a\tb\tsimilarity\tbasis'
	run neardup cluster --pairs --format=tsv --header -r docs
	assert_line --index 0 $'a\tb\tsimilarity\tbasis'
	run neardup cluster --uniques --format=tsv --header -r docs
	assert_line --index 0 'name'
	# Without --header, no header.
	run neardup cluster --format=tsv -r docs
	refute_line --index 0 $'cluster\tname\tsimilarity\tbasis'
	# With -z the header is a NUL-ended record too.
	neardup cluster -z --format=tsv --header -r docs >out
	assert_equal "$(head -c 30 out | od -An -c | tr -s ' ')" \
	    "$(printf 'cluster\tname\tsimilarity\tbasis\0' | od -An -c | tr -s ' ')"
	# Also with --sorted input.
	neardup hash -a key -k 2 -r docs | LC_ALL=C sort >keys
	run neardup cluster --sorted --format=tsv --header keys
	assert_line --index 0 $'cluster\tname\tsimilarity\tbasis'
	# Not a table: a usage error.
	run --separate-stderr neardup cluster --header -r docs
	assert_exit TROUBLE
	assert_stderr_line '^neardup: --header applies to tables'
	run --separate-stderr neardup cluster --header --format=json -r docs
	assert_exit TROUBLE
}

@test "formats-006: near --header: the columns, even when nothing matches" {
	neardup hash -r docs >ix
	run neardup near -d 8 --header ix ix
	assert_success
	assert_line --index 0 $'query\tmatch\tdistance'
	assert_equal "$(printf '%s\n' "${lines[@]}" | grep -c $'^query\t')" 1
	run neardup near -d 0 --self --header <(grep orchard ix)
	assert_failure "$EXIT_DIFFER"
	assert_output $'query\tmatch\tdistance'
	neardup hash -z -r docs | neardup near -d 8 -z --header --self - >out
	assert_equal "$(head -c 21 out | od -An -c | tr -s ' ')" \
	    "$(printf 'query\tmatch\tdistance\0' | od -An -c | tr -s ' ')"
	run --separate-stderr neardup near -d 8 --header --format=json ix ix
	assert_exit TROUBLE
	assert_stderr_line '^neardup: --header applies to the text format'
}

@test "formats-007: compare --header: accepted with tsv, whose header is always there" {
	local a=docs/lighthouse.txt b=docs/orchard.txt
	neardup compare --format=tsv "$a" "$b" >want || true
	run neardup compare --format=tsv --header "$a" "$b"
	assert_failure "$EXIT_DIFFER"
	assert_output "$(cat want)"
	assert_line --index 0 --partial $'a\tb\tscheme\tjaccard\t'
	# The columns are the JSON fields, in order.
	run neardup compare --format=json "$a" "$b"
	assert_equal "$(jq -r 'keys_unsorted | join("\t")' <<<"$output")" \
	    "$(head -1 want)"
	run --separate-stderr neardup compare --header "$a" "$b"
	assert_exit TROUBLE
	assert_stderr_line '^neardup: --header applies to --format=tsv'
	run --separate-stderr neardup compare --header --format=json "$a" "$b"
	assert_exit TROUBLE
}

@test "formats-008: -z: a name with a newline goes through hash, cluster, near, compare, uniq" {
	local odd=$'docs/light\thouse\nnear\x01.txt'
	neardup hash -z -r docs >fpz
	# hash: raw names, NUL-ended lines.
	tr '\0' '\n' <fpz | grep -q $'^nd1-.*  docs/light\thouse$' ||
	    fail "hash -z did not write the raw name"
	# cluster -z reads them and writes raw names, NUL-ended.
	neardup cluster -z -d 16 fpz >groups
	tr '\0' '\n' <groups | grep -qx $'docs/light\thouse' ||
	    fail "cluster -z: no raw name: $(od -c groups | head)"
	neardup cluster -z -d 16 --format=tsv fpz >tsv
	tr '\0' '\n' <tsv | grep -q $'^1\tdocs/light\thouse$' ||
	    fail "cluster -z --format=tsv: no raw name"
	# near -z.
	neardup near -z -d 16 --self fpz >pairs
	tr '\0' '\n' <pairs | grep -q $'^docs/light\thouse$' ||
	    fail "near -z: no raw name"
	# compare -zF reads two NUL-ended lines and names them raw in tsv.
	neardup hash -z docs/lighthouse.txt "$odd" >two
	run neardup compare -zF --format=json two
	assert_success
	jq_true '.b == "docs/light\thouse\nnear\u0001.txt"'
	run neardup compare -zF two
	assert_success
	assert_line 'b: docs/light\thouse\nnear\001.txt'
	neardup compare -z --format=tsv docs/lighthouse.txt "$odd" >cmp
	[ "$(tr -cd '\0' <cmp | wc -c)" -eq 2 ] || fail "not two NUL-ended records"
	tr '\0' '\n' <cmp | grep -q $'^docs/lighthouse.txt\tdocs/light\thouse$' ||
	    fail "compare -z --format=tsv: no raw name: $(od -c cmp | head)"
	neardup compare -z --format=tsv --passages docs/lighthouse.txt "$odd" >cmp
	tr '\0' '\n' <cmp | grep -qx $'words\ta_first\ta_last\tb_first\tb_last' ||
	    fail "compare -z --passages: no second table"
	# uniq -z: records with newlines in them.
	printf 'one\nrecord\0one\nrecord\0another\0' | neardup uniq -z >u
	assert_equal "$(tr '\0' '|' <u)" $'one\nrecord|another|'
}

@test "formats-009: compare -z is a usage error where it would do nothing" {
	run --separate-stderr neardup compare -z docs/lighthouse.txt docs/orchard.txt
	assert_exit TROUBLE
	assert_stderr_line '^neardup: -z applies to fingerprint lines'
	run --separate-stderr neardup compare -z --format=json docs/lighthouse.txt \
	    docs/orchard.txt
	assert_exit TROUBLE
}

@test "formats-010: --color: never on a terminal, always over NO_COLOR, TERM unset" {
	command -v script >/dev/null || skip "no script(1) for a pseudo-terminal"
	local a b cmd
	a=$(fixture essay.txt)
	b=$(fixture source.txt)
	printf -v cmd '%q compare --passages %q %q' "$NEARDUP" "$a" "$b"
	run env TERM=xterm script -qefc "$cmd --color=never" /dev/null
	[[ $output == *"40 words"* ]] || fail "no passage: $output"
	[[ $output != *$'\033'* ]] || fail "colour with --color=never"
	# An empty NO_COLOR is no NO_COLOR (no-color.org).
	run env TERM=xterm NO_COLOR= script -qefc "$cmd" /dev/null
	[[ $output == *$'\033['* ]] || fail "no colour with NO_COLOR empty"
	run env -u TERM script -qefc "$cmd" /dev/null
	[[ $output != *$'\033'* ]] || fail "colour without TERM"
	# An explicit --color=always wins over NO_COLOR.
	run env NO_COLOR=1 "$NEARDUP" compare --passages --color=always "$a" "$b"
	[[ $output == *$'\033['* ]] || fail "no colour with --color=always"
	run --separate-stderr neardup compare --passages --color=sometimes "$a" "$b"
	assert_exit TROUBLE
}
