# watchq — see README.md.  `make deps`, `make`, `make check`, `make deps-full`, `make vm-check`, `make install`.
.SUFFIXES:
SHELL = /bin/bash

VERSION = 0.1.0
PREFIX = /usr/local
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man
BASHCOMPDIR = $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR = $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR = $(PREFIX)/share/fish/vendor_completions.d
DATADIR = $(PREFIX)/share/watchq
SYSTEMDUNITDIR = $(PREFIX)/lib/systemd/system
CATALOGDIR = $(PREFIX)/lib/systemd/catalog

CC = cc
CFLAGS = -O2 -g
PKG_CONFIG = pkg-config
BATS = bats

# Required flags: user CFLAGS are added after these and cannot remove them.
WARNINGS = -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes \
	-Wformat=2 -Wpointer-arith -Wundef -Wvla -Wno-unused-parameter
WERROR_1 = -Werror
WERROR = $(if $(CI),1,0)
# The JSON schema's version, as watchq.schema.json says it: --version prints it.
SCHEMA_VERSION = $(shell sed -n 's/^\t"version": \([0-9]*\),$$/\1/p' watchq.schema.json)
ALL_CFLAGS = -std=gnu11 -D_GNU_SOURCE -DWATCHQ_VERSION='"$(VERSION)"' \
	-DWATCHQ_SCHEMA_VERSION=$(SCHEMA_VERSION) $(WARNINGS) \
	$(WERROR_$(WERROR)) $(shell $(PKG_CONFIG) --cflags mount libsystemd blkid libbpf) $(CFLAGS)
ALL_LDLIBS = $(shell $(PKG_CONFIG) --libs mount libsystemd blkid libbpf) -lkeyutils $(LDLIBS)

# The capture's BPF programs: built with clang for the BPF target, embedded in watchq as a
# bpftool skeleton. Kernel structures are relocated at load time (CO-RE): no vmlinux.h.
# The architecture is the build's (its registers and system call numbers); `make bpf-arm64` builds
# the object alone for arm64 with Debian's cross headers (linux-libc-dev-arm64-cross).
BPF_CLANG = clang
BPFTOOL = bpftool
BPF_ARCH = $(shell $(CC) -dumpmachine | sed -e 's/-.*//' -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
BPF_WARNINGS = -g -O2 -target bpf -Wall -Werror
BPF_CFLAGS = $(BPF_WARNINGS) -D__TARGET_ARCH_$(BPF_ARCH) \
	-I/usr/include/$(shell $(BPF_CLANG) -print-multiarch)

B = .build
# src/ in layers, each folder including only from its own and those below it: lib (buffers,
# allocation, escaping), kernel (decoders of what the kernel hands out, the process capture),
# model (records, event sets, filters, the configuration), sources, run (the loop), output, cli;
# main.c on top. A module's name is its file's, whatever its folder.
LAYERS = lib kernel model sources run output cli
SRCDIRS = $(LAYERS:%=src/%)
INCLUDES = $(SRCDIRS:%=-I%)
HEADERS = $(wildcard src/*/*.h)
vpath %.c $(SRCDIRS) src
CORE = $(filter-out %.bpf,$(notdir $(basename $(wildcard src/*/*.c))))
OBJS = $(CORE:%=$(B)/%.o) $(B)/main.o
# Every unit test (tests/unit/test_*.c) links every module but main.
UNIT_TESTS = $(notdir $(basename $(wildcard tests/unit/test_*.c)))

# The man pages: watchq(1) the command line, watchq-records(5) what it prints,
# watchq-backends(7) the kernel mechanisms; each from its scdoc source, NAME.N.scd.
MANPAGES = man/watchq.1 man/watchq-records.5 man/watchq-backends.7

all: watchq $(MANPAGES)

$(B)/%.o: %.c $(HEADERS)
	@mkdir -p $(B)
	$(CC) $(ALL_CFLAGS) $(INCLUDES) -c -o $@ $<

$(B)/version.o: watchq.schema.json

$(B)/capture.bpf.o: src/kernel/capture.bpf.c src/kernel/capture_rec.h
	@mkdir -p $(B)
	$(BPF_CLANG) $(BPF_CFLAGS) -c -o $@ $<

$(B)/arm64/capture.bpf.o: src/kernel/capture.bpf.c src/kernel/capture_rec.h
	@mkdir -p $(B)/arm64
	$(BPF_CLANG) $(BPF_WARNINGS) -D__TARGET_ARCH_arm64 -I/usr/aarch64-linux-gnu/include -c -o $@ $<

bpf-arm64: $(B)/arm64/capture.bpf.o

$(B)/capture.skel.h: $(B)/capture.bpf.o
	$(BPFTOOL) gen skeleton $< name capture_bpf > $@.tmp && mv $@.tmp $@

# The two modules that hold the skeleton: the capture, and how it attaches.
$(B)/capture.o $(B)/capattach.o: $(B)/%.o: src/kernel/%.c $(HEADERS) $(B)/capture.skel.h
	$(CC) $(ALL_CFLAGS) $(INCLUDES) -I$(B) -c -o $@ $<

watchq: $(OBJS)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(ALL_LDLIBS)

# scdoc's roff, tidied so that mandoc -Tlint finds nothing to say.
man/%: %.scd tools/mantidy
	@mkdir -p man
	scdoc < $< | tools/mantidy > $@.tmp && mv $@.tmp $@

# A test that includes its module's source, to reach its static functions, links every other.
UNIT_OWN_test_nsall = nsall
UNIT_OWN_test_source_fanotify = source_fanotify
$(B)/unit/%: tests/unit/%.c tests/unit/*.h $(CORE:%=$(B)/%.o)
	@mkdir -p $(B)/unit
	$(CC) $(ALL_CFLAGS) $(INCLUDES) -o $@ $< \
		$(filter-out $(UNIT_OWN_$*:%=$(B)/%.o),$(CORE:%=$(B)/%.o)) $(ALL_LDLIBS)

unit: $(UNIT_TESTS:%=$(B)/unit/%)
	@for t in $(UNIT_TESTS); do $(B)/unit/$$t || exit 1; done

# The system tests need root for mounts; they run in a private mount namespace.
check: all unit
	tests/run-bats

vm-check: all
	tests/vm/run

# Needs root: 100,000 mount/umount cycles past watchq (fanotify), 10,000 one at
# a time on the mountinfo backend, then 2,000 under valgrind; writes
# bench/soak-results.txt, and fails if any run does.
soak: all
	set -o pipefail; { bench/soak $(SOAK_CYCLES) && bench/soak --step --backend=mountinfo 10000 && \
		bench/soak --valgrind; } 2>&1 | tee bench/soak-results.txt

# Needs root; writes bench/results.txt and bench/cost.png.
bench: all
	bench/run

# libFuzzer harnesses for every parser of untrusted input; FUZZ_SECONDS each.
# FUZZ_SRC_x: the sources harness x links; FUZZ_LIBS_x: its libraries.
FUZZ_SECONDS = 30
FUZZERS = wq_decode fan_decode quota_nl number escape format events keyspec mounttab keyproc
FUZZ_SRC_wq_decode = wq_decode
FUZZ_SRC_fan_decode = fan_decode
FUZZ_SRC_quota_nl = quota_nl
FUZZ_SRC_number = number
FUZZ_SRC_escape = escape buf xalloc
FUZZ_SRC_format = output_format output_end output_text output_json output_journal output_fields \
	output_keyctl escape buf xalloc event quota_nl keydesc
FUZZ_LIBS_format = $(shell $(PKG_CONFIG) --libs libsystemd) -lkeyutils
FUZZ_SRC_events = filter evset event xalloc
FUZZ_CFLAGS_events = $(shell $(PKG_CONFIG) --cflags mount)
FUZZ_LIBS_events = $(shell $(PKG_CONFIG) --libs mount)
FUZZ_SRC_keyspec = keyspec xalloc
FUZZ_LIBS_keyspec = -lkeyutils
FUZZ_SRC_mounttab = mounttab xalloc
FUZZ_SRC_keyproc = keyproc keydesc buf xalloc
FUZZ_LIBS_keyproc = -lkeyutils
.SECONDEXPANSION:
# A module's source, in whichever layer it is.
src_of = $(foreach m,$(1),$(wildcard $(SRCDIRS:%=%/$(m).c)))
$(B)/fuzz/%: tests/fuzz/fuzz_%.c $$(call src_of,$$(FUZZ_SRC_$$*)) $(HEADERS)
	@mkdir -p $(B)/fuzz
	clang -std=gnu11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		$(INCLUDES) $(FUZZ_CFLAGS_$*) -o $@ $< $(call src_of,$(FUZZ_SRC_$*)) $(FUZZ_LIBS_$*)

fuzz: $(FUZZERS:%=$(B)/fuzz/%)
	@for f in $(FUZZERS); do \
		mkdir -p $(B)/fuzz/corpus-$$f && cp tests/fuzz/corpus/$$f/* $(B)/fuzz/corpus-$$f/ && \
		$(B)/fuzz/$$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
			$(B)/fuzz/corpus-$$f >$(B)/fuzz/$$f.log 2>&1 || { tail -30 $(B)/fuzz/$$f.log; exit 1; }; \
		echo "fuzz $$f: $$(grep -o 'stat::number_of_executed_units: *[0-9]*' $(B)/fuzz/$$f.log | grep -o '[0-9]*$$' ) runs, no crash"; \
	done

asan:
	$(MAKE) clean
	$(MAKE) CFLAGS='-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all' all unit
	ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 tests/run-bats

# Dependencies, installed with apt on Debian and Ubuntu. `make deps`: what
# `make` and `make check` need. `make deps-full`: those and the heavier set of
# vm-check (qemu, a kernel to build), bench, soak (valgrind, gnuplot), fuzz and
# CC=clang builds.
DEPS = build-essential pkg-config libmount-dev libkeyutils-dev libsystemd-dev systemd keyutils scdoc mandoc strace \
	bats jq util-linux e2fsprogs quota inotify-tools bash-completion zsh fish python3-jsonschema \
	clang libbpf-dev bpftool libelf-dev zlib1g-dev systemd-journal-remote iproute2 libseccomp-dev
DEPS_FULL = libclang-rt-14-dev valgrind gnuplot-nox linux-libc-dev-arm64-cross \
	qemu-system-x86 linux-source-6.1 linux-source-6.12 dwarves bc flex bison libssl-dev cpio xz-utils
deps:
	@tests/install-deps $(DEPS)

deps-full:
	@tests/install-deps $(DEPS) $(DEPS_FULL)

install: all
	install -Dm755 watchq $(DESTDIR)$(BINDIR)/watchq
	install -Dm644 man/watchq.1 $(DESTDIR)$(MANDIR)/man1/watchq.1
	install -Dm644 man/watchq-records.5 $(DESTDIR)$(MANDIR)/man5/watchq-records.5
	install -Dm644 man/watchq-backends.7 $(DESTDIR)$(MANDIR)/man7/watchq-backends.7
	install -Dm644 completions/watchq.bash $(DESTDIR)$(BASHCOMPDIR)/watchq
	install -Dm644 completions/_watchq $(DESTDIR)$(ZSHCOMPDIR)/_watchq
	install -Dm644 completions/watchq.fish $(DESTDIR)$(FISHCOMPDIR)/watchq.fish
	install -Dm644 watchq.schema.json $(DESTDIR)$(DATADIR)/watchq.schema.json
	@mkdir -p $(B)
	sed 's|@BINDIR@|$(BINDIR)|g' examples/watchq-mounts.service.in >$(B)/watchq-mounts.service
	install -Dm644 $(B)/watchq-mounts.service $(DESTDIR)$(SYSTEMDUNITDIR)/watchq-mounts.service
	install -Dm644 watchq.catalog $(DESTDIR)$(CATALOGDIR)/watchq.catalog

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/watchq $(DESTDIR)$(MANDIR)/man1/watchq.1 \
		$(DESTDIR)$(MANDIR)/man5/watchq-records.5 $(DESTDIR)$(MANDIR)/man7/watchq-backends.7 \
		$(DESTDIR)$(BASHCOMPDIR)/watchq $(DESTDIR)$(ZSHCOMPDIR)/_watchq \
		$(DESTDIR)$(FISHCOMPDIR)/watchq.fish $(DESTDIR)$(DATADIR)/watchq.schema.json \
		$(DESTDIR)$(SYSTEMDUNITDIR)/watchq-mounts.service $(DESTDIR)$(CATALOGDIR)/watchq.catalog
	rmdir $(DESTDIR)$(DATADIR) 2>/dev/null || true

clean:
	rm -rf $(B) watchq man

.PHONY: bpf-arm64 soak all unit check vm-check bench fuzz asan deps deps-full install uninstall clean
