# Shared setup for the watchq bats suite: a scratch directory per test, a
# watchq started in the background whose readiness is awaited, and waits on
# conditions instead of sleeps.
bats_require_minimum_version 1.5.0

# Under tests/run-bats, through tests/watchq-logged: every JSON line is kept for json-check.
if [ -n "${WATCHQ_JSON_LOG:-}" ]; then
	WATCHQ=${WATCHQ:-$BATS_TEST_DIRNAME/watchq-logged}
fi
WATCHQ=${WATCHQ:-$BATS_TEST_DIRNAME/../watchq}
# Long enough for a loaded CI host (the VM suite and others beside it on two cores): a wait
# ends as soon as its condition holds, so only a test that fails waits this long.
WAIT_LIMIT=${WAIT_LIMIT:-30}

need_root() {
	[ "$(id -u)" -eq 0 ] || skip "needs root for mounts"
	unshare -m true 2>/dev/null || skip "cannot create a mount namespace here"
}

setup() {
	T=$(mktemp -d "${BATS_TMPDIR:-/tmp}/watchq.XXXXXX")
	WQ_PID=
	# As root, each test gets its own tmpfs, so that teardown can undo every mount at once.
	if [ "$(id -u)" -eq 0 ]; then
		mount -t tmpfs watchq-test "$T"
	fi
}

teardown() {
	local p
	# Processes that hold a mount namespace of the test (NS_PIDS), before its mounts go.
	for p in ${NS_PIDS:-}; do
		kill -KILL "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	# Processes that made a change and stayed (hold), so that they could be named.
	if [ -n "${HOLDERS:-}" ]; then
		kill $HOLDERS 2>/dev/null || true
		wait $HOLDERS 2>/dev/null || true
	fi
	if [ -n "${WQ_PID:-}" ]; then
		kill -KILL "$WQ_PID" 2>/dev/null || true
		wait "$WQ_PID" 2>/dev/null || true
	fi
	json_collect
	[ -z "${WATCHQ_JSON_LOG:-}" ] || : >"$WATCHQ_JSON_LOG/files"
	if [ -n "${T:-}" ]; then
		while mountpoint -q "$T"; do
			umount -R -l "$T" 2>/dev/null || umount -l "$T" || break
		done
		rm -rf "$T"
	fi
	# A sysctl a test changed (RESTORE_SYSCTL="FILE VALUE") gets its value back.
	if [ -n "${RESTORE_SYSCTL:-}" ]; then
		echo "${RESTORE_SYSCTL#* }" >"${RESTORE_SYSCTL%% *}"
	fi
	# A loop device of make_ext4 is freed once its filesystem is gone.
	if [ -n "${LOOPDEV:-}" ]; then
		losetup -d "$LOOPDEV" 2>/dev/null || true
	fi
	kill_leftovers
}

# kill_leftovers: a process a test started and left running keeps the suite's
# output open, and bats (then CI) waits for it for ever. Each writer of that
# output other than bats' own processes (this one and its ancestors) is named
# on the TAP stream and killed.
kill_leftovers() {
	local out ours=" " p=$BASHPID fd pid info
	out=$(readlink "/proc/$BASHPID/fd/3") || return 0
	while [ "${p:-0}" -gt 1 ]; do
		ours+="$p "
		p=$(awk '/^PPid:/ { print $2 }' "/proc/$p/status" 2>/dev/null)
	done
	# find -lname takes a pattern: the brackets of pipe:[INODE] are quoted.
	out=${out//[/\\[} out=${out//]/\\]}
	for fd in $(find /proc/[0-9]*/fd -lname "$out" 2>/dev/null); do
		pid=${fd#/proc/} pid=${pid%%/*}
		[[ $ours != *" $pid "* ]] || continue
		# The reading end is bats' own (flags in fdinfo are octal: O_ACCMODE 3).
		info=$(awk '$1 == "flags:" { print $2 }' "/proc/$pid/fdinfo/${fd##*/}" 2>/dev/null) || continue
		(( (8#${info:-0} & 3) != 0 )) || continue
		echo "# teardown: killed pid $pid, left running by this test: $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" >&3
		kill -KILL "$pid" 2>/dev/null || true
		ours+="$pid "
	done
}

# json_collect: copy into a stream file of $WATCHQ_JSON_LOG the JSON records that
# watchq-logged saw go to files: from the offset last listed for each file (a file
# opened again was listed again) to its end, which is listed as the next offset.
# sed keeps a last line without its newline so: json-check counts it as cut short.
json_collect() {
	local off path size
	[ -n "${WATCHQ_JSON_LOG:-}" ] && [ -s "$WATCHQ_JSON_LOG/files" ] || return 0
	awk -F '\t' '{ off[$2] = $1 } END { for (p in off) print off[p] "\t" p }' "$WATCHQ_JSON_LOG/files" |
		while IFS=$'\t' read -r off path; do
			[ -f "$path" ] || continue
			size=$(stat -c %s "$path")
			[ "$size" -le "$off" ] ||
				head -c "$size" "$path" | tail -c +$((off + 1)) | tr '\0' '\n' |
				sed -n '/^{/p' >"$(mktemp "$WATCHQ_JSON_LOG/stream.XXXXXXXX")"
			printf '%s\t%s\n' "$size" "$path"
		done >"$WATCHQ_JSON_LOG/next"
	# Copied, not moved: the list stays writable by the tests' unprivileged users.
	cat "$WATCHQ_JSON_LOG/next" >"$WATCHQ_JSON_LOG/files"
}

# make_ext4 MKFS_OPTS MOUNT_OPTS: an 8 MiB ext4 image in $T on a loop device
# ($LOOPDEV, $LOOPNAME), mounted on $T/fs.
make_ext4() {
	need_root
	command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 not installed"
	truncate -s 8M "$T/fs.img"
	mkfs.ext4 -q -F $1 "$T/fs.img" || skip "mkfs.ext4 $1 failed"
	LOOPDEV=$(losetup -f --show "$T/fs.img" 2>/dev/null) || skip "no loop device"
	LOOPNAME=${LOOPDEV##*/}
	mkdir "$T/fs"
	mount -t ext4 ${2:+-o "$2"} "$LOOPDEV" "$T/fs" || return 1
}

# wait_until CMD...: run CMD until it succeeds, failing after WAIT_LIMIT seconds.
wait_until() {
	local i=0 n=$((WAIT_LIMIT * 20))
	until "$@"; do
		i=$((i + 1))
		if [ "$i" -ge "$n" ]; then
			echo "wait_until: timed out: $*" >&2
			return 1
		fi
		sleep 0.05
	done
}

# start_watchq ARGS...: run watchq in the background (on $WATCHQ_BACKEND if
# set), stdout to $T/out, stderr to $T/err, and return once it says it is watching.
start_watchq() {
	json_collect	# what an earlier watchq wrote to $T/out, before it is truncated
	# Empty them first: the child's own redirection truncates them only once it runs, and a
	# readiness check before that would read the last run's lines.
	: >"$T/out"
	: >"$T/err"
	"$WATCHQ" ${WATCHQ_BACKEND:+--backend="$WATCHQ_BACKEND"} "$@" >"$T/out" 2>"$T/err" &
	WQ_PID=$!
	wait_until ready_or_dead
	if ! grep -q '^watchq: \(watching\|waiting\)' "$T/err"; then
		echo "watchq did not become ready:" >&2
		cat "$T/err" >&2
		return 1
	fi
}

ready_or_dead() {
	grep -q '^watchq: \(watching\|waiting\)' "$T/err" 2>/dev/null || ! kill -0 "$WQ_PID" 2>/dev/null
}

# lines_at_least N [FILE]: FILE (default $T/out) has at least N lines.
lines_at_least() {
	[ "$(wc -l <"${2:-$T/out}")" -ge "$1" ]
}

# stop_watchq: SIGTERM, then set $WQ_STATUS.
stop_watchq() {
	kill -TERM "$WQ_PID"
	WQ_STATUS=0
	wait "$WQ_PID" || WQ_STATUS=$?
	WQ_PID=
}

# finish_watchq: wait for a watchq that ends by itself, then set $WQ_STATUS.
finish_watchq() {
	WQ_STATUS=0
	wait "$WQ_PID" || WQ_STATUS=$?
	WQ_PID=
}

# jq_event EVENT EXPR: $T/out has lines of EVENT, and EXPR holds for each of them.
jq_event() {
	jq -e -s --arg ev "$1" "[.[] | select(.event == \$ev)] | length > 0 and all($2)" "$T/out" >/dev/null ||
		{ echo "jq_event $1: $2 does not hold in:"; cat "$T/out"; return 1; }
}

# statmounts: how many statmount(2) calls $T/strace holds (strace 6.1 does not name it: 457).
statmounts() {
	grep -c 'syscall_0x1c9(' "$T/strace" || true
}

# start_traced STRACE_OPTION... -- ARG...: watchq ARGs under strace -f -qq, its trace in
# $T/strace, its output in $T/out and $T/err, once ready; $WQ_PID is strace's.
start_traced() {
	local opts=()
	while [ "$1" != -- ]; do
		opts+=("$1")
		shift
	done
	shift
	: >"$T/err"
	strace -f -qq "${opts[@]}" -o "$T/strace" "$WATCHQ" "$@" >"$T/out" 2>"$T/err" &
	WQ_PID=$!
	wait_until ready_or_dead
}

# stop_traced: end the watchq start_traced started (its strace ends with it).
stop_traced() {
	kill -TERM "$(pgrep -P "$WQ_PID")"
	wait "$WQ_PID" || true
	WQ_PID=
}

# build_burst: tests/burst.c, the C driver of mount changes, built once for the
# file as $BURST (from setup_file).
build_burst() {
	export BURST=$BATS_FILE_TMPDIR/burst
	cc -O2 -o "$BURST" "$BATS_TEST_DIRNAME/burst.c"
}

# build_adv: tests/adv.c, the scripted process of the adversarial tests, as $ADV.
build_adv() {
	export ADV=$BATS_FILE_TMPDIR/adv
	cc -O2 -pthread -o "$ADV" "$BATS_TEST_DIRNAME/adv.c"
}

# hold NAME OP...: make one change (an OP of tests/burst.c) as a process called
# NAME that stays until teardown, so that watchq can read its name; its pid is
# $HELD. $HOLD_AS, if set, is a command to run it through (setpriv ...).
hold() {
	: >"$T/held"
	${HOLD_AS:-} "$BURST" hold "$@" >"$T/held" &
	HELD=$!
	HOLDERS="${HOLDERS:-} $HELD"
	wait_until held_or_dead
	grep -q '^done$' "$T/held"
}

held_or_dead() {
	grep -q '^done$' "$T/held" || ! kill -0 "$HELD" 2>/dev/null
}

# by PID NAME [UID]: the mark of a change made by the process PID called NAME
# (uid 0 unless given), as this test's watchq prints it: unknown on mountinfo.
by() {
	if [ "$(backend_used)" = mountinfo ] && ! capture_used; then
		echo "pid=- uid=- comm=-"
	else
		echo "pid=$1 uid=${3:-0} comm=$2"
	fi
}

# unmarked [FILE]: FILE (default $T/out) with the mark of who made each change (" pid=N uid=N
# comm=NAME", the end of its line but for the " ns=N cgroup=PATH" of -N) checked and taken
# off. A mount, unmount or move: on the mountinfo backend without the process capture every part
# is unknown (-); else each is a value or unknown. A readonly, writable, setattr or propagation: every part unknown, or, unless
# the readiness line says the process capture is not loaded, a process of uid 0 whose name
# matches the regex $FLIP_COMM (default mount). A line without its mark, or with another
# shape, comes out as "BAD MARK: LINE", so that no comparison holds.
unmarked() {
	local be cap=
	be=$(backend_used 2>/dev/null || true)
	[ -z "$be" ] || capture_used || cap=no
	awk -v mi="$([ "${be:-${WATCHQ_BACKEND:-}}" = mountinfo ] && [ "$cap" = no ] && echo 1)" \
	    -v nocap="$cap" \
	    -v fc="${FLIP_COMM:-mount}" '
		function mark(shape,	ns) {
			ns = ""
			if (match($0, / ns=[0-9]+ cgroup=[^ ]*$/)) {
				ns = substr($0, RSTART)
				$0 = substr($0, 1, RSTART - 1)
			}
			if (!sub(/ pid=- uid=- comm=-$/, "") && (shape == "" || !sub(shape, "")))
				$0 = "BAD MARK: " $0
			$0 = $0 ns
		}
		/(^| )mount (mount|unmount|move|move_from|move_to) / {
			mark(mi ? "" : " pid=([1-9][0-9]*|-) uid=([0-9]+|-) comm=[^ ]*$")
		}
		/(^| )mount (readonly|writable|setattr|propagation) / {
			mark(mi || nocap ? "" : " pid=[1-9][0-9]* uid=0 comm=(" fc ")$")
		}
		{ print }' "${1:-$T/out}"
}

# unmarked_has LINE: whether $T/out, unmarked, holds LINE.
unmarked_has() {
	unmarked | grep -qxF -- "$1"
}

# json_bytes FIELD LINE: the bytes of the JSON LINE's FIELD as od -tx1 prints
# them, from FIELD_b64 where the line carries it (a string that is not UTF-8).
json_bytes() {
	if echo "$2" | jq -e --arg f "$1_b64" 'has($f)' >/dev/null; then
		echo "$2" | jq -r --arg f "$1_b64" '.[$f]' | base64 -d | od -An -tx1
	else
		echo "$2" | jq -j --arg f "$1" '.[$f]' | od -An -tx1
	fi
}

# backend_used: the backend named on the readiness line in $T/err (without the +bpf:KIND of the
# process capture: capture_used tells that).
backend_used() {
	sed -n 's/^watchq: .* (backend \(.*\))$/\1/p' "$T/err" | sed 's/+bpf:[a-z-]*$//'
}

# capture_label: the +bpf:KIND the readiness line in $T/err adds for the process capture, or nothing.
capture_label() {
	sed -n 's/^watchq: .* (backend [a-z]*\(+bpf:[a-z-]*\))$/\1/p' "$T/err"
}

# capture_used: whether the readiness line in $T/err says the process capture is loaded.
capture_used() {
	[ -n "$(capture_label)" ]
}

# message_ids: "SOURCE EVENT MESSAGE_ID" for each kind of event, as JOURNAL in
# watchq-records(5) lists them.
message_ids() {
	sed -n '/^# JOURNAL$/,/^# /p' "$BATS_TEST_DIRNAME/../watchq-records.5.scd" |
		sed -n 's/^\(mount\|key\|sb\|meta\) \([a-z_]*\) *\([0-9a-f]\{32\}\)$/\1 \2 \3/p'
}

# kernel_at_least MAJOR MINOR
kernel_at_least() {
	local v
	v=$(uname -r)
	[ "${v%%.*}" -gt "$1" ] || { [ "${v%%.*}" -eq "$1" ] && v=${v#*.} && [ "${v%%[!0-9]*}" -ge "$2" ]; }
}
