#!/usr/bin/env bats
#
# neardup uniq: exact and near-duplicate records dropped in a stream, -t,
# the shingling options, --count, -d, -D, --explain, --tsv, -z, several
# inputs, standard input, and every error.

load helper

# The uniq usage's first line, as printed after every bad option.
USAGE_RE='^usage: neardup uniq '

# Log lines.  B and C are A with one field changed: their character
# 5-gram resemblance to A is 0.88 and 0.82 (uniq-002 checks it).
A='Nov 21 15:20:30 host kernel: usb 1-1: new high-speed USB device number 3 using xhci_hcd'
B='Nov 21 15:20:30 host kernel: usb 1-1: new high-speed USB device number 7 using xhci_hcd'
C='Nov 21 15:21:02 host kernel: usb 1-1: new high-speed USB device number 3 using xhci_hcd'
D='Nov 21 15:22:45 host sshd[812]: Accepted publickey for alice from 10.0.0.7 port 52113'
E='Nov 21 15:23:10 host sshd[812]: Accepted publickey for alice from 10.0.0.7 port 52999'
F='Nov 21 15:24:00 host cron[1001]: (root) CMD (run-parts /etc/cron.hourly)'
G='Nov 21 15:25:13 host systemd[1]: Started Daily apt download activities.'

# lines LINE...: one argument a line.
lines() {
	printf '%s\n' "$@"
}

# uq ARGS...: `neardup uniq ARGS` (run).
uq() {
	run --separate-stderr neardup uniq "$@"
}

# jaccard A B: the exact character 5-gram resemblance of two texts, as
# compare gives it.
jaccard() {
	printf '%s\n' "$1" >ja.txt
	printf '%s\n' "$2" >jb.txt
	"$NEARDUP" compare -c 5 --format=tsv ja.txt jb.txt | awk -F '\t' 'NR == 2 { print $4 }'
}

# trouble ARGS...: `neardup uniq ARGS` exits 2, prints nothing on stdout
# and a "neardup: " message first on stderr.
trouble() {
	run --separate-stderr neardup uniq "$@"
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

# ---- which records are dropped ----------------------------------------------

@test "uniq-001: byte-identical lines collapse to the first, in input order" {
	lines "$D" "$F" "$D" "$G" "$F" "$D" >in.txt
	uq in.txt
	assert_exit OK
	assert_stderr_empty
	assert_output "$(lines "$D" "$F" "$G")"
}

@test "uniq-002: a line with one field changed collapses at -t 0.7, not at -t 0.99" {
	local j
	j=$(jaccard "$A" "$B")
	awk -v j="$j" 'BEGIN { exit !(j >= 0.8 && j < 0.99) }' ||
	    fail "resemblance of A and B is $j"
	lines "$A" "$B" >in.txt
	uq -t 0.7 in.txt
	assert_exit OK
	assert_output "$A"
	uq -t 0.99 in.txt
	assert_exit OK
	assert_output "$(lines "$A" "$B")"
	uq --threshold=0.99 in.txt
	assert_output "$(lines "$A" "$B")"
}

@test "uniq-003: unrelated lines are all kept, in order" {
	lines "$G" "$D" "$F" "$A" >in.txt
	uq in.txt
	assert_exit OK
	assert_output "$(lines "$G" "$D" "$F" "$A")"
}

@test "uniq-004: the default threshold is 0.5, compare's and cluster's: resemblance 0.55 collapses, 0.32 does not" {
	local near='Nov 21 15:20:30 host kernel: usb 2-4: reset full-speed USB device number 3 using ehci'
	local far='Nov 21 15:20:30 host kernel: usb 2-4: reset full-speed USB hub number 9 on ehci-pci'
	local j
	j=$(jaccard "$A" "$far")
	awk -v j="$j" 'BEGIN { exit !(j >= 0.2 && j < 0.5) }' ||
	    fail "resemblance of A and far is $j"
	j=$(jaccard "$A" "$near")
	awk -v j="$j" 'BEGIN { exit !(j >= 0.5 && j < 0.6) }' ||
	    fail "resemblance of A and near is $j"
	lines "$A" "$far" "$near" >in.txt
	uq in.txt
	assert_output "$(lines "$A" "$far")"
	uq -t 0.6 in.txt
	assert_output "$(cat in.txt)"
}

@test "uniq-005: each line is compared with the lines kept: the earliest similar one wins" {
	# B and C are both near A; B and C are near each other too.
	lines "$D" "$A" "$B" "$C" "$E" >in.txt
	uq --explain in.txt
	assert_exit OK
	assert_output "$(printf '%s\t%s\n' "$B" "$A" "$C" "$A" "$E" "$D")"
}

@test "uniq-006: -t 1: only the same shingles, after case folding and punctuation" {
	lines 'Hello, World! The disk is full' 'hello world the disk is full' "$A" "$B" >in.txt
	uq -t 1 in.txt
	assert_output "$(lines 'Hello, World! The disk is full' "$A" "$B")"
}

@test "uniq-007: lines without any letter or digit are duplicates only of the same bytes" {
	printf '}\n*/\n\n};\n}\n\n----\n' >in.txt
	uq in.txt
	assert_exit OK
	assert_output "$(printf '}\n*/\n\n};\n----')"
}

@test "uniq-008: --words=1 compares words in any order; --chars=5, the default, does not" {
	lines 'alpha beta gamma delta epsilon' 'epsilon delta gamma beta alpha' >in.txt
	uq --words=1 in.txt
	assert_output 'alpha beta gamma delta epsilon'
	uq --words 1 in.txt
	assert_output 'alpha beta gamma delta epsilon'
	uq in.txt
	assert_output "$(cat in.txt)"
	uq --chars=5 in.txt
	assert_output "$(cat in.txt)"
}

@test "uniq-009: --keep-case and --keep-punct change what is the same" {
	lines 'ERROR DISK FULL ON SDA' 'error disk full on sda' >case.txt
	uq case.txt
	assert_output 'ERROR DISK FULL ON SDA'
	uq --keep-case case.txt
	assert_output "$(cat case.txt)"
	lines 'a.b.c.d.e.f.g.h' 'a b c d e f g h' >punct.txt
	uq punct.txt
	assert_output 'a.b.c.d.e.f.g.h'
	uq --keep-punct punct.txt
	assert_output "$(cat punct.txt)"
}

@test "uniq-010: --multiset and --seed are accepted and keep the clear cases" {
	lines "$A" "$B" "$F" >in.txt
	uq --multiset in.txt
	assert_exit OK
	assert_output "$(lines "$A" "$F")"
	uq --seed=42 in.txt
	assert_output "$(lines "$A" "$F")"
	uq --seed=7 in.txt
	assert_output "$(lines "$A" "$F")"
}

@test "uniq-011: every --explain pair is at the threshold or above, exactly" {
	local i rec dup j bad=0 names=(alpha bravo charlie delta) words=(users orders carts)
	for i in $(seq 1 60); do
		printf 'service %s: request for /api/v1/%s/items/%d from 10.0.0.%d finished with status 200 OK\n' \
		    "${names[i % 4]}" "${words[i % 3]}" $((i % 7)) $((i % 9))
	done >in.txt
	uq --explain -t 0.75 in.txt
	assert_exit OK
	[ "${#lines[@]}" -ge 20 ] || fail "only ${#lines[@]} pairs"
	while IFS=$'\t' read -r rec dup; do
		j=$(jaccard "$rec" "$dup")
		awk -v j="$j" 'BEGIN { exit !(j >= 0.75) }' || {
			echo "$j: $rec / $dup"
			bad=1
		}
	done <<<"$output"
	[ "$bad" = 0 ] || fail "pairs below the threshold"
}

# ---- output modes -----------------------------------------------------------

@test "uniq-020: --count: counts as uniq -c prints them, groups in first-seen order" {
	lines "$D" "$A" "$F" "$B" "$D" "$C" "$E" >in.txt
	uq --count in.txt
	assert_exit OK
	assert_stderr_empty
	assert_output "$(printf '%7d %s\n' 3 "$D" 3 "$A" 1 "$F")"
}

@test "uniq-021: -d: a kept line is printed when its first duplicate arrives" {
	lines "$A" "$D" "$F" "$E" "$B" "$C" "$D" >in.txt
	uq -d in.txt
	assert_exit OK
	assert_output "$(lines "$D" "$A")"
	uq --repeated in.txt
	assert_output "$(lines "$D" "$A")"
}

@test "uniq-022: --count -d: the counts of the groups with duplicates, in first-seen order" {
	lines "$A" "$D" "$F" "$E" "$B" "$C" >in.txt
	uq --count -d in.txt
	assert_exit OK
	assert_output "$(printf '%7d %s\n' 3 "$A" 2 "$D")"
}

@test "uniq-023: -D: every member of every group, groups in first-seen order" {
	lines "$A" "$D" "$F" "$E" "$B" "$G" "$C" >in.txt
	uq -D in.txt
	assert_exit OK
	assert_output "$(lines "$A" "$B" "$C" "$D" "$E")"
	uq --all-repeated in.txt
	assert_output "$(lines "$A" "$B" "$C" "$D" "$E")"
}

@test "uniq-024: --explain: RECORD<TAB>DUPLICATE-OF for each dropped line, nothing else" {
	lines "$A" "$F" "$A" "$B" "$G" >in.txt
	uq --explain in.txt
	assert_exit OK
	assert_output "$(printf '%s\t%s\n' "$A" "$A" "$B" "$A")"
}

@test "uniq-025: the same text as an earlier duplicate goes to the same kept line" {
	lines "$A" "$B" "$D" "$B" "$B" >in.txt
	uq --explain in.txt
	assert_output "$(printf '%s\t%s\n' "$B" "$A" "$B" "$A" "$B" "$A")"
	uq --count in.txt
	assert_output "$(printf '%7d %s\n' 4 "$A" 1 "$D")"
}

@test "uniq-026: a last line without a newline is printed with one" {
	printf '%s\n%s' "$D" "$F" >in.txt
	run bash -c '"$NEARDUP" uniq in.txt | od -An -c | tr -s " " | tail -2'
	assert_exit OK
	[[ $output == *'\n'* ]] || fail "no newline at the end: $output"
	uq in.txt
	assert_output "$(lines "$D" "$F")"
}

# ---- record formats ---------------------------------------------------------

@test "uniq-030: --tsv: ID<TAB>TEXT, compared on TEXT, printed whole" {
	printf 'id1\t%s\nid2\t%s\nid3\t%s\nid4\t%s\n' "$A" "$D" "$B" "$A" >in.tsv
	uq --tsv in.tsv
	assert_exit OK
	assert_output "$(printf 'id1\t%s\nid2\t%s\n' "$A" "$D")"
	uq --tsv --count in.tsv
	assert_output "$(printf '%7d id1\t%s\n%7d id2\t%s\n' 3 "$A" 1 "$D")"
}

@test "uniq-031: --tsv --explain prints ID<TAB>KEPT-ID" {
	printf 'id1\t%s\nid2\t%s\nid3\t%s\nid4\t%s\n' "$A" "$D" "$B" "$E" >in.tsv
	uq --tsv --explain in.tsv
	assert_exit OK
	assert_output "$(printf 'id3\tid1\nid4\tid2\n')"
}

@test "uniq-032: --tsv: an ID is not compared: the same ID with other texts is kept" {
	printf 'x\t%s\nx\t%s\n' "$A" "$F" >in.tsv
	uq --tsv in.tsv
	assert_output "$(printf 'x\t%s\nx\t%s\n' "$A" "$F")"
}

@test "uniq-033: --tsv: a line without a tab is reported, skipped, and the exit status is 2" {
	printf 'id1\t%s\nno tab here\nid3\t%s\n\tempty id\nid5\t%s\n' "$A" "$F" "$B" >in.tsv
	uq --tsv in.tsv
	assert_exit TROUBLE
	assert_output "$(printf 'id1\t%s\nid3\t%s\n' "$A" "$F")"
	assert_stderr_line '^neardup: in\.tsv:2: no tab: expected ID<TAB>TEXT$'
	assert_stderr_line '^neardup: in\.tsv:4: empty ID before the tab$'
}

@test "uniq-034: -z: NUL-terminated records, which may hold newlines" {
	printf '%s\nsecond line\0%s\0%s\nsecond line\0%s\0' "$A" "$F" "$B" "$F" >in.z
	run bash -c '"$NEARDUP" uniq -z in.z | tr "\0" "|"'
	assert_exit OK
	assert_output "$A"$'\n'"second line|$F|"
	run bash -c '"$NEARDUP" uniq --null-data in.z | tr "\0" "|"'
	assert_output "$A"$'\n'"second line|$F|"
}

@test "uniq-035: -z with --explain and --count ends every line with NUL" {
	printf '%s\0%s\0%s\0' "$A" "$B" "$F" >in.z
	run bash -c '"$NEARDUP" uniq -z --explain in.z | tr "\0\t" "|^"'
	assert_output "$B^$A|"
	run bash -c '"$NEARDUP" uniq -z --count in.z | tr "\0" "|"'
	assert_output "$(printf '%7d %s|%7d %s|' 2 "$A" 1 "$F")"
}

# ---- inputs -----------------------------------------------------------------

@test "uniq-040: several files are one stream, in order" {
	lines "$A" "$D" >one.txt
	lines "$B" "$F" "$D" >two.txt
	lines "$G" "$C" >three.txt
	uq one.txt two.txt three.txt
	assert_exit OK
	assert_output "$(lines "$A" "$D" "$F" "$G")"
}

@test "uniq-041: standard input with no operand, and as -" {
	lines "$A" "$B" "$F" >in.txt
	run --separate-stderr bash -c '"$NEARDUP" uniq <in.txt'
	assert_exit OK
	assert_output "$(lines "$A" "$F")"
	lines "$C" "$G" >more.txt
	run --separate-stderr bash -c '"$NEARDUP" uniq more.txt - <in.txt'
	assert_output "$(lines "$C" "$G" "$F")"
}

@test "uniq-042: options may follow the operands" {
	lines "$A" "$B" >in.txt
	uq in.txt -t 0.99
	assert_output "$(lines "$A" "$B")"
}

@test "uniq-043: many lines: as many kept as sort -u finds at -t 1 on distinct-text lines" {
	seq 1 30000 | awk '{ printf "record number %d of the test with value %d\n", $1 % 7000, $1 % 7000 * 3 }' >in.txt
	uq -t 1 in.txt
	assert_exit OK
	assert_equal "${#lines[@]}" "$(sort -u in.txt | wc -l)"
	assert_equal "$output" "$(awk '!seen[$0]++' in.txt)"
}

# ---- errors -----------------------------------------------------------------

@test "uniq-050: -t must be a number greater than 0 and at most 1" {
	echo x >in.txt
	usage_error -t 0 in.txt
	assert_stderr_line '^neardup: -t: 0: not a number in \(0, 1\]$'
	usage_error -t 1.5 in.txt
	assert_stderr_line '^neardup: -t: 1\.5: not a number in \(0, 1\]$'
	usage_error -t abc in.txt
	assert_stderr_line '^neardup: -t: abc: not a number in \(0, 1\]$'
	usage_error -t -0.5 in.txt
	usage_error -t '' in.txt
}

@test "uniq-051: --algorithm, --size and --weights are refused: the sketch is fixed" {
	echo x >in.txt
	usage_error --algorithm=minhash in.txt
	assert_stderr_line '^neardup: --algorithm: not an option of uniq: '
	usage_error --size 64 in.txt
	assert_stderr_line '^neardup: --size: not an option of uniq: '
	usage_error -a minhash in.txt
	assert_stderr_line "^neardup: invalid option -- 'a'$"
	usage_error --weights=w.txt in.txt
	assert_stderr_line '^neardup: --weights: not an option of uniq: '
}

@test "uniq-052: -D excludes -c and -u, as GNU uniq's; --explain excludes them all" {
	echo x >in.txt
	usage_error -D -c in.txt
	assert_stderr_line '^neardup: -D excludes -c and -u$'
	usage_error -D --count in.txt
	usage_error -D -u in.txt
	usage_error --explain -d in.txt
	assert_stderr_line '^neardup: --explain excludes -c, -D, -d and -u$'
	usage_error --explain --count in.txt
	usage_error --explain -D in.txt
	usage_error --explain -u in.txt
}

@test "uniq-053: --chars and --words take 1 to 64; an unknown option is a usage error" {
	echo x >in.txt
	usage_error --chars=0 in.txt
	assert_stderr_line '^neardup: --chars: 0: too small \(range 1 to 64\)$'
	usage_error --words=65 in.txt
	usage_error --all-repeated=some in.txt
	assert_stderr_line '^neardup: --all-repeated: some: expected none, prepend or separate$'
	usage_error -f x in.txt
	usage_error -s -1 in.txt
	usage_error --nosuch in.txt
	usage_error -q in.txt
}

@test "uniq-054: a missing file is reported, the others are read, and the exit status is 2" {
	lines "$A" "$D" >in.txt
	lines "$B" "$F" >more.txt
	uq in.txt nosuch.txt more.txt
	assert_exit TROUBLE
	assert_output "$(lines "$A" "$D" "$F")"
	assert_stderr_line '^neardup: nosuch\.txt: No such file or directory$'
}

@test "uniq-055: a directory is reported as one" {
	mkdir d
	echo x >in.txt
	uq d in.txt
	assert_exit TROUBLE
	assert_output x
	assert_stderr_line '^neardup: d: Is a directory$'
}

@test "uniq-056: a write error on standard output makes the exit status 2" {
	[ -w /dev/full ] || skip "no /dev/full"
	lines "$A" "$D" >in.txt
	assert_write_error uniq in.txt
	assert_write_error uniq --count in.txt
}

@test "uniq-057: -h prints the usage on stdout, as help uniq does" {
	assert_usage_on_stdout uniq
	assert_output "$(neardup help uniq)"
	run neardup uniq --help
	assert_output "$(neardup help uniq)"
}

@test "uniq-058: a live stream's lines come out as they come, not when it ends" {
	mkfifo in
	{ echo 'the first line of a live log'; sleep 5; echo 'a second, other line'; } >in &
	neardup uniq <in >out &
	# Out well before the writer's second line (the batch is cut when
	# the input stays quiet for a moment).
	for i in $(seq 1 40); do [ -s out ] && break; sleep 0.1; done
	assert_equal "$(cat out)" 'the first line of a live log'
	wait
	assert_equal "$(cat out)" $'the first line of a live log\na second, other line'
}

@test "uniq-059: the file standard output writes to is not read, as cat(1) refuses it" {
	printf 'a line\nanother\n' >u
	run -2 timeout 10 sh -c '"$NEARDUP" uniq u >>u'
	assert_output 'neardup: u: input file is also the output'
	run -2 timeout 10 sh -c '"$NEARDUP" uniq <u >>u'
	assert_output 'neardup: -: input file is also the output'
	assert_equal "$(cat u)" "$(printf 'a line\nanother')"
	printf 'more\n' >v
	run -0 sh -c '"$NEARDUP" uniq v >>u'
	assert_equal "$(tail -n 1 u)" more
}

# ---- uniq(1)'s options --------------------------------------------------------

# Messages far apart: no two have a character 5-gram resemblance near 0.5
# (uniq-060 checks it), so that neardup's near-duplicates among them are
# exactly the equal ones, and coreutils uniq can be the judge.
MSGS=(
	'disk full on sda1 while writing journal'
	'user bob logged in from 10.0.0.7'
	'kernel panic not syncing attempted to kill init'
	'cron started hourly run parts'
	'eth0 link is up at 1000 mbps full duplex'
	'temperature above threshold cpu clock throttled'
)

# logs: lines of MSGS, each repeated a few times, equal messages adjacent as
# after sort: in log.txt plain, in fields.txt after two fields that differ
# (a date, a time), in chars.txt after five characters that differ, in
# case.txt in varying case.
logs() {
	local i r n=0
	: >log.txt >fields.txt >chars.txt >case.txt
	for i in "${!MSGS[@]}"; do
		for r in $(seq 1 $(((i * 7) % 4 + 1))); do
			n=$((n + 1))
			printf '%s\n' "${MSGS[i]}" >>log.txt
			printf '2026-11-%02d 10:%02d:%02d %s\n' $((n % 28 + 1)) \
			    $((n % 60)) $((n * 7 % 60)) "${MSGS[i]}" >>fields.txt
			printf '%04d %s\n' $((n * 37 % 10000)) "${MSGS[i]}" >>chars.txt
			if [ $((r % 2)) -eq 0 ]; then
				printf '%s\n' "${MSGS[i]^^}" >>case.txt
			else
				printf '%s\n' "${MSGS[i]}" >>case.txt
			fi
		done
	done
}

# same_as_uniq FILE ARGS...: `neardup uniq ARGS FILE` prints what
# coreutils `uniq ARGS FILE` does, byte for byte, and so does the long form.
same_as_uniq() {
	local f=$1
	shift
	command uniq "$@" "$f" >want.out
	"$NEARDUP" uniq "$@" "$f" >got.out || fail "neardup uniq $* $f failed"
	cmp want.out got.out || fail "neardup uniq $* $f: $(diff want.out got.out)"
}

@test "uniq-060: -c, -d, -D, -u and none print what coreutils uniq prints" {
	local i j x
	for i in "${!MSGS[@]}"; do
		for j in "${!MSGS[@]}"; do
			[ "$i" -lt "$j" ] || continue
			x=$(jaccard "${MSGS[i]}" "${MSGS[j]}")
			awk -v x="$x" 'BEGIN { exit !(x < 0.3) }' ||
			    fail "resemblance $x of ${MSGS[i]} and ${MSGS[j]}"
		done
	done
	logs
	[ "$(command uniq -d log.txt | wc -l)" -ge 3 ] || fail "too few repeats"
	[ "$(command uniq -u log.txt | wc -l)" -ge 1 ] || fail "no unique line"
	same_as_uniq log.txt
	same_as_uniq log.txt -c
	same_as_uniq log.txt -d
	same_as_uniq log.txt -D
	same_as_uniq log.txt -u
	same_as_uniq log.txt -c -d
	same_as_uniq log.txt -c -u
	same_as_uniq log.txt -d -u
	same_as_uniq log.txt -D -d
}

@test "uniq-061: -f 2 and -s 5 leave fields and characters out of the comparison, and print them" {
	logs
	same_as_uniq fields.txt -f 2
	same_as_uniq fields.txt -c -f 2
	same_as_uniq fields.txt -D -f 2
	same_as_uniq fields.txt -u -f 2
	same_as_uniq chars.txt -s 5
	same_as_uniq chars.txt -c -s 5
	same_as_uniq chars.txt -d -s 5
	# Without them, at -t 1, every line is its own.
	uq -t 1 fields.txt
	assert_output "$(cat fields.txt)"
	uq -t 1 -f 2 fields.txt
	assert_output "$(command uniq -f 2 fields.txt)"
	# The first line of a group is printed whole.
	uq -f 2 fields.txt
	assert_line --index 0 "$(head -n 1 fields.txt)"
}

@test "uniq-062: -i ignores case, as coreutils uniq -i; --keep-case does not" {
	logs
	same_as_uniq case.txt -i
	same_as_uniq case.txt -i -c
	same_as_uniq case.txt -i -D
	# Equal lines apart are one group too: the first of each is kept.
	uq --keep-case case.txt
	assert_output "$(awk '!seen[$0]++' case.txt)"
	usage_error -i --keep-case case.txt
	assert_stderr_line '^neardup: -i and --keep-case exclude each other$'
}

@test "uniq-063: the long options, -w and --all-repeated=METHOD are coreutils uniq's" {
	logs
	same_as_uniq log.txt --count
	same_as_uniq log.txt --repeated
	same_as_uniq log.txt --unique
	same_as_uniq log.txt --all-repeated
	same_as_uniq log.txt --all-repeated=none
	same_as_uniq log.txt --all-repeated=prepend
	same_as_uniq log.txt --all-repeated=separate
	same_as_uniq fields.txt --skip-fields=2 --count
	same_as_uniq chars.txt --skip-chars=5 --count
	same_as_uniq case.txt --ignore-case --count
	# Fields, then characters, then at most -w of the rest.
	same_as_uniq fields.txt -f 1 -s 10 -c
	same_as_uniq fields.txt -w 7 -c
	same_as_uniq fields.txt -f 2 --check-chars=9 -c
	same_as_uniq fields.txt -w 0 -c
}

@test "uniq-064: -z: NUL-terminated records, as coreutils uniq -z" {
	logs
	tr '\n' '\0' <fields.txt >fields.z
	same_as_uniq fields.z -z -c -f 2
	same_as_uniq fields.z --zero-terminated -D -f 2
}

@test "uniq-065: -c | sort -rn needs no sort before: it gives what sort | uniq -c | sort -rn does" {
	logs
	shuf --random-source=<(yes) log.txt >mixed.txt
	cmp -s mixed.txt log.txt && fail "shuf left the lines in order"
	run bash -c '"$NEARDUP" uniq -c mixed.txt | sort -rn'
	assert_success
	assert_output "$(sort mixed.txt | command uniq -c | sort -rn)"
}

@test "uniq-066: -c, -u and -D print at the end: a later line can join a group" {
	lines "$A" "$D" "$B" >in.txt
	uq -c in.txt
	assert_output "$(printf '%7d %s\n' 2 "$A" 1 "$D")"
	uq -u in.txt
	assert_output "$D"
	uq -D in.txt
	assert_output "$(lines "$A" "$B")"
	# Near, not only equal: the group holds B, though B is not A.
	uq -c -t 0.99 in.txt
	assert_output "$(printf '%7d %s\n' 1 "$A" 1 "$D" 1 "$B")"
}

@test "uniq-067: skipped fields are printed, and near-duplicates are found in what is compared" {
	lines "10:01:07 $A" "10:01:09 $B" "10:02:00 $F" >in.txt
	uq -f 1 -c in.txt
	assert_output "$(printf '%7d %s\n' 2 "10:01:07 $A" 1 "10:02:00 $F")"
	uq -s 9 -d in.txt
	assert_output "10:01:07 $A"
	# --tsv: the fields are those of the text after the ID.
	printf 'id1\tx1 %s\nid2\tx2 %s\n' "$D" "$D" >in.tsv
	uq --tsv -t 1 -c in.tsv
	assert_output "$(printf '%7d id1\tx1 %s\n%7d id2\tx2 %s' 1 "$D" 1 "$D")"
	uq --tsv -t 1 -f 1 -c in.tsv
	assert_output "$(printf '%7d id1\tx1 %s' 2 "$D")"
}

@test "uniq-068: the old letters: -c N says that -c counts and what --chars is" {
	lines "$A" "$B" >in.txt
	usage_error -c 5 in.txt
	assert_stderr_line '^neardup: 5: no such file: -c counts, as in uniq\(1\); character 5-grams are --chars=5$'
	# A file named 5 is a file.
	lines "$D" >5
	uq -c 5
	assert_output "$(printf '%7d %s' 1 "$D")"
	# -w and -s take uniq(1)'s numbers: characters compared, skipped.
	lines 'abcdef one' 'abcxyz two' >w.txt
	uq -w 3 w.txt
	assert_output 'abcdef one'
	uq -s 3 -w 3 w.txt
	assert_output "$(cat w.txt)"
}

@test "uniq-069: -t 70 says the threshold is a fraction: use 0.7" {
	usage_error -t 70 </dev/null
	assert_stderr_line '^neardup: -t: 70: a fraction from 0 to 1: use 0\.7$'
	usage_error -t 0 </dev/null
	assert_stderr_line '^neardup: -t: 0: not a number in \(0, 1\]$'
}
