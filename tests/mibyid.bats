#!/usr/bin/env bats
# The mountinfo backend's table kept by id (src/sources/mibyid.c): with the capture, from Linux
# 6.8, a change is read from the kernel's ids, the calls the capture kept and the lines of the
# mounts made. Each case is one a read by id could get wrong; each compares its lines with
# those of the same backend without the capture (which reads the whole table at each change).
load helper

setup_file() {
	build_burst
	build_adv
}

# need_byid: the capture loads beside the mountinfo backend, and keeps its table by id here.
need_byid() {
	local err
	need_root
	err=$(WATCHQ_DEBUG=mountinfo "$WATCHQ" --backend=mountinfo -t 0 mounts / 2>&1 >/dev/null) || true
	case $err in
	*"(backend mountinfo+bpf:"*) ;;
	*) skip "no capture beside the mountinfo backend: ${err%%$'\n'*}" ;;
	esac
	[[ $err != *"the table is read whole"* ]] ||
		skip "no table by id here (no listmount(2) before Linux 6.8): ${err##*read whole: }"
}

eval "helper_$(declare -f teardown)"
teardown() {
	[ -z "${WHOLE_PID:-}" ] || kill "$WHOLE_PID" 2>/dev/null || true
	helper_teardown
}

# both ARGS...: watchq --json --backend=mountinfo ARGS... twice: by id ($T/out, $WQ_PID) and, with
# --no-bpf, reading the whole table ($T/whole, $WHOLE_PID).
both() {
	WATCHQ_DEBUG=mountinfo start_watchq --json --backend=mountinfo "$@"
	"$WATCHQ" --json --backend=mountinfo --no-bpf "$@" >"$T/whole" 2>"$T/whole.err" &
	WHOLE_PID=$!
	wait_until grep -q '^watchq: watching' "$T/whole.err"
}

# stop_both / cont_both: both watchers stopped while changes are made, so that each reads them
# as one.
stop_both() { kill -STOP "$WQ_PID" "$WHOLE_PID"; }
cont_both() { kill -CONT "$WQ_PID" "$WHOLE_PID"; }

# same N: both have N lines, alike but for who made them and the unique id.
same() {
	local strip='del(.time, .time_us, .pid, .comm, .uid, .unique_id, .cgroup)'
	wait_until lines_at_least "$1" "$T/out"
	wait_until lines_at_least "$1" "$T/whole"
	echo "--- by id"; cat "$T/out"; echo "--- whole"; cat "$T/whole"; echo "--- err"; cat "$T/err"
	[ "$(wc -l <"$T/out")" -eq "$1" ]
	[ "$(wc -l <"$T/whole")" -eq "$1" ]
	diff <(jq -S -c "$strip" "$T/out" | sort) <(jq -S -c "$strip" "$T/whole" | sort)
}

# by_id_reads: how many reads of the last run were by id, and whole.
by_id_reads() { grep -c 'mountinfo: by id: [0-9]* made' "$T/err" || true; }
whole_reads() { grep -c 'mountinfo: re-read the table' "$T/err" || true; }

@test "by id: mounts and unmounts at 1,000 mounts cost statmount(2) calls of the changes, not of the table, and name their process" {
	need_byid
	command -v strace >/dev/null || skip "no strace"
	mkdir -p "$T/m" "$T/a"
	"$BURST" populate "$T/m" 1000
	WATCHQ_DEBUG=mountinfo start_traced -- --json --backend=mountinfo mounts "$T"
	: >"$T/strace"
	for i in $(seq 20); do
		"$ADV" name wq-pair mount "$T/a"
		wait_until lines_at_least $((2 * i - 1))
		"$ADV" name wq-pair umount "$T/a"
		wait_until lines_at_least $((2 * i))
	done
	stop_traced
	cat "$T/out"
	[ "$(wc -l <"$T/out")" -eq 40 ]
	jq -e -s 'all(.[]; .comm == "wq-pair" and .uid == 0)' "$T/out"
	# A read of the whole table is a statmount(2) a mount, 1,000 here: per pair, one for the
	# mount made and one for the mount gone, and a few more.
	echo "statmount calls for 20 pairs: $(statmounts)"
	[ "$(statmounts)" -lt 200 ]
	[ "$(whole_reads)" -eq 0 ]
	[ "$(by_id_reads)" -ge 40 ]
}

@test "by id: an unmount that propagates to a peer, with no call at its place, is reported" {
	need_byid
	mkdir -p "$T/p1" "$T/p2"
	mount -t tmpfs pp "$T/p1"
	mount --make-shared "$T/p1"
	mount --bind "$T/p1" "$T/p2"
	mkdir "$T/p1/a"
	both mounts "$T"
	mount -t tmpfs x "$T/p1/a"
	wait_until lines_at_least 2 "$T/out"
	wait_until lines_at_least 2 "$T/whole"
	stop_both
	umount "$T/p1/a"
	cont_both
	same 4
	# The count told: every id was listed.
	grep -q 'every id listed' "$T/err"
}

@test "by id: an unmount by a chrooted process (its path is not ours) and a lazy unmount of a tree are reported" {
	need_byid
	mkdir -p "$T/r/x" "$T/l"
	mount -t tmpfs root "$T/r"
	mkdir -p "$T/r/x"
	mount -t tmpfs inner "$T/r/x"
	mount -t tmpfs l "$T/l"
	mkdir -p "$T/l/a"
	mount -t tmpfs la "$T/l/a"
	both mounts "$T"
	stop_both
	"$ADV" chroot "$T/r" umount /x
	"$ADV" lazy "$T/l"
	cont_both
	same 3
}

@test "by id: a flip, a move and a tree attached from a clone are read whole, and reported" {
	need_byid
	mkdir -p "$T/a" "$T/b" "$T/c" "$T/d" "$T/src"
	mount -t tmpfs a "$T/a"
	mount -t tmpfs c "$T/c"
	mount -t tmpfs s "$T/src"
	both mounts "$T"
	stop_both
	"$ADV" bindro "$T/a" move "$T/c" "$T/b" clonemove "$T/src" "$T/d"
	cont_both
	same 3
	[ "$(whole_reads)" -ge 1 ]
}

@test "by id: a master unmounted hands its slave on: the slave's propagation change is reported" {
	need_byid
	mkdir -p "$T/m" "$T/s" "$T/s2"
	mount -t tmpfs m "$T/m"
	mount --make-shared "$T/m"
	mount --bind "$T/m" "$T/s"
	mount --make-slave "$T/s"
	both mounts "$T"
	mount --bind "$T/m" "$T/s2"
	wait_until lines_at_least 1 "$T/out"
	wait_until lines_at_least 1 "$T/whole"
	stop_both
	# s2 is the master's peer: with m gone, s keeps s2's group as its master (no change); with
	# s2 gone too, s is a slave of no one.
	umount "$T/m"
	umount "$T/s2"
	cont_both
	same 4
}

@test "by id: two unmounts at one place, one of a mount never read, and a copy gone by propagation" {
	need_byid
	mkdir -p "$T/p1" "$T/p2" "$T/t"
	mount -t tmpfs pp "$T/p1"
	mount --make-shared "$T/p1"
	mount --bind "$T/p1" "$T/p2"
	mkdir "$T/p1/a"
	mount -t tmpfs x "$T/p1/a"
	mount -t tmpfs t "$T/t"
	both mounts "$T"
	stop_both
	# One mount made and gone at t (its id never listed), an unmount of the mount on t, and
	# p2/a gone with p1/a by propagation: by count, two gone where one call names one place.
	"$ADV" mount "$T/t" umount "$T/t" umount "$T/t" umount "$T/p1/a"
	cont_both
	same 3
}

# x_then_y SOURCE: a tmpfs of SOURCE on x, read by both; then, while both are stopped, x unmounted
# and adv's tmpfs mounted on y. The kernel hands out the lowest free mountinfo id and anonymous
# device number: y may take x's. Both have read it once each has a mount made after it. $old and
# $new: x's and y's id and device.
x_then_y() {
	mkdir -p "$T/x" "$T/y" "$T/zz"
	mount -t tmpfs -o size=4k "$1" "$T/x"
	old=$(findmnt -n -o ID,MAJ:MIN "$T/x")
	both mounts "$T"
	stop_both
	"$ADV" umount "$T/x" mount "$T/y"
	cont_both
	mount -t tmpfs sentinel "$T/zz"
	wait_until grep -q sentinel "$T/out"
	wait_until grep -q sentinel "$T/whole"
	new=$(findmnt -n -o ID,MAJ:MIN "$T/y")
	echo "x had $old; y has $new"
}

@test "by id: a mountinfo id taken again between two reads (an unmount, then a mount elsewhere)" {
	need_byid
	x_then_y x
	same "$(wc -l <"$T/whole")"
}

@test "by id: a mount id and a device taken again between two reads are an unmount and a mount, not a move" {
	need_byid
	# As adv mounts one: the same source, type and root. Only the unique ids tell the two apart.
	x_then_y adv
	[ "$old" = "$new" ] || skip "y has another id or device than x had ($old, then $new): taken elsewhere"
	echo "--- by id"; cat "$T/out"; echo "--- whole"; cat "$T/whole"
	# The text alone takes it for a move (watchq-backends(7)).
	jq -e -s --arg y "$T/y" 'map(select(.event == "move" and .path == $y)) | length == 1' "$T/whole"
	jq -e -s 'map(select(.event == "move")) | length == 0' "$T/out"
	jq -e -s --arg x "$T/x" 'map(select(.event == "unmount" and .path == $x)) | length == 1' "$T/out"
	jq -e -s --arg y "$T/y" 'map(select(.event == "mount" and .path == $y)) | length == 1' "$T/out"
}
