#!/usr/bin/env bats
# watchq wait: state conditions checked race-free, and waits for one event.
load helper

@test "wait --mount started before the mount exits 0 once it happens" {
	need_root
	mkdir "$T/a"
	start_watchq wait --mount "$T/a"
	[[ "$(tail -n 1 "$T/err")" =~ ^watchq:\ waiting\ for\ --mount\ $T/a\ \(backend\ (fanotify|mountinfo)\)$ ]]
	kill -0 "$WQ_PID"
	mount -t tmpfs wq "$T/a"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
	[ ! -s "$T/out" ]
}

@test "wait --mount started after the mount exits 0 at once" {
	need_root
	mkdir "$T/a"
	mount -t tmpfs wq "$T/a"
	run --separate-stderr "$WATCHQ" -t 5 wait --mount "$T/a"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "wait --mount of a directory that does not exist yet" {
	need_root
	start_watchq wait --mount "$T/later/x"
	mkdir -p "$T/later/x"
	kill -0 "$WQ_PID"
	mount -t tmpfs wq "$T/later/x"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
}

@test "wait --mount is not met by a mount elsewhere" {
	need_root
	mkdir "$T/a" "$T/b"
	run --separate-stderr "$WATCHQ" -t 0.5 wait --mount "$T/a"
	[ "$status" -eq 2 ]
	start_watchq -t 1 wait --mount "$T/a"
	mount -t tmpfs wq "$T/b"
	finish_watchq
	[ "$WQ_STATUS" -eq 2 ]
}

@test "wait --unmount before and after the unmount" {
	need_root
	mkdir "$T/a"
	mount -t tmpfs wq "$T/a"
	start_watchq wait --unmount "$T/a"
	kill -0 "$WQ_PID"
	umount "$T/a"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
	run --separate-stderr "$WATCHQ" -t 5 wait --unmount "$T/a"
	[ "$status" -eq 0 ]
}

@test "wait --readonly and --writable follow remounts" {
	need_root
	mkdir "$T/a"
	mount -t tmpfs wq "$T/a"
	mkdir "$T/a/dir"
	run --separate-stderr "$WATCHQ" -t 5 wait --writable "$T/a/dir"
	[ "$status" -eq 0 ]
	start_watchq wait --readonly "$T/a/dir"
	kill -0 "$WQ_PID"
	mount -o remount,ro "$T/a"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
	run --separate-stderr "$WATCHQ" -t 5 wait --readonly "$T/a/dir"
	[ "$status" -eq 0 ]
	start_watchq wait --writable "$T/a"
	mount -o remount,rw "$T/a"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
}

@test "wait --readonly sees a per-mount read-only bind" {
	need_root
	mkdir "$T/a" "$T/b"
	mount -t tmpfs wq "$T/a"
	mount --bind "$T/a" "$T/b"
	start_watchq wait --readonly "$T/b"
	mount -o remount,bind,ro "$T/b"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
}

@test "several conditions must all hold" {
	need_root
	mkdir "$T/a" "$T/b"
	start_watchq wait --mount "$T/a" --mount "$T/b"
	mount -t tmpfs wq "$T/a"
	sleep 0.3
	kill -0 "$WQ_PID"
	mount -t tmpfs wq "$T/b"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
}

@test "wait times out with 2" {
	need_root
	mkdir "$T/a"
	run --separate-stderr "$WATCHQ" -t 0.2 wait --mount "$T/a"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
}

@test "wait --readonly on a path that goes away exits 3" {
	need_root
	mkdir "$T/m"
	mount -t tmpfs wq "$T/m"
	mkdir "$T/m/d"
	start_watchq wait --readonly "$T/m/d"
	umount -l "$T/m"
	finish_watchq
	[ "$WQ_STATUS" -eq 3 ]
}

@test "wait --readonly on a missing path is a usage error" {
	run --separate-stderr "$WATCHQ" wait --readonly "$T/missing"
	[ "$status" -eq 64 ]
	[[ "$stderr" == "watchq: --readonly $T/missing: No such file or directory" ]]
}

@test "wait -e prints the next matching event and exits 0" {
	need_root
	mkdir "$T/a" "$T/b"
	mount -t tmpfs wq "$T/a"
	start_watchq wait -e unmount mounts "$T"
	mount -t tmpfs wq2 "$T/b"
	umount "$T/a"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
	[ "$(unmarked)" = "mount unmount $T/a tmpfs wq" ]
}

@test "wait -e with --json and -n 2" {
	need_root
	mkdir "$T/a" "$T/b"
	start_watchq --json -n 2 wait -e mount mounts "$T"
	mount -t tmpfs wq "$T/a"
	mount -t tmpfs wq "$T/b"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
	[ "$(jq -r .path "$T/out" | tr '\n' ' ')" = "$T/a $T/b " ]
}

@test "wait -e times out with 2" {
	need_root
	run --separate-stderr "$WATCHQ" -t 0.2 wait -e unmount mounts "$T"
	[ "$status" -eq 2 ]
}

# with_backends CMD...: run CMD once per mount backend this kernel has, with $BACKEND set.
with_backends() {
	local st
	for BACKEND in fanotify mountinfo; do
		st=0
		"$WATCHQ" -q -t 0 --backend="$BACKEND" mounts / >/dev/null 2>&1 || st=$?
		[ "$st" -ne 69 ] || continue
		"$@"
	done
}

# gone_at_once HOW: wait -e mount on $T/w/d, remove it by HOW, expect removal and 3
# long before the timeout (no other activity wakes watchq).
gone_at_once() {
	mkdir -p "$T/w"
	[ "$1" != unmount ] || mount -t tmpfs wq "$T/w"
	mkdir "$T/w/d"
	start_watchq --backend="$BACKEND" -t 20 wait -e mount mounts "$T/w/d"
	case $1 in
	rmdir) rmdir "$T/w/d" ;;
	rename) mv "$T/w/d" "$T/w/e" ;;
	parent) mv "$T/w" "$T/v" ;;
	unmount) umount "$T/w" ;;
	over) mount -t tmpfs over "$T/w" ;;
	moved) mkdir "$T/m" && mount -t tmpfs moved "$T/m" && mount --move "$T/m" "$T/w" ;;
	esac
	finish_watchq
	[ "$WQ_STATUS" -eq 3 ] || { echo "$BACKEND $1: status $WQ_STATUS"; return 1; }
	[ "$(cat "$T/out")" = "meta removal mounts $T/w/d watched directory is gone" ]
	case $1 in over|moved) umount "$T/w" ;; esac
	rm -rf "$T/v" "$T/w" "$T/m"
}

@test "wait -e on a directory removed (rmdir, renamed, a parent renamed, unmounted): removal and 3 at once, on both backends" {
	need_root
	with_backends gone_at_once rmdir
	with_backends gone_at_once rename
	with_backends gone_at_once parent
	with_backends gone_at_once unmount
}

@test "wait -e on a directory hidden by a mount over a directory above it (mounted or moved there): removal and 3 at once, on both backends" {
	need_root
	with_backends gone_at_once over
	with_backends gone_at_once moved
}

# loop_not_mounted: wait --mount L --mount B, where the symlink L led to
# $T/d when the wait began and leads nowhere (a loop) when $T/d is mounted: L
# is no mount point then, as mountpoint(1) says, so the wait must not end
# once B is mounted too.
loop_not_mounted() {
	mkdir -p "$T/d" "$T/b"
	ln -sfn "$T/d" "$T/L"
	start_watchq --backend="$BACKEND" -t 3 wait --mount "$T/L" --mount "$T/b"
	rm "$T/L"
	ln -s L "$T/L"
	mount -t tmpfs wq "$T/d"
	mount -t tmpfs wq "$T/b"
	finish_watchq
	umount "$T/d" "$T/b"
	rm "$T/L"
	[ "$WQ_STATUS" -eq 2 ] || { echo "$BACKEND: status $WQ_STATUS"; return 1; }
}

@test "wait --mount on a symlink that became a loop is not met by a mount at its old target, on both backends" {
	need_root
	with_backends loop_not_mounted
}

# loop_at_start: a symlink loop when the wait starts is no mount point, as at
# each later check: --unmount holds at once; --mount waits, and holds once the
# loop is replaced by a directory that gets mounted.
loop_at_start() {
	ln -sfn L "$T/L"
	run --separate-stderr "$WATCHQ" --backend="$BACKEND" -t 5 wait --unmount "$T/L"
	[ "$status" -eq 0 ] || { echo "$BACKEND --unmount: $status $stderr"; return 1; }
	start_watchq --backend="$BACKEND" -t 10 wait --mount "$T/L"
	kill -0 "$WQ_PID"
	rm "$T/L"
	mkdir "$T/L"
	mount -t tmpfs wq "$T/L"
	finish_watchq
	umount "$T/L"
	rmdir "$T/L"
	[ "$WQ_STATUS" -eq 0 ] || { echo "$BACKEND --mount: status $WQ_STATUS"; cat "$T/err"; return 1; }
}

@test "wait --unmount/--mount of a symlink loop at the start: no mount point, not a usage error, on both backends" {
	need_root
	with_backends loop_at_start
}

@test "wait with opposite conditions on one target is a usage error" {
	mkdir "$T/d"
	for pair in "--mount $T/d --unmount $T/d/" "--unmount $T/d --mount $T/./d" \
	    "--readonly $T/d --writable $T/d" "--key user:x --no-key user:x"; do
		set -- $pair
		run --separate-stderr "$WATCHQ" -t 5 wait $pair
		[ "$status" -eq 64 ] || { echo "$pair: $status"; return 1; }
		[ "$stderr" = "watchq: $1 $2 and $3 $4 can never both hold" ]
	done
}

@test "wait --readonly on a directory removed exits 3 at once" {
	need_root
	mkdir "$T/d"
	start_watchq -t 20 wait --readonly "$T/d"
	rmdir "$T/d"
	finish_watchq
	[ "$WQ_STATUS" -eq 3 ]
}

@test "state waits take no -n, output options or -o; wait -e loss or removal alone is a usage error" {
	for opt in "-n 1" --json "--format=%e" -T -0 "-o $T/x"; do
		run --separate-stderr "$WATCHQ" $opt wait --unmount "$T/none"
		[ "$status" -eq 64 ] || { echo "$opt: $status"; return 1; }
		[[ "$stderr" == "watchq: state conditions print nothing and end when they hold: "* ]]
	done
	[ ! -e "$T/x" ]
	for ev in loss removal loss,removal; do
		run --separate-stderr "$WATCHQ" wait -e "$ev" mounts "$T"
		[ "$status" -eq 64 ]
		[ "$stderr" = "watchq: wait -e: loss and removal never end a wait with 0; name an event of the source" ]
	done
}

@test "wait --readonly/--writable: another filesystem coming to hold the path is a removal (3), never an answer" {
	need_root
	mkdir "$T/p" "$T/q"
	mount -t tmpfs wq "$T/p"
	mkdir "$T/p/m"
	mount -o remount,ro "$T/p"
	mount -t tmpfs data "$T/p/m"
	start_watchq -t 20 wait --readonly "$T/p/m"
	umount "$T/p/m"
	finish_watchq
	[ "$WQ_STATUS" -eq 3 ]
	mount -t tmpfs wq "$T/q"
	mkdir "$T/q/m"
	mount -t tmpfs -o ro data "$T/q/m"
	start_watchq -t 20 wait --writable "$T/q/m"
	umount "$T/q/m"
	finish_watchq
	[ "$WQ_STATUS" -eq 3 ]
	# A writable filesystem mounted over a read-only one: the same.
	mount -t tmpfs -o ro data "$T/q/m"
	start_watchq -t 20 wait --writable "$T/q/m"
	mount -t tmpfs over "$T/q/m"
	finish_watchq
	[ "$WQ_STATUS" -eq 3 ]
}

@test "wait --mount asks the kernel about the path as given: a hidden path or one through a file is no mount point" {
	need_root
	mkdir -p "$T/c/d"
	mount -t tmpfs y "$T/c/d"
	mount -t tmpfs z "$T/c"
	run "$WATCHQ" -t 0.3 wait --mount "$T/c/d"
	[ "$status" -eq 2 ]
	run "$WATCHQ" -t 5 wait --unmount "$T/c/d"
	[ "$status" -eq 0 ]
	touch "$T/f"
	run "$WATCHQ" -t 0.3 wait --mount "$T/f/.."
	[ "$status" -eq 2 ]
	run "$WATCHQ" -t 5 wait --mount "$T/"
	[ "$status" -eq 0 ]
}

@test "wait --no-key is not met while a key it may not describe is linked" {
	command -v keyctl >/dev/null || skip "keyctl not installed"
	run --separate-stderr keyctl session - bash -c '
		k=$(keyctl add user wq-hidden secret @s)
		"$1" -q -t 0.3 wait --no-key user:wq-hidden; echo "visible $?"
		keyctl setperm "$k" 0x04000000
		keyctl describe "$k" >/dev/null 2>&1 && echo "still described"
		"$1" -q -t 0.3 wait --no-key user:wq-hidden; echo "hidden $?"
		keyctl unlink "$k" @s >/dev/null
		r=$(keyctl add user wq-revoked secret @s)
		keyctl revoke "$r"
		"$1" -q -t 5 wait --no-key user:wq-revoked; echo "revoked $?"' _ "$WATCHQ"
	[ "${lines[0]}" = "visible 2" ]
	[ "${lines[1]}" = "hidden 2" ]
	[ "${lines[2]}" = "revoked 0" ]
}

@test "wait --mount that already holds on fanotify: statx of the path, not the whole table" {
	need_root
	command -v strace >/dev/null || skip "strace not installed"
	[ "${WATCHQ_BACKEND:-fanotify}" = fanotify ] || skip "the fanotify backend's shortcut"
	"$WATCHQ" -qq -t 0 --backend=fanotify mounts / || [ $? -ne 69 ] || skip "no fanotify mount events here"
	mkdir "$T/m"
	for i in $(seq 200); do mkdir "$T/m/$i" && mount -t tmpfs wq "$T/m/$i"; done
	# statmount(2) is syscall 457 on every architecture (strace 6.1 knows it by number only).
	# LeakSanitizer cannot run under ptrace (make asan runs this suite): leaks are not asked here.
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		run strace -f -o "$T/trace" "$BATS_TEST_DIRNAME/../watchq" -q --backend=fanotify wait --mount "$T/m/7"
	[ "$status" -eq 0 ]
	[ "$(grep -c 'statmount(\|syscall_0x1c9(' "$T/trace")" -lt 10 ]
}

# wq ARGS...: watchq on $WATCHQ_BACKEND if set, as start_watchq runs it.
wq() {
	"$WATCHQ" ${WATCHQ_BACKEND:+--backend="$WATCHQ_BACKEND"} "$@"
}

@test "wait --mounted that already holds exits 0 at once and prints the mount: text, JSON, %#p raw" {
	need_root
	mkdir "$T/a" "$T/b c"
	mount -t tmpfs wq-held "$T/b c"
	run --separate-stderr wq -t 5 wait --mounted wq-held
	[ "$status" -eq 0 ]
	[ "$output" = "mount present $T/b\\x20c tmpfs wq-held" ]
	run --separate-stderr wq -t 5 --json wait --mounted wq-held mounts "$T"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq -c '[.event, .path, .device, .watch]')" = "[\"present\",\"$T/b c\",\"wq-held\",\"$T\"]" ]
	where=$(wq -q -t 5 --format %#p wait --mounted wq-held mounts "$T")
	[ "$where" = "$T/b c" ]
	# Not at or below the DIR: no answer.
	run --separate-stderr wq -t 0.3 wait --mounted wq-held mounts "$T/a"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
}

@test "wait --mounted of a source mounted twice prints the mount list prints first" {
	need_root
	mkdir -p "$T/x/deep" "$T/y"
	mount -t tmpfs wq-two "$T/x/deep"
	mount -t tmpfs wq-two "$T/y"
	run --separate-stderr wq -t 5 --format %#p wait --mounted wq-two mounts "$T"
	[ "$status" -eq 0 ]
	# Mount order, as findmnt -f -S: the deeper one was mounted first.
	[ "$output" = "$T/x/deep" ]
	[ "$output" = "$(wq --format %#p --source wq-two list mounts "$T" | head -n 1)" ]
}

@test "wait --mounted started before the mount: only a mount of SPEC at or below DIR answers" {
	need_root
	mkdir -p "$T/in/m" "$T/in/o" "$T/outside"
	start_watchq -t 20 wait --mounted wq-later mounts "$T/in"
	[[ "$(tail -n 1 "$T/err")" =~ ^watchq:\ waiting\ for\ --mounted\ wq-later\ at\ or\ below\ $T/in\ \(backend\ (fanotify|mountinfo)\)$ ]]
	# Another source in the DIR, and the source outside it, before the one that answers.
	mount -t tmpfs other "$T/in/o"
	mount -t tmpfs wq-later "$T/outside"
	mount -t tmpfs wq-later "$T/in/m"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
	[ "$(cat "$T/out")" = "mount present $T/in/m tmpfs wq-later" ]
}

@test "wait --mounted with another condition: both must hold at once; the mount is printed then" {
	need_root
	mkdir -p "$T/d/a" "$T/b"
	mount -t tmpfs wq-both "$T/d/a"
	mount -t tmpfs other "$T/b"
	run --separate-stderr wq -t 0.3 wait --mounted wq-both --unmount "$T/b" mounts "$T/d"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	start_watchq -t 20 --json wait --unmount "$T/b" --mounted wq-both mounts "$T/d"
	umount "$T/b"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
	[ "$(jq -c '[.event, .path, .watch]' "$T/out")" = "[\"present\",\"$T/d/a\",\"$T/d\"]" ]
}

@test "wait --mounted: a mount moved into the DIR answers; the DIR removed exits 3" {
	need_root
	mkdir -p "$T/in" "$T/elsewhere/m" "$T/gone"
	mount -t tmpfs wq-moved "$T/elsewhere/m"
	start_watchq -t 20 --format %#p wait --mounted wq-moved mounts "$T/in"
	mkdir "$T/in/m"
	mount --move "$T/elsewhere/m" "$T/in/m"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
	[ "$(cat "$T/out")" = "$T/in/m" ]
	start_watchq -t 20 wait --mounted wq-none mounts "$T/gone"
	rmdir "$T/gone"
	finish_watchq
	[ "$WQ_STATUS" -eq 3 ]
	[ ! -s "$T/out" ]
}

@test "wait --unmounted: at once where none is; once the last goes, unmounted or moved out; prints nothing" {
	need_root
	mkdir -p "$T/in/a" "$T/in/b" "$T/outside/b"
	run --separate-stderr wq -t 5 wait --unmounted wq-u mounts "$T/in"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	mount -t tmpfs wq-u "$T/in/a"
	mount -t tmpfs wq-u "$T/in/b"
	start_watchq -t 20 wait --unmounted wq-u mounts "$T/in"
	umount "$T/in/a"
	# One is left: the state does not hold.
	run --separate-stderr wq -t 0.3 wait --unmounted wq-u mounts "$T/in"
	[ "$status" -eq 2 ]
	mount --move "$T/in/b" "$T/outside/b"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
	[ ! -s "$T/out" ]
	# Outside the DIR it does not count.
	run --separate-stderr wq -t 5 wait --unmounted wq-u mounts "$T/in"
	[ "$status" -eq 0 ]
}

@test "wait --mounted and --unmounted: a bad SPEC, SOURCE or option is a usage error" {
	for spec in LABEL= UUID= PARTUUID= PARTLABEL=; do
		run --separate-stderr "$WATCHQ" -t 0 wait --mounted "$spec"
		[ "$status" -eq 64 ]
		[ "$stderr" = "watchq: --mounted: '$spec' needs a value after the '='" ]
	done
	run --separate-stderr "$WATCHQ" -t 0 wait --unmounted ""
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: --unmounted: an empty SPEC names nothing" ]
	run --separate-stderr "$WATCHQ" -t 0 wait --mounted LABEL=x --unmounted LABEL=x
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: --mounted LABEL=x and --unmounted LABEL=x can never both hold" ]
	run --separate-stderr "$WATCHQ" -t 0 wait --mounted x keys
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: --mounted and --unmounted look in mounts DIR...: keys does not apply" ]
	run --separate-stderr "$WATCHQ" -t 0 wait --mount / mounts /
	[ "$status" -eq 64 ]
	[[ "$stderr" == "watchq: state conditions take no SOURCE: 'mounts'"* ]]
	run --separate-stderr "$WATCHQ" -t 0 -n 1 wait --mounted x
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: state conditions end when they hold: -n does not apply" ]
	run --separate-stderr "$WATCHQ" -t 0 --json wait --unmounted x
	[ "$status" -eq 64 ]
	[[ "$stderr" == "watchq: state conditions print nothing and end when they hold: "* ]]
	run --separate-stderr "$WATCHQ" -t 0 wait --mounted x mounts "$T/missing"
	[ "$status" -eq 64 ]
}

@test "wait --mounted LABEL= of a loop device that appears later, then MAJ:MIN, then --unmounted" {
	need_root
	command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 not installed"
	truncate -s 8M "$T/fs.img"
	mkfs.ext4 -q -F -L wq-stick "$T/fs.img" || skip "mkfs.ext4 failed"
	mkdir "$T/fs"
	# No device has the label yet: not an error, and no note (waiting for it is the point).
	start_watchq -t 20 wait --mounted LABEL=wq-stick mounts "$T"
	# The readiness line alone (and, on a kernel without fanotify mount events, the fallback's).
	[ "$(grep -vc '; using mountinfo$' "$T/err")" -eq 1 ]
	LOOPDEV=$(losetup -f --show "$T/fs.img") || skip "no loop device"
	blkid -p "$LOOPDEV" | grep -q 'LABEL="wq-stick"' || skip "libblkid does not see the image"
	mount "$LOOPDEV" "$T/fs"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
	[ "$(cat "$T/out")" = "mount present $T/fs ext4 $LOOPDEV" ]
	majmin=$(findmnt -n -o MAJ:MIN "$T/fs" | tr -d ' ')
	run --separate-stderr wq -t 5 --format %#p wait --mounted "$majmin" mounts "$T"
	[ "$status" -eq 0 ]
	[ "$output" = "$T/fs" ]
	start_watchq -t 20 wait --unmounted LABEL=wq-stick mounts "$T"
	umount "$T/fs"
	finish_watchq
	[ "$WQ_STATUS" -eq 0 ]
}

@test "wait --unmounted LABEL= is not met while a mount watchq may not probe could carry the label" {
	make_ext4 "-L wq-hidden"
	command -v setpriv >/dev/null || skip "setpriv missing"
	blkid -p "$LOOPDEV" | grep -q 'LABEL="wq-hidden"' || skip "libblkid does not see the image"
	nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	# Unprivileged, the device cannot be probed: where udev's links do not name it either, the
	# mount could be of LABEL=wq-hidden, so neither condition holds; where they do, it is.
	run --separate-stderr nobody "$WATCHQ" -q -t 0.3 wait --unmounted LABEL=wq-hidden mounts "$T"
	[ "$status" -eq 2 ] || { echo "$status $stderr"; false; }
	run --separate-stderr nobody "$WATCHQ" -q -t 0.3 --format %#p wait --mounted LABEL=wq-hidden mounts "$T"
	if [ -e /dev/disk/by-label/wq-hidden ]; then
		[ "$status" -eq 0 ] && [ "$output" = "$T/fs" ]
	else
		[ "$status" -eq 2 ] && [ -z "$output" ]
	fi
}

@test "wait --mounted and --unmounted with the change right at the start: seen before or after arming, never missed" {
	need_root
	mkdir "$T/r"
	for i in $(seq 20); do
		mkdir "$T/r/$i"
		wq -q -t 20 wait --mounted "wq-race$i" mounts "$T/r" >"$T/race" &
		pid=$!
		mount -t tmpfs "wq-race$i" "$T/r/$i"
		st=0
		wait "$pid" || st=$?
		[ "$st" -eq 0 ] || { echo "--mounted $i: status $st"; return 1; }
		[ "$(cat "$T/race")" = "mount present $T/r/$i tmpfs wq-race$i" ]
		wq -q -t 20 wait --unmounted "wq-race$i" mounts "$T/r" &
		pid=$!
		umount "$T/r/$i"
		st=0
		wait "$pid" || st=$?
		[ "$st" -eq 0 ] || { echo "--unmounted $i: status $st"; return 1; }
	done
}
