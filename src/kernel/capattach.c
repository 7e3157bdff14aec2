/*
 * How the process capture attaches: the three sets of programs of capture.bpf.c, tried in turn.
 * Trampolines (fentry/fexit) cost only the calls they are on; the syscall tracepoints and the raw
 * ones put every system call of every process on the kernel's slower path while attached.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "capattach.h"
#include "capture.skel.h"

/* Each attach kind: its name, the prefix of its programs in capture.bpf.c, what attaching is. */
static const struct capattach_way {
	const char *name, *prefix, *attaching;
} capattach_ways[CAPTURE_ATTACH_KINDS] = {
	[CAPTURE_FENTRY] = { "fentry", "fe_", "attaching trampolines to the system calls" },
	[CAPTURE_TRACEPOINT] = { "tracepoint", "tp_", "attaching to the system call tracepoints" },
	[CAPTURE_RAW_TRACEPOINT] = { "raw-tracepoint", "raw_",
	    "attaching to sys_enter and sys_exit" },
};

static int
quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

/* Where libbpf looks for tracepoints (the debugfs copy first), and whether it has the syscalls. */
static bool
tracefs_has_syscalls(void)
{
	const char *dir = access("/sys/kernel/debug/tracing", F_OK) == 0 ?
	    "/sys/kernel/debug/tracing" : "/sys/kernel/tracing";
	char path[128];

	snprintf(path, sizeof(path), "%s/events/syscalls/sys_enter_mount/id", dir);
	return access(path, R_OK) == 0;
}

/*
 * Whether the kernel loads BPF tracing programs (fentry) at all: a program with an attach target no
 * function has is refused for that (EINVAL) where it does, and at once with another errno (EPERM
 * where a policy forbids them) where it does not. Trying the set itself would cost a parse of the
 * kernel's BTF first, which the fallback then does again.
 */
static int
tracing_refused(void)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = BPF_TRACE_FENTRY,
	    .attach_btf_id = 1);
	int fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, NULL, "GPL", insns, 2, &o);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno == EINVAL ? 0 : errno;
}

/*
 * Whether the program named name is loaded: one of the set of kind, and for the calls of one system
 * call, of a call wanted. The raw tracepoints filter on the call at run time. compat: with the
 * trampolines, those on the 32-bit mount calls (fe32_), which count such a call as lost.
 */
static bool
prog_wanted(unsigned what, enum capture_attach kind, bool compat, const char *name)
{
	const char *prefix = capattach_ways[kind].prefix;

	if (strncmp(name, "fe32_", 5) == 0)
		return compat && kind == CAPTURE_FENTRY && (what & CAPTURE_MOUNT_CALLS);
	if (strcmp(name, "raw_newtask") == 0)
		return (what & CAPTURE_MOUNT_CALLS) &&
		    (!(what & CAPTURE_NS_FLIPS) || (what & CAPTURE_NS_PROCS));
	if (strncmp(name, prefix, strlen(prefix)) != 0)
		return false;
	if (kind == CAPTURE_RAW_TRACEPOINT)
		return true;
	if (strncmp(name + strlen(prefix), "ns_", 3) == 0)
		return what & CAPTURE_NS_CALLS;
	return what & CAPTURE_MOUNT_CALLS;
}

/* Open, load and attach the programs of kind (compat: as prog_wanted()); NULL with the reason in
 * why. */
static struct capture_bpf *
load(unsigned what, enum capture_attach kind, bool compat, const struct stat *pidns, int *err,
    char *why, size_t size)
{
	struct capture_bpf *skel;
	struct bpf_program *p;

	if ((skel = capture_bpf__open()) == NULL) {
		*err = -errno;
		snprintf(why, size, "opening the BPF object: %s", strerror(errno));
		return NULL;
	}
	skel->rodata->pidns_dev = pidns->st_dev;
	skel->rodata->pidns_ino = pidns->st_ino;
	skel->rodata->want_mounts = (what & CAPTURE_MOUNT_CALLS) != 0;
	skel->rodata->want_ns = (what & CAPTURE_NS_CALLS) != 0;
	/* Trampolines and syscall tracepoints cost each call of theirs: only the calls wanted. */
	bpf_object__for_each_program(p, skel->obj)
		bpf_program__set_autoload(p, prog_wanted(what, kind, compat, bpf_program__name(p)));
	if ((*err = capture_bpf__load(skel)) < 0)
		snprintf(why, size, "loading BPF programs: %s (it needs root, or CAP_BPF and "
		    "CAP_PERFMON)", strerror(-*err));
	else if ((*err = capture_bpf__attach(skel)) < 0)
		snprintf(why, size, "%s: %s", capattach_ways[kind].attaching, strerror(-*err));
	if (*err == 0)
		return skel;
	capture_bpf__destroy(skel);
	return NULL;
}

/*
 * The trampolines, with those on the 32-bit mount calls where the kernel has them: a kernel
 * without ia32 emulation has no such functions, and refuses the set that names them (ESRCH).
 */
static struct capture_bpf *
fentry_load(unsigned what, const struct stat *pidns, int *err, char *why, size_t size)
{
	struct capture_bpf *skel = load(what, CAPTURE_FENTRY, true, pidns, err, why, size);

	if (skel == NULL && (what & CAPTURE_MOUNT_CALLS))
		skel = load(what, CAPTURE_FENTRY, false, pidns, err, why, size);
	return skel;
}

struct capture_bpf *
capattach_load(unsigned what, const struct stat *pidns, struct capattach *a, char *why,
    size_t size)
{
	const char *only = getenv("WATCHQ_BPF_ATTACH");
	struct capture_bpf *skel = NULL;
	int err = 0, k, n = 0;

	libbpf_set_print(quiet);
	if (only && *only == '\0')
		only = NULL;
	a->fentry_why[0] = '\0';
	if (only)
		snprintf(a->fentry_why, sizeof(a->fentry_why), "WATCHQ_BPF_ATTACH=%s", only);
	for (k = 0; k < CAPTURE_ATTACH_KINDS && skel == NULL; k++) {
		if (only ? strcmp(only, capattach_ways[k].name) != 0 :
		    k == CAPTURE_TRACEPOINT && !tracefs_has_syscalls())
			continue;
		n++;
		a->kind = k;
		/* why is the next kind's, or set below where fentry was the only one. */
		if (k != CAPTURE_FENTRY)
			skel = load(what, k, false, pidns, &err, why, size);
		else if ((err = -tracing_refused()) == 0)
			skel = fentry_load(what, pidns, &err, why, size);
		if (skel == NULL && k == CAPTURE_FENTRY)
			snprintf(a->fentry_why, sizeof(a->fentry_why),
			    "the kernel refused them: %s", strerror(-err));
	}
	if (n == 0)
		snprintf(why, size, "WATCHQ_BPF_ATTACH=%s: not an attach kind (fentry, tracepoint, "
		    "raw-tracepoint)", only);
	else if (skel && a->kind == CAPTURE_FENTRY)
		a->fentry_why[0] = '\0';
	else if (skel == NULL && a->kind == CAPTURE_FENTRY)
		snprintf(why, size, "fentry: %s", a->fentry_why);
	return skel;
}

const char *
capattach_name(enum capture_attach kind)
{
	return capattach_ways[kind].name;
}
