#!/usr/bin/env bats
# make install / uninstall with DESTDIR and PREFIX (the completions themselves: docs.bats).
load helper

@test "make install puts binary, man pages and completions under DESTDIR/PREFIX; uninstall removes them" {
	cd "$BATS_TEST_DIRNAME/.."
	[ -w . ] || skip "source tree is read-only here"
	run make -s install DESTDIR="$T/root" PREFIX=/usr
	[ "$status" -eq 0 ]
	[ -x "$T/root/usr/bin/watchq" ]
	cmp man/watchq.1 "$T/root/usr/share/man/man1/watchq.1"
	cmp man/watchq-records.5 "$T/root/usr/share/man/man5/watchq-records.5"
	cmp man/watchq-backends.7 "$T/root/usr/share/man/man7/watchq-backends.7"
	# Every page make builds is installed.
	[ "$(find "$T/root/usr/share/man" -type f | wc -l)" -eq "$(ls man | wc -l)" ]
	[ -s "$T/root/usr/share/bash-completion/completions/watchq" ]
	[ -s "$T/root/usr/share/zsh/site-functions/_watchq" ]
	[ -s "$T/root/usr/share/fish/vendor_completions.d/watchq.fish" ]
	cmp watchq.schema.json "$T/root/usr/share/watchq/watchq.schema.json"
	cmp watchq.catalog "$T/root/usr/lib/systemd/catalog/watchq.catalog"
	# The unit names the binary installed, wherever PREFIX put it.
	grep -qx 'ExecStart=/usr/bin/watchq --journal mounts /' "$T/root/usr/lib/systemd/system/watchq-mounts.service"
	run ! grep -n '@[A-Z]*@' "$T/root/usr/lib/systemd/system/watchq-mounts.service"
	"$T/root/usr/bin/watchq" --version
	run make -s uninstall DESTDIR="$T/root" PREFIX=/usr
	[ "$status" -eq 0 ]
	[ -z "$(find "$T/root" -type f)" ]
}

@test "make install: SYSTEMDUNITDIR moves the unit; systemd-analyze verify passes on the installed unit" {
	need_root
	command -v systemd-analyze >/dev/null || skip "systemd-analyze not installed"
	cd "$BATS_TEST_DIRNAME/.."
	[ -w . ] || skip "source tree is read-only here"
	make -s install DESTDIR="$T/other" SYSTEMDUNITDIR=/etc/systemd/system
	[ -s "$T/other/etc/systemd/system/watchq-mounts.service" ]
	[ ! -e "$T/other/usr/local/lib/systemd/system" ]
	make -s install DESTDIR="$T/root"
	unit=$T/root/usr/local/lib/systemd/system/watchq-mounts.service
	grep -qx 'ExecStart=/usr/local/bin/watchq --journal mounts /' "$unit"
	# verify reads the unit from its path; its ExecStart= and its man page must be
	# those installed: the DESTDIR tree over /usr/local, in a mount namespace of its own.
	run unshare -m --propagation private sh -c 'mount --bind "$0/usr/local" /usr/local &&
		systemd-analyze verify "$1"' "$T/root" "$unit"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "make deps installs what make and make check need; make deps-full adds the heavy set" {
	cd "$BATS_TEST_DIRNAME/.."
	quick=$(make -s -n deps | sed 's/^@*tests\/install-deps //')
	full=$(make -s -n deps-full | sed 's/^@*tests\/install-deps //')
	for p in build-essential libmount-dev libkeyutils-dev scdoc bats jq keyutils python3-jsonschema \
		clang libbpf-dev bpftool libelf-dev zlib1g-dev systemd-journal-remote iproute2; do
		[[ " $quick " == *" $p "* ]] || { echo "deps lacks $p"; false; }
	done
	for p in qemu-system-x86 linux-source-6.1 valgrind gnuplot-nox libclang-rt-14-dev; do
		[[ " $quick " != *" $p "* ]] || { echo "deps has heavy $p"; false; }
		[[ " $full " == *" $p "* ]] || { echo "deps-full lacks $p"; false; }
	done
	for p in $quick; do
		[[ " $full " == *" $p "* ]] || { echo "deps-full lacks $p of deps"; false; }
	done
	# The README names both, and the CI installs both.
	grep -q '`make deps-full`' README.md
	grep -qx 'make deps-full' .ci/run
}
