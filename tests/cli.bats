#!/usr/bin/env bats
# Command line: help, version, and every bad-input case with its exit status.
load helper

@test "--help and -h print the synopsis and exit 0" {
	run --separate-stderr "$WATCHQ" --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"SOURCE [TARGET...]"* ]]
	[[ "$output" == *"wait CONDITION..."* ]]
	run --separate-stderr "$WATCHQ" -h
	[ "$status" -eq 0 ]
	[[ "$output" == *"--timeout=SECONDS"* ]]
}

@test "--usage prints a short usage and exits 0" {
	run --separate-stderr "$WATCHQ" --usage
	[ "$status" -eq 0 ]
	[[ "$output" == Usage:* ]]
	[[ "$output" == *"[--json]"* ]]
}

@test "-V and --version print the version" {
	run --separate-stderr "$WATCHQ" -V
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" =~ ^watchq\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
	run --separate-stderr "$WATCHQ" --version
	[[ "${lines[0]}" =~ ^watchq\ [0-9] ]]
}

# version_says OUTPUT WHAT: yes or no, as the --version line for WHAT says.
version_says() {
	local line
	line=$(grep "^$2: " <<<"$1") || { echo "no line for $2"; return 1; }
	[[ "$line" =~ ^"$2: "(yes|no\ \(.+\))$ ]] || { echo "bad line: $line"; return 1; }
	echo "${line#"$2: "}" | cut -d' ' -f1
}

@test "--version: the schema's version, and whether each backend and kernel feature works here" {
	run --separate-stderr "$WATCHQ" --version
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	ver=$output
	[ "${lines[1]}" = "schema $(jq -r .version "$BATS_TEST_DIRNAME/../watchq.schema.json")" ]
	for f in statmount fanotify-fs-error quota-netlink bpf-capture ns-walk; do
		version_says "$ver" "kernel $f" >/dev/null
	done
	[ "$(version_says "$ver" "backend mounts mountinfo")" = yes ]
	[ "$(version_says "$ver" "backend keys poll")" = yes ]
	# Each backend line says what a run forced onto that backend finds (exit 2 at -t 0, or 69).
	for be in "mounts fanotify" "keys watch-queue"; do
		run --separate-stderr "$WATCHQ" -qq -t 0 --backend="${be#* }" "${be% *}"
		[ "$status" -eq 2 ] && want=yes || want=no
		[ "$status" -eq 2 ] || [ "$status" -eq 69 ]
		[ "$(version_says "$ver" "backend $be")" = "$want" ] || { echo "$be: $status"; false; }
	done
	# Probes only: nothing is mounted, no key or file is made, changed or opened for writing.
	if command -v strace >/dev/null; then
		# LeakSanitizer cannot run under ptrace (make asan).
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		    strace -f -qq -o "$T/trace" -e trace=mount,umount2,move_mount,mount_setattr,add_key,keyctl,request_key,mkdir,mkdirat,unlink,unlinkat,rename,renameat2,creat,openat,open \
			"$BATS_TEST_DIRNAME/../watchq" --version >/dev/null
		# The capture's probe learns watchq's own root from a umount2("") that fails.
		sed -i '/umount2("", 0) *= -1 ENOENT/d' "$T/trace"
		run grep -E '^[0-9]+ +(mount|umount2|move_mount|mount_setattr|add_key|request_key|mkdir|mkdirat|unlink|unlinkat|rename|renameat2|creat)\(|open(at)?\(.*(O_WRONLY|O_RDWR|O_CREAT)|keyctl\((KEYCTL_[^C]|[0-9])' "$T/trace"
		[ "$status" -eq 1 ] || { echo "$output"; false; }
	fi
	# Without privileges, fanotify's mount events are not to be had, and the line says why.
	[ "$(id -u)" -eq 0 ] || skip "needs root to drop privileges"
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups "$WATCHQ" --version
	[ "$status" -eq 0 ]
	[[ "$output" == *"backend mounts fanotify: no (fanotify mount events need Linux 6.15 and CAP_SYS_ADMIN"* ]]
	[[ "$output" == *"kernel bpf-capture: no ("?*")"* ]]
	if kernel_at_least 6 12; then
		[ "$(version_says "$ver" "kernel ns-walk")" = yes ]
		[[ "$output" == *"kernel ns-walk: no (NS_MNT_GET_NEXT needs CAP_SYS_ADMIN: Operation not permitted; -N all finds namespaces in /proc)"* ]]
	fi
}

# usage_error TEXT ARGS...: watchq exits 64 with one stderr line, containing TEXT, naming the problem.
usage_error() {
	local pattern=$1
	shift
	run --separate-stderr "$WATCHQ" "$@"
	[ "$status" -eq 64 ] || { echo "status $status for $*: $stderr"; return 1; }
	[ -z "$output" ]
	[[ "$stderr" == *"$pattern"* ]] || { echo "stderr: $stderr"; return 1; }
	[[ "${stderr_lines[0]}" == watchq:* ]]
	[ "${#stderr_lines[@]}" -eq 1 ] || { echo "more than one line: $stderr"; return 1; }
}

@test "no SOURCE is a usage error" {
	usage_error "no SOURCE"
}

@test "an unknown source is a usage error" {
	usage_error "unknown source 'files'" files /
}

@test "an unknown option is a usage error" {
	usage_error "unknown option '--frobnicate' (see watchq --help)" --frobnicate mounts /
	usage_error "unknown option '-z'" -qz mounts /
	usage_error "option '--timeout' needs SECONDS" mounts / --timeout
	usage_error "option '--json' takes no argument" --json=yes mounts /
	usage_error "unknown option '--ke'; did you mean --key, --keyctl, --keyring?" wait --ke user:a
}

@test "findmnt's and inotifywait's options point to the watchq way, on one line, exit 64" {
	usage_error "watchq: -J is findmnt's --json: here -j, --json, one object a line" -J mounts /
	usage_error "watchq: -l is findmnt's --list: watchq prints one record a line already; list SOURCE gives the present state, --format '%p %d %f %O' findmnt's columns" \
		list -l mounts
	usage_error "-l is findmnt's --list" -lJ list mounts
	usage_error "-J is findmnt's --json" -qJ list mounts
	usage_error "watchq: -r is findmnt's --raw or inotifywait's --recursive: watchq's text is one record a line, escaped as findmnt -r escapes (\x20); mounts DIR reports every mount at or below DIR already; keys: --recursive" \
		-r mounts /
	usage_error "--raw is findmnt's: watchq's text is one record a line already" list --raw mounts
	usage_error "--noheadings is findmnt's -n: watchq prints no headings" --noheadings list mounts
	usage_error "-D is findmnt's --df: watchq list sb PATH gives" -D
	usage_error "--df is findmnt's: watchq list sb PATH gives" --df
	usage_error "--tree is findmnt's: watchq lists mounts one a line, in mount order" --tree list mounts
	usage_error "--list is findmnt's: watchq prints one record a line" --list mounts /
	usage_error "--poll is findmnt's: watching for changes is what watchq does" --poll mounts /
	usage_error "-c is inotifywait's --csv: watchq writes no CSV" -c mounts /
	usage_error "--csv is inotifywait's: watchq writes no CSV" --csv mounts /
	usage_error "-d is inotifywait's --daemon: watchq stays in the foreground" -d -o "$T/o" mounts /
	usage_error "--daemon is inotifywait's" --daemon mounts /
	usage_error "watchq: --fromfile is inotifywait's: give the TARGETs as arguments, as xargs -d '\n' -a FILE watchq mounts does" \
		--fromfile "$T/list" mounts
	usage_error "--outfile is inotifywait's: here -o, --output=FILE" --outfile "$T/o" mounts /
	[ ! -e "$T/o" ]
	# inotifywait's file events, with the nearest watchq has.
	usage_error "watchq: -e create: inotifywait's file event; a new mount is mount here" -e create mounts /
	usage_error "-e modify: inotifywait's file event; a mount's options changing is remount" \
		-e mount,modify mounts /
	usage_error "-E DELETE: inotifywait's file event; a mount going away is unmount" -E DELETE mounts /
	usage_error "-e close_write: inotifywait's file event; watchq sees no file written" \
		wait -e close_write mounts /
	# findmnt -n before a SOURCE or a path: no headings meant, not a count.
	usage_error "watchq: --count: 'mounts' is not a positive whole number: -n is --count=N here; watchq prints no headings to leave out, as findmnt -n does" \
		-n mounts /
	usage_error "--count: '/srv' is not a positive whole number: -n is --count=N here" -n /srv mounts
}

@test "--format '%w%f', inotifywait's path of a file, is taken and said once on stderr; not with -q" {
	run --separate-stderr "$WATCHQ" list --format '%w%f' mounts /proc
	[ "$status" -eq 0 ] && [ "$output" = "/procproc" ]
	[ "$stderr" = "watchq: --format: %w%f is inotifywait's path of a file; here %w is the watch as given and %f the filesystem type, the path is %p" ]
	run --separate-stderr "$WATCHQ" -q list --format '%#w%#f' mounts /proc
	[ "$status" -eq 0 ] && [ -z "$stderr" ]
	run --separate-stderr "$WATCHQ" list --format '%w %f' mounts /proc
	[ "$status" -eq 0 ] && [ -z "$stderr" ]
}

@test "an unknown source word gets the nearest; a path, where a path goes" {
	usage_error "watchq: unknown source 'key' (mounts, keys, sb); did you mean keys?" key @s
	usage_error "watchq: unknown source 'mount' (mounts, keys, sb); did you mean mounts?" -e mount mount /
	usage_error "unknown source 'lst' (mounts, keys, sb); did you mean list?" lst mounts
	usage_error "unknown source 'sbs' (mounts, keys, sb); did you mean sb?" list sbs /
	usage_error "watchq: unknown source '/srv' (mounts, keys, sb): a DIR follows its SOURCE, as in watchq list mounts /srv" \
		list /srv
	usage_error "a DIR follows its SOURCE, as in watchq list --target mounts /srv" list --target /srv
	usage_error "watchq: unknown source '/srv' (mounts, keys, sb): a DIR follows its SOURCE; -T is --timestamps here, and findmnt -T's mount that holds a DIR is watchq list --target mounts /srv" \
		list -T /srv
	usage_error "a DIR follows its SOURCE, as in watchq mounts /srv" /srv
	usage_error "watchq: unknown source 'files' (mounts, keys, sb)" files /
}

@test "long options are taken whole: an abbreviation is refused, with the options it could mean" {
	usage_error "unknown option '--init'; did you mean --initial?" --init list mounts /
	usage_error "unknown option '--excl'; did you mean --exclude" --excl mount -t 0 mounts /
	usage_error "unknown option '--exclude-ev=mount'; did you mean --exclude-event" \
		--exclude-ev=mount -t 0 mounts /
	usage_error "unknown option '--intial'; did you mean --initial?" --intial list mounts /
	usage_error "unknown option '--jsn'; did you mean --json?" -t 0 mounts / --jsn
	# An option's argument, separate or clustered, and the words after -- are not options.
	run --separate-stderr "$WATCHQ" list --format --init mounts /
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "--init" ]
	run --separate-stderr "$WATCHQ" -qo "$T/--init" -t 0 mounts /
	[ "$status" -eq 2 ]
	usage_error "watchq: --init: No such file or directory" list mounts -- --init
}

@test "an unknown event name is a usage error, with the nearest names" {
	usage_error "watchq: -e unmounted: unknown event; did you mean unmount" -e unmounted mounts /
	usage_error "watchq: -E bogus: unknown event (see watchq(1), EVENTS)" -E bogus mounts /
	usage_error "watchq: -e umnt: unknown event; did you mean umount, unmount?" -e umnt mounts /
	usage_error "watchq: -E revokd: unknown event; did you mean revoke, revoked?" -E revokd keys
	usage_error "watchq: -e unmont: unknown event; did you mean unmount" wait -e unmont mounts /
	usage_error "-e moveto: unknown event; did you mean move_to" -e move,moveto mounts /
}

@test "keyctl watch's event names are aliases of key events, its gc of removal" {
	# -e ALIAS -E NAME leaves no key event exactly when ALIAS selects NAME's events.
	for pair in inst:instantiated update:updated upd:updated link:linked unlink:unlinked \
		unlk:unlinked clr:cleared revoke:revoked rev:revoked inval:invalidated inv:invalidated \
		attr:setattr REV:revoked; do
		usage_error "-E excludes every event" -e "${pair%%:*}" -E "${pair#*:}" keys
	done
	usage_error "event 'revoke' does not apply to the sources watched" -e revoke mounts /
	usage_error "event 'gc' is always delivered and cannot be excluded" -E gc mounts /
}

@test "-o with findmnt's column names that name no file is refused, with the options that give columns" {
	cd "$T"
	usage_error "watchq: -o TARGET,SOURCE: no such FILE, and it reads as findmnt's columns: -o is the file events go to; --format or --json choose the fields (-o ./TARGET,SOURCE makes the file)" \
		-o TARGET,SOURCE -t 0 mounts /
	[ ! -e "$T/TARGET,SOURCE" ]
	usage_error "findmnt's columns" -o target,fstype,options -t 0 mounts /
	usage_error "findmnt's columns" -o +PROPAGATION -t 0 mounts /
	usage_error "findmnt's columns" -o SIZE,USE%,MAJ:MIN -t 0 mounts /
	# ./ before it, a file of that name that exists, or a name that is no column: a file.
	run --separate-stderr "$WATCHQ" -q -o ./TARGET,SOURCE -t 0 mounts /
	[ "$status" -eq 2 ]
	[ -f "$T/TARGET,SOURCE" ]
	run --separate-stderr "$WATCHQ" -q -o TARGET,SOURCE -t 0 mounts /
	[ "$status" -eq 2 ]
	run --separate-stderr "$WATCHQ" -q -o TARGET,NOSUCH -t 0 mounts /
	[ "$status" -eq 2 ]
	[ -f "$T/TARGET,NOSUCH" ]
}

# help_of ARGS...: watchq ARGS --help on one line, its spaces squeezed (argp wraps at 79 columns).
help_of() {
	"$WATCHQ" "$@" --help | tr -s ' \n' '  '
}

@test "SOURCE --help, wait --help and list --help print what applies there; --help all of it" {
	full=$(help_of)
	for opt in --fstype --recursive --space-below --mount=PATH --keyring --initial --queue-size; do
		[[ "$full" == *" $opt"* ]] || { echo "--help lacks $opt"; false; }
	done
	[[ "$full" == *"Events of mounts: mount (new_mount), unmount (umount),"* ]]
	[[ "$full" == *"Events of keys: instantiated (inst), updated (update, upd),"* ]]
	out=$(help_of mounts)
	[[ "$out" == *" --fstype"* && "$out" == *" --initial"* && "$out" == *" -N, --ns"* ]]
	[[ "$out" != *"--recursive"* && "$out" != *"--space-below"* && "$out" != *"--mount="* ]]
	[[ "$out" != *"--queue-size"* && "$out" != *"Conditions for wait"* ]]
	[[ "$out" == *"--backend=NAME auto, fanotify, mountinfo "* ]]
	[[ "$out" == *"Events of mounts: mount (new_mount),"* && "$out" != *"Events of keys"* ]]
	[[ "$out" == *"Usage: watchq [OPTION...] SOURCE [TARGET...]"* ]]
	out=$(help_of -o /dev/null keys)
	[[ "$out" == *" --recursive"* && "$out" == *" --queue-size"* && "$out" != *"--fstype"* ]]
	[[ "$out" == *"--backend=NAME auto, watch-queue, poll "* ]]
	[[ "$out" == *"revoked (revoke, rev)"* && "$out" != *"Events of mounts"* ]]
	out=$(help_of sb)
	[[ "$out" == *" --space-below"* && "$out" == *" --interval"* && "$out" != *"--recursive"* ]]
	[[ "$out" != *"--backend"* && "$out" != *"--queue-size"* ]]
	out=$(help_of wait)
	[[ "$out" == *"Usage: watchq [OPTION...] wait CONDITION... [SOURCE [TARGET...]] "* ]]
	[[ "$out" == *" --mount=PATH"* && "$out" == *" --keyring"* && "$out" == *" -e, --event"* ]]
	[[ "$out" != *"--initial First"* && "$out" != *"--monitor"* ]]
	out=$(help_of list)
	[[ "$out" == *"Usage: watchq [OPTION...] list SOURCE"* && "$out" == *" --fstype"* ]]
	[[ "$out" != *"-t, --timeout"* && "$out" != *"-e, --event"* && "$out" != *"-n, --count"* ]]
	[[ "$out" != *"Events of"* && "$out" != *"--mount="* ]]
	[ "${#out}" -lt "${#full}" ]
	# --usage too: list's options, and its line.
	out=$("$WATCHQ" list --usage | tr -s ' \n' '  ')
	[[ "$out" == *"[--fstype=LIST]"* && "$out" != *"--timeout"* && "$out" != *"wait CONDITION"* ]]
	[[ "$out" == *" list SOURCE [TARGET...]"* ]]
}

# options_of ARGS...: the long options watchq ARGS --help lists as options, one a line.
options_of() {
	"$WATCHQ" "$@" --help | grep -E '^ +(-., )?--' | grep -o -- '--[a-z-]*' | sort -u
}

@test "scoped --help is exact: what it lists applies there, what it leaves out is refused there" {
	# What a source does not use.
	[[ "$(options_of keys)" != *--no-bpf* ]]
	[[ "$(options_of mounts)" == *--no-bpf* && "$(options_of sb)" == *--no-bpf* ]]
	usage_error "watchq: --no-bpf applies to mounts and sb" --no-bpf -t 0 keys
	usage_error "watchq: --queue-size applies to keys" --queue-size 8 -t 0 mounts /
	usage_error "watchq: --interval applies to keys and sb" --interval 1 -t 0 mounts /
	# wait alone: its conditions and what any wait -e takes; a source's own options with it.
	out=$(options_of wait)
	for opt in --recursive --space-below --queue-size --no-bpf --fstype --include --initial; do
		[[ "$out" != *"$opt"* ]] || { echo "wait --help lists $opt"; false; }
	done
	for opt in --event --count --json --ns --interval --keyring --mounted; do
		[[ "$out" == *"$opt"* ]] || { echo "wait --help lacks $opt"; false; }
	done
	[[ "$(help_of wait)" == *"watchq wait SOURCE --help lists them."* ]]
	[[ "$(options_of wait keys)" == *--recursive* && "$(options_of wait keys)" == *--queue-size* ]]
	[[ "$(options_of wait sb)" == *--space-below* && "$(options_of wait sb)" != *--fstype* ]]
	[[ "$(options_of wait mounts)" == *--fstype* && "$(options_of wait mounts)" == *--no-bpf* ]]
	[[ "$(options_of wait sb)" != *--backend* ]]
	# State conditions use none of them: refused.
	usage_error "watchq: --recursive does not apply to state conditions" \
		--recursive -t 0 wait --key user:x
	usage_error "watchq: --space-below does not apply to state conditions" \
		--space-below 1% -t 0 wait --readonly /
	usage_error "watchq: --queue-size does not apply to state conditions" \
		--queue-size 8 -t 0 wait --no-key user:x
	usage_error "watchq: --no-bpf does not apply to state conditions" --no-bpf -t 0 wait --unmount /
	usage_error "watchq: --exclude-event does not apply to state conditions" \
		-E mount -t 0 wait --unmount /
	# wait -e takes them, for its source.
	run --separate-stderr "$WATCHQ" -q -t 0 --space-below 1E wait -e lowspace sb /
	[ "$status" -eq 0 ]
	run --separate-stderr "$WATCHQ" -q -t 0 --recursive --queue-size 8 wait -e linked keys
	[ "$status" -eq 2 ]
	# list: a listing, of that source.
	for opt in --no-bpf --queue-size --interval --initial --monitor --timeout; do
		[[ "$(options_of list)" != *"$opt"* ]] || { echo "list --help lists $opt"; false; }
	done
	[[ "$(options_of list keys)" == *--recursive* && "$(options_of list keys)" != *--fstype* ]]
	usage_error "watchq: --no-bpf does not apply to list" --no-bpf list mounts /
	usage_error "watchq: --initial does not apply to list" --initial list mounts /
	usage_error "watchq: --interval does not apply to list" --interval 1 list keys
}

@test "every option is in some scoped --help: none without a row in the scope table" {
	all=$(options_of)
	some=$(for a in mounts keys sb wait "wait mounts" "wait keys" "wait sb" list; do
		# shellcheck disable=SC2086
		options_of $a
	done | sort -u)
	[ "$all" = "$some" ] || { diff <(echo "$all") <(echo "$some"); false; }
}

@test "--target goes with list mounts: elsewhere a usage error that says where it goes" {
	usage_error "watchq: --target goes with list: watchq list --target mounts DIR prints the mount that holds DIR, as findmnt -T" \
		--target mounts /
	usage_error "--target goes with list" wait --target -e mount mounts /
	usage_error "--target goes with list" wait --target --mount /
	usage_error "watchq: --target applies to mounts (sb PATH names the filesystem that holds PATH already)" \
		list --target sb /
	usage_error "--target applies to mounts" list --target keys
	usage_error "option '--target' takes no argument" list --target=/srv mounts
	run --separate-stderr "$WATCHQ" -q -o "$T/o" --target mounts /
	[ "$status" -eq 64 ] && [ ! -e "$T/o" ]
}

@test "an event of another source is a usage error" {
	usage_error "event 'linked' does not apply" -e linked mounts /
}

@test "meta events cannot be excluded" {
	usage_error "always delivered" -E loss mounts /
}

@test "excluding every event is a usage error" {
	usage_error "excludes every event" -E mount,unmount,move,readonly,writable,setattr,propagation,transient mounts /
}

@test "a PATH that does not exist is a usage error" {
	usage_error "No such file or directory" mounts "$T/nope"
}

@test "a PATH that is not a directory is a usage error" {
	touch "$T/file"
	usage_error "not a directory" mounts "$T/file"
}

@test "bad --timeout values are usage errors" {
	usage_error "--timeout: 'abc'" -t abc mounts /
	usage_error "--timeout: '-1'" -t -1 mounts /
	usage_error "--timeout: '1s'" --timeout=1s mounts /
	usage_error "--timeout: ''" --timeout= mounts /
	usage_error "--timeout: 'nan'" -t nan mounts /
}

@test "bad --count values are usage errors" {
	usage_error "--count: '0'" -n 0 mounts /
	usage_error "--count: 'x'" -n x mounts /
	usage_error "--count: '-3'" --count=-3 mounts /
	usage_error "--count: '99999999999999999999'" -n 99999999999999999999 mounts /
}

@test "bad --interval, --queue-size and --backend values are usage errors" {
	usage_error "--interval" --interval 0 mounts /
	usage_error "--queue-size" --queue-size 513 mounts /
	usage_error "--queue-size" --queue-size 0 mounts /
	usage_error "unknown backend 'inotify'" --backend inotify mounts /
	usage_error "does not serve mounts" --backend watch-queue mounts /
	usage_error "does not serve mounts" --backend poll mounts /
}

@test "conflicting options are usage errors" {
	usage_error "--json and --format" --json --format %e mounts /
	usage_error "--json and --format" --format %e -j mounts /
	usage_error "wait and --initial" wait --initial --mount /
	usage_error "wait -e cannot be combined" wait -e unmount --unmount /
	usage_error "needs a condition" wait
	usage_error "take no SOURCE" wait --mount / mounts /
	usage_error "needs a SOURCE" wait -e unmount
	usage_error "--mount is a wait condition" --mount / mounts /
	usage_error "state conditions do not use them" wait --fstype tmpfs --mount /
	usage_error "state conditions do not use them" wait --source /dev/sda1 --unmount /
}

@test "a bad --format escape is a usage error" {
	usage_error "unknown escape" --format '%e %q' mounts /
	usage_error "unknown escape" --format 'trailing %' mounts /
}

@test "an empty event list and an empty --fstype are usage errors" {
	usage_error "empty event list" -e '' mounts /
	usage_error "empty list" --fstype , mounts /
}

@test "an empty path is a usage error that names what is empty" {
	usage_error "an empty path names nothing" mounts ''
	usage_error "an empty path names nothing" sb ''
	usage_error "--mount: an empty PATH names nothing" wait --mount ''
	usage_error "--unmount: an empty PATH names nothing" wait --unmount ''
	usage_error "--readonly: an empty PATH names nothing" wait --readonly ''
	usage_error "--output: an empty FILE names nothing" -o '' mounts /
}

@test "more than 256 watches is a usage error" {
	local args=() i
	for i in $(seq 257); do args+=(/); done
	usage_error "too many watches" mounts "${args[@]}"
}

@test "-e loss alone is allowed (only losses reported); -E of everything is not" {
	run --separate-stderr "$WATCHQ" -q -t 0 -e loss mounts /
	[ "$status" -eq 2 ]
	run --separate-stderr "$WATCHQ" -E mount,unmount,move,readonly,writable,setattr,propagation,transient mounts /
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: -E excludes every event of the sources watched" ]
}

@test "an --output file that cannot be opened is a runtime error (exit 1)" {
	run --separate-stderr "$WATCHQ" -o "$T/no/such/dir/file" mounts /
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"$T/no/such/dir/file: No such file or directory"* ]]
}

@test "options that do not apply are usage errors" {
	usage_error "event 'present' comes only with --initial" -e present mounts /
	usage_error "--fstype applies to mounts" --fstype ext4 keys
	usage_error "--source applies to mounts" --source /dev/sda sb /
	usage_error "--backend=poll does not serve sb" --backend=poll sb /
	usage_error "--backend=fanotify does not serve keys" --backend=fanotify keys
	usage_error "-T applies to text output" -T --json mounts /
	usage_error "-T applies to text output" -T --format %e mounts /
	usage_error "--timefmt applies to -T and to %T in --format" --timefmt %s --json mounts /
	usage_error "--timefmt applies to -T and to %T in --format" --timefmt %s --format %e mounts /
	usage_error "--timefmt applies to -T and to %T in --format" --timefmt %s mounts /
	usage_error "-e: empty event list" -e , mounts /
	usage_error "-E: empty event list" -E ,, mounts /
}

@test "--key and --no-key read the --keyring, which must be a keyring" {
	command -v keyctl >/dev/null || skip "keyctl not installed"
	run --separate-stderr keyctl session - bash -c '
		k=$(keyctl add user wq-plain x @s)
		"$1" wait --key user:a --keyring "$k" 2>&1; echo "status $?"
		"$1" wait --no-key user:a --keyring %user:wq-plain 2>&1; echo "status $?"' _ "$WATCHQ"
	[[ "${lines[0]}" == "watchq: --keyring "*": not a keyring" ]]
	[ "${lines[1]}" = "status 64" ]
	[ "${lines[2]}" = "watchq: --keyring %user:wq-plain: not a keyring" ]
	[ "${lines[3]}" = "status 64" ]
}

@test "a --key after a --writable reads the same keyring as the first" {
	command -v keyctl >/dev/null || skip "keyctl not installed"
	run --separate-stderr keyctl session - bash -c '
		r=$(keyctl newring wq-ring @s)
		keyctl add user a 1 "$r" >/dev/null
		keyctl add user c 1 "$r" >/dev/null
		"$1" -q -t 5 wait --key user:a --writable "$2" --key user:c --keyring "$r"; echo "key $?"
		"$1" -q -t 0.2 wait --no-key user:x --writable "$2" --no-key user:c --keyring "$r"; echo "no-key $?"' _ "$WATCHQ" "$T"
	[ "${lines[0]}" = "key 0" ]
	[ "${lines[1]}" = "no-key 2" ]
}

@test "error messages escape what they echo: no forged line" {
	usage_error 'nope\x0awatchq:\x20forged: No such file' mounts "$T/nope"$'\n''watchq: forged'
	usage_error "unknown source 'a\\xc2\\x9b2J'" $'a\xc2\x9b2J'
	usage_error "-e \\xe2\\x80\\xaemount: unknown event" -e $'\xe2\x80\xaemount' mounts /
	usage_error "unknown option '--a\\x0awatchq:\\x20x'" $'--a\nwatchq: x' mounts /
	run --separate-stderr "$WATCHQ" -o "$T/no/dir"$'\n''watchq: x' mounts /
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *'dir\x0awatchq:\x20x: No such file or directory' ]]
}

@test "text output escapes C1 and bidi controls; JSON keeps the exact bytes" {
	need_root
	local csi=$'\xc2\x9b' rlo=$'\xe2\x80\xae'
	mkdir "$T/a${csi}2J" "$T/b${rlo}x"
	start_watchq -n 2 mounts "$T"
	mount -t tmpfs wq-a "$T/a${csi}2J"
	mount -t tmpfs wq-b "$T/b${rlo}x"
	wait "$WQ_PID"
	[ "$(unmarked | sed -n 1p)" = "mount mount $T/a\\xc2\\x9b2J tmpfs wq-a" ]
	[ "$(unmarked | sed -n 2p)" = "mount mount $T/b\\xe2\\x80\\xaex tmpfs wq-b" ]
	run --separate-stderr "$WATCHQ" -q -t 0.1 --initial -j -e present mounts "$T"
	[ "$(printf '%s\n' "$output" | jq -r .path | sort | sed -n 2p)" = "$T/a${csi}2J" ]
	[ "$(printf '%s\n' "$output" | jq -r .path | sort | sed -n 3p)" = "$T/b${rlo}x" ]
	[[ "$output" == *'\u009b2J'* ]]
	[[ "$output" == *'\u202ex'* ]]
}

@test "a --timefmt longer than 255 bytes is not cut to nothing" {
	need_root
	local long
	long=$(printf 'x%.0s' $(seq 300))
	start_watchq -n 1 -T --timefmt "${long}%Y" mounts "$T"
	mkdir "$T/m"
	mount -t tmpfs wq "$T/m"
	wait "$WQ_PID"
	[[ "$(unmarked)" == "${long}"[0-9][0-9][0-9][0-9]" mount mount $T/m tmpfs wq" ]]
}

@test "%E names the watched source of every source's events" {
	need_root
	run --separate-stderr "$WATCHQ" -q -n 1 --space-below 1E --format '%s|%e|%E|%w' sb "$T"
	[ "$status" -eq 0 ]
	[ "$output" = "sb|lowspace|sb|$T" ]
	mkdir "$T/m"
	start_watchq -n 1 --format '%s|%e|%E|%w' mounts "$T"
	mount -t tmpfs wq "$T/m"
	wait "$WQ_PID"
	[ "$(cat "$T/out")" = "mount|mount|mounts|$T" ]
	command -v keyctl >/dev/null || skip "keyctl not installed"
	run --separate-stderr keyctl session - bash -c '
		"$1" -n 1 --interval 0.05 --format "%s|%e|%E|%w" keys @s 2>"$2/kerr" & p=$!
		until grep -q "^watchq: watching" "$2/kerr"; do sleep 0.05; done
		keyctl add user wq-e x @s >/dev/null
		wait $p' _ "$WATCHQ" "$T"
	[ "$output" = "key|linked|keys|@s" ]
}
