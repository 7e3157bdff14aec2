#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "exit.h"
#include "ioloop.h"
#include "mntns.h"
#include "source.h"
#include "xalloc.h"

const struct backend source_backends[] = {
	{ .name = "fanotify", .type = EV_MOUNT, .ops = &source_fanotify_ops,
	    .needs = "fanotify mount events need Linux 6.15 and CAP_SYS_ADMIN "
	    "(6.16+: in the mount namespace's user namespace)",
	    .says_cause = true, .choosable = true, .fails = "fanotify" },
	{ .name = "mountinfo", .type = EV_MOUNT, .ops = &source_mountinfo_ops, .choosable = true,
	    .fails = "/proc/self/mountinfo (is /proc mounted?)" },
	{ .name = "watch-queue", .type = EV_KEY, .ops = &source_watchqueue_ops,
	    .needs = "key notifications need Linux 5.8 with CONFIG_WATCH_QUEUE and "
	    "CONFIG_KEY_NOTIFICATIONS, which this kernel lacks",
	    .choosable = true, .fails = "watch-queue: KEYCTL_WATCH_KEY" },
	{ .name = "poll", .type = EV_KEY, .ops = &source_keypoll_ops, .choosable = true,
	    .misses = "which misses changes undone between two polls and updates that keep a "
	    "key's size",
	    .fails = "/proc/keys (is /proc mounted?)" },
	{ .name = "sb", .type = EV_SB, .ops = &source_sb_ops,
	    .needs = "sb: none of the events asked for can be had here (see above)",
	    .fails = "sb" },
	{ .name = NULL },
};

const char *
source_word(enum ev_type type)
{
	const struct event_source *k;

	for (k = event_sources; k->name; k++)
		if (k->type == type)
			return k->word;
	return "meta";
}

const struct event_source *
source_find(const char *word)
{
	const struct event_source *k;

	for (k = event_sources; k->type != EV_META; k++)
		if (strcmp(k->word, word) == 0)
			return k;
	return NULL;
}

const struct backend *
source_backend_find(const char *name)
{
	const struct backend *be;

	for (be = source_backends; be->name; be++)
		if (be->choosable && strcmp(be->name, name) == 0)
			return be;
	return NULL;
}

bool
source_backend_serves(const struct backend *be, enum ev_type type)
{
	return be->type == type;
}

/* Clear src for be; its watches: ws[0..n), or with ws NULL cfg's of be's type in ns. */
static void
source_reset(struct source *src, const struct backend *be, struct mntns *ns,
    const struct config *cfg, struct sink *sink, const struct watch *ws, size_t n)
{
	size_t i;

	memset(src, 0, sizeof(*src));
	src->backend = be;
	src->ns = ns;
	src->cfg = cfg;
	src->sink = sink;
	for (i = 0; i < SOURCE_MAX_FDS; i++)
		src->io[i] = (struct source_io){ src, -1, POLLIN, NULL };
	if (ws) {
		src->watches = xcalloc(n + 1, sizeof(*src->watches));
		for (i = 0; i < n; i++)
			src->watches[src->nwatches++] = (struct source_watch){ &ws[i], true };
		return;
	}
	src->watches = xcalloc(cfg->nwatches + 1, sizeof(*src->watches));
	for (i = 0; i < cfg->nwatches; i++)
		if (cfg->watches[i].type == be->type && cfg->watches[i].ns == ns)
			src->watches[src->nwatches++] = (struct source_watch){ &cfg->watches[i],
			    true };
}

/* Why src's backend cannot serve here, as one line. */
static const char *
source_unavailable(const struct source *src)
{
	static char msg[512];

	snprintf(msg, sizeof(msg), "%s%s%s", src->backend->needs,
	    src->backend->says_cause ? ": " : "",
	    src->backend->says_cause ? strerror(src->cause) : "");
	return msg;
}

/* What using backend to costs, said after falling back to it: once a run (-N opens many). */
static void
source_say_fallback(const struct source *from, const struct backend *to, const struct config *cfg)
{
	static const struct backend *said[EV__NTYPES];

	/* A list is the same on every backend: the fallback costs it nothing. */
	if (cfg->quiet || cfg->mode == MODE_LIST || said[to->type] == to)
		return;
	said[to->type] = to;
	if (to->misses)
		warnx("%s; polling every %gs instead, %s", source_unavailable(from), cfg->interval,
		    to->misses);
	else
		warnx("%s; using %s", source_unavailable(from), to->name);
}

/*
 * Open src as source_open() says, with the watches source_reset() takes and backend forced (NULL:
 * each in fallback order): 0; or -1 with errno set and *why the message (err(3)'s with errno, EXIT_ERROR; else errx(3)'s, EXIT_UNAVAILABLE).
 */
static int
source_try_open(struct source *src, enum ev_type type, struct mntns *ns, const struct config *cfg,
    struct sink *sink, const struct watch *ws, size_t n, const struct backend *forced,
    const char **why)
{
	const struct backend *be, *next;

	for (be = source_backends; be->name; be++) {
		if (be->type != type || (forced && forced != be && forced->type == type))
			continue;
		source_reset(src, be, ns, cfg, sink, ws, n);
		if (be->ops->open(src) == 0)
			return 0;
		*why = be->fails;
		if (errno != ENOSYS)
			return -1;
		for (next = be + 1; next->name && next->type != type; next++)
			;
		*why = source_unavailable(src);
		if (forced == be || next->name == NULL)
			return -1;
		source_say_fallback(src, next, cfg);
		source_close(src);
	}
	*why = "no backend serves this source";
	errno = ENOSYS;
	return -1;
}

void
source_open(struct source *src, enum ev_type type, struct mntns *ns, const struct config *cfg,
    struct sink *sink)
{
	const char *why;

	if (source_try_open(src, type, ns, cfg, sink, NULL, 0, cfg->backend, &why) == 0)
		return;
	if (errno != ENOSYS)
		err(EXIT_ERROR, "%s", why);
	errx(EXIT_UNAVAILABLE, "%s", why);
}

int
source_open_watches(struct source *src, struct mntns *ns, const struct watch *ws, size_t n,
    const struct backend *be, const struct config *cfg, struct sink *sink, const char **why)
{
	int r = source_try_open(src, ws[0].type, ns, cfg, sink, ws, n, be ? be : cfg->backend, why);

	if (r < 0)
		source_close(src);
	return r;
}

/* Events a probe would emit: none, as it watches nothing. */
static void
source_probe_emit(struct sink *sink, struct event *ev)
{
}

const char *
source_probe(const struct backend *be)
{
	static struct config cfg = { .quiet = true, .interval = 1.0, .queue_size = 256 };
	static struct sink sink = { source_probe_emit };
	static char why[512];
	struct source src;
	int r, e;

	source_reset(&src, be, NULL, &cfg, &sink, NULL, 0);
	r = be->ops->open(&src);
	e = errno;
	snprintf(why, sizeof(why), "%s", e == ENOSYS ? source_unavailable(&src) : strerror(e));
	source_close(&src);
	return r == 0 ? NULL : why;
}

void
source_close(struct source *src)
{
	source_detach(src);
	if (src->backend)
		src->backend->ops->close(src);
	free(src->watches);
	src->watches = NULL;
	src->nwatches = 0;
	src->backend = NULL;
}

int
source_drain(struct source *src, size_t i)
{
	return src->backend->ops->drain(src, i);
}

void
source_poll(struct source *src, size_t i, int fd, short events)
{
	src->io[i].fd = fd;
	src->io[i].events = events;
	if (src->io[i].h)
		ioloop_set(src->io[i].h, fd, events);
}

void
source_poll_fd(struct source *src, size_t i, int fd)
{
	source_poll(src, i, fd, src->io[i].events);
}

void
source_close_fd(struct source *src, size_t i, int *fd)
{
	if (src->io[i].fd == *fd)
		source_poll_fd(src, i, -1);
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

void
source_served(struct source *src, size_t i)
{
	if (src->io[i].h)
		ioloop_served(src->io[i].h);
}

/* A slot's handle is ready: drain it; a system error ends the run, said here. */
static int
source_on_ready(void *ctx, short revents)
{
	struct source_io *io = ctx;

	if (source_drain(io->src, (size_t)(io - io->src->io)) == 0)
		return 0;
	warn("%s", io->src->backend->name);
	return -1;
}

void
source_attach(struct source *src, struct ioloop *l)
{
	size_t i;

	src->loop = l;
	/* Priority 0: after the run's signals and reader, before its removals and tick (loop.h). */
	for (i = 0; i < SOURCE_MAX_FDS; i++)
		src->io[i].h = ioloop_add(l, src->io[i].fd, src->io[i].events, 0, source_on_ready,
		    &src->io[i]);
}

void
source_detach(struct source *src)
{
	size_t i;

	if (src->loop == NULL)
		return;
	for (i = 0; i < SOURCE_MAX_FDS; i++) {
		ioloop_remove(src->io[i].h);
		src->io[i].h = NULL;
	}
	src->loop = NULL;
}

void
source_present(struct source *src)
{
	if (src->backend->ops->present)
		src->backend->ops->present(src);
}

void
source_poke(struct source *src)
{
	if (src->backend && src->backend->ops->poke)
		src->backend->ops->poke(src);
}

int
source_check(struct source *src, const struct cond *c)
{
	return src->backend->ops->check ? src->backend->ops->check(src, c) : WAIT_PENDING;
}

bool
source_show(struct source *src, const struct cond *c)
{
	return src->backend->ops->show && src->backend->ops->show(src, c);
}

size_t
source_removal_paths(const struct source *src, const char **paths)
{
	const struct watch *w;
	size_t k, n = 0;

	if (src->backend->ops->removals == NULL)
		return 0;
	for (k = 0; k < src->nwatches; k++) {
		w = src->watches[k].w;
		if (src->watches[k].alive && w->path)
			paths[n++] = w->ns ? w->reach : w->path;
	}
	return n;
}

void
source_look_again(struct source *src)
{
	if (src->backend->ops->removals)
		src->backend->ops->removals(src);
}

void
source_label_capture(struct source *src, const char *base, const struct capture *c)
{
	snprintf(src->label, sizeof(src->label), "%s+bpf:%s", base, capture_attach_name(c));
	src->backend_label = src->label;
}

const char *
source_backend_name(const struct source *src)
{
	return src->backend_label ? src->backend_label : src->backend->name;
}

/*
 * Emit a meta record (META_LOSS with an unknown count, or META_REMOVAL saying what went) for watch
 * w.
 */
static void
source_emit_meta(struct source *src, const struct watch *w, unsigned subtype, const char *what)
{
	struct event ev;

	source_event_init(&ev, EV_META, subtype, w);
	ev.u.meta.lost = -1;
	ev.u.meta.backend = src->backend->name;
	ev.u.meta.what = what;
	ev.u.meta.key = w->type == EV_KEY ? w->key : 0;
	src->sink->emit(src->sink, &ev);
}

void
source_event_init(struct event *ev, enum ev_type type, unsigned subtype, const struct watch *w)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = type;
	ev->subtype = subtype;
	ev->tag = w->tag;
	ev->watch = w->target;
	ev->watch_source = source_word(w->type);
	ev->mnt_ns = w->mnt_ns;
	ev->cgroup = w->ns ? mntns_cgroup(w->ns) : NULL;
}

void
source_loss(struct source *src)
{
	size_t i;

	for (i = 0; i < src->nwatches; i++)
		if (src->watches[i].alive && !src->watches[i].w->internal)
			source_emit_meta(src, src->watches[i].w, META_LOSS, NULL);
}

void
source_gone(struct source *src, struct source_watch *sw, const char *what)
{
	if (!sw->alive)
		return;
	sw->alive = false;
	if (!sw->w->internal)
		source_emit_meta(src, sw->w, META_REMOVAL, what);
}

struct source_watch *
source_watch_of(struct source *src, const struct watch *w)
{
	size_t i;

	for (i = 0; i < src->nwatches; i++)
		if (src->watches[i].w == w)
			return &src->watches[i];
	return NULL;
}

size_t
source_live(const struct source *src)
{
	size_t i, n = 0;

	for (i = 0; i < src->nwatches; i++)
		n += src->watches[i].alive && !src->watches[i].w->internal;
	return n;
}

int
source_read_ready(int fd, void *buf, size_t size, size_t rec_max,
    int (*each)(void *ctx, const void *buf, size_t n), void *ctx)
{
	ssize_t n;
	int bad = 0;

	for (;;) {
		n = read(fd, buf, size);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return bad;
			return -1;
		}
		if (n == 0)
			return bad;
		if (each(ctx, buf, (size_t)n) < 0)
			bad = 1;
		if (rec_max > 0 && (size_t)n + rec_max <= size)
			return bad;
	}
}
