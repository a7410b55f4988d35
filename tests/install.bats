#!/usr/bin/env bats
#
# make install and make uninstall, as a Debian package build runs them
# (DESTDIR, PREFIX=/usr): exactly the binary, the man page and the three
# completions, where Debian's man and shells look, and the completions
# load from there; uninstall takes away those files and nothing else.

load helper
load complete

# Where each file goes under PREFIX=/usr.
BIN=/usr/bin/neardup
MAN1=/usr/share/man/man1/neardup.1
BASHC=/usr/share/bash-completion/completions/neardup
ZSHC=/usr/share/zsh/vendor-completions/_neardup
FISHC=/usr/share/fish/vendor_completions.d/neardup.fish

# Files of other packages in the same directories, which must stay.
OTHERS='/usr/bin/other /usr/share/man/man1/other.1
/usr/share/bash-completion/completions/other
/usr/share/zsh/vendor-completions/_other
/usr/share/fish/vendor_completions.d/other.fish'

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	DEST=$BATS_TEST_TMPDIR/dest
	# The build the suite runs against: ./neardup, or O=DIR's DIR/neardup.
	case $NEARDUP in
	"$ROOT_DIR"/neardup) BUILD=. ;;
	"$ROOT_DIR"/*/neardup) BUILD=${NEARDUP#"$ROOT_DIR"/} BUILD=${BUILD%/neardup} ;;
	*) skip "$NEARDUP is not a build of $ROOT_DIR" ;;
	esac
	local f
	for f in $OTHERS; do
		mkdir -p "$DEST${f%/*}"
		echo other >"$DEST$f"
	done
}

# mk TARGET: make TARGET DESTDIR=$DEST PREFIX=/usr in the tree under test,
# for the build under test, which it must not rebuild (-o): another
# build's flags must not touch its objects, and the install copies what
# was tested.  The make that runs the suite passes nothing down.
mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	    make -s -C "$ROOT_DIR" O="$BUILD" -o "$BUILD/neardup" "$1" \
	    DESTDIR="$DEST" PREFIX=/usr
}

# files: the files under $DEST, one a line, sorted, without $DEST.
files() {
	(cd "$DEST" && find . ! -type d | sed 's/^\.//' | LC_ALL=C sort)
}

@test "install-001: install puts exactly the binary, the man page and three completions" {
	run mk install
	assert_success
	assert_equal "$(files)" "$(printf '%s\n' $OTHERS $BIN $MAN1 $BASHC \
	    $ZSHC $FISHC | LC_ALL=C sort)"
	cmp "$NEARDUP" "$DEST$BIN"
	cmp "$ROOT_DIR/man/neardup.1" "$DEST$MAN1"
	cmp "$ROOT_DIR/completions/neardup.bash" "$DEST$BASHC"
	cmp "$ROOT_DIR/completions/_neardup" "$DEST$ZSHC"
	cmp "$ROOT_DIR/completions/neardup.fish" "$DEST$FISHC"
	assert_equal "$(stat -c %a "$DEST$BIN")" 755
	assert_equal "$(stat -c '%a' "$DEST$MAN1" "$DEST$BASHC" "$DEST$ZSHC" \
	    "$DEST$FISHC" | sort -u)" 644
	run "$DEST$BIN" --version
	assert_success
	assert_output --regexp '^neardup [0-9]'
}

@test "install-002: the directories are those Debian's bash, zsh and fish search" {
	assert_equal "$(pkg-config --variable=completionsdir bash-completion)" \
	    "${BASHC%/*}"
	assert_equal "$(pkg-config --variable=completionsdir fish)" "${FISHC%/*}"
	run zsh -fc 'print -l $fpath'
	assert_line "${ZSHC%/*}"
	run env HOME="$BATS_TEST_TMPDIR" fish -c 'printf "%s\n" $fish_complete_path'
	assert_line "${FISHC%/*}"
}

@test "install-003: bash-completion's loader finds the installed completion" {
	mk install
	# XDG_DATA_DIRS holds the installed share directory alone; the file
	# that defined _neardup is reported (extdebug), so that a copy
	# installed on this system cannot pass for it.
	run env -i PATH="$PATH" HOME="$BATS_TEST_TMPDIR" \
	    XDG_DATA_DIRS="$DEST/usr/share" bash --norc --noprofile -c '
		. /usr/share/bash-completion/bash_completion
		complete -p neardup 2>/dev/null && exit 3
		_completion_loader neardup
		complete -p neardup || exit 4
		shopt -s extdebug
		declare -F _neardup
		COMP_WORDS=(neardup clu) COMP_CWORD=1
		COMP_LINE="neardup clu" COMP_POINT=11
		_neardup neardup clu neardup
		printf "reply %s\n" "${COMPREPLY[@]}"'
	assert_success
	assert_line 'complete -F _neardup neardup'
	assert_line --regexp "^_neardup [0-9]+ $DEST$BASHC\$"
	assert_line 'reply cluster'
}

@test "install-004: zsh's compinit autoloads the installed _neardup" {
	mk install
	COMPDIR=$DEST${ZSHC%/*}
	run comp zsh 'neardup clu' 'neardup cluster --ke'
	assert_success
	assert_candidates 'neardup clu' cluster
	assert_candidates 'neardup cluster --ke' --keep --keep-case --keep-punct
	# compinit bound neardup to _neardup, from the installed file.
	run zsh -fc 'fpath=("$1" $fpath)
		autoload -Uz compinit && compinit -u -D
		print -r -- $_comps[neardup]
		autoload -Uz +X _neardup && print -r -- $functions_source[_neardup]
	' zsh "$COMPDIR"
	assert_success
	assert_output "_neardup"$'\n'"$DEST$ZSHC"
}

@test "install-005: fish finds the installed completion through XDG_DATA_DIRS" {
	mk install
	COMPDIR=$BATS_TEST_TMPDIR/none
	export XDG_DATA_DIRS=$DEST/usr/share:/usr/share
	run comp fish 'neardup clu' 'neardup cluster --ke'
	assert_success
	assert_candidates 'neardup clu' cluster
	assert_candidates 'neardup cluster --ke' --keep --keep-case --keep-punct
	# The file that defined the functions, with the installed neardup
	# on PATH (fish loads nothing for a command it cannot find).
	run env HOME="$BATS_TEST_TMPDIR/home" PATH="$DEST/usr/bin:$PATH" fish -c '
		complete -C "neardup " >/dev/null
		functions --details __neardup_command'
	assert_output "$DEST$FISHC"
}

@test "install-006: uninstall removes exactly what install put" {
	mk install
	run mk uninstall
	assert_success
	assert_equal "$(files)" "$(printf '%s\n' $OTHERS | LC_ALL=C sort)"
	# The directories stay: they are shared with other packages.
	[ -d "$DEST${BASHC%/*}" ] && [ -d "$DEST${ZSHC%/*}" ] &&
	    [ -d "$DEST${FISHC%/*}" ] && [ -d "$DEST${MAN1%/*}" ] &&
	    [ -d "$DEST${BIN%/*}" ]
	# Twice is harmless.
	run mk uninstall
	assert_success
}

# make_var NAME...: the values of the Makefile's variables NAME..., one a
# line, for the default PREFIX (none given).
make_var() {
	local v rule=
	for v; do
		rule+=" && echo '\$($v)'"
	done
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory \
	    -C "$ROOT_DIR" --eval "print-vars: ; @true$rule" print-vars
}

@test "install-007: with the default PREFIX the completions go where a plain zsh and fish look" {
	local vars
	vars=$(make_var PREFIX ZSHCOMPDIR FISHCOMPDIR)
	assert_equal "$(sed -n 1p <<<"$vars")" /usr/local
	# zsh -f: no startup file adds to $fpath.
	run zsh -fc 'print -l $fpath'
	assert_line "$(sed -n 2p <<<"$vars")"
	# fish with XDG_DATA_DIRS unset: its built-in directories alone.
	run env -u XDG_DATA_DIRS HOME="$BATS_TEST_TMPDIR" \
	    XDG_CONFIG_HOME="$BATS_TEST_TMPDIR/.config" \
	    XDG_DATA_HOME="$BATS_TEST_TMPDIR/.local/share" \
	    fish -c 'printf "%s\n" $fish_complete_path'
	assert_line "$(sed -n 3p <<<"$vars")"
}

@test "install-008: after make install to /usr/local a new zsh -f and fish complete neardup" {
	# It writes to /usr/local and /etc: only on a throwaway machine.
	# .ci/run sets CI=true, and make check CI=1 passes CI=1 down.
	case ${CI-} in
	'' | false | 0)
		skip "installs into /usr/local and /etc (set CI=true on a throwaway machine)"
		;;
	esac
	[ "$(id -u)" -eq 0 ] || skip "installs into /usr/local and /etc: needs root"
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	    make -s -C "$ROOT_DIR" O="$BUILD" -o "$BUILD/neardup" install
	run zsh -fc 'autoload -U compinit && compinit -u -D
		print -r -- $_comps[neardup]
		autoload -Uz +X _neardup && print -r -- $functions_source[_neardup]'
	local zout=$output zstatus=$status
	run env -u XDG_DATA_DIRS HOME="$BATS_TEST_TMPDIR" \
	    XDG_CONFIG_HOME="$BATS_TEST_TMPDIR/.config" \
	    XDG_DATA_HOME="$BATS_TEST_TMPDIR/.local/share" \
	    PATH="/usr/local/bin:$PATH" fish -c '
		complete -C "neardup clu"
		functions --details __neardup_command'
	local fout=$output fstatus=$status
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	    make -s -C "$ROOT_DIR" O="$BUILD" -o "$BUILD/neardup" uninstall
	status=$zstatus output=$zout
	assert_success
	assert_output "_neardup"$'\n'"$(make_var ZSHCOMPDIR)/_neardup"
	status=$fstatus output=$fout
	assert_success
	assert_line --regexp $'^cluster(\t|$)'
	assert_line "$(make_var FISHCOMPDIR)/neardup.fish"
}
