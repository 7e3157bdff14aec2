#!/usr/bin/env bats
# Adversarial cases of who made a change (issue 32's truth rule): each test sets up a record
# whose process must be named `-` (or by the call that made it), and fails where watchq names
# another process, or the same process as it was at another call.
load helper

setup_file() {
	build_burst
	build_adv
}

need_capture() {
	local err
	need_root
	kernel_at_least 6 15 || skip "fanotify mount events need Linux 6.15"
	err=$("$WATCHQ" -t 0 mounts / 2>&1 >/dev/null) || true
	case $err in
	*"(backend fanotify+bpf:"*) ;;
	*) skip "no capture: $err" ;;
	esac
}

# peers: $T/p1 a shared tmpfs, $T/p2 its peer (a bind mount), $T/p1/a a directory in both.
peers() {
	mkdir -p "$T/p1" "$T/p2"
	mount -t tmpfs pp "$T/p1"
	mount --make-shared "$T/p1"
	mount --bind "$T/p1" "$T/p2"
	mkdir "$T/p1/a"
}

show() { echo "--- out"; cat "$T/out"; echo "--- err"; cat "$T/err"; }

# while_stopped ADV-STEPS...: with watchq stopped, tests/adv.c's steps by a process that stays
# (until teardown), done before watchq reads again.
while_stopped() {
	kill -STOP "$WQ_PID"
	"$ADV" "$@" say done hold >"$T/h" &
	HOLDERS=$!
	wait_until grep -q done "$T/h"
	kill -CONT "$WQ_PID"
}

# settled: every record before it has been read: a mount made now is reported (records come in
# order), so any line the changes before it could bring is out.
settled() {
	mkdir -p "$T/zz"
	mount -t tmpfs sentinel "$T/zz"
	wait_until grep -q '"device":"sentinel"' "$T/out"
}

@test "adv: a propagation copy made by a process's second call is not named as at its first" {
	need_capture
	peers
	start_watchq --json mounts "$T"
	kill -STOP "$WQ_PID"
	"$ADV" name wq-first mount "$T/p1/a" name wq-second mount "$T/p2/a" say done hold >"$T/h" &
	p=$!
	HOLDERS=$p
	wait_until grep -q done "$T/h"
	kill -CONT "$WQ_PID"
	wait_until lines_at_least 4
	stop_watchq
	show
	# The copy at p1/a that the second call made (the later mount there) was made as wq-second.
	jq -e -s --arg a "$T/p1/a" '[.[] | select(.event == "mount" and .path == $a)] |
		length == 2 and (.[1].comm == null or .[1].comm == "wq-second")' "$T/out"
}

@test "adv: a pid taken again: a propagation copy is not named for the other process's call at its path" {
	need_capture
	peers
	start_watchq --json mounts "$T"
	kill -STOP "$WQ_PID"
	"$ADV" name wq-victim mount "$T/p1/a" &
	r=$!
	wait "$r"
	"$ADV" nsas "$r" name wq-contain mount "$T/p2/a" || skip "clone3 with set_tid failed"
	kill -CONT "$WQ_PID"
	wait_until lines_at_least 4
	stop_watchq
	show
	# Mounts by call: p1/a's first (victim's call), p2/a's first (a copy, made in the victim's
	# call), p2/a's second (contain's call), p1/a's second (a copy, made in contain's call).
	jq -e -s --arg a "$T/p1/a" --arg b "$T/p2/a" '
		([.[] | select(.event == "mount" and .path == $a)] | .[1].comm != "wq-victim") and
		([.[] | select(.event == "mount" and .path == $b)] | .[0].comm != "wq-contain")' "$T/out"
}

# debugfs on $T/dbg, whose "tracing" automounts tracefs when walked into; skips where it cannot.
automount_point() {
	mkdir "$T/dbg"
	mount -t debugfs none "$T/dbg" || skip "cannot mount debugfs here"
	[ -d "$T/dbg/tracing" ] || skip "no tracing directory in debugfs"
	mountpoint -q "$T/dbg/tracing" && umount "$T/dbg/tracing"
	return 0
}

@test "adv: an automount where a reaped mounter had mounted, walked into by its pid's next process, names nobody" {
	need_capture
	automount_point
	start_watchq --json mounts "$T"
	kill -STOP "$WQ_PID"
	"$ADV" name wq-victim mount "$T/dbg/tracing" umount "$T/dbg/tracing" &
	r=$!
	wait "$r" || skip "cannot mount on the automount point"
	"$ADV" nsas "$r" name wq-walker walk "$T/dbg/tracing" || skip "clone3 with set_tid failed"
	[ "$(findmnt -n -o FSTYPE "$T/dbg/tracing")" = tracefs ] || skip "no tracefs automount here"
	kill -CONT "$WQ_PID"
	wait_until grep -q tracefs "$T/out"
	stop_watchq
	show
	jq -e -s --arg t "$T/dbg/tracing" '[.[] | select(.event == "mount" and .path == $t and .fstype == "tracefs")] |
		length == 1 and .[0].comm == null and .[0].uid == null' "$T/out"
}

@test "adv: a mount call by a relative path, then an automount walked into: the automount names nobody" {
	need_capture
	automount_point
	mkdir "$T/a"
	start_watchq --json mounts "$T"
	while_stopped name wq-mounter chdir "$T" mount a name wq-walker walk "$T/dbg/tracing"
	wait_until lines_at_least 2
	stop_watchq
	show
	jq -e -s --arg t "$T/dbg/tracing" '[.[] | select(.event == "mount" and .path == $t)] |
		length == 1 and .[0].comm == null and .[0].uid == null' "$T/out"
}

@test "adv: a superblock made read-only from another mount namespace is not named for a bind remount here" {
	need_capture
	mkdir "$T/x"
	mount -t tmpfs xx "$T/x"
	start_watchq --json mounts "$T"
	# Another namespace (private: no propagation) remounts the shared superblock read-only with
	# mount(2) MS_REMOUNT: our mount of it is read-only from now on.
	unshare -m --propagation private "$ADV" name wq-other remount "$T/x" ro
	grep -q '[[:space:]]ro[,[:space:]]' <(findmnt -n -o OPTIONS,VFS-OPTIONS,FS-OPTIONS "$T/x") || true
	findmnt -n -o OPTIONS "$T/x"
	# Here, a bind remount that only adds nosuid.
	"$ADV" name wq-nosuid bindnosuid "$T/x" say done hold >"$T/h" &
	HOLDERS=$!
	wait_until grep -q done "$T/h"
	sleep 1
	stop_watchq
	show
	# Whatever watchq says of the read-only state, it is not wq-nosuid's doing.
	jq -e -s '[.[] | select(.event == "readonly" and .comm == "wq-nosuid")] | length == 0' "$T/out"
}

# reused_at HOW: a process wq-victim mounts on $T/a and is reaped; a process that takes its pid
# (process 1 of a pid namespace below) mounts there again spelling the path HOW, and is reaped
# too, all before watchq reads: the second mount is not named wq-victim.
reused_at() {
	need_capture
	mkdir "$T/a"
	ln -s a "$T/l"
	start_watchq --json mounts "$T"
	kill -STOP "$WQ_PID"
	"$ADV" name wq-victim mount "$T/a" &
	r=$!
	wait "$r"
	case $1 in
	symlink) "$ADV" nsas "$r" name wq-other mount "$T/l" ;;
	relative) "$ADV" nsas "$r" name wq-other chdir "$T" mount a ;;
	slashes) "$ADV" nsas "$r" name wq-other mount "$T//a/" ;;
	esac || skip "clone3 with set_tid failed"
	kill -CONT "$WQ_PID"
	wait_until lines_at_least 2
	stop_watchq
	show
	jq -e -s --arg a "$T/a" '[.[] | select(.event == "mount" and .path == $a)] |
		length == 2 and (.[0].comm == "wq-victim" or .[0].comm == null) and .[1].comm != "wq-victim"' "$T/out"
}

@test "adv: a pid taken again: a mount through a symlink where the reaped process mounted is not named for it" {
	reused_at symlink
}

@test "adv: a pid taken again: a mount by a relative path where the reaped process mounted is not named for it" {
	reused_at relative
}

@test "adv: a pid taken again: a mount spelled with // where the reaped process mounted is not named for it" {
	reused_at slashes
}

@test "adv: a remount,ro through a symlink, then another process's bind remount: readonly is not named for the latter" {
	need_capture
	# Which of watchq's reads comes first varies (about 2 runs in 3 show it): three rounds.
	for i in 1 2 3; do
		mkdir "$T/x$i"
		ln -s "x$i" "$T/l$i"
		mount -t tmpfs xx "$T/x$i"
	done
	start_watchq --json mounts "$T"
	for i in 1 2 3; do
		kill -STOP "$WQ_PID"
		"$ADV" name wq-ro remount "$T/l$i" ro
		"$ADV" name wq-nosuid bindnosuid "$T/x$i" say done hold >"$T/h$i" &
		HOLDERS="${HOLDERS:-} $!"
		wait_until grep -q done "$T/h$i"
		kill -CONT "$WQ_PID"
		wait_until grep -q "readonly.*x$i" "$T/out"
		sleep 0.3
	done
	stop_watchq
	show
	jq -e -s '[.[] | select(.event == "readonly" and .comm == "wq-nosuid")] | length == 0' "$T/out"
}

# Judgment call: the capture reads the leader's comm (capture.bpf.c:396) but the calling thread's uid.
# A mount read where it is when watchq reads its record, not where its call made it: a place
# the same process had mounted at earlier (under another name) is no proof of the call.
@test "adv: a flip of a submount, then a move of its parent: a later flip there is not named for the first" {
	need_capture
	mkdir -p "$T/m" "$T/t"
	mount -t tmpfs pm "$T/m"
	mkdir "$T/m/s"
	mount -t tmpfs ps "$T/m/s"
	start_watchq mounts "$T"
	# One process makes the submount noexec and moves its parent, before watchq reads either.
	while_stopped name wq-first noexec "$T/m/s" move "$T/m" "$T/t"
	wait_until grep -q "^mount move $T/m/s -> $T/t/s " "$T/out"
	# Another makes the submount read-only at its new place: the noexec is not its.
	adv_fg name wq-second bindro "$T/t/s"
	wait_until grep -q "^mount readonly $T/t/s .*comm=wq-second$" "$T/out"
	grep "comm=wq-second$" "$T/out" >"$T/second"
	run ! grep -q "noexec.* (was [^)]*)" "$T/second"
	[ "$status" -eq 1 ] || { cat "$T/out"; false; }
}

@test "adv: a mount moved by another process onto a place where its mounter mounted earlier is not named as at that earlier call" {
	need_capture
	mkdir "$T/a" "$T/b"
	start_watchq --json mounts "$T"
	kill -STOP "$WQ_PID"
	"$ADV" name wq-first mount "$T/a" umount "$T/a" name wq-second mount "$T/b" say done hold >"$T/h" &
	HOLDERS=$!
	wait_until grep -q done "$T/h"
	"$ADV" name wq-mover move "$T/b" "$T/a"
	kill -CONT "$WQ_PID"
	wait_until lines_at_least 2
	settled
	stop_watchq
	show
	# The mount at a was made by the call as wq-second (or names nobody); never wq-first.
	jq -e -s '[.[] | select(.comm == "wq-first")] | length == 0' "$T/out"
}

@test "adv: a directory renamed above a mount: the mount is not named after its process's earlier call at the new path" {
	need_capture
	mkdir -p "$T/x/m" "$T/y/m"
	start_watchq --json mounts "$T"
	kill -STOP "$WQ_PID"
	"$ADV" name wq-first mount "$T/x/m" umount "$T/x/m" name wq-second mount "$T/y/m" \
	    rename "$T/x" "$T/z" rename "$T/y" "$T/x" say done hold >"$T/h" &
	HOLDERS=$!
	wait_until grep -q done "$T/h"
	kill -CONT "$WQ_PID"
	wait_until lines_at_least 1
	settled
	stop_watchq
	show
	jq -e -s '[.[] | select(.comm == "wq-first")] | length == 0' "$T/out"
}

# The spread rule reads the parent's propagation from the cache, which a flip not read yet leaves
# stale: a parent made shared after watchq last read it shows private.
@test "adv: a propagation copy under a parent made shared while watchq was behind is not named as at its process's earlier call there" {
	need_capture
	mkdir -p "$T/p1" "$T/p2"
	mount -t tmpfs pp "$T/p1"
	mkdir "$T/p1/a"
	start_watchq --json mounts "$T"
	kill -STOP "$WQ_PID"
	mount --make-shared "$T/p1"
	mount --bind "$T/p1" "$T/p2"
	"$ADV" name wq-first mount "$T/p1/a" umount "$T/p1/a" name wq-second mount "$T/p2/a" \
	    say done hold >"$T/h" &
	HOLDERS=$!
	wait_until grep -q done "$T/h"
	kill -CONT "$WQ_PID"
	wait_until lines_at_least 3
	settled
	stop_watchq
	show
	# The mounts left at p1/a and p2/a were both made by the call as wq-second.
	jq -e -s '[.[] | select(.comm == "wq-first")] | length == 0' "$T/out"
}

# Under a shared parent the path is not looked at, and only the calls that have a place (an
# absolute path from the same root) are counted: a call by a relative path is left out, and
# another call of the process is taken as the only one behind the record.
@test "adv: a mount by a relative path under a shared parent is not named after its process's other call elsewhere" {
	need_capture
	peers
	mkdir "$T/c"
	start_watchq --json mounts "$T"
	while_stopped name wq-first chdir "$T/p1" mount a name wq-second mount "$T/c"
	wait_until lines_at_least 3
	settled
	stop_watchq
	show
	# p1/a and its copy at p2/a were made by the call as wq-first: wq-second is not behind them.
	jq -e -s --arg a "$T/p1/a" --arg b "$T/p2/a" '[.[] | select((.path == $a or .path == $b) and
		.comm == "wq-second")] | length == 0' "$T/out"
}

# mount(2) tests MS_BIND before the propagation flags and MS_MOVE: MS_BIND|MS_PRIVATE and
# MS_BIND|MS_MOVE make a bind mount, an attach, which the join does not count as one.
bind_with() {
	need_capture
	mkdir "$T/a" "$T/src"
	start_watchq --json mounts "$T"
	kill -STOP "$WQ_PID"
	"$ADV" name wq-first mount "$T/a" umount "$T/a" name wq-second "$1" "$T/src" "$T/a" \
	    say done hold >"$T/h" &
	HOLDERS=$!
	wait_until grep -q done "$T/h"
	findmnt "$T/a"
	kill -CONT "$WQ_PID"
	wait_until lines_at_least 1
	settled
	stop_watchq
	show
	jq -e -s '[.[] | select(.comm == "wq-first")] | length == 0' "$T/out"
}

@test "adv: a bind mount made with MS_BIND|MS_PRIVATE is not named after its process's earlier mount there" {
	bind_with bindpriv
}

@test "adv: a bind mount made with MS_BIND|MS_MOVE is not named after its process's earlier mount there" {
	bind_with bindmove
}

# A propagation change in another mount namespace can change ours: the slaves of a peer group
# made private there lose their master here (do_make_slave()). A later call here that changes
# nothing is named for that change when its re-read finds it.
# lost_master HOW: the peer in another namespace leaves the group by HOW (private, umount).
lost_master() {
	need_capture
	mkdir "$T/x" "$T/y"
	mount -t tmpfs xx "$T/x"
	mount --make-shared "$T/x"
	unshare -m --propagation unchanged "$ADV" say ready usr1 name wq-other "$1" "$T/x" \
	    say done hold >"$T/h" &
	HOLDERS=$!
	wait_until grep -q ready "$T/h"
	mount --bind "$T/x" "$T/y"
	mount --make-slave "$T/y"
	mount --make-private "$T/x"
	findmnt -o TARGET,PROPAGATION "$T/y"
	start_watchq --json mounts "$T"
	kill -STOP "$WQ_PID"
	wait_until grep -q '^State:.*T' "/proc/$WQ_PID/status"
	kill -USR1 "$HOLDERS"
	wait_until grep -q done "$T/h"
	findmnt -o TARGET,PROPAGATION "$T/y"
	# make-slave of a mount that is no slave and no peer: it stays private, no change.
	"$ADV" name wq-slave slave "$T/y"
	kill -CONT "$WQ_PID"
	sleep 1.5
	stop_watchq
	show
	jq -e -s '[.[] | select(.comm == "wq-slave")] | length == 0' "$T/out"
}

@test "adv: a slave here losing its master to a make-private in another namespace is not named after a no-op make-slave here" {
	lost_master private
}

@test "adv: a slave here losing its master to an unmount in another namespace is not named after a no-op make-slave here" {
	lost_master umount
}

# A mount moved (MS_MOVE) under a shared parent has copies made by propagation: attach records of
# the mover, whose call the join counts as making moves only; under a shared parent the path is
# not looked at, so another attach call of the process is taken as the only one behind the copy.
@test "adv: a copy made by an MS_MOVE under a shared parent is not named after its process's mount elsewhere" {
	need_capture
	peers
	mkdir "$T/b" "$T/c" "$T/p1/x"
	mount -t tmpfs bb "$T/b"
	start_watchq --json mounts "$T"
	kill -STOP "$WQ_PID"
	wait_until grep -q '^State:.*T' "/proc/$WQ_PID/status"
	"$ADV" name wq-first move "$T/b" "$T/p1/x" name wq-second mount "$T/c" say done hold >"$T/h" &
	HOLDERS=$!
	wait_until grep -q done "$T/h"
	findmnt -o TARGET,PROPAGATION "$T/p2/x"
	kill -CONT "$WQ_PID"
	wait_until lines_at_least 3
	settled
	stop_watchq
	show
	jq -e -s --arg x "$T/p2/x" '[.[] | select(.path == $x and .comm == "wq-second")] | length == 0' "$T/out"
}

# A flip call lost to a full ring sets flips_lost, which the next flip taken clears (capture_take()
# when none is kept): the change of the lost call, not read yet, is read by a later flip's re-read
# of the same mount and named after that later call. Above PROMPT_MAX watched mounts the re-scan
# that would read it first waits for 100 ms of quiet; the timing varies: three rounds.
@test "adv: a bind remount nosuid lost to a full ring is not named after a later mount_setattr noexec of the mount" {
	need_capture
	mkdir "$T/n"
	mount -t tmpfs nn "$T/n"
	for i in 1 2 3; do
		mkdir "$T/m$i" "$T/r$i"
		mount -t tmpfs mm "$T/m$i"
	done
	# More than PROMPT_MAX (500) watched mounts: a re-scan is not made at once.
	mkdir "$T/many"
	mount -t tmpfs many "$T/many"
	for i in $(seq 1 520); do mkdir "$T/many/$i"; mount -t tmpfs "m$i" "$T/many/$i"; done
	start_watchq --json mounts "$T"
	for i in 1 2 3; do
		sleep 1.2
		kill -STOP "$WQ_PID"
		wait_until grep -q '^State:.*T' "/proc/$WQ_PID/status"
		"$ADV" fill 8000 "$T/none"
		"$ADV" name wq-lost bindnosuid "$T/m$i"
		"$ADV" name wq-rec mount "$T/r$i"
		kill -CONT "$WQ_PID"
		sleep 0.02
		"$ADV" name wq-other bindnosuid "$T/n"
		sleep 0.02
		"$ADV" name wq-noexec noexec "$T/m$i"
	done
	sleep 1
	stop_watchq
	show
	# The nosuid change is never named after wq-noexec: a record naming it may show nosuid
	# only where it was there before (read by a re-scan in between, naming nobody).
	jq -e -s '[.[] | select(.comm == "wq-noexec" and (.options | test("nosuid")) and
	    ((.old_options // "") | test("nosuid") | not))] | length == 0' "$T/out"
}

# need_mi_capture: the capture loads beside the mountinfo backend (the kernels before 6.15).
need_mi_capture() {
	local err
	need_root
	err=$("$WATCHQ" --backend=mountinfo -t 0 mounts / 2>&1 >/dev/null) || true
	case $err in
	*"(backend mountinfo+bpf:"*) ;;
	*) skip "no capture beside the mountinfo backend: $err" ;;
	esac
}

# adv_bg WORD STEPS...: tests/adv.c's steps by a process that stays until teardown ($ADV_PID),
# once it says WORD; the test skips where a step cannot be made here (adv exits 77).
adv_bg() {
	local word=$1 rc=0

	shift
	"$ADV" "$@" >"$T/h" 2>"$T/h.err" &
	ADV_PID=$!
	HOLDERS="${HOLDERS:-} $ADV_PID"
	wait_until said_or_gone "$word"
	grep -q "$word" "$T/h" && return
	wait "$ADV_PID" || rc=$?
	[ "$rc" != 77 ] || skip "$(cat "$T/h.err")"
	cat "$T/h.err" >&2
	return 1
}

# adv_fg STEPS...: tests/adv.c's steps, waited for; the test skips where a step cannot be made
# here (adv exits 77).
adv_fg() {
	local rc=0

	"$ADV" "$@" 2>"$T/fg.err" || rc=$?
	[ "$rc" != 77 ] || skip "$(cat "$T/fg.err")"
	[ "$rc" = 0 ] || { cat "$T/fg.err" >&2; return 1; }
}

said_or_gone() {
	grep -q "$1" "$T/h" || ! kill -0 "$ADV_PID" 2>/dev/null
}

# stalled HOW DIR: a process named wq-failing with a mount(2) (HOW: mount or remount) on DIR
# held in the kernel until SIGUSR1, after which it fails ($STALLED).
stalled() {
	adv_bg stalled name wq-failing stall "$1" "$2" say stalled usr1 release say released hold
	STALLED=$ADV_PID
}

# release_stalled: the stalled call goes on and fails; then what watchq printed is shown.
release_stalled() {
	kill -USR1 "$STALLED"
	wait_until grep -q released "$T/h"
	show
}

@test "adv: mountinfo: a mount call that is under way, then fails, is not named for a mount made at its place" {
	need_mi_capture
	mkdir -p "$T/a"
	start_watchq --backend=mountinfo mounts "$T"
	stalled mount "$T/a"
	# By a relative path, which the capture cannot place: its caller may not be named either.
	"$ADV" name wq-maker chdir "$T" mount a
	wait_until grep -q "^mount mount $T/a " "$T/out"
	release_stalled
	grep "^mount mount $T/a " "$T/out" | grep -q " pid=- uid=- comm=-$"
	run ! grep -q wq-failing "$T/out"
}

@test "adv: mountinfo: a mount call under way is no proof; once it has ended, it names its mount" {
	need_mi_capture
	mkdir -p "$T/a" "$T/b"
	start_watchq --backend=mountinfo mounts "$T"
	stalled mount "$T/a"
	# A call at another place: named (the stalled one cannot have made it).
	"$ADV" name wq-maker mount "$T/b"
	wait_until grep -q "^mount mount $T/b " "$T/out"
	release_stalled
	grep "^mount mount $T/b " "$T/out" | grep -q " comm=wq-maker$"
	run ! grep -q wq-failing "$T/out"
}

@test "adv: mountinfo: a remount under way that then fails is not named for a flip made meanwhile by a call it cannot see" {
	need_mi_capture
	mkdir -p "$T/a"
	mount -t tmpfs flip "$T/a"
	start_watchq --backend=mountinfo mounts "$T"
	stalled remount "$T/a"
	adv_fg name wq-maker remount32 "$T/a"
	wait_until grep -q "^mount readonly $T/a " "$T/out"
	release_stalled
	grep "^mount readonly $T/a " "$T/out" | grep -q " pid=- uid=- comm=-$"
	run ! grep -q wq-failing "$T/out"
}

@test "adv: a 32-bit mount call is not named after the same process's 64-bit call under way (raw tracepoints)" {
	need_capture
	[[ $("$WATCHQ" -t 0 mounts / 2>&1 >/dev/null) == *"+bpf:raw-tracepoint)"* ]] ||
		skip "the capture sees 32-bit calls through the raw tracepoints alone"
	mkdir -p "$T/a"
	start_watchq mounts "$T"
	adv_bg made name wq-failing stall mount "$T/a" name wq-evil mount32 "$T/a" say made \
		usr1 release say released hold
	STALLED=$ADV_PID
	wait_until grep -q "^mount mount $T/a " "$T/out"
	release_stalled
	grep "^mount mount $T/a " "$T/out" | grep -q " uid=- comm=-$"
	run ! grep -q wq-failing "$T/out"
}

@test "adv: a process seen making a 32-bit mount call is named for none of its changes" {
	local err
	need_root
	err=$("$WATCHQ" -t 0 mounts / 2>&1 >/dev/null) || true
	case $err in
	*"+bpf:raw-tracepoint)"* | *"+bpf:fentry)"*) ;;
	*"+bpf:"*) skip "the syscall tracepoints do not see 32-bit calls: $err" ;;
	*) skip "no capture: $err" ;;
	esac
	mkdir -p "$T/a" "$T/b"
	start_watchq mounts "$T"
	# Its 32-bit call is not read: what else it did since cannot be told apart from it. Its
	# 64-bit call comes once the 32-bit one's mount has been read, in a read of its own.
	adv_bg made name wq-mixed mount32 "$T/a" say made usr1 mount "$T/b" say done hold
	wait_until grep -q "^mount mount $T/a " "$T/out"
	kill -USR1 "$ADV_PID"
	wait_until grep -q "^mount mount $T/b " "$T/out"
	grep "^mount mount $T/a " "$T/out" | grep -q " uid=- comm=-$"
	grep "^mount mount $T/b " "$T/out" | grep -q " uid=- comm=-$"
	run ! grep -q wq-mixed "$T/out"
}

@test "adv: sb: a remount under way that then fails is not named for a read-only flip made meanwhile" {
	need_root
	[[ $("$WATCHQ" -t 0 sb / 2>&1 >/dev/null) == *"bpf:"* ]] || skip "no capture beside the sb backend"
	mkdir -p "$T/a"
	mount -t tmpfs flip "$T/a"
	start_watchq sb "$T/a"
	stalled remount "$T/a"
	adv_fg name wq-maker remount32 "$T/a"
	wait_until grep -q "^sb readonly $T/a " "$T/out"
	release_stalled
	grep "^sb readonly $T/a " "$T/out" | grep -q " pid=- uid=- comm=-$"
	run ! grep -q wq-failing "$T/out"
}

@test "adv: mountinfo: a mount made, then moved by another process between two reads, is named after neither" {
	need_mi_capture
	mkdir -p "$T/m" "$T/t"
	start_watchq --backend=mountinfo mounts "$T"
	kill -STOP "$WQ_PID"
	"$ADV" name wq-maker mount "$T/m"
	# move_mount(2) may attach a tree of its own (from open_tree(2)): here it moves the maker's.
	"$ADV" name wq-mover mmove "$T/m" "$T/t"
	kill -CONT "$WQ_PID"
	wait_until grep -q "^mount mount $T/t " "$T/out"
	grep "^mount mount $T/t " "$T/out" | grep -q " pid=- uid=- comm=-$"
}

@test "adv: mountinfo: two moves between two reads read as one, named after neither" {
	need_mi_capture
	mkdir -p "$T/m" "$T/t" "$T/u"
	mount -t tmpfs mv "$T/m"
	start_watchq --backend=mountinfo mounts "$T"
	kill -STOP "$WQ_PID"
	"$ADV" name wq-first move "$T/m" "$T/t"
	"$ADV" name wq-second move "$T/t" "$T/u"
	kill -CONT "$WQ_PID"
	wait_until grep -q "^mount move $T/m -> $T/u " "$T/out"
	grep "^mount move $T/m -> $T/u " "$T/out" | grep -q " pid=- uid=- comm=-$"
}

@test "adv: mountinfo: a flip at a mount's old place, then a move, is not named after a flip at its new one" {
	need_mi_capture
	mkdir -p "$T/o" "$T/x"
	mount -t tmpfs fl "$T/o"
	start_watchq --backend=mountinfo mounts "$T"
	kill -STOP "$WQ_PID"
	"$ADV" name wq-first bindro "$T/o" move "$T/o" "$T/x"
	"$ADV" name wq-second noexec "$T/x"
	kill -CONT "$WQ_PID"
	wait_until grep -q "^mount readonly $T/x " "$T/out" || { cat "$T/out"; false; }
	run ! grep -q "comm=wq-second$" "$T/out"
}

@test "adv: mountinfo: a remount through a mount stacked since the last read is not named after another call" {
	need_mi_capture
	mkdir -p "$T/m" "$T/o"
	mount -t tmpfs -o size=4k below "$T/m"
	mount -t tmpfs -o size=4k other "$T/o"
	start_watchq --backend=mountinfo mounts "$T"
	kill -STOP "$WQ_PID"
	# The remount of o is one of m's filesystem, stacked on o since the last read.
	mount --bind "$T/m" "$T/o"
	"$ADV" name wq-setattr noexec "$T/m"
	"$ADV" name wq-remount remount "$T/o" ro
	kill -CONT "$WQ_PID"
	wait_until grep -q "^mount readonly $T/m " "$T/out" || { cat "$T/out"; false; }
	cat "$T/out"
	# Both calls may have changed m: neither is named for it.
	run ! grep -q "comm=wq-setattr$" "$T/out"
	grep "^mount readonly $T/m " "$T/out" | grep -q " pid=- uid=- comm=-$"
}

# stacked_between STACK... -- UNSTACK...: m's filesystem is stacked on j/o (adv's steps STACK...),
# remounted read-only through j/o and unstacked (UNSTACK...), all between two reads, while another
# call sets noexec on m: no read shows m's filesystem at j/o, only the calls.
stacked_between() {
	local stack=()

	while [ "$1" != -- ]; do stack+=("$1"); shift; done
	shift
	need_mi_capture
	mkdir -p "$T/m" "$T/j/o" "$T/j/mm"
	mount -t tmpfs -o size=4k below "$T/m"
	mount -t tmpfs -o size=4k other "$T/j/o"
	mount --bind "$T/m" "$T/j/mm"
	start_watchq --backend=mountinfo mounts "$T"
	kill -STOP "$WQ_PID"
	"$ADV" "${stack[@]}"
	"$ADV" name wq-setattr noexec "$T/m"
	"$ADV" name wq-remount remount "$T/j/o" ro
	"$ADV" "$@"
	kill -CONT "$WQ_PID"
	wait_until grep -q "^mount readonly $T/m " "$T/out" || { cat "$T/out"; false; }
	cat "$T/out"
	# Both calls may have changed m: neither is named for it.
	run ! grep -q "comm=wq-setattr$" "$T/out"
	grep "^mount readonly $T/m " "$T/out" | grep -q " pid=- uid=- comm=-$"
}

@test "adv: mountinfo: a remount through a mount stacked and gone between two reads is not named after another call" {
	stacked_between rbind "$T/j/mm" "$T/j/o" -- umount "$T/j/o"
}

@test "adv: mountinfo: the same, stacked and unstacked by a chrooted process (its paths are not ours)" {
	stacked_between chroot "$T/j" rbind /mm /o -- chroot "$T/j" umount /o
}

@test "adv: mountinfo: a copy propagated to a slave from another namespace is not named for a call here at its place" {
	need_mi_capture
	mkdir -p "$T/m" "$T/s"
	mount -t tmpfs pm "$T/m"
	mount --make-shared "$T/m"
	mount --bind "$T/m" "$T/s"
	mount --make-slave "$T/s"
	mkdir "$T/m/y"
	start_watchq --backend=mountinfo mounts "$T/s"
	kill -STOP "$WQ_PID"
	# Here, a mount and its unmount at the place; there, a mount whose copy comes to it.
	"$ADV" name wq-here mount "$T/s/y" umount "$T/s/y"
	unshare -m --propagation unchanged "$ADV" name wq-there mount "$T/m/y"
	kill -CONT "$WQ_PID"
	wait_until grep -q "^mount mount $T/s/y " "$T/out"
	show
	grep "^mount mount $T/s/y " "$T/out" | grep -q " pid=- uid=- comm=-$"
	run ! grep -q wq-here "$T/out"
}
