#!/usr/bin/env bats
#
# Hostile input, faults and load (issue 7): neardup never crashes, loses
# output or lies.  Each bad input is reported with its file (and line),
# the other operands are still processed, and the exit status is 2.  See
# LIMITS in neardup(1) for every limit and what happens past it.
#
# Two helpers are built from tests/tools once for the file: fault.so, an
# LD_PRELOAD fault injector (a file that cannot be opened, or whose reads
# fail after some bytes), and maxrss, which gives the peak memory of a
# command.

load helper

# Big inputs: 2 GiB; 64 MiB, still past the record limit, when neardup
# runs under an emulator (make check-s390x), where 2 GiB takes minutes.
if native; then
	BIG=2147483648
else
	BIG=67108864
fi
RECORD_MAX=16777216
export -f words

setup_file() {
	cc -O1 -shared -fPIC -o "$BATS_FILE_TMPDIR/fault.so" \
	    "$BATS_TEST_DIRNAME/tools/fault.c" -ldl &&
	    cc -O1 -o "$BATS_FILE_TMPDIR/maxrss" \
	    "$BATS_TEST_DIRNAME/tools/maxrss.c"
}

# peak FILE ARGS...: neardup ARGS, its peak resident set size in KiB
# written to FILE.
peak() {
	local f=$1
	shift
	"$BATS_FILE_TMPDIR/maxrss" "$f" "$NEARDUP" "$@"
}

# assert_below WHAT KIB LIMIT: KIB < LIMIT, else fail naming WHAT.  Not
# checked under an emulator, whose memory is not neardup's.
assert_below() {
	native || return 0
	[ "$2" -lt "$3" ] || fail "$1: $2 KiB, not below $3 KiB"
}

# faulty VAR=VALUE... -- ARGS...: neardup ARGS under the fault injector,
# set by the FAULT_* variables (see tests/tools/fault.c).
faulty() {
	local vars=()
	while [ "$1" != -- ]; do
		vars+=("$1")
		shift
	done
	shift
	env "${vars[@]}" LD_PRELOAD="$BATS_FILE_TMPDIR/fault.so" \
	    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
	    "$NEARDUP" "$@"
}

# need_fault: the fault injector reaches neardup (not when emulated).
need_fault() {
	native || skip "an emulated neardup cannot take an LD_PRELOAD library"
}

# mksock PATH: a Unix domain socket at PATH.
mksock() {
	perl -MSocket -e 'socket(my $s, AF_UNIX, SOCK_STREAM, 0) or die "socket: $!";
	    bind($s, pack_sockaddr_un($ARGV[0])) or die "bind: $!"' "$1"
}

# nlines FILE: the number of lines in FILE.
nlines() {
	wc -l <"$1" | tr -d ' '
}

# ---- bytes that are not text ------------------------------------------

@test "host-001: binary files and NUL bytes in text: every command reads them with --binary, NUL separates words" {
	head -c 100000 "$NEARDUP" >bin
	printf 'alpha\0beta gamma delta' >nul.txt
	printf 'alpha beta gamma delta' >sp.txt
	run --separate-stderr neardup hash --binary bin nul.txt sp.txt
	assert_exit OK
	assert_stderr_empty
	assert_equal "${#lines[@]}" 3
	assert_equal "$(fp_hex "${lines[1]}")" "$(fp_hex "${lines[2]}")"
	assert_equal "$(neardup hash --binary bin)" \
	    "$(neardup hash --binary <bin | sed 's/  -$/  bin/')"
	run --separate-stderr neardup compare -q nul.txt sp.txt
	assert_exit OK
	run --separate-stderr neardup cluster --docs --binary --all bin nul.txt sp.txt
	assert_exit OK
	assert_output "$(printf 'bin\n\nnul.txt\nsp.txt')"
}

@test "host-002: NUL bytes inside records: --lines, --tsv and uniq keep them, bytes and all" {
	printf 'one\0two three\nfour five\0six\n' >rec
	run --separate-stderr neardup hash --lines rec
	assert_exit OK
	assert_equal "${#lines[@]}" 2
	assert_equal "$(fp_name "${lines[1]}")" rec:2
	printf 'id1\tsome\0text here\n' | neardup hash --tsv >out
	assert_equal "$(nlines out)" 1
	printf 'a\0b c d e f\nsomething else entirely\na\0b c d e f\n' >u
	neardup uniq u >out
	cmp out <(printf 'a\0b c d e f\nsomething else entirely\n')
}

@test "host-003: invalid, overlong and truncated UTF-8: each bad byte is one U+FFFD" {
	local r=$'\xef\xbf\xbd' bad good
	# h TEXT: the multiset of its characters, as a bottom-k line.
	h() { printf '%s' "$1" | neardup hash -c 1 --keep-punct --multiset -a bottomk -k 16; }
	for bad in $'x\xc0\xafy:2' $'x\xed\xa0\x80y:3' $'x\xf4\x90\x80\x80y:4' \
	    $'x\x80y:1' $'x\xe2\x82:2' $'x\xf0\x9f\x98:3'; do
		good=x$(repeat "$r" "${bad##*:}")
		case $bad in *y:*) good+=y ;; esac
		assert_equal "$(h "${bad%:*}")" "$(h "$good")"
	done
}

@test "host-004: a character split across reads hashes as it does whole, valid or not" {
	local s
	for s in $'caf\xc3|\xa9 au lait ici' $'smile \xf0\x9f|\x98\x80 ok then' \
	    $'bad \xe2|\x82y and more' $'end \xe2\x82|'; do
		printf '%s' "${s/|/}" >whole
		run neardup hash -c 3 < <(printf '%s' "${s%%|*}"; sleep 0.2; printf '%s' "${s#*|}")
		assert_exit OK
		assert_output "$(neardup hash -c 3 <whole)"
	done
}

@test "host-005: CRLF hashes as LF; a lone CR is white space, not a line break" {
	printf 'alpha beta gamma delta\r\nepsilon zeta eta\r\n' >crlf
	printf 'alpha beta gamma delta\nepsilon zeta eta\n' >lf
	assert_equal "$(neardup hash crlf | cut -d' ' -f1)" "$(neardup hash lf | cut -d' ' -f1)"
	assert_equal "$(neardup hash --lines crlf | sed 's/crlf:/F:/')" \
	    "$(neardup hash --lines lf | sed 's/lf:/F:/')"
	run neardup hash --lines < <(printf 'alpha beta\rgamma delta\r')
	assert_exit OK
	assert_equal "${#lines[@]}" 1
	assert_equal "$(fp_hex "$output")" \
	    "$(fp_hex "$(printf 'alpha beta gamma delta' | neardup hash --lines)")"
	# uniq keeps the first form, CR and all, and counts the other.
	printf 'one two three four five six\r\none two three four five six\n' >u
	run neardup uniq --count u
	assert_output "$(printf '      2 one two three four five six\r')"
}

@test "host-006: a 0-byte file is an empty document for every command, not an error" {
	: >empty
	: >empty2
	echo 'some words of text' >t
	run --separate-stderr neardup hash empty
	assert_exit OK
	assert_output "nd1-simhash64-w3-fs-s0:$EMPTY_SIMHASH64  empty"
	run --separate-stderr neardup hash --lines empty
	assert_exit OK
	assert_output ''
	run --separate-stderr neardup uniq empty
	assert_exit OK
	assert_output ''
	run --separate-stderr neardup compare -q empty empty2
	assert_exit OK
	run --separate-stderr neardup compare -q empty t
	assert_exit DIFFER
	run --separate-stderr neardup cluster empty
	assert_exit OK
	assert_output ''
	run --separate-stderr neardup near -d 3 empty empty
	assert_exit DIFFER
	assert_stderr_empty
}

# ---- size and memory ---------------------------------------------------

@test "host-010: hash of a 2 GiB stream from a pipe: constant memory, as much at 200 MB as at 2 GB" {
	local small tenth big
	words 1000 | peak small.kb hash >small.out
	words $((BIG / 10)) | peak tenth.kb hash >tenth.out
	words "$BIG" | peak big.kb hash >big.out
	small=$(<small.kb) tenth=$(<tenth.kb) big=$(<big.kb)
	assert_equal "$(nlines big.out)" 1
	assert_equal "$(fp_name "$(cat big.out)")" -
	[ "$(fp_hex "$(cat big.out)")" != "$EMPTY_SIMHASH64" ] || fail "empty fingerprint"
	assert_below "growth from 200 MB to 2 GB" $((big - tenth)) 2048
	assert_below "growth over a tiny input" $((big - small)) 8192
	if native && ! sanitized; then
		assert_below "peak memory" "$big" 32768
	fi
}

@test "host-011: hash --lines of a 2 GiB line: refused with file:line, the other lines hashed, bounded memory" {
	local base big
	echo x | peak base.kb hash --lines >/dev/null
	run --separate-stderr bash -c '{ echo "first line of text"; words '"$BIG"';
	    printf "\nlast line of text\n"; } | "$BATS_FILE_TMPDIR/maxrss" big.kb "$NEARDUP" hash --lines'
	assert_exit TROUBLE
	assert_equal "$stderr" "neardup: -:2: record longer than $RECORD_MAX bytes"
	assert_equal "${#lines[@]}" 2
	assert_equal "${lines[0]}" "$(echo 'first line of text' | neardup hash --lines)"
	assert_equal "${lines[1]}" "$(echo 'last line of text' | neardup hash --lines | sed 's/-:1$/-:3/')"
	base=$(<base.kb) big=$(<big.kb)
	# AddressSanitizer keeps what is freed for a while.
	assert_below "memory over a tiny input" $((big - base)) \
	    "$(sanitized && echo 131072 || echo 49152)"
}

@test "host-012: uniq of a 2 GiB line: refused with file:line, the other lines kept, bounded memory" {
	local base big
	echo x | peak base.kb uniq >/dev/null
	run --separate-stderr bash -c '{ echo "first line of text"; words '"$BIG"';
	    printf "\nlast line of text\n"; } | "$BATS_FILE_TMPDIR/maxrss" big.kb "$NEARDUP" uniq -t 0.7'
	assert_exit TROUBLE
	assert_equal "$stderr" "neardup: -:2: record longer than $RECORD_MAX bytes"
	assert_output "$(printf 'first line of text\nlast line of text')"
	base=$(<base.kb) big=$(<big.kb)
	# AddressSanitizer keeps what is freed for a while.
	assert_below "memory over a tiny input" $((big - base)) \
	    "$(sanitized && echo 131072 || echo 49152)"
}

@test "host-013: a record of 16 MiB is read, one byte more is refused: --lines, --tsv, -z, uniq" {
	words "$RECORD_MAX" >max
	words $((RECORD_MAX + 1)) >over
	{ cat max; echo; echo short; } >f1
	{ cat over; echo; echo short; } >f2
	run --separate-stderr neardup hash --lines f1 f2
	assert_exit TROUBLE
	assert_equal "$stderr" "neardup: f2:1: record longer than $RECORD_MAX bytes"
	assert_equal "${#lines[@]}" 3
	assert_equal "$(fp_name "${lines[0]}")" f1:1
	assert_equal "$(fp_name "${lines[2]}")" f2:2
	{ printf 'id\t'; head -c $((RECORD_MAX - 3)) max; echo; } >ok.tsv
	{ printf 'id\t'; head -c $((RECORD_MAX - 2)) max; echo; } >long.tsv
	run --separate-stderr neardup hash --tsv ok.tsv long.tsv
	assert_exit TROUBLE
	assert_equal "$stderr" "neardup: long.tsv:1: record longer than $RECORD_MAX bytes"
	assert_equal "${#lines[@]}" 1
	{ cat over; printf '\0short\0'; } >z
	run --separate-stderr neardup hash -z --lines z
	assert_exit TROUBLE
	assert_equal "$stderr" "neardup: z:1: record longer than $RECORD_MAX bytes"
	run --separate-stderr bash -c '"$NEARDUP" uniq f2 f1 >out'
	assert_exit TROUBLE
	assert_equal "$stderr" "neardup: f2:1: record longer than $RECORD_MAX bytes"
	assert_equal "$(nlines out)" 2
	assert_equal "$(head -n 1 out)" short
	cmp <(tail -n 1 out) <(cat max; echo)
}

@test "host-014: compare of a 2 GiB stream: within its bound, memory grows with distinct shingles only" {
	local base big
	echo 'lorem ipsum dolor sit amet' >small
	peak base.kb compare small small >/dev/null
	run --separate-stderr bash -c 'words '"$BIG"' |
	    "$BATS_FILE_TMPDIR/maxrss" big.kb "$NEARDUP" compare --format=tsv - small'
	assert_exit DIFFER
	assert_stderr_empty
	# A cycle of 8 words has 8 distinct 3-grams, and the cut at the end
	# makes at most 2 more: a, b, shared, size_a, size_b.
	local f
	IFS=$'\t' read -ra f <<<"${lines[1]}"
	assert_equal "${f[0]} ${f[1]} ${f[6]} ${f[8]}" '- small 3 3'
	[[ ${f[7]} == @(8|9|10) ]] || fail "size_a ${f[7]}"
	base=$(<base.kb) big=$(<big.kb)
	assert_below "memory over a tiny input" $((big - base)) 16384
}

@test "host-015: compare out of memory: a clear message, exit 2, nothing printed" {
	native || skip "an emulated neardup cannot be given a memory limit"
	seq -f 'w%g' 3000000 | tr '\n' ' ' >rand
	echo 'a small text' >small
	if sanitized; then
		run --separate-stderr env ASAN_OPTIONS=allocator_may_return_null=1:max_allocation_size_mb=16 \
		    "$NEARDUP" compare rand small
	else
		run --separate-stderr bash -c 'ulimit -v 50000 && exec "$NEARDUP" compare rand small'
	fi
	assert_exit TROUBLE
	assert_output ''
	assert_stderr_line '^neardup: Cannot allocate memory$'
	# The same, with room enough.
	run --separate-stderr neardup compare -q rand small
	assert_exit DIFFER
}

@test "host-016: sizes that would exhaust memory are refused before any allocation" {
	local c
	for c in hash compare cluster near; do
		run --separate-stderr neardup "$c" -k 100000000 -d 3 x
		assert_exit TROUBLE
		assert_output ''
		assert_stderr_line '^neardup: -k: 100000000: too large \(range 1 to 4096\)$'
	done
	printf 'nd1-minhash99999999-w3-fs-s0:00  x\n' >huge.fp
	run --separate-stderr neardup cluster huge.fp
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: huge.fp:1: bad size in scheme'
	{ printf 'nd1-minhash4096-w3-fs-s0:'; head -c 1000000 /dev/zero | tr '\0' 0; printf '  x\n'; } >long.fp
	run --separate-stderr neardup cluster long.fp
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: long.fp:1: fingerprint too long for its scheme'
}

# ---- many files --------------------------------------------------------

@test "host-020: 100,000 tiny files under -r: every one, in byte order, -j 1 as -j 4; cluster groups them" {
	local i
	# 100 directories of 1000 files, hard links to 100 texts: a file
	# system frees no blocks when they go, which keeps the test fast.
	mkdir t seeds
	for ((i = 0; i < 100; i++)); do
		printf 'text number %d of the seeds\n' "$i" >"seeds/$i"
	done
	perl -e 'for my $d (0..99) { my $dir = sprintf("t/d%02d", $d); mkdir $dir or die;
	    for my $f (0..999) { link("seeds/$d", sprintf("%s/f%03d", $dir, $f)) or die } }'
	# (Big outputs go to files: bats is slow to split them into lines.)
	run --separate-stderr bash -c '"$NEARDUP" hash -r -j 4 t >fp4'
	assert_exit OK
	assert_stderr_empty
	assert_equal "$(nlines fp4)" 100000
	awk '{ print $2 }' fp4 >names
	assert_equal "$(head -n 1 names) $(tail -n 1 names)" 't/d00/f000 t/d99/f999'
	LC_ALL=C sort -c names
	neardup hash -r -j 1 t | cmp - fp4
	# Each text's 1000 copies are one group.
	run --separate-stderr bash -c '"$NEARDUP" cluster -r t >groups'
	assert_exit OK
	assert_stderr_empty
	assert_equal "$(grep -c . groups)" 100000
	assert_equal "$(grep -c '^$' groups)" 99
}

@test "host-021: 100,000 copies of one document: cluster joins them in linear time, in every scheme" {
	local a
	echo 'the same boilerplate page, again and again' >page
	for a in simhash oph minhash bottomk key; do
		neardup hash -a "$a" page | awk '{ sub(/  .*/, ""); for (i = 1; i <= 100000; i++) print $0 "  d" i }' >copies.fp
		# -d 3 for simhash: its criterion, chosen (else a word on it).
		run --separate-stderr bash -c 'timeout 60 "$NEARDUP" cluster $(
		    [ "$1" != simhash ] || echo -d 3) copies.fp | wc -l' _ "$a"
		assert_exit OK
		assert_stderr_empty
		assert_output 100000
	done
}

# ---- files that cannot be read -----------------------------------------

@test "host-030: an unreadable file: Permission denied, the other operands processed, exit 2 (every command)" {
	need_drop_dac
	echo 'alpha beta gamma delta' >ok
	echo 'other words here now' >locked
	neardup hash ok >ok.fp
	cp ok.fp locked.fp
	chmod 000 locked locked.fp
	local m='^neardup: locked(\.fp)?: Permission denied$'
	run --separate-stderr drop_dac "$NEARDUP" hash locked ok
	assert_exit TROUBLE
	assert_stderr_line "$m"
	assert_output "$(neardup hash ok)"
	run --separate-stderr drop_dac "$NEARDUP" hash --lines locked ok
	assert_exit TROUBLE
	assert_stderr_line "$m"
	assert_output "$(neardup hash --lines ok)"
	run --separate-stderr drop_dac "$NEARDUP" uniq locked ok
	assert_exit TROUBLE
	assert_stderr_line "$m"
	assert_output 'alpha beta gamma delta'
	run --separate-stderr drop_dac "$NEARDUP" cluster --all locked.fp ok.fp
	assert_exit TROUBLE
	assert_stderr_line "$m"
	assert_output ok
	run --separate-stderr drop_dac "$NEARDUP" near -d 0 ok.fp locked.fp ok.fp
	assert_exit TROUBLE
	assert_stderr_line "$m"
	assert_output "$(printf 'ok\tok\t0')"
	run --separate-stderr drop_dac "$NEARDUP" near -d 0 --docs ok.fp locked ok
	assert_exit TROUBLE
	assert_stderr_line "$m"
	assert_output "$(printf 'ok\tok\t0')"
	run --separate-stderr drop_dac "$NEARDUP" compare ok locked
	assert_exit TROUBLE
	assert_stderr_line "$m"
	assert_output ''
}

@test "host-031: an unreadable directory under -r: reported, the rest of the tree hashed, exit 2" {
	need_drop_dac
	mkdir -p t/a t/locked t/z
	echo 'alpha beta gamma' >t/a/f
	echo 'delta epsilon zeta' >t/locked/f
	echo 'eta theta iota' >t/z/f
	chmod 000 t/locked
	run --separate-stderr drop_dac "$NEARDUP" hash -r t
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: t/locked: Permission denied'
	assert_equal "${#lines[@]}" 2
	assert_equal "$(fp_name "${lines[0]}")" t/a/f
	assert_equal "$(fp_name "${lines[1]}")" t/z/f
	run --separate-stderr drop_dac "$NEARDUP" cluster -r --all t
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: t/locked: Permission denied'
	assert_output "$(printf 't/a/f\n\nt/z/f')"
	chmod 755 t/locked
}

@test "host-032: a read error in the middle of a file: named, no fingerprint from half a document, the rest processed" {
	need_fault
	seq -f 'line %g of the file with some words' 20000 >big
	echo 'alpha beta gamma delta' >ok
	neardup hash ok >ok.fp
	neardup hash --lines -w 3 big >big.fp
	run --separate-stderr faulty FAULT_PATH=big FAULT_READ=5 FAULT_AFTER=100000 -- hash ok big ok
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: big: Input/output error'
	assert_output "$(cat ok.fp ok.fp)"
	# Records: every whole line before the error, then the next file.
	run --separate-stderr faulty FAULT_PATH=big FAULT_READ=5 FAULT_AFTER=100000 -- hash --lines big ok
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: big: Input/output error'
	local n
	n=$(head -c 100000 big | tr -cd '\n' | wc -c)
	assert_equal "${#lines[@]}" $((n + 1))
	assert_equal "$(printf '%s\n' "${lines[@]:0:n}")" "$(neardup hash --lines big | head -n "$n")"
	assert_equal "$(fp_name "${lines[n]}")" ok:1
	run --separate-stderr faulty FAULT_PATH=big FAULT_READ=5 FAULT_AFTER=100000 -- uniq -t 1 big ok
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: big: Input/output error'
	assert_equal "${#lines[@]}" $((n + 1))
	assert_equal "${lines[n]}" 'alpha beta gamma delta'
	run --separate-stderr faulty FAULT_PATH=big FAULT_READ=5 FAULT_AFTER=100000 -- compare big ok
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: big: Input/output error'
	assert_output ''
	# Fingerprint lines: those before the error count, and the others.
	run --separate-stderr faulty FAULT_PATH=big.fp FAULT_READ=5 FAULT_AFTER=100000 -- near -d 0 ok.fp big.fp ok.fp
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: big.fp: Input/output error'
	assert_output "$(printf 'ok\tok\t0')"
	# Two names (one name twice would be one document).
	{ cat ok.fp; sed 's/  ok$/  ok2/' ok.fp; } >two.fp
	run --separate-stderr faulty FAULT_PATH=big.fp FAULT_READ=5 FAULT_AFTER=100000 -- cluster -d 3 big.fp two.fp
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: big.fp: Input/output error'
	assert_equal "$(grep -cx 'ok2\?' <<<"$output")" 2
	run --separate-stderr faulty FAULT_PATH=- FAULT_READ=5 FAULT_AFTER=10 -- hash <big
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: -: Input/output error'
	assert_output ''
}

@test "host-033: a file that vanishes before it is read, a FIFO whose writer dies: as cat would say" {
	echo 'alpha beta gamma' >a
	echo 'delta epsilon zeta' >b
	echo 'eta theta iota' >c
	run --separate-stderr bash -c '{ printf "a\0"; sleep 0.3; rm b; printf "b\0c\0"; } |
	    "$NEARDUP" hash -j 1 --files0-from=-'
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: b: No such file or directory'
	assert_equal "${#lines[@]}" 2
	assert_equal "$(fp_name "${lines[1]}")" c
	# The writer dies half way: what it wrote is the document, as for cat.
	mkfifo f
	{ printf 'alpha beta '; sleep 0.2; kill -9 $BASHPID; } >f &
	run --separate-stderr neardup hash f a
	wait || true
	assert_exit OK
	assert_equal "$(fp_hex "${lines[0]}")" "$(fp_hex "$(printf 'alpha beta ' | neardup hash)")"
}

@test "host-034: a directory as an operand: Is a directory, the other operands processed (every command)" {
	mkdir d
	echo 'alpha beta gamma delta' >ok
	neardup hash ok >ok.fp
	# Where -r or --docs would read it, the message says so (io.bats,
	# cluster.bats, near.bats test which).
	local m='^neardup: d: (Is a directory|is a directory: .*-r.*)$'
	run --separate-stderr neardup hash d ok
	assert_exit TROUBLE
	assert_stderr_line "$m"
	assert_output "$(cat ok.fp)"
	run --separate-stderr neardup hash --lines d ok
	assert_exit TROUBLE
	assert_stderr_line "$m"
	assert_equal "${#lines[@]}" 1
	run --separate-stderr neardup uniq d ok
	assert_exit TROUBLE
	assert_stderr_line "$m"
	assert_output 'alpha beta gamma delta'
	run --separate-stderr neardup cluster --all d ok.fp
	assert_exit TROUBLE
	assert_stderr_line "$m"
	assert_output ok
	run --separate-stderr neardup cluster --docs --all d ok
	assert_exit TROUBLE
	assert_stderr_line "$m"
	assert_output ok
	neardup hash --bands -a oph ok >ok.bands
	run --separate-stderr neardup cluster --bands --all d ok.bands
	assert_exit TROUBLE
	assert_stderr_line "$m"
	assert_output ok
	run --separate-stderr neardup near -d 0 ok.fp d ok.fp
	assert_exit TROUBLE
	assert_stderr_line "$m"
	assert_output "$(printf 'ok\tok\t0')"
	run --separate-stderr neardup near -d 0 --docs ok.fp d ok
	assert_exit TROUBLE
	assert_stderr_line "$m"
	assert_output "$(printf 'ok\tok\t0')"
	run --separate-stderr neardup compare d ok
	assert_exit TROUBLE
	assert_stderr_line "$m"
	run --separate-stderr neardup compare -F d ok.fp
	assert_exit TROUBLE
	assert_stderr_line "$m"
}

# ---- special files -------------------------------------------------------

@test "host-040: a FIFO operand is read like standard input, by every command" {
	echo 'alpha beta gamma delta' >ok
	neardup hash ok >ok.fp
	mkfifo f
	local c
	for c in 'hash f' 'hash --lines f' 'uniq f' 'compare -q f ok' \
	    'cluster --all -d 3 f' 'near -d 0 ok.fp f' 'near -d 0 --docs ok.fp f'; do
		case $c in
		*near*d\ 0\ ok.fp\ f | cluster*) cat ok.fp >f & ;;
		*) cat ok >f & ;;
		esac
		# shellcheck disable=SC2086 # $c is a command and its arguments
		run --separate-stderr neardup $c
		wait
		assert_exit OK
		assert_stderr_empty
		[ -n "$output" ] || [ "$c" = 'compare -q f ok' ] || fail "$c: no output"
	done
}

@test "host-041: /dev/null as an operand is an empty document, or no lines, for every command" {
	echo 'alpha beta' >ok
	run --separate-stderr neardup hash /dev/null
	assert_exit OK
	assert_output "nd1-simhash64-w3-fs-s0:$EMPTY_SIMHASH64  /dev/null"
	run --separate-stderr neardup hash --lines /dev/null
	assert_exit OK
	assert_output ''
	run --separate-stderr neardup uniq /dev/null
	assert_exit OK
	assert_output ''
	run --separate-stderr neardup compare --format=tsv /dev/null ok
	assert_exit DIFFER
	[[ ${lines[1]} == /dev/null$'\t'ok$'\t'* ]] || fail "${lines[1]}"
	run --separate-stderr neardup cluster /dev/null
	assert_exit OK
	assert_output ''
	run --separate-stderr neardup cluster --docs --all /dev/null
	assert_exit OK
	assert_output /dev/null
	run --separate-stderr neardup near -d 3 /dev/null /dev/null
	assert_exit DIFFER
	assert_stderr_empty
}

@test "host-042: a socket operand cannot be opened: reported, the others processed" {
	mksock sock
	echo 'alpha beta gamma' >ok
	run --separate-stderr neardup hash sock ok
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: sock: No such device or address'
	assert_output "$(neardup hash ok)"
	run --separate-stderr neardup uniq sock ok
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: sock: No such device or address'
	assert_output 'alpha beta gamma'
}

@test "host-043: under -r, FIFOs, sockets and devices are skipped with a message; the exit status stays 0" {
	mkdir -p t
	echo 'alpha beta gamma' >t/a
	echo 'delta epsilon zeta' >t/z
	mkfifo t/fifo
	ln -s /dev/null t/devnull
	local want='neardup: t/devnull: not a regular file, skipped
neardup: t/fifo: not a regular file, skipped'
	mksock t/sock
	want+=$'\nneardup: t/sock: not a regular file, skipped'
	# Without -L the link is not followed: nothing to say about it.
	run --separate-stderr timeout 10 "$NEARDUP" hash -r t
	assert_exit OK
	assert_equal "$stderr" "$(grep -v devnull <<<"$want")"
	assert_equal "${#lines[@]}" 2
	run --separate-stderr timeout 10 "$NEARDUP" hash -r -L t
	assert_exit OK
	assert_equal "$stderr" "$want"
	assert_equal "${#lines[@]}" 2
	run --separate-stderr timeout 10 "$NEARDUP" cluster -r -L --all t
	assert_exit OK
	assert_equal "$stderr" "$want"
	assert_output "$(printf 't/a\n\nt/z')"
	neardup hash t/a >a.fp
	run --separate-stderr timeout 10 "$NEARDUP" near -d 0 --docs -r -L a.fp t
	assert_exit OK
	assert_equal "$stderr" "$want"
	assert_output "$(printf 't/a\tt/a\t0')"
}

@test "host-044: symbolic link loops under -r -L: each loop named as one, the rest hashed (hash, cluster, near)" {
	mkdir -p t/sub
	echo 'alpha beta gamma' >t/a
	echo 'delta epsilon zeta' >t/sub/b
	ln -s .. t/sub/up
	ln -s y t/x
	ln -s x t/y
	ln -s nowhere t/dangling
	local want='neardup: t/dangling: No such file or directory
neardup: t/sub/up: Too many levels of symbolic links
neardup: t/x: Too many levels of symbolic links
neardup: t/y: Too many levels of symbolic links'
	run --separate-stderr neardup hash -r -L t
	assert_exit TROUBLE
	assert_equal "$stderr" "$want"
	assert_equal "${#lines[@]}" 2
	run --separate-stderr neardup cluster -r -L --all t
	assert_exit TROUBLE
	assert_equal "$stderr" "$want"
	assert_output "$(printf 't/a\n\nt/sub/b')"
	neardup hash t/a >a.fp
	run --separate-stderr neardup near -d 0 --docs -r -L a.fp t
	assert_exit TROUBLE
	assert_equal "$stderr" "$want"
	assert_output "$(printf 't/a\tt/a\t0')"
	# A loop given as an operand.
	run --separate-stderr neardup hash t/x t/a
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: t/x: Too many levels of symbolic links'
	assert_equal "${#lines[@]}" 1
}

# ---- names ---------------------------------------------------------------

# odd_names: files whose names hold a newline, a tab, a backslash, a CR and
# invalid UTF-8, all with the same text; their names, NUL-ended, in names0.
odd_names() {
	local n
	mkdir t
	for n in $'new\nline' $'tab\there' 'back\slash' $'cr\rname' \
	    $'bad\xff\xfeutf8' '\n not a newline' plain; do
		echo 'the same text of the document for all of them' >"t/$n"
	done
	find t -type f -print0 | LC_ALL=C sort -z >names0
}

@test "host-050: odd names round-trip byte for byte: hash -z | cluster -z, and --files0-from" {
	odd_names
	neardup hash -z -a oph -r t | neardup cluster -z --all >out0
	cmp out0 names0
	neardup hash -z -a oph --files0-from=names0 | neardup cluster -z --all >out0
	cmp out0 names0
	neardup hash -z -a oph -r t | neardup cluster -z --dups >dups0
	assert_equal "$(tr -cd '\0' <dups0 | wc -c)" 6
}

@test "host-051: odd names round-trip through escaped lines: hash | cluster, hash | near, JSON" {
	odd_names
	# Undo the escapes of the groups format: \\ \t \n \r.
	neardup hash -a oph -r t | neardup cluster --all |
	    perl -pe 's/\n/\0/; s/\\(.)/$1 eq "n" ? "\n" : $1 eq "t" ? "\t" : $1 eq "r" ? "\r" : $1/ge' >out0
	cmp out0 names0
	neardup hash -r t >t.fp
	run --separate-stderr neardup near -d 0 --self t.fp
	assert_exit OK
	assert_equal "${#lines[@]}" 21
	neardup hash -a oph -r t | neardup cluster --format=json --all >out.json
	jq -e '[.[].members[].name] | length == 7' out.json >/dev/null
	jq -e '[.[].members[].name] | any(. == "t/back\\slash")' out.json >/dev/null
}

@test "host-052: --tsv IDs with a NUL byte or over 1 MiB are refused, a NUL in a read name too" {
	{ printf 'a\0b\tsome text here\n'; printf 'ok\tother text\n'; } >in.tsv
	run --separate-stderr neardup hash --tsv in.tsv
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: in.tsv:1: NUL byte in ID'
	assert_equal "$(fp_name "$output")" ok
	{ head -c 1048577 /dev/zero | tr '\0' i; printf '\ttext\nok\ttext\n'; } >long.tsv
	run --separate-stderr neardup hash --tsv long.tsv
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: long.tsv:1: ID longer than 1048576 bytes'
	assert_equal "$(fp_name "$output")" ok
	printf 'nd1-simhash64-w3-fs-s0:0000000000000000  a\0b\n' >nul.fp
	run --separate-stderr neardup cluster nul.fp
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: nul.fp:1: NUL byte in name'
	neardup hash --bands -a oph /dev/null | sed 's/\t.*/\ta\x00b/' >nul.bands
	run --separate-stderr neardup cluster --bands nul.bands
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: nul.bands:1: NUL byte in name'
}

@test "host-053: --files0-from: a name of PATH_MAX bytes or more is refused, the next names hashed" {
	echo 'alpha beta' >ok
	{ head -c 5000 /dev/zero | tr '\0' n; printf '\0ok\0'; } >list0
	run --separate-stderr neardup hash --files0-from=list0
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: list0:1: File name too long'
	assert_output "$(neardup hash ok)"
	# No NUL at all in a big stream: bounded, refused.
	run --separate-stderr bash -c 'words 100000000 | "$NEARDUP" hash --files0-from=-'
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: -:1: File name too long'
}

# ---- fingerprint lines --------------------------------------------------

@test "host-060: malformed, truncated and over-long fingerprint lines: file:line, exit 2 (compare -F, near, cluster)" {
	echo 'alpha beta gamma delta' >ok
	neardup hash ok >ok.fp
	printf 'nd1-simhash64-w3-fs-s0:00000000' >trunc.fp
	{ cat ok.fp; printf 'nd1-simhash64-w3-fs-s0:0000000000000000000  x\n'; } >hex.fp
	{ cat ok.fp; head -c 3000 "$NEARDUP"; } >bin.fp
	{ cat ok.fp; printf 'nd1-simhash64-w3-fs-s0:0000000000000000  '; words 17000000; echo; } >long.fp
	local f
	for f in trunc hex bin long; do
		run --separate-stderr neardup cluster "$f.fp"
		assert_exit TROUBLE
		assert_output ''
		run --separate-stderr neardup near -d 3 ok.fp "$f.fp"
		assert_exit TROUBLE
		run --separate-stderr neardup compare -F "$f.fp"
		assert_exit TROUBLE
		assert_output ''
	done
	run --separate-stderr neardup cluster trunc.fp
	assert_equal "$stderr" 'neardup: trunc.fp:1: fingerprint too short for its scheme'
	run --separate-stderr neardup near -d 3 ok.fp hex.fp
	assert_equal "$stderr" 'neardup: hex.fp:2: fingerprint too long for its scheme'
	run --separate-stderr neardup compare -F bin.fp
	[[ $stderr == 'neardup: bin.fp:2: '* ]] || fail "$stderr"
	run --separate-stderr neardup cluster long.fp
	assert_equal "$stderr" "neardup: long.fp:2: line longer than $RECORD_MAX bytes"
	run --separate-stderr neardup compare -F long.fp
	assert_equal "$stderr" "neardup: long.fp:2: line longer than $RECORD_MAX bytes"
	run --separate-stderr neardup near -d 3 long.fp ok.fp
	assert_equal "$stderr" "neardup: long.fp:2: line longer than $RECORD_MAX bytes"
	run --separate-stderr neardup cluster --sorted long.fp
	assert_equal "$stderr" "neardup: long.fp:1: --sorted groups key fingerprints (-a key) or band lines (--bands)"
	neardup hash -a key ok >k.fp
	{ cat k.fp; printf 'nd1-key3-w3-fs-s0:0000000000000000  '; words 17000000; echo; } >longk.fp
	run --separate-stderr neardup cluster --sorted longk.fp
	assert_equal "$stderr" "neardup: longk.fp:2: line longer than $RECORD_MAX bytes"
	{ neardup hash --bands -a oph ok; printf 'x/1x1/0:00\t'; words 17000000; echo; } >long.bands
	run --separate-stderr neardup cluster --bands long.bands
	assert_exit TROUBLE
	# 21 band lines (at -t 0.5) before it.
	assert_equal "$stderr" "neardup: long.bands:22: line longer than $RECORD_MAX bytes"
	{ printf 'tok\t1\n'; words 17000000; printf '\t2\n'; } >w.tsv
	run --separate-stderr neardup hash --weights=w.tsv ok
	assert_exit TROUBLE
	assert_output ''
	assert_equal "$stderr" "neardup: w.tsv:2: line longer than $RECORD_MAX bytes"
	# A last line without its newline is still a line.
	head -c -1 ok.fp >nonl.fp
	run --separate-stderr neardup near -d 0 nonl.fp ok.fp
	assert_exit OK
}

@test "host-061: mixed schemes: both named, exit 2 (compare -F, near, cluster, --sorted, --bands)" {
	echo 'alpha beta gamma delta' >ok
	neardup hash ok >s.fp
	neardup hash -s 1 ok >s1.fp
	neardup hash -a oph ok >o.fp
	run --separate-stderr neardup compare -F s.fp o.fp
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: fingerprints of different schemes cannot be compared: nd1-simhash64-w3-fs-s0 and nd1-oph128-w3-fs-s0'
	cat s.fp s1.fp >mix.fp
	run --separate-stderr neardup cluster mix.fp
	assert_exit TROUBLE
	assert_equal "$stderr" "neardup: mix.fp:2: scheme nd1-simhash64-w3-fs-s1 differs from the first line's nd1-simhash64-w3-fs-s0"
	run --separate-stderr neardup near -d 3 mix.fp s.fp
	assert_exit TROUBLE
	assert_equal "$stderr" "neardup: mix.fp:2: scheme nd1-simhash64-w3-fs-s1 differs from the first line's nd1-simhash64-w3-fs-s0"
	run --separate-stderr neardup near -d 3 s.fp s1.fp
	assert_exit TROUBLE
	assert_equal "$stderr" "neardup: s1.fp: scheme nd1-simhash64-w3-fs-s1 differs from the index's nd1-simhash64-w3-fs-s0"
	neardup hash -a key ok >k.fp
	neardup hash -a key -s 1 ok >k1.fp
	run --separate-stderr neardup cluster --sorted k.fp k1.fp
	assert_exit TROUBLE
	assert_equal "$stderr" "neardup: k1.fp:1: scheme nd1-key3-w3-fs-s1 differs from the first line's nd1-key3-w3-fs-s0"
	neardup hash --bands -a oph ok >b.bands
	neardup hash --bands -a oph -s 1 ok >b1.bands
	run --separate-stderr neardup cluster --bands b.bands b1.bands
	assert_exit TROUBLE
	[[ $stderr == "neardup: b1.bands:1: band layout nd1-oph128-w3-fs-s1/"*" differs from the first line's nd1-oph128-w3-fs-s0/"* ]] ||
	    fail "$stderr"
}

# ---- option values -------------------------------------------------------

@test "host-070: absurd option values: a usage error naming the option, nothing on stdout (every command)" {
	local c o
	echo 'alpha beta' >ok
	neardup hash ok >ok.fp
	# COMMAND OPTION VALUE MESSAGE: the message matched at the start.
	while IFS='|' read -r c o v m; do
		run --separate-stderr neardup "$c" "$o" "$v" ok ok
		assert_exit TROUBLE
		assert_output ''
		[[ ${stderr_lines[0]} == "neardup: $m"* ]] ||
		    fail "neardup $c $o '$v': ${stderr_lines[0]}"
		assert_stderr_line "^usage: neardup $c "
	done <<'EOF'
hash|-k|100000000|-k: 100000000: too large (range 1 to 4096)
hash|-w|0|-w: 0: too small (range 1 to 64)
hash|-c|-1|-c: -1: too small (range 1 to 64)
hash|-s|99999999999999999999|-s: 99999999999999999999: too large
hash|-j|0|-j: 0: too small (range 1 to 256)
hash|-j|1000000|-j: 1000000: too large (range 1 to 256)
hash|-k||-k: : invalid
hash|-k|64x|-k: 64x: invalid
hash|-t|0x1|-t: 0x1: not a number in (0, 1]
hash|--lsh|0x5|--lsh: 0x5: too small
hash|--lsh|99999999999999999999x1|--lsh: 99999999999999999999x1: too large
compare|-k|100000000|-k: 100000000: too large
compare|-w|65|-w: 65: too large (range 1 to 64)
compare|-t|-0.5|-t: -0.5: not a number in [0, 1]
compare|-t|1.5|-t: 1.5: not a number in [0, 1]
compare|-t| 0.5|-t:  0.5: not a number in [0, 1]
compare|-t|nan|-t: nan: not a number in [0, 1]
compare|-t||-t: : not a number in [0, 1]
compare|-s|-1|-s: -1: too small
cluster|-d|65|-d: 65: too large (range 0 to 64)
cluster|-d|-1|-d: -1: too small (range 0 to 64)
cluster|-d|99999999999999999999|-d: 99999999999999999999: too large
cluster|-t|0|-t: 0: not a number in (0, 1]
cluster|-t|1e999|-t: 1e999: not a number in (0, 1]
cluster|-t|0.8junk|-t: 0.8junk: not a number in (0, 1]
cluster|-j|-4|-j: -4: too small
cluster|--lsh|0x0|--lsh: 0x0: too small
near|-d|65|-d: 65: too large (range 0 to 64)
near|-d||-d: : invalid
near|-n|0|-n: 0: too small (range 1 to 4294967295)
near|-n|99999999999999999999|-n: 99999999999999999999: too large
near|-k|100000000|-k: 100000000: too large
uniq|-t|0|-t: 0: not a number in (0, 1]
uniq|-t|inf|-t: inf: not a number in (0, 1]
uniq|-t|0x0.8|-t: 0x0.8: not a number in (0, 1]
uniq|--words|0|--words: 0: too small (range 1 to 64)
uniq|--chars|99999999999999999999|--chars: 99999999999999999999: too large
uniq|-s|1.5|-s: 1.5: invalid
uniq|-f|x|-f: x: invalid
uniq|-w|-1|-w: -1: too small
EOF
	# cluster -d past what its fingerprints have: after reading them.
	run --separate-stderr neardup cluster -d 33 ok.fp
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: -d: 33: too large for 64-bit fingerprints'
	run --separate-stderr neardup near -d 33 ok.fp ok.fp
	assert_exit TROUBLE
	assert_equal "$stderr" 'neardup: -d: 33: too large for 64-bit fingerprints (at most 32)'
}

# ---- faults on output ----------------------------------------------------

@test "host-080: a write error on stdout: stdout named, exit 2, for every command" {
	[ -w /dev/full ] || skip "no /dev/full"
	echo 'alpha beta gamma delta' >a
	cp a b
	neardup hash a b >ab.fp
	neardup hash -a oph a b >o.fp
	neardup hash -a key a b >k.fp
	neardup hash --bands -a oph a b >b.bands
	local c
	for c in 'hash a' 'hash --lines a' 'hash --bands -a oph a' 'compare a b' \
	    'compare --format=json a b' 'compare -F ab.fp' 'cluster o.fp' \
	    'cluster --pairs o.fp' 'cluster --format=json o.fp' 'cluster --docs a b' \
	    'cluster --bands b.bands' 'cluster --sorted k.fp' 'near -d 0 ab.fp ab.fp' \
	    'near -d 0 --self ab.fp' 'near -d 0 --docs ab.fp a' 'uniq a b' \
	    'uniq --count a b' 'uniq -D a b' 'uniq --explain a b' 'help' 'help hash'; do
		run --separate-stderr bash -c '"$NEARDUP" '"$c"' >/dev/full'
		assert_exit TROUBLE
		assert_equal "$stderr" 'neardup: stdout: No space left on device'
	done
}

@test "host-081: SIGPIPE: command | head -1 ends quietly, with the SIGPIPE status or 0 (every command)" {
	local c
	mkdir t
	seq -f 'document %g has words of its own and some shared ones' 3000 >lines
	split -l 1 -a 4 lines t/f
	neardup hash -r t >t.fp
	neardup hash -a oph -r t >o.fp
	for c in 'hash -r t' 'hash --lines lines' 'hash --bands -a oph -r t' \
	    'cluster --all o.fp' 'cluster --all -r t' 'near -d 8 --self t.fp' \
	    'near -d 8 t.fp t.fp' 'uniq -t 1 lines' 'compare --passages lines lines'; do
		run --separate-stderr bash -c '"$NEARDUP" '"$c"' | head -1 >/dev/null; echo "${PIPESTATUS[0]}"'
		assert_stderr_empty
		[[ $output == 0 || $output == 141 ]] || fail "$c: exit $output"
	done
}

# ---- issue 26: six cases that hung, crawled or answered wrongly ---------

# growth ARGS...: assert_linear, where times mean something: an emulated
# neardup (make check-s390x) is timed with the emulator's own costs, which
# do not grow with the input as neardup's do.  Natively, always.
growth() {
	native || return 0
	assert_linear "$@"
}

@test "host-090: compare --passages is linear on repetitive text: one word, zero bytes in hex, two words at random" {
	# One word repeated: every 5-gram has one hash, recorded at every word.
	yes a | head -n 25000 >in.1
	yes a | head -n 100000 >in.4
	growth compare --passages @ @
	head -c 25000 /dev/zero | od -An -tx1 -v >in.1
	head -c 100000 /dev/zero | od -An -tx1 -v >in.4
	growth compare --passages @ @
	perl -e 'srand(1); print rand() < 0.5 ? "a\n" : "b\n" for 1 .. 100000' >in.1
	perl -e 'srand(2); print rand() < 0.5 ? "a\n" : "b\n" for 1 .. 400000' >in.4
	growth compare --passages @ @
	# Eight words at random: each 5-gram recorded about 64 times, just
	# under the limit, every one of them a seed.
	perl -e 'srand(3); print "w", int(rand(8)), "\n" for 1 .. 100000' >in.1
	perl -e 'srand(4); print "w", int(rand(8)), "\n" for 1 .. 400000' >in.4
	growth compare --passages @ @
	# Memory within the bound of LIMITS: both texts, 20 bytes a word of
	# each, and 48 more a word of b (not under AddressSanitizer, whose
	# shadow and quarantine take as much again).
	sanitized && return 0
	yes a | head -n 2000000 >big
	peak rss compare --passages big big >/dev/null
	assert_below 'compare --passages' "$(cat rss)" $(((2 * 4000000 + 2 * 20 * 2000000 + 48 * 2000000) / 1024 + 8192))
}

@test "host-091: cluster never blocks on a FIFO named in its input: an empty text not in a regular file is alone, with a message" {
	mkfifo ff
	printf '%s\n' "nd1-simhash64-w3-fs-s0:$EMPTY_SIMHASH64  ff" \
	    "nd1-simhash64-w3-fs-s0:$EMPTY_SIMHASH64  /dev/null" >e2
	local msg='not a regular file: its empty text is compared with no other'
	run --separate-stderr timeout 10 "$NEARDUP" cluster -d 3 --all e2
	assert_exit OK
	assert_output $'ff\n\n/dev/null'
	assert_equal "$stderr" "neardup: ff: $msg"$'\n'"neardup: /dev/null: $msg"
	run --separate-stderr timeout 10 "$NEARDUP" cluster -d 3 --pairs e2
	assert_exit OK
	assert_output ''
	assert_stderr_line "^neardup: ff: $msg\$"
	# A FIFO read as a document, its writer gone after writing nothing.
	mkfifo ff2
	: >empty
	timeout 10 sh -c ": >ff2" &
	run --separate-stderr timeout 10 "$NEARDUP" cluster --all --docs ff2 empty
	wait
	assert_exit OK
	assert_output $'ff2\n\nempty'
	assert_equal "$stderr" "neardup: ff2: $msg"
	# Regular files of the same bytes still join.
	: >empty2
	run --separate-stderr timeout 10 "$NEARDUP" cluster --all --docs empty empty2
	assert_exit OK
	assert_output $'empty\nempty2'
	assert_stderr_empty
}

@test "host-092: an endless line of fingerprints, bands or weights is refused at the limit, not read forever" {
	echo 'alpha beta gamma delta' >doc
	neardup hash doc >doc.fp
	local c
	for c in 'cluster /dev/zero' 'cluster --sorted /dev/zero' \
	    'cluster --bands /dev/zero' 'near -d 3 /dev/zero doc.fp' \
	    'near -d 3 doc.fp /dev/zero' 'compare -F /dev/zero' \
	    'hash --weights=/dev/zero doc'; do
		# shellcheck disable=SC2086 # $c is a command and its arguments
		run --separate-stderr timeout 20 "$NEARDUP" $c
		assert_exit TROUBLE
		assert_output ''
		assert_equal "$stderr" "neardup: /dev/zero:1: line longer than $RECORD_MAX bytes"
	done
}

@test "host-093: one pipe named twice, - and /dev/stdin or a FIFO, is refused: it can be read only once" {
	echo 'alpha beta gamma delta epsilon' >doc
	neardup hash doc >doc.fp
	local msg='are one pipe: it can be read only once'
	run --separate-stderr bash -c '"$NEARDUP" compare - /dev/stdin <doc' _
	# A regular file as standard input can be read again by its name.
	assert_exit OK
	run --separate-stderr bash -c 'cat doc | "$NEARDUP" compare - /dev/stdin'
	assert_exit TROUBLE
	assert_output ''
	assert_equal "$stderr" "neardup: - and /dev/stdin $msg"
	run --separate-stderr bash -c 'cat doc | "$NEARDUP" compare /dev/stdin -'
	assert_exit TROUBLE
	assert_equal "$stderr" "neardup: /dev/stdin and - $msg"
	mkfifo f
	timeout 10 sh -c 'cat doc >f' &
	run --separate-stderr timeout 10 "$NEARDUP" compare f f
	cat f >/dev/null
	wait
	assert_exit TROUBLE
	assert_output ''
	assert_equal "$stderr" "neardup: f and f $msg"
	run --separate-stderr bash -c 'cat doc.fp | "$NEARDUP" near -d 3 - /dev/stdin'
	assert_exit TROUBLE
	assert_output ''
	assert_equal "$stderr" "neardup: - and /dev/stdin $msg"
	run --separate-stderr bash -c 'cat doc.fp | "$NEARDUP" near -d 3 --docs - /dev/stdin'
	assert_exit TROUBLE
	assert_equal "$stderr" "neardup: - and /dev/stdin $msg"
	timeout 10 sh -c 'cat doc.fp >f' &
	run --separate-stderr timeout 10 "$NEARDUP" near -d 3 f doc.fp f
	cat f >/dev/null
	wait
	assert_exit TROUBLE
	assert_equal "$stderr" "neardup: f and f $msg"
	# Two names of one regular file are two reads of it.
	run --separate-stderr neardup near -d 0 doc.fp doc.fp
	assert_exit OK
}

@test "host-094: upper-case hex is refused alike in fingerprint lines, with --sorted and in band keys" {
	local s=nd1-simhash64-w3-fs-s0 k=nd1-key3-w3-fs-s0
	local msg='upper-case hex digit (neardup reads and writes lower case)'
	printf '%s\n' "$s:00000000000000ab  y" "$s:00000000000000AB  x" >up.fp
	run --separate-stderr neardup cluster --all up.fp
	assert_exit TROUBLE
	assert_output ''
	assert_equal "$stderr" "neardup: up.fp:2: $msg"
	run --separate-stderr neardup near -d 0 up.fp up.fp
	assert_exit TROUBLE
	assert_equal "$stderr" "neardup: up.fp:2: $msg"
	run --separate-stderr neardup compare -F up.fp
	assert_exit TROUBLE
	assert_equal "$stderr" "neardup: up.fp:2: $msg"
	# Sorted, the two keys are apart: they could not be equal here alone.
	printf '%s\n' "$k:00000000000000AB  x" "$k:00000000000000ab  y" |
	    LC_ALL=C sort >k.fp
	run --separate-stderr neardup cluster --sorted k.fp
	assert_exit TROUBLE
	assert_equal "$stderr" "neardup: k.fp:1: $msg"
	run --separate-stderr neardup cluster k.fp
	assert_exit TROUBLE
	assert_equal "$stderr" "neardup: k.fp:1: $msg"
	printf 'nd1-oph128-w3-fs-s0/14x9/0:B072a76748d51d37\tdoc\n' >up.bands
	run --separate-stderr neardup cluster --bands up.bands
	assert_exit TROUBLE
	assert_equal "$stderr" "neardup: up.bands:1: not a band key: $msg"
}

@test "host-095: near --self and cluster -d at a large distance are no slower than a plain scan, and near streams its pairs" {
	native || skip 'timed against a scan built for this machine'
	local flag= slack=2 ts tn tc t0 t1
	grep -qw popcnt /proc/cpuinfo && flag=-mpopcnt
	sanitized && slack=6
	cc -O2 $flag -o hamscan "$BATS_TEST_DIRNAME/tools/hamscan.c"
	perl -e 'srand(7); printf "nd1-simhash64-w3-fs-s0:%08x%08x  f%d\n",
	    int(rand(2**32)), int(rand(2**32)), $_ for 1 .. 30000' >fp
	# The same pairs as the scan, in the time of the scan.
	run -0 ./hamscan 16 fp
	local want=$output
	[ "$want" -gt 0 ] || fail "no pair within 16 bits"
	run -0 bash -c '"$NEARDUP" near -d 16 --self fp | wc -l'
	assert_output "$want"
	ts=$(cpu_time 60 ./hamscan 16 fp)
	tn=$(cpu_seconds 60 near -d 16 --self fp)
	tc=$(cpu_seconds 60 cluster -d 16 --pairs fp)
	awk -v s="$ts" -v n="$tn" -v k="$slack" 'BEGIN { exit !(n <= k * s + 0.3) }' ||
	    fail "near -d 16 --self: $tn s, the scan $ts s"
	awk -v s="$ts" -v c="$tc" -v k="$slack" 'BEGIN { exit !(c <= k * s + 0.3) }' ||
	    fail "cluster -d 16 --pairs: $tc s, the scan $ts s"
	# The first pairs of 400,000 fingerprints come out at once, long
	# before the join ends (a minute here).
	perl -e 'srand(8); printf "nd1-simhash64-w3-fs-s0:%08x%08x  f%d\n",
	    int(rand(2**32)), int(rand(2**32)), $_ for 1 .. 400000' >big
	t0=$EPOCHREALTIME
	run -0 bash -c 'timeout 60 "$NEARDUP" near -d 16 --self big | head -n 1'
	t1=$EPOCHREALTIME
	[[ $output == f*$'\t'f*$'\t'* ]] || fail "first line: $output"
	awk -v a="$t0" -v b="$t1" -v k="$slack" 'BEGIN { exit !(b - a <= 3 * k) }' ||
	    fail "the first pair after $(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }') s"
}
