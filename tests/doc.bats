#!/usr/bin/env bats
#
# The man page agrees with the binary: the SYNOPSIS is the usage, each
# command's subsection lists exactly the options the command takes, the
# values of fixed-set options, the environment the source reads, the exit
# status; the sections a user looks for are there, and the examples run.

load helper
load options

MAN=$ROOT_DIR/man/neardup.1

setup_file() {
	export OPTIONS_CACHE=$BATS_FILE_TMPDIR/options
}

# differ WHAT WANT GOT: fail, showing what is missing from GOT and what is
# in it that WANT does not have (both: words one a line).
differ() {
	[ "$2" = "$3" ] && return 0
	batslib_print_kv_single_or_multi 10 \
	    missing "$(comm -23 <(sort <<<"$2") <(sort <<<"$3") | tr '\n' ' ')" \
	    unexpected "$(comm -13 <(sort <<<"$2") <(sort <<<"$3") | tr '\n' ' ')" |
	    batslib_decorate "$1" | fail
}

@test "doc-001: every command has a subsection of its own" {
	local c missing=
	for c in $(commands); do
		grep -qxF ".Ss $c" "$MAN" || missing+=" $c"
	done
	[ -z "$missing" ] || fail "no .Ss in man/neardup.1 for:$missing"
}

@test "doc-002: the SYNOPSIS of each command is its usage" {
	local c bad=
	for c in $(commands); do
		[ "$(man_synopsis "$c")" = "$(usage_line "$c")" ] && continue
		bad+="usage:    $(usage_line "$c")"$'\n'
		bad+="SYNOPSIS: $(man_synopsis "$c")"$'\n'
	done
	[ -z "$bad" ] || fail "SYNOPSIS and usage differ:"$'\n'"$bad"
}

@test "doc-003: the global options in DESCRIPTION and SYNOPSIS are those of main.c" {
	local want
	want=$(cmd_options '' | LC_ALL=C sort)
	[ -n "$want" ] || fail "no global options found in src/cli/main.c"
	differ "DESCRIPTION lists other global options than main.c" \
	    "$want" "$(man_options '')"
	differ "SYNOPSIS gives other global options than neardup -h" \
	    "$(usage_words '' | LC_ALL=C sort)" \
	    "$(awk '/^\.Sh SYNOPSIS/ { f = 1; next } f && /^\.Cm/ { exit }
		f && /^\.Fl/ { for (i = 2; i <= NF; i++) print $i }' "$MAN" |
		grep -v '^|$' | fl_words)"
}

@test "doc-004: each command's subsection lists exactly the options it takes" {
	local c want got bad=
	for c in $(commands); do
		want=$(cmd_options "$c" | LC_ALL=C sort)
		got=$(man_options "$c")
		[ "$want" = "$got" ] && continue
		bad+="$c: missing: $(comm -23 <(echo "$want") <(echo "$got") |
		    tr '\n' ' ')unexpected: $(comm -13 <(echo "$want") \
		    <(echo "$got") | tr '\n' ' ')"$'\n'
	done
	[ -z "$bad" ] || fail "the option lists of neardup(1) are wrong:"$'\n'"$bad"
}

@test "doc-005: an option in a table but not in the usage is refused" {
	local c o bad=
	for c in $(commands); do
		for o in $(refused_options "$c"); do
			run -2 --separate-stderr "$NEARDUP" "$c" "$o" x
			[[ $stderr == *"not an option of $c"* ]] && continue
			bad+="neardup $c $o x: $stderr"$'\n'
		done
	done
	[ -z "$bad" ] || fail "accepted but not in the usage:"$'\n'"$bad"
}

@test "doc-006: each value of a fixed-set option is documented for its command" {
	local c o vals v bad= sec n=0
	for c in $(commands); do
		sec=$(man_section "$c")
		while read -r o vals; do
			[[ $o == --* ]] || continue
			for v in $vals; do
				n=$((n + 1))
				grep -qE "(^\.(It )?|[ |])Cm $v( |\$)" <<<"$sec" ||
				    bad+=" $c $o=$v"
			done
		done < <(value_options "$c")
	done
	((n >= 20)) || fail "only $n values found"
	[ -z "$bad" ] || fail "values not in their command's subsection:$bad"
}

@test "doc-007: the sections a user looks for are there" {
	local s missing=
	for s in NAME SYNOPSIS DESCRIPTION 'FINGERPRINT FORMAT' ENVIRONMENT \
	    'EXIT STATUS' EXAMPLES DIAGNOSTICS 'SEE ALSO'; do
		grep -qxF ".Sh $s" "$MAN" || missing+=" '$s'"
	done
	[ -z "$missing" ] || fail "sections missing from neardup(1):$missing"
}

@test "doc-008: ENVIRONMENT names every variable the source reads" {
	local v missing= env
	env=$(awk '/^\.Sh ENVIRONMENT/ { f = 1; next } f && /^\.Sh/ { exit }
	    f && /^\.It Ev / { print $3 }' "$MAN")
	for v in $(grep -rhoE 'getenv\("[A-Za-z_0-9]+"\)' "$ROOT_DIR/src" |
	    sed -E 's/getenv\("(.*)"\)/\1/' | LC_ALL=C sort -u); do
		grep -qxF "$v" <<<"$env" || missing+=" $v"
	done
	[ -z "$missing" ] || fail "not under ENVIRONMENT:$missing"
}

@test "doc-009: EXIT STATUS gives 0, 1 and 2, as cli.h defines them" {
	local got
	got=$(awk '/^\.Sh EXIT STATUS/ { f = 1; next } f && /^\.Sh/ { exit }
	    f && /^\.It [0-9]+$/ { print $2 }' "$MAN" | tr '\n' ' ')
	assert_equal "$got" "0 1 2 "
	assert_equal "$(awk '$1 == "#define" && $2 ~ /^EXIT_/ { print $3 }' \
	    "$ROOT_DIR/src/cli/cli.h" | tr '\n' ' ')" "0 1 2 "
}

@test "doc-010: EXAMPLES show a pipeline, a directory dedup and two documents" {
	local ex
	ex=$(awk '/^\.Sh EXAMPLES/ { f = 1; next } f && /^\.Sh/ { exit } f' "$MAN")
	grep -qE '\| *neardup [a-z]' <<<"$ex" || fail "no pipeline into neardup"
	grep -qE 'neardup cluster .*--dups.* -r ' <<<"$ex" ||
	    fail "no directory dedup (cluster --dups -r)"
	grep -qE 'neardup compare [^|]*[a-z]+\.txt [a-z]+\.txt' <<<"$ex" ||
	    fail "no two documents compared"
}

@test "doc-011: the command lines of EXAMPLES parse" {
	local l cmd bad= n=0
	local -a w
	# Each "neardup ..." up to a pipe, a redirection or a quote, with
	# mdoc's escapes undone; -h after its options makes neardup parse
	# them all, then print the usage and exit 0.
	while IFS= read -r l; do
		n=$((n + 1))
		read -ra w <<<"$l"
		run "$NEARDUP" "${w[@]:1}" -h
		[ "$status" -eq 0 ] && [[ $output == usage:* ]] && continue
		bad+="$l: $output"$'\n'
	done < <(awk '/^\.Sh EXAMPLES/ { f = 1; next } f && /^\.Sh/ { exit } f' \
	    "$MAN" | sed -e 's/\\e$//' -e 's/\\&//g' -e 's/\\-/-/g' |
	    grep -oE "neardup [a-z][^|&;<>'\\\\]*" | sed 's/ *$//')
	((n >= 10)) || fail "only $n examples found"
	[ -z "$bad" ] || fail "examples that do not parse:"$'\n'"$bad"
}

@test "doc-012: every test ID is used once, so that a failure names one test" {
	local dup
	dup=$(grep -ho '^@test "[a-z0-9]*-[0-9]*' "$ROOT_DIR"/tests/*.bats |
	    sed 's/^@test "//' | LC_ALL=C sort | uniq -d)
	[ -z "$dup" ] || fail "test IDs used twice: $(echo $dup)"
}
