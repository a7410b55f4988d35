# Drive the real shells' completion of neardup: load with `load complete`
# after `load helper`.
#
# comp SHELL LINE...: what SHELL (bash, zsh or fish) completes when Tab is
# pressed at the end of each LINE, the cursor after its last character.
# For each LINE it prints "@@ LINE", then one line per candidate,
# "WORD<TAB>DESCRIPTION" (the description may be empty).  The shells run
# in the current directory with a scratch HOME, and load the completion
# files from $COMPDIR (default: completions/ of the tree under test).
#
#   bash  bash-completion's bash_completion is sourced, then the file
#         neardup.bash (or, with COMP_AUTOLOAD=1, bash-completion's
#         loader finds it through $XDG_DATA_DIRS); COMP_WORDS, COMP_CWORD,
#         COMP_LINE and COMP_POINT are set as readline sets them
#         (COMP_WORDBREAKS splits "--format=json" into three words) and
#         the function that `complete -p neardup` names is called; the
#         candidates are COMPREPLY.
#   zsh   tests/zsh-complete: an interactive zsh in a pseudo-terminal,
#         compinit with $COMPDIR first in fpath, a Tab widget around
#         _main_complete and a compadd that prints the matches.
#   fish  complete -C LINE, with $COMPDIR first in $fish_complete_path.

export COMPDIR=${COMPDIR:-$ROOT_DIR/completions}
export BASH_COMPLETION=${BASH_COMPLETION:-/usr/share/bash-completion/bash_completion}

comp() {
	local sh=$1
	shift
	# neardup is on PATH, as for a user: fish loads no completions for a
	# command it cannot find.
	mkdir -p "$BATS_TEST_TMPDIR/home" "$BATS_TEST_TMPDIR/bin"
	ln -sf "$NEARDUP" "$BATS_TEST_TMPDIR/bin/neardup"
	PATH=$BATS_TEST_TMPDIR/bin:$PATH HOME=$BATS_TEST_TMPDIR/home XDG_CONFIG_HOME=$BATS_TEST_TMPDIR/home/.config \
	    XDG_DATA_HOME=$BATS_TEST_TMPDIR/home/.local/share \
	    XDG_CACHE_HOME=$BATS_TEST_TMPDIR/home/.cache \
	    "comp_$sh" "$@" </dev/null
}

comp_bash() {
	bash --norc --noprofile -c '
	# Split LINE into words as readline does for COMP_WORDS: at blanks,
	# and around runs of the characters of COMP_WORDBREAKS other than
	# quotes (quotes are not used here).
	compwords() {
		local line=$1 t c ch breaks= sq
		sq=$(printf "\047")
		for ((c = 0; c < ${#COMP_WORDBREAKS}; c++)); do
			ch=${COMP_WORDBREAKS:c:1}
			[[ $ch == [[:space:]\"] || $ch == "$sq" ]] || breaks+=$ch
		done
		COMP_WORDS=()
		read -ra toks <<<"$line"
		for t in "${toks[@]}"; do
			while [[ $t =~ ^([^$breaks]*)([$breaks]+)(.*)$ ]]; do
				[[ -n ${BASH_REMATCH[1]} ]] &&
				    COMP_WORDS+=("${BASH_REMATCH[1]}")
				COMP_WORDS+=("${BASH_REMATCH[2]}")
				t=${BASH_REMATCH[3]}
			done
			[[ -n $t ]] && COMP_WORDS+=("$t")
		done
		[[ $line == *[[:space:]] || ${#COMP_WORDS[@]} -eq 0 ]] &&
		    COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE=$line
		COMP_POINT=${#line}
	}
	file=$1
	shift
	. "$BASH_COMPLETION" || exit 2
	if [[ -n ${COMP_AUTOLOAD-} ]]; then
		_completion_loader neardup
		[[ $? -eq 124 ]] || exit 2
	else
		. "$file" || exit 2
	fi
	spec=$(complete -p neardup) || exit 2
	[[ $spec =~ -F\ ([^ ]+) ]] || exit 2
	fn=${BASH_REMATCH[1]}
	for line; do
		printf "@@ %s\n" "$line"
		compwords "$line"
		COMPREPLY=()
		"$fn" neardup "${COMP_WORDS[COMP_CWORD]}" \
		    "${COMP_WORDS[COMP_CWORD - 1]-}" 2>/dev/null
		((${#COMPREPLY[@]})) && printf "%s\t\n" "${COMPREPLY[@]}"
	done
	exit 0' bash "$COMPDIR/neardup.bash" "$@"
}

comp_zsh() {
	zsh -f "$TESTS_DIR/zsh-complete" "$COMPDIR" "$@"
}

comp_fish() {
	fish -C 'set -g fish_complete_path $COMPDIR $fish_complete_path' -c '
	for line in $argv
		printf "@@ %s\n" $line
		complete -C $line
	end' "$@"
}

# candidates LINE: the words offered for LINE in $output, one a line, in
# the order given.
candidates() {
	awk -v want="@@ $1" '
	$0 == want { f = 1; next }
	f && /^@@ / { exit }
	f { sub(/\t.*/, ""); print }' <<<"$output"
}

# described LINE: the candidates for LINE in $output that have no
# description, one a line.
undescribed() {
	awk -v want="@@ $1" '
	$0 == want { f = 1; next }
	f && /^@@ / { exit }
	f && $0 !~ /\t./ { print }' <<<"$output"
}

# assert_candidates LINE WORD...: the candidates for LINE in $output are
# the WORDs, in any order, each once.
assert_candidates() {
	local line=$1 got want
	shift
	got=$(candidates "$line" | LC_ALL=C sort)
	want=$(printf '%s\n' "$@" | sed '/^$/d' | LC_ALL=C sort)
	if [ "$got" != "$want" ]; then
		batslib_print_kv_single_or_multi 8 line "$line" \
		    missing "$(comm -13 <(printf '%s\n' "$got") \
		    <(printf '%s\n' "$want"))" \
		    unexpected "$(comm -23 <(printf '%s\n' "$got") \
		    <(printf '%s\n' "$want"))" |
		    batslib_decorate "completions of '$line' differ" | fail
	fi
}
