/*
 * Who made a change: the process as it was at the mount call that made it. fanotify gives the pid
 * of the process in whose context the kernel made the change and, while that process is not
 * reaped, a pidfd for it (FAN_REPORT_PIDFD); what a pid names when the record is read is not asked,
 * as the process may have another uid or name by then, or the pid another process. The uid and
 * name come from the capture's call behind the record, joined by the pidfd's pidfs inode (which
 * no other process ever has) and by the mount point (capjoin.c).
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "capjoin.h"
#include "capture.h"
#include "who.h"

void
who_init(struct who *w, const struct who_proc *proc, int32_t pid, int pidfd)
{
	memset(w, 0, sizeof(*w));
	w->proc = proc;
	w->pidfd = pidfd < 0 ? -1 : pidfd;
	w->by.pid = pid > 0 ? pid : 0;
}

void
who_at(struct who *w, enum who_kind kind, const char *path, bool spread)
{
	w->kind = kind;
	w->path = path;
	w->spread = spread;
}

void
who_known(struct who *w, int32_t pid, uint32_t uid, const char *comm)
{
	who_init(w, NULL, pid, -1);
	w->read = true;
	w->by.has_uid = true;
	w->by.uid = uid;
	snprintf(w->comm, sizeof(w->comm), "%s", comm);
	w->by.comm = w->comm;
}

void
who_done(struct who *w)
{
	if (w->pidfd >= 0)
		close(w->pidfd);
	memset(w, 0, sizeof(*w));
	w->pidfd = -1;
	w->read = true;
}

/* The record's change as capjoin.h asks it. */
static void
who_change(const struct who *w, struct capjoin_change *ch)
{
	const struct mntns_root_id *r = w->proc->root;
	struct stat st;

	memset(ch, 0, sizeof(*ch));
	ch->tgid = w->by.pid;
	ch->kind = w->kind;
	ch->path = w->path;
	ch->spread = w->spread;
	ch->mnt_ns = w->proc->mnt_ns;
	/* pidfs (Linux 6.9): a pidfd's inode is its process's alone, for ever. */
	if (w->pidfd >= 0 && fstat(w->pidfd, &st) == 0)
		ch->pid_ino = st.st_ino;
	if (r)
		ch->root = (struct capjoin_root){ r->mnt_id, major(r->dev), minor(r->dev), r->ino };
}

const struct ev_who *
who_get(struct who *w)
{
	struct capjoin_change ch;
	uint32_t uid;

	if (w->read)
		return &w->by;
	w->read = true;
	if (w->by.pid == 0 || w->kind == 0 || w->proc == NULL || w->proc->cap == NULL)
		return &w->by;
	who_change(w, &ch);
	if (capture_name(w->proc->cap, &ch, &uid, w->comm, sizeof(w->comm))) {
		w->by.comm = w->comm;
		w->by.has_uid = true;
		w->by.uid = uid;
	}
	return &w->by;
}
