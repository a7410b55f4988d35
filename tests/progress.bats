#!/usr/bin/env bats
#
# The progress line (PROGRESS in neardup(1)): on standard error when it is
# a terminal, never on standard output, erased at the end and before
# messages; --progress forces it, --no-progress silences it.  script(1)
# gives the commands a terminal; NEARDUP_PROGRESS_INTERVAL=0 makes them
# draw at every count, so that small inputs show it.

load helper

# A tree of n small documents: tree/a/docI.txt for odd I, tree/b/ for even.
make_tree() {
	local i d n=${1:-200}
	mkdir -p tree/a tree/b
	for ((i = 0; i < n; i++)); do
		d=b
		((i % 2)) && d=a
		printf 'document %d of the tree, with some words %d\n' \
		    "$i" "$((i % 7))" >"tree/$d/doc$i.txt"
	done
}

# on_tty CMD...: run the shell command line CMD on a terminal (script(1));
# $output is what the terminal showed, carriage returns and all.
on_tty() {
	command -v script >/dev/null || skip "no script(1) for a pseudo-terminal"
	run script -qfec "$*" /dev/null
}

# The terminal's lines as they end up on the screen: what follows the last
# carriage return of each line.
screen() {
	printf '%s\n' "$output" | sed 's/\r$//; s/.*\r//'
}

@test "progress-001: hash -r draws the line on a terminal, stdout untouched" {
	make_tree
	neardup hash -r tree >want
	on_tty "NEARDUP_PROGRESS_INTERVAL=0 $NEARDUP hash -r tree >got"
	assert_success
	[[ $output == *$'\r'"neardup: "*" files, "*"B, "*"B/s"* ]] ||
	    fail "no progress line on the terminal: $output"
	[[ $output == *"200 files"* ]] || fail "the count never reached 200: $output"
	cmp want got || fail "stdout differs with the progress line"
	# Erased at the end: nothing is left on the screen.
	assert_equal "$(screen | tr -d ' \n')" ""
}

@test "progress-002: not on a pipe or a file, unless --progress" {
	make_tree
	export NEARDUP_PROGRESS_INTERVAL=0
	run --separate-stderr neardup hash -r tree
	assert_success
	assert_stderr_empty
	run bash -c '"$NEARDUP" hash -r tree 2>&1 >/dev/null | cat'
	assert_output ''
	on_tty "$NEARDUP hash -r tree >out 2>err"
	[ ! -s err ] || fail "progress line in a file: $(cat -v err)"
	# --progress: into the file, and stdout the same bytes.
	neardup hash -r tree >want
	neardup hash --progress -r tree >got 2>err
	cmp want got || fail "stdout differs with --progress"
	grep -q "neardup: .* files, " err || fail "no line with --progress: $(cat -v err)"
	run bash -c '"$NEARDUP" hash --progress -r tree 2>&1 >/dev/null | cat'
	[[ $output == *"200 files"* ]] || fail "no line on a pipe with --progress"
}

@test "progress-003: --no-progress silences it on a terminal; the last option wins" {
	make_tree
	on_tty "NEARDUP_PROGRESS_INTERVAL=0 $NEARDUP hash --no-progress -r tree >got"
	assert_success
	assert_output ''
	on_tty "NEARDUP_PROGRESS_INTERVAL=0 $NEARDUP hash --progress --no-progress -r tree >got"
	assert_output ''
	NEARDUP_PROGRESS_INTERVAL=0 neardup hash --no-progress --progress -r tree \
	    >got 2>err
	grep -q "files" err || fail "--progress after --no-progress did not draw"
}

@test "progress-004: a short run draws nothing by default" {
	make_tree 20
	on_tty "$NEARDUP hash -r tree >got"
	assert_success
	assert_output ''
	# To a file: no line in the first interval, only the summary.
	neardup hash --progress -r tree >got 2>err
	run cat err
	assert_output --regexp '^neardup: done: 20 files, [0-9]+ bytes, [0-9]+\.[0-9]{2} s$'
}

@test "progress-005: not when stdout is the terminal too and hash prints as it goes" {
	make_tree
	neardup hash -r tree >want
	on_tty "NEARDUP_PROGRESS_INTERVAL=0 $NEARDUP hash -r tree"
	assert_success
	[[ $output != *"neardup: "* ]] || fail "progress mixed with the output"
	diff <(tr -d '\r' <<<"$output") want
}

@test "progress-006: a message erases the line first and starts on its own line" {
	make_tree
	on_tty "NEARDUP_PROGRESS_INTERVAL=0 $NEARDUP hash -j 1 -r tree missing >got"
	assert_failure "$EXIT_TROUBLE"
	[[ $output == *"files, "* ]] || fail "no progress line: $output"
	screen | grep -qx 'neardup: missing: No such file or directory' ||
	    fail "the message is not on a clean line: $(cat -v <<<"$output")"
}

@test "progress-007: cluster -r on a terminal: the line, then the groups, clean" {
	make_tree
	cp tree/a/doc1.txt tree/copy.txt
	neardup cluster -r tree >want
	[ -s want ] || fail "no group to show"
	on_tty "NEARDUP_PROGRESS_INTERVAL=0 $NEARDUP cluster --no-summary -r tree"
	assert_success
	[[ $output == *"files, "* ]] || fail "no progress line: $output"
	[[ $output == *"grouping"* ]] || fail "no grouping stage: $output"
	diff <(screen | sed '/^ *$/d') <(sed '/^$/d' want)
}

@test "progress-008: the time left when the size of the input is known" {
	local i
	for ((i = 0; i < 3000; i++)); do
		echo "line $i of a log, message $((i % 13))"
	done >log
	export NEARDUP_PROGRESS_INTERVAL=0
	# Standard input from a regular file: its size is the total.
	neardup uniq --progress <log >got 2>err
	grep -q "records, .*%, ETA [0-9]*:[0-9][0-9]" err ||
	    fail "no time left: $(cat -v err)"
	neardup uniq <log >want
	cmp want got
	# From a pipe the total is unknown: no time left.
	cat log | neardup uniq --progress >got 2>err
	grep -q "records" err || fail "no line: $(cat -v err)"
	! grep -q "ETA" err || fail "a time left without a total: $(cat -v err)"
	cmp want got
	# hash --lines: bytes only, and the time left.
	neardup hash --lines --progress <log >got 2>err
	grep -q "neardup: [0-9.]* [KMG]*i*B, .*%, ETA" err ||
	    fail "no time left: $(cat -v err)"
}

@test "progress-009: near --self and --docs, compare, uniq: the line, the same stdout" {
	make_tree
	export NEARDUP_PROGRESS_INTERVAL=0
	neardup hash -r tree >ix
	neardup near -d 3 --self ix >want || true
	neardup near -d 3 --self --progress ix >got 2>err || true
	cmp want got
	grep -q "fingerprints" err || fail "no reading line: $(cat -v err)"
	grep -q "joining: .*%, ETA" err || fail "no joining line: $(cat -v err)"
	neardup near -d 3 --docs -r ix tree >want
	neardup near -d 3 --docs -r --progress ix tree >got 2>err
	cmp want got
	[ -s want ] || fail "no match: a test that shows nothing"
	grep -q "files, " err || fail "no line for --docs: $(cat -v err)"
	neardup compare --passages tree/a/doc1.txt tree/a/doc3.txt >want || true
	neardup compare --passages --progress tree/a/doc1.txt tree/a/doc3.txt \
	    >got 2>err || true
	cmp want got
	grep -q "2 files, " err || fail "no line for compare: $(cat -v err)"
	cat tree/*/*.txt >all
	neardup uniq all >want
	neardup uniq --progress all >got 2>err
	cmp want got
	grep -q "records, " err || fail "no line for uniq: $(cat -v err)"
	neardup cluster ix >want
	neardup cluster --progress ix >got 2>err
	cmp want got
	grep -q "fingerprints, " err || fail "no line for cluster: $(cat -v err)"
}

@test "progress-010: --progress and --no-progress in every command's usage" {
	local c
	for c in hash compare cluster near uniq; do
		run neardup help "$c"
		assert_output --partial '[--progress | --no-progress]'
	done
}

# assert_log FILE N UNIT B: every line of FILE ends with a newline, none
# holds a carriage return, and the last is the summary "neardup: done: N
# UNIT, B bytes, S s".
assert_log() {
	local file=$1 n=$2 unit=$3 bytes=$4
	[ -s "$file" ] || fail "nothing in $file"
	[ "$(tail -c 1 "$file" | od -An -c | tr -d ' ')" = '\n' ] ||
	    fail "the last line does not end with a newline: $(cat -v "$file")"
	! grep -q $'\r' "$file" || fail "a carriage return in a log: $(cat -v "$file")"
	tail -n 1 "$file" | grep -qE "^neardup: done: $n $unit, $bytes bytes, [0-9]+\.[0-9]{2} s\$" ||
	    fail "no summary last: $(cat -v "$file")"
}

@test "progress-011: --progress to a file or a pipe writes lines that end, no carriage return, and a summary last" {
	make_tree
	local bytes
	bytes=$(cat tree/*/* | wc -c)
	neardup hash -r tree >want
	# At every count: many lines, each ended.
	NEARDUP_PROGRESS_INTERVAL=0 neardup hash --progress -r tree >got 2>err
	cmp want got
	assert_log err 200 files "$bytes"
	[ "$(grep -c ' files, ' err)" -ge 2 ] || fail "too few lines: $(cat -v err)"
	# Through a pipe, as into a logger.
	NEARDUP_PROGRESS_INTERVAL=0 "$NEARDUP" hash --progress -r tree 2>&1 >/dev/null |
	    cat >piped
	assert_log piped 200 files "$bytes"
	# The summary of a run of many stages is that of what was read.
	NEARDUP_PROGRESS_INTERVAL=0 neardup cluster --progress -r tree >/dev/null 2>err
	assert_log err 200 files "$bytes"
	grep -q '^neardup: grouping$' err || fail "no line for the stage: $(cat -v err)"
	neardup uniq --progress <want >/dev/null 2>err
	assert_log err "$(wc -l <want)" records "$(wc -c <want)"
}

@test "progress-012: on a terminal the line is still drawn over itself, with no summary left" {
	make_tree
	on_tty "NEARDUP_PROGRESS_INTERVAL=0 $NEARDUP hash --progress -r tree >got"
	assert_success
	[[ $output == *$'\r'"neardup: "* ]] || fail "not drawn in place: $output"
	[[ $output != *"done: "* ]] || fail "a summary on a terminal: $output"
	assert_equal "$(screen | tr -d ' \n')" ""
}
