#!/usr/bin/env bats
# The fanotify mount backend (Linux 6.15+): choice, fallback, privileges, overflow.
load helper

need_fanotify() {
	need_root
	kernel_at_least 6 15 || skip "fanotify mount events need Linux 6.15 (this is $(uname -r))"
}

@test "auto chooses fanotify on Linux 6.15+ as root" {
	need_fanotify
	WATCHQ_BACKEND= start_watchq mounts "$T"
	[ "$(backend_used)" = fanotify ]
	[ "$(wc -l <"$T/err")" -eq 1 ]
}

@test "auto on a kernel without fanotify mount events falls back with one line saying why" {
	need_root
	kernel_at_least 6 15 && skip "this kernel has fanotify mount events (the unprivileged case is tested below)"
	run --separate-stderr "$WATCHQ" -t 0.1 mounts "$T"
	[ "$status" -eq 2 ]
	[[ "${stderr_lines[0]}" == "watchq: fanotify mount events need Linux 6.15 and CAP_SYS_ADMIN (6.16+: in the mount namespace's user namespace): "*"; using mountinfo" ]]
	[[ "${stderr_lines[1]}" == *"(backend mountinfo)" ]]
	run --separate-stderr "$WATCHQ" --backend=fanotify mounts "$T"
	[ "$status" -eq 69 ]
}

@test "an unprivileged user in the initial namespace falls back to mountinfo; forcing fanotify exits 69" {
	need_fanotify
	command -v setpriv >/dev/null || skip "setpriv missing"
	nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	nobody "$WATCHQ" -q -t 0 mounts / || [ $? -eq 2 ] || skip "cannot run watchq as uid 65534 here"
	run --separate-stderr nobody "$WATCHQ" -t 0.1 mounts /
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "watchq: fanotify mount events need Linux 6.15 and CAP_SYS_ADMIN (6.16+: in the mount namespace's user namespace): Operation not permitted; using mountinfo" ]
	[ "${stderr_lines[1]}" = "watchq: watching mounts / (backend mountinfo)" ]
	run --separate-stderr nobody "$WATCHQ" --backend=fanotify mounts /
	[ "$status" -eq 69 ]
	[[ "$stderr" == *"fanotify mount events need Linux 6.15"* ]]
	# -q drops the note on the fallback and the readiness line.
	run --separate-stderr nobody "$WATCHQ" -q -t 0.1 mounts /
	[ "$status" -eq 2 ]
	[ -z "$stderr" ]
}

@test "inside unshare -Urm (Linux 6.16+) fanotify works without privilege" {
	need_fanotify
	kernel_at_least 6 16 || skip "mount namespace marks in user namespaces need Linux 6.16"
	unshare -Urm true 2>/dev/null || skip "user namespaces are not available here"
	cat >"$T/inner" <<-EOS
		mkdir -p "$T/a"
		"$WATCHQ" -n 1 mounts "$T" >"$T/out" 2>"$T/err" &
		until grep -q watching "$T/err" 2>/dev/null; do sleep 0.05; done
		mount -t tmpfs userns "$T/a"
		wait \$!
	EOS
	run timeout 20 unshare -Urm sh "$T/inner"
	[ "$status" -eq 0 ]
	[ "$(backend_used)" = fanotify ]
	[ "$(cat "$T/out")" = "mount mount $T/a tmpfs userns" ]
}

@test "a queue overflow is a loss event, then a resync reports the true state" {
	need_fanotify
	old=$(cat /proc/sys/fs/fanotify/max_queued_events)
	echo 16 >/proc/sys/fs/fanotify/max_queued_events
	start_watchq mounts "$T"
	echo "$old" >/proc/sys/fs/fanotify/max_queued_events
	kill -STOP "$WQ_PID"
	mkdir "$T/m" "$T/keep1" "$T/keep2"
	for i in $(seq 40); do
		mount -t tmpfs storm "$T/m"
		umount "$T/m"
	done
	mount -t tmpfs kept1 "$T/keep1"
	mount -t tmpfs kept2 "$T/keep2"
	kill -CONT "$WQ_PID"
	wait_until grep -q "^meta loss" "$T/out"
	wait_until grep -q "mount mount $T/keep2 tmpfs kept2" "$T/out"
	stop_watchq
	grep -q "^meta loss mounts $T events lost, resynchronised$" "$T/out"
	# After the loss: what is mounted now, and nothing that is not.
	sed -n '/^meta loss/,$p' "$T/out" >"$T/after"
	grep -qx "mount mount $T/keep1 tmpfs kept1" "$T/after"
	grep -qx "mount mount $T/keep2 tmpfs kept2" "$T/after"
	[ "$(grep -c "^mount mount $T/m " "$T/after")" -le "$(grep -c "^mount unmount $T/m " "$T/after")" ]
}

@test "a loss event in JSON has lost null, the backend, and the watch" {
	need_fanotify
	old=$(cat /proc/sys/fs/fanotify/max_queued_events)
	echo 4 >/proc/sys/fs/fanotify/max_queued_events
	start_watchq --json mounts "$T"
	echo "$old" >/proc/sys/fs/fanotify/max_queued_events
	kill -STOP "$WQ_PID"
	mkdir "$T/m"
	for i in $(seq 10); do mount -t tmpfs storm "$T/m"; umount "$T/m"; done
	kill -CONT "$WQ_PID"
	wait_until grep -q '"loss"' "$T/out"
	jq_event loss '.source == "meta" and .lost == null and .backend == "fanotify" and .watch == "'"$T"'" and .tag == 0'
}
