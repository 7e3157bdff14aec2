#!/usr/bin/env bats
# The fanotify mount backend (Linux 6.15+): choice, fallback, privileges, overflow.
load helper

setup_file() {
	build_burst
}

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
	# The capture loads beside mountinfo where the kernel has BTF (the 6.12 test kernel).
	[[ "${stderr_lines[1]}" =~ \(backend\ mountinfo(\+bpf:[a-z-]+)?\)$ ]]
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
	# No pidfds without CAP_SYS_ADMIN, and the kernel hides other processes' pids from such a group.
	[ "$(cat "$T/out")" = "mount mount $T/a tmpfs userns pid=- uid=- comm=-" ]
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
	# After the loss: what is mounted now, and nothing that is not; a resync knows nobody.
	sed -n '/^meta loss/,$p' "$T/out" >"$T/after"
	grep -qx "mount mount $T/keep1 tmpfs kept1 pid=- uid=- comm=-" "$T/after"
	grep -qx "mount mount $T/keep2 tmpfs kept2 pid=- uid=- comm=-" "$T/after"
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

@test "who: without the capture, a process gone before watchq read its record is named by its pid alone" {
	need_fanotify
	mkdir "$T/a"
	start_watchq --no-bpf --json mounts "$T"
	kill -STOP "$WQ_PID"
	"$BURST" as wq-gone mount wq "$T/a" &
	gone=$!
	wait "$gone"
	kill -CONT "$WQ_PID"
	wait_until lines_at_least 1
	stop_watchq
	jq_event mount ".pid == $gone and .comm == null and .uid == null"
}

# fan_flags PID: the flags watchq's fanotify group was made with, as its fdinfo has them (hex).
fan_flags() {
	local fd
	for fd in /proc/"$1"/fd/*; do
		if [ "$(readlink "$fd")" = "anon_inode:[fanotify]" ]; then
			sed -n 's/^fanotify flags:\([0-9a-f]*\) .*/\1/p' "/proc/$1/fdinfo/${fd##*/}"
			return
		fi
	done
}

has_fan() {
	[ -n "$(fan_flags "$1")" ]
}

@test "who: pidfds are asked of the kernel only where the output shows who made a change" {
	need_fanotify
	for args in "mounts $T" "--json mounts $T" "--format %c mounts $T" "--format %e:%p mounts $T" \
		"-qq mounts $T" "wait --unmount $T"; do
		# shellcheck disable=SC2086
		"$WATCHQ" --backend=fanotify $args >/dev/null 2>&1 &
		WQ_PID=$!
		wait_until has_fan "$WQ_PID"
		flags=$(fan_flags "$WQ_PID")
		stop_watchq
		case $args in
		--format?%e*|-qq*|wait*) [ $((0x$flags & 0x80)) -eq 0 ] || { echo "$args: FAN_REPORT_PIDFD"; false; } ;;
		*) [ $((0x$flags & 0x80)) -ne 0 ] || { echo "$args: no FAN_REPORT_PIDFD"; false; } ;;
		esac
	done
}

@test "who: a process renamed between its mount and its unmount is named as it was at each call" {
	need_fanotify
	mkdir "$T/a"
	start_watchq --json mounts "$T"
	: >"$T/held"
	"$BURST" renamed wq-first wq-second "$T/a" >"$T/held" &
	HELD=$!
	HOLDERS="${HOLDERS:-} $HELD"
	wait_until lines_at_least 1
	kill -USR1 "$HELD"
	wait_until held_or_dead
	wait_until lines_at_least 2
	stop_watchq
	# Each name was the process's at its call: the unmount came after the rename.
	jq_event mount ".pid == $HELD and .comm == \"wq-first\" and .uid == 0"
	jq_event unmount ".pid == $HELD and .comm == \"wq-second\" and .uid == 0"
}

@test "who: without the capture, a pid taken again by another process never lends it its name" {
	need_fanotify
	# pid_max of a pid namespace of its own (Linux 6.14), where pids come round quickly.
	cat >"$T/inner" <<-EOS
		echo 400 >/proc/sys/kernel/pid_max || exit 77
		mkdir "$T/w"
		"$WATCHQ" --no-bpf --json mounts "$T/w" >"$T/out" 2>"$T/err" &
		wq=\$!
		until grep -q watching "$T/err"; do sleep 0.05; done
		# Pids below 300 are never given again: go past them.
		"$BURST" churn wq-reuser 300
		# Stopped: each mounter has gone, and its pid is another process's, before watchq reads.
		kill -STOP \$wq
		for i in 1 2 3 4 5; do
			mkdir "$T/w/\$i"
			"$BURST" as wq-mounter mount wq "$T/w/\$i" &
			m=\$!
			wait \$m
			"$BURST" reuse \$m wq-reuser || exit 1
			# burst returns once the pid is taken, maybe before the child has named itself.
			until [ "\$(cat /proc/\$m/comm)" = wq-reuser ]; do sleep 0.05; done
			echo "\$m \$(cat /proc/\$m/comm)" >>"$T/reused"
		done
		kill -CONT \$wq
		until [ "\$(grep -c '"mount"' "$T/out")" -ge 5 ]; do sleep 0.05; done
		# Running: mounters that exit at once while pids go round under them.
		"$BURST" churn wq-reuser 100000000 &
		churn=\$!
		for i in \$(seq 6 200); do
			mkdir "$T/w/\$i"
			"$BURST" as wq-mounter mount wq "$T/w/\$i"
			"$BURST" as wq-mounter umount "$T/w/\$i"
		done
		kill \$churn
		mkdir "$T/w/end"
		"$BURST" as wq-mounter mount wq "$T/w/end"
		until grep -q '"path":"$T/w/end"' "$T/out"; do sleep 0.05; done
		kill \$wq
	EOS
	run timeout 120 unshare -m -p -f --mount-proc bash "$T/inner"
	[ "$status" -ne 77 ] || skip "pid_max cannot be set in a pid namespace here"
	[ "$status" -eq 0 ] || { echo "status $status: $output"; cat "$T/err"; false; }
	[ "$status" -eq 0 ]
	# The first five: their pids were reused, and watchq read nothing of them but the pid.
	[ "$(wc -l <"$T/reused")" -eq 5 ]
	[ "$(cut -d ' ' -f 2 "$T/reused" | sort -u)" = wq-reuser ]
	jq -e -s --argjson p "$(cut -d ' ' -f 1 "$T/reused" | jq -s .)" \
		'[.[] | select(.event == "mount")][:5] | map(.pid) == $p and all(.comm == null and .uid == null)' "$T/out"
	# Every name given is the mounter's; only those of mounters still there when read.
	named=$(jq -s '[.[] | select(.event == "mount" or .event == "unmount") | select(.comm != null)] | length' "$T/out")
	echo "# $named of $(jq -s '[.[] | select(.event == "mount" or .event == "unmount")] | length' "$T/out") records named their process" >&3
	jq -e -s 'all(.[] | select(.event == "mount" or .event == "unmount");
		(.pid | type) == "number" and (.comm == null or .comm == "wq-mounter") and (.uid == null or .uid == 0))' "$T/out"
}

# comm_names: process names no terminal or parser should choke on, in printf %b form (15 bytes at most).
comm_names() {
	printf '%s\n' 'with space' 'new\nline' '-' '' 'back\\slash' 'pid=1 uid=0' 'x comm=y' \
		'bad\xffutf8' 'ctl\x01x' 'c1\xc2\x9bx' 'tab\there' 'ütf8'
}

@test "who: hostile process names, one word at the end of the line and exact bytes back, in text and JSON" {
	need_fanotify
	for mode in text json; do
		if [ $mode = json ]; then start_watchq --json mounts "$T"; else start_watchq mounts "$T"; fi
		i=0
		while IFS= read -r name; do
			i=$((i + 1))
			mkdir -p "$T/$mode$i"
			hold "$name" mount wq "$T/$mode$i"
			wait_until lines_at_least "$i"
		done < <(comm_names)
		stop_watchq
		kill $HOLDERS
		wait $HOLDERS 2>/dev/null || true
		HOLDERS=
		[ "$(wc -l <"$T/out")" -eq "$i" ]
		i=0
		while IFS= read -r name; do
			i=$((i + 1))
			line=$(sed -n "${i}p" "$T/out")
			want=$(printf '%b' "$name" | od -An -tx1)
			if [ $mode = text ]; then
				[[ "$line" == "mount mount $T/$mode$i tmpfs wq pid="[0-9]*" uid=0 comm="* ]] || { echo "$line"; false; }
				comm=${line##* comm=}
				[ "$comm" != - ]
				got=$(printf '%b' "$comm" | od -An -tx1)
			else
				got=$(json_bytes comm "$line")
			fi
			[ "$got" = "$want" ] || { echo "$mode $name: $got != $want: $line"; false; }
		done < <(comm_names)
	done
}

@test "WATCHQ_DEBUG: a line per decision on stderr, output unchanged; an unknown area is one line, exit 64" {
	need_fanotify
	run --separate-stderr env WATCHQ_DEBUG=rescan,nope "$WATCHQ" -t 0 mounts /
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: WATCHQ_DEBUG: unknown area 'nope' (fanotify, rescan, capture, group, mountinfo, ns, keys, all)" ]
	[ -z "$output" ]
	run env WATCHQ_DEBUG=help "$WATCHQ" mounts /
	[ "$status" -eq 0 ]
	[[ "$output" == *"rescan     why a re-read of the watched mounts ran, was owed or held back"* ]]
	mkdir "$T/a"
	WATCHQ_DEBUG=fanotify,rescan start_watchq --backend=fanotify -n 2 -e mount,unmount mounts "$T"
	mount -t tmpfs wq "$T/a"
	umount "$T/a"
	wait_until lines_at_least 2
	finish_watchq
	[ "$(wc -l <"$T/out")" -eq 2 ]
	grep -q "^watchq: debug: [0-9]*\.[0-9]\{6\} fanotify: record: attach mount [0-9]*, pid [0-9]*$" "$T/err"
	grep -q "^watchq: debug: [0-9.]* fanotify: record: detach mount " "$T/err"
	grep -q "^watchq: debug: [0-9.]* rescan: ours: wake: signal [01], records 1, " "$T/err"
	# Areas not asked for say nothing.
	run ! grep -q " capture: " "$T/err"
}
