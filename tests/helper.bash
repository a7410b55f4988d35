# Common setup of the neardup bats suites: load with `load helper`.
#
# Every test runs in its own $BATS_TEST_TMPDIR against the binary $NEARDUP
# (default: ../neardup beside this directory).

bats_require_minimum_version 1.5.0
bats_load_library bats-support
bats_load_library bats-assert

TESTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT_DIR=$(cd "$TESTS_DIR/.." && pwd)
NEARDUP=${NEARDUP:-$ROOT_DIR/neardup}
case $NEARDUP in
/*) ;;
*) NEARDUP=$PWD/$NEARDUP ;;
esac
export NEARDUP

# Exit status, as in src/cli/cli.h and EXIT STATUS in neardup(1).
EXIT_OK=0
EXIT_DIFFER=1
EXIT_TROUBLE=2

# The fingerprints of an empty document (no words), for the default sizes.
EMPTY_SIMHASH64=0000000000000000
EMPTY_SIMHASH128=00000000000000000000000000000000
EMPTY_KEY=0000000000000000

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

# neardup ARGS...: the binary under test.
neardup() {
	"$NEARDUP" "$@"
}

# fixture NAME: the path of tests/fixtures/NAME.
fixture() {
	printf '%s\n' "$TESTS_DIR/fixtures/$1"
}

# repeat STRING COUNT: STRING written COUNT times.
repeat() {
	local i out=
	for ((i = 0; i < $2; i++)); do
		out+=$1
	done
	printf '%s' "$out"
}

# assert_exit NAME: $status is EXIT_NAME (OK, DIFFER or TROUBLE).
assert_exit() {
	local var=EXIT_${1#EXIT_}
	local want=${!var-}
	if [ -z "$want" ]; then
		fail "assert_exit: unknown exit status name '$1'"
		return
	fi
	if [ "$status" -ne "$want" ]; then
		batslib_print_kv_single_or_multi 8 \
		    expected "$want ($var)" actual "$status" \
		    output "$output" \
		    stderr "${stderr-}" |
		    batslib_decorate 'exit status differs' |
		    fail
	fi
}

# assert_stderr_empty: a `run --separate-stderr` command wrote nothing to
# standard error.
assert_stderr_empty() {
	if [ -n "${stderr-}" ]; then
		batslib_print_kv_single_or_multi 8 stderr "$stderr" |
		    batslib_decorate 'stderr is not empty' | fail
	fi
}

# assert_stderr_line REGEX: some line of $stderr matches REGEX (ERE).
assert_stderr_line() {
	local l
	for l in "${stderr_lines[@]}"; do
		[[ $l =~ $1 ]] && return 0
	done
	batslib_print_kv_single_or_multi 8 regexp "$1" stderr "${stderr-}" |
	    batslib_decorate 'no line of stderr matches' | fail
}

# fp_scheme LINE, fp_hex LINE, fp_name LINE: the fields of a fingerprint
# line SCHEME:HEX<2 spaces>NAME (NAME as printed, escapes and all).
fp_scheme() {
	printf '%s\n' "${1%%:*}"
}
fp_hex() {
	local rest=${1#*:}
	printf '%s\n' "${rest%%  *}"
}
fp_name() {
	printf '%s\n' "${1#*  }"
}

# hamming HEX HEX: the number of bits in which two equal-length hex
# strings differ.
hamming() {
	local a=$1 b=$2 i x d=0
	if [ "${#a}" -ne "${#b}" ]; then
		echo "hamming: lengths differ: $a $b" >&2
		return 1
	fi
	for ((i = 0; i < ${#a}; i++)); do
		x=$((16#${a:i:1} ^ 16#${b:i:1}))
		while ((x)); do
			d=$((d + (x & 1)))
			x=$((x >> 1))
		done
	done
	echo "$d"
}


# jq_true FILTER: the JSON in $output makes FILTER true.
jq_true() {
	jq -e "$1" <<<"$output" >/dev/null ||
	    fail "jq '$1' is not true for: $output"
}

# words BYTES: BYTES bytes of English-like words, no newline, from a pipe;
# a few distinct shingles however long.
words() {
	perl -e '$s = "lorem ipsum dolor sit amet consectetur adipiscing elit " x 20000;
	    print $s while 1' | head -c "$1"
}

# native: $NEARDUP is an executable of this machine, not run by an emulator
# (make check-s390x runs it under qemu through a script).
native() {
	[ "$(head -c 4 "$NEARDUP" | od -An -tx1 | tr -d ' \n')" = 7f454c46 ]
}

# sanitized: $NEARDUP is built with AddressSanitizer (make sanitize).
sanitized() {
	grep -q __asan_init "$NEARDUP"
}

# drop_dac ARGS...: run ARGS without the capabilities that let root read
# any file, so that permissions count as they do for other users; as it
# is when not root.  Fails if root cannot drop them here.
drop_dac() {
	if [ "$(id -u)" -ne 0 ]; then
		"$@"
		return
	fi
	setpriv --bounding-set=-dac_override,-dac_read_search "$@"
}

# need_drop_dac: skip unless permissions can be made to count (drop_dac).
need_drop_dac() {
	drop_dac true 2>/dev/null ||
	    skip "running as root, and unable to drop CAP_DAC_OVERRIDE here"
}

# assert_write_error ARGS...: neardup ARGS, with standard output on
# /dev/full, exits 2 and says that stdout could not be written.
assert_write_error() {
	run --separate-stderr bash -c '"$NEARDUP" "$@" >/dev/full' _ "$@"
	assert_exit TROUBLE
	assert_stderr_line '^neardup: stdout: '
}

# usage_of CMD: the usage of CMD alone, as `neardup help CMD` begins: the
# lines before the blank one that ends it (the option lines follow).
usage_of() {
	"$NEARDUP" help "$1" | sed '/^$/,$d'
}

# assert_usage_on_stdout CMD: neardup CMD -h prints the usage on standard
# output, nothing on standard error, and exits 0.
assert_usage_on_stdout() {
	run --separate-stderr neardup "$1" -h
	assert_exit OK
	assert_stderr_empty
	assert_line --index 0 --regexp "$USAGE_RE"
}

# cpu_time LIMIT COMMAND ARGS...: the CPU time in seconds, user and
# system, of its threads and children too, that COMMAND takes, its output
# discarded; killed after LIMIT seconds, so that at worst about LIMIT.
cpu_time() {
	local limit=$1 t TIMEFORMAT='%3U %3S'
	shift
	t=$( { time timeout "$limit" "$@" >/dev/null 2>&1; } 2>&1)
	awk -v t="$t" 'BEGIN { split(t, f, " "); printf "%.3f\n", f[1] + f[2] }'
}

# cpu_seconds LIMIT ARGS...: cpu_time of neardup ARGS.
cpu_seconds() {
	local limit=$1
	shift
	cpu_time "$limit" "$NEARDUP" "$@"
}

# assert_linear ARGS...: neardup ARGS, each argument @ being in.1 and then
# in.4, an input 4 times the size of in.1, takes at most 5 times as long
# on in.4 as on in.1, and 0.25 s more for the noise of a busy machine: the
# growth of a time linear in the input, not of a quadratic one (16 times).
# Each time is the least of 3 runs.  The run on in.4 is killed past 8
# times that on in.1 and 2 s more, so that a quadratic command fails soon.
assert_linear() {
	local a1=() a4=() x i t t1=1e9 t4=1e9 limit
	for x; do
		if [ "$x" = @ ]; then
			a1+=(in.1)
			a4+=(in.4)
		else
			a1+=("$x")
			a4+=("$x")
		fi
	done
	for i in 1 2 3; do
		t=$(cpu_seconds 120 "${a1[@]}")
		t1=$(awk -v a="$t1" -v b="$t" 'BEGIN { print (b < a ? b : a) }')
	done
	limit=$(awk -v a="$t1" 'BEGIN { print 8 * a + 2 }')
	for i in 1 2 3; do
		t=$(cpu_seconds "$limit" "${a4[@]}")
		t4=$(awk -v a="$t4" -v b="$t" 'BEGIN { print (b < a ? b : a) }')
		awk -v a="$t4" -v l="$limit" 'BEGIN { exit !(a >= l * 0.9) }' &&
		    break	# killed: once is enough
	done
	awk -v a="$t1" -v b="$t4" 'BEGIN { exit !(b <= 5 * a + 0.25) }' ||
	    fail "neardup $*: ${t1} s on in.1, ${t4} s on 4 times the input"
}
