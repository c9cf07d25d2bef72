# bash completion for onlist.                                  -*- sh -*-
#
# Installed as /usr/share/bash-completion/completions/onlist (the Debian
# package, `make install`); or source it from ~/.bashrc.
#
# The commands, each command's options and its --format values are asked
# of onlist itself, from its command and option tables (src/cmd/complete.c):
#   onlist --list-cmds, onlist [CMD] --list-opts, onlist CMD --list-formats,
#   onlist [--db DB] --list-lists (the list names the database holds)
# so nothing here repeats them.  What is written here is only which values
# an option takes (a file, a ref, a list name) and which commands take
# revisions.  Refs come from `git for-each-ref` in the repository of
# --repo, else `git config onlist.repo`, else the current directory.

__onlist_refs()
{
	local repo=$1
	[ -n "$repo" ] || repo=$(git config --get onlist.repo 2>/dev/null)
	[ -n "$repo" ] || repo=.
	git -C "$repo" for-each-ref --format='%(refname:short)' 2>/dev/null
	echo HEAD
}

_onlist()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev= onlist=${COMP_WORDS[0]}
	local i w cmd= db= repo= skip= words
	local -a dbopt=()

	# --opt=value: bash splits at '=' (COMP_WORDBREAKS)
	if [ "$cur" = "=" ]; then
		cur=
		prev=${COMP_WORDS[COMP_CWORD-1]}
	elif [ $COMP_CWORD -ge 2 ] && [ "${COMP_WORDS[COMP_CWORD-1]}" = "=" ]; then
		prev=${COMP_WORDS[COMP_CWORD-2]}
	elif [ $COMP_CWORD -ge 1 ]; then
		prev=${COMP_WORDS[COMP_CWORD-1]}
	fi
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [ -n "$skip" ]; then
			[ "$w" = "=" ] && continue
			case $skip in
			--db) db=$w ;;
			--repo) repo=$w ;;
			esac
			skip=
			continue
		fi
		case $w in
		--db|--repo) skip=$w ;;
		--db=*) db=${w#--db=} ;;
		--repo=*) repo=${w#--repo=} ;;
		-*) ;;
		*) [ -z "$cmd" ] && cmd=$w ;;
		esac
	done
	[ -n "$db" ] && dbopt=(--db "$db")

	# an option's value
	case $prev in
	--format)
		[ -n "$cmd" ] || return 0
		words=$("$onlist" "$cmd" --list-formats 2>/dev/null)
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return 0 ;;
	--list)
		words=$("$onlist" "${dbopt[@]}" --list-lists 2>/dev/null)
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return 0 ;;
	--branch)
		COMPREPLY=($(compgen -W "$(__onlist_refs "$repo")" -- "$cur"))
		return 0 ;;
	--db|--repo|--data|--site|--rules|--aliases|--mailmap|-o)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur"))
		return 0 ;;
	esac
	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			words=$("$onlist" --list-opts 2>/dev/null)
		else
			words=$("$onlist" --list-cmds 2>/dev/null)
		fi
		COMPREPLY=($(compgen -W "${words//=/}" -- "$cur"))
		return 0
	fi
	words=$("$onlist" "$cmd" --list-opts 2>/dev/null)
	# any other option that takes a value: nothing to offer
	case $'\n'$words$'\n' in
	*$'\n'"$prev="$'\n'*) return 0 ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "${words//=/}" -- "$cur"))
		return 0
	fi
	case $cmd in
	scan|unposted|report|lookup|stats|export|match)
		# a revision, or a range A..B
		local pre=
		[[ $cur == *..* ]] && pre=${cur%..*}..
		COMPREPLY=($(compgen -P "$pre" -W "$(__onlist_refs "$repo")" -- "${cur##*..}"))
		;;
	fetch|import)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur"))
		;;
	esac
	return 0
}
complete -F _onlist onlist
