#!/usr/bin/env bats
# watchq -N: the mount table of other mount namespaces, made with unshare -m
# and kept alive by a sleeping process, on every mount backend this kernel has.
load helper

setup_file() {
	# fanotify where this kernel and these privileges have it; mountinfo always.
	BACKENDS=mountinfo
	if "$BATS_TEST_DIRNAME/../watchq" -qq -t 0 --backend=fanotify mounts / >/dev/null 2>&1 ||
	    [ $? -ne 69 ]; then
		BACKENDS="fanotify mountinfo"
	fi
	export BACKENDS
	# Every process of these tests is in the cgroup of the suite: text lines end with it.
	CG=$(sed -n 's/^0:://p' /proc/self/cgroup)
	export CG=${CG:--}
}

# in_new_ns PID: PID's mount namespace is no longer ours (unshare(2) has run).
in_new_ns() {
	[ "$(readlink "/proc/$1/ns/mnt" 2>/dev/null)" != "$(readlink /proc/self/ns/mnt)" ] &&
		[ -n "$(readlink "/proc/$1/ns/mnt" 2>/dev/null)" ]
}

# new_ns [CMD...]: a process in a new private mount namespace (CMD, default a
# long sleep), its pid in $NS (and in NS_PIDS, for teardown), once it is there.
new_ns() {
	[ $# -gt 0 ] || set -- sleep 1000
	# None of bats's fds: it would wait for them to close.
	unshare -m --propagation private "$@" </dev/null >/dev/null 2>&1 3>&- &
	NS=$!
	NS_PIDS="${NS_PIDS:-} $NS"
	wait_until in_new_ns "$NS"
}

# two_ns: two processes in new namespaces of their own: pids in A and B, namespace inodes in ia and ib.
two_ns() {
	new_ns
	A=$NS
	new_ns
	B=$NS
	ia=$(ns_ino "$A")
	ib=$(ns_ino "$B")
}

# ns_ino PID: the inode number of PID's mount namespace.
ns_ino() {
	stat -L -c %i "/proc/$1/ns/mnt"
}

# in_ns PID CMD...: run CMD in PID's mount namespace.
in_ns() {
	local pid=$1
	shift
	nsenter -t "$pid" -m "$@"
}

# watch_on BACKEND ARGS...: start watchq on BACKEND.
watch_on() {
	local be=$1
	shift
	WATCHQ_BACKEND=$be start_watchq "$@"
}

# sentinel_in PID DIR: mount a tmpfs "sentinel" on DIR/sentinel in PID's
# namespace (ours: PID -) and wait for its line: everything before it is handled.
sentinel_in() {
	mkdir -p "$2/sentinel"
	if [ "$1" = - ]; then
		mount -t tmpfs sentinel "$2/sentinel"
	else
		in_ns "$1" mount -t tmpfs sentinel "$2/sentinel"
	fi
	wait_until grep -q "sentinel" "$T/out"
}

@test "-N: the namespace's mounts are seen and ours are not; without -N, the other way round" {
	need_root
	mkdir "$T/a" "$T/b"
	new_ns
	ino=$(ns_ino "$NS")
	for be in $BACKENDS; do
		watch_on "$be" -N "$NS" mounts "$T"
		grep -qx "watchq: watching mounts $T in mnt:\[$ino\] of pid $NS (backend $be)" "$T/err"
		mount -t tmpfs ours "$T/b"
		in_ns "$NS" mount -t tmpfs theirs "$T/a"
		sentinel_in "$NS" "$T"
		stop_watchq
		[ "$WQ_STATUS" -eq 0 ]
		[ "$(unmarked)" = "mount mount $T/a tmpfs theirs ns=$ino cgroup=$CG
mount mount $T/sentinel tmpfs sentinel ns=$ino cgroup=$CG" ] || { echo "$be:"; cat "$T/out"; false; }
		umount "$T/b"
		in_ns "$NS" umount "$T/a" "$T/sentinel"

		watch_on "$be" mounts "$T"
		in_ns "$NS" mount -t tmpfs theirs "$T/a"
		mount -t tmpfs ours "$T/b"
		sentinel_in - "$T"
		stop_watchq
		[ "$(unmarked)" = "mount mount $T/b tmpfs ours
mount mount $T/sentinel tmpfs sentinel" ] || { echo "$be:"; cat "$T/out"; false; }
		umount "$T/b" "$T/sentinel"
		in_ns "$NS" umount "$T/a"
	done
}

@test "-N with --initial and --json: the namespace's mounts, mnt_ns its inode, the same on every backend" {
	need_root
	mkdir "$T/a" "$T/b"
	new_ns
	ino=$(ns_ino "$NS")
	in_ns "$NS" mount -t tmpfs theirs "$T/a"
	mount -t tmpfs ours "$T/b"
	for be in $BACKENDS; do
		run --separate-stderr "$WATCHQ" --backend="$be" -t 0.2 --initial -j -N "$NS" mounts "$T"
		[ "$status" -eq 2 ]
		echo "$output" | jq -c '[.event, .path, .device, .mnt_ns]' >"$T/$be"
		[ "$(cat "$T/$be")" = "[\"present\",\"$T\",\"watchq-test\",$ino]
[\"present\",\"$T/a\",\"theirs\",$ino]" ] || { echo "$be:"; cat "$T/$be"; false; }
		# Without -N, mnt_ns is ours.
		run --separate-stderr "$WATCHQ" --backend="$be" -t 0.1 --initial -j mounts "$T/b"
		[ "$(echo "$output" | jq -r .mnt_ns)" = "$(stat -L -c %i /proc/self/ns/mnt)" ]
	done
}

@test "-N with wait: --mount and --unmount are asked of the namespace, not of ours" {
	need_root
	mkdir "$T/a"
	new_ns
	for be in $BACKENDS; do
		# Mounted here, not there: no answer.
		mount -t tmpfs ours "$T/a"
		run --separate-stderr "$WATCHQ" --backend="$be" -t 0.2 wait -N "$NS" --mount "$T/a"
		[ "$status" -eq 2 ]
		umount "$T/a"
		watch_on "$be" wait -N "$NS" --mount "$T/a"
		grep -qx "watchq: waiting for --mount $T/a in mnt:\[$(ns_ino "$NS")\] of pid $NS (backend $be)" "$T/err"
		in_ns "$NS" mount -t tmpfs theirs "$T/a"
		finish_watchq
		[ "$WQ_STATUS" -eq 0 ]
		run "$WATCHQ" --backend="$be" -q -t 0 wait -N "$NS" --mount "$T/a"
		[ "$status" -eq 0 ]
		watch_on "$be" wait -N "$NS" --unmount "$T/a"
		in_ns "$NS" umount "$T/a"
		finish_watchq
		[ "$WQ_STATUS" -eq 0 ]
	done
}

@test "-N with wait --mounted and --unmounted: looked for in the namespace's table, the record names it" {
	need_root
	mkdir "$T/a" "$T/b"
	new_ns
	ino=$(ns_ino "$NS")
	in_ns "$NS" mount -t tmpfs theirs "$T/a"
	mount -t tmpfs ours "$T/b"
	for be in $BACKENDS; do
		run --separate-stderr "$WATCHQ" --backend="$be" -t 5 --format '%#p %N' wait -N "$NS" --mounted theirs mounts "$T"
		[ "$status" -eq 0 ] || { echo "$be: $status $stderr"; false; }
		[ "$output" = "$T/a $ino" ]
		# Mounted here, not there: no answer.
		run --separate-stderr "$WATCHQ" --backend="$be" -t 0.2 wait -N "$NS" --mounted ours
		[ "$status" -eq 2 ]
		run --separate-stderr "$WATCHQ" --backend="$be" -t 5 wait -N "$NS" --unmounted ours
		[ "$status" -eq 0 ]
		watch_on "$be" wait -N "$NS" --unmounted theirs mounts "$T"
		grep -qx "watchq: waiting for --unmounted theirs at or below $T in mnt:\[$ino\] of pid $NS (backend $be)" "$T/err"
		in_ns "$NS" umount "$T/a"
		finish_watchq
		[ "$WQ_STATUS" -eq 0 ]
		watch_on "$be" --format '%#p %N' wait -N "$NS" --mounted theirs
		in_ns "$NS" mount -t tmpfs theirs "$T/a"
		finish_watchq
		[ "$WQ_STATUS" -eq 0 ]
		[ "$(cat "$T/out")" = "$T/a $ino" ]
	done
}

@test "several -N: each event, present record and the readiness line name their own namespace" {
	need_root
	mkdir "$T/a" "$T/b"
	two_ns
	[ "$ia" != "$ib" ]
	for be in $BACKENDS; do
		watch_on "$be" -N "$A" -N "$B" mounts "$T"
		grep -qx "watchq: watching mounts $T in mnt:\[$ia\] of pid $A (backend $be), mounts $T in mnt:\[$ib\] of pid $B (backend $be)" "$T/err"
		in_ns "$A" mount -t tmpfs in-a "$T/a"
		in_ns "$B" mount -t tmpfs in-b "$T/b"
		wait_until grep -q in-a "$T/out"
		wait_until grep -q in-b "$T/out"
		stop_watchq
		[ "$(unmarked | sort)" = "$(printf '%s\n' "mount mount $T/a tmpfs in-a ns=$ia cgroup=$CG" "mount mount $T/b tmpfs in-b ns=$ib cgroup=$CG" | sort)" ] ||
			{ echo "$be:"; cat "$T/out"; false; }
		# JSON: the same tag for the one TARGET in both namespaces, mnt_ns tells them apart.
		run --separate-stderr "$WATCHQ" --backend="$be" -t 0.2 --initial -j -N "$A" -N "$B" mounts "$T"
		[ "$status" -eq 2 ]
		[ "$(echo "$output" | jq -r 'select(.path != "'"$T"'") | "\(.tag) \(.mnt_ns) \(.device)"' | sort)" = "$(printf '%s\n' "0 $ia in-a" "0 $ib in-b" | sort)" ]
		in_ns "$A" umount "$T/a"
		in_ns "$B" umount "$T/b"
	done
}

@test "several -N on the backend watchq picks: each mount in its own namespace, standard input kept" {
	need_root
	mkdir "$T/a" "$T/b"
	two_ns
	# Where fanotify cannot be opened, each source falls back to mountinfo: the fallback once
	# closed fd 0, and the next source's mountinfo took that fd from the one before it. A
	# command run in the background has its standard input on /dev/null.
	WATCHQ_BACKEND= start_watchq -N "$A" -N "$B" mounts "$T"
	[ "$(readlink "/proc/$WQ_PID/fd/0")" = /dev/null ]
	in_ns "$A" mount -t tmpfs in-a "$T/a"
	in_ns "$B" mount -t tmpfs in-b "$T/b"
	wait_until grep -q in-a "$T/out"
	wait_until grep -q in-b "$T/out"
	stop_watchq
	[ "$(unmarked | sort)" = "$(printf '%s\n' "mount mount $T/a tmpfs in-a ns=$ia cgroup=$CG" \
	    "mount mount $T/b tmpfs in-b ns=$ib cgroup=$CG" | sort)" ] || { cat "$T/out"; false; }
}

@test "the namespace going away (its last process exits) is a removal, then exit 3; a wait exits 3; so is a directory removed there" {
	need_root
	for be in $BACKENDS; do
		new_ns
		ino=$(ns_ino "$NS")
		watch_on "$be" -N "$NS" mounts "$T"
		kill "$NS"
		finish_watchq
		[ "$WQ_STATUS" -eq 3 ]
		[ "$(cat "$T/out")" = "meta removal mounts $T mount namespace is gone: no process is left in it ns=$ino cgroup=$CG" ]

		new_ns
		watch_on "$be" wait -N "$NS" --mount "$T/nothing"
		kill "$NS"
		finish_watchq
		[ "$WQ_STATUS" -eq 3 ]
		new_ns
		watch_on "$be" wait -N "$NS" --mounted nothing
		kill "$NS"
		finish_watchq
		[ "$WQ_STATUS" -eq 3 ]
		[ ! -s "$T/out" ]

		# A watched directory removed there, with no mount change: at once, as in our own namespace.
		new_ns
		mkdir "$T/d" "$T/e"
		watch_on "$be" -N "$NS" mounts "$T/d" "$T/e"
		rmdir "$T/d"
		wait_until grep -q "^meta removal mounts $T/d watched directory is gone ns=$(ns_ino "$NS") cgroup=$CG$" "$T/out"
		rmdir "$T/e"
		finish_watchq
		[ "$WQ_STATUS" -eq 3 ]
		kill "$NS"
	done
}

@test "several -N: one namespace going away leaves the others watched; the last, exit 3" {
	need_root
	mkdir "$T/b"
	for be in $BACKENDS; do
		two_ns
		watch_on "$be" -N "$A" -N "$B" mounts "$T"
		kill "$A"
		wait_until grep -q "^meta removal mounts $T mount namespace is gone: no process is left in it ns=$ia cgroup=$CG$" "$T/out"
		in_ns "$B" mount -t tmpfs in-b "$T/b"
		wait_until unmarked_has "mount mount $T/b tmpfs in-b ns=$ib cgroup=$CG"
		kill -0 "$WQ_PID"
		kill "$B"
		finish_watchq
		[ "$WQ_STATUS" -eq 3 ]
		[ "$(wc -l <"$T/out")" -eq 3 ]
		[ "$(tail -n 1 "$T/out")" = "meta removal mounts $T mount namespace is gone: no process is left in it ns=$ib cgroup=$CG" ]
	done
}

@test "-N follows another process of the namespace when the one it followed exits; NSFILE as an fd" {
	need_root
	mkdir "$T/a"
	for be in $BACKENDS; do
		new_ns
		first=$NS
		ino=$(ns_ino "$NS")
		nsenter -t "$first" -m sleep 1000 </dev/null >/dev/null 2>&1 3>&- &
		second=$!
		NS_PIDS="$NS_PIDS $second"
		wait_until in_new_ns "$second"
		# A process of ours holds the namespace's file open: -N /proc/PID/fd/N names it.
		sleep 1000 3<"/proc/$first/ns/mnt" </dev/null >/dev/null 2>&1 &
		holder=$!
		NS_PIDS="$NS_PIDS $holder"
		# Until the redirection is made, its fd 3 is another file.
		wait_until test "$(stat -L -c %i "/proc/$holder/fd/3" 2>/dev/null)" = "$ino"
		watch_on "$be" -j -N "/proc/$holder/fd/3" mounts "$T"
		grep -Eq " in mnt:\[$ino\] of pid ($first|$second) " "$T/err"
		kill "$first"
		in_ns "$second" mount -t tmpfs still "$T/a"
		wait_until grep -q '"device":"still"' "$T/out"
		kill "$second"
		finish_watchq
		[ "$WQ_STATUS" -eq 3 ]
		[ "$(jq -r '[.event, .mnt_ns] | @tsv' "$T/out")" = "$(printf 'mount\t%s\nremoval\t%s' "$ino" "$ino")" ]
		# Held by our fd alone, it has no process: not ours to watch through one.
		run --separate-stderr "$WATCHQ" --backend="$be" -N "/proc/$holder/fd/3" mounts /
		[ "$status" -eq 69 ]
		[ "$stderr" = "watchq: -N /proc/$holder/fd/3: no process is in this mount namespace (watchq sees one through a process in it)" ]
		kill "$holder"
	done
}

@test "a chrooted process: paths are as it sees them, TARGETs and wait paths are looked up from its root, the same on every backend" {
	need_root
	# A root with /usr bound in, so that sleep runs in it.
	mkdir -p "$T/root/usr" "$T/root/data" "$T/root/more"
	mount --rbind /usr "$T/root/usr"
	for d in bin lib lib64 sbin; do
		if [ -e "/$d" ]; then ln -s "usr/$d" "$T/root/$d"; fi
	done
	chroot "$T/root" sleep 0 || skip "sleep does not run in a chroot of /usr alone (no merged /usr)"
	ln -s /data "$T/root/link"
	new_ns chroot "$T/root" sleep 1000
	in_ns "$NS" mount -t tmpfs cdata "$T/root/data"
	for be in $BACKENDS; do
		run --separate-stderr "$WATCHQ" --backend="$be" -t 0.2 --initial -N "$NS" mounts /
		[ "$status" -eq 2 ]
		echo "$output" | sort >"$T/$be"
		grep -qx "mount present /data tmpfs cdata ns=$(ns_ino "$NS") cgroup=$CG" "$T/$be"
		# The root is a directory of $T, not a mount: not listed, nor anything outside it.
		[ -z "$(grep "$T\|present / " "$T/$be")" ]
		# A TARGET through an absolute symlink of the chroot.
		watch_on "$be" -N "$NS" mounts /link
		grep -q "watching mounts /link in mnt" "$T/err"
		in_ns "$NS" mkdir -p "$T/root/data/x"
		in_ns "$NS" mount -t tmpfs x "$T/root/data/x"
		in_ns "$NS" mount -t tmpfs more "$T/root/more"
		wait_until grep -q "data/x" "$T/out"
		run "$WATCHQ" --backend="$be" -q -t 0 wait -N "$NS" --mount /link/x
		[ "$status" -eq 0 ]
		run "$WATCHQ" --backend="$be" -q -t 0 wait -N "$NS" --unmount "$T/root/data/x"
		[ "$status" -eq 0 ]
		stop_watchq
		[ "$(unmarked)" = "mount mount /data/x tmpfs x ns=$(ns_ino "$NS") cgroup=$CG" ]
		in_ns "$NS" umount "$T/root/data/x" "$T/root/more"
	done
	cmp "$T/fanotify" "$T/mountinfo" 2>/dev/null || [ "$BACKENDS" = mountinfo ]
}

# chroot_ns: a process chrooted into $T/root (with /usr bound in, so that sleep runs there) in a
# new namespace, its pid in $NS; skips where sleep cannot run in such a root.
chroot_ns() {
	mkdir -p "$T/root/usr" "$T/root/data"
	mount --rbind /usr "$T/root/usr"
	for d in bin lib lib64 sbin; do
		if [ -e "/$d" ]; then ln -s "usr/$d" "$T/root/$d"; fi
	done
	chroot "$T/root" sleep 0 || skip "sleep does not run in a chroot of /usr alone (no merged /usr)"
	new_ns chroot "$T/root" sleep 1000
}

@test "a chrooted process: a mount moved out of its root is an unmount, moved back a mount, on every backend" {
	need_root
	chroot_ns
	mkdir -p "$T/root/data/a" "$T/away"
	in_ns "$NS" mount -t tmpfs a "$T/root/data/a"
	in_ns "$NS" mkdir "$T/root/data/a/sub"
	in_ns "$NS" mount -t tmpfs sub "$T/root/data/a/sub"
	for be in $BACKENDS; do
		watch_on "$be" --json -N "$NS" mounts /
		in_ns "$NS" mount --move "$T/root/data/a" "$T/away"
		wait_until grep -q '"path":"/data/a"' "$T/out"
		in_ns "$NS" mount --move "$T/away" "$T/root/data/a"
		sentinel_in "$NS" "$T/root/data"
		stop_watchq
		# Nothing has an empty path, and nothing names where the mount went.
		[ -z "$(grep '"path":""\|"old_path":""\|away' "$T/out")" ]
		jq -r 'select(.device != "sentinel") | "\(.event) \(.path) \(.device)"' "$T/out" |
			sort >"$T/$be"
		printf '%s\n' "mount /data/a a" "mount /data/a/sub sub" "unmount /data/a a" \
			"unmount /data/a/sub sub" | cmp - "$T/$be"
		in_ns "$NS" umount "$T/root/data/sentinel"
	done
}

# pivot_in_ns BACKEND [-N]: in a new namespace, pivot_root(8) to a tmpfs "newroot" on $T/nr
# (with /usr bound in and a tmpfs "subm" on /sub) with the old root on /old, then mount a tmpfs
# "after" on /w, and end once watchq has seen it. watchq --json mounts / (output in $T/out) runs
# in that namespace, or with -N from ours (it ends when the namespace goes).
pivot_in_ns() {
	local wq inner
	mkdir -p "$T/nr"
	rm -f "$T/ready" "$T/go"
	: >"$T/out"
	: >"$T/err"
	wq=$(realpath "$WATCHQ")
	timeout 60 unshare -m --propagation private bash -c '
		set -e
		T=$1
		mount -t tmpfs newroot "$T/nr"
		mkdir -p "$T/nr/old" "$T/nr/usr" "$T/nr/sub" "$T/nr/w"
		mount --rbind /usr "$T/nr/usr"
		for d in bin lib lib64 sbin; do if [ -e "/$d" ]; then ln -s "usr/$d" "$T/nr/$d"; fi; done
		mount -t tmpfs subm "$T/nr/sub"
		if [ -z "$4" ]; then
			"$2" --backend="$3" --json mounts / >"$T/out" 2>"$T/err" &
			touch "$T/go"
		fi
		echo $$ >"$T/ready"
		until [ -e "$T/go" ] && grep -q watching "$T/err"; do sleep 0.05; done
		cd "$T/nr"
		pivot_root . old
		cd /
		mount -t tmpfs after /w
		until grep -q "\"after\"" "/old$T/out"; do sleep 0.05; done
		[ -n "$4" ] || kill $!
	' pivot "$T" "$wq" "$1" "${2:-}" </dev/null >/dev/null 2>&1 3>&- &
	inner=$!
	if [ "${2:-}" = -N ]; then
		wait_until test -s "$T/ready"
		"$wq" --backend="$1" --json -N "$(cat "$T/ready")" mounts / >"$T/out" 2>"$T/err" &
		WQ_PID=$!
		wait_until grep -q watching "$T/err"
		touch "$T/go"
		finish_watchq
		[ "$WQ_STATUS" -eq 3 ]
	fi
	wait "$inner"
}

@test "pivot_root: every mount moves to its path from the new root, and later mounts are seen, on every backend, with -N too" {
	need_root
	command -v pivot_root >/dev/null || skip "no pivot_root(8)"
	for run in "fanotify " "mountinfo " "fanotify -N" "mountinfo -N"; do
		be=${run% *}
		[[ " $BACKENDS " == *" $be "* ]] || continue
		pivot_in_ns $run || { cat "$T/err"; false; }
		# Old root's mounts (every mount but those of the new root) go under /old, whole.
		jq -e -s --arg t "$T" '[.[] | select(.event == "move" and
			(.old_path | startswith($t + "/nr") | not))] | length > 2 and
			all(.path == "/old" + (if .old_path == "/" then "" else .old_path end))' "$T/out"
		jq_event move 'if .device == "newroot" then .path == "/" and .old_path == "'"$T/nr"'"
			elif .device == "subm" then .path == "/sub" and .old_path == "'"$T/nr/sub"'"
			else true end'
		[ "$(jq -r 'select(.device == "newroot" or .device == "subm") | .path' "$T/out" | sort)" = "/
/sub" ]
		jq -e -s 'map(select(.event == "mount")) | map(.path + " " + .device) == ["/w after"]' \
			"$T/out"
		[ -z "$(jq -r 'select(.event == "unmount") | .path' "$T/out")" ]
		jq -r '"\(.event) \(.path) \(.old_path) \(.device)"' "$T/out" | sort >"$T/$be${run#* }"
	done
	cmp "$T/fanotify" "$T/mountinfo" 2>/dev/null || [ "$BACKENDS" = mountinfo ]
	cmp "$T/fanotify-N" "$T/mountinfo-N" 2>/dev/null || [ "$BACKENDS" = mountinfo ]
}

# followed_pid: the pid of the pidfd the running watchq holds.
followed_pid() {
	local fd
	for fd in /proc/"$WQ_PID"/fd/*; do
		[ "$(readlink "$fd")" = "anon_inode:[pidfd]" ] || continue
		sed -n 's/^Pid:\t//p' "/proc/$WQ_PID/fdinfo/${fd##*/}"
	done
}

# other_thread PID: a thread of PID other than its leader.
other_thread() {
	ls "/proc/$1/task" | grep -vx "$1" | head -n 1
}

has_other_thread() {
	[ -n "$(other_thread "$1")" ]
}

@test "-N TID of a thread follows the thread's own process, not the lowest pid of the namespace" {
	need_root
	command -v python3 >/dev/null || skip "needs python3 for a process with threads"
	new_ns
	A=$NS
	nsenter -t "$A" -m python3 -c 'import threading, time
threading.Thread(target=time.sleep, args=(1000,)).start()
time.sleep(1000)' </dev/null >/dev/null 2>&1 3>&- &
	B=$!
	NS_PIDS="$NS_PIDS $B"
	wait_until has_other_thread "$B"
	tid=$(other_thread "$B")
	[ "$A" -lt "$B" ]
	start_watchq -N "$tid" mounts /
	[ "$(followed_pid)" = "$B" ]
}

has_zombie_child() {
	[ "$(ps -o stat= --ppid "$1")" = Z ]
}

@test "-N of a zombie: no process to follow, 69" {
	need_root
	new_ns sh -c 'sleep 0 & exec sleep 1000'
	wait_until has_zombie_child "$NS"
	z=$(ps -o pid= --ppid "$NS" | tr -d ' ')
	run --separate-stderr "$WATCHQ" -N "$z" mounts /
	[ "$status" -eq 69 ]
	[ "$stderr" = "watchq: -N $z: no process is in this mount namespace (watchq sees one through a process in it)" ]
}

@test "a bad -N: one line and a documented status" {
	need_root
	new_ns
	pid_max=$(cat /proc/sys/kernel/pid_max)
	run --separate-stderr "$WATCHQ" -N "$pid_max" mounts /
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: -N $pid_max: no such process" ]
	for f in /etc/passwd /proc/self/ns/net "$T"; do
		run --separate-stderr "$WATCHQ" -N "$f" mounts /
		[ "$status" -eq 64 ]
		[ "$stderr" = "watchq: -N $f: not a mount namespace (a PID, or a file such as /proc/PID/ns/mnt)" ]
	done
	run --separate-stderr "$WATCHQ" -N "$T/nonexistent" mounts /
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: -N $T/nonexistent: No such file or directory" ]
	run --separate-stderr "$WATCHQ" -N "$NS" -N "/proc/$NS/ns/mnt" mounts /
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: -N /proc/$NS/ns/mnt: the same mount namespace as -N $NS" ]
	# Not ours to look into: another user's process.
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups "$WATCHQ" -N "$NS" mounts /
	[ "$status" -eq 69 ]
	[ "$stderr" = "watchq: -N $NS: may not watch this mount namespace: Permission denied" ]
	# What -N does not apply to, and paths it cannot look up.
	for args in "sb /" "keys @s" "wait --readonly /" "mounts tmp" "wait --mount tmp" "mounts $T/nonexistent"; do
		run --separate-stderr "$WATCHQ" -N "$NS" $args
		[ "$status" -eq 64 ] || { echo "$args: $status $stderr"; false; }
		[ "${#lines[@]}" -eq 0 ] && [ "$(echo "$stderr" | wc -l)" -eq 1 ]
	done
}
