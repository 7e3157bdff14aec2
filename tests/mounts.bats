#!/usr/bin/env bats
# watchq mounts: every event kind from real mounts in a private namespace.
load helper

setup_file() {
	export WATCHQ_BACKEND=${WATCHQ_BACKEND:-auto}
	# Bursts a shell cannot make: the C driver, built once for the file.
	build_burst
}

# sentinel DIR: mount a tmpfs "sentinel" on DIR/sentinel and wait for its line:
# everything the kernel reported before it has been handled.
sentinel() {
	mkdir -p "$1/sentinel"
	mount -t tmpfs sentinel "$1/sentinel"
	wait_until grep -q "sentinel" "$T/out"
}

watch() {
	start_watchq "$@"
}

@test "backend in use is named on the readiness line" {
	need_root
	watch mounts "$T"
	grep -Eq "^watchq: watching mounts $T \(backend (fanotify|mountinfo)(\+bpf:[a-z-]+)?\)$" "$T/err"
	[ "$WATCHQ_BACKEND" = auto ] || [ "$(backend_used)" = "$WATCHQ_BACKEND" ]
	echo "# mount backend: $(backend_used) (asked for $WATCHQ_BACKEND) on $(uname -r)" >&3
}

@test "tmpfs mount and umount" {
	need_root
	mkdir "$T/a"
	watch mounts "$T"
	mount -t tmpfs wq-src "$T/a"
	# Seen before it goes: mountinfo never sees a mount gone by its next read (fanotify: transient).
	wait_until lines_at_least 1
	umount "$T/a"
	wait_until lines_at_least 2
	stop_watchq
	[ "$WQ_STATUS" -eq 0 ]
	[ "$(unmarked | sed -n 1p)" = "mount mount $T/a tmpfs wq-src" ]
	[ "$(unmarked | sed -n 2p)" = "mount unmount $T/a tmpfs wq-src" ]
	[ "$(wc -l <"$T/out")" -eq 2 ]
}

@test "bind mount" {
	need_root
	mkdir "$T/a" "$T/b"
	mount -t tmpfs wq-src "$T/a"
	watch mounts "$T"
	mount --bind "$T/a" "$T/b"
	wait_until lines_at_least 1
	[ "$(unmarked)" = "mount mount $T/b tmpfs wq-src" ]
}

@test "lazy umount of a subtree reports every mount" {
	need_root
	mkdir "$T/a"
	mount -t tmpfs wq-a "$T/a"
	mkdir "$T/a/b"
	mount -t tmpfs wq-b "$T/a/b"
	mkdir "$T/a/b/c"
	mount -t tmpfs wq-c "$T/a/b/c"
	watch mounts "$T"
	umount -l "$T/a"
	wait_until lines_at_least 3
	stop_watchq
	# mountinfo reports deepest first; fanotify in the kernel's order.
	[ "$(unmarked | sort)" = "mount unmount $T/a tmpfs wq-a
mount unmount $T/a/b tmpfs wq-b
mount unmount $T/a/b/c tmpfs wq-c" ]
}

@test "mount --move is one move event" {
	need_root
	mkdir "$T/a" "$T/b"
	mount -t tmpfs wq-src "$T/a"
	watch mounts "$T"
	mount --move "$T/a" "$T/b"
	wait_until lines_at_least 1
	stop_watchq
	[ "$(unmarked)" = "mount move $T/a -> $T/b" ]
}

@test "moves in and out of the watched subtree are move_to and move_from" {
	need_root
	mkdir -p "$T/w" "$T/out1" "$T/w/in"
	mount -t tmpfs wq-m "$T/out1"
	watch mounts "$T/w"
	mount --move "$T/out1" "$T/w/in"
	# Seen before the move back: two moves read at once cancel out (both backends).
	wait_until lines_at_least 1
	mount --move "$T/w/in" "$T/out1"
	wait_until lines_at_least 2
	stop_watchq
	[ "$(unmarked | sed -n 1p)" = "mount move_to $T/out1 -> $T/w/in" ]
	[ "$(unmarked | sed -n 2p)" = "mount move_from $T/w/in -> $T/out1" ]
}

@test "remount ro is a readonly event, remount rw a writable one" {
	need_root
	mkdir "$T/a"
	mount -t tmpfs wq-src "$T/a"
	watch mounts "$T"
	mount -o remount,ro "$T/a"
	wait_until lines_at_least 1
	mount -o remount,rw "$T/a"
	wait_until lines_at_least 2
	stop_watchq
	[ "$(unmarked | sed -n 1p)" = "mount readonly $T/a ro (was rw)" ]
	[ "$(unmarked | sed -n 2p)" = "mount writable $T/a rw (was ro)" ]
}

# mounts_at_least N: $T/out has at least N mount events.
mounts_at_least() {
	[ "$(grep -c '"event":"mount"' "$T/out")" -ge "$1" ]
}

@test "-e readonly does not fire on the way back to rw, -e writable only then" {
	need_root
	mkdir "$T/a"
	mount -t tmpfs wq-src "$T/a"
	watch -e readonly,new_mount mounts "$T"
	mount -o remount,ro "$T/a"
	wait_until lines_at_least 1
	mount -o remount,rw "$T/a"
	# The mount after it is seen only once the remount before it has been read.
	mkdir "$T/b"
	mount -t tmpfs wq "$T/b"
	wait_until lines_at_least 2
	stop_watchq
	[ "$(unmarked)" = "mount readonly $T/a ro (was rw)
mount mount $T/b tmpfs wq" ] || { cat "$T/out"; false; }
	umount "$T/b"
	# A flip undone before watchq reads it shows no change (the man page says so): the mount of
	# $T/b after the ro flip makes that unlikely, and a round that still merged is tried again.
	watch -j -e writable,mount mounts "$T"
	for round in 1 2 3 4 5; do
		mount -o remount,ro "$T/a"
		mount -t tmpfs wq "$T/b"
		wait_until grep -q '"event":"mount".*"path":"'"$T/b"'"' "$T/out"
		mount -o remount,rw "$T/a"
		umount "$T/b"
		mount -t tmpfs wq "$T/b"
		wait_until mounts_at_least $((round * 2))
		umount "$T/b"
		if grep -q '"event":"writable"' "$T/out"; then break; fi
	done
	wait_until grep -q '"event":"writable"' "$T/out"
	stop_watchq
	jq_event writable '.path == "'"$T/a"'" and .readonly == false'
	[ "$(jq -r 'select(.event != "mount") | .event' "$T/out" | sort -u)" = writable ]
}

@test "remount,bind,nosuid is a setattr event with old and new options" {
	need_root
	mkdir "$T/a"
	mount -t tmpfs wq-src "$T/a"
	watch mounts "$T"
	mount -o remount,bind,nosuid "$T/a"
	wait_until lines_at_least 1
	stop_watchq
	line=$(unmarked)
	[[ "$line" == "mount setattr $T/a rw,nosuid,"*" (was rw,"*")" ]]
	[[ "$line" != *"(was rw,nosuid"* ]]
}

@test "a superblock option change is a setattr event" {
	need_root
	mkdir "$T/a"
	mount -t tmpfs -o size=2m wq-src "$T/a"
	watch mounts "$T"
	mount -o remount,size=3m "$T/a"
	wait_until lines_at_least 1
	[[ "$(unmarked)" == "mount setattr $T/a "*"size=3072k"*"(was "*"size=2048k"*")" ]]
}

@test "only mounts at or below the watched directory are reported" {
	need_root
	mkdir -p "$T/w/in" "$T/other"
	watch mounts "$T/w"
	mount -t tmpfs wq-out "$T/other"
	mount -t tmpfs wq-in "$T/w/in"
	wait_until lines_at_least 1
	mount -t tmpfs wq-self "$T/w"
	wait_until lines_at_least 2
	stop_watchq
	[ "$(unmarked | sed -n 1p)" = "mount mount $T/w/in tmpfs wq-in" ]
	[ "$(unmarked | sed -n 2p)" = "mount mount $T/w tmpfs wq-self" ]
	run ! grep -q wq-out "$T/out"
}

@test "several watches each report with their own tag" {
	need_root
	mkdir -p "$T/x/m" "$T/y"
	watch --json mounts "$T/x" "$T/y" "$T"
	mount -t tmpfs wq-src "$T/x/m"
	wait_until lines_at_least 2
	stop_watchq
	[ "$(jq -r '[.tag, .watch] | @tsv' "$T/out" | tr '\t' ' ')" = "0 $T/x
2 $T" ]
}

@test "--fstype keeps and noLIST drops filesystem types" {
	need_root
	mkdir "$T/p" "$T/t" "$T/p2" "$T/t2"
	watch --fstype tmpfs mounts "$T"
	mount -t proc proc "$T/p"
	mount -t tmpfs wq-t "$T/t"
	wait_until lines_at_least 1
	stop_watchq
	[ "$(unmarked)" = "mount mount $T/t tmpfs wq-t" ]

	watch --fstype notmpfs mounts "$T"
	mount -t tmpfs wq-t2 "$T/t2"
	mount -t proc proc "$T/p2"
	wait_until lines_at_least 1
	stop_watchq
	[ "$(unmarked)" = "mount mount $T/p2 proc proc" ]
}

@test "--source keeps only mounts of that source" {
	need_root
	mkdir "$T/a" "$T/b"
	watch --source wq-keep mounts "$T"
	mount -t tmpfs wq-drop "$T/a"
	mount -t tmpfs wq-keep "$T/b"
	wait_until lines_at_least 1
	stop_watchq
	[ "$(unmarked)" = "mount mount $T/b tmpfs wq-keep" ]
}

@test "-e and -E choose events, move_from narrows move" {
	need_root
	mkdir -p "$T/a" "$T/w/in" "$T/b" "$T/s" "$T/m1" "$T/m2" "$T/w/o" "$T/o"
	# Each step waits for a line that says watchq has seen the change it does not print
	# (a mount, a move in): a change made before that would be read with it, and merged.
	mount -t tmpfs wq-s "$T/s"
	watch -e unmount mounts "$T"
	mount -t tmpfs wq-src "$T/a"
	umount "$T/s"
	wait_until lines_at_least 1
	umount "$T/a"
	wait_until lines_at_least 2
	stop_watchq
	[ "$(unmarked)" = "mount unmount $T/s tmpfs wq-s
mount unmount $T/a tmpfs wq-src" ]

	mount -t tmpfs wq-m "$T/m1"
	watch -E mount,unmount mounts "$T"
	mount -t tmpfs wq-src "$T/a"
	mount --move "$T/m1" "$T/m2"
	wait_until lines_at_least 1
	mount -o remount,ro "$T/a"
	wait_until lines_at_least 2
	stop_watchq
	[ "$(unmarked)" = "mount move $T/m1 -> $T/m2
mount readonly $T/a ro (was rw)" ]

	mount -t tmpfs wq-o "$T/w/o"
	watch -e move_from mounts "$T/w"
	mount --move "$T/a" "$T/w/in"
	mount --move "$T/w/o" "$T/o"
	wait_until lines_at_least 1
	mount --move "$T/w/in" "$T/b"
	wait_until lines_at_least 2
	stop_watchq
	[ "$(unmarked)" = "mount move_from $T/w/o -> $T/o
mount move_from $T/w/in -> $T/b" ]
}

@test "--initial reports present mounts first, then changes, with no gap" {
	need_root
	mkdir "$T/a" "$T/b"
	mount -t tmpfs wq-a "$T/a"
	watch --initial mounts "$T"
	mount -t tmpfs wq-b "$T/b"
	wait_until lines_at_least 3
	stop_watchq
	[ "$(unmarked | sed -n 1p)" = "mount present $T tmpfs watchq-test" ]
	[ "$(unmarked | sed -n 2p)" = "mount present $T/a tmpfs wq-a" ]
	[ "$(unmarked | sed -n 3p)" = "mount mount $T/b tmpfs wq-b" ]
}

@test "--count ends with 0 after N events" {
	need_root
	mkdir "$T/a" "$T/b"
	watch -n 2 mounts "$T"
	mount -t tmpfs wq-a "$T/a"
	mount -t tmpfs wq-b "$T/b"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
	[ "$(wc -l <"$T/out")" -eq 2 ]
}

@test "--timeout expires with 2, fractions allowed" {
	need_root
	run --separate-stderr "$WATCHQ" -t 0.3 mounts "$T"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	# The last line is the readiness line (before it, auto may say why it fell back).
	[[ "${stderr_lines[-1]}" =~ ^watchq:\ watching\ mounts\ $T\ \(backend\ (fanotify|mountinfo)(\+bpf:[a-z-]+)?\)$ ]]
}

@test "--timeout is a deadline from start, not an idle timer" {
	need_root
	mkdir "$T/a"
	watch -t 1.5 mounts "$T"
	# A change every 0.2 s or so, never 1.5 s of quiet, until watchq ends: by its deadline,
	# long before the last round (under load, 2 s after start could be too soon to tell).
	for i in $(seq 50); do
		mount -t tmpfs wq "$T/a"
		umount "$T/a"
		sleep 0.2
		kill -0 "$WQ_PID" 2>/dev/null || break
	done
	finish_watchq
	[ "$WQ_STATUS" -eq 2 ]
	[ "$i" -lt 50 ]
}

@test "SIGTERM and SIGINT end cleanly with 0" {
	need_root
	watch mounts "$T"
	stop_watchq
	[ "$WQ_STATUS" -eq 0 ]
	watch mounts "$T"
	kill -INT "$WQ_PID"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
}

@test "watchq ... | head -1 ends quietly once head is gone" {
	need_root
	mkdir "$T/a"
	( "$WATCHQ" mounts "$T" 2>"$T/err" | head -1 >"$T/out"; echo "${PIPESTATUS[0]}" >"$T/status" ) &
	wait_until grep -q watching "$T/err"
	mount -t tmpfs wq "$T/a"
	wait_until test -s "$T/status"
	[ "$(cat "$T/status")" -eq 0 ]
	[ "$(unmarked)" = "mount mount $T/a tmpfs wq" ]
	[ "$(grep -v '^watchq: watching' "$T/err" | grep -vc 'using mountinfo$')" -eq 0 ]
}

@test "-q suppresses the readiness line" {
	need_root
	run --separate-stderr "$WATCHQ" -q -t 0.1 mounts "$T"
	[ "$status" -eq 2 ]
	[ -z "$stderr" ]
}

@test "-o appends events to a file" {
	need_root
	mkdir "$T/a"
	echo previous >"$T/log"
	watch -o "$T/log" mounts "$T"
	mount -t tmpfs wq "$T/a"
	wait_until lines_at_least 2 "$T/log"
	stop_watchq
	[ "$(sed -n 1p "$T/log")" = previous ]
	[ "$(unmarked "$T/log" | sed -n 2p)" = "mount mount $T/a tmpfs wq" ]
	[ ! -s "$T/out" ]
}

@test "--format prints the %-escapes" {
	need_root
	mkdir "$T/a"
	watch --format '%s|%e|%w|%t|%p|%f|%d|%r|%% %E' mounts "$T"
	mount -t tmpfs -o ro wq "$T/a"
	wait_until lines_at_least 1
	[ "$(cat "$T/out")" = "mount|mount|$T|0|$T/a|tmpfs|wq|ro|% mounts" ]
}

@test "--format %i %I %O and %o carry ids, options and the old path" {
	need_root
	mkdir "$T/a" "$T/b"
	mount -t tmpfs wq "$T/a"
	watch --format '%e %i %I %O %o' mounts "$T"
	mount --move "$T/a" "$T/b"
	wait_until lines_at_least 1
	read -r ev id parent opts old <"$T/out"
	[ "$ev" = move ] && [ "$old" = "$T/a" ]
	[[ "$id" =~ ^[0-9]+$ ]] && [[ "$parent" =~ ^[0-9]+$ ]]
	[[ "$opts" == rw,* ]]
}

@test "-T and --timefmt prefix the time" {
	need_root
	mkdir "$T/a"
	watch -T --timefmt '%Y@' mounts "$T"
	mount -t tmpfs wq "$T/a"
	wait_until lines_at_least 1
	[ "$(unmarked)" = "$(date +%Y)@ mount mount $T/a tmpfs wq" ]
}

@test "JSON lines carry the documented fields" {
	need_root
	mkdir "$T/a" "$T/b"
	watch --json mounts "$T"
	# One at a time: a backend may merge a remount into an unmount that follows at once.
	mount -t tmpfs -o size=1m wq "$T/a"
	wait_until lines_at_least 1
	mount --move "$T/a" "$T/b"
	wait_until lines_at_least 2
	mount -o remount,ro "$T/b"
	wait_until lines_at_least 3
	umount "$T/b"
	wait_until lines_at_least 4
	stop_watchq
	jq_event mount '.source == "mount" and .watch == "'"$T"'" and .tag == 0
		and (.mount_id | type) == "number" and (.parent_id | type) == "number"
		and .path == "'"$T/a"'" and .fstype == "tmpfs" and .device == "wq"
		and (.options | startswith("rw,")) and .readonly == false
		and (.time | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{6}Z$"))'
	jq_event move '.old_path == "'"$T/a"'" and .path == "'"$T/b"'"'
	jq_event readonly '.readonly == true'
	jq_event unmount '.path == "'"$T/b"'"'
	[ "$(jq -r .event "$T/out" | tr '\n' ' ')" = "mount move readonly unmount " ]
	# Who: a number, or unknown (the mount(8) that did it may be gone); a remount only with the
	# process capture, which saw mount(8)'s call.
	jq -e -s 'all(.[]; has("pid") and has("comm") and has("uid"))' "$T/out"
	if capture_used; then
		jq_event readonly '(.pid | type) == "number" and .comm == "mount" and .uid == 0'
	else
		jq_event readonly '.pid == null and .comm == null and .uid == null'
	fi
	if [ "$(backend_used)" = mountinfo ] && ! capture_used; then
		jq -e -s 'all(.[]; .pid == null and .comm == null and .uid == null)' "$T/out"
	elif [ "$(backend_used)" = mountinfo ]; then
		# Only where one call alone can have made a change read from the table.
		jq -e -s 'all(.[]; .pid == null or .comm == "mount" or .comm == "umount")' "$T/out"
	else
		jq -e -s 'all(.[] | select(.event != "readonly"); (.pid | type) == "number")' "$T/out"
	fi
}

@test "who made a change: the pid, name and uid of the mounter, the mover and the unmounter" {
	need_root
	mkdir "$T/a" "$T/b"
	watch mounts "$T"
	hold wq-mounter mount wq "$T/a"
	m=$HELD
	wait_until lines_at_least 1
	hold wq-mover move "$T/a" "$T/b"
	v=$HELD
	wait_until lines_at_least 2
	hold wq-unmounter umount "$T/b"
	u=$HELD
	wait_until lines_at_least 3
	stop_watchq
	[ "$(cat "$T/out")" = "mount mount $T/a tmpfs wq $(by $m wq-mounter)
mount move $T/a -> $T/b $(by $v wq-mover)
mount unmount $T/b tmpfs wq $(by $u wq-unmounter)" ]
}

@test "who made a change, in JSON and --format: pid, comm, uid; a remount only with the capture" {
	need_root
	mkdir "$T/a" "$T/b"
	watch --json mounts "$T"
	hold wq-mounter mount wq "$T/a"
	m=$HELD
	wait_until lines_at_least 1
	mount -o remount,ro "$T/a"
	wait_until lines_at_least 2
	stop_watchq
	if [ "$(backend_used)" = mountinfo ] && ! capture_used; then
		jq_event mount '.pid == null and .comm == null and .uid == null'
	else
		jq_event mount ".pid == $m and .comm == \"wq-mounter\" and .uid == 0"
	fi
	if capture_used; then
		jq_event readonly '(.pid | type) == "number" and .comm == "mount" and .uid == 0'
	else
		jq_event readonly '.pid == null and .comm == null and .uid == null'
	fi

	watch --format '%e %P %u %c' mounts "$T"
	hold wq-mounter mount wq "$T/b"
	m=$HELD
	wait_until lines_at_least 1
	stop_watchq
	if [ "$(backend_used)" = mountinfo ] && ! capture_used; then
		[ "$(cat "$T/out")" = "mount - - -" ]
	else
		[ "$(cat "$T/out")" = "mount $m 0 wq-mounter" ]
	fi
}

@test "who made a change: the real uid of a mounter that is not root" {
	need_root
	command -v setpriv >/dev/null || skip "setpriv missing"
	mkdir "$T/a"
	watch mounts "$T"
	HOLD_AS="setpriv --reuid=1000 --regid=1000 --clear-groups --inh-caps=+sys_admin --ambient-caps=+sys_admin" \
		hold wq-user mount wq "$T/a" || skip "cannot mount as uid 1000 with CAP_SYS_ADMIN here"
	[ "$(awk '/^Uid:/ { print $2 }' /proc/$HELD/status)" -eq 1000 ]
	wait_until lines_at_least 1
	stop_watchq
	[ "$(cat "$T/out")" = "mount mount $T/a tmpfs wq $(by $HELD wq-user 1000)" ]
}

# Paths no terminal or parser should choke on, one per line of this list, in printf %b form.
hostile_names() {
	printf '%s\n' 'with space' 'new\nline' 'quo"te' "single'quote" 'back\\slash' 'tab\there' \
		'bad\xffutf8' 'ctl\x01x' 'ütf8 ok' 'dollar$x' '\\x41'
}

# mount_hostile: a tmpfs on each hostile name; then exactly one event line each.
mount_hostile() {
	local name n=0
	while IFS= read -r name; do
		mkdir "$T/$(printf '%b' "$name")"
		mount -t tmpfs wq "$T/$(printf '%b' "$name")"
		n=$((n + 1))
	done < <(hostile_names)
	wait_until lines_at_least "$n"
	stop_watchq
	[ "$(wc -l <"$T/out")" -eq "$n" ]
}

@test "hostile mount points: one text line each, exact bytes back with printf %b" {
	need_root
	watch mounts "$T"
	mount_hostile
	i=0
	while IFS= read -r name; do
		i=$((i + 1))
		line=$(unmarked | sed -n "${i}p")
		read -r src ev path fstype dev <<<"$line"
		[ "$src $ev $fstype $dev" = "mount mount tmpfs wq" ]
		[ "$(printf '%b' "$path" | od -An -c)" = "$(printf '%s' "$T/$(printf '%b' "$name")" | od -An -c)" ]
	done < <(hostile_names)
}

@test "hostile mount points: every JSON line parses with jq, exact bytes back" {
	need_root
	watch --json mounts "$T"
	mount_hostile
	i=0
	while IFS= read -r name; do
		i=$((i + 1))
		line=$(sed -n "${i}p" "$T/out")
		echo "$line" | jq -e . >/dev/null
		want=$(printf '%s' "$T/$(printf '%b' "$name")" | od -An -tx1)
		got=$(json_bytes path "$line")
		[ "$got" = "$want" ] || { echo "$name: $got != $want"; false; }
	done < <(hostile_names)
	# Only the name that is not UTF-8 needs the base64 copy.
	[ "$(jq -r 'select(has("path_b64")) | .path' "$T/out")" = "$T/bad�utf8" ]
}

# mount_raw_names: a tmpfs on each hostile name and on one with a leading -; their
# exact paths, each ended by a NUL, sorted, in $T/want as od prints them.
mount_raw_names() {
	local name
	mkdir "$T/m"
	mount -t tmpfs wq "$T/m"
	{ hostile_names; echo '-dash'; } >"$T/names"
	while IFS= read -r name; do
		mkdir "$T/m/$(printf '%b' "$name")"
		mount -t tmpfs wq "$T/m/$(printf '%b' "$name")"
		printf '%s\0' "$T/m/$(printf '%b' "$name")"
	done <"$T/names" | LC_ALL=C sort -z | od -An -tx1 >"$T/want"
}

@test "-0: --format %p and text paths are raw bytes, exact through xargs -0" {
	need_root
	mount_raw_names
	st=0
	"$WATCHQ" ${WATCHQ_BACKEND:+--backend="$WATCHQ_BACKEND"} -q -t 0 --initial -0 \
	    --format %p mounts "$T/m" >"$T/raw" || st=$?
	[ "$st" -eq 2 ]
	xargs -0 -n 1 printf '%s\0' <"$T/raw" | LC_ALL=C grep -azvxF "$T/m" |
	    LC_ALL=C sort -z | od -An -tx1 >"$T/got"
	diff "$T/want" "$T/got"
	# Text records carry the same raw path between spaces.
	"$WATCHQ" ${WATCHQ_BACKEND:+--backend="$WATCHQ_BACKEND"} -q -t 0 --initial -0 \
	    mounts "$T/m" >"$T/text" || st=$?
	grep -aqzxF "mount present $T/m/with space tmpfs wq" "$T/text"
	grep -aqzxF "mount present $T/m/back\\slash tmpfs wq" "$T/text"
	grep -aqzxF "mount present $T/m/-dash tmpfs wq" "$T/text"
	found=0
	while IFS= read -r -d '' rec; do
		[ "$rec" != "mount present $T/m/$(printf 'new\nline') tmpfs wq" ] || found=1
	done <"$T/text"
	[ "$found" -eq 1 ]
}

@test "--format %#p is the raw path on a newline-ended line; %p stays escaped" {
	need_root
	mount_raw_names
	while IFS= read -r name; do
		[ "$name" != 'new\nline' ] || continue
		want="$T/m/$(printf '%b' "$name")"
		got=$("$WATCHQ" ${WATCHQ_BACKEND:+--backend="$WATCHQ_BACKEND"} -q -t 0 --initial \
		    --format '%#p|%p' mounts "$want") || [ $? -eq 2 ]
		[ "$(printf '%s' "${got%%|*}" | od -An -tx1)" = "$(printf '%s' "$want" | od -An -tx1)" ]
		[ "$(printf '%b' "${got#*|}" | od -An -tx1)" = "$(printf '%s' "$want" | od -An -tx1)" ]
		echo data >"$T/f"
		cp "$T/f" "${got%%|*}/"
		[ -f "$want/f" ]
	done <"$T/names"
	got=$("$WATCHQ" -q -t 0 --initial --format '%#p|%p' mounts "$T/m/with space") || [ $? -eq 2 ]
	[ "$got" = "$T/m/with space|$T/m/with\x20space" ]
}

@test "--format of a meta record: - for each field it has not, no blank or half-empty line" {
	need_root
	mkdir "$T/d"
	start_watchq --format '%e %p %f %w' --include '^/nowhere' mounts "$T/d"
	rmdir "$T/d"
	finish_watchq
	[ "$WQ_STATUS" -eq 3 ]
	[ "$(cat "$T/out")" = "removal - - $T/d" ]
	mkdir "$T/e"
	start_watchq -0 --format '%#p' mounts "$T/e"
	rmdir "$T/e"
	finish_watchq
	printf -- '-\0' | cmp - "$T/out"
}

@test "--format %#X: unknown prints -, as without #; a flag on a number escape is a usage error" {
	need_root
	mkdir "$T/a"
	start_watchq --format '[%#o][%o][%#c][%c][%#p]' -n 1 mounts "$T"
	mount -t tmpfs wq "$T/a"
	finish_watchq
	line=$(cat "$T/out")
	# A mount has no old path: - raw or not, as text prints it.
	[[ "$line" =~ ^\[-\]\[-\]\[(.*)\]\[(.*)\]\[$T/a\]$ ]]
	[ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] || [ "${BASH_REMATCH[2]}" = '\x2d' ]
	for bad in '%#t' '%#i' '%#%' '%#' '%##p' '%#T'; do
		run --separate-stderr "$WATCHQ" --format "$bad" mounts /
		[ "$status" -eq 64 ] || { echo "$bad: $status"; return 1; }
		[[ "$stderr" == "watchq: --format: unknown escape in "* ]]
	done
}

@test "-o FILE on a filesystem that fills up: no half record left, exit 1 with the message" {
	need_root
	mkdir "$T/small" "$T/w"
	mount -t tmpfs -o size=4k wq "$T/small"
	# 4000 bytes of whole lines: the next record fits only in part.
	for i in $(seq 40); do printf '%099d\n' 0; done >"$T/small/out"
	cp "$T/small/out" "$T/before"
	start_watchq -j -o "$T/small/out" mounts "$T/w"
	mkdir "$T/w/a"
	mount -t tmpfs wq "$T/w/a"
	finish_watchq
	[ "$WQ_STATUS" -eq 1 ]
	[ "$(cat "$T/err" | tail -n 1)" = "watchq: write $T/small/out: No space left on device" ]
	cmp "$T/before" "$T/small/out"
}

@test "a watched directory that disappears is a removal, then exit 3" {
	need_root
	mkdir "$T/m"
	mount -t tmpfs wq "$T/m"
	mkdir "$T/m/sub"
	watch mounts "$T/m/sub"
	umount -l "$T/m"
	finish_watchq
	[ "$WQ_STATUS" -eq 3 ]
	[ "$(cat "$T/out")" = "meta removal mounts $T/m/sub watched directory is gone" ]
}

@test "removal of one of several watches keeps the others running" {
	need_root
	mkdir -p "$T/m" "$T/keep/a"
	mount -t tmpfs wq "$T/m"
	mkdir "$T/m/sub"
	watch --json mounts "$T/m/sub" "$T/keep"
	umount -l "$T/m"
	mount -t tmpfs wq2 "$T/keep/a"
	wait_until lines_at_least 2
	kill -0 "$WQ_PID"
	stop_watchq
	jq_event removal '.source == "meta" and .tag == 0 and .backend == "'"$(backend_used)"'"'
	jq_event mount '.tag == 1'
}

@test "a failed write is a runtime error (exit 1) naming the problem" {
	need_root
	mkdir "$T/a"
	watch -o /dev/full mounts "$T"
	mount -t tmpfs wq "$T/a"
	finish_watchq
	[ "$WQ_STATUS" -eq 1 ]
	grep -q "^watchq: write /dev/full: No space left on device$" "$T/err"
}

@test "a mount propagates into a peer: one event per copy" {
	need_root
	mkdir -p "$T/p" "$T/q"
	mount -t tmpfs peer "$T/p"
	mount --make-shared "$T/p"
	mount --bind "$T/p" "$T/q"
	mkdir "$T/p/x"
	watch mounts "$T"
	mount -t tmpfs inner "$T/p/x"
	wait_until lines_at_least 2
	stop_watchq
	[ "$(unmarked | sort)" = "mount mount $T/p/x tmpfs inner
mount mount $T/q/x tmpfs inner" ]
}

@test "moving a mount moves its submounts too" {
	need_root
	mkdir -p "$T/a" "$T/b"
	mount -t tmpfs top "$T/a"
	mkdir "$T/a/sub"
	mount -t tmpfs sub "$T/a/sub"
	watch mounts "$T"
	mount --move "$T/a" "$T/b"
	wait_until lines_at_least 2
	stop_watchq
	[ "$(unmarked | sed -n 1p)" = "mount move $T/a -> $T/b" ]
	[ "$(unmarked | sed -n 2p)" = "mount move $T/a/sub -> $T/b/sub" ]
}

# mount_ids PATH SOURCE: "ID PARENT" of the mount of SOURCE on PATH, as /proc/self/mountinfo has it.
mount_ids() {
	awk -v p="$1" -v s="$2" '$5 == p { for (i = 7; $i != "-"; i++); if ($(i + 2) == s) print $1, $2 }' \
		/proc/self/mountinfo
}

@test "a mount moved beneath another: the one on top has its new parent in every later record" {
	need_root
	kernel_at_least 6 5 || skip "MOVE_MOUNT_BENEATH needs Linux 6.5 (this is $(uname -r))"
	mkdir -p "$T/x" "$T/b"
	mount -t tmpfs top "$T/x"
	mount -t tmpfs low "$T/b"
	watch --json mounts "$T"
	"$BURST" as mover beneath "$T/b" "$T/x"
	wait_until grep -q '"event":"move"' "$T/out"
	read -r low low_parent < <(mount_ids "$T/x" low)
	read -r top top_parent < <(mount_ids "$T/x" top)
	[ "$top_parent" = "$low" ]
	umount "$T/x"
	wait_until grep -q '"event":"unmount"' "$T/out"
	stop_watchq
	jq_event move '.path == "'"$T/x"'" and .old_path == "'"$T/b"'" and .device == "low" and
		.mount_id == '"$low"' and .parent_id == '"$low_parent"
	jq_event unmount '.path == "'"$T/x"'" and .device == "top" and
		.mount_id == '"$top"' and .parent_id == '"$low"
	[ "$(wc -l <"$T/out")" -eq 2 ]
}

@test "SIGTERM ends watchq even while a reader does not read" {
	need_root
	mkdir "$T/a"
	mkfifo "$T/fifo"
	# A reader that opens the pipe and never reads from it.
	sleep 600 <"$T/fifo" &
	reader=$!
	"$WATCHQ" ${WATCHQ_BACKEND:+--backend="$WATCHQ_BACKEND"} mounts "$T" >"$T/fifo" 2>"$T/err" &
	WQ_PID=$!
	wait_until grep -q watching "$T/err"
	# Enough events to fill the pipe (64 KiB) twice over: long source names, few mounts.
	long=$(printf 'x%.0s' $(seq 1000))
	for i in $(seq 100); do mount -t tmpfs "$long-$i" "$T/a"; umount "$T/a"; done
	kill -TERM "$WQ_PID"
	wait_until bash -c "! kill -0 $WQ_PID 2>/dev/null"
	finish_watchq
	kill "$reader" 2>/dev/null || true
	[ "$WQ_STATUS" -eq 0 ]
}

@test "a burst of mounts outside the watch: no mount or unmount lines, nothing made up" {
	need_root
	mkdir -p "$T/w" "$T/other"
	watch --json mounts "$T/w"
	"$BURST" pairs "$T/other" 2000
	sentinel "$T/w"
	stop_watchq
	# Only the sentinel is a mount; whatever else came is transient, with nothing invented.
	[ "$(jq -r 'select(.event != "transient") | .event + " " + .path' "$T/out")" = "mount $T/w/sentinel" ] ||
		{ grep -v '"transient"' "$T/out"; false; }
	jq -e -s 'all(.[] | select(.event == "transient"); .path == null and .mount_id == null
		and .unique_id == null and .parent_id == null and .options == null and .readonly == null
		and .fstype == null and .device == null and .pid == null and .comm == null and .uid == null
		and .count == (.unique_ids | length) and .count > 0)' "$T/out"
}

@test "wait -e mount does not end on mounts outside the watch" {
	need_root
	mkdir -p "$T/w" "$T/other"
	watch wait -t 1 -e mount mounts "$T/w"
	"$BURST" pairs "$T/other" 2000
	finish_watchq
	[ "$WQ_STATUS" -eq 2 ]
}

@test "--fstype cannot drop real mounts for transient ones, nor let transient ones through as mounts" {
	need_root
	mkdir -p "$T/w/t" "$T/other"
	watch --fstype notmpfs mounts "$T/w"
	"$BURST" pairs "$T/other" 1000
	mount -t tmpfs real "$T/w/t"
	mkdir "$T/w/p"
	mount -t proc proc "$T/w/p"
	wait_until grep -q "^mount mount $T/w/p proc" "$T/out"
	stop_watchq
	[ "$(unmarked | grep -v '^mount transient - - - count=[0-9]*$')" = "mount mount $T/w/p proc proc" ] ||
		{ grep -v '^mount transient' "$T/out"; false; }
}

@test "every mount of a burst in the watch is delivered, transient, or lost with a loss record" {
	need_root
	mkdir -p "$T/w/m"
	watch --json mounts "$T/w"
	"$BURST" pairs "$T/w/m" 2000
	sentinel "$T/w"
	stop_watchq
	mounts=$(jq -s '[.[] | select(.event == "mount" and .device == "burst")] | length' "$T/out")
	unmounts=$(jq -s '[.[] | select(.event == "unmount" and .device == "burst")] | length' "$T/out")
	transient=$(jq -s '[.[] | select(.event == "transient") | .count] | add // 0' "$T/out")
	losses=$(jq -s '[.[] | select(.event == "loss")] | length' "$T/out")
	echo "# $(backend_used): $mounts mounts, $unmounts unmounts, $transient transient, $losses losses" >&3
	[ "$mounts" -eq "$unmounts" ]
	if [ "$(backend_used)" = fanotify ] && [ "$losses" -eq 0 ]; then
		[ $((mounts + transient)) -eq 2000 ]
	fi
}

@test "wait -e transient is a usage error: transient mounts never end a wait" {
	run --separate-stderr "$WATCHQ" wait -e transient mounts /
	[ "$status" -eq 64 ]
	[[ "$stderr" == *"never end a wait"* ]]
}

@test "stacked mounts: moving the top leaves the mounts below where they are" {
	need_root
	mkdir -p "$T/w/m" "$T/w/n"
	mount -t tmpfs L "$T/w/m"
	mkdir "$T/w/m/sub"
	mount -t tmpfs Y "$T/w/m/sub"
	mount -t tmpfs X "$T/w/m"
	watch mounts "$T/w"
	"$WATCHQ" ${WATCHQ_BACKEND:+--backend="$WATCHQ_BACKEND"} wait -t 3 --mount "$T/w/n/sub" 2>"$T/w1.err" &
	w1=$!
	wait_until grep -q '^watchq: waiting' "$T/w1.err"
	mount --move "$T/w/m" "$T/w/n"
	wait_until lines_at_least 1
	# Only after the move: before it, X hid m/sub, which was then no mount point (--unmount held).
	"$WATCHQ" ${WATCHQ_BACKEND:+--backend="$WATCHQ_BACKEND"} wait -t 2 --unmount "$T/w/m/sub" 2>/dev/null &
	w2=$!
	s1=0; wait "$w1" || s1=$?
	s2=0; wait "$w2" || s2=$?
	[ "$s1" -eq 2 ] && [ "$s2" -eq 2 ] || { echo "wait --mount: $s1, wait --unmount: $s2"; false; }
	umount "$T/w/m/sub"
	wait_until lines_at_least 2
	umount "$T/w/n"
	wait_until lines_at_least 3
	stop_watchq
	[ "$(unmarked)" = "mount move $T/w/m -> $T/w/n
mount unmount $T/w/m/sub tmpfs Y
mount unmount $T/w/n tmpfs X" ]
	findmnt -n "$T/w/m" >/dev/null
}

# shell_flips N: N times mount, remount,ro and umount $T/w/a from this shell,
# then check that watchq (watching $T/w) reported each flip. Each step waits for
# the line of the one before: both backends merge what they read at once (see
# BACKENDS), so a flip that an unmount follows before watchq has run goes
# unseen, and on mountinfo an unmount and a mount that get the same mount id and
# device back (both are the lowest free) look like one mount changing options.
shell_flips() {
	local i
	mkdir -p "$T/w/a"
	for i in $(seq "$1"); do
		mount -t tmpfs flip "$T/w/a"
		wait_until lines_at_least $((3 * i - 2))
		mount -o remount,ro "$T/w/a"
		wait_until lines_at_least $((3 * i - 1))
		umount "$T/w/a"
		wait_until lines_at_least $((3 * i))
	done
	stop_watchq
	[ "$(unmarked | grep -c "^mount readonly $T/w/a ro (was rw)$")" -eq "$1" ]
	[ "$(unmarked | sort | uniq -c | sed 's/^ *//')" = "$1 mount mount $T/w/a tmpfs flip
$1 mount readonly $T/w/a ro (was rw)
$1 mount unmount $T/w/a tmpfs flip" ]
}

@test "mount, remount,ro, umount from a shell: every read-only flip is reported" {
	need_root
	mkdir -p "$T/w"
	watch mounts "$T/w"
	shell_flips 10
}

@test "with 300 mounts in the watch, flips from a shell are all reported" {
	need_root
	mkdir -p "$T/w/many"
	"$BURST" populate "$T/w/many" 300
	watch mounts "$T/w"
	shell_flips 3
}

@test "a read-only flip made between a mount and an unmount elsewhere, microseconds apart, is reported" {
	need_root
	mkdir "$T/a" "$T/x"
	mount -t tmpfs wq "$T/a"
	watch -e readonly mounts "$T"
	"$BURST" mixed "$T/x" "$T/a"
	wait_until grep -q "^mount readonly $T/a " "$T/out"
	stop_watchq
	[ "$(FLIP_COMM=burst unmarked)" = "mount readonly $T/a ro (was rw)" ]
}

@test "with 300 mounts in the watch and mounts changing elsewhere without a pause, a flip made between two of those changes is reported" {
	need_root
	mkdir -p "$T/w/many" "$T/w/a" "$T/w/x" "$T/c"
	"$BURST" populate "$T/w/many" 300
	mount -t tmpfs wq "$T/w/a"
	watch -e readonly mounts "$T/w"
	# 50 pairs a second for up to a minute: never 100 ms of quiet, and 1,200 events
	# (four per watched mount, the amortised bound) only after 12 s.
	"$BURST" pairs "$T/c" 3000 20 >/dev/null 2>&1 &
	HOLDERS="${HOLDERS:-} $!"
	"$BURST" mixed "$T/w/x" "$T/w/a"
	wait_until grep -q "^mount readonly $T/w/a " "$T/out"
	stop_watchq
	[ "$(FLIP_COMM=burst unmarked)" = "mount readonly $T/w/a ro (was rw)" ]
}

@test "with 600 mounts in the watch and a mount every 30 ms elsewhere, a remount,ro comes within the churn" {
	need_root
	mkdir -p "$T/w/many" "$T/w/a" "$T/c"
	"$BURST" populate "$T/w/many" 600
	mount -t tmpfs wq "$T/w/a"
	watch -e readonly mounts "$T/w"
	# Never 100 ms of quiet, and four events per watched mount (the amortised bound) only
	# after some 40 s. The man page's bound is a second: the flip must come before the
	# churn stops, 20 s on.
	"$BURST" every "$T/c" 30 20 >"$T/churn" 2>&1 &
	HOLDERS="${HOLDERS:-} $!"
	wait_until grep -q started "$T/churn"
	mount -o remount,ro "$T/w/a"
	wait_until grep -q "^mount readonly $T/w/a " "$T/out"
	[ "$(cat "$T/churn")" = started ]
	stop_watchq
	[ "$(unmarked)" = "mount readonly $T/w/a ro (was rw)" ]
}

@test "a burst of read-only flips of 200 mounts: each is reported" {
	need_root
	mkdir -p "$T/w/many"
	"$BURST" populate "$T/w/many" 200
	watch -e readonly mounts "$T/w"
	"$BURST" flip "$T/w/many" 200
	wait_until lines_at_least 200
	stop_watchq
	[ "$(FLIP_COMM=burst unmarked | grep -c "^mount readonly $T/w/many/[0-9]* ro (was rw)$")" -eq 200 ]
}

@test "setattr's before state is the state last reported" {
	need_root
	mkdir "$T/a"
	mount -t tmpfs wq "$T/a"
	watch mounts "$T"
	mount -o remount,ro "$T/a"
	wait_until lines_at_least 1
	mount -o remount,bind,nosuid "$T/a"
	wait_until lines_at_least 2
	stop_watchq
	[ "$(unmarked | sed -n 1p)" = "mount readonly $T/a ro (was rw)" ]
	[ "$(unmarked | sed -n 2p)" = "mount setattr $T/a ro,nosuid,relatime (was ro,relatime)" ]
}

# mountinfo_options PATH: the options of the mount on PATH as /proc/self/mountinfo
# has them, joined as watchq joins them (ro/rw once, then per-mount, then superblock, no mand).
mountinfo_options() {
	awk -v p="$1" '$5 == p { for (i = 7; $i != "-"; i++); print $6 " " $(i + 3) }' /proc/self/mountinfo | tail -1 |
		awk '{ n = split($1, v, ","); m = split($2, s, ","); ro = v[1] == "ro" || s[1] == "ro"
			out = ro ? "ro" : "rw"
			for (i = 2; i <= n; i++) out = out "," v[i]
			for (i = 1; i <= m; i++) if (s[i] != "rw" && s[i] != "ro" && s[i] != "mand") out = out "," s[i]
			print out }'
}

@test "options are mountinfo's, nodiratime and all, on both backends" {
	need_root
	mkdir -p "$T/w/a" "$T/w/b" "$T/w/c" "$T/w/d"
	mount -t tmpfs -o noatime,size=1m wq "$T/w/a"
	mount -t tmpfs -o strictatime,nodiratime wq "$T/w/b"
	mount -t tmpfs -o mand,nosuid,nodev,noexec wq "$T/w/c" 2>/dev/null
	mount -t tmpfs -o ro,sync,dirsync wq "$T/w/d"
	watch --initial --json mounts "$T/w"
	mount -o remount,bind,nodiratime "$T/w/a"
	wait_until grep -q setattr "$T/out"
	stop_watchq
	for d in b c d; do
		want=$(mountinfo_options "$T/w/$d")
		got=$(jq -r "select(.event == \"present\" and .path == \"$T/w/$d\") | .options" "$T/out")
		[ "$got" = "$want" ] || { echo "$d: $got != $want"; false; }
		# findmnt joins the same lists; it keeps mand, which statmount cannot report.
		[ "$got" = "$(findmnt -n -o OPTIONS "$T/w/$d" | sed 's/,mand//')" ]
	done
	# A change of nodiratime alone is a setattr, and its new options are mountinfo's.
	jq_event setattr '.old_options == "rw,noatime,size=1024k" and .options == "'"$(mountinfo_options "$T/w/a")"'"'
	[ "$(mountinfo_options "$T/w/a")" = "rw,noatime,nodiratime,size=1024k" ]
}

@test "--initial gives the same records on both backends" {
	need_root
	kernel_at_least 6 15 || skip "needs the fanotify backend (Linux 6.15)"
	mkdir -p "$T/w/a" "$T/w/b"
	mount -t tmpfs -o noatime,nodiratime wq "$T/w/a"
	mount --bind "$T/w/a" "$T/w/b"
	mount -o remount,bind,ro "$T/w/b"
	# Sorted: mounts of one depth come in the order of the backend's ids, and the 32-bit ids
	# mountinfo has are taken again by any mount on the machine (a and b may come either way).
	for be in fanotify mountinfo; do
		"$WATCHQ" --backend=$be --initial --json -t 0.2 mounts "$T/w" 2>/dev/null |
			jq -c 'del(.time, .time_us, .unique_id)' | sort >"$T/$be" || true
	done
	[ "$(wc -l <"$T/fanotify")" -eq 2 ]
	diff "$T/fanotify" "$T/mountinfo"
}

@test "mount_id and parent_id join with findmnt -o ID,PARENT; unique_id is its own field" {
	need_root
	mkdir -p "$T/w/a" "$T/w/a/b"
	mount -t tmpfs wq "$T/w/a"
	mkdir "$T/w/a/b"
	mount -t tmpfs wq "$T/w/a/b"
	watch --initial --json mounts "$T/w"
	mkdir -p "$T/w/c"
	mount -t tmpfs wq "$T/w/c"
	wait_until grep -q '"mount"' "$T/out"
	stop_watchq
	while read -r path id parent; do
		[ "$(findmnt -n -o ID,PARENT "$path" | tail -1 | tr -s ' ' | sed 's/^ //')" = "$id $parent" ] ||
			{ echo "$path: $id $parent"; findmnt -o ID,PARENT,TARGET "$path"; false; }
	done < <(jq -r '[.path, .mount_id, .parent_id] | @tsv' "$T/out")
	# The mountinfo backend keeps its table by unique id with the capture from 6.8 on.
	if [ "$(backend_used)" = fanotify ] || { grep -q '+bpf:' "$T/err" && kernel_at_least 6 8; }; then
		jq -e -s 'all(.[]; (.unique_id | type) == "number" and .unique_id != .mount_id)' "$T/out"
	else
		jq -e -s 'all(.[]; .unique_id == null)' "$T/out"
	fi
}

@test "2,000 back-and-forth moves: moves are seen by their state, and the cache stays right" {
	need_root
	mkdir -p "$T/w/a" "$T/w/b"
	mount -t tmpfs mover "$T/w/a"
	watch mounts "$T/w"
	"$BURST" moves "$T/w/a" "$T/w/b" 1000
	# Once the sentinel is seen, so are the moves: the mount is back on a in the cache. An
	# unmount read with moves not yet seen would come from where watchq last saw the mount.
	sentinel "$T/w"
	umount "$T/w/a"
	wait_until grep -q "^mount unmount" "$T/out"
	stop_watchq
	moves=$(grep -c '^mount move' "$T/out" || true)
	echo "# $(backend_used): $moves of 2000 moves printed" >&3
	[ "$moves" -le 2000 ]
	[ "$(unmarked | grep -v '^mount move')" = "mount mount $T/w/sentinel tmpfs sentinel
mount unmount $T/w/a tmpfs mover" ]
}

@test "above 500 watched mounts, flips of mounts that stay are reported by the amortised re-scan" {
	need_root
	mkdir -p "$T/w/many"
	"$BURST" populate "$T/w/many" 600
	watch -e readonly mounts "$T/w"
	mount -o remount,bind,ro "$T/w/many/5"
	wait_until lines_at_least 1
	"$BURST" flip "$T/w/many" 600
	wait_until lines_at_least 600
	stop_watchq
	[ "$(FLIP_COMM='mount|burst' unmarked | sort -u |
		grep -c "^mount readonly $T/w/many/[0-9]* ro (was rw)$")" -eq 600 ]
}
