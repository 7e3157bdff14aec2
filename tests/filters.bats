#!/usr/bin/env bats
# Filters as inotifywait and findmnt users type them: --include/--exclude (and
# their -i forms) on paths, findmnt's -O option lists and -S; on the backend in
# $WATCHQ_BACKEND (tests/run-bats runs this file again on mountinfo).
load helper

setup_file() {
	export WATCHQ_BACKEND=${WATCHQ_BACKEND:-auto}
}

# kept DIR NAME: mount a tmpfs NAME on DIR and wait for its line: every change made before it
# has been read, and what it did not print was filtered out.
kept() {
	mkdir -p "$1"
	mount -t tmpfs "$2" "$1"
	wait_until grep -q " $1\$" "$T/out"
}

# wq_list ARGS...: watchq list on this file's backend.
wq_list() {
	"$WATCHQ" ${WATCHQ_BACKEND:+--backend="$WATCHQ_BACKEND"} list "$@"
}

@test "--exclude drops mounts whose path matches, --include keeps only those" {
	need_root
	mkdir "$T/skip" "$T/skip2"
	start_watchq --format '%e %p' --exclude '/sk[i]p$' mounts "$T"
	mount -t tmpfs wq "$T/skip"
	kept "$T/k1" k1
	umount "$T/skip"
	kept "$T/k2" k2
	stop_watchq
	[ "$(cat "$T/out")" = "mount $T/k1
mount $T/k2" ]

	start_watchq --format '%e %p' --include '/in[0-9]$' mounts "$T"
	mount -t tmpfs wq "$T/skip2"
	umount "$T/k1"
	kept "$T/in1" in1
	umount "$T/in1"
	wait_until grep -q "^unmount $T/in1\$" "$T/out"
	stop_watchq
	[ "$(cat "$T/out")" = "mount $T/in1
unmount $T/in1" ]
}

@test "wait -e ends on the first event whose path passes --include, not before" {
	need_root
	mkdir "$T/a" "$T/b"
	start_watchq --format '%e %p' --include '/b$' wait -e mount mounts "$T"
	mount -t tmpfs wq "$T/a"
	mount -t tmpfs wq "$T/b"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
	[ "$(cat "$T/out")" = "mount $T/b" ]
}

@test "--exclude is a path regex: --exclude mount is not taken for --exclude-event" {
	need_root
	start_watchq --format '%e %p' --exclude mount mounts "$T"
	kept "$T/a" a
	stop_watchq
	[ "$(cat "$T/out")" = "mount $T/a" ]
}

@test "--includei and --excludei ignore case; each is repeatable, and --exclude wins" {
	need_root
	start_watchq --format '%e %p' --includei '/KEEP' --include '/other$' --exclude '/keep-drop$' \
	    --excludei '/KEEP-NOT$' mounts "$T"
	mkdir "$T/x" "$T/keep-drop" "$T/keep-not"
	mount -t tmpfs wq "$T/x"
	mount -t tmpfs wq "$T/keep-drop"
	mount -t tmpfs wq "$T/keep-not"
	kept "$T/keep1" k
	kept "$T/other" o
	stop_watchq
	[ "$(cat "$T/out")" = "mount $T/keep1
mount $T/other" ]
}

@test "a move is reported when either of its paths passes, as inotifywait reports either half" {
	need_root
	mkdir "$T/x1" "$T/x2" "$T/y" "$T/z"
	start_watchq --format '%e %o %p' --exclude '/x[0-9]$' mounts "$T"
	mount -t tmpfs wq "$T/x1"
	kept "$T/s1" s1
	mount --move "$T/x1" "$T/x2"
	kept "$T/s2" s2
	mount --move "$T/x2" "$T/y"
	wait_until grep -q "^move " "$T/out"
	stop_watchq
	[ "$(grep -v '^mount ' "$T/out")" = "move $T/x2 $T/y" ]

	start_watchq --format '%e %o %p' --include '/y$' mounts "$T"
	mount --move "$T/y" "$T/z"
	wait_until grep -q "^move " "$T/out"
	stop_watchq
	[ "$(cat "$T/out")" = "move $T/y $T/z" ]
}

@test "--include and --exclude filter present records of --initial and list, and sb paths" {
	need_root
	mkdir "$T/a" "$T/b"
	mount -t tmpfs wq-a "$T/a"
	mount -t tmpfs wq-b "$T/b"
	run --separate-stderr wq_list --format '%e %p' --exclude '/b$' mounts "$T"
	[ "$status" -eq 0 ] && [ -z "$stderr" ]
	[ "$output" = "present $T
present $T/a" ]
	run --separate-stderr "$WATCHQ" list --format '%s %p' --include '/b$' sb "$T/a" "$T/b"
	[ "$status" -eq 0 ]
	[ "$output" = "sb $T/b" ]
	start_watchq --initial --format '%e %p' --includei '/A$' mounts "$T"
	kept "$T/c/A" c
	stop_watchq
	[ "$(cat "$T/out")" = "present $T/a
mount $T/c/A" ]
}

@test "--include leaves key records alone (they have no path); keys alone: a usage error" {
	need_root
	command -v keyctl >/dev/null || skip "keyctl (keyutils) missing"
	keyctl session - true >/dev/null 2>&1 || skip "cannot join a new session keyring here"
	run --separate-stderr keyctl session - bash -c 'keyctl add user wq-k v @s >/dev/null &&
	    exec "$1" list --format "%s %e" --include "^/none" mounts "$2" keys @s' _ "$WATCHQ" "$T"
	# The mounts DIR had nothing left to list: 1, as findmnt's when a filter leaves nothing.
	[ "$status" -eq 1 ]
	[ "$(echo "$output" | sort -u)" = "key present" ]
	run --separate-stderr "$WATCHQ" --include x keys @s
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: --include and --exclude apply to mounts and sb (a key has no path)" ]
}

@test "a bad regex is one line with regerror's text, exit 64; filters with state waits too" {
	run --separate-stderr "$WATCHQ" --exclude '(' mounts /
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: --exclude: '(' is not an extended regular expression: Unmatched ( or \\(" ]
	run --separate-stderr "$WATCHQ" --includei 'a{2' mounts /
	[ "$status" -eq 64 ]
	[[ "$stderr" == "watchq: --includei: 'a{2' is not an extended regular expression: "* ]]
	[ "${#stderr_lines[@]}" -eq 1 ]
	for opt in --include=x --exclude=x -O=ro; do
		run --separate-stderr "$WATCHQ" "${opt%%=*}" "${opt#*=}" wait --mount /
		[ "$status" -eq 64 ]
		[ "$stderr" = "watchq: --fstype, --source, --options, --include and --exclude filter events; state conditions do not use them" ]
	done
}

@test "-O keeps mounts by their options, on events (a remount by its new options)" {
	need_root
	mkdir "$T/rw" "$T/ro" "$T/x" "$T/kept"
	start_watchq --format '%e %p' -O ro mounts "$T"
	mount -t tmpfs wq "$T/rw"
	mount -t tmpfs -o ro wq "$T/ro"
	wait_until grep -q "^mount $T/ro\$" "$T/out"
	mount -o remount,ro "$T/rw"
	wait_until grep -q "^readonly $T/rw\$" "$T/out"
	stop_watchq
	[ "$(cat "$T/out")" = "mount $T/ro
readonly $T/rw" ]

	start_watchq --format '%e %p' -O noro,+noexec -O size=1024k mounts "$T"
	mount -t tmpfs -o noexec wq "$T/x"
	mount -t tmpfs -o noexec,size=1m wq "$T/kept"
	wait_until grep -q "^mount $T/kept\$" "$T/out"
	stop_watchq
	[ "$(cat "$T/out")" = "mount $T/kept" ]
}

@test "-O selects the mounts findmnt -O selects (list, the same mounts)" {
	need_root
	mkdir "$T/a" "$T/b" "$T/c" "$T/d" "$T/e"
	mount -t tmpfs wq "$T/a"
	mount -t tmpfs -o ro wq "$T/b"
	mount -t tmpfs -o nosuid,noexec wq "$T/c"
	mount -t tmpfs -o size=1m,mode=700 wq "$T/d"
	mount -t tmpfs -o ro,nosuid,nodev,noatime wq "$T/e"
	for pat in ro noro rw nosuid +nosuid +nosuid,+noexec +noexec,noro size=1024k nosize \
	    noatime +noatime relatime ro,+nodev mode=700 mode=755 +nomode noexec,nosuid; do
		findmnt -rn -o TARGET -O "$pat" | grep -E "^$T(/|\$)" | sort >"$T/want" || true
		wq_list -q -O "$pat" --format %p mounts "$T" | sort >"$T/got"
		diff "$T/want" "$T/got" || { echo "-O $pat differs from findmnt"; false; }
	done
	# The same list as its findmnt: at least one mount in and one out for most patterns.
	[ "$(findmnt -rn -o TARGET -O +nosuid | grep -cE "^$T/")" -eq 2 ]
}

@test "-S is --source; -O: a noX findmnt reads as 'no option X' is said, and bad lists are usage errors" {
	need_root
	mkdir "$T/a" "$T/b"
	mount -t tmpfs wq-keep "$T/a"
	mount -t tmpfs -o nosuid wq-drop "$T/b"
	run --separate-stderr wq_list --format %p -S wq-keep mounts "$T"
	[ "$status" -eq 0 ] && [ "$output" = "$T/a" ]
	run --separate-stderr wq_list --format %p -O nosuid mounts "$T"
	[ "$status" -eq 0 ] && [ "$(echo "$output" | wc -l)" -eq 3 ]
	[ "$stderr" = "watchq: --options nosuid: as findmnt -O, keeps mounts with no option 'suid' (mountinfo writes nosuid, not suid); +nosuid keeps mounts with nosuid" ]
	run --separate-stderr wq_list -q --format %p -O +nosuid mounts "$T"
	[ "$status" -eq 0 ] && [ "$output" = "$T/b" ] && [ -z "$stderr" ]
	run --separate-stderr "$WATCHQ" -O '' mounts /
	[ "$status" -eq 64 ] && [ "$stderr" = "watchq: --options: empty list" ]
	run --separate-stderr "$WATCHQ" -O ro,no mounts /
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: --options: 'no' alone names no option (+no is an option named no)" ]
	run --separate-stderr "$WATCHQ" -O 'ro,a="b' mounts /
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: --options: 'ro,a=\"b' has a quote that is not closed" ]
	run --separate-stderr "$WATCHQ" -O ro sb /
	[ "$status" -eq 64 ] && [ "$stderr" = "watchq: --options applies to mounts" ]
}

@test "-t TYPE as findmnt users type it: -t is the timeout, --fstype filters types (64)" {
	run --separate-stderr "$WATCHQ" -t tmpfs mounts /
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: --timeout: 'tmpfs' is not a number of seconds: -t is the timeout here; --fstype=tmpfs filters filesystem types" ]
	run --separate-stderr "$WATCHQ" -t -1 mounts /
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: --timeout: '-1' is not a number of seconds" ]
	run --separate-stderr "$WATCHQ" -t inf mounts /
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: --timeout: 'inf' is not a number of seconds" ]
}
