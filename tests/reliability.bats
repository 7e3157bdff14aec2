#!/usr/bin/env bats
# Nothing lost silently: a consumer that stops reading makes the kernel queue
# overflow; watchq says so, resynchronises, and waits without spinning.
load helper

# cpu_ticks PID: user + system clock ticks the process has used.
cpu_ticks() {
	awk '{ print $14 + $15 }' "/proc/$1/stat"
}

@test "slow consumer: queue overflow becomes loss, the resync matches the mount table, no CPU while blocked" {
	need_root
	kernel_at_least 6 15 || skip "fanotify mount events need Linux 6.15 (mountinfo merges instead of overflowing)"
	[ -w /proc/sys/fs/fanotify/max_queued_events ] || skip "cannot set fanotify's queue size here"
	# A small kernel queue, so that a pipe's worth of unread output overflows it quickly.
	RESTORE_SYSCTL="/proc/sys/fs/fanotify/max_queued_events $(cat /proc/sys/fs/fanotify/max_queued_events)"
	echo 64 >/proc/sys/fs/fanotify/max_queued_events
	mkdir -p "$T/d/m" "$T/d/k1" "$T/d/k2" "$T/d/k3"
	mkfifo "$T/fifo"
	"$WATCHQ" --backend=fanotify --format '%s %e %p' -e mount,unmount mounts "$T/d" >"$T/fifo" 2>"$T/err" &
	WQ_PID=$!
	exec 7<"$T/fifo"	# a reader that does not read
	wait_until grep -q '^watchq: watching' "$T/err"
	# Far more than a pipe holds (64 KiB), then some mounts that stay.
	for i in $(seq 1500); do mount -t tmpfs wq "$T/d/m"; umount "$T/d/m"; done
	for k in k1 k2 k3; do mount -t tmpfs wq "$T/d/$k"; done
	# Blocked on the full pipe, watchq must sleep: at most a tick of CPU in a second.
	sleep 0.3
	before=$(cpu_ticks "$WQ_PID") || { echo "watchq ended:"; cat "$T/err"; false; }
	sleep 1
	after=$(cpu_ticks "$WQ_PID") || { echo "watchq ended:"; cat "$T/err"; false; }
	[ $((after - before)) -le 1 ] || { echo "used $((after - before)) ticks while blocked"; false; }
	# Reading resumes.
	cat <&7 >"$T/out" &
	cat_pid=$!
	exec 7<&-
	wait_until grep -q "^mount mount $T/d/k3\$" "$T/out"
	sleep 0.3
	kill -TERM "$WQ_PID"
	finish_watchq
	wait $cat_pid || true
	[ "$WQ_STATUS" -eq 0 ]
	grep -q "^meta loss" "$T/out"
	# The net of what was reported is the real table: m unmounted, k1..k3 mounted.
	for p in m k1 k2 k3; do
		mounted=$(grep -c "^mount mount $T/d/$p\$" "$T/out" || true)
		unmounted=$(grep -c "^mount unmount $T/d/$p\$" "$T/out" || true)
		net=$((mounted - unmounted))
		want=$([ $p = m ] && echo 0 || echo 1)
		[ "$net" -eq "$want" ] || { echo "$p: net $net, want $want"; false; }
	done
	echo "# slow consumer: $(wc -l <"$T/out") lines for 3,006 operations, $(grep -c '^meta loss' "$T/out") loss, $((after - before)) CPU ticks in 1 s blocked, resync net matches the table" >&3
	# Every event after the loss line came from the resync or later: no line is garbled.
	run ! grep -v "^\(mount mount\|mount unmount\|meta loss\) " "$T/out"
}
