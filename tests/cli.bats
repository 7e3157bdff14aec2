#!/usr/bin/env bats
# Command line: help, version, and every bad-input case with its exit status.
load helper

@test "--help and -h print the synopsis and exit 0" {
	run --separate-stderr "$WATCHQ" --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"SOURCE [TARGET...]"* ]]
	[[ "$output" == *"wait CONDITION..."* ]]
	run --separate-stderr "$WATCHQ" -h
	[ "$status" -eq 0 ]
	[[ "$output" == *"--timeout=SECONDS"* ]]
}

@test "--usage prints a short usage and exits 0" {
	run --separate-stderr "$WATCHQ" --usage
	[ "$status" -eq 0 ]
	[[ "$output" == Usage:* ]]
	[[ "$output" == *"[--json]"* ]]
}

@test "-V and --version print the version" {
	run --separate-stderr "$WATCHQ" -V
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^watchq\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
	run --separate-stderr "$WATCHQ" --version
	[[ "$output" =~ ^watchq\ [0-9] ]]
}

# usage_error ARGS...: watchq exits 64 with one stderr line naming the problem ($1 is a pattern).
usage_error() {
	local pattern=$1
	shift
	run --separate-stderr "$WATCHQ" "$@"
	[ "$status" -eq 64 ] || { echo "status $status for $*: $stderr"; return 1; }
	[ -z "$output" ]
	[[ "$stderr" == *$pattern* ]] || { echo "stderr: $stderr"; return 1; }
	[[ "${stderr_lines[0]}" == watchq:* ]]
}

@test "no SOURCE is a usage error" {
	usage_error "no SOURCE"
}

@test "an unknown source is a usage error" {
	usage_error "unknown source 'files'" files /
}

@test "an unknown option is a usage error" {
	usage_error "unrecognized option" --frobnicate mounts /
}

@test "an unknown event name is a usage error" {
	usage_error "unknown event 'umount'" -e umount mounts /
	usage_error "unknown event 'bogus'" -E bogus mounts /
}

@test "an event of another source is a usage error" {
	usage_error "event 'linked' does not apply" -e linked mounts /
}

@test "meta events cannot be excluded" {
	usage_error "always delivered" -E loss mounts /
}

@test "excluding every event is a usage error" {
	usage_error "excludes every event" -E mount,unmount,move,readonly,setattr,transient mounts /
}

@test "a PATH that does not exist is a usage error" {
	usage_error "No such file or directory" mounts "$T/nope"
}

@test "a PATH that is not a directory is a usage error" {
	touch "$T/file"
	usage_error "not a directory" mounts "$T/file"
}

@test "bad --timeout values are usage errors" {
	usage_error "--timeout: 'abc'" -t abc mounts /
	usage_error "--timeout: '-1'" -t -1 mounts /
	usage_error "--timeout: '1s'" --timeout=1s mounts /
	usage_error "--timeout: ''" --timeout= mounts /
	usage_error "--timeout: 'nan'" -t nan mounts /
}

@test "bad --count values are usage errors" {
	usage_error "--count: '0'" -n 0 mounts /
	usage_error "--count: 'x'" -n x mounts /
	usage_error "--count: '-3'" --count=-3 mounts /
	usage_error "--count: '99999999999999999999'" -n 99999999999999999999 mounts /
}

@test "bad --interval, --queue-size and --backend values are usage errors" {
	usage_error "--interval" --interval 0 mounts /
	usage_error "--queue-size" --queue-size 513 mounts /
	usage_error "--queue-size" --queue-size 0 mounts /
	usage_error "unknown backend 'inotify'" --backend inotify mounts /
	usage_error "does not serve mounts" --backend watch-queue mounts /
	usage_error "does not serve mounts" --backend poll mounts /
}

@test "conflicting options are usage errors" {
	usage_error "--json and --format" --json --format %e mounts /
	usage_error "--json and --format" --format %e -j mounts /
	usage_error "wait and --initial" wait --initial --mount /
	usage_error "wait -e cannot be combined" wait -e unmount --unmount /
	usage_error "needs a condition" wait
	usage_error "take no SOURCE" wait --mount / mounts /
	usage_error "needs a SOURCE" wait -e unmount
	usage_error "--mount is a wait condition" --mount / mounts /
	usage_error "state conditions do not use them" wait --fstype tmpfs --mount /
	usage_error "state conditions do not use them" wait --source /dev/sda1 --unmount /
}

@test "a bad --format escape is a usage error" {
	usage_error "unknown escape" --format '%e %q' mounts /
	usage_error "unknown escape" --format 'trailing %' mounts /
}

@test "an empty event list and an empty --fstype are usage errors" {
	usage_error "empty event list" -e '' mounts /
	usage_error "empty list" --fstype , mounts /
}

@test "more than 256 watches is a usage error" {
	local args=() i
	for i in $(seq 257); do args+=(/); done
	usage_error "too many watches" mounts "${args[@]}"
}

@test "-e loss alone is allowed (only losses reported); -E of everything is not" {
	run --separate-stderr "$WATCHQ" -q -t 0 -e loss mounts /
	[ "$status" -eq 2 ]
	run --separate-stderr "$WATCHQ" -E mount,unmount,move,readonly,setattr,transient mounts /
	[ "$status" -eq 64 ]
	[ "$stderr" = "watchq: -E excludes every event of the sources watched" ]
}

@test "an --output file that cannot be opened is a runtime error (exit 1)" {
	run --separate-stderr "$WATCHQ" -o "$T/no/such/dir/file" mounts /
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"$T/no/such/dir/file: No such file or directory"* ]]
}
