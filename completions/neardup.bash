# bash completion for neardup(1)                           -*- shell-script -*-
#
# Loaded by bash-completion, whose _init_completion, _filedir and compgen
# it uses.  Each command CMD has two lists: _neardup_CMD_flags, the options
# that take no argument, and _neardup_CMD_args, those that take one
# (offered as --name=).  The values of an option are completed in
# _neardup_value.  To add a command: add it to _neardup_commands and give
# it its two lists.

_neardup_commands='hash compare cluster near uniq help'
_neardup_algorithms='simhash minhash bottomk oph key'

_neardup_hash_flags='--archives --bands --binary --dereference -h --help
    --hidden --jsonl --jsonl-skip-bad --keep-case --keep-punct -L --lines --multiset --no-progress
    --null-data --progress -r --recursive --tsv -z'
_neardup_hash_args='-a --algorithm -c --chars --exclude --exclude-dir
    --files0-from --id -j --jobs -k --size --lsh -s --seed -t --threshold -w
    --words --weights'

_neardup_compare_flags='--archives --containment -F --fingerprints -h --header --help
    --keep-case --keep-punct --multiset --no-progress --null-data --passages
    --progress -q --quiet -z'
_neardup_compare_args='-a --algorithm -c --chars --color --colour --format
    -k --size -s --seed -t --threshold -w --words --weights'

_neardup_cluster_flags='-0 --all --archives --bands --binary --dereference --docs --dups
    --exact -h --header --help --hidden --jsonl --jsonl-skip-bad --keep-case --keep-punct -L
    --multiset --no-progress --no-summary --null-data --pairs --print0
    --progress -r --recursive --sorted --summary --transitive --uniques
    --verify -v --verbose -z'
_neardup_cluster_args='-a --algorithm -c --chars -d --distance --exclude
    --exclude-dir --files0-from --format --id -j --jobs -k --size --keep --lsh
    --originals -s --seed -t --threshold -w --words --weights'

_neardup_near_flags='--archives --binary --dereference --docs -h --header --help
    --hidden --jsonl --jsonl-skip-bad --keep-case --keep-punct -L --multiset --no-progress
    --null-data --progress -r --recursive --self -z'
_neardup_near_args='-a --algorithm -c --chars -d --distance --exclude
    --exclude-dir --files0-from --format --id -k --size -n --count -s --seed
    -t --threshold -w --words --weights'

_neardup_uniq_flags='--all-repeated -c --count -D -d --explain -h --help -i
    --ignore-case --jsonl --jsonl-skip-bad --keep-case --keep-punct --multiset --no-progress
    --null-data --progress --repeated --tsv -u --unique -z --zero-terminated'
_neardup_uniq_args='--chars --check-chars -f --id --seed -s --skip-chars
    --skip-fields -t --threshold -w --words'

_neardup_help_flags=
_neardup_help_args=

# _neardup_value CMD OPTION: complete $cur as the value of OPTION.
_neardup_value()
{
	local words=
	case $1,$2 in
	near,-a | near,--algorithm) words='simhash minhash bottomk oph' ;;
	*,-a | *,--algorithm) words=$_neardup_algorithms ;;
	compare,--color | compare,--colour) words='auto always never' ;;
	compare,--format) words='text tsv json' ;;
	cluster,--format) words='groups tsv json sh' ;;
	near,--format) words='text json' ;;
	cluster,--keep) words='first longest shortest path newest oldest' ;;
	*,--weights | *,--files0-from | cluster,--originals)
		_filedir
		return
		;;
	*)
		# A number, a threshold, BxR or a glob: nothing to offer.
		return
		;;
	esac
	COMPREPLY=($(compgen -W "$words" -- "$cur"))
}

_neardup()
{
	local cur prev words cword split
	_init_completion -s || return

	# The command is the first word after the global options.  A unique
	# prefix stands for the whole name, as neardup accepts it.
	local i ci=0 cmd='' w flags args
	local -a names
	for ((i = 1; i < cword; i++)); do
		[[ ${words[i]} == -* ]] && continue
		names=($(compgen -W "$_neardup_commands" -- "${words[i]}"))
		((${#names[@]} == 1)) && cmd=${names[0]} || cmd=${words[i]}
		ci=$i
		break
	done
	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W '-h --help -V --version' -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$_neardup_commands" -- "$cur"))
		fi
		return
	fi
	flags=_neardup_${cmd}_flags
	args=_neardup_${cmd}_args
	[[ -v $flags ]] || return
	flags=${!flags}
	# Every command but help takes --version, as neardup -V.
	[[ $cmd == help ]] || flags+=' --version'
	args=${!args}

	# The value of an option, given as "--name value" or "--name=value".
	if [[ -n $prev && " $args " == *[[:space:]]"$prev"[[:space:]]* ]]; then
		_neardup_value "$cmd" "$prev"
		return
	fi
	$split && return

	# Count the operands before $cur; "--" ends the options.
	local endopts=0 nargs=0
	for ((i = ci + 1; i < cword; i++)); do
		w=${words[i]}
		if ((endopts)) || [[ $w != -?* ]]; then
			((nargs++))
		elif [[ $w == -- ]]; then
			endopts=1
		elif [[ $w != *=* && " $args " == *[[:space:]]"$w"[[:space:]]* ]]; then
			((i++))
		fi
	done

	if [[ $cur == -* ]] && ((!endopts)); then
		local o long=
		for o in $args; do
			[[ $o == --* ]] && long+=" $o=" || long+=" $o"
		done
		COMPREPLY=($(compgen -W "$flags $long" -- "$cur"))
		[[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] &&
			compopt -o nospace
		return
	fi

	case $cmd in
	help)
		((nargs == 0)) &&
			COMPREPLY=($(compgen -W "$_neardup_commands" -- "$cur"))
		;;
	compare)
		# Two documents, or fingerprint files, at most.
		((nargs < 2)) && _filedir
		;;
	*)
		_filedir
		;;
	esac
} &&
	complete -F _neardup neardup

# ex: filetype=sh
