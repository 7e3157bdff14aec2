#!/usr/bin/env bats
# The user-facing parts tested like code: completions as each shell drives
# them, the man pages against --help and -e, the READMEs and examples/ run.
load helper

ROOT=$BATS_TEST_DIRNAME/..
# The completions ask the watchq they complete for its event names (-e help): this one.
PATH=$(cd "$ROOT" && pwd):$PATH
# The man pages' sources: watchq(1) the command line, watchq-records(5) what it
# prints, watchq-backends(7) the kernel mechanisms.
MAN1=$ROOT/watchq.1.scd
MAN5=$ROOT/watchq-records.5.scd
MAN7=$ROOT/watchq-backends.7.scd

# man_section FILE HEADING: the lines of section HEADING of FILE, to the next section.
man_section() {
	sed -n "/^# $2\$/,/^# /p" "$1" | sed '$ { /^# /d }'
}

# format_escapes: the --format escapes FORMAT in watchq-records(5) lists, one a line.
format_escapes() {
	man_section "$MAN5" FORMAT | grep -o '\*%#\?.\*' | tr -d '*' | sort -u
}

# complete_bash WORDS...: the candidates bash completion offers for the last word
# (sorted, each as often as offered); the line is WORDS joined by spaces, or $LINE.
complete_bash() {
	local f=/usr/share/bash-completion/bash_completion
	[ -r "$f" ] || skip "bash-completion not installed"
	${IN[@]+"${IN[@]}"} bash -c '
		. "$1"; . "$2"; COMP_LINE=$3; shift 3
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE=${COMP_LINE:-$*}; COMP_POINT=${#COMP_LINE}
		_watchq watchq "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"
	' _ "$f" "$ROOT/completions/watchq.bash" "${LINE:-}" "$@" | sort
}

# complete_bash_line LINE: the candidates for the end of LINE, its words split
# as bash splits them for completion (at blanks, "=" and ":" words of their own).
complete_bash_line() {
	local words
	read -ra words <<<"$(printf '%s' "$1" | sed 's/[=:]/ & /g')"
	[[ $1 == *[\ =:] ]] && words+=('')
	LINE=$1 complete_bash "${words[@]}"
}

# complete_zsh LINE: the candidates zsh's completion system offers at the end of LINE.
complete_zsh() {
	command -v zsh >/dev/null || skip "zsh not installed"
	zsh -f -c 'zmodload zsh/zpty && zpty t true' 2>/dev/null || skip "no zsh zpty (module or pseudo-terminals) here"
	# The first call makes compinit's dump for the whole file (slow in the VM), the rest reuse it.
	(cd "$T" && ZC_DUMP=$BATS_FILE_TMPDIR/zcompdump timeout 300 ${IN[@]+"${IN[@]}"} zsh -f "$ROOT/tests/zsh-complete" "$ROOT/completions" "$1")
}

# complete_fish LINE: the candidates fish offers at the end of LINE.
complete_fish() {
	command -v fish >/dev/null || skip "fish not installed"
	${IN[@]+"${IN[@]}"} fish -N -c 'source $argv[1]; complete -C"$argv[2]"' "$ROOT/completions/watchq.fish" "$1" | cut -f1 | sort -u
}

# complete_line_SHELL LINE: the candidates of each shell for the end of LINE.
complete_line_bash() { complete_bash_line "$1"; }
complete_line_zsh() { complete_zsh "$1"; }
complete_line_fish() { complete_fish "$1"; }

# The complete_* functions run the shell under the command in the array IN, if set.
# in_keys: IN runs it in a session keyring of its own that holds a keyring and a user key.
# (keyctl session says on stderr that it joined one: that line is not passed on.)
in_keys() {
	command -v keyctl >/dev/null || skip "keyutils not installed"
	cat >"$T/in-keys" <<'EOF'
exec 9>&2
exec keyctl session - sh -c 'exec 2>&9 9>&- && keyctl newring watchq-docs-ring @s >/dev/null &&
	keyctl add user watchq-docs-key data @s >/dev/null && exec "$@"' _ "$@" 2>/dev/null
EOF
	IN=(sh "$T/in-keys")
}

# in_disks: IN runs it where /dev/disk holds the links udev makes for a few filesystems,
# named as udev names them (\x20 for a space): an overlay on /dev in a mount namespace of
# its own, /dev/pts kept for zsh's pseudo-terminal.
in_disks() {
	need_root
	mkdir "$T/upper" "$T/work" "$T/pts"
	IN=(unshare -m --propagation private sh -c 'mount --bind /dev/pts "$0/pts" &&
		mount -t overlay wq -o "lowerdir=/dev,upperdir=$0/upper,workdir=$0/work" /dev &&
		mount --move "$0/pts" /dev/pts && d=/dev/disk &&
		mkdir -p $d/by-label $d/by-uuid $d/by-partuuid $d/by-partlabel &&
		ln -sf ../../loop0 "$d/by-label/My\x20Stick" && ln -sf ../../loop1 $d/by-label/STICK &&
		ln -sf ../../loop0 $d/by-uuid/1234-ABCD &&
		ln -sf ../../loop0 $d/by-partuuid/0a1b2c3d-01 &&
		ln -sf ../../loop0 "$d/by-partlabel/EFI\x20system" && exec "$@"' "$T")
	"${IN[@]}" true 2>/dev/null || skip "cannot put an overlay on /dev here"
}

@test "every man page is built, and clean under mandoc -Tlint" {
	command -v mandoc >/dev/null || skip "mandoc not installed"
	for page in watchq.1 watchq-records.5 watchq-backends.7; do
		[ -s "$ROOT/man/$page" ] || { echo "man/$page not built"; false; }
		run mandoc -Tlint "$ROOT/man/$page"
		[ "$status" -eq 0 ] && [ -z "$output" ] || { echo "$page: $output"; false; }
	done
	# Every page has its source, and every source is built (make all).
	[ "$(cd "$ROOT" && ls *.scd | sed 's/\.scd$//' | sort)" = "$(ls "$ROOT/man" | sort)" ]
}

@test "every long option of --help is in the man page and in all three completions" {
	opts=$("$WATCHQ" --help | grep -o -- '--[a-z][a-z-]*' | sort -u)
	[ "$(echo "$opts" | wc -l)" -gt 20 ]
	for opt in $opts; do
		grep -q -- "\*$opt\*\|\*-., $opt\*" "$MAN1" || { echo "watchq(1) lacks $opt"; false; }
		grep -qw -- "$opt" "$ROOT/completions/watchq.bash" || { echo "bash lacks $opt"; false; }
		grep -q -- "'[*(]*[^']*$opt[=+\[]" "$ROOT/completions/_watchq" || grep -q -- "{[^}]*$opt[=+]*}" "$ROOT/completions/_watchq" ||
			{ echo "zsh lacks $opt"; false; }
		grep -q -- "-l ${opt#--} " "$ROOT/completions/watchq.fish" || { echo "fish lacks $opt"; false; }
	done
}

@test "-e help lists every event the man page lists and the aliases, each accepted with its source; the completions offer exactly those" {
	# EVENTS entries: lines starting with *name* (several names on a line for keys).
	# (The source and mechanism in parentheses after the names are not names.)
	names=$(man_section "$MAN1" EVENTS | grep '^\*' |
		sed 's/ ([a-z]*;.*//' | grep -o '\*[a-z_]*\*' | tr -d '*' | sort -u)
	[ "$(echo "$names" | wc -l)" -ge 21 ]
	for ev in $names; do
		run --separate-stderr "$WATCHQ" -q -t 0 --initial --space-below 1% -e "$ev" mounts / keys @s sb /
		[ "$status" -ne 64 ] || { echo "-e $ev: $stderr"; false; }
	done
	# -e help: every name, the aliases too (keyctl watch's, findmnt's, inotifywait's), as
	# "SOURCE NAME" lines; each accepted with its source, and those of the man page among them.
	run --separate-stderr "$WATCHQ" -e help
	[ "$status" -eq 0 ] && [ -z "$stderr" ]
	helped=$(printf '%s\n' "$output" | cut -d' ' -f2 | sort -u)
	for ev in $names; do
		grep -qx "$ev" <<<"$helped" || { echo "-e help lacks $ev"; false; }
	done
	while read -r src ev; do
		case $src in
		mounts) line=(mounts /) ;; keys) line=(keys @s) ;; sb) line=(--space-below 1% sb /) ;;
		*) echo "-e help: $src $ev"; false ;;
		esac
		run --separate-stderr "$WATCHQ" -q -t 0 --initial -e "$ev" "${line[@]}"
		[ "$status" -ne 64 ] || { echo "-e $ev ${line[*]}: $stderr"; false; }
	done <<<"$output"
	[ "$("$WATCHQ" -E HELP | cut -d' ' -f2 | sort -u)" = "$helped" ]
	# The completions offer exactly those names.
	offered=$(printf '%s\n' $helped | tr '\n' ' ')
	[ "$(complete_bash watchq -e '' | tr '\n' ' ')" = "$offered" ]
	[ "$(complete_fish 'watchq -e ' | tr '\n' ' ')" = "$offered" ]
	[ "$(complete_zsh 'watchq -e ' | tr '\n' ' ')" = "$offered" ]
	run --separate-stderr "$WATCHQ" -e nosuch mounts /
	[ "$status" -eq 64 ]
}

@test "bash completion: sources, options, events per source, backends, targets, wait conditions" {
	run complete_bash watchq ''
	[ "$(echo "$output" | tr '\n' ' ')" = "keys list mounts sb wait " ]
	run complete_bash watchq --ti
	[ "$(echo "$output" | tr '\n' ' ')" = "--timefmt --timeout --timestamps " ]
	run complete_bash watchq --sp
	[ "$output" = --space-below ]
	run complete_bash watchq mounts / -e unmount,mo
	[[ "$output" == *unmount,move_from* ]]
	run complete_bash watchq sb / -e ''
	[ "$(echo "$output" | tr '\n' ' ')" = "edquot error loss lowspace present readonly removal " ]
	run complete_bash watchq keys @s -e un
	[ "$(echo "$output" | tr '\n' ' ')" = "unlink unlinked unlk " ]
	run complete_bash watchq --backend m
	[ "$output" = mountinfo ]
	run complete_bash watchq wait --wri
	[ "$output" = --writable ]
	run complete_bash watchq mounts /pro
	[[ "$output" == */proc* ]]
	run complete_bash watchq sb /sy
	[[ "$output" == */sys* ]]
	run complete_bash watchq wait --readonly /pro
	[[ "$output" == */proc* ]]
	run complete_bash watchq keys @u
	[ "$(echo "$output" | tr '\n' ' ')" = "@u @us " ]
	run complete_bash watchq --keyring @
	[[ "$output" == *@s* && "$output" == *@us* ]]
}

@test "bash completion: --opt=VALUE, wait once, each path once" {
	run complete_bash_line 'watchq --backend='
	[ "$(echo "$output" | tr '\n' ' ')" = "auto fanotify mountinfo poll watch-queue " ]
	run complete_bash_line 'watchq --backend=m'
	[ "$output" = mountinfo ]
	run complete_bash_line 'watchq sb / --event=e'
	[ "$(echo "$output" | tr '\n' ' ')" = "edquot error " ]
	run complete_bash_line 'watchq mounts / --exclude-event=unmount,mo'
	[[ "$output" == *unmount,move_from* ]]
	run complete_bash_line 'watchq --fstype=tmp'
	[[ "$output" == *tmpfs* ]]
	run complete_bash_line 'watchq wait '
	[ "$(echo "$output" | tr '\n' ' ')" = "keys mounts sb " ]
	run complete_bash_line 'watchq list '
	[ "$(echo "$output" | tr '\n' ' ')" = "keys mounts sb " ]
	run complete_bash_line 'watchq mounts / '
	[[ "$output" != *wait* ]]
	run complete_bash_line 'watchq sb /s'
	[ "$(echo "$output" | grep -cx /sys)" -eq 1 ]
	[ -z "$(echo "$output" | uniq -d)" ]
	run complete_bash_line 'watchq mounts /s'
	[ -z "$(echo "$output" | uniq -d)" ]
	run complete_bash_line 'watchq wait --unmount /s'
	[ "$(echo "$output" | grep -cx /sys)" -eq 1 ]
}

@test "bash completion offers named keyrings as %keyring:NAME" {
	command -v keyctl >/dev/null || skip "keyutils not installed"
	run --separate-stderr keyctl session - bash -c '
		keyctl newring watchq-docs-ring @s >/dev/null
		. /usr/share/bash-completion/bash_completion; . "$1"
		# Split as bash splits the line: at the colon too.
		COMP_WORDS=(watchq keys %keyring : watchq-d); COMP_CWORD=4
		COMP_LINE="watchq keys %keyring:watchq-d"; COMP_POINT=${#COMP_LINE}
		_watchq watchq watchq-d :
		printf "%s\n" "${COMPREPLY[@]}"' _ "$ROOT/completions/watchq.bash"
	# Bash replaces only the part after the colon.
	[ "$output" = "watchq-docs-ring" ]
}

@test "zsh completion: sources, options, events per source, targets, backends" {
	run complete_zsh 'watchq '
	[ "$(echo "$output" | tr '\n' ' ')" = "keys list mounts sb wait " ]
	run complete_zsh 'watchq --back'
	[ "$output" = --backend ]
	run complete_zsh 'watchq --backend m'
	[ "$output" = mountinfo ]
	run complete_zsh 'watchq sb / -e e'
	[ "$(echo "$output" | tr '\n' ' ')" = "edquot error " ]
	run complete_zsh 'watchq keys @s -e un'
	[ "$(echo "$output" | tr '\n' ' ')" = "unlink unlinked unlk " ]
	run complete_zsh 'watchq sb /pro'
	[[ "$output" == */proc* ]]
	run complete_zsh 'watchq keys @u'
	[ "$(echo "$output" | tr '\n' ' ')" = "@u @us " ]
	run complete_zsh 'watchq wait --wri'
	[ "$output" = --writable ]
	# Wait conditions only after wait; wait only once.
	run complete_zsh 'watchq --'
	[ -n "$output" ] && [ -z "$(echo "$output" | grep -E -- '^--(mount|key|unmount)([^a-z-]|$)')" ]
	run complete_zsh 'watchq wait '
	[ "$(echo "$output" | tr '\n' ' ')" = "keys mounts sb " ]
	run complete_zsh 'watchq list '
	[ "$(echo "$output" | tr '\n' ' ')" = "keys mounts sb " ]
}

@test "fish completion: sources, options, events per source, targets" {
	run complete_fish 'watchq '
	[[ "$output" == *mounts* && "$output" == *wait* ]]
	run complete_fish 'watchq --back'
	[ "$output" = --backend ]
	run complete_fish 'watchq --backend '
	[ "$(echo "$output" | tr '\n' ' ')" = "auto fanotify mountinfo poll watch-queue " ]
	run complete_fish 'watchq sb / -e e'
	[ "$(echo "$output" | tr '\n' ' ')" = "edquot error " ]
	run complete_fish 'watchq -e unmount,mo'
	[[ "$output" == *unmount,move_from* ]]
	run complete_fish 'watchq sb /pro'
	[[ "$output" == */proc* ]]
	run complete_fish 'watchq keys @u'
	[[ "$output" == *@us* ]]
	# Wait conditions only after wait; wait only once.
	run complete_fish 'watchq --'
	[ -n "$output" ] && [ -z "$(echo "$output" | grep -E -- '^--(mount|key|unmount)([^a-z-]|$)')" ]
	run complete_fish 'watchq mounts / --'
	[[ "$output" != *--no-key* && "$output" != *--keyring* && "$output" != *--writable* ]]
	run complete_fish 'watchq wait --'
	[[ "$output" == *--mount* && "$output" == *--key* && "$output" == *--keyring* ]]
	run complete_fish 'watchq wait '
	[ "$(echo "$output" | tr '\n' ' ')" = "keys mounts sb " ]
	run complete_fish 'watchq list '
	[ "$(echo "$output" | tr '\n' ' ')" = "keys mounts sb " ]
}

@test "-N and --ns complete to process ids and all in all three shells; to files after a slash in bash" {
	sleep 1000 </dev/null >/dev/null 2>&1 3>&- &
	pid=$!
	bash_pids=$(complete_bash watchq -N '')
	bash_files=$(complete_bash watchq --ns /pro)
	fish_pids=$(complete_fish 'watchq --ns ')
	kill $pid
	echo "$bash_pids" | grep -qx "$pid"
	[[ "$bash_files" == */proc* ]]
	echo "$fish_pids" | grep -qx "$pid"
	# zsh's _pids offers the processes of its terminal: numbers all the same; and all.
	run complete_zsh 'watchq -N '
	[ -n "$output" ]
	[ -z "$(echo "$output" | grep -v '^[0-9][0-9]*$' | grep -vx all)" ]
	echo "$output" | grep -qx all
	complete_bash watchq -N a | grep -qx all
	complete_fish 'watchq -N a' | grep -qx all
}

@test "zsh completion: key specs as keys TARGETs take them (%TYPE:DESC), --fstype types" {
	in_keys
	run complete_zsh 'watchq keys %k'
	[[ "$output" == *%keyring:watchq-docs-ring* ]]
	[ -z "$(echo "$output" | grep -v '^%keyring:')" ]
	run complete_zsh 'watchq keys @s %user:watchq'
	[ "$output" = %user:watchq-docs-key ]
	IN=()
	run complete_zsh 'watchq --fstype tm'
	[[ "$output" == *tmpfs* ]]
	run complete_zsh 'watchq --fstype ext4,pro'
	[ "$output" = proc ]
}

@test "bash completion: event names typed in capitals complete in capitals" {
	run complete_bash watchq -e UNM
	[ "$output" = UNMOUNT ]
	run complete_bash watchq mounts / -E mount,MOVE_F
	[ "$output" = mount,MOVE_FROM ]
	run complete_bash_line 'watchq mounts / --event=Move_'
	[ "$output" = 'Move_from
Move_to' ]
}

@test "bash completion: every key it can see as %TYPE:DESC, %user: too" {
	in_keys
	run complete_bash_line 'watchq keys %user:watchq-d'
	# Bash replaces only the part after the colon.
	[ "$output" = watchq-docs-key ]
	run complete_bash_line 'watchq wait --key user:x --keyring %'
	[[ "$output" == *%keyring:watchq-docs-ring* && "$output" == *%user:watchq-docs-key* ]]
}

@test "--source, -S, --mounted, --unmounted: LABEL= and the like from /dev/disk, all three shells" {
	in_disks
	run complete_bash_line 'watchq --source LA'
	[ "$output" = LABEL= ]
	run complete_bash_line 'watchq --source LABEL='
	# Bash replaces only the part after the "=", quoted as it is typed.
	[ "$output" = 'My\ Stick
STICK' ]
	run complete_bash_line 'watchq -S UUID=12'
	[ "$output" = 1234-ABCD ]
	run complete_bash_line 'watchq wait --mounted=PARTLABEL='
	[ "$output" = 'EFI\ system' ]
	run complete_bash_line 'watchq wait --unmounted PARTUUID='
	[ "$output" = 0a1b2c3d-01 ]
	run complete_zsh 'watchq -S LABEL='
	[ "$output" = 'My Stick
STICK' ]
	run complete_zsh 'watchq wait --mounted PARTLABEL='
	[ "$output" = 'EFI system' ]
	run complete_zsh 'watchq --source UUID='
	[ "$output" = 1234-ABCD ]
	run complete_fish 'watchq --source LABEL='
	[ "$output" = 'LABEL=My Stick
LABEL=STICK' ]
	run complete_fish 'watchq wait --unmounted PARTUUID='
	[ "$output" = PARTUUID=0a1b2c3d-01 ]
	# fish puts --source= back in front of the value.
	run complete_fish 'watchq --source=LABEL=S'
	[ "$output" = --source=LABEL=STICK ]
}

@test "--format: watchq takes exactly the escapes watchq-records(5) lists" {
	man=$(format_escapes)
	[ "$(echo "$man" | wc -l)" -ge 30 ]
	took=$(for c in {a..z} {A..Z} %; do
		for e in "%$c" "%#$c"; do
			"$WATCHQ" -q --format "$e" list sb / >/dev/null 2>&1 && echo "$e"
		done
	done | sort -u)
	[ "$took" = "$man" ] || { diff <(echo "$man") <(echo "$took"); false; }
}

@test "bash completion: --format completes the escapes the man page lists" {
	man=$(format_escapes)
	[ "$(echo "$man" | wc -l)" -ge 30 ]
	[ "$(complete_bash watchq --format '%')" = "$man" ]
	run complete_bash watchq --format '%p%#'
	[ "$output" = "$(echo "$man" | grep '^%#' | sed 's/^/%p/' | sort)" ]
	run complete_bash_line 'watchq --format=%k%K%'
	[[ "$output" == *%k%K%y* ]]
}

@test "bash completion: wait offers no option the wait on the line refuses" {
	mkdir "$T/m"
	# Each refused with --unmount (exit 64), and not offered there.
	offered=$(complete_bash watchq wait --unmount "$T/m" --)
	for opt in --initial --monitor --json --format=%p --journal --timestamps --null \
		--output="$T/o" --count=1 --event=mount --exclude-event=mount --fstype=tmpfs \
		--source=/dev/x --timefmt=%s --recursive --space-below=1% --queue-size=8 --no-bpf; do
		run --separate-stderr "$WATCHQ" -t 0 "$opt" wait --unmount "$T/m"
		[ "$status" -eq 64 ] || { echo "$opt: $status"; false; }
		[[ $'\n'$offered$'\n' != *$'\n'${opt%%=*}$'\n'* ]] ||
			{ echo "$opt offered"; false; }
	done
	# What it takes is offered.
	for opt in --timeout --backend --ns --quiet --mount --key; do
		echo "$offered" | grep -qx -- "$opt" || { echo "$opt not offered"; false; }
	done
	# -N is refused with --readonly, state conditions with -e, --initial with any wait.
	run --separate-stderr "$WATCHQ" -t 0 -N $$ wait --readonly /
	[ "$status" -eq 64 ]
	run complete_bash watchq wait --readonly / --
	[[ "$output" != *--ns* && "$output" == *--writable* ]]
	run --separate-stderr "$WATCHQ" -t 0 wait -e mount --mount "$T/m" mounts /
	[ "$status" -eq 64 ]
	run complete_bash watchq wait -e mount mounts / --
	[[ "$output" != *--mount* && "$output" != *--keyring* && "$output" == *--json* ]]
	run complete_bash watchq wait --
	[[ "$output" != *--initial* && "$output" != *--monitor* && "$output" == *--json* ]]
	run complete_bash watchq --
	[[ "$output" == *--initial* && "$output" == *--json* ]]
}

@test "zsh and fish completion: --format escapes; no option the wait on the line refuses" {
	man=$(format_escapes)
	[ "$(echo "$man" | wc -l)" -ge 30 ]
	# zsh offers what follows the last %, fish the whole word.
	[ "$(complete_zsh 'watchq --format %')" = "$(echo "$man" | sed 's/^%//' | sort -u)" ]
	[ "$(complete_fish 'watchq --format %')" = "$man" ]
	run complete_zsh 'watchq --format %p%#'
	[ "$output" = "$(echo "$man" | grep '^%#' | sed 's/^%//' | sort)" ]
	run complete_fish 'watchq --format %p%#'
	[ "$output" = "$(echo "$man" | grep '^%#' | sed 's/^/%p/' | sort)" ]
	# The options the bash test finds refused with --unmount (exit 64).
	mkdir "$T/m"
	for sh in zsh fish; do
		offered=$(complete_$sh "watchq wait --unmount $T/m --")
		for opt in --initial --monitor --json --format --journal --timestamps --null \
			--output --count --event --exclude-event --fstype --source --timefmt --recursive \
			--space-below --queue-size --no-bpf; do
			[[ $'\n'$offered$'\n' != *$'\n'$opt$'\n'* ]] || { echo "$sh: $opt offered"; false; }
		done
		for opt in --timeout --backend --ns --quiet --mount --key; do
			echo "$offered" | grep -qx -- "$opt" || { echo "$sh: $opt not offered"; false; }
		done
		run complete_$sh 'watchq wait --readonly / --'
		[[ "$output" != *--ns* && "$output" == *--writable* ]]
		run complete_$sh 'watchq wait -e mount mounts / --'
		[[ "$output" != *--mount* && "$output" != *--keyring* && "$output" == *--json* ]]
		run complete_$sh 'watchq wait --'
		[[ "$output" != *--initial* && "$output" != *--monitor* && "$output" == *--json* ]]
		run complete_$sh 'watchq --'
		[[ "$output" == *--initial* && "$output" == *--json* ]]
		run complete_$sh 'watchq wait --mounted LABEL=X --'
		[[ "$output" == *--format* && "$output" != *--event* && "$output" != *--fstype* ]]
	done
}

@test "the options and names of issue 23 complete in all three shells" {
	# bash: the filters, -S, -O, --no-bpf, --mounted, keyctl's event names.
	run complete_bash watchq --exc
	[ "$(echo "$output" | tr '\n' ' ')" = "--exclude --exclude-event --excludei " ]
	run complete_bash watchq --inc
	[ "$(echo "$output" | tr '\n' ' ')" = "--include --includei " ]
	run complete_bash watchq --exclude ''
	[ -z "$output" ]
	run complete_bash watchq -
	[[ "$output" == *$'\n-S\n'* && "$output" == *$'\n-O\n'* && "$output" == *--no-bpf* ]]
	run complete_bash watchq wait --unm
	[ "$(echo "$output" | tr '\n' ' ')" = "--unmount --unmounted " ]
	# --mounted prints the mount it found: output options go with it (beside any other
	# condition), event selection does not; --unmounted prints nothing.
	run complete_bash watchq wait --mounted LABEL=X --
	[[ "$output" == *--format* && "$output" == *--json* ]]
	[[ "$output" != *--event* && "$output" != *--fstype* && "$output" != *--options* ]]
	for sh in bash zsh fish; do
		run complete_line_$sh 'watchq wait --mounted LABEL=X --unmount /y --'
		[[ "$output" == *--format* && "$output" != *--count* ]] || { echo "$sh"; false; }
		run complete_line_$sh 'watchq wait --unmounted LABEL=X --'
		[[ "$output" != *--format* && "$output" == *--timeout* ]] || { echo "$sh"; false; }
	done
	run complete_bash watchq -O noa
	[ "$output" = noatime ]
	run complete_bash_line 'watchq --options=ro,nosu'
	[ "$output" = ro,nosuid ]
	run complete_bash watchq keys @s -e in
	[ "$(echo "$output" | tr '\n' ' ')" = "inst instantiated inv inval invalidated " ]
	run complete_bash watchq keys @s -e ''
	[[ "$output" == *$'\nclr\n'* && "$output" == *$'\ngc\n'* && "$output" == *$'\nlink\n'* ]]
	# zsh.
	run complete_zsh 'watchq --exc'
	[ "$(echo "$output" | tr '\n' ' ')" = "--exclude --exclude-event --excludei " ]
	run complete_zsh 'watchq --no-'
	[ "$output" = --no-bpf ]
	run complete_zsh 'watchq wait --unm'
	[ "$(echo "$output" | tr '\n' ' ')" = "--unmount --unmounted " ]
	run complete_zsh 'watchq -O noa'
	[ "$output" = noatime ]
	run complete_zsh 'watchq -S LA'
	[ "$output" = LABEL= ]
	run complete_zsh 'watchq keys @s -e in'
	[ "$(echo "$output" | tr '\n' ' ')" = "inst instantiated inv inval invalidated " ]
	# fish.
	run complete_fish 'watchq --inc'
	[ "$(echo "$output" | tr '\n' ' ')" = "--include --includei " ]
	run complete_fish 'watchq --no-'
	[ "$output" = --no-bpf ]
	run complete_fish 'watchq wait --unm'
	[ "$(echo "$output" | tr '\n' ' ')" = "--unmount --unmounted " ]
	run complete_fish 'watchq -O ro,noa'
	[ "$output" = ro,noatime ]
	run complete_fish 'watchq -S LA'
	[ "$output" = LABEL= ]
	run complete_fish 'watchq keys @s -e in'
	[ "$(echo "$output" | tr '\n' ' ')" = "inst instantiated inv inval invalidated " ]
}

@test "source words and backends: --help, the man page and all three completions follow the tables" {
	# --help prints them from the tables in src/sources/source.c.
	backends=$("$WATCHQ" --help | sed -n 's/^ *--backend=NAME *//p' | tr -d ',' | tr ' ' '\n' | sort | tr '\n' ' ')
	sources=$("$WATCHQ" --help | tr '\n' ' ' | grep -o 'SOURCE is .*; several' |
		grep -o '\(is\|,\|or\) [a-z]*' | awk '{print $2}' | sort | tr '\n' ' ')
	[ "$backends" = "auto fanotify mountinfo poll watch-queue " ]
	[ "$sources" = "keys mounts sb " ]
	# The man pages: the --backend entry of watchq(1), the BACKENDS entries of
	# watchq-backends(7), the SOURCES entries of watchq(1).
	man_backends=$(sed -n '/^\*--backend\*=/,/^$/p' "$MAN1" | grep -o '\*[a-z-]*\*' | tr -d '*' |
		grep -vx -- '--backend\|auto\|watchq-backends' | sort -u | tr '\n' ' ')
	[ "auto $man_backends" = "$backends" ]
	for be in $man_backends auto; do
		man_section "$MAN7" BACKENDS | grep -q "^\*$be\*\( (\|$\)" ||
			{ echo "watchq-backends(7) BACKENDS lacks $be"; false; }
	done
	man_sources=$(man_section "$MAN1" SOURCES | grep -o '^\*[a-z]*\*' | tr -d '*' | sort | tr '\n' ' ')
	[ "$man_sources" = "$sources" ]
	# The completions, driven as each shell drives them.
	[ "$(complete_bash watchq --backend '' | tr '\n' ' ')" = "$backends" ]
	[ "$(complete_fish 'watchq --backend ' | tr '\n' ' ')" = "$backends" ]
	[ "$(complete_zsh 'watchq --backend ' | sort | tr '\n' ' ')" = "$backends" ]
	verbs=$(printf '%s\n' $sources list wait | sort | tr '\n' ' ')
	[ "$(complete_bash watchq '' | tr '\n' ' ')" = "$verbs" ]
	[ "$(complete_fish 'watchq ' | sort | tr '\n' ' ')" = "$verbs" ]
	[ "$(complete_zsh 'watchq ' | sort | tr '\n' ' ')" = "$verbs" ]
}

@test "--help and --usage begin like the man page synopsis" {
	syn=$(man_section "$MAN1" SYNOPSIS | grep '^\*watchq\*' | sed 's/[*_]//g; s/\\//g')
	help=$("$WATCHQ" --help | sed -n '1,3p' | sed 's/^Usage: //; s/^  or:  //')
	[ "$help" = "$syn" ]
	run "$WATCHQ" --usage
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "Usage: watchq [-0hjmqTV] "* || "${lines[0]}" == "Usage: watchq [-0jmqThV] "* ]]
	[[ "$output" == *"  or:  watchq [OPTION...] wait CONDITION... [SOURCE [TARGET...]]"* ]]
}

@test "the man page: FILES names each file make install puts beside the binary; BUGS; SEE ALSO" {
	cd "$ROOT"
	[ -w . ] || skip "source tree is read-only here"
	sections=$(grep '^# ' watchq.1.scd | tr '\n' '|')
	[[ "$sections" == *"|# ENVIRONMENT|# FILES|# EXAMPLES|# BUGS|# SEE ALSO|# AUTHORS|" ]]
	files=$(sed -n '/^# FILES/,/^# EXAMPLES/p' watchq.1.scd | sed -n 's/^_\(\/usr\/local\/[^_]*\)_$/\1/p' | sort)
	make -s install DESTDIR="$T/root"
	# Every file but the binary, the man page and the completions, which their own names find.
	installed=$(cd "$T/root" && find usr/local -type f | sed 's|^|/|' |
		grep -v '^/usr/local/\(bin\|share/man\|share/bash-completion\|share/zsh\|share/fish\)/' | sort)
	[ "$(echo "$installed" | wc -l)" -ge 3 ]
	[ "$files" = "$installed" ]
	bugs=$(sed -n '/^# BUGS/,/^# SEE ALSO/p' watchq.1.scd)
	[[ "$bugs" == *"watchq --version"* ]]
	[ "$(echo "$bugs" | grep -c '^- ')" -ge 5 ]
	see=$(sed -n '/^# SEE ALSO/,/^# AUTHORS/p' watchq.1.scd)
	for ref in 'journalctl*(1)' 'jq*(1)' 'lsns*(8)' 'systemd.exec*(5)' 'mountsnoop*(8)' 'findmnt*(8)'; do
		[[ "$see" == *"*$ref"* ]] || { echo "SEE ALSO lacks $ref"; false; }
	done
}

@test "the man pages: each names the others in SEE ALSO; each section a page points to is there" {
	pages="watchq.1 watchq-records.5 watchq-backends.7"
	for page in $pages; do
		see=$(man_section "$ROOT/$page.scd" 'SEE ALSO')
		for other in $pages; do
			[ "$other" = "$page" ] && continue
			ref="*${other%.*}*(${other##*.})"
			[[ "$see" == *"$ref"* ]] || { echo "$page: SEE ALSO lacks $ref"; false; }
		done
	done
	# A page named anywhere is one of them.
	for ref in $(cat "$ROOT"/*.scd | grep -o '\*watchq[a-z-]*\*([0-9])' | tr -d '*)' | sort -u); do
		[ -s "$ROOT/${ref%(*}.${ref#*(}.scd" ] || { echo "no page $ref"; false; }
	done
	# "see FORMAT", "(see JOURNAL in *watchq-records*(5))", "NOTIFY_SOCKET under ENVIRONMENT":
	# the section is in that page (in this one when none is named).
	run python3 - "$MAN1" "$MAN5" "$MAN7" <<'PY'
import os, re, sys
pages = {}
for f in sys.argv[1:]:
    text = open(f).read()
    heads = {m.group(1) for m in re.finditer(r'^#{1,2} (.+)$', text, re.M)}
    pages[os.path.basename(f)[:-len('.scd')]] = (re.sub(r'\s+', ' ', text), heads)
refs = bad = 0
for name, (text, _) in sorted(pages.items()):
    for m in re.finditer(r'(?:\bsee |\bunder |\()((?:[A-Z]{4,}|[A-Z]{3}(?= [A-Z]))(?: [A-Z]{3,})*)'
                         r'(?: in \*(watchq[a-z-]*)\*\(([0-9])\)|(?=[).,;:]| under ))', text):
        sec, page, num = m.groups()
        target = page + '.' + num if page else name
        refs += 1
        if target not in pages or sec not in pages[target][1]:
            print(name + ': "' + m.group(0) + '": no section ' + sec + ' in ' + target)
            bad += 1
if refs < 40:
    print('only %d references found: the pattern no longer finds them' % refs)
    bad += 1
sys.exit(bad > 0)
PY
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "every command of README.md and examples/README.md runs as written" {
	need_root
	command -v keyctl >/dev/null || skip "keyutils not installed"
	# Its paths are made in a mount namespace of their own, over tmpfs.
	sh_blocks() { awk '/^```sh$/ { on = 1; next } /^```/ { on = 0 } on' "$@"; }
	[ "$(sh_blocks "$ROOT/README.md" | wc -l)" -eq 5 ]
	sh_blocks "$ROOT/README.md" "$ROOT/examples/README.md" >"$T/cmds"
	grep -ho '^ExecStartPre=[^ ]* .*' "$ROOT/README.md" "$ROOT/examples/README.md" |
		sed 's/^ExecStartPre=[^ ]*watchq/watchq/' >>"$T/cmds"
	[ "$(wc -l <"$T/cmds")" -ge 30 ]
	PATH=$ROOT:$PATH unshare -m --propagation private keyctl session - bash -c '
		for d in /srv /mnt /media; do mount -t tmpfs readme "$d"; done
		mkdir /mnt/backup /media/usb /mnt/ro
		# A read-only nosuid mount for list -O to find (list exits 1 when it finds none).
		mount -t tmpfs -o ro,nosuid readme /mnt/ro
		while IFS= read -r cmd; do
			status=0
			timeout 2 bash -c "$cmd" >/dev/null 2>"$1.err" || status=$?
			case $status in
			0 | 2 | 124) ;;
			*) echo "exit $status: $cmd"; cat "$1.err"; exit 1 ;;
			esac
		done' _ "$T/run" <"$T/cmds"
}

@test "examples/wait-for-mount: met, and timed out" {
	need_root
	mkdir "$T/a"
	(sleep 0.5; mount -t tmpfs wq "$T/a") &
	PATH=$ROOT:$PATH run "$ROOT/examples/wait-for-mount" "$T/a" 10
	wait
	[ "$status" -eq 0 ]
	[ "$output" = "$T/a is mounted" ]
	mkdir "$T/b"
	PATH=$ROOT:$PATH run --separate-stderr "$ROOT/examples/wait-for-mount" "$T/b" 0.3
	[ "$status" -eq 2 ]
	[ "$stderr" = "$T/b: not mounted within 0.3 s" ]
}

@test "examples/unmount-log: the next unmount as TSV" {
	need_root
	command -v jq >/dev/null || skip "jq not installed"
	mkdir "$T/a"
	PATH=$ROOT:$PATH "$ROOT/examples/unmount-log" "$T" 1 >"$T/tsv" &
	pid=$!
	# It is quiet: mount and unmount until it has seen one.
	until [ -s "$T/tsv" ] || ! kill -0 $pid 2>/dev/null; do
		mount -t tmpfs wqdev "$T/a"
		umount "$T/a"
		sleep 0.1
	done
	wait $pid
	IFS=$'\t' read -r time path dev <"$T/tsv"
	[[ "$time" == 20*Z ]]
	[ "$path" = "$T/a" ]
	[ "$dev" = wqdev ]
}

@test "examples/fs-health: low space, then the filesystem gone (exit 3); watchq's failure is its status" {
	need_root
	command -v jq >/dev/null || skip "jq not installed"
	mkdir "$T/small"
	mount -t tmpfs -o size=2M wq "$T/small"
	fallocate -l 1900K "$T/small/a"
	PATH=$ROOT:$PATH "$ROOT/examples/fs-health" "$T/small" 20 >"$T/health" &
	pid=$!
	wait_until grep -q '^LOWSPACE' "$T/health"
	umount "$T/small"
	status=0
	wait $pid || status=$?
	[ "$status" -eq 3 ]
	[ "$(sed -n 1p "$T/health")" = "LOWSPACE $T/small: $(( 2097152 - 1900 * 1024 )) bytes left" ]
	[ "$(sed -n 2p "$T/health")" = "GONE $T/small" ]
	PATH=$ROOT:$PATH run "$ROOT/examples/fs-health" "$T/nonexistent"
	[ "$status" -eq 64 ]
}

@test "inotifywait does not report a mount on a watched directory (bench/README.md's comparison)" {
	need_root
	command -v inotifywait >/dev/null || skip "inotify-tools not installed"
	mkdir -p "$T/a/b"
	inotifywait -m -r "$T/a" >"$T/ino" 2>"$T/ino.err" &
	pid=$!
	wait_until grep -q 'Watches established' "$T/ino.err"
	mount -t tmpfs wq "$T/a/b"
	umount "$T/a/b"
	touch "$T/a/sentinel"
	wait_until grep -q sentinel "$T/ino"
	kill $pid
	wait $pid || true
	run ! grep -v sentinel "$T/ino"
}

@test "the suite asserts nothing with a bare ! (bats fails no test on it: run ! or [ ])" {
	run grep -nE '^[[:space:]]*! ' "$ROOT"/tests/*.bats "$ROOT"/tests/helper.bash
	[ "$status" -eq 1 ] || { echo "$output"; false; }
}

@test "--target completes after list only, in all three shells" {
	for sh in bash zsh fish; do
		command -v "$sh" >/dev/null || continue
		[ "$sh" = bash ] && [ ! -r /usr/share/bash-completion/bash_completion ] && continue
		run complete_line_$sh 'watchq list --tar'
		[ "$output" = --target ] || { echo "$sh: $output"; false; }
		run complete_line_$sh 'watchq --tar'
		[ -z "$output" ] || { echo "$sh offers: $output"; false; }
	done
}

@test "README: the table of what each kernel gets is watchq-backends(7)'s" {
	# The rows of the README's table, cells joined by |, without markup.
	readme=$(sed -n '/^| kernel | events | who made a change | cost per change |$/,/^$/p' "$ROOT/README.md" |
		sed '1,2d; /^$/d; s/^| //; s/ |$//; s/ | /|/g; s/`//g')
	man=$(sed -n '/^|\[ \*kernel\*$/,/^$/p' "$MAN7" | sed '/^$/d' | tr -d '*_' |
		awk '/^\|/ && NR > 1 { print row; row = "" } /^[|:]/ { sub(/^[|:][[<]? +/, ""); row = row (row == "" ? "" : "|") $0 }
			END { print row }' | sed 1d)
	[ "$(echo "$readme" | wc -l)" -ge 3 ]
	[ "$readme" = "$man" ] || { diff <(echo "$readme") <(echo "$man"); false; }
}

@test "README: the staged unit's systemd-analyze verify runs as written, and fails on a broken unit" {
	need_root
	command -v systemd-analyze >/dev/null || skip "systemd-analyze not installed"
	cd "$ROOT"
	[ -w . ] || skip "source tree is read-only here"
	# The block of the README that runs it, with the stage in this test's directory.
	awk '/^```/ { if (on && found) exit; on = !on; body = ""; next }
		on { body = body $0 "\n"; if (/systemd-analyze verify/) found = 1 }
		END { printf "%s", body }' README.md | sed "s|/tmp/stage|$T/stage|g" >"$T/verify"
	grep -q '^make install DESTDIR=' "$T/verify"
	grep -v '^make install' "$T/verify" >"$T/verify-only"
	run bash -e "$T/verify"
	[ "$status" -eq 0 ]
	run bash -e "$T/verify-only"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	unit=$T/stage/usr/local/lib/systemd/system/watchq-mounts.service
	# A directive it cannot parse: said, though verify exits 0.
	sed -i 's/^Type=notify$/Type=notfy/' "$unit"
	run bash -e "$T/verify-only"
	[[ "$output" == *notfy* ]]
	# A binary that is not there: exit 1.
	sed -i 's/^Type=notfy$/Type=notify/; s|^ExecStart=/usr/local/bin/watchq |ExecStart=/usr/local/bin/watchq-gone |' "$unit"
	run bash -e "$T/verify-only"
	[ "$status" -ne 0 ]
	[[ "$output" == *watchq-gone* ]]
}
