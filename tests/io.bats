#!/usr/bin/env bats
#
# The command line as a whole: version, help, command lookup, and the
# agreement of the usage with the man page and the completion files.

load helper
load options

MAN=$ROOT_DIR/man/neardup.1

# commands: the command names listed by `neardup -h`, one a line.
commands() {
	"$NEARDUP" -h | awk '/^commands:/ { on = 1; next } on && NF { print $1 }'
}

# usage_options [COMMAND]: the options in `neardup help COMMAND` (default
# hash), one a line: single letters as -x, long ones as --name.
usage_options() {
	usage_of "${1:-hash}" |
	    grep -oE '(^|[[ |])-[A-Za-z0-9]+|--[a-z0-9][a-z0-9-]*' |
	    sed 's/^[[ |]*//' |
	    awk '/^--/ { print; next } { for (i = 2; i <= length($0); i++) print "-" substr($0, i, 1) }' |
	    sort -u
}

# fl_options: the options named by Fl macros on standard input, in the
# form of usage_options.
fl_options() {
	grep -oE 'Fl (\\-[a-z0-9][a-z0-9-]*|[A-Za-z0-9]+)' |
	    sed 's/^Fl //' |
	    awk '/^\\-/ { print "-" substr($0, 2); next }
	        { for (i = 1; i <= length($0); i++) print "-" substr($0, i, 1) }' |
	    sort -u
}

# man_options [COMMAND]: the options of the SYNOPSIS of COMMAND (default
# hash) in neardup(1), same form.
man_options() {
	awk -v c="${1:-hash}" '/^\.Sh SYNOPSIS/ { syn = 1; next }
	    /^\.Sh / { syn = 0 }
	    syn && /^\.Nm/ { cmd = 0 }
	    syn && $1 == ".Cm" && $2 == c { cmd = 1; next }
	    syn && cmd { print }' "$MAN" | fl_options
}

# man_section_options COMMAND: the options that head an item (.It Fl ...)
# of the subsection COMMAND of neardup(1), same form.
man_section_options() {
	awk -v c="$1" '$1 == ".Ss" { sec = ($2 == c); next }
	    /^\.Sh / { sec = 0 }
	    sec && /^\.It Fl / { print }' "$MAN" | fl_options
}

@test "io-001: -V prints neardup 0.1.0" {
	run --separate-stderr neardup -V
	assert_exit OK
	assert_stderr_empty
	assert_output 'neardup 0.1.0'
	run neardup --version
	assert_exit OK
	assert_output 'neardup 0.1.0'
}

@test "io-002: the version is the Makefile's VERSION" {
	[ -f "$ROOT_DIR/Makefile" ] || skip "no Makefile"
	local v
	v=$(sed -n 's/^VERSION[[:space:]]*=[[:space:]]*//p' "$ROOT_DIR/Makefile")
	[ -n "$v" ]
	run neardup -V
	assert_output "neardup $v"
}

@test "io-003: -h lists the commands hash and help on stdout" {
	run --separate-stderr neardup -h
	assert_exit OK
	assert_stderr_empty
	assert_line --index 0 --regexp '^usage: neardup '
	assert_line --regexp '^  hash +[a-z]'
	assert_line --regexp '^  help +[a-z]'
	run neardup --help
	assert_exit OK
	assert_line --regexp '^  hash '
}

@test "io-004: help with no command prints the command list" {
	run --separate-stderr neardup help
	assert_exit OK
	assert_stderr_empty
	assert_output "$(neardup -h)"
}

@test "io-005: help hash prints the usage of hash, as hash -h does" {
	run --separate-stderr neardup help hash
	assert_exit OK
	assert_stderr_empty
	assert_line --index 0 --regexp '^usage: neardup hash \['
	assert_output "$(neardup hash -h)"
	assert_output "$(neardup hash --help)"
}

@test "io-006: the usage of hash names every option of the spec" {
	run usage_options
	local o
	for o in -a -c -h -j -k -L -r -s -w -z --files0-from --keep-case \
	    --keep-punct --lines --tsv --multiset --weights; do
		assert_line -- "$o"
	done
}

@test "io-007: every option in the usage of hash is in the man SYNOPSIS and back" {
	[ -f "$MAN" ] || skip "no man/neardup.1 yet"
	usage_options >usage.opts
	man_options >man.opts
	[ -s usage.opts ] || fail "no options parsed from the usage"
	[ -s man.opts ] || fail "no options parsed from the man SYNOPSIS"
	diff -u --label usage usage.opts --label man.opts man.opts ||
	    fail "the options of 'neardup help hash' and the hash SYNOPSIS of neardup(1) differ"
}

@test "io-017: the usage of compare names every option of the spec" {
	run usage_options compare
	local o
	for o in -a -c -F -h -k -q -s -t -w --color --containment --format \
	    --keep-case --keep-punct --multiset --passages --weights; do
		assert_line -- "$o"
	done
}

@test "io-018: every option in the usage of compare is in the man SYNOPSIS and back" {
	[ -f "$MAN" ] || skip "no man/neardup.1 yet"
	usage_options compare >usage.opts
	man_options compare >man.opts
	[ -s usage.opts ] || fail "no options parsed from the usage"
	[ -s man.opts ] || fail "no options parsed from the man SYNOPSIS"
	diff -u --label usage usage.opts --label man.opts man.opts ||
	    fail "the options of 'neardup help compare' and the compare SYNOPSIS of neardup(1) differ"
}

@test "io-023: the usage of near names every option of the spec" {
	run usage_options near
	local o
	for o in -c -d -h -k -L -n -r -s -w -z --docs --format --keep-case \
	    --keep-punct --multiset --self --weights; do
		assert_line -- "$o"
	done
}

@test "io-024: every option in the usage of near is in the man SYNOPSIS and back" {
	[ -f "$MAN" ] || skip "no man/neardup.1 yet"
	usage_options near >usage.opts
	man_options near >man.opts
	[ -s usage.opts ] || fail "no options parsed from the usage"
	[ -s man.opts ] || fail "no options parsed from the man SYNOPSIS"
	diff -u --label usage usage.opts --label man.opts man.opts ||
	    fail "the options of 'neardup help near' and the near SYNOPSIS of neardup(1) differ"
}

@test "io-025: the near SYNOPSIS of neardup(1) is the usage of near, word for word" {
	[ -f "$MAN" ] || skip "no man/neardup.1 yet"
	command -v mandoc >/dev/null || skip "no mandoc"
	local usage man
	usage=$(usage_of near | sed 's/^usage: //' | tr -s ' \t\n' ' ')
	man=$(MANWIDTH=1000 mandoc -Tascii -O width=1000 "$MAN" | col -b |
	    awk '/^SYNOPSIS/ { on = 1; next } /^[A-Z]/ { on = 0 } on' |
	    tr -s ' \t\n' ' ' | grep -o 'neardup near .*')
	man=${man%% neardup *}
	assert_equal "${man% }" "${usage% }"
}

@test "io-027: the usage of cluster names every option of the spec" {
	run usage_options cluster
	local o
	for o in -a -c -d -h -j -k -L -r -s -t -v -w -z --all --bands --docs \
	    --dups --format --keep --keep-case --keep-punct --lsh --multiset \
	    --pairs --sorted --uniques --weights; do
		assert_line -- "$o"
	done
}

@test "io-028: every option in the usage of cluster is in the man SYNOPSIS and back" {
	[ -f "$MAN" ] || skip "no man/neardup.1 yet"
	usage_options cluster >usage.opts
	man_options cluster >man.opts
	[ -s usage.opts ] || fail "no options parsed from the usage"
	[ -s man.opts ] || fail "no options parsed from the man SYNOPSIS"
	diff -u --label usage usage.opts --label man.opts man.opts ||
	    fail "the options of 'neardup help cluster' and the cluster SYNOPSIS of neardup(1) differ"
}

# synopsis COMMAND: the SYNOPSIS line of COMMAND in neardup(1), and its
# usage, each on one line with single spaces.
synopsis() {
	local usage man
	usage=$(usage_of "$1" | sed 's/^usage: //' | tr -s ' \t\n' ' ')
	man=$(MANWIDTH=1000 mandoc -Tascii -O width=1000 "$MAN" | col -b |
	    awk '/^SYNOPSIS/ { on = 1; next } /^[A-Z]/ { on = 0 } on' |
	    tr -s ' \t\n' ' ' | grep -o "neardup $1 .*")
	man=${man%% neardup *}
	printf '%s\n%s\n' "${man% }" "${usage% }"
}

@test "io-029: the cluster and hash SYNOPSIS of neardup(1) are their usages, word for word" {
	[ -f "$MAN" ] || skip "no man/neardup.1 yet"
	command -v mandoc >/dev/null || skip "no mandoc"
	local c
	for c in cluster hash; do
		run synopsis "$c"
		assert_equal "${#lines[@]}" 2
		assert_equal "${lines[0]}" "${lines[1]}"
	done
}

@test "io-030: every long option in the usage of cluster is accepted" {
	local o
	for o in $(usage_options cluster | grep -- '^--'); do
		run --separate-stderr neardup cluster "$o" </dev/null
		if [[ $stderr == *unrecognized* || $stderr == *"invalid option"* ]]; then
			fail "neardup cluster $o: $stderr"
		fi
	done
}

@test "io-019: every option in the usage of hash, compare, cluster and near is described in its subsection" {
	[ -f "$MAN" ] || skip "no man/neardup.1 yet"
	local c o
	for c in hash compare cluster near; do
		man_section_options "$c" >section.opts
		[ -s section.opts ] || fail "no .It Fl items in the $c subsection"
		for o in $(usage_options "$c"); do
			grep -qxe "$o" section.opts ||
			    fail "option $o of $c has no item in the .Ss $c subsection of neardup(1)"
		done
	done
}

@test "io-008: every long option in the usage of hash is accepted" {
	local o
	for o in $(usage_options | grep -- '^--'); do
		run --separate-stderr neardup hash "$o" </dev/null
		if [[ $stderr == *unrecognized* || $stderr == *"invalid option"* ]]; then
			fail "neardup hash $o: $stderr"
		fi
	done
}

@test "io-026: every long option in the usage of near is accepted" {
	local o
	for o in $(usage_options near | grep -- '^--'); do
		run --separate-stderr neardup near "$o" </dev/null
		if [[ $stderr == *unrecognized* || $stderr == *"invalid option"* ]]; then
			fail "neardup near $o: $stderr"
		fi
	done
}

@test "io-009: a unique prefix names a command: neardup ha" {
	run --separate-stderr neardup ha "$(fixture short.txt)"
	assert_exit OK
	assert_stderr_empty
	assert_output "$(neardup hash "$(fixture short.txt)")"
}

@test "io-010: an ambiguous prefix is an error" {
	run --separate-stderr neardup h
	assert_exit TROUBLE
	assert_output ''
	assert_stderr_line '^neardup: ambiguous command: h$'
}

@test "io-011: an unknown command exits 2 with a message and the usage" {
	run --separate-stderr neardup nosuch
	assert_exit TROUBLE
	assert_output ''
	assert_stderr_line '^neardup: unknown command: nosuch$'
	assert_stderr_line '^usage: neardup '
}

@test "io-012: no command exits 2 with the usage on stderr" {
	run --separate-stderr neardup
	assert_exit TROUBLE
	assert_output ''
	assert_stderr_line '^usage: neardup '
}

@test "io-013: help for an unknown command exits 2" {
	run --separate-stderr neardup help nosuch
	assert_exit TROUBLE
	assert_output ''
	assert_stderr_line '^neardup: unknown command: nosuch$'
}

@test "io-014: an unknown global option exits 2 with a neardup: message" {
	run --separate-stderr neardup -Z
	assert_exit TROUBLE
	assert_output ''
	assert_stderr_line '^neardup: .*Z'
	assert_stderr_line '^usage: neardup '
}

@test "io-015: a write error on stdout makes -V and -h exit 2" {
	[ -w /dev/full ] || skip "no /dev/full"
	assert_write_error -V
	assert_write_error help hash
}

@test "io-016: the man page documents every command" {
	[ -f "$MAN" ] || skip "no man/neardup.1 yet"
	local c
	for c in $(commands); do
		grep -qE "^\.Cm $c( |\$)" "$MAN" || fail "command $c not in the man page"
	done
}

# completion_has FILE: every command of `neardup -h`, every long option
# of hash, compare, cluster and near, and the values of cluster's --format
# and --keep, appear in completions/FILE.
completion_has() {
	local f=$ROOT_DIR/completions/$1 c o
	[ -f "$f" ] || skip "completions/$1 does not exist yet"
	[ -n "$(commands)" ] || fail "no commands parsed from neardup -h"
	for c in $(commands); do
		grep -qw -- "$c" "$f" || fail "command $c is not in completions/$1"
	done
	for c in hash compare cluster near; do
		for o in $(usage_options "$c" | grep -- '^--'); do
			# fish declares long options as "-l name"; the others spell "--name"
			grep -qE -- "(--|-l )${o#--}([^a-z0-9-]|\$)" "$f" ||
				fail "option $o of $c is not in completions/$1"
		done
	done
	grep -q 'groups tsv json' "$f" ||
	    fail "the values of cluster --format are not in completions/$1"
	grep -q 'first longest shortest path' "$f" ||
	    fail "the values of cluster --keep are not in completions/$1"
}

@test "io-020: every command is in completions/neardup.bash" {
	completion_has neardup.bash
}

@test "io-021: every command is in completions/_neardup" {
	completion_has _neardup
}

@test "io-022: every command is in completions/neardup.fish" {
	completion_has neardup.fish
}

@test "io-031: with standard input closed, '-' is an error, not the next file opened" {
	printf 'alpha beta gamma delta\n' >a.txt
	neardup hash a.txt >idx.fp
	neardup hash -a oph a.txt >mh.fp
	for cmd in "compare a.txt -" "near -d 3 idx.fp" "uniq a.txt -" \
	    "cluster mh.fp -" "hash -"; do
		run --separate-stderr bash -c "\"\$NEARDUP\" $cmd <&-"
		assert_exit TROUBLE
		assert_stderr_line 'neardup: -: Bad file descriptor'
	done
	run --separate-stderr bash -c '"$NEARDUP" hash a.txt >&-'
	assert_exit TROUBLE
	assert_stderr_line 'neardup: stdout: Bad file descriptor'
}

@test "io-032: help -h and help --help print the usage of help, as every command's -h does" {
	for opt in -h --help; do
		run --separate-stderr neardup help "$opt"
		assert_exit OK
		assert_output 'usage: neardup help [command]'
		assert_equal "$stderr" ''
	done
}

# help_options CMD: the option lines of `neardup CMD --help`, after
# "options:" and before the blank line that ends them.
help_options() {
	"$NEARDUP" "$1" --help | sed -n '/^options:$/,/^$/p' | sed '1d;/^$/d'
}

@test "io-033: CMD --help has a line for each option its table offers, short and long form together" {
	local c l s v re lines bad=
	for c in $(commands); do
		[ "$c" = help ] && continue
		lines=$(help_options "$c")
		[ -n "$lines" ] || { bad+="$c: no option lines"$'\n'; continue; }
		while read -r l s v; do
			# Offered: named by the usage (cmd_options); uniq's -a is not.
			grep -qxF -e "$l" -e "$s" <<<"$(cmd_options "$c")" || {
				grep -qE -- "[ ,]$l([=[, ]|\$)" <<<"$lines" &&
				    bad+="$c: $l is refused, yet in the help"$'\n'
				continue
			}
			if [ "$s" != - ]; then
				grep -qE -- "^  $s, (--[a-z0-9=|-]+, )*$l([=[, ]|\$)" \
				    <<<"$lines" ||
				    bad+="$c: no line '  $s, $l'"$'\n'
			else
				grep -qE -- "^ +(--[a-z0-9=|-]+, )*$l([=[, ]|\$)" \
				    <<<"$lines" || bad+="$c: no line for $l"$'\n'
			fi
		done < <(src_options "$c")
		# Each line says something after the option.
		re='^ +(-[A-Za-z0-9], )?--[^ ,]+(, --[^ ,]+)* +[a-zA-Z(]'
		grep -qvE "$re" <<<"$lines" && bad+="$c: a line without words:"$'\n'"$(
		    grep -vE "$re" <<<"$lines")"$'\n'
		grep -qxF -- '      --version               print the version of neardup and exit' \
		    <<<"$lines" || bad+="$c: no --version line"$'\n'
	done
	[ -z "$bad" ] || fail "$bad"
}

# each_ok OPTION: neardup CMD OPTION succeeds, saying nothing on stderr,
# for each command CMD but help (the commands of option tables), and
# check_OPTION CMD checks what it printed.
each_ok() {
	local c
	for c in $(commands); do
		[ "$c" = help ] && continue
		run --separate-stderr neardup "$c" "$@"
		assert_exit OK
		assert_stderr_empty
		"check_$1" "$c"
	done
}

check_--help() {
	local c=$1
	assert_line --index 0 --partial "usage: neardup $c "
	assert_line 'options:'
	assert_line --index $((${#lines[@]} - 1)) --regexp 'neardup\(1\)'
	assert_output "$(neardup "$c" -h)"
	assert_output "$(neardup help "$c")"
	# A usage error: the short usage alone, on stderr, exit 2.
	run --separate-stderr neardup "$c" --no-such-option
	assert_exit TROUBLE
	assert_output ''
	assert_stderr_line "^usage: neardup $c "
	[[ $stderr != *options:* ]] || fail "$c: the help on a usage error"
}

@test "io-034: CMD --help, CMD -h and help CMD print the usage, the options and a pointer to neardup(1)" {
	each_ok --help
}

check_--version() {
	assert_output "$(neardup --version)"
	assert_write_error "$1" --version
}

@test "io-035: CMD --version prints what neardup --version does" {
	each_ok --version
}
