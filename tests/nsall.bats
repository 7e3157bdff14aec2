#!/usr/bin/env bats
# watchq -N all: every mount namespace, those there at the start and those made
# later, each named by its inode number and its process's cgroup. Other
# namespaces of the machine are watched too: each check names its own.
load helper

# The helper's teardown (it kills the namespaces' processes), then ours: their cgroups go.
eval "$(declare -f teardown | sed '1s/^teardown/helper_teardown/')"

setup_file() {
	# Every process of these tests is in the cgroup of the suite unless moved.
	CG=$(sed -n 's/^0:://p' /proc/self/cgroup)
	export CG=${CG:--}
	export NSBURST=$BATS_FILE_TMPDIR/nsburst
	cc -O2 -o "$NSBURST" "$BATS_TEST_DIRNAME/nsburst.c"
	build_burst
}

teardown() {
	helper_teardown
	if [ -n "${CGDIR:-}" ]; then
		rmdir "$CGDIR"/* 2>/dev/null || true
		rmdir "$CGDIR" 2>/dev/null || true
	fi
}

# cg_setup: CGDIR, a cgroup v2 directory of this test to make one cgroup per namespace
# below, or empty (and CG_WHY the reason) where cgroup v2 is not mounted or not writable.
cg_setup() {
	local root
	CGDIR=
	root=$(findmnt -n -t cgroup2 -o TARGET | head -n 1)
	if [ -z "$root" ]; then
		CG_WHY="no cgroup v2 mounted"
		return
	fi
	# A tmpfs below /sys/fs/cgroup takes a mkdir too: a cgroup has cgroup.procs.
	if ! mkdir "$root/watchq-nsall.$$" 2>/dev/null || [ ! -e "$root/watchq-nsall.$$/cgroup.procs" ]; then
		rmdir "$root/watchq-nsall.$$" 2>/dev/null || true
		CG_WHY="cgroup v2 at $root is not writable here"
		return
	fi
	CGDIR=$root/watchq-nsall.$$
}

# in_new_ns PID: PID's mount namespace is no longer ours (unshare(2) has run).
in_new_ns() {
	[ "$(readlink "/proc/$1/ns/mnt" 2>/dev/null)" != "$(readlink /proc/self/ns/mnt)" ] &&
		[ -n "$(readlink "/proc/$1/ns/mnt" 2>/dev/null)" ]
}

# new_ns NAME [chroot]: a process in a new private mount namespace, in cgroup NAME below
# CGDIR where there is one (before the namespace exists, so that watchq never sees it
# elsewhere), chrooted into a bind mount of / if asked; its pid in $NS (and NS_PIDS), its
# namespace's inode in $INO, the cgroup it is in (as text lines print it) in $NSCG.
new_ns() {
	local cg=- run='exec sleep 1000'
	if [ -n "${CGDIR:-}" ]; then
		mkdir "$CGDIR/$1"
		cg=$CGDIR/$1
	fi
	[ "${2:-}" != chroot ] ||
		run="mkdir -p $T/root-$1 && mount --rbind / $T/root-$1 && exec chroot $T/root-$1 sleep 1000"
	# None of bats's fds: it would wait for them to close.
	sh -c '[ "$1" = - ] || echo $$ >"$1/cgroup.procs"; shift; exec unshare -m --propagation private sh -c "$1"' \
	    sh "$cg" "$run" </dev/null >/dev/null 2>&1 3>&- &
	NS=$!
	NS_PIDS="${NS_PIDS:-} $NS"
	wait_until in_new_ns "$NS"
	# The chroot is the last step: wait for it, so that the process sees its own root.
	[ "${2:-}" != chroot ] || wait_until chrooted "$NS"
	INO=$(stat -L -c %i "/proc/$NS/ns/mnt")
	NSCG=$(sed -n 's/^0:://p' "/proc/$NS/cgroup")
	NSCG=${NSCG:--}
}

# chrooted PID: PID's root is no longer /.
chrooted() {
	[ "$(readlink "/proc/$1/root")" != / ] && [ "$(cat "/proc/$1/comm")" = sleep ]
}

# in_ns_of_its_own PID PARENT: PID is in a mount namespace that is not PARENT's (nor ours).
in_ns_of_its_own() {
	in_new_ns "$1" && [ "$(readlink "/proc/$1/ns/mnt")" != "$(readlink "/proc/$2/ns/mnt")" ]
}

# announced_at DIR INO: the ns_new record of namespace INO for DIR is out.
announced_at() {
	grep -q "^meta ns_new mounts $1 pid=[0-9]* ns=$2 " "$T/out"
}

# announced INO CG: the ns_new record of namespace INO, with cgroup CG, is out.
announced() {
	grep -q "^meta ns_new mounts $T pid=[0-9]* ns=$1 cgroup=$2\$" "$T/out"
}

@test "-N all: namespaces made before and after the start, each mount once, in its namespace, with its cgroup; they go one by one" {
	need_root
	mkdir "$T/a" "$T/b"
	cg_setup
	local i pids=() inos=() cgs=() self
	for i in 1 2 3; do
		new_ns "ns$i" $([ $i -eq 2 ] && echo chroot)
		pids+=("$NS") inos+=("$INO") cgs+=("$NSCG")
	done
	start_watchq -N all mounts "$T"
	grep -q "^watchq: watching mounts $T in every mount namespace ([0-9]* now\(, new ones seen at their calls\)\?) (backend [a-z]*)\$" "$T/err"
	# tests/run-bats runs this file again on mountinfo: every namespace is on it then.
	[ -z "${WATCHQ_BACKEND:-}" ] || [ "$(backend_used)" = "$WATCHQ_BACKEND" ]
	for i in 0 1 2; do
		wait_until announced "${inos[$i]}" "${cgs[$i]}"
	done
	for i in 4 5; do
		new_ns "ns$i"
		pids+=("$NS") inos+=("$INO") cgs+=("$NSCG")
		wait_until announced "$INO" "$NSCG"
	done
	# The same path in each, its own tmpfs: the chrooted one's as it sees it. Each made from the
	# namespace's cgroup: with the capture a mount carries its process's cgroup at the call.
	cgroot=$(findmnt -n -t cgroup2 -o TARGET | head -n 1)
	for i in 0 1 2 3 4; do
		sh -c '[ -z "$1" ] || echo $$ >"$1/cgroup.procs"; shift; exec "$@"' - \
		    "${CGDIR:+$cgroot${cgs[$i]}}" nsenter -t "${pids[$i]}" -m $([ $i -eq 1 ] && echo -r) \
		    mount -t tmpfs "in-ns$i" "$T/a"
	done
	self=$(stat -L -c %i /proc/self/ns/mnt)
	mount -t tmpfs ours "$T/b"
	for i in 0 1 2 3 4; do
		wait_until unmarked_has "mount mount $T/a tmpfs in-ns$i ns=${inos[$i]} cgroup=${cgs[$i]}"
	done
	wait_until grep -q "^mount mount $T/b tmpfs ours .* ns=$self cgroup=" "$T/out"
	for i in 0 1 2 3 4; do
		[ "$(grep -c "^mount mount $T/a tmpfs in-ns$i " "$T/out")" -eq 1 ] || { cat "$T/out"; false; }
	done
	[ "$(grep -c "^mount mount $T/b tmpfs ours " "$T/out")" -eq 1 ]
	# Away one by one: each is said, and the run goes on.
	for i in 0 1 2 3 4; do
		kill -KILL "${pids[$i]}"
		wait_until grep -q "^meta ns_gone mounts $T pid=${pids[$i]} ns=${inos[$i]} cgroup=${cgs[$i]}\$" "$T/out"
		kill -0 "$WQ_PID"
	done
	umount "$T/b"
	wait_until grep -q "^mount unmount $T/b tmpfs ours .* ns=$self cgroup=" "$T/out"
	stop_watchq
	[ "$WQ_STATUS" -eq 0 ]
	# Nothing said of ours (the machine's other namespaces may have their lines).
	for i in 0 1 2 3 4; do
		run ! grep -q "mnt:\[${inos[$i]}\]" "$T/err"
	done
}

@test "-N all: each namespace's cgroup is its own process's" {
	need_root
	cg_setup
	[ -n "$CGDIR" ] || skip "$CG_WHY"
	new_ns one
	a=$INO
	new_ns two
	b=$INO
	start_watchq -N all mounts "$T"
	wait_until announced "$a" "${CGDIR#$(findmnt -n -t cgroup2 -o TARGET | head -n 1)}/one"
	wait_until announced "$b" "${CGDIR#$(findmnt -n -t cgroup2 -o TARGET | head -n 1)}/two"
	stop_watchq
}

@test "-N all: a record's cgroup is the one its namespace's process is in at the change, not at ns_new" {
	need_root
	cg_setup
	[ -n "$CGDIR" ] || skip "$CG_WHY"
	mkdir "$T/a" "$CGDIR/moved"
	mkfifo "$T/go"
	start_watchq -N all mounts "$T/a"
	# As some runtimes do: unshare first, then move into its cgroup, then mount.
	unshare -m --propagation private sh -c 'read x <"$1" && echo $$ >"$2/cgroup.procs" &&
	    mount -t tmpfs moved "$3" && exec sleep 1000' - "$T/go" "$CGDIR/moved" "$T/a" \
	    </dev/null >/dev/null 2>&1 3>&- &
	NS=$!
	NS_PIDS=$NS
	wait_until in_new_ns "$NS"
	INO=$(stat -L -c %i "/proc/$NS/ns/mnt")
	wait_until grep -q "^meta ns_new mounts $T/a pid=$NS ns=$INO cgroup=$CG\$" "$T/out"
	echo go >"$T/go"
	wait_until grep -q "^mount mount $T/a tmpfs moved " "$T/out"
	cg=$(sed -n 's/^0:://p' "/proc/$NS/cgroup")
	[ "$cg" = "${CGDIR#$(findmnt -n -t cgroup2 -o TARGET | head -n 1)}/moved" ]
	unmarked_has "mount mount $T/a tmpfs moved ns=$INO cgroup=$cg" || { cat "$T/out"; false; }
	stop_watchq
}

@test "-N all --initial --json: a namespace made later, its mounts as present records after its ns_new" {
	need_root
	mkdir "$T/a"
	# A namespace made later that has a mount from its start: a copy of one that had it.
	new_ns parent
	nsenter -t "$NS" -m mount -t tmpfs early "$T/a"
	parent=$NS
	start_watchq -N all --initial --json mounts "$T"
	nsenter -t "$parent" -m unshare -m --propagation private sleep 1000 </dev/null >/dev/null 2>&1 3>&- &
	NS=$!
	NS_PIDS="$NS_PIDS $NS"
	wait_until in_ns_of_its_own "$NS" "$parent"
	ino=$(stat -L -c %i "/proc/$NS/ns/mnt")
	wait_until grep -q "\"device\":\"early\".*\"mnt_ns\":$ino\|\"mnt_ns\":$ino.*\"device\":\"early\"" "$T/out"
	jq -c --argjson ns "$ino" 'select(.mnt_ns == $ns) | [.event, .path, .device, .cgroup]' "$T/out" >"$T/mine"
	cg=$(sed -n 's/^0:://p' "/proc/$NS/cgroup")
	[ "$(head -n 1 "$T/mine")" = "$(jq -cn --arg cg "$cg" '["ns_new", null, null, ($cg | if . == "" then null else . end)]')" ] ||
		{ cat "$T/mine"; false; }
	grep -qxF "$(jq -cn --arg t "$T/a" --arg cg "$cg" '["present", $t, "early", ($cg | if . == "" then null else . end)]')" "$T/mine"
	jq -e -s --argjson ns "$ino" --argjson pid "$NS" \
	    '[.[] | select(.mnt_ns == $ns and .event == "ns_new")] | length == 1 and .[0].pid == $pid' "$T/out"
	kill -KILL "$NS"
	wait_until grep -q "\"event\":\"ns_gone\".*\"mnt_ns\":$ino" "$T/out"
	stop_watchq
}

# holds_ns INO: watchq holds the nsfs file of namespace INO (it watches it, or is opening it).
holds_ns() {
	ls -l "/proc/$WQ_PID/fd" 2>/dev/null | grep -q "mnt:\[$1\]"
}

# losses_of INO: how many loss records of namespace INO $T/out (text) has.
losses_of() {
	grep -c "^meta loss .* ns=$1 " "$T/out" || true
}

@test "wait -e mount -N all: a mount in a namespace made after the start ends it" {
	need_root
	mkdir "$T/a"
	start_watchq wait -e mount -N all mounts "$T"
	new_ns later
	# A wait prints no ns_new: watchq holds the namespace's nsfs file once it found it. A mount
	# made while it opens the namespace is a loss there, not a mount record: mount again then.
	wait_until holds_ns "$INO"
	for i in 1 2 3; do
		n=$(losses_of "$INO")
		mkdir "$T/a/$i"
		nsenter -t "$NS" -m mount -t tmpfs later "$T/a/$i"
		wait_until eval 'grep -q "^mount mount $T/a/$i " "$T/out" || [ "$(losses_of "$INO")" -gt "$n" ]'
		if grep -q "^mount mount $T/a/$i " "$T/out"; then break; fi
	done
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
	unmarked_has "mount mount $T/a/$i tmpfs later ns=$INO cgroup=$NSCG"
	[ "$(grep -c '^mount ' "$T/out")" -eq 1 ]
}

@test "wait -e mount -N all --json: the one line it prints is the mount that matched, no ns_new" {
	need_root
	mkdir "$T/a"
	new_ns answer
	start_watchq -j wait -e mount -N all mounts "$T/a"
	nsenter -t "$NS" -m mount -t tmpfs answer "$T/a"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
	# Loss records change what a wait means: printed too (the machine's other namespaces).
	[ "$(jq -c 'select(.event != "loss") | [.event, .device, .mnt_ns]' "$T/out")" = \
	    "[\"mount\",\"answer\",$INO]" ] || { cat "$T/out"; false; }
}

@test "-N all --format: %N and %G name the namespace and its cgroup; a TARGET that is no directory there watches nothing there" {
	need_root
	mkdir "$T/a"
	# Its own tmpfs on $T hides $T/a there.
	new_ns hidden
	nsenter -t "$NS" -m mount -t tmpfs hide "$T"
	hidden=$INO
	start_watchq -N all --format '%e %p %N %G' mounts "$T/a"
	new_ns seen
	# %G prints - for a cgroup not known (no cgroup v2 line, as in the VM kernel), and %p - for
	# the path an ns_new record has not: no half-empty line.
	local g=$NSCG
	wait_until grep -q "^ns_new - $INO $g\$" "$T/out"
	nsenter -t "$NS" -m mount -t tmpfs x "$T/a"
	wait_until grep -q "^mount $T/a $INO $g\$" "$T/out"
	[ "$(grep -c " $hidden " "$T/out")" -eq 0 ]
	stop_watchq
}

@test "-N all looks a watched path up in a new namespace through its parent: no fd of the mount there, which would make its umount EBUSY" {
	need_root
	command -v strace >/dev/null || skip "strace not installed"
	mkdir "$T/a"
	start_traced -e trace=openat2 -- -N all mounts "$T/a"
	new_ns held
	wait_until announced_at "$T/a" "$INO"
	# Made there after the ns_new: a re-check of the path meets the mount.
	nsenter -t "$NS" -m mount -t tmpfs held "$T/a"
	wait_until grep -q "^mount mount $T/a tmpfs held .*ns=$INO " "$T/out" || { cat "$T/out"; false; }
	nsenter -t "$NS" -m umount "$T/a"
	wait_until grep -q "^mount unmount $T/a tmpfs held .*ns=$INO " "$T/out" || { cat "$T/out"; false; }
	stop_traced
	# Looked up from that namespace's root (RESOLVE_IN_ROOT): the parent, never the path.
	grep -q "^[0-9]* *openat2([0-9]*, \"$T\", .*RESOLVE_IN_ROOT" "$T/strace" || { cat "$T/strace"; false; }
	run ! grep "openat2([0-9]*, \"$T/a\"" "$T/strace"
}

@test "-N all: usage errors" {
	run --separate-stderr "$WATCHQ" -N all -N 1 mounts /
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: -N all watches every mount namespace: no other -N goes with it" ]
	run --separate-stderr "$WATCHQ" list -N all mounts /
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: -N all follows namespaces as they appear: it goes with a monitor and wait -e" ]
	run --separate-stderr "$WATCHQ" wait --mount /x -N all
	[ "$status" -eq 64 ]
	run --separate-stderr "$WATCHQ" -N all mounts relative
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: relative: with -N, a PATH must be absolute: it is looked up in each namespace" ]
	run --separate-stderr "$WATCHQ" --ns=all keys
	[ "$status" -eq 64 ]
}

# need_walk: the nsfs walk, which lists namespaces /proc does not show.
need_walk() {
	kernel_at_least 6 12 || skip "no nsfs walk (NS_MNT_GET_NEXT, Linux 6.12): /proc does not show this namespace"
}

# fds_are N: watchq holds N file descriptors.
fds_are() {
	[ "$(ls "/proc/$WQ_PID/fd" | wc -l)" -eq "$1" ]
}

# rss_kib: watchq's resident set, in KiB.
rss_kib() {
	sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB$/\1/p' "/proc/$WQ_PID/status"
}

# ns_pairs SELF: every namespace announced but ours (inode SELF) has gone again before it was
# announced again (inode numbers are reused): "ok", else the lines that are not so.
ns_pairs() {
	awk -v self="ns=$1" '
		/^meta ns_(new|gone) / {
			k = $(NF - 1)
			if (k == self) next
			if (($2 == "ns_new") == (k in open)) bad = bad " " NR ":" $2 ":" k
			if ($2 == "ns_new") open[k] = 1; else delete open[k]
		}
		END {
			for (k in open) bad = bad " open:" k
			print bad == "" ? "ok" : "bad:" bad
		}' "$T/out"
}

@test "-N all: 200 namespaces made and destroyed, some while watchq reads them: no fd kept, memory bounded" {
	need_root
	mkdir "$T/a"
	self=$(stat -L -c %i /proc/self/ns/mnt)
	# $T/a is only in this test's namespaces: the machine's others hold no fd of watchq.
	start_watchq -N all --initial mounts "$T/a"
	wait_until grep -q "^meta ns_new mounts $T/a pid=[0-9]* ns=$self " "$T/out"
	fd0=$(ls "/proc/$WQ_PID/fd" | wc -l)
	for round in 1 2 3 4; do
		"$NSBURST" loop 200 600 "$T/a" >"$T/burst"
		[ "$(cat "$T/burst")" = done ]
		# Each namespace that watchq took has told it of its end.
		wait_until fds_are "$fd0"
		eval "rss$round=\$(rss_kib)"
	done
	kill -0 "$WQ_PID"
	# Some were watched, each came and went once, and their mounts were seen.
	[ "$(grep -c '^meta ns_new ' "$T/out")" -ge 3 ]
	[ "$(ns_pairs "$self")" = ok ] || { ns_pairs "$self"; cat "$T/out"; false; }
	grep -q "^mount present $T/a tmpfs nsburst " "$T/out"
	# A leak of 2.5 KiB a namespace (a mount table, a statmount buffer) grows the RSS by 500 KiB
	# every round of 200; a high-water mark (malloc's, the capture's table of kept calls) rises
	# once, by up to 750 KiB on a loaded machine, with the code before this test as with it, and
	# not always in the first round: of the last two rounds, one at least must not grow.
	# Under ASan freed memory waits in quarantine, so RSS says nothing (LSan checks leaks).
	ldd "$BATS_TEST_DIRNAME/../watchq" 2>/dev/null | grep -q libasan ||
		[ $((rss3 - rss2)) -le 256 ] || [ $((rss4 - rss3)) -le 256 ] ||
		{ echo "RSS $rss1, $rss2, $rss3, then $rss4 KiB"; false; }
	stop_watchq
	[ "$WQ_STATUS" -eq 0 ]
	# The machine's other namespaces may be kept without a process: nothing else is said.
	[ -z "$(grep -v -e '^watchq: watching' -e ': no process in it that we may look into;' \
	    -e '; using mountinfo$' "$T/err")" ] ||
		{ cat "$T/err"; false; }
}

@test "-N all: the followed process's pid taken by a process of another namespace" {
	need_root
	[ -e /proc/sys/kernel/ns_last_pid ] ||
		skip "no /proc/sys/kernel/ns_last_pid (CONFIG_CHECKPOINT_RESTORE) to give a pid again"
	mkdir "$T/a"
	new_ns first
	p=$NS
	a=$INO
	# A second process of that namespace, to be followed once the first has gone.
	nsenter -t "$p" -m sleep 1000 </dev/null >/dev/null 2>&1 3>&- &
	q=$!
	NS_PIDS="$NS_PIDS $q"
	[ "$q" -gt "$p" ] || skip "pids came round between the two processes"
	wait_until in_new_ns "$q"
	start_watchq -N all mounts "$T/a"
	wait_until grep -q "^meta ns_new mounts $T/a pid=$p ns=$a " "$T/out"
	kill -KILL "$p"
	wait "$p" 2>/dev/null || true
	"$NSBURST" reuse "$p" "$T/a" >"$T/reused" 2>"$T/reuse.err" &
	NS_PIDS="$NS_PIDS $! $p"
	wait_until grep -q ready "$T/reused" || { cat "$T/reuse.err"; false; }
	b=$(stat -L -c %i "/proc/$p/ns/mnt")
	[ "$b" != "$a" ]
	# The pid names the new namespace; the first one goes on through its other process.
	wait_until grep -q "^meta ns_new mounts $T/a pid=$p ns=$b " "$T/out"
	nsenter -t "$q" -m mount -t tmpfs still-a "$T/a"
	wait_until unmarked_has "mount mount $T/a tmpfs still-a ns=$a cgroup=$CG"
	run ! grep -q "^meta ns_gone .* ns=$a " "$T/out"
	[ "$(grep -c "^meta ns_new .* ns=$a " "$T/out")" -eq 1 ]
	kill -KILL "$q"
	wait_until grep -q "^meta ns_gone mounts $T/a pid=$q ns=$a " "$T/out"
	stop_watchq
}

@test "-N all: a namespace we may not look into is one line on stderr; the others go on" {
	need_root
	need_walk
	mkdir "$T/a"
	# A process of another user, and watchq without CAP_SYS_PTRACE: /proc hides its ns/mnt.
	sh -c 'exec unshare -m --propagation private setpriv --reuid=65534 --regid=65534 --clear-groups sleep 1000' \
	    </dev/null >/dev/null 2>&1 3>&- &
	NS_PIDS=$!
	wait_until in_new_ns "$NS_PIDS"
	wait_until grep -q '^Uid:[[:space:]]*65534' "/proc/$NS_PIDS/status"
	hidden=$(stat -L -c %i "/proc/$NS_PIDS/ns/mnt")
	printf '#!/bin/sh\nexec setpriv --bounding-set=-sys_ptrace --inh-caps=-sys_ptrace "%s" "$@"\n' \
	    "$WATCHQ" >"$T/noptrace"
	chmod +x "$T/noptrace"
	WATCHQ=$T/noptrace start_watchq -N all mounts "$T/a"
	wait_until grep -q "^watchq: -N all: mnt:\[$hidden\]: no process in it that we may look into; not watched until one is\$" "$T/err"
	# One whose process has no more privileges than watchq: it may look into it.
	setpriv --bounding-set=-sys_ptrace --inh-caps=-sys_ptrace \
	    unshare -m --propagation private sleep 1000 </dev/null >/dev/null 2>&1 3>&- &
	NS=$!
	NS_PIDS="$NS_PIDS $NS"
	wait_until in_new_ns "$NS"
	INO=$(stat -L -c %i "/proc/$NS/ns/mnt")
	wait_until announced_at "$T/a" "$INO"
	nsenter -t "$NS" -m mount -t tmpfs seen "$T/a"
	wait_until unmarked_has "mount mount $T/a tmpfs seen ns=$INO cgroup=$CG"
	[ "$(grep -c "mnt:\[$hidden\]" "$T/err")" -eq 1 ]
	run ! grep -q "ns=$hidden " "$T/out"
	stop_watchq
}

@test "-N all: out of file descriptors, a namespace is one line on stderr; the others go on" {
	need_root
	command -v prlimit >/dev/null || skip "no prlimit"
	mkdir "$T/a"
	self=$(stat -L -c %i /proc/self/ns/mnt)
	start_watchq -N all mounts "$T/a"
	wait_until announced_at "$T/a" "$self"
	fd0=$(ls "/proc/$WQ_PID/fd" | wc -l)
	# Room for a namespace on mountinfo (its nsfs file, root, pidfd, cgroup file, table), not
	# on fanotify (our own nsfs fd for the group's mark, a timer and the table's signal too),
	# nor for a second one.
	prlimit --pid "$WQ_PID" --nofile=$((fd0 + 5)):$((fd0 + 5))
	inos=()
	for i in 1 2 3 4; do
		new_ns "n$i"
		inos+=("$INO")
	done
	wait_until grep -q "^watchq: -N all: .*: Too many open files\$" "$T/err"
	wait_until grep -q "^meta ns_new mounts $T/a pid=[0-9]* ns=\(${inos[0]}\|${inos[1]}\|${inos[2]}\|${inos[3]}\) " "$T/out"
	[ "$(backend_used)" != fanotify ] ||
		grep -q "^watchq: -N all: mnt:\[[0-9]*\]: fanotify: Too many open files; namespaces that cannot have one are watched on mountinfo\$" "$T/err"
	# The one watched is, on mountinfo, and no watch is taken for gone for want of fds.
	for ino in "${inos[@]}"; do
		grep -q "^meta ns_new .* ns=$ino " "$T/out" && break
	done
	pid=$(sed -n "s/^meta ns_new mounts .* pid=\([0-9]*\) ns=$ino .*/\1/p" "$T/out")
	nsenter -t "$pid" -m mount -t tmpfs watched "$T/a"
	wait_until unmarked_has "mount mount $T/a tmpfs watched ns=$ino cgroup=$CG"
	run ! grep -q '^meta removal' "$T/out"
	# Each said once at most, and the run goes on.
	for ino in "${inos[@]}"; do
		[ "$(grep -c "mnt:\[$ino\]" "$T/err")" -le 1 ]
	done
	kill -0 "$WQ_PID"
	stop_watchq
	[ "$WQ_STATUS" -eq 0 ]
}

# kept_ns: a mount namespace with no process, kept by its nsfs file bound on $T/nsfile; its
# inode in $kept (skips where a namespace file cannot be bound).
kept_ns() {
	touch "$T/nsfile"
	# A namespace file is bound only on a private mount: an earlier test may have made / shared.
	mount --make-private "$T"
	# The kernel binds a namespace's file only into an older namespace, by their ids; on 6.18
	# ids come in per-CPU batches, so a namespace made on another CPU than ours may have the
	# lower id (EINVAL). One made on the CPU ours was made on has a higher one: try each.
	local err cpu
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		err=$(taskset -c "$cpu" unshare --mount="$T/nsfile" --propagation private true 2>&1) &&
			break
	done || skip "cannot bind-mount a mount namespace file here: $err"
	kept=$(stat -L -c %i "$T/nsfile")
}

@test "-N all: a namespace kept only by a bind-mounted nsfs file is said once, then watched once a process enters it" {
	need_root
	need_walk
	mkdir "$T/a"
	kept_ns
	start_watchq -N all mounts "$T/a"
	wait_until grep -q "^watchq: -N all: mnt:\[$kept\]: no process in it that we may look into; not watched until one is\$" "$T/err"
	nsenter --mount="$T/nsfile" sleep 1000 </dev/null >/dev/null 2>&1 3>&- &
	NS_PIDS=$!
	wait_until grep -q "^meta ns_new mounts $T/a pid=$NS_PIDS ns=$kept " "$T/out"
	nsenter -t "$NS_PIDS" -m mount -t tmpfs entered "$T/a"
	wait_until unmarked_has "mount mount $T/a tmpfs entered ns=$kept cgroup=$CG"
	[ "$(grep -c "mnt:\[$kept\]" "$T/err")" -eq 1 ]
	# Its process gone, the file keeps it: ns_gone all the same, as with -N.
	kill -KILL "$NS_PIDS"
	wait_until grep -q "^meta ns_gone mounts $T/a pid=$NS_PIDS ns=$kept " "$T/out"
	umount "$T/nsfile"
	stop_watchq
}

# capture_or_skip: the running watchq -N all loaded the capture, or the test is skipped (why).
capture_or_skip() {
	grep -q "every mount namespace ([0-9]* now, new ones seen at their calls)" "$T/err" && return
	grep -q '^watchq: -N all: no process capture: ' "$T/err" || { cat "$T/err"; return 1; }
	skip "$(grep '^watchq: -N all: no process capture: ' "$T/err")"
}

# cloned MODE: a process made by nsburst MODE (clone or clone3) in a namespace of its own, with
# a tmpfs on $T/c there; its pid in $NS (and NS_PIDS), its namespace's inode in $INO.
cloned() {
	"$NSBURST" "$1" "$T/c" >"$T/cloned" </dev/null 2>&1 3>&- &
	NS_PIDS="${NS_PIDS:-} $!"
	wait_until grep -q '^[0-9]' "$T/cloned"
	NS=$(head -n 1 "$T/cloned")
	NS_PIDS="$NS_PIDS $NS"
	INO=$(stat -L -c %i "/proc/$NS/ns/mnt")
}

@test "-N all with the capture: namespaces made by unshare, clone and clone3, or entered by setns, are seen at their calls" {
	need_root
	need_walk
	mkdir "$T/c"
	kept_ns
	start_watchq -N all mounts "$T/c"
	capture_or_skip
	new_ns unshared
	wait_until announced_at "$T/c" "$INO"
	for how in clone clone3; do
		cloned "$how"
		wait_until announced_at "$T/c" "$INO"
		wait_until grep -q "^meta ns_new mounts $T/c pid=$NS ns=$INO " "$T/out"
	done
	nsenter --mount="$T/nsfile" sleep 1000 </dev/null >/dev/null 2>&1 3>&- &
	NS_PIDS="$NS_PIDS $!"
	wait_until announced_at "$T/c" "$kept"
	stop_watchq
	umount "$T/nsfile"
	# Without it (--no-bpf) the readiness line does not say so, and no capture is loaded.
	start_watchq --no-bpf -N all mounts "$T/c"
	run ! grep -q "new ones seen at their calls" "$T/err"
	[ "$(ls -l "/proc/$WQ_PID/fd" | grep -c 'anon_inode:bpf')" -eq 0 ]
	stop_watchq
}

# par_tally MADE: of the mounts nsburst par made (MADE: its "NAME INO" lines), "N M L B T": how
# many; how many $T/out (JSON) has as a mount record of their namespace; how many others a loss
# record of their namespace or of none covers; how many are left; how many mounts transient
# records count.
par_tally() {
	jq -rs --rawfile made "$1" '
		($made | split("\n") | map(select(startswith("par-")) | split(" ")
		    | { name: .[0], ns: (.[1] | tonumber) })) as $m
		| [.[] | select(.event == "mount") | [.device, .mnt_ns]] as $mounts
		| [.[] | select(.event == "loss") | .mnt_ns] as $losses
		| [$m[] | select([.name, .ns] as $k | $mounts | index([$k]) | not)] as $unseen
		| [$unseen[] | select(.ns as $ns | $losses | (index($ns) or index(null)) | not)] as $left
		| "\($m | length) \(($m | length) - ($unseen | length))"
		    + " \(($unseen | length) - ($left | length)) \($left | length)"
		    + " \([.[] | select(.event == "transient") | .count] | add // 0)"' "$T/out"
}

# par_accounted MADE: every mount nsburst par made is a mount record, covered by a loss record or
# counted in a transient record.
par_accounted() {
	local n m l b t
	read -r n m l b t < <(par_tally "$1")
	[ "$n" -gt 0 ] && [ "$b" -le "$t" ]
}

@test "-N all with the capture: namespaces made 4 at a time, each mounting once and gone at once: every mount is a mount, a loss or a transient" {
	need_root
	need_walk
	mkdir "$T/a"
	start_watchq -N all --json mounts "$T/a"
	# Without it, a namespace gone before a listing is not seen at all (man page).
	capture_or_skip
	for how in mount umount; do
		"$NSBURST" par 200 4 "$T/a" $([ $how = mount ] || echo umount) >"$T/made"
		[ "$(tail -n 1 "$T/made")" = done ]
		[ "$(grep -c '^par-' "$T/made")" -eq 200 ]
		# Two namespaces one after the other: the listing that finds the second began after
		# every call above was made.
		for i in 1 2; do
			new_ns "end-$how-$i"
			wait_until grep -q "\"event\":\"ns_new\".*\"mnt_ns\":$INO[,}]" "$T/out"
		done
		wait_until par_accounted "$T/made" || { par_tally "$T/made"; false; }
		echo "$how: made, mount records, covered by a loss, left, transient: $(par_tally "$T/made")"
	done
	stop_watchq
	[ "$WQ_STATUS" -eq 0 ]
}

# flips_ns: a namespace of its own ($NS, $INO) with a tmpfs on $T/f there, $T/f/a (a tmpfs),
# $T/f/b and $T/f/churn to mount on, and 300 more tmpfs mounts below $T/f.
flips_ns() {
	mkdir -p "$T/f"
	new_ns flips
	nsenter -t "$NS" -m sh -c 'mount -t tmpfs f "$1" && mkdir "$1/a" "$1/b" "$1/churn" &&
	    mount -t tmpfs a "$1/a" && "$2" populate "$1" 300' - "$T/f" "$BURST"
}

@test "-N all with the capture: mounts made in a namespace without a pause cost no re-read of its mounts" {
	need_root
	need_walk
	command -v strace >/dev/null || skip "strace not installed"
	flips_ns
	start_traced -- -N all --format '%e %p %N' mounts "$T/f"
	capture_or_skip
	before=$(statmounts)
	# 2 s of a mount and an unmount every 10 ms there. Each signal that comes with their
	# records owed a re-read of the ~300 watched mounts before, paid within a second.
	nsenter -t "$NS" -m "$BURST" every "$T/f/churn" 10 2 >/dev/null
	nsenter -t "$NS" -m mount -t tmpfs sentinel "$T/f/churn"
	wait_until grep -qx "mount $T/f/churn $INO" "$T/out"
	n=$(( $(statmounts) - before ))
	stop_traced
	# One per mount made (at most 201): no re-read of the 300.
	echo "statmount calls: $n"
	[ "$n" -lt 300 ]
}

@test "-N all with the capture: a remount is read, alone or with the records of mounts" {
	need_root
	need_walk
	flips_ns
	start_watchq -N all --format '%e %p %N' mounts "$T/f"
	capture_or_skip
	# Stopped, watchq reads the mount's record and the remount's signal at one wake-up. A
	# remount of the mount alone (bind), then of its superblock (counted for every namespace).
	for how in remount,bind,ro:readonly remount,rw:writable; do
		kill -STOP "$WQ_PID"
		nsenter -t "$NS" -m sh -c 'mkdir -p "$1/$3" && mount -t tmpfs x "$1/$3" &&
		    mount -o "$2" "$1/a"' - "$T/f" "${how%:*}" "b-${how%:*}"
		kill -CONT "$WQ_PID"
		wait_until grep -qx "mount $T/f/b-${how%:*} $INO" "$T/out"
		wait_until grep -qx "${how#*:} $T/f/a $INO" "$T/out"
	done
	# Alone, each while watchq waits: the signal is not polled while the records account for
	# every change; the capture's count of the namespace's calls has its mounts read.
	for how in remount,bind,ro:readonly remount,rw:writable; do
		nsenter -t "$NS" -m mount -o "${how%:*}" "$T/f/a"
		wait_until occurs 2 "${how#*:} $T/f/a $INO"
	done
	stop_watchq
}

# occurs N LINE: LINE is in $T/out N times.
occurs() {
	[ "$(grep -cx -- "$2" "$T/out")" -eq "$1" ]
}

@test "-N all with the capture: entering a namespace (setns) lists the namespaces only while one waits for a process" {
	need_root
	need_walk
	command -v strace >/dev/null || skip "strace not installed"
	mkdir -p "$T/s"
	new_ns entered
	start_traced -e trace=ioctl -- -N all --format '%e %p %N' mounts "$T/s"
	capture_or_skip
	before=$(grep -c 'ioctl(' "$T/strace" || true)
	# 20 setns(2) into a namespace watched already. Each listed every namespace before (an
	# ioctl per namespace and more); the listing every five seconds may come once or twice.
	for i in $(seq 20); do nsenter -t "$NS" -m true; done
	nsenter -t "$NS" -m mount -t tmpfs sentinel "$T/s"
	wait_until grep -qx "mount $T/s $INO" "$T/out"
	n=$(( $(grep -c 'ioctl(' "$T/strace" || true) - before ))
	stop_traced
	nns=$(lsns -n -t mnt | wc -l)
	echo "ioctl calls: $n, mount namespaces: $nns"
	# A namespace kept without a process (another run's nsfs file) has each setns list them.
	if grep -q 'no process in it' "$T/err"; then
		skip "$(grep 'no process in it' "$T/err" | head -n 1)"
	fi
	[ "$n" -lt $(( 3 * (nns + 2) )) ]
}

# group_or_skip: watchq (started) watches on fanotify, where -N all has its one group.
group_or_skip() {
	[ "$(backend_used)" = fanotify ] || skip "on $(backend_used): no fanotify group"
}

# fanotify_fds: how many fanotify groups watchq holds.
fanotify_fds() {
	ls -l "/proc/$WQ_PID/fd" | grep -c 'anon_inode:\[fanotify\]' || true
}

# marked INO: watchq's fanotify group has a mark on mount namespace INO.
marked() {
	cat "/proc/$WQ_PID/fdinfo/"* 2>/dev/null | grep -q "^fanotify mnt_ns:$1 "
}

@test "-N all on fanotify: one group for every namespace, a mark on each; one gone takes its mark" {
	need_root
	local i pids=() inos=()
	start_watchq -N all mounts "$T"
	group_or_skip
	for i in 1 2 3 4 5; do
		new_ns "g$i"
		pids+=("$NS") inos+=("$INO")
		wait_until announced "$INO" "$NSCG"
	done
	[ "$(fanotify_fds)" -eq 1 ]
	for i in 0 1 2 3 4; do
		marked "${inos[$i]}"
	done
	marked "$(stat -L -c %i /proc/self/ns/mnt)"
	kill -KILL "${pids[0]}"
	wait_until grep -q "^meta ns_gone mounts $T pid=[0-9]* ns=${inos[0]} " "$T/out"
	wait_until eval "! marked ${inos[0]}"
	marked "${inos[1]}"
	[ "$(fanotify_fds)" -eq 1 ]
	stop_watchq
	[ "$WQ_STATUS" -eq 0 ]
}

@test "-N all on fanotify: a mount propagated into other namespaces is reported in each, and its unmount" {
	need_root
	local i ino inos=()
	mkdir "$T/p"
	mount -t tmpfs shared "$T/p"
	mount --make-shared "$T/p"
	start_watchq -N all mounts "$T/p"
	group_or_skip
	# Namespaces copied from ours as it is: their copies of $T/p are its peers.
	for i in 1 2; do
		unshare -m --propagation unchanged sleep 1000 </dev/null >/dev/null 2>&1 3>&- &
		NS_PIDS="${NS_PIDS:-} $!"
		wait_until in_new_ns "$!"
		inos+=("$(stat -L -c %i "/proc/$!/ns/mnt")")
		wait_until announced_at "$T/p" "${inos[-1]}"
	done
	inos+=("$(stat -L -c %i /proc/self/ns/mnt)")
	mkdir "$T/p/x"
	mount -t tmpfs spread "$T/p/x"
	for ino in "${inos[@]}"; do
		wait_until unmarked_has "mount mount $T/p/x tmpfs spread ns=$ino cgroup=$CG"
	done
	umount "$T/p/x"
	for ino in "${inos[@]}"; do
		wait_until unmarked_has "mount unmount $T/p/x tmpfs spread ns=$ino cgroup=$CG"
	done
	stop_watchq
	# Each once, in its own namespace, and nothing transient.
	[ "$(grep -c "^mount mount $T/p/x " "$T/out")" -eq 3 ] || { cat "$T/out"; false; }
	[ "$(grep -c "^mount unmount $T/p/x " "$T/out")" -eq 3 ] || { cat "$T/out"; false; }
	run ! grep -q '^mount transient' "$T/out"
}

@test "-N all on fanotify: a mount whose process is gone before watchq reads it is in its namespace" {
	need_root
	mkdir "$T/a"
	new_ns late1
	a=$NS a_ino=$INO a_cg=$NSCG
	new_ns late2
	b=$NS b_ino=$INO b_cg=$NSCG
	start_watchq -N all mounts "$T"
	group_or_skip
	wait_until announced "$a_ino" "$a_cg"
	wait_until announced "$b_ino" "$b_cg"
	# mount(8) and nsenter have exited when watchq reads the records.
	kill -STOP "$WQ_PID"
	nsenter -t "$a" -m mount -t tmpfs late1 "$T/a"
	nsenter -t "$b" -m mount -t tmpfs late2 "$T/a"
	kill -CONT "$WQ_PID"
	wait_until unmarked_has "mount mount $T/a tmpfs late1 ns=$a_ino cgroup=$a_cg"
	wait_until unmarked_has "mount mount $T/a tmpfs late2 ns=$b_ino cgroup=$b_cg"
	stop_watchq
	[ "$(grep -c "^mount mount $T/a " "$T/out")" -eq 2 ] || { cat "$T/out"; false; }
}

@test "-N all on fanotify, one namespace watched, no capture: a mount whose process is gone is a mount there" {
	need_root
	mkdir "$T/x"
	new_ns solo
	a=$NS a_ino=$INO a_cg=$NSCG
	# A directory only that namespace has: the only one watched.
	nsenter -t "$a" -m sh -c "mount -t tmpfs solo $T/x && mkdir -p $T/x/only/m"
	start_watchq --no-bpf -N all mounts "$T/x/only"
	group_or_skip
	wait_until announced_at "$T/x/only" "$a_ino"
	[ "$(grep -c '^meta ns_new ' "$T/out")" -eq 1 ] || { cat "$T/out"; false; }
	kill -STOP "$WQ_PID"
	nsenter -t "$a" -m mount -t tmpfs solo-m "$T/x/only/m"
	kill -CONT "$WQ_PID"
	wait_until unmarked_has "mount mount $T/x/only/m tmpfs solo-m ns=$a_ino cgroup=$a_cg"
	stop_watchq
	run ! grep -q '^mount transient' "$T/out"
}

@test "-N all on fanotify: a namespace made shared after its mounts were read, its mounts' copies elsewhere are theirs" {
	need_root
	mkdir "$T/p"
	new_ns origin
	x=$NS x_ino=$INO
	# No remount events: nothing reads the namespace's mounts again after the first time.
	# (Transient ones are asked for: they are what is checked last.)
	start_watchq -N all -e mount,unmount,transient mounts "$T"
	group_or_skip
	wait_until announced "$x_ino" "$NSCG"
	nsenter -t "$x" -m mount -t tmpfs p "$T/p"
	wait_until grep -q "^mount mount $T/p tmpfs p .* ns=$x_ino " "$T/out"
	# Shared now; a namespace copied from it has a peer of it.
	nsenter -t "$x" -m sh -c "mount --make-shared $T/p && mkdir $T/p/m"
	nsenter -t "$x" -m unshare -m --propagation unchanged sleep 1000 </dev/null >/dev/null 2>&1 3>&- &
	NS_PIDS="$NS_PIDS $!"
	wait_until in_ns_of_its_own "$!" "$x"
	z_ino=$(stat -L -c %i "/proc/$!/ns/mnt")
	wait_until announced "$z_ino" "$NSCG"
	nsenter -t "$x" -m mount -t tmpfs spread "$T/p/m"
	wait_until grep -q "^mount mount $T/p/m tmpfs spread .* ns=$x_ino " "$T/out"
	wait_until grep -q "^mount mount $T/p/m tmpfs spread .* ns=$z_ino " "$T/out"
	# Gone before watchq reads them, a mount and its copy: neither is said to be x's (where a
	# mount of x has been shared, the capture's word that the call was made there is no proof).
	nsenter -t "$x" -m sh -c "mkdir $T/p/n && umount $T/p/m"
	wait_until grep -q "^mount unmount $T/p/m tmpfs spread .* ns=$z_ino " "$T/out"
	kill -STOP "$WQ_PID"
	nsenter -t "$x" -m sh -c "mount -t tmpfs brief $T/p/n && umount $T/p/n"
	kill -CONT "$WQ_PID"
	nsenter -t "$x" -m mount -t tmpfs sentinel "$T/p/m"
	wait_until grep -q "^mount mount $T/p/m tmpfs sentinel .* ns=$z_ino " "$T/out"
	stop_watchq
	run ! grep -q "^mount transient .* ns=$x_ino " "$T/out"
	run ! grep -q 'tmpfs brief' "$T/out"
}

# transients_at_least N: the transient records in $T/out count at least N mounts.
transients_at_least() {
	[ "$(jq -s '[.[] | select(.event == "transient") | .count] | add // 0' "$T/out")" -ge "$1" ]
}

@test "-N all on fanotify: a mount gone before any namespace could read it is transient, in its namespace only where that is sure" {
	need_root
	mkdir "$T/a" "$T/s"
	new_ns brief1
	a=$NS a_ino=$INO
	# One with a shared mount: a mount made there may be a copy in another namespace.
	new_ns brief2
	b=$NS b_ino=$INO
	nsenter -t "$b" -m sh -c "mount -t tmpfs s $T/s && mount --make-shared $T/s && mkdir $T/s/x"
	start_watchq -N all --json mounts "$T"
	group_or_skip
	for ino in "$a_ino" "$b_ino"; do
		wait_until grep -q "\"event\":\"ns_new\".*\"mnt_ns\":$ino[,}]" "$T/out"
	done
	# Mounted and unmounted while watchq reads nothing: the records name no namespace, and no
	# namespace has the mounts any more.
	kill -STOP "$WQ_PID"
	nsenter -t "$a" -m sh -c "mount -t tmpfs brief $T/a && umount $T/a"
	nsenter -t "$b" -m sh -c "mount -t tmpfs brief $T/s/x && umount $T/s/x"
	kill -CONT "$WQ_PID"
	wait_until transients_at_least 2
	stop_watchq
	run ! grep -q '"device":"brief"' "$T/out"
	jq_event transient '.path == null'
	# Where the capture saw the mount call made in a namespace without a shared mount, there;
	# else in none. Never in the namespace with the shared mount.
	if grep -q "new ones seen at their calls" "$T/err"; then
		jq -e -s --argjson a "$a_ino" '[.[] | select(.event == "transient" and .mnt_ns == $a) | .count] | add == 1' "$T/out"
	fi
	jq -e -s --argjson a "$a_ino" '[.[] | select(.event == "transient" and .mnt_ns != $a) | .mnt_ns] | all(. == null)' "$T/out"
	jq -e -s '[.[] | select(.event == "transient" and .mnt_ns == null) | .cgroup] | all(. == null)' "$T/out"
}

@test "-N all where the kernel has no nsfs walk: listed from /proc, each mount in its namespace" {
	need_root
	if kernel_at_least 6 12; then skip "this kernel has the nsfs walk (Linux 6.12): runs in the 6.1 VM (WATCHQ_VM_KERNEL=6.1 make vm-check)"; fi
	mkdir "$T/a" "$T/b"
	new_ns one
	a=$NS a_ino=$INO
	start_watchq -N all mounts "$T"
	new_ns two
	b=$NS b_ino=$INO
	wait_until announced_at "$T" "$b_ino"
	nsenter -t "$a" -m mount -t tmpfs in-one "$T/a"
	nsenter -t "$b" -m mount -t tmpfs in-two "$T/b"
	wait_until grep -q "^mount mount $T/a tmpfs in-one .* ns=$a_ino cgroup=" "$T/out"
	wait_until grep -q "^mount mount $T/b tmpfs in-two .* ns=$b_ino cgroup=" "$T/out"
	stop_watchq
	[ "$WQ_STATUS" -eq 0 ]
	# Each once, under its own namespace only.
	[ "$(grep -c "^mount mount $T/a " "$T/out")" -eq 1 ] || { cat "$T/out"; false; }
	[ "$(grep -c "^mount mount $T/b " "$T/out")" -eq 1 ] || { cat "$T/out"; false; }
}

@test "-N all: a mount in another namespace by a process gone before the read is named as at its call" {
	need_root
	[ -z "${WATCHQ_BACKEND:-}" ] || skip "names come from the fanotify backend's capture"
	mkdir "$T/a"
	new_ns x
	start_watchq --json -N all mounts "$T"
	grep -q "new ones seen at their calls) (backend fanotify)" "$T/err" || skip "no process capture here: $(cat "$T/err")"
	wait_until grep -q "\"ns_new\".*\"mnt_ns\":$INO" "$T/out"
	kill -STOP "$WQ_PID"
	nsenter -t "$NS" -m "$BURST" as wq-in-ns mount wq "$T/a" &
	m=$!
	wait "$m"
	kill -CONT "$WQ_PID"
	wait_until grep -q '"event":"mount"' "$T/out"
	stop_watchq
	jq -e -s --argjson m "$m" --arg a "$T/a" --argjson ns "$INO" '
		[.[] | select(.event == "mount")] | length == 1 and
		all(.path == $a and .mnt_ns == $ns and .pid == $m and .comm == "wq-in-ns" and .uid == 0)' \
		"$T/out" || { cat "$T/out"; false; }
}

@test "-N all: a mount's cgroup is its process's at the call, where the capture saw it, not the namespace's" {
	need_root
	[ -z "${WATCHQ_BACKEND:-}" ] || skip "the fanotify backend's capture tells it"
	cg_setup
	[ -n "$CGDIR" ] || skip "$CG_WHY"
	mkdir "$T/a" "$CGDIR/mounter"
	new_ns x
	start_watchq --json -N all mounts "$T"
	grep -q "new ones seen at their calls) (backend fanotify)" "$T/err" || skip "no process capture here: $(cat "$T/err")"
	wait_until grep -q "\"ns_new\".*\"mnt_ns\":$INO" "$T/out"
	kill -STOP "$WQ_PID"
	# In the namespace, from another cgroup than its followed process's; gone before the read.
	sh -c 'echo $$ >"$1/cgroup.procs" && exec nsenter -t "$2" -m "$3" as wq-cg mount wq "$4"' - \
	    "$CGDIR/mounter" "$NS" "$BURST" "$T/a"
	kill -CONT "$WQ_PID"
	wait_until grep -q '"event":"mount"' "$T/out"
	stop_watchq
	want=${CGDIR#$(findmnt -n -t cgroup2 -o TARGET | head -n 1)}/mounter
	jq -e -s --arg cg "$want" --arg a "$T/a" '
		[.[] | select(.event == "mount")] | length == 1 and all(.path == $a and .comm == "wq-cg" and .cgroup == $cg)' \
		"$T/out" || { cat "$T/out"; echo "want $want, namespace's $NSCG"; false; }
}
