# bash completion for watchq(1)

_watchq_mountpoints()
{
	# Mount points from mountinfo, octal escapes undone.
	local m
	while read -r _ _ _ _ m _; do
		printf '%b\n' "${m//\\/\\0}"
	done </proc/self/mountinfo 2>/dev/null
}

_watchq()
{
	local cur prev words cword
	_init_completion -n = || return

	local events='mount new_mount unmount move move_from move_to readonly setattr present instantiated updated linked unlinked cleared revoked invalidated error edquot lowspace loss removal'
	local opts='-e --event -E --exclude-event -j --json --format --timefmt -T --timestamps
		-o --output -q --quiet --initial -t --timeout -n --count --fstype --source --recursive --space-below
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
	--mount | --unmount | --readonly | --writable | -o | --output)
		_filedir
		return
		;;
	--source | --format | --timefmt | -t | --timeout | -n | --count | --interval | --queue-size | --key | --keyring | --no-key | --space-below)
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

	# The last source word decides what a target is.
	local i src=
	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		mounts | keys | sb) src=${words[i]} ;;
		esac
	done
	case $src in
	mounts)
		COMPREPLY=($(compgen -W "$(_watchq_mountpoints) mounts keys sb" -- "$cur"))
		[[ $cur == */* ]] && _filedir -d
		;;
	sb)
		COMPREPLY=($(compgen -W "$(_watchq_mountpoints)" -- "$cur"))
		;;
	keys)
		COMPREPLY=($(compgen -W '@s @u @us @p @t @g @a mounts sb' -- "$cur"))
		;;
	*)
		COMPREPLY=($(compgen -W 'mounts keys sb wait' -- "$cur"))
		;;
	esac
} && complete -F _watchq watchq
