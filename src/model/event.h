#ifndef WATCHQ_EVENT_H
#define WATCHQ_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "mounttab.h"

/*
 * One record type for every source, shaped after the kernel's watch_queue
 * record: a type (the source), a subtype, a watch tag and info bits.
 */
enum ev_type {
	EV_META,
	EV_MOUNT,
	EV_KEY,
	EV_SB,
	EV__NTYPES
};

enum ev_meta {
	META_REMOVAL,
	META_LOSS,
	META_NS_NEW,		/* -N all: a mount namespace is watched from now on */
	META_NS_GONE,		/* -N all: no process is left in a namespace, no longer watched */
};

enum ev_mount {
	MOUNT_PRESENT,
	MOUNT_MOUNT,
	MOUNT_UNMOUNT,
	MOUNT_MOVE,
	MOUNT_READONLY,		/* became read-only */
	MOUNT_WRITABLE,		/* became writable */
	MOUNT_SETATTR,
	MOUNT_PROPAGATION,	/* shared, slave, private or unbindable changed */
	/* Mounts that came and went before they could be read: counted, never placed */
	MOUNT_TRANSIENT,
};

/*
 * The kernel's key notification subtypes, value for value: records pass through unchanged (checked
 * in event.c).
 */
enum ev_key {
	KEY_INSTANTIATED,
	KEY_UPDATED,
	KEY_LINKED,
	KEY_UNLINKED,
	KEY_CLEARED,
	KEY_REVOKED,
	KEY_INVALIDATED,
	KEY_SETATTR,
	KEY_PRESENT,		/* not the kernel's: a key's state at the start */
};

enum ev_sb {
	SB_ERROR,
	SB_READONLY,
	SB_EDQUOT,
	SB_LOWSPACE,
	SB_PRESENT,		/* the filesystem's state at the start */
};

/* Info bits of a move: which end lies outside the watched subtree. */
#define EV_INFO_MOVE_FROM	0x1u	/* only the old path is watched */
#define EV_INFO_MOVE_TO		0x2u	/* only the new path is watched */
#define EV_INFO_MOVE_MASK	(EV_INFO_MOVE_FROM | EV_INFO_MOVE_TO)

/* Who made a mount change or a superblock's read-only flip, where it is proven; 0: unknown. */
struct ev_who {
	int32_t pid;		/* in watchq's pid namespace; 0: unknown */
	bool has_uid;
	uint32_t uid;		/* the real user id, when has_uid */
	const char *comm;	/* the process's name; NULL: unknown */
};

struct ev_mount_fields {
	/*
	 * The mount as the record shows it (its ids, path, filesystem, options, propagation, state:
	 * mounttab.h), as the source's table held it when the record was made; NULL: transient.
	 */
	const struct mounttab_entry *at;
	const char *old_path;		/* moves only: where it was */
	const char *old_options;	/* setattr only: its options before */
	const char *old_propagation;	/* propagation only: before */
	const uint64_t *ids;		/* transient: the unique ids of the mounts */
	size_t count;			/* transient: how many */
	struct ev_who by;
};

struct ev_key_fields {
	int32_t key;		/* the key concerned: the linked one for linked/unlinked */
	int32_t keyring;	/* the keyring of linked/unlinked/cleared, else 0 */
	int32_t aux;		/* the record's aux word */
	const char *type, *description;	/* of key, best effort (NULL: unknown) */
	/* present: the key's permission mask, owner and group, as KEYCTL_DESCRIBE says them */
	bool has_attr;
	uint32_t perm;
	long uid, gid;
};

/* Read-only states of a filesystem, as the readonly event reports them. */
enum sb_ro {
	SB_RO_RW,
	SB_RO_RO,		/* the superblock's read-only flag */
	SB_RO_EMERGENCY,	/* ext4 after an error: writes fail, the flag stays clear */
};

struct ev_sb_fields {
	const char *path, *fstype, *device;	/* the filesystem's mount point, type, source */
	int error;			/* error: the first errno */
	unsigned count;			/* error: errors merged into this event */
	enum sb_ro ro, old_ro;		/* readonly; present: ro only */
	struct ev_who by;		/* readonly: the process whose remount made it */
	uint32_t quota_type;		/* edquot: USRQUOTA, GRPQUOTA, PRJQUOTA */
	uint64_t id, caused_id;		/* edquot: whose quota, who wrote */
	const char *warning;		/* edquot: "block_soft", ... */
	bool low;			/* lowspace: below the threshold (else: recovered) */
	bool has_space;			/* present: avail and size are known */
	uint64_t avail, size, threshold;	/* lowspace, present: bytes */
};

struct ev_meta_fields {
	long long lost;		/* -1: unknown */
	const char *backend;
	const char *what;	/* removal: what went away */
	int32_t pid;		/* ns_new, ns_gone: the process followed there; 0: none */
	int32_t key;		/* a keys watch's key serial; 0: another source's */
};

struct event {
	enum ev_type type;
	unsigned subtype;
	unsigned info;
	int tag;
	const char *watch;	/* the target as the user gave it */
	const char *watch_source;	/* "mounts", "keys", "sb": for meta events */
	/* A mounts watch's mount namespace (nsfs inode number); 0: another source's */
	uint64_t mnt_ns;
	/* -N: the cgroup v2 path of the process followed in that namespace; NULL: unknown */
	const char *cgroup;
	struct timespec time;	/* CLOCK_REALTIME */
	union {
		struct ev_mount_fields mount;
		struct ev_key_fields key;
		struct ev_sb_fields sb;
		struct ev_meta_fields meta;
	} u;
};

/* One source: how records, the command line and the readiness line name it. */
struct event_source {
	enum ev_type type;
	const char *name;		/* "mount": the source of text and JSON records */
	/* "mounts": as typed, and as meta records name a watch's source */
	const char *word;
	const char *default_target;	/* NULL: at least one target is required */
};

/*
 * Each source in the order of the readiness line, then meta (no command line names it), ended by a
 * NULL name.
 */
extern const struct event_source event_sources[];

/*
 * Whether ev says what watchq could not see (meta records, transient mounts) rather than a change:
 * it never counts towards --count or wait -e.
 */
bool event_is_summary(const struct event *ev);
/* Whether ev is a present record: the state at the start, not a change; it never counts. */
bool event_is_present(const struct event *ev);
/* Name of a source type as printed in the first column ("mount", "meta"). */
const char *event_type_name(enum ev_type type);
/* "rw", "ro" or "emergency_ro". */
const char *event_sb_ro_name(enum sb_ro ro);
/* Name of an event as printed ("unmount", "move_from"). */
const char *event_name(const struct event *ev);
/* The word keyctl watch prints for ev ("unlk", "gc"), or NULL where it has none. */
const char *event_keyctl_word(const struct event *ev);
/* The row of event_names[] that ev prints as, or NULL. */
const struct event_name *event_row(const struct event *ev);

/* One user-visible event name and the records it selects. */
struct event_name {
	const char *name;
	enum ev_type type;
	unsigned subtype;
	unsigned info_mask, info_value;	/* record matches if (info & mask) == value */
	/* The row a record prints as (no alias): */
	const char *message_id;		/* the journal's MESSAGE_ID (watchq.catalog) */
	int priority;			/* the journal's PRIORITY, a LOG_* of syslog(3) */
	/*
	 * A mount event that only the mountinfo signal tells of (no fanotify record): wanting it
	 * makes the fanotify backend poll the signal and re-read mounts.
	 */
	bool on_signal;
	/* The word keyutils' keyctl watch prints for these records (--keyctl). */
	bool keyctl;
	/* A meta event: the sources it comes with (1u << type each; -e help); 0: every one. */
	unsigned with;
};

/*
 * Every event name watchq accepts, ended by a NULL name. A record prints as the first row that
 * matches it, so that a variant (move_from) comes before its plain name (move), and aliases last.
 */
extern const struct event_name event_names[];
/* The first row that selects what row n selects: the name its records print. */
const struct event_name *event_name_first(const struct event_name *n);
/* The name printed for the one event alias row n selects; NULL if n is not such an alias. */
const char *event_alias_of(const struct event_name *n);


/* Where sources deliver events: the filter, the output and the end conditions. */
struct sink {
	void (*emit)(struct sink *sink, struct event *ev);
};

#endif
