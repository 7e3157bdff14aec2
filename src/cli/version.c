#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "version.h"
#include "capture.h"
#include "fserr.h"
#include "nslist.h"
#include "quota_nl.h"
#include "source.h"
#include "statmount.h"

#ifndef WATCHQ_VERSION
#define WATCHQ_VERSION "0.0"
#endif
#ifndef WATCHQ_SCHEMA_VERSION
#define WATCHQ_SCHEMA_VERSION 0
#endif

/* Each probe: NULL if the feature works here, else why not. */
static char version_why[256];

static const char *
version_statmount(void)
{
	if (statmount_probe() == 0)
		return NULL;
	snprintf(version_why, sizeof(version_why), "listmount/statmount need Linux 6.8: %s",
	    strerror(errno));
	return version_why;
}

/* The sb source's error groups, and a mark of the root's filesystem as it marks each watch's. */
static const char *
version_fs_error(void)
{
	struct fserr fe;
	struct stat st;
	int r = -1;

	if (fserr_open(&fe) == 0) {
		r = stat("/", &st) < 0 ? -1 : fserr_mark(&fe, "/", st.st_dev);
		fserr_close(&fe);
	}
	if (r == 0)
		return NULL;
	snprintf(version_why, sizeof(version_why),
	    "filesystem error events need Linux 5.16 and CAP_SYS_ADMIN: %s", strerror(errno));
	return version_why;
}

/* The sb source's quota netlink socket. */
static const char *
version_quota(void)
{
	int fd = quota_nl_open();

	if (fd >= 0) {
		close(fd);
		return NULL;
	}
	snprintf(version_why, sizeof(version_why), "quota warnings: %s",
	    errno == ENOENT ? "no VFS_DQUOT netlink family in this network namespace" :
	    strerror(errno));
	return version_why;
}

/* The nsfs walk -N all lists mount namespaces with. */
static const char *
version_ns_walk(void)
{
	if (nslist_walk_probe() == 0)
		return NULL;
	snprintf(version_why, sizeof(version_why), "%s: %s; -N all finds namespaces in /proc",
	    errno == ENOTTY ? "NS_MNT_GET_NEXT needs Linux 6.12" :
	    "NS_MNT_GET_NEXT needs CAP_SYS_ADMIN", strerror(errno));
	return version_why;
}

/* What loading the process capture showed: NULL where it loaded, else why not. */
static const char *version_capture_why;
/* Why it is not on trampolines; NULL where it is. */
static const char *version_fentry_why;
static char version_fentry[256];

/* The process capture (BPF at the mount system calls): loaded, attached, closed, once. */
static void
version_capture_load(void)
{
	static char why[256];
	static bool done;
	struct capture *c;

	if (done)
		return;
	done = true;
	if ((c = capture_open(CAPTURE_MOUNT_CALLS, why, sizeof(why))) == NULL) {
		version_capture_why = version_fentry_why = why;
		return;
	}
	if (capture_fentry_why(c)) {
		snprintf(version_fentry, sizeof(version_fentry), "%s; the capture uses %ss, which "
		    "every system call pays while it runs", capture_fentry_why(c),
		    capture_attach_name(c));
		version_fentry_why = version_fentry;
	}
	capture_close(c);
}

static const char *
version_capture(void)
{
	version_capture_load();
	return version_capture_why;
}

/* Trampolines (fentry/fexit) on the mount calls: only those calls pay for the capture. */
static const char *
version_trampolines(void)
{
	version_capture_load();
	return version_fentry_why;
}

static const struct feature {
	const char *name;
	const char *(*probe)(void);
} version_features[] = {
	{ "statmount", version_statmount },
	{ "fanotify-fs-error", version_fs_error },
	{ "quota-netlink", version_quota },
	{ "bpf-capture", version_capture },
	{ "bpf-trampolines", version_trampolines },
	{ "ns-walk", version_ns_walk },
	{ NULL, NULL },
};

/* One line: what, then yes, or no and why. */
static void
version_line(FILE *f, const char *what, const char *why)
{
	fprintf(f, "%s: %s%s%s\n", what, why ? "no (" : "yes", why ? why : "", why ? ")" : "");
}

void
version_print(FILE *f)
{
	const struct backend *be;
	const struct feature *ft;
	char what[128];

	fprintf(f, "watchq %s\nschema %d\n", WATCHQ_VERSION, WATCHQ_SCHEMA_VERSION);
	for (be = source_backends; be->name; be++) {
		if (!be->choosable)
			continue;
		snprintf(what, sizeof(what), "backend %s %s", source_word(be->type), be->name);
		version_line(f, what, source_probe(be));
	}
	for (ft = version_features; ft->name; ft++) {
		snprintf(what, sizeof(what), "kernel %s", ft->name);
		version_line(f, what, ft->probe());
	}
}
