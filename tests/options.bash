# The options of each command, as the source, the binary and the man page
# tell them: load with `load options` after `load helper`.
#
# The getopt_long tables in src/cli/*.c are the truth about what a command
# accepts; its usage (neardup help CMD) says which of them it offers;
# completion.bats and doc.bats hold the completions and the man page to
# that, so an option added to a table and to the usage but not completed
# or documented fails a test.

# The commands, in the order of the table in src/cli/main.c.
commands() {
	_memo _commands
}

_commands() {
	"$NEARDUP" help | awk 'f && NF { print $1 } /^commands:/ { f = 1 }'
}

# src_options CMD: the options of CMD's getopt_long table and optstring
# (src/cli/CMD.c; src/cli/main.c for the global ones, CMD ""), one a
# line: "--long -s", "--long -" or "- -s".  Macros from src/cli/*.h and
# the file itself are expanded.
src_options() {
	_memo _src_options "$1"
}

_src_options() {
	local file=$ROOT_DIR/src/cli/${1:-main}.c
	[ -f "$file" ] || return 0
	awk -v target="$file" '
	function expand(s,    out, w, rest) {
		out = ""
		while (match(s, /[A-Za-z_][A-Za-z0-9_]*/)) {
			w = substr(s, RSTART, RLENGTH)
			out = out substr(s, 1, RSTART - 1)
			rest = substr(s, RSTART + RLENGTH)
			out = out ((w in macro) ? expand(macro[w]) : w)
			s = rest
		}
		return out s
	}
	# A #define, its continuation lines joined.
	indef {
		body = body " " $0
		if (!sub(/\\$/, "", body))
			indef = 0
		macro[name] = body
		next
	}
	/^#define[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t\\]/ {
		name = $2
		body = $0
		sub(/^#define[ \t]+[A-Za-z_][A-Za-z0-9_]*/, "", body)
		indef = sub(/\\$/, "", body)
		macro[name] = body
		next
	}
	# A command that takes the shingling options by their long names
	# only (uniq): their letters are its own.
	FILENAME == target && /longonly = 1/ { longonly = 1 }
	FILENAME != target { next }
	intable {
		table = table " " $0
		if ($0 ~ /};/)
			intable = 0
		next
	}
	/struct (option|cli_option) longopts\[\] = \{/ { intable = 1; next }
	# The optstring: given to getopt_long, or to cli_parse (parse.c).
	ingetopt || /getopt_long\(/ || /struct cli_parse p = \{/ {
		ingetopt = 1
		opts = opts " " $0
		if ($0 ~ /longopts/)
			ingetopt = 0
		next
	}
	END {
		# The optstring: the string literals after getopt_long(argc, argv,
		sub(/.*getopt_long\([^,]*,[^,]*,/, "", opts)
		sub(/longopts.*/, "", opts)
		opts = expand(opts)
		shorts = ""
		while (match(opts, /"[^"]*"/)) {
			shorts = shorts substr(opts, RSTART + 1, RLENGTH - 2)
			opts = substr(opts, RSTART + RLENGTH)
		}
		# The letters that take an argument: a long option pairs
		# with its letter only if both do or neither does (in uniq,
		# --count is -c, and --chars has no letter).
		tmp = shorts
		gsub(/[+-]/, "", tmp)
		for (i = 1; i <= length(tmp); i++)
			if (substr(tmp, i + 1, 1) == ":")
				argshort[substr(tmp, i, 1)] = 1
		gsub(/[+:-]/, "", shorts)
		table = expand(table)
		while (match(table, /\{[ \t]*"[^"]+"[^}]*\}/)) {
			e = substr(table, RSTART, RLENGTH)
			table = substr(table, RSTART + RLENGTH)
			n = split(e, f, ",")
			lname = f[1]
			sub(/^[^"]*"/, "", lname)
			sub(/".*/, "", lname)
			# Every command takes --version (COMMON_LONG): it is
			# neardup -V, documented once, in no command usage.
			if (lname == "version" && target !~ /\/main\.c$/)
				continue
			val = f[4]
			gsub(/[ \t}]/, "", val)
			s = "-"
			hasarg = f[2] ~ /required_argument/
			lo = longonly &&
			    index(macro["SHOPT_LONG"], "\"" lname "\"") > 0
			if (lo)
				val = "OPT_LONGONLY|" val
			if (!lo && match(val, /\047.\047/)) {
				s = "-" substr(val, RSTART + 1, 1)
				if (index(shorts, substr(s, 2)) == 0 ||
				    hasarg != (substr(s, 2) in argshort))
					s = "-"
				else
					seen[substr(s, 2)] = 1
			}
			print "--" lname, s, val
		}
		for (i = 1; i <= length(shorts); i++) {
			c = substr(shorts, i, 1)
			if (!(c in seen))
				print "-", "-" c, "\047" c "\047"
		}
	}' "$ROOT_DIR"/src/cli/*.h "$file"
}

# usage_words CMD: the options that the usage of CMD names ("" for the
# global usage), one a line: -x for each letter, --name for each long one.
usage_words() {
	_memo _usage_words "$1"
}

_usage_words() {
	local u
	if [ -n "$1" ]; then
		u=$(usage_of "$1") || return
	else
		u=$("$NEARDUP" -h | sed -n 1p) || return
	fi
	{
		grep -oE -- '--[A-Za-z0-9][A-Za-z0-9-]*' <<<"$u"
		grep -oE -- '(^|[^A-Za-z0-9-])-[A-Za-z0-9]+' <<<"$u" |
		    sed 's/^.*-//' | fold -w1 | sed 's/^/-/'
	} | LC_ALL=C sort -u
}

# cmd_options CMD: the options CMD offers, both names, one a line, sorted:
# each option of its table that its usage names, by its long or its short
# name, or by the name of another long option with the same value
# (--colour for --color).  An option of the table that the usage leaves
# out is one the command refuses (doc.bats checks that it does).
cmd_options() {
	_memo _split_options "$1" offered
}

# refused_options CMD: the options of CMD's table that its usage does not
# name, one a line, by their first name.
refused_options() {
	_memo _split_options "$1" refused
}

_split_options() {
	local usage l s v
	local -A named=()
	usage=$(usage_words "$1")
	while read -r l s v; do
		grep -qxF -e "$l" -e "$s" <<<"$usage" && named[$v]=1
	done < <(src_options "$1")
	while read -r l s v; do
		if [ "$2" = offered ] && [ -n "${named[$v]-}" ]; then
			[ "$l" != - ] && printf '%s\n' "$l"
			[ "$s" != - ] && printf '%s\n' "$s"
		elif [ "$2" = refused ] && [ -z "${named[$v]-}" ]; then
			[ "$s" != - ] && printf '%s\n' "$s" || printf '%s\n' "$l"
		fi
	done < <(src_options "$1") | LC_ALL=C sort -u
}

# arg_options CMD: the options of CMD that take an argument, both names,
# one a line (from the ":" of the optstring and the tables' has_arg).
arg_options() {
	_memo _arg_options "$1"
}

_arg_options() {
	local file=$ROOT_DIR/src/cli/${1:-main}.c l s
	while read -r l s _; do
		if [ "$l" != - ] && grep -qE "\"${l#--}\", *required_argument" \
		    "$file" "$ROOT_DIR"/src/cli/*.h; then
			printf "%s\n" "$l"
			[ "$s" != - ] && printf "%s\n" "$s"
		fi
	done < <(src_options "$1")
	return 0
}

# man_section CMD: the text of the subsection ".Ss CMD" of the man page;
# for CMD "", that of DESCRIPTION before its first subsection.
man_section() {
	awk -v ss="${1:+.Ss $1}" '
	$0 == (ss == "" ? ".Sh DESCRIPTION" : ss) { f = 1; next }
	f && /^\.S[hs] / { exit }
	f' "$ROOT_DIR/man/neardup.1"
}

# man_options CMD: the options in the list after "The options are as
# follows:" in the subsection of CMD ("The options that precede the
# command are:" in DESCRIPTION for CMD ""), one a line, sorted: the names
# of "Fl" in the heads (.It) of the list, not of lists nested in it.
man_options() {
	man_section "$1" | awk '
	/^The options (are as follows|that precede the command are):/ {
		f = 1
		next
	}
	!f { next }
	/^\.Bl/ { depth++; next }
	/^\.El/ { if (--depth == 0) exit; next }
	depth == 1 && /^\.It/ {
		for (i = 2; i < NF; i++)
			if ($i == "Fl")
				print $(i + 1)
	}' | fl_words
}

# fl_words: the arguments of mdoc Fl macros (one a line) as options: \-name
# is --name, a cluster of letters is one -x for each.
fl_words() {
	local w
	while read -r w; do
		case $w in
		\\-*) echo "-${w#\\}" ;;
		*) fold -w1 <<<"$w" | sed 's/^/-/' ;;
		esac
	done | sed 's/[,;.]$//' | LC_ALL=C sort -u
}

# man_synopsis CMD: the SYNOPSIS of the man page for CMD as mandoc renders
# it, on one line without the program name: "hash [-hLrz] ... [file ...]".
man_synopsis() {
	MANWIDTH=1000 mandoc -Tascii -O width=1000 "$ROOT_DIR/man/neardup.1" |
	    sed 's/.\x08//g' |
	    awk -v cmd="$1" '
	/^SYNOPSIS/ { f = 1; next }
	f && /^[A-Z]/ { exit }
	f && $1 == "neardup" && $2 == cmd {
		sub(/^[ \t]*neardup[ \t]+/, "")
		gsub(/[ \t]+/, " ")
		print
	}'
}

# usage_line CMD: the usage of CMD on one line without "usage: neardup ".
usage_line() {
	usage_of "$1" | tr -s ' \t\n' '   ' |
	    sed -e 's/^usage: neardup //' -e 's/ $//'
}

# value_options CMD: the options of CMD that take one of a fixed set of
# values, with the values the binary accepts, one option a line:
# "--format text tsv json".  The sets come from the binary's complaint about
# a bad value ("expected a, b or c", "(a, b, c)"); each value is then tried,
# and kept unless the binary complains about that option.
value_options() {
	_memo _value_options "$1"
}

_value_options() {
	local o l s list v keep opt
	while read -r l s _; do
		[ "$l" != - ] && opt=$l || opt=$s
		grep -qE "\"${l#--}\", *required_argument" \
		    "$ROOT_DIR/src/cli/$1.c" "$ROOT_DIR"/src/cli/*.h 2>/dev/null ||
		    continue
		list=$(probe "$1" "$opt" @@ 2>&1 | sed -nE \
		    -e 's/.*: expected (([a-z0-9]+, )*[a-z0-9]+ or [a-z0-9]+)$/\1/p' \
		    -e 's/.*\((([a-z0-9]+, )+[a-z0-9]+)\)$/\1/p' | head -n1)
		[ -n "$list" ] || continue
		keep=
		for v in $(sed -e 's/,/ /g' -e 's/ or / /' <<<"$list"); do
			if ! probe "$1" "$opt" "$v" 2>&1 |
			    grep -qE "^neardup: --?[a-z][a-z-]*: "; then
				keep="$keep $v"
			fi
		done
		for o in $l $s; do
			[ "$o" != - ] && printf "%s\n" "$o$keep"
		done
	done < <(src_options "$1")
	return 0
}

# probe CMD OPT VALUE: run CMD with OPT VALUE and operands it can take,
# input empty, in a scratch directory.
probe() {
	local ops=()
	case $1 in
	compare) ops=(/dev/null /dev/null) ;;
	near) ops=(-d 1 /dev/null) ;;
	esac
	(cd "$BATS_TEST_TMPDIR" && "$NEARDUP" "$1" "$2" "$3" "${ops[@]}" \
	    </dev/null >/dev/null)
}

# file_options CMD: the options of CMD whose argument is a file (its usage
# calls it "file" or "dir": --weights=file, --originals=dir), both
# names, one a line.
file_options() {
	_memo _file_options "$1"
}

_file_options() {
	local names l s
	names=$(usage_of "$1" |
	    grep -oE -- '(--[A-Za-z0-9-]+=|-[A-Za-z0-9] )(file|dir)([^A-Za-z]|$)' |
	    sed -E 's/[= ](file|dir).*//')
	while read -r l s _; do
		if grep -qxF -e "$l" -e "$s" <<<"$names"; then
			[ "$l" != - ] && printf '%s\n' "$l"
			[ "$s" != - ] && printf '%s\n' "$s"
		fi
	done < <(src_options "$1")
	return 0
}

# _memo FUNCTION ARG...: the output of FUNCTION ARG..., kept in the
# directory $OPTIONS_CACHE when it is set (a suite sets it in setup_file:
# the binary and the source do not change while it runs).
_memo() {
	local f
	if [ -z "${OPTIONS_CACHE-}" ]; then
		"$@"
		return
	fi
	f=$OPTIONS_CACHE/$(printf '%s.' "$@" | tr -c 'A-Za-z0-9_.\n-' _)
	if [ ! -f "$f" ]; then
		mkdir -p "$OPTIONS_CACHE" && "$@" >"$f.$$" && mv "$f.$$" "$f" ||
		    return
	fi
	cat "$f"
}
