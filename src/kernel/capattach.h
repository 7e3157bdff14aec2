#ifndef WATCHQ_CAPATTACH_H
#define WATCHQ_CAPATTACH_H

#include <stddef.h>
#include <sys/stat.h>

#include "capture.h"

struct capture_bpf;

/* How the capture is attached, and why not by trampolines where it is not. */
struct capattach {
	enum capture_attach kind;
	char fentry_why[160];		/* "": trampolines are attached */
};

/*
 * Open, load and attach the capture's programs for what (enum capture_what bits), for a watchq
 * whose pid namespace is pidns: by the first kind that loads of trampolines, syscall tracepoints
 * (where tracefs has them) and raw tracepoints, or only the kind WATCHQ_BPF_ATTACH names. NULL if
 * none does, with the reason in why; a writes how, or why not by trampolines.
 */
struct capture_bpf *capattach_load(unsigned what, const struct stat *pidns, struct capattach *a,
    char *why, size_t size);
/* "fentry", "tracepoint" or "raw-tracepoint". */
const char *capattach_name(enum capture_attach kind);

#endif
