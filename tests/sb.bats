#!/usr/bin/env bats
# watchq sb: filesystem errors, read-only flips, quota warnings and low space.
load helper

setup_file() {
	build_adv
}

# need_sb_capture: watchq started (start_watchq) with the process capture beside sb, or a skip
# that quotes the readiness line.
need_sb_capture() {
	[[ "$(backend_used)" == *,bpf:* ]] || skip "no process capture here: $(cat "$T/err")"
}

# trigger_error: an ext4 error on $LOOPNAME, as __ext4_error() raises it.
trigger_error() {
	echo watchq-test >"/sys/fs/ext4/$LOOPNAME/trigger_fs_error"
}

# ro_line N TEXT BY: line N of $T/out is the readonly record TEXT, then who made it: BY mount
# (mount(8) as root) is named where the readiness line says the capture loaded (bpf), else -;
# BY - is nobody, capture or not.
ro_line() {
	local line who='pid=- uid=- comm=-'
	line=$(sed -n "$1p" "$T/out")
	[ "$3" = - ] || [[ "$(backend_used)" != *,bpf:* ]] || who='pid=[1-9][0-9]* uid=0 comm=mount'
	[ "${line% pid=*}" = "$2" ] && [[ "${line#"$2" }" =~ ^$who$ ]] ||
		{ echo "line $1: $line, not $2 $who"; false; }
}

@test "sb error: errors merge while unread, with errno, count and device" {
	make_ext4 "" errors=continue
	[ -e "/sys/fs/ext4/$LOOPNAME/trigger_fs_error" ] || skip "no trigger_fs_error in this kernel"
	start_watchq --json sb "$T/fs"
	[[ "$(backend_used)" == fanotify,* ]] || skip "no fanotify error events here: $(cat "$T/err")"
	# Stopped, watchq cannot read: the kernel merges the three errors into one event.
	kill -STOP "$WQ_PID"
	trigger_error
	trigger_error
	trigger_error
	kill -CONT "$WQ_PID"
	wait_until lines_at_least 1
	trigger_error
	wait_until lines_at_least 2
	stop_watchq
	[ "$WQ_STATUS" -eq 0 ]
	[ "$(jq -s -c '[.[] | select(.event == "error") | .count]' "$T/out")" = "[3,1]" ]
	jq_event error ".source == \"sb\" and .error == 117 and .error_name == \"EUCLEAN\" and .path == \"$T/fs\" and .fstype == \"ext4\" and .device == \"$LOOPDEV\" and .watch == \"$T/fs\""
}

@test "sb error in text; wait -e error sb PATH ends on the first error" {
	make_ext4 "" errors=continue
	[ -e "/sys/fs/ext4/$LOOPNAME/trigger_fs_error" ] || skip "no trigger_fs_error in this kernel"
	mkdir "$T/fs/sub"
	start_watchq wait -e error sb "$T/fs/sub"
	[[ "$(backend_used)" == fanotify,* ]] || skip "no fanotify error events here"
	trigger_error
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
	[ "$(cat "$T/out")" = "sb error $T/fs ext4 $LOOPDEV EUCLEAN count=1" ]
}

@test "sb readonly: ext4 errors=remount-ro turns the filesystem read-only, and says which kind" {
	make_ext4 "" errors=remount-ro
	[ -e "/sys/fs/ext4/$LOOPNAME/trigger_fs_error" ] || skip "no trigger_fs_error in this kernel"
	start_watchq --json sb "$T/fs"
	trigger_error
	wait_until grep -q '"event":"readonly"' "$T/out"
	stop_watchq
	# Linux 6.12+ (and backports) keep SB_RDONLY clear and say emergency_ro; older kernels set it.
	jq_event readonly '.readonly == true and (.state == "emergency_ro" or .state == "ro") and .old_state == "rw"'
	run touch "$T/fs/x"
	[ "$status" -ne 0 ]
}

@test "wait --readonly is met by ext4's emergency read-only; --writable is not" {
	make_ext4 "" errors=remount-ro
	[ -e "/sys/fs/ext4/$LOOPNAME/trigger_fs_error" ] || skip "no trigger_fs_error in this kernel"
	start_watchq -t 10 wait --readonly "$T/fs"
	kill -0 "$WQ_PID"
	trigger_error
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
	# A later wait can only know if the kernel shows the state (6.1.y with the
	# SB_RDONLY backport shows neither ro nor emergency_ro: only the error event tells).
	grep -q " $T/fs .* \(ro\|.*,emergency_ro\)\(,\|$\)" /proc/self/mountinfo || return 0
	run --separate-stderr "$WATCHQ" -t 0.5 wait --writable "$T/fs"
	[ "$status" -eq 2 ]
	run --separate-stderr "$WATCHQ" -t 5 wait --readonly "$T/fs"
	[ "$status" -eq 0 ]
}

# twin_ext4 MOUNT_OPTS CLONE_MOUNT_OPTS: make_ext4, and a byte-for-byte copy of its
# image (the same UUID, so the same fsid) mounted on $T/clone from $CLONEDEV ($CLONENAME).
twin_ext4() {
	make_ext4 "" "$1"
	[ -e "/sys/fs/ext4/$LOOPNAME/trigger_fs_error" ] || skip "no trigger_fs_error in this kernel"
	umount "$T/fs"
	cp "$T/fs.img" "$T/clone.img"
	mount -t ext4 ${1:+-o "$1"} "$LOOPDEV" "$T/fs"
	mkdir "$T/clone"
	mount -t ext4 -o "loop${2:+,$2}" "$T/clone.img" "$T/clone"
	CLONEDEV=$(findmnt -n -o SOURCE "$T/clone")
	CLONENAME=${CLONEDEV##*/}
	[ "$(stat -f -c %i "$T/fs")" = "$(stat -f -c %i "$T/clone")" ]
	[ "$(stat -c %d "$T/fs")" != "$(stat -c %d "$T/clone")" ]
}

@test "sb error on a cloned filesystem (same UUID and fsid) reaches its own watch only" {
	twin_ext4 errors=continue errors=continue
	start_watchq --json -e error sb "$T/fs" "$T/clone"
	[[ "$(backend_used)" == fanotify,* ]] || skip "no fanotify error events here"
	echo clone >"/sys/fs/ext4/$CLONENAME/trigger_fs_error"
	wait_until lines_at_least 1
	trigger_error
	wait_until grep -q "\"watch\":\"$T/fs\"" "$T/out"
	stop_watchq
	[ "$(jq -c '[.watch, .device]' "$T/out")" = "[\"$T/clone\",\"$CLONEDEV\"]
[\"$T/fs\",\"$LOOPDEV\"]" ]
}

@test "sb readonly: emergency read-only of a clone is not claimed for its twin" {
	twin_ext4 errors=remount-ro errors=remount-ro
	start_watchq -e readonly sb "$T/fs" "$T/clone"
	echo clone >"/sys/fs/ext4/$CLONENAME/trigger_fs_error"
	wait_until lines_at_least 1
	mount -o remount,ro "$T/fs"
	wait_until lines_at_least 2
	stop_watchq
	[[ "$(sed -n 1p "$T/out")" == "sb readonly $T/clone ext4 $CLONEDEV "*" (was rw) "* ]]
	# The kernel turned the clone read-only without a call: nobody, though a remount follows.
	[[ "$(sed -n 1p "$T/out")" == *" (was rw) pid=- uid=- comm=-" ]]
	ro_line 2 "sb readonly $T/fs ext4 $LOOPDEV ro (was rw)" mount
	[ "$(wc -l <"$T/out")" -eq 2 ]
}

@test "wait --readonly E --writable F is not met by an error on F, E's clone" {
	twin_ext4 errors=remount-ro errors=continue
	start_watchq -t 1.5 wait --readonly "$T/fs" --writable "$T/clone"
	echo clone >"/sys/fs/ext4/$CLONENAME/trigger_fs_error"
	finish_watchq
	[ "$WQ_STATUS" -eq 2 ]
	run --separate-stderr "$WATCHQ" -t 5 wait --writable "$T/fs" --writable "$T/clone"
	[ "$status" -eq 0 ]
}

@test "sb readonly follows remount ro and rw" {
	make_ext4 "" ""
	start_watchq sb "$T/fs"
	mount -o remount,ro "$T/fs"
	wait_until lines_at_least 1
	mount -o remount,rw "$T/fs"
	wait_until lines_at_least 2
	stop_watchq
	ro_line 1 "sb readonly $T/fs ext4 $LOOPDEV ro (was rw)" mount
	ro_line 2 "sb readonly $T/fs ext4 $LOOPDEV rw (was ro)" mount
}

@test "sb readonly names the process whose remount made it, as it was at its call; --no-bpf nobody" {
	need_root
	mkdir "$T/a"
	mount -t tmpfs wq "$T/a"
	start_watchq --json sb "$T/a"
	need_sb_capture
	# Each renames itself after its call and exits: the name is the call's, the pid its own.
	"$ADV" name wq-ro remount "$T/a" ro name wq-later &
	p1=$!
	wait "$p1"
	wait_until grep -q '"event":"readonly"' "$T/out"
	"$ADV" name wq-rw remount "$T/a" rw name wq-later &
	p2=$!
	wait "$p2"
	wait_until lines_at_least 2
	stop_watchq
	jq -e -s --argjson p1 "$p1" --argjson p2 "$p2" 'length == 2 and
		(.[0] | .state == "ro" and .pid == $p1 and .comm == "wq-ro" and .uid == 0) and
		(.[1] | .state == "rw" and .pid == $p2 and .comm == "wq-rw" and .uid == 0)' "$T/out" ||
		{ cat "$T/out"; false; }
	start_watchq --json --no-bpf sb "$T/a"
	[[ "$(backend_used)" != *bpf* ]]
	"$ADV" name wq-ro remount "$T/a" ro
	wait_until lines_at_least 1
	stop_watchq
	jq -e '.state == "ro" and .pid == null and .comm == null and .uid == null' "$T/out"
}

@test "sb readonly: two filesystems remounted in one read are each named after their own call" {
	need_root
	mkdir "$T/a" "$T/b"
	mount -t tmpfs wq-a "$T/a"
	mount -t tmpfs wq-b "$T/b"
	start_watchq --json sb "$T/a" "$T/b"
	need_sb_capture
	kill -STOP "$WQ_PID"
	"$ADV" name wq-b remount "$T/b" ro
	"$ADV" name wq-a remount "$T/a" ro
	# A bind remount changes a mount, not the filesystem: no candidate for either.
	"$ADV" name wq-bind bindro "$T/b"
	kill -CONT "$WQ_PID"
	wait_until lines_at_least 2
	stop_watchq
	jq -e -s --arg a "$T/a" --arg b "$T/b" 'length == 2 and
		all(.state == "ro" and .uid == 0 and (.pid | type) == "number" and
		.comm == (if .watch == $a then "wq-a" elif .watch == $b then "wq-b" else "?" end))' \
		"$T/out" || { cat "$T/out"; false; }
}

@test "sb readonly: a remount from another mount namespace, whose target the capture cannot tell, names nobody" {
	need_root
	mkdir "$T/a" "$T/z"
	mount -t tmpfs wq "$T/a"
	start_watchq --json sb "$T/a"
	need_sb_capture
	# The same superblock, remounted from a private copy of the table: the only remount call
	# there is, yet not proof (a filesystem may also turn read-only by itself).
	unshare -m --propagation private "$ADV" name wq-other remount "$T/a" ro
	# That raises no signal here: a mount here makes watchq look.
	mount -t tmpfs zz "$T/z"
	wait_until grep -q '"event":"readonly"' "$T/out"
	stop_watchq
	jq -e '.state == "ro" and .pid == null and .comm == null' "$T/out" || { cat "$T/out"; false; }
}

@test "sb readonly ignores a read-only bind of the filesystem (a mount, not the superblock)" {
	need_root
	mkdir "$T/a" "$T/b"
	mount -t tmpfs wq "$T/a"
	start_watchq sb "$T/a"
	mount --bind -o ro "$T/a" "$T/b"
	mount -o remount,ro "$T/a"
	wait_until lines_at_least 1
	stop_watchq
	[ "$(wc -l <"$T/out")" -eq 1 ]
	ro_line 1 "sb readonly $T/a tmpfs wq ro (was rw)" mount
}

@test "sb lowspace: once below, once recovered, polled every --interval" {
	need_root
	mkdir "$T/small" "$T/probe"
	mount -t tmpfs -o size=4M wq "$T/small"
	mount -t tmpfs -o size=4M wq "$T/probe"
	start_watchq --json --interval 0.05 --space-below 25% sb "$T/small" "$T/probe"
	grep -q 'statvfs' "$T/err"
	fallocate -l 3400K "$T/small/a"
	wait_until lines_at_least 1
	# Further down, then back up to just above the threshold, inside the hysteresis band
	# (1 MiB to 1.1 MiB available): no step passes above the band, and no event is due.
	fallocate -l 200K "$T/small/b"
	rm "$T/small/b"
	fallocate -p -o 3000K -l 400K "$T/small/a"
	[ $(($(stat -f -c '%a' "$T/small") * $(stat -f -c '%S' "$T/small"))) -gt 1048576 ]
	# The probe's crossing is reported by a poll that also read small in the band.
	fallocate -l 3400K "$T/probe/a"
	wait_until lines_at_least 2
	rm "$T/small/a"
	wait_until lines_at_least 3
	stop_watchq
	[ "$(jq -s -c --arg p "$T/probe" '[.[] | select(.watch != $p) | .low]' "$T/out")" = "[true,false]" ]
	[ "$(jq -s -c --arg p "$T/probe" '[.[] | select(.watch == $p) | .low]' "$T/out")" = "[true]" ]
	jq_event lowspace '.size == 4194304 and .threshold == 1048576 and .path != null'
	jq -e -s --arg p "$T/probe" '[.[] | select(.watch != $p)] | .[0].avail < 1048576 and .[1].avail == 4194304' "$T/out"
}

@test "sb lowspace with a SIZE, and already low at start" {
	need_root
	mkdir "$T/small"
	mount -t tmpfs -o size=2M wq "$T/small"
	fallocate -l 1900K "$T/small/a"
	run --separate-stderr "$WATCHQ" -n 1 -t 5 --space-below 1M sb "$T/small"
	[ "$status" -eq 0 ]
	[[ "$output" == "sb lowspace $T/small tmpfs wq low avail="*" size=2097152 threshold=1048576" ]]
	# --format tells low from ok, with the bytes, as JSON does.
	run --separate-stderr "$WATCHQ" -q -n 1 -t 5 --space-below 1M --format '%e %l %a %z %b' sb "$T/small"
	[ "$status" -eq 0 ]
	[ "$output" = "lowspace low $(($(stat -f -c '%a * %S' "$T/small"))) 2097152 1048576" ]
}

@test "sb on filesystems that cannot report errors says so" {
	need_root
	mkdir "$T/a"
	mount -t tmpfs wq "$T/a"
	start_watchq sb "$T/a"
	grep -qx "watchq: $T/a (tmpfs) does not report errors (through Linux 6.18 only ext2, ext3 and ext4 do)" "$T/err"
	stop_watchq
	run --separate-stderr "$WATCHQ" -t 0.2 sb /proc
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"watchq: /proc (proc) cannot report errors: "* ]]
	# Only errors asked for, and none can come: unavailable, not a silent wait.
	run --separate-stderr "$WATCHQ" -t 0.2 -e error sb /proc
	[ "$status" -eq 69 ]
	[[ "$stderr" == *"sb: none of the events asked for can be had here"* ]]
}

@test "sb: a watched filesystem unmounted is a removal, exit 3" {
	need_root
	mkdir "$T/a"
	mount -t tmpfs wq "$T/a"
	start_watchq sb "$T/a"
	umount "$T/a"
	finish_watchq
	[ "$WQ_STATUS" -eq 3 ]
	[ "$(cat "$T/out")" = "meta removal sb $T/a filesystem unmounted" ]
}

@test "sb edquot outside the initial network namespace is named as unavailable" {
	need_root
	unshare -n true 2>/dev/null || skip "cannot create a network namespace"
	run --separate-stderr unshare -n "$WATCHQ" -t 0.2 sb "$T"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"quota warnings are unavailable: no VFS_DQUOT family here (the VFS_DQUOT netlink family exists only in the initial network namespace)"* ]]
	run --separate-stderr unshare -n "$WATCHQ" -t 0.2 -e edquot sb "$T"
	[ "$status" -eq 69 ]
}

@test "sb edquot: soft and hard block limits and back below, with uid and device" {
	command -v setquota >/dev/null || skip "quota tools not installed"
	make_ext4 "-O quota -E quotatype=usrquota" usrquota 2>/dev/null || skip "this kernel cannot mount ext4 with quotas"
	setquota -u 65534 40 80 0 0 "$T/fs" 2>/dev/null || skip "this kernel has no quota format"
	mkdir "$T/fs/d"
	chmod 1777 "$T/fs/d"
	start_watchq --json -e edquot sb "$T/fs"
	[[ "$(backend_used)" == *netlink* ]] || skip "no quota netlink here: $(cat "$T/err")"
	setpriv --reuid=65534 --regid=65534 --clear-groups dd if=/dev/zero of="$T/fs/d/f" bs=4k count=12 status=none
	wait_until lines_at_least 1
	run setpriv --reuid=65534 --regid=65534 --clear-groups dd if=/dev/zero of="$T/fs/d/g" bs=4k count=20 status=none
	[ "$status" -ne 0 ]
	wait_until lines_at_least 2
	rm -f "$T/fs/d/f" "$T/fs/d/g"
	wait_until grep -q block_soft_below "$T/out"
	stop_watchq
	[ "$(jq -s -c '[.[] | .warning][0:2]' "$T/out")" = '["block_soft","block_hard"]' ]
	jq -e -s '.[0:2] | all(.caused_id == 65534)' "$T/out"
	jq_event edquot ".quota_type == \"user\" and .id == 65534 and .device == \"$LOOPDEV\" and .path == \"$T/fs\""
}

@test "sb bad input: each a one-line usage error" {
	run --separate-stderr "$WATCHQ" sb
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: sb needs at least one PATH" ]
	run --separate-stderr "$WATCHQ" sb /nonexistent/x
	[ "$status" -eq 64 ]
	run --separate-stderr "$WATCHQ" --space-below 10% mounts /
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: --space-below applies to sb" ]
	for bare in 10 1.5; do
		run --separate-stderr "$WATCHQ" --space-below "$bare" sb /
		[ "$status" -eq 64 ]
		[ "$stderr" = "watchq: --space-below: '$bare' has no unit: PERCENT% or SIZE (10%, 10M, 10G)" ]
	done
	for bad in 0% 100% -1 10X 1.5.5 '' 10%% 1Mx 10Bx 10iB 0B; do
		run --separate-stderr "$WATCHQ" --space-below "$bad" sb /
		[ "$status" -eq 64 ]
		[[ "$stderr" == "watchq: --space-below: '$bad' is not a PERCENT% below 100 or a SIZE (512M, 2G)" ]]
	done
	run --separate-stderr "$WATCHQ" -e lowspace sb /
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: lowspace needs --space-below=PERCENT%|SIZE" ]
	run --separate-stderr "$WATCHQ" -e edquot mounts /
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: event 'edquot' does not apply to the sources watched" ]
}

@test "sb as an unprivileged user: errors named as unavailable, read-only polled; -e error alone exits 69" {
	need_root
	command -v setpriv >/dev/null || skip "setpriv missing"
	nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	run --separate-stderr nobody "$WATCHQ" -t 0.3 sb /
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"cannot report errors: Operation not permitted"* || "$stderr" == *"filesystem error events need Linux 5.16 and CAP_SYS_ADMIN"* ]]
	[[ "$stderr" == *"emergency read-only state is polled every 1s"* ]]
	run --separate-stderr nobody "$WATCHQ" -t 0.3 -e error sb /
	[ "$status" -eq 69 ]
}

@test "sb: a watched path removed or renamed away is a removal, exit 3 at once" {
	need_root
	touch "$T/f"
	start_watchq -t 20 sb "$T/f"
	rm "$T/f"
	finish_watchq
	[ "$WQ_STATUS" -eq 3 ]
	[ "$(cat "$T/out")" = "meta removal sb $T/f path removed" ]
	mkdir -p "$T/a/b"
	start_watchq -t 20 sb "$T/a/b"
	mv "$T/a" "$T/c"
	finish_watchq
	[ "$WQ_STATUS" -eq 3 ]
	[ "$(cat "$T/out")" = "meta removal sb $T/a/b path removed" ]
}
