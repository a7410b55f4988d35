#!/usr/bin/env bats
#
# Shell completion: bash, zsh and fish are driven for real (complete.bash)
# and must offer the commands, every option of every command, the values
# of options that take one of a fixed set, and files where a file goes.
# What is expected comes from the source and the binary (options.bash),
# so an option added to a command and not to a completion fails here.

load helper
load options
load complete

setup_file() {
	export OPTIONS_CACHE=$BATS_FILE_TMPDIR/options
}

# The files and the directory of the working directory, as completed.
FILES='b.txt doc.txt sub'

setup() {
	mkdir -p "$BATS_TEST_TMPDIR/w/sub" || return 1
	cd "$BATS_TEST_TMPDIR/w" || return 1
	: >doc.txt
	: >b.txt
	QL=()
	: >"$BATS_TEST_TMPDIR/wants"
}

# want MODE LINE WORD...: the candidates for LINE must be exactly the WORDs
# (MODE eq), or must hold none of $FILES (MODE nofiles).
want() {
	QL+=("$2")
	printf '%s\t%s\t%s\n' "$1" "$2" "${*:3}" >>"$BATS_TEST_TMPDIR/wants"
}

# check SHELL: complete every LINE given to want in SHELL, in one run, and
# fail with each line whose candidates are not as wanted.  The candidates
# are taken as words: without the "--name=" that fish puts before a value,
# the "=" that bash puts after a long option that takes a value, or the
# "/" after a directory.  (One awk, not loops of bash: bats traces every
# command of a test, which makes them slow.)
check() {
	local bad
	run comp "$1" "${QL[@]}"
	assert_success
	bad=$(awk -F '\t' -v files="$FILES" '
	FNR == NR {
		order[++n] = $2
		mode[$2] = $1
		want[$2] = $3
		next
	}
	/^@@ / {
		key = substr($0, 4)
		seen[key] = 1
		last = key
		sub(/.* /, "", last)
		pre = index(last, "=") ? substr(last, 1, index(last, "=")) : ""
		next
	}
	{
		w = $1
		if (pre != "" && substr(w, 1, length(pre)) == pre)
			w = substr(w, length(pre) + 1)
		if (w ~ /^--.*=$/)
			w = substr(w, 1, length(w) - 1)
		sub(/\/$/, "", w)
		if (!((key, w) in got))
			list[key] = list[key] " " w
		got[key, w] = 1
	}
	END {
		nf = split(files, f, " ")
		for (i = 1; i <= n; i++) {
			k = order[i]
			if (!(k in seen)) {
				printf "\047%s\047: not completed\n", k
				continue
			}
			miss = extra = ""
			if (mode[k] == "eq") {
				nw = split(want[k], wl, " ")
				for (j = 1; j <= nw; j++) {
					wanted[k, wl[j]] = 1
					if (!((k, wl[j]) in got))
						miss = miss " " wl[j]
				}
				ng = split(list[k], gl, " ")
				for (j = 1; j <= ng; j++)
					if (!((k, gl[j]) in wanted))
						extra = extra " " gl[j]
				if (miss extra != "")
					printf "\047%s\047: missing:%s; unexpected:%s\n", k,
					    miss == "" ? " none" : miss,
					    extra == "" ? " none" : extra
			} else {
				for (j = 1; j <= nf; j++)
					if ((k, f[j]) in got)
						extra = extra " " f[j]
				if (extra != "")
					printf "\047%s\047: file names where none go:%s\n",
					    k, extra
			}
		}
	}' "$BATS_TEST_TMPDIR/wants" - <<<"$output")
	[ -z "$bad" ] || fail "$1 completes wrongly:"$'\n'"$bad"
}

# The commands that take options (help takes none).
option_commands() {
	local c
	for c in $(commands); do
		[ -n "$(src_options "$c")" ] && echo "$c"
	done
	return 0
}

commands_and_globals() {
	local cmds
	cmds=$(commands)
	[ -n "$cmds" ] || fail "no commands in neardup help"
	want eq 'neardup ' $cmds
	want eq 'neardup -' $(cmd_options '')
	want eq 'neardup --' $(cmd_options '' | grep -e '^--')
	want eq 'neardup h' $(grep '^h' <<<"$cmds")
	want eq 'neardup help ' $cmds
	want eq 'neardup help c' $(grep '^c' <<<"$cmds")
	# A unique prefix of a command stands for it, as neardup takes it.
	want eq 'neardup clu --' $(comp_options cluster | grep -e '^--')
	check "$1"
}

# comp_options CMD: what a completion offers after CMD: the options its
# usage names, and --version, which every command takes (COMMON_LONG) as
# neardup -V, though no usage names it.
comp_options() {
	{ cmd_options "$1"; echo --version; } | LC_ALL=C sort -u
}

every_option() {
	local c
	for c in $(option_commands); do
		want eq "neardup $c -" $(comp_options "$c")
		want eq "neardup $c --" $(comp_options "$c" | grep -e '^--')
		# Options may follow operands: getopt_long permutes them.
		want eq "neardup $c doc.txt -" $(comp_options "$c")
	done
	check "$1"
}

option_values() {
	local c o vals n=0
	for c in $(option_commands); do
		while read -r o vals; do
			n=$((n + 1))
			want eq "neardup $c $o " $vals
			if [[ $o == --* ]]; then
				want eq "neardup $c $o=" $vals
				want eq "neardup $c $o=${vals:0:1}" \
				    $(tr ' ' '\n' <<<"$vals" | grep "^${vals:0:1}")
			fi
		done < <(value_options "$c")
	done
	# -a, --format, --keep and --color at the least.
	((n >= 10)) || fail "only $n options with values found"
	check "$1"
}

files() {
	local c o
	for c in $(option_commands); do
		want eq "neardup $c " $FILES
		want eq "neardup $c doc.txt " $FILES
		for o in $(file_options "$c"); do
			want eq "neardup $c $o " $FILES
			[[ $o == --* ]] && want eq "neardup $c $o=" $FILES
		done
	done
	want eq 'neardup hash sub/' ''
	# compare takes two documents, and no more.
	want nofiles 'neardup compare a b '
	want nofiles 'neardup help hash '
	check "$1"
}

# Numbers and such: no file names.
free_values() {
	local c o files vals offered
	for c in $(option_commands); do
		files=$(file_options "$c")
		vals=$(value_options "$c" | cut -d" " -f1)
		offered=$(cmd_options "$c")
		for o in $(arg_options "$c"); do
			grep -qxF -e "$o" <<<"$files"$'\n'"$vals" && continue
			grep -qxF -e "$o" <<<"$offered" || continue
			want nofiles "neardup $c $o "
		done
	done
	check "$1"
}

# Every option and command comes with what it does.
descriptions() {
	local c line bad=
	local -a qs=('neardup ' 'neardup -')
	for c in $(option_commands); do
		qs+=("neardup $c -")
	done
	run comp "$1" "${qs[@]}"
	assert_success
	for line in "${qs[@]}"; do
		[ -n "$(candidates "$line")" ] ||
		    bad+="'$line': no candidates"$'\n'
		[ -z "$(undescribed "$line")" ] ||
		    bad+="'$line': $(undescribed "$line" | tr '\n' ' ')"$'\n'
	done
	[ -z "$bad" ] || fail "no description:"$'\n'"$bad"
}

@test "completion-001: bash: the commands and the global options" {
	commands_and_globals bash
}

@test "completion-002: bash: every option of every command, long and short" {
	every_option bash
}

@test "completion-003: bash: the values of -a, --format, --keep, --color" {
	option_values bash
}

@test "completion-004: bash: files for operands, --weights and --files0-from" {
	files bash
}

@test "completion-005: bash: no file names where a number goes" {
	free_values bash
}

@test "completion-006: zsh: the commands and the global options" {
	commands_and_globals zsh
}

@test "completion-007: zsh: every option of every command, long and short" {
	every_option zsh
}

@test "completion-008: zsh: the values of -a, --format, --keep, --color" {
	option_values zsh
}

@test "completion-009: zsh: files for operands, --weights and --files0-from" {
	files zsh
}

@test "completion-010: zsh: no file names where a number goes" {
	free_values zsh
}

@test "completion-011: zsh: every command and option is described" {
	descriptions zsh
}

@test "completion-012: fish: the commands and the global options" {
	commands_and_globals fish
}

@test "completion-013: fish: every option of every command, long and short" {
	every_option fish
}

@test "completion-014: fish: the values of -a, --format, --keep, --color" {
	option_values fish
}

@test "completion-015: fish: files for operands, --weights and --files0-from" {
	files fish
}

@test "completion-016: fish: no file names where a number goes" {
	free_values fish
}

@test "completion-017: fish: every command and option is described" {
	descriptions fish
}

@test "completion-018: an option left out of a completion file fails the tests" {
	local sh
	COMPDIR=$BATS_TEST_TMPDIR/mutant
	mkdir -p "$COMPDIR"
	sed 's/ --keep-punct\b//g' "$ROOT_DIR/completions/neardup.bash" \
	    >"$COMPDIR/neardup.bash"
	sed '/--keep-punct\[/d' "$ROOT_DIR/completions/_neardup" \
	    >"$COMPDIR/_neardup"
	sed '/-l keep-punct /d' "$ROOT_DIR/completions/neardup.fish" \
	    >"$COMPDIR/neardup.fish"
	for sh in bash zsh fish; do
		run every_option "$sh"
		assert_failure
		assert_output --partial "missing: --keep-punct;"
	done
}

@test "completion-019: zsh offers after an option what uniq takes with it, and not what it refuses" {
	# uniq takes -d with --count; refuses -D with either, and --explain
	# with all three (uniq.c).
	run comp_zsh 'neardup uniq -d --' 'neardup uniq --count -' \
	    'neardup uniq -D --' 'neardup uniq --explain -'
	assert_success
	[ -n "$(candidates 'neardup uniq -d --' | grep -x -- --count)" ]
	[ -n "$(candidates 'neardup uniq --count -' | grep -x -- -d)" ]
	[ -z "$(candidates 'neardup uniq -D --' | grep -x -- --count)" ]
	[ -z "$(candidates 'neardup uniq -d --' | grep -x -- --explain)" ]
	[ -z "$(candidates 'neardup uniq --explain -' | grep -x -- -D)" ]
}
