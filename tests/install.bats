#!/usr/bin/env bats
# make install / uninstall with DESTDIR and PREFIX (the completions themselves: docs.bats).
load helper

@test "make install puts binary, man page and completions under DESTDIR/PREFIX; uninstall removes them" {
	cd "$BATS_TEST_DIRNAME/.."
	[ -w . ] || skip "source tree is read-only here"
	run make -s install DESTDIR="$T/root" PREFIX=/usr
	[ "$status" -eq 0 ]
	[ -x "$T/root/usr/bin/watchq" ]
	[ -s "$T/root/usr/share/man/man1/watchq.1" ]
	[ -s "$T/root/usr/share/bash-completion/completions/watchq" ]
	[ -s "$T/root/usr/share/zsh/site-functions/_watchq" ]
	[ -s "$T/root/usr/share/fish/vendor_completions.d/watchq.fish" ]
	cmp watchq.schema.json "$T/root/usr/share/watchq/watchq.schema.json"
	"$T/root/usr/bin/watchq" --version
	run make -s uninstall DESTDIR="$T/root" PREFIX=/usr
	[ "$status" -eq 0 ]
	[ -z "$(find "$T/root" -type f)" ]
}

@test "make deps installs what make and make check need; make deps-full adds the heavy set" {
	cd "$BATS_TEST_DIRNAME/.."
	quick=$(make -s -n deps | sed 's/^@*tests\/install-deps //')
	full=$(make -s -n deps-full | sed 's/^@*tests\/install-deps //')
	for p in build-essential libmount-dev libkeyutils-dev scdoc bats jq keyutils python3-jsonschema \
		clang libbpf-dev bpftool libelf-dev zlib1g-dev; do
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
