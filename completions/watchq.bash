# bash completion for watchq(1)

_watchq_mountpoints()
{
	# Mount points from mountinfo, octal escapes undone.
	local m
	while read -r _ _ _ _ m _; do
		printf '%b\n' "${m//\\/\\0}"
	done </proc/self/mountinfo 2>/dev/null
}

_watchq_devices()
{
	# Mounted devices: the source after " - " and the type in mountinfo, escapes undone.
	local l
	while read -r l; do
		l=${l#* - } l=${l#* } l=${l%% *}
		[[ $l == /dev/* ]] && printf '%b\n' "${l//\\/\\0}"
	done </proc/self/mountinfo 2>/dev/null
}

_watchq_keys()
{
	# The keys this user can see, as %TYPE:DESC, each once: the description follows the first
	# eight columns, up to the ": N" the kernel appends. The type column is cut to 9
	# characters: a type that fills it may be cut short, so it is left out.
	awk '{ d = $0; for (i = 0; i < 8; i++) sub(/^ *[^ ]+ +/, "", d); sub(/: [^:]*$/, "", d)
		if (length($8) < 9) print "%" $8 ":" d }' /proc/keys 2>/dev/null | sort -u
}

# COMPREPLY: each WORD that begins with cur, quoted for the shell. Bash replaces only what
# follows the last ":" or "=" of the word (both break words), so that much is cut off.
_watchq_reply()
{
	local w q p=${cur%"${cur##*[:=]}"}
	COMPREPLY=()
	for w in "$@"; do
		printf -v q '%q' "$w"
		[[ $q == "$cur"* ]] && COMPREPLY+=("${q#"$p"}")
	done
}

# Keys as a keys TARGET or --keyring names them, and WORDS.
_watchq_keyspecs()
{
	local -a keys
	mapfile -t keys < <(_watchq_keys)
	_watchq_reply @s @u @us @p @t @g @a ${keys[@]+"${keys[@]}"} "$@"
}

# A source as --source, --mounted and --unmounted take it: a device (a mounted one, or
# a path once a slash is typed), or a tag whose values are the names udev links in
# /dev/disk/by-label and the like (with its \xNN escapes undone).
_watchq_sources()
{
	local tag=${cur%%=*} n
	local -a vals=()
	if [[ $cur == *=* ]]; then
		[[ " LABEL UUID PARTUUID PARTLABEL " == *" $tag "* ]] || return
		for n in /dev/disk/by-"${tag,,}"/*; do
			[[ -e $n || -L $n ]] || continue
			printf -v n '%b' "${n##*/}"
			vals+=("$tag=$n")
		done
		_watchq_reply ${vals[@]+"${vals[@]}"}
		return
	fi
	mapfile -t vals < <(_watchq_devices)
	_watchq_reply LABEL= UUID= PARTUUID= PARTLABEL= ${vals[@]+"${vals[@]}"}
	[[ $cur == */* ]] && _filedir
	local IFS=$'\n'
	COMPREPLY=($(printf '%s\n' ${COMPREPLY[@]+"${COMPREPLY[@]}"} | sort -u))
	[[ ${#COMPREPLY[@]} -eq 1 && $COMPREPLY == *= ]] && compopt -o nospace 2>/dev/null
}

# The comma list in cur, its last item completed from WORDS; with -i, names ignore case,
# and an item typed in capitals completes in capitals.
_watchq_list()
{
	local fold= head= last=$cur w up=
	[[ $1 == -i ]] && fold=1 && shift
	[[ $cur == *,* ]] && head=${cur%,*}, last=${cur##*,}
	[[ $fold && $last == *[[:upper:]]* && $last != *[[:lower:]]* ]] && up=1
	COMPREPLY=()
	for w in "$@"; do
		if [[ $fold ]]; then
			[[ ${w,,} == "${last,,}"* ]] || continue
			[[ $up ]] && w=${w^^}
		else
			[[ $w == "$last"* ]] || continue
		fi
		COMPREPLY+=("$head$last${w:${#last}}")
	done
	compopt -o nospace 2>/dev/null
}

# Mount points and, once a slash is typed, directories: each once.
_watchq_paths()
{
	COMPREPLY=($(compgen -W "$(_watchq_mountpoints) $*" -- "$cur"))
	[[ $cur == */* ]] && _filedir -d
	local IFS=$'\n'
	COMPREPLY=($(printf '%s\n' ${COMPREPLY[@]+"${COMPREPLY[@]}"} | sort -u))
}

# The events of the sources on the line (all if none; mounts with -N all's), as the
# watchq completed lists them (-e help: "SOURCE NAME" lines).
_watchq_events()
{
	local w src name want=
	for w in "${@:2}"; do
		case $w in
		mounts | keys | sb) want+=" $w" ;;
		--mount* | --unmount* | --readonly* | --writable*) want+=" mounts" ;;
		esac
	done
	"$1" -e help 2>/dev/null | while read -r src name; do
		[[ -z $want || " $want " == *" $src "* ]] && echo "$name"
	done
}

# The options a wait refuses, by what is on the line: any wait; a state condition (what
# selects or counts events); the output options unless --mounted, the one condition that
# prints (the mount it found), is there; one judged in our own namespace; an event wait.
_watchq_wait_refused()
{
	local w kinds=wait prints=
	local -A refused=(
		[wait]='--initial -m --monitor'
		[state]='-e --event -E --exclude-event -n --count --fstype -S --source -O
			--options --exclude --include --excludei --includei --timefmt --recursive
			--space-below --queue-size --no-bpf --keyctl --follow'
		[silent]='-j --json --format --journal -T --timestamps -0 --null -o --output'
		[here]='-N --ns'
		[event]='--mount --unmount --readonly --writable --key --keyring --no-key
			--mounted --unmounted'
	)
	for w in "$@"; do
		case $w in
		--mounted*) kinds+=' state' prints=1 ;;
		--mount* | --unmount*) kinds+=' state silent' ;;
		--readonly* | --writable* | --key | --key=* | --no-key*)
			kinds+=' state silent here' ;;
		-e* | --event*) kinds+=' event' ;;
		esac
	done
	[[ $prints ]] && kinds=${kinds// silent/}
	for w in $kinds; do
		printf '%s|' ${refused[$w]}
	done
}

_watchq()
{
	local cur prev words cword
	# --opt=value is split into prev and cur; ":" (in %TYPE:DESC) does not split words.
	_init_completion -s -n : || return

	local events
	events=$(_watchq_events "${words[@]}" | sort -u)
	local opts='-e --event -E --exclude-event -j --json --format --keyctl --timefmt -T
		--timestamps -o --output --journal -q --quiet -0 --null -m --monitor --initial -t --timeout
		-n --count --fstype -S --source -O --options --exclude --include --excludei
		--includei -N --ns --recursive --follow --space-below --backend --no-bpf --interval
		--queue-size -h --help --usage -V --version'
	local wait_opts='--mount --unmount --readonly --writable --key --keyring --no-key
		--mounted --unmounted'
	# The common VFS options of a mount and of its superblock, as -O takes them.
	local mntopts='ro rw suid dev exec atime diratime relatime strictatime lazytime
		symfollow sync dirsync mand'
	local fmt='%s %e %E %w %t %p %o %f %d %F %O %g %r %i %I %N %G %P %u %c %k %K %y %l %a %z %b %T %%
		%#p %#o %#d %#f %#F %#O %#g %#c %#y %#w %#E %#G'

	case $prev in
	-e | --event | -E | --exclude-event)
		_watchq_list -i $events
		return
		;;
	-O | --options)
		_watchq_list $mntopts $(printf 'no%s ' $mntopts)
		return
		;;
	--backend)
		COMPREPLY=($(compgen -W 'auto fanotify mountinfo watch-queue poll' -- "$cur"))
		return
		;;
	--fstype)
		_watchq_list $(awk '{print $NF}' /proc/filesystems 2>/dev/null)
		return
		;;
	-S | --source | --mounted | --unmounted)
		_watchq_sources
		return
		;;
	--format)
		# An escape at the end of the format, after its last %.
		local head=$cur e
		[[ $cur == *%* ]] && head=${cur%\%*}
		for e in $fmt; do
			[[ $head$e == "$cur"* ]] && COMPREPLY+=("$head$e")
		done
		compopt -o nospace 2>/dev/null
		return
		;;
	--unmount | --readonly | --writable)
		_watchq_paths
		return
		;;
	-N | --ns)
		# A process or all, or once a slash is typed an nsfs file.
		if [[ $cur == */* ]]; then
			_filedir
		else
			_pids
			COMPREPLY+=($(compgen -W all -- "$cur"))
		fi
		return
		;;
	--mount | -o | --output)
		_filedir
		return
		;;
	--keyring)
		_watchq_keyspecs
		return
		;;
	--timefmt | -t | --timeout | -n | --count | --interval | --queue-size | --key | \
		--no-key | --space-below | --exclude | --include | --excludei | --includei)
		return
		;;
	esac

	if [[ $cur == -* ]]; then
		local w refused=
		for w in "${words[@]}"; do
			[[ $w == wait ]] && opts="$opts $wait_opts" \
				refused=$(_watchq_wait_refused "${words[@]:0:cword}")
			[[ $w == list ]] && opts="$opts --target"
		done
		COMPREPLY=($(compgen -W "$opts" -X "@($refused)" -- "$cur"))
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
		_watchq_keyspecs mounts sb
		;;
	*)
		COMPREPLY=($(compgen -W "$srcs $first" -- "$cur"))
		;;
	esac
} && complete -F _watchq watchq
