#ifndef WATCHQ_CONFIG_H
#define WATCHQ_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "filter.h"
#include "mntns.h"

#define WATCHQ_MAX_WATCHES	256	/* watch tags are 8 bits, as in the kernel */

struct backend;

enum out_format {
	OUT_TEXT,
	OUT_JSON,
	OUT_FORMAT,
	OUT_JOURNAL,	/* --journal: sd_journal_send, not fd */
	OUT_KEYCTL,	/* --keyctl: keyctl watch's lines */
};

struct watch {
	enum ev_type type;	/* EV_MOUNT, EV_KEY, EV_SB */
	const char *target;	/* as given on the command line */
	char *path;		/* canonical absolute path (mounts, sb) */
	int32_t key;		/* key serial (keys) */
	int tag;		/* the TARGET's tag, which its copies in each -N namespace share */
	bool internal;		/* added for a wait condition: neither announced nor counted */
	/* Mounts with -N: the namespace path is in (NULL: ours); its cgroup is read through it */
	struct mntns *ns;
	/* Mounts: that namespace's inode number, 0 if unknown; other sources: 0 */
	uint64_t mnt_ns;
	/* Mounts with -N: our path to the directory through the namespace's root (for inotify) */
	char *reach;
};

enum cond_kind {
	COND_MOUNT,
	COND_UNMOUNT,
	COND_MOUNTED,
	COND_UNMOUNTED,
	COND_READONLY,
	COND_WRITABLE,
	COND_KEY,
	COND_NO_KEY,
	COND__N
};

/*
 * What the run does: print events until it ends, wait for one event or for conditions, or list
 * the present state.
 */
enum run_mode {
	MODE_MONITOR,
	MODE_WAIT_EVENT,	/* wait -e: the next matching event */
	MODE_WAIT_STATE,	/* wait with conditions (--mount, --key, ...) */
	MODE_LIST,		/* list: the present records, whole, then exit */
};

/* Where a wait condition stands. */
enum wait_state {
	WAIT_PENDING,
	WAIT_MET,
	WAIT_GONE,	/* a path or keyring a condition needs no longer exists */
};

struct cond {
	enum cond_kind kind;
	const char *arg;	/* as given */
	/*
	 * Canonical absolute path; mount conditions with -N, and --mounted and --unmounted (whose
	 * SPEC is resolved at each check): NULL
	 */
	char *path;
	char *type;		/* key conditions: TYPE, then DESC after its NUL */
	const char *desc;
	int32_t keyring;	/* key conditions: the keyring looked in */
	/* --readonly, --writable: the internal sb watch it added; else NULL */
	const struct watch *watch;
};

/* Everything the command line says; read-only once cli_parse() returns. */
struct config {
	struct watch watches[WATCHQ_MAX_WATCHES];
	size_t nwatches;
	struct evset events;
	struct filter filter;
	enum out_format format_kind;
	const char *format;
	const char *timefmt;
	bool timestamps;
	bool has_timeout;
	double timeout;
	long long count;	/* 0: unlimited */
	bool quiet;		/* -qq: no notes on stderr, only errors */
	bool no_events;		/* -qq: print no events either (the exit status tells) */
	bool null;		/* -0: records end with NUL, not newline */
	bool show_who;		/* the output shows who made a mount change (pid, uid, name) */
	bool no_bpf;		/* --no-bpf: no BPF process capture */
	const char *output_path;	/* -o FILE; NULL: stdout */
	bool initial;
	bool list_target;	/* list --target: the mount that holds each mounts DIR (findmnt -T) */
	char **fstypes;		/* NULL-terminated; a "no" prefix negates the whole list */
	bool fstypes_negated;
	char *fstype_list;	/* storage behind fstypes */
	const char *source_dev;
	char *source_real;	/* source_dev resolved, when it names an existing file */
	char *optlist;		/* -O: findmnt -O's LIST, the -O given joined by commas */
	struct filter_paths paths;	/* --include, --exclude and their -i forms */
	const struct backend *backend;	/* --backend; NULL: auto */
	bool recursive;		/* keys: follow keyrings linked below watched ones */
	bool follow;		/* keys: follow the other keys linked in a followed keyring */
	double interval;
	bool has_space;		/* --space-below given */
	double space_pct;	/* its PERCENT, or 0 */
	uint64_t space_bytes;	/* its SIZE, or 0 */
	unsigned sources;	/* 1 << EV_MOUNT, EV_KEY, EV_SB: the sources to open */
	unsigned queue_size;
	enum run_mode mode;
	struct cond conds[WATCHQ_MAX_WATCHES];
	size_t nconds;
	/* -N: the namespaces watched instead of ours, in the run's storage (sources change them) */
	struct mntns *ns;
	size_t nns;
	/* -N all: every mount namespace, found as they appear; mounts watches are their TARGETs,
	 * resolved in each (struct nsall) */
	bool ns_all;
};

#endif
