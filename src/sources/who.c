/*
 * Who made a change: the process as it was at the mount call that made it. fanotify gives the pid
 * of the process in whose context the kernel made the change and, while that process is not
 * reaped, a pidfd for it (FAN_REPORT_PIDFD); what a pid names when the record is read is not asked,
 * as the process may have another uid or name by then, or the pid another process. The uid and
 * name come from the capture's call behind the record, joined by the pidfd's pidfs inode (which
 * no other process ever has) and by the mount point (capjoin.c).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "capjoin.h"
#include "debug.h"
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

/* Where cgroup v2 is mounted: alone, or beside v1 (a hybrid host). */
static const char *const cgroup2_roots[] = { "/sys/fs/cgroup", "/sys/fs/cgroup/unified" };

void
who_proc_cgroups(struct who_proc *p)
{
	struct statfs sf;
	char link[64];
	size_t i;

	p->cgroot = -1;
	for (i = 0; p->cgroot < 0 && i < sizeof(cgroup2_roots) / sizeof(cgroup2_roots[0]); i++) {
		if ((p->cgroot = open(cgroup2_roots[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
			continue;
		snprintf(link, sizeof(link), "/proc/self/fd/%d", p->cgroot);
		/* cgroup2's magic (linux/magic.h) */
		if (fstatfs(p->cgroot, &sf) < 0 || sf.f_type != 0x63677270 ||
		    (p->cgroot_path = realpath(link, NULL)) == NULL) {
			close(p->cgroot);
			p->cgroot = -1;
		}
	}
}

void
who_proc_close(struct who_proc *p)
{
	if (p->cgroot >= 0)
		close(p->cgroot);
	free(p->cgroot_path);
	p->cgroot = -1;
	p->cgroot_path = NULL;
}

/*
 * The path of cgroup id below the cgroup2 root: a file handle of kernfs (FILEID_KERNFS, the id
 * itself) opens it, and its link in /proc names it. Allocated; NULL if it is gone or not ours.
 */
static char *
cgroup_path(const struct who_proc *p, uint64_t id)
{
	struct {
		struct file_handle fh;
		uint64_t id;
	} h;
	char link[64], *path, *rel = NULL;
	size_t n = strlen(p->cgroot_path);
	int fd;

	h.fh.handle_bytes = sizeof(h.id);
	h.fh.handle_type = 0xfe;
	h.id = id;
	if ((fd = open_by_handle_at(p->cgroot, &h.fh, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return NULL;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	path = realpath(link, NULL);
	close(fd);
	if (path && strncmp(path, p->cgroot_path, n) == 0 && (path[n] == '/' || path[n] == '\0'))
		rel = strdup(path[n] ? path + n : "/");
	free(path);
	return rel;
}

bool
who_cgroup(struct who *w, const char **path)
{
	if (w->cgroup_id == 0 || w->proc == NULL || w->proc->cgroot < 0)
		return false;
	if (w->cgroup == NULL)
		w->cgroup = cgroup_path(w->proc, w->cgroup_id);
	*path = w->cgroup;
	return true;
}

void
who_done(struct who *w)
{
	free(w->cgroup);
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
	struct capture_named named;

	if (w->read)
		return &w->by;
	w->read = true;
	if (w->by.pid == 0 || w->kind == 0 || w->proc == NULL || w->proc->cap == NULL)
		return &w->by;
	who_change(w, &ch);
	if (!capture_name(w->proc->cap, &ch, &named)) {
		DEBUG(DEBUG_CAPTURE, "pid %d, %s at %s: nobody named (no captured call can alone be "
		    "behind it)", (int)w->by.pid, w->kind == WHO_ATTACH ? "attach" :
		    w->kind == WHO_DETACH ? "detach" : "move", w->path ? w->path : "-");
	} else {
		DEBUG(DEBUG_CAPTURE, "pid %d, %s at %s: %s uid %u, at its call", (int)w->by.pid,
		    w->kind == WHO_ATTACH ? "attach" : w->kind == WHO_DETACH ? "detach" : "move",
		    w->path ? w->path : "-", named.comm, (unsigned)named.uid);
		memcpy(w->comm, named.comm, sizeof(w->comm));
		w->comm[sizeof(w->comm) - 1] = '\0';
		w->by.comm = w->comm;
		w->by.has_uid = true;
		w->by.uid = named.uid;
		w->cgroup_id = named.cgroup_id;
	}
	return &w->by;
}
