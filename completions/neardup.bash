# bash completion for neardup(1)                           -*- shell-script -*-
#
# To add a command: put its name in _neardup_commands and write a
# function _neardup_cmd_NAME that fills COMPREPLY from $cur, and from
# $opt when $cur is the argument of option $opt.

_neardup_commands='hash compare cluster near uniq help'

# Complete file and directory names.
_neardup_files()
{
	if declare -F _filedir >/dev/null; then
		_filedir
	else
		compopt -o filenames 2>/dev/null
		local IFS=$'\n'
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
}

# Complete the words of $1 that begin with $cur.
_neardup_words()
{
	local IFS=$' \t\n'
	COMPREPLY=($(compgen -W "$1" -- "$cur"))
	# A long option that takes a value is offered as --name=.
	[[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] &&
		compopt -o nospace 2>/dev/null
}

_neardup_cmd_hash()
{
	case $opt in
	-a | --algorithm)
		_neardup_words 'simhash minhash bottomk oph key'
		return
		;;
	--files0-from | --weights)
		_neardup_files
		return
		;;
	-c | --chars | -j | --jobs | -k | --size | -s | --seed | -t | --threshold | -w | --words | --lsh)
		# A number, or BxR: nothing to offer.
		return
		;;
	esac
	if [[ $cur == -* && $endopts -eq 0 ]]; then
		_neardup_words '-a --algorithm= --bands -c --chars= --dereference
		    --files0-from= -h --help -j --jobs= -k --size= --keep-case
		    --keep-punct -L --lines --lsh= --multiset --null-data -r
		    --recursive -s --seed= -t --threshold= --tsv -w --words=
		    --weights= -z'
		return
	fi
	_neardup_files
}

_neardup_cmd_compare()
{
	case $opt in
	-a | --algorithm)
		_neardup_words 'simhash minhash bottomk oph key'
		return
		;;
	--color | --colour)
		_neardup_words 'auto always never'
		return
		;;
	--format)
		_neardup_words 'text tsv json'
		return
		;;
	--weights)
		_neardup_files
		return
		;;
	-c | --chars | -k | --size | -s | --seed | -t | --threshold | -w | --words)
		# A number: nothing to offer.
		return
		;;
	esac
	if [[ $cur == -* && $endopts -eq 0 ]]; then
		_neardup_words '-a --algorithm= -c --chars= --color= --colour=
		    --containment -F --fingerprints --format= -h --help -k --size=
		    --keep-case --keep-punct --multiset --passages -q --quiet
		    -s --seed= -t --threshold= -w --words= --weights='
		return
	fi
	# Two operands at most: documents, or fingerprint files.
	((argc < 2)) && _neardup_files
}

_neardup_cmd_cluster()
{
	case $opt in
	-a | --algorithm)
		_neardup_words 'oph minhash bottomk simhash key'
		return
		;;
	--format)
		_neardup_words 'groups tsv json'
		return
		;;
	--keep)
		_neardup_words 'first longest shortest path'
		return
		;;
	--weights)
		_neardup_files
		return
		;;
	-c | --chars | -d | --distance | -j | --jobs | -k | --size | -s | --seed | -t | --threshold | -w | --words | --lsh)
		# A number, or BxR: nothing to offer.
		return
		;;
	esac
	if [[ $cur == -* && $endopts -eq 0 ]]; then
		_neardup_words '-a --algorithm= --all --bands -c --chars= -d
		    --dereference --distance= --docs --dups --format= -h --help
		    -j --jobs= -k --size= --keep= --keep-case --keep-punct -L
		    --lsh= --multiset --null-data --pairs -r --recursive -s --seed=
		    --sorted -t --threshold= --uniques -v --verbose -w --words=
		    --weights= -z'
		return
	fi
	# Fingerprint or band lines, or with --docs and -r documents.
	_neardup_files
}

_neardup_cmd_near()
{
	case $opt in
	-a | --algorithm)
		_neardup_words 'simhash'
		return
		;;
	--format)
		_neardup_words 'text json'
		return
		;;
	--weights)
		_neardup_files
		return
		;;
	-c | --chars | -d | --distance | -k | --size | -n | --count | -s | --seed | -w | --words)
		# A number: nothing to offer.
		return
		;;
	esac
	if [[ $cur == -* && $endopts -eq 0 ]]; then
		_neardup_words '-c --chars= --count= -d --dereference --distance=
		    --docs --format= -h --help -k --size= --keep-case --keep-punct
		    -L --multiset -n --null-data -r --recursive -s --seed= --self
		    -w --words= --weights= -z'
		return
	fi
	# The index, then query files or, with --docs, documents.
	_neardup_files
}

_neardup_cmd_uniq()
{
	case $opt in
	-c | --chars | -s | --seed | -t | --threshold | -w | --words)
		# A number: nothing to offer.
		return
		;;
	esac
	if [[ $cur == -* && $endopts -eq 0 ]]; then
		_neardup_words '-c --chars= --count -D --all-repeated -d
		    --repeated --explain -h --help --keep-case --keep-punct
		    --multiset --null-data -s --seed= -t --threshold= --tsv -w
		    --words= -z'
		return
	fi
	_neardup_files
}

_neardup_cmd_help()
{
	[[ $argc -eq 0 ]] && _neardup_words "$_neardup_commands"
}

_neardup()
{
	local cur prev opt pre cmd i w endopts=0 argc=0
	local -a cmds
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}

	# Find the command: the first word after the global options.
	# A unique prefix stands for the whole name, as neardup accepts it.
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		[[ $w == -* ]] && continue
		cmds=($(compgen -W "$_neardup_commands" -- "$w"))
		if ((${#cmds[@]} == 1)); then
			cmd=${cmds[0]}
		else
			cmd=$w
		fi
		break
	done
	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			_neardup_words '-h --help -V --version'
		else
			_neardup_words "$_neardup_commands"
		fi
		return
	fi

	# Which option, if any, takes $cur as its value?  With "=" in
	# COMP_WORDBREAKS, --name=value arrives as three words.
	if [[ $cur == = ]]; then
		opt=$prev
		cur=
	elif [[ $prev == = ]] && ((COMP_CWORD >= 2)); then
		opt=${COMP_WORDS[COMP_CWORD - 2]}
	elif [[ $cur == --*=* ]]; then
		opt=${cur%%=*}
		pre=$opt=
		cur=${cur#*=}
	else
		opt=$prev
	fi

	# Count the operands before $cur and see whether "--" ended the options.
	for ((i++; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if ((endopts)) || [[ $w != -* && $w != = && ${COMP_WORDS[i - 1]} != = ]]; then
			((argc++))
		elif [[ $w == -- ]]; then
			endopts=1
		fi
	done

	if declare -F "_neardup_cmd_$cmd" >/dev/null; then
		"_neardup_cmd_$cmd"
	fi
	if [[ -n $pre ]]; then
		COMPREPLY=("${COMPREPLY[@]/#/$pre}")
	fi
	return 0
}

complete -F _neardup neardup
