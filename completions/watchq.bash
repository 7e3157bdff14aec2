# bash completion for watchq(1)

_watchq_mountpoints()
{
	# Mount points from mountinfo, octal escapes undone.
	local m
	while read -r _ _ _ _ m _; do
		printf '%b\n' "${m//\\/\\0}"
	done </proc/self/mountinfo 2>/dev/null
}

_watchq_keyrings()
{
	# Named keyrings this user can see, as %keyring:NAME.
	awk '$8 == "keyring" { d = $9; sub(/:$/, "", d); print "%keyring:" d }' /proc/keys 2>/dev/null
}

# Mount points and, once a slash is typed, directories: each once.
_watchq_paths()
{
	COMPREPLY=($(compgen -W "$(_watchq_mountpoints) $*" -- "$cur"))
	[[ $cur == */* ]] && _filedir -d
	local IFS=$'\n'
	COMPREPLY=($(printf '%s\n' ${COMPREPLY[@]+"${COMPREPLY[@]}"} | sort -u))
}

# The events of the sources on the line (all if none), and loss and removal.
_watchq_events()
{
	local w m= k= s=
	for w in "$@"; do
		case $w in
		mounts) m=1 ;; keys) k=1 ;; sb) s=1 ;;
		--mount* | --unmount* | --readonly* | --writable*) m=1 ;;
		esac
	done
	[[ -z $m$k$s ]] && m=1 k=1 s=1
	[[ $m ]] && echo mount new_mount unmount umount move move_from move_to moved_from moved_to readonly writable setattr propagation remount transient present
	[[ $k ]] && echo instantiated updated linked unlinked cleared revoked invalidated setattr
	[[ $s ]] && echo error readonly edquot lowspace
	echo loss removal
}

_watchq()
{
	local cur prev words cword
	# --opt=value is split into prev and cur; ":" (in %TYPE:DESC) does not split words.
	_init_completion -s -n : || return

	local events
	events=$(_watchq_events "${words[@]}" | tr ' ' '\n' | sort -u)
	local opts='-e --event -E --exclude-event -j --json --format --timefmt -T --timestamps
		-o --output --journal -q --quiet -0 --null -m --monitor --initial -t --timeout -n --count --fstype --source -N --ns --recursive --space-below
		--backend --interval --queue-size -h --help --usage -V --version'
	local wait_opts='--mount --unmount --readonly --writable --key --keyring --no-key'

	case $prev in
	-e | --event | -E | --exclude-event)
		local list=${cur%,*} last=${cur##*,}
		[[ $cur == *,* ]] && list="$list," || list=
		COMPREPLY=($(compgen -P "$list" -W "$events" -- "$last"))
		compopt -o nospace 2>/dev/null
		return
		;;
	--backend)
		COMPREPLY=($(compgen -W 'auto fanotify mountinfo watch-queue poll' -- "$cur"))
		return
		;;
	--fstype)
		COMPREPLY=($(compgen -W "$(awk '{print $NF}' /proc/filesystems 2>/dev/null)" -- "$cur"))
		return
		;;
	--unmount | --readonly | --writable)
		_watchq_paths
		return
		;;
	-N | --ns)
		# A process, or once a slash is typed an nsfs file.
		if [[ $cur == */* ]]; then _filedir; else _pids; fi
		return
		;;
	--mount | -o | --output)
		_filedir
		return
		;;
	--keyring)
		COMPREPLY=($(compgen -W "@s @u @us @p @t @g @a $(_watchq_keyrings)" -- "$cur"))
		__ltrim_colon_completions "$cur"
		return
		;;
	--source | --format | --timefmt | -t | --timeout | -n | --count | --interval | --queue-size | --key | --no-key | --space-below)
		return
		;;
	esac

	if [[ $cur == -* ]]; then
		local w
		for w in "${words[@]}"; do
			[[ $w == wait ]] && opts="$opts $wait_opts"
		done
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		return
	fi

	# The last source word decides what a target is; wait or list comes first or not at
	# all.
	local i src= first='list wait' srcs='mounts keys sb'
	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		mounts | keys | sb) src=${words[i]} first= ;;
		wait | list) first= ;;
		esac
	done
	case $src in
	mounts)
		_watchq_paths $srcs
		;;
	sb)
		_watchq_paths mounts keys
		;;
	keys)
		COMPREPLY=($(compgen -W "@s @u @us @p @t @g @a $(_watchq_keyrings) mounts sb" -- "$cur"))
		__ltrim_colon_completions "$cur"
		;;
	*)
		COMPREPLY=($(compgen -W "$srcs $first" -- "$cur"))
		;;
	esac
} && complete -F _watchq watchq
