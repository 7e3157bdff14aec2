#!/usr/bin/env bats
# What inotifywait and findmnt users type: -m, -q/-qq, -0, event names in any
# case and their aliases, findmnt -S's forms of --source; and every message on
# standard error starting with "watchq: ".
load helper

# on_backends CMD...: run CMD once per mount backend this machine has.
on_backends() {
	local be
	for be in fanotify mountinfo; do
		"$WATCHQ" -qq -t 0 --backend=$be mounts / >/dev/null 2>&1 || [ $? -eq 2 ] || continue
		WATCHQ_BACKEND=$be "$@" || { echo "on backend $be"; return 1; }
	done
}

@test "-m/--monitor is accepted and monitors; with wait it is a usage error" {
	need_root
	mkdir "$T/a"
	start_watchq -m -n 2 mounts "$T"
	mount -t tmpfs wq "$T/a"
	# Seen before it goes: a mount unmounted before watchq reads it is no mount line (see BACKENDS).
	wait_until lines_at_least 1
	umount "$T/a"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
	[ "$(unmarked)" = "mount mount $T/a tmpfs wq
mount unmount $T/a tmpfs wq" ]
	run --separate-stderr "$WATCHQ" --monitor -t 0 mounts /
	[ "$status" -eq 2 ]
	run --separate-stderr "$WATCHQ" -m wait --unmount "$T/a"
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: wait ends at its condition: -m/--monitor does not apply" ]
}

aliases() {
	mkdir "$T/b"
	# new_mount is there to tell when the mount was seen: a remount made
	# before that is part of what it finds (both backends read the mount then).
	start_watchq -e UMOUNT,Remount,new_mount mounts "$T"
	mount -t tmpfs wq "$T/b"
	wait_until grep -q '^mount mount' "$T/out"
	mount -o remount,ro "$T/b"
	wait_until grep -q '^mount readonly' "$T/out"
	mount -o remount,ro,size=1M "$T/b"
	wait_until grep -q '^mount setattr' "$T/out"
	mount -o remount,rw "$T/b"
	wait_until grep -q '^mount writable' "$T/out"
	umount "$T/b"
	wait_until grep -q '^mount unmount' "$T/out"
	stop_watchq
	[ "$(cut -d' ' -f1-3 "$T/out")" = "mount mount $T/b
mount readonly $T/b
mount setattr $T/b
mount writable $T/b
mount unmount $T/b" ] || { cat "$T/out"; false; }
}

@test "event names ignore case; umount and remount (readonly, writable, setattr) are aliases" {
	need_root
	on_backends aliases
}

moves() {
	mkdir -p "$T/w/in" "$T/x"
	mount -t tmpfs wq "$T/w/in"
	start_watchq -e MOVED_FROM,moved_to mounts "$T/w"
	mount --move "$T/w/in" "$T/x"
	# The mountinfo backend diffs the table: two moves read at once cancel out.
	wait_until lines_at_least 1
	mount --move "$T/x" "$T/w/in"
	wait_until lines_at_least 2
	stop_watchq
	umount "$T/w/in"
	# Last: a failed check before it would not fail the test (on_backends runs this under ||).
	[ "$(unmarked)" = "mount move_from $T/w/in -> $T/x
mount move_to $T/x -> $T/w/in" ] || { cat "$T/out"; false; }
}

@test "moved_from and moved_to are move_from and move_to, printed as such" {
	need_root
	on_backends moves
}

@test "-q leaves nothing on stderr but errors; -qq prints no events either" {
	need_root
	mkdir "$T/a"
	mount -t tmpfs wq "$T/a"
	note="watchq: $T/a (tmpfs) does not report errors (through Linux 6.18 only ext2, ext3 and ext4 do)"
	run --separate-stderr "$WATCHQ" -t 0 sb "$T/a"
	[ "$status" -eq 2 ]
	[ "${#stderr_lines[@]}" -eq 2 ] && [ "${stderr_lines[0]}" = "$note" ]
	[[ "${stderr_lines[1]}" == "watchq: watching sb $T/a "* ]]
	run --separate-stderr "$WATCHQ" -q -t 0 sb "$T/a"
	[ "$status" -eq 2 ]
	[ -z "$stderr" ]
	# -q prints events; -qq does not, and the status still tells.
	run --separate-stderr "$WATCHQ" -q -t 0 --initial mounts "$T"
	[ "$status" -eq 2 ]
	[[ "$output" == "mount present $T/a "* ]] && [ -z "$stderr" ]
	run --separate-stderr "$WATCHQ" -qq -t 0 --initial mounts "$T"
	[ "$status" -eq 2 ]
	[ -z "$output" ] && [ -z "$stderr" ]
	run --separate-stderr "$WATCHQ" -q --quiet -t 0 wait --unmount "$T/nonexistent"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	# Errors stay.
	run --separate-stderr "$WATCHQ" -qq -t 0 sb "$T/nonexistent"
	[ "$status" -eq 64 ]
	[[ "$stderr" == "watchq: $T/nonexistent: No such file or directory" ]]
}

# records_at_least N: $T/out holds at least N records ended by NUL.
records_at_least() {
	[ "$(tr -cd '\0' <"$T/out" | wc -c)" -ge "$1" ]
}

@test "-0 ends each record with NUL instead of a newline: text, --format and JSON; paths raw" {
	need_root
	mkdir "$T/a b"
	for fmt in "" "--format=%e %p" "--json"; do
		start_watchq -0 -n 2 ${fmt:+"$fmt"} mounts "$T"
		mount -t tmpfs wq "$T/a b"
		wait_until records_at_least 1
		umount "$T/a b"
		finish_watchq
		[ "$WQ_STATUS" -eq 0 ]
		[ "$(tr -cd '\0' <"$T/out" | wc -c)" -eq 2 ]
		[ "$(tr -cd '\n' <"$T/out" | wc -c)" -eq 0 ]
		xargs -0 -n 1 printf '%s|' <"$T/out" >"$T/split"
		case $fmt in
		"") [ "$(tr '\0' '\n' <"$T/out" | unmarked - | tr '\n' '|')" = "mount mount $T/a b tmpfs wq|mount unmount $T/a b tmpfs wq|" ] ;;
		--format*) [ "$(cat "$T/split")" = "mount $T/a b|unmount $T/a b|" ] ;;
		*) [ "$(xargs -0 -n 1 <"$T/out" sh -c 'printf %s "$1" | jq -r .event' _ | tr '\n' ' ')" = "mount unmount " ] ;;
		esac
	done
}

source_forms() {
	start_watchq --initial -e present,mount,unmount --source "$1" mounts "$T"
	umount "$T/fs"
	# Seen before the mount: one that gets the mount id back is a move on mountinfo.
	wait_until grep -q "^mount unmount $T/fs " "$T/out"
	mount "$LOOPDEV" "$T/fs"
	wait_until grep -q "^mount mount $T/fs " "$T/out"
	stop_watchq
	[ "$(cut -d' ' -f1-3 "$T/out")" = "mount present $T/fs
mount unmount $T/fs
mount mount $T/fs" ] || { echo "--source $1:"; cat "$T/out"; false; }
}

source_others() {
	# Another device's label, a device number of none: nothing, not even present.
	start_watchq --initial --source LABEL=wq-other mounts "$T"
	umount "$T/fs"
	mount "$LOOPDEV" "$T/fs"
	stop_watchq
	[ ! -s "$T/out" ] || { cat "$T/out"; false; }
	grep -qx "watchq: --source LABEL=wq-other: no such device now; its mounts are reported once it appears" "$T/err"
}

@test "--source takes LABEL=, UUID=, PARTUUID=/PARTLABEL= (none here) and MAJ:MIN, as findmnt -S does" {
	make_ext4 "-L wq-label -U 0b8c5a4e-3f1d-4c2a-9e1b-7d6f5a4c3b2a"
	blkid -p "$LOOPDEV" | grep -q 'LABEL="wq-label"' || skip "libblkid does not see the image"
	majmin=$(findmnt -n -o MAJ:MIN "$T/fs" | tr -d ' ')
	for spec in LABEL=wq-label UUID=0b8c5a4e-3f1d-4c2a-9e1b-7d6f5a4c3b2a "$majmin" "$LOOPDEV"; do
		on_backends source_forms "$spec"
	done
	on_backends source_others
	# -qq: not even that note.
	run --separate-stderr "$WATCHQ" -qq -t 0 --source PARTUUID=0000-none mounts "$T"
	[ "$status" -eq 2 ]
	[ -z "$stderr" ]
	run --separate-stderr "$WATCHQ" -t 0 --source LABEL= mounts "$T"
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: --source: 'LABEL=' needs a value after the '='" ]
}

@test "every message on standard error starts with watchq:, whatever name started it" {
	ln -s "$(readlink -f "$BATS_TEST_DIRNAME/../watchq")" "$T/wq"
	for cmd in "-e nosuch mounts /" "--bogus mounts /" "mounts $T/nonexistent" "--backend=watch-queue -t 0 keys" \
	    "-o $T/nonexistent/out -t 0 mounts /" "--source LABEL= mounts /" "-m wait --mount /" "-t 0 mounts /"; do
		for bin in "$WATCHQ" "$T/wq"; do
			run --separate-stderr $bin $cmd
			[ "${#stderr_lines[@]}" -ge 1 ] || { echo "$cmd: no message"; false; }
			for l in "${stderr_lines[@]}"; do
				[[ "$l" == "watchq: "* ]] || { echo "$bin $cmd: $l"; false; }
			done
		done
	done
}

@test "--source LABEL= of a device that appears after watchq started: said once, then matched" {
	need_root
	start_watchq --source LABEL=wq-late mounts "$T"
	grep -qx "watchq: --source LABEL=wq-late: no such device now; its mounts are reported once it appears" "$T/err"
	make_ext4 "-L wq-late"
	wait_until grep -q "^mount mount $T/fs ext4 $LOOPDEV pid=" "$T/out"
}
