# fish completion for watchq(1)

function __watchq_source
	set -l src
	for w in (commandline -opc)
		switch $w
			case mounts keys sb
				set src $w
		end
	end
	echo $src
end

# Whether the line is a wait: its conditions are options only there.
function __watchq_waiting
	contains -- wait (commandline -opc)
end

# Whether the line is a list.
function __watchq_listing
	contains -- list (commandline -opc)
end

# Whether the wait on the line, if any, takes the option named $argv[1] (its long name): what
# each condition refuses, as cli.c decides it (a state wait selects and counts no events,
# prints nothing unless --mounted, which prints the mount it found, is there, and those judged
# in our own namespace take no -N).
function __watchq_allows
	set -l line (commandline -opc)
	contains -- wait $line; or return 0
	set -l kinds wait
	set -l prints
	for w in $line
		switch $w
			case '--mounted*'
				set -a kinds state
				set prints 1
			case '--mount*' '--unmount*'
				set -a kinds state silent
			case '--readonly*' '--writable*' --key '--key=*' '--no-key*'
				set -a kinds state silent here
			case '-e*' '--event*'
				set -a kinds event
		end
	end
	set -l wait initial monitor
	set -l state event exclude-event count fstype source options exclude include excludei \
		includei timefmt recursive space-below queue-size no-bpf keyctl follow
	set -l silent json format journal timestamps null output
	set -l here ns
	set -l event mount unmount readonly writable key keyring no-key mounted unmounted
	test -n "$prints"; and set silent
	for k in $kinds
		contains -- $argv[1] $$k; and return 1
	end
	return 0
end

# The word being completed, without the --option= in front of a value (fish puts it back).
function __watchq_token
	string replace -r -- '^--[^=]*=' '' (commandline -ct)
end

# The escapes of --format, after its last %.
function __watchq_format
	set -l head (string replace -r -- '%[^%]*$' '' (__watchq_token))
	for e in s e E w t p o f d F O g r i I N G P u c k K y l a z b T % '#p' '#o' '#d' '#f' '#F' '#O' \
		'#g' '#c' '#y' '#w' '#E' '#G'
		echo "$head%$e"
	end
end

function __watchq_mountpoints
	awk '{print $5}' /proc/self/mountinfo 2>/dev/null
end

# The keys this user can see, as %TYPE:DESC, each once: the description follows the first
# eight columns, up to the ": N" the kernel appends. The type column is cut to 9
# characters: a type that fills it may be cut short, so it is left out.
function __watchq_keys
	awk '{ d = $0; for (i = 0; i < 8; i++) sub(/^ *[^ ]+ +/, "", d); sub(/: [^:]*$/, "", d)
		if (length($8) < 9) print "%" $8 ":" d }' /proc/keys 2>/dev/null | sort -u
end

# A source as --source, --mounted and --unmounted take it: a device path, or a tag whose values
# are the names udev links in /dev/disk/by-label and the like (their \xNN escapes undone).
function __watchq_sources
	set -l cur (__watchq_token)
	set -l tag (string match -r '^(LABEL|UUID|PARTUUID|PARTLABEL)=' -- $cur)[2]
	if test -n "$tag"
		for n in /dev/disk/by-(string lower -- $tag)/*
			printf '%s=%b\n' $tag (string replace -r '.*/' '' -- $n)
		end
		return
	end
	printf '%s\n' LABEL= UUID= PARTUUID= PARTLABEL=
	__fish_complete_path $cur
end

# A comma list of mount options: the common VFS ones of a mount and of its superblock and their
# no forms, as -O takes them.
function __watchq_mntopts
	set -l o ro rw suid dev exec atime diratime relatime strictatime lazytime symfollow sync \
		dirsync mand
	set -l prefix (string match -r '^.*,' -- (__watchq_token))
	printf "$prefix%s\n" $o no$o
end

# The events of the sources on the line (all if none; mounts with -N all's), as the
# watchq completed lists them (-e help: "SOURCE NAME" lines).
function __watchq_events
	set -l words (commandline -opc)
	set -l want
	for w in $words[2..-1]
		switch $w
			case mounts '--mount*' '--unmount*' '--readonly*' '--writable*'
				set -a want mounts
			case keys sb
				set -a want $w
		end
	end
	set -l ev
	for line in ($words[1] -e help 2>/dev/null)
		set -l f (string split ' ' -- $line)
		if test (count $want) -eq 0; or contains -- $f[1] $want
			set -a ev $f[2]
		end
	end
	# After a comma, complete the next name of the list.
	set -l cur (__watchq_token)
	set -l prefix (string match -r '^.*,' -- $cur)
	printf "$prefix%s\n" $ev | sort -u
end

complete -c watchq -f
complete -c watchq -n 'test -z (__watchq_source); and not __watchq_waiting; and not __watchq_listing' -a 'mounts keys sb list wait'
complete -c watchq -n 'test -z (__watchq_source); and __watchq_waiting' -a 'mounts keys sb'
complete -c watchq -n 'test -z (__watchq_source); and __watchq_listing' -a 'mounts keys sb'
complete -c watchq -n 'test (__watchq_source) = mounts' -a '(__watchq_mountpoints) (__fish_complete_directories)'
complete -c watchq -n 'test (__watchq_source) = sb' -a '(__watchq_mountpoints) (__fish_complete_directories)'
complete -c watchq -n 'test (__watchq_source) = keys' -a '@s @u @us @p @t @g @a (__watchq_keys)'
complete -c watchq -n '__watchq_allows event' -s e -l event -x -a '(__watchq_events)' -d 'Report only these events'
complete -c watchq -n '__watchq_allows exclude-event' -s E -l exclude-event -x -a '(__watchq_events)' -d 'Do not report these events'
complete -c watchq -n '__watchq_allows json' -s j -l json -d 'Print JSON lines'
complete -c watchq -n '__watchq_allows keyctl' -l keyctl -d 'keys: print as keyctl watch does'
complete -c watchq -n '__watchq_allows format' -l format -x -a '(__watchq_format)' -d 'Print with %-escapes'
complete -c watchq -n '__watchq_allows timefmt' -l timefmt -x -d 'strftime format for %T and -T'
complete -c watchq -n '__watchq_allows timestamps' -s T -l timestamps -d 'Prefix each line with the time'
complete -c watchq -n '__watchq_allows output' -s o -l output -r -F -d 'Append events to FILE'
complete -c watchq -n '__watchq_allows journal' -l journal -d 'Send events to the systemd journal'
complete -c watchq -s q -l quiet -d 'Only errors on stderr; twice: no events either'
complete -c watchq -n '__watchq_allows null' -s 0 -l null -d 'End each record with NUL'
complete -c watchq -n '__watchq_allows monitor' -s m -l monitor -d 'Keep reporting (the default)'
complete -c watchq -n '__watchq_allows initial' -l initial -d 'Report present mounts first'
complete -c watchq -n '__watchq_listing' -l target -d 'list mounts: the mount that holds each DIR'
complete -c watchq -s t -l timeout -x -d 'Exit 2 after SECONDS'
complete -c watchq -n '__watchq_allows count' -s n -l count -x -d 'Exit 0 after N events'
complete -c watchq -n '__watchq_allows fstype' -l fstype -x -a '(awk "{print \$NF}" /proc/filesystems)' -d 'Only these filesystem types'
complete -c watchq -n '__watchq_allows source' -s S -l source -x -a '(__watchq_sources)' -d 'Only mounts of this device'
complete -c watchq -n '__watchq_allows options' -s O -l options -x -a '(__watchq_mntopts)' -d 'Only mounts with these options'
complete -c watchq -n '__watchq_allows exclude' -l exclude -x -d 'Do not report events whose path matches REGEX'
complete -c watchq -n '__watchq_allows include' -l include -x -d 'Report only events whose path matches REGEX'
complete -c watchq -n '__watchq_allows excludei' -l excludei -x -d 'As --exclude, case ignored'
complete -c watchq -n '__watchq_allows includei' -l includei -x -d 'As --include, case ignored'
complete -c watchq -n '__watchq_allows ns' -s N -l ns -r -a '(__fish_complete_pids) all' -d 'Watch this mount namespace instead of ours (all: every one)'
complete -c watchq -n '__watchq_allows recursive' -l recursive -d 'keys: follow keyrings linked below'
complete -c watchq -n '__watchq_allows follow' -l follow -d 'keys: follow the keys linked in watched keyrings'
complete -c watchq -n '__watchq_allows space-below' -l space-below -x -d 'sb: report lowspace below PERCENT% or SIZE'
complete -c watchq -l backend -x -a 'auto fanotify mountinfo watch-queue poll' -d 'Backend'
complete -c watchq -l interval -x -d 'Period of polled backends'
complete -c watchq -n '__watchq_allows queue-size' -l queue-size -x -d 'Kernel queue size'
complete -c watchq -n '__watchq_allows no-bpf' -l no-bpf -d 'Do not capture mount system calls with BPF'
complete -c watchq -n '__watchq_waiting; and __watchq_allows mount' -l mount -r -a '(__fish_complete_directories)' -d 'Wait until PATH is a mount point'
complete -c watchq -n '__watchq_waiting; and __watchq_allows unmount' -l unmount -x -a '(__watchq_mountpoints)' -d 'Wait until PATH is not a mount point'
complete -c watchq -n '__watchq_waiting; and __watchq_allows readonly' -l readonly -x -a '(__watchq_mountpoints) (__fish_complete_directories)' -d 'Wait until PATH is read-only'
complete -c watchq -n '__watchq_waiting; and __watchq_allows writable' -l writable -x -a '(__watchq_mountpoints) (__fish_complete_directories)' -d 'Wait until PATH is writable'
complete -c watchq -n '__watchq_waiting; and __watchq_allows key' -l key -x -d 'Wait until a key exists'
complete -c watchq -n '__watchq_waiting; and __watchq_allows keyring' -l keyring -x -a '@s @u @us @p @t @g @a (__watchq_keys)' -d 'Keyring searched by --key'
complete -c watchq -n '__watchq_waiting; and __watchq_allows no-key' -l no-key -x -d 'Wait until a key is gone'
complete -c watchq -n '__watchq_waiting; and __watchq_allows mounted' -l mounted -x -a '(__watchq_sources)' -d 'Wait until SPEC is mounted'
complete -c watchq -n '__watchq_waiting; and __watchq_allows unmounted' -l unmounted -x -a '(__watchq_sources)' -d 'Wait until SPEC is not mounted'
complete -c watchq -s h -l help -d 'Print help'
complete -c watchq -l usage -d 'Print a short usage'
complete -c watchq -s V -l version -d 'Print the version'
