#!/usr/bin/env bats
# bench/driver.c as make bench runs it, on a small table: its flip mode makes read-only flips of
# one watched mount while another part of the watched tree churns, and counts each flip's line.
# bench/nsbench.c likewise, on a few namespaces.
load helper

setup_file() {
	export DRIVER=$BATS_FILE_TMPDIR/driver NSBENCH=$BATS_FILE_TMPDIR/nsbench
	cc -O2 -o "$DRIVER" "$BATS_TEST_DIRNAME/../bench/driver.c"
	cc -O2 -o "$NSBENCH" "$BATS_TEST_DIRNAME/../bench/nsbench.c"
}

# flip READY WATCHQ_ARGS...: 6 flips of $T/flip under churn, watched by watchq ARGS $T.
flip() {
	local ready=$1
	shift
	"$DRIVER" populate "$T" 10
	run --separate-stderr "$DRIVER" flip "$T" 6 20 20 1000 3000 "$ready" " readonly " \
	    " writable " -- "$WATCHQ" "$@" mounts "$T"
}

# check_flips: all 6 flips made and reported, the figures in order, the churn under way.
check_flips() {
	local made got p50 p99 max rate
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	read -r made got p50 p99 max rate <<<"$output"
	[ "$made" -eq 6 ] && [ "$got" -eq 6 ]
	[ "$p50" -ge 0 ] && [ "$p50" -le "$p99" ] && [ "$p99" -le "$max" ] && [ "$max" -le 3000000 ]
	[ "$rate" -gt 0 ]
	# The flipped mount and the churn's are gone, the table's 10 mounts are not.
	run ! grep -q -e " $T/flip " -e " $T/churn " /proc/self/mountinfo
	[ "$(grep -c " $T/t/" /proc/self/mountinfo)" -eq 10 ]
}

@test "bench flip: every flip under churn has its line, --no-bpf" {
	need_root
	kernel_at_least 6 15 || skip "fanotify mount events need Linux 6.15 (this is $(uname -r))"
	flip "(backend fanotify)" --no-bpf
	check_flips
}

@test "bench flip: every flip under churn has its line, with the capture" {
	need_root
	kernel_at_least 6 15 || skip "fanotify mount events need Linux 6.15 (this is $(uname -r))"
	flip "(backend fanotify+bpf:"
	[ "$status" -ne 69 ] || [[ $stderr != *"no process capture: "* ]] || skip "${stderr%%$'\n'*}"
	check_flips
}

@test "bench flip: a watcher whose readiness line lacks READY is not run (69, the line said)" {
	need_root
	kernel_at_least 6 15 || skip "fanotify mount events need Linux 6.15 (this is $(uname -r))"
	flip "(backend mountinfo)" --backend=fanotify
	[ "$status" -eq 69 ]
	[ -z "$output" ]
	[[ $stderr == *"not ready as asked ((backend mountinfo)): "*"watchq: watching mounts $T"* ]]
}

@test "bench ns: -N all's cost on 3 namespaces, every event delivered, and each new namespace seen" {
	need_root
	kernel_at_least 6 15 || skip "fanotify mount events need Linux 6.15 (this is $(uname -r))"
	mkdir "$T/d"
	run --separate-stderr "$NSBENCH" cost "$T/d" 3 5 30 100 1 -- "$WATCHQ" --json -N all mounts "$T/d"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	read -r cpu idle got made <<<"$output"
	[ "$got" -eq 60 ] && [ "$made" -eq 60 ] || { echo "$output"; false; }
	awk -v c="$cpu" -v i="$idle" 'BEGIN { exit !(c > 0 && i >= 0 && i < 100) }'
	# The namespaces' processes are gone.
	run ! pgrep -f "^$NSBENCH"
	run --separate-stderr "$NSBENCH" latency "$T/d" 3 -- "$WATCHQ" --json -N all mounts "$T/d"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	read -r p50 p99 seen rounds <<<"$output"
	[ "$seen" -eq 3 ] && [ "$rounds" -eq 3 ] && [ "$p50" -le "$p99" ] || { echo "$output"; false; }
}

@test "every C program of make bench and make soak builds, the floors included" {
	local f
	for f in "$BATS_TEST_DIRNAME"/../bench/*.c; do
		cc -O2 -Wall -o "$T/prog" "$f" || { echo "bench: $f does not build"; false; }
	done
}
