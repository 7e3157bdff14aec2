/*
 * The handles of ioloop.c with pipes: called by priority, then in the order of addition; an fd
 * shared by two handles calls each, unless the first says it served both; a paused handle is not
 * called and a resumed one is; a handle removed by an earlier call of the same wake-up is not
 * called; an fd closed and opened again under its number is polled again once set; a callback's
 * failure and a break end the wake-up's calls; the deadline; and the mountinfo signal (POLLPRI),
 * raised before its handle is added, is still seen (it stays out of epoll, whose epoll_ctl(2) would
 * consume it).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <unistd.h>

#include "ioloop.h"
#include "unit.h"

#define NH	4

struct h {
	struct ioloop *l;
	int fd;			/* read empty when called, unless -1 */
	int calls;
	short got;
	int order;		/* of the call in its wake-up */
	int ret;
	struct ioloop_io *serves;	/* marked served when called */
	struct ioloop_io *removes;	/* removed when called */
	bool breaks;
};

static int called;

static int
on_ready(void *ctx, short revents)
{
	struct h *h = ctx;
	char buf[64];

	h->calls++;
	h->got = revents;
	h->order = called++;
	if (h->fd >= 0)
		while (read(h->fd, buf, sizeof(buf)) > 0)
			;
	if (h->serves)
		ioloop_served(h->serves);
	if (h->removes)
		ioloop_remove(h->removes);
	if (h->breaks)
		ioloop_break(h->l);
	return h->ret;
}

static const struct timespec soon = { 0, 50 * 1000000 };

/* One wake-up, the call counter reset. */
static int
wake(struct ioloop *l)
{
	called = 0;
	return ioloop_wait(l, &soon);
}

/* A mount namespace of our own (root only): whether we have one. */
static bool
own_ns(void)
{
	return unshare(CLONE_NEWNS) == 0 && mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0;
}

/* Read fd, our mountinfo, to its end. */
static void
read_all(int fd)
{
	char buf[65536];

	(void)lseek(fd, 0, SEEK_SET);
	while (read(fd, buf, sizeof(buf)) > 0)
		;
}

static void
check_pollpri(void)
{
	struct ioloop *l;
	struct ioloop_io *io;
	struct h h = { .fd = -1 }, e = { .fd = -1 };
	int fd, r, p[2];

	if (!own_ns()) {
		printf("test_ioloop: the mountinfo signal not tested: no mount namespace of our own "
		    "(%s)\n", strerror(errno));
		return;
	}
	if ((l = ioloop_new()) == NULL || (fd = open("/proc/self/mountinfo", O_RDONLY)) < 0 ||
	    pipe2(p, O_NONBLOCK | O_CLOEXEC) < 0)
		exit(2);
	h.l = e.l = l;
	read_all(fd);
	/* The signal is raised before the handle is added. */
	CHECK(mount("ioloop", "/tmp", "tmpfs", 0, NULL) == 0, "mount: %s", strerror(errno));
	io = ioloop_add(l, fd, POLLPRI, 0, on_ready, &h);
	r = wake(l);
	CHECK(r == 1 && h.calls == 1 && (h.got & POLLPRI), "signal before the add: %d %d %#x", r,
	    h.calls, h.got);
	/* Beside an epoll handle, in one wake-up, called in the order of addition. */
	e.fd = p[0];
	ioloop_add(l, p[0], POLLIN, 0, on_ready, &e);
	(void)!write(p[1], "x", 1);
	read_all(fd);
	CHECK(umount("/tmp") == 0, "umount: %s", strerror(errno));
	r = wake(l);
	CHECK(r == 2 && h.calls == 2 && e.calls == 1 && h.order == 0 && e.order == 1,
	    "signal and pipe: %d, %d %d", r, h.calls, e.calls);
	/* Served: no signal until the next change. */
	r = wake(l);
	CHECK(r == 0 && h.calls == 2, "no change: %d", r);
	ioloop_remove(io);
	ioloop_free(l);
	close(fd);
	close(p[0]);
	close(p[1]);
}

int
main(void)
{
	struct ioloop *l = ioloop_new();
	struct ioloop_io *io[NH];
	struct h h[NH];
	int p[NH][2], i, r, fd;

	if (l == NULL)
		return 2;
	for (i = 0; i < NH; i++) {
		if (pipe2(p[i], O_NONBLOCK | O_CLOEXEC) < 0)
			return 2;
		h[i] = (struct h){ .l = l, .fd = p[i][0] };
	}
	/* Added 0, 1, 2, 3; handle 3 first by its priority. */
	for (i = 0; i < NH; i++)
		io[i] = ioloop_add(l, p[i][0], POLLIN, i == 3 ? -1 : 0, on_ready, &h[i]);

	/* Nothing ready: the deadline, no call. */
	r = wake(l);
	CHECK(r == 0 && h[0].calls + h[1].calls + h[2].calls + h[3].calls == 0, "deadline: %d", r);

	/* Ready in another order than added: called by priority, then as added. */
	for (i = NH - 1; i >= 0; i--)
		(void)!write(p[i][1], "x", 1);
	r = wake(l);
	CHECK(r == 4, "all four: %d", r);
	CHECK(h[3].order == 0 && h[0].order == 1 && h[1].order == 2 && h[2].order == 3,
	    "order %d %d %d %d", h[0].order, h[1].order, h[2].order, h[3].order);
	CHECK(h[0].got == POLLIN, "revents %#x", h[0].got);

	/* Paused: not called though ready; resumed: called. */
	ioloop_set(io[1], -1, POLLIN);
	(void)!write(p[1][1], "x", 1);
	r = wake(l);
	CHECK(r == 0 && h[1].calls == 1, "paused: %d, %d calls", r, h[1].calls);
	ioloop_set(io[1], p[1][0], POLLIN);
	r = wake(l);
	CHECK(r == 1 && h[1].calls == 2, "resumed: %d, %d calls", r, h[1].calls);

	/* One fd, two handles: each called, unless the first served the other. */
	ioloop_set(io[2], p[0][0], POLLIN);
	(void)!write(p[0][1], "x", 1);
	r = wake(l);
	CHECK(r == 2 && h[0].calls == 2 && h[2].calls == 2, "shared: %d, %d %d", r, h[0].calls,
	    h[2].calls);
	h[0].serves = io[2];
	(void)!write(p[0][1], "x", 1);
	r = wake(l);
	CHECK(r == 1 && h[0].calls == 3 && h[2].calls == 2, "served: %d, %d %d", r, h[0].calls,
	    h[2].calls);
	h[0].serves = NULL;
	/* The shared fd paused for one handle stays polled for the other. */
	ioloop_set(io[2], -1, POLLIN);
	(void)!write(p[0][1], "x", 1);
	r = wake(l);
	CHECK(r == 1 && h[0].calls == 4 && h[2].calls == 2, "one of two paused: %d", r);

	/* Removed by an earlier call of the same wake-up: not called (and not freed under it). */
	h[3].removes = io[1];
	(void)!write(p[1][1], "x", 1);
	(void)!write(p[3][1], "x", 1);
	r = wake(l);
	CHECK(r == 1 && h[3].calls == 2 && h[1].calls == 2, "removed: %d, %d", r, h[1].calls);
	h[3].removes = NULL;

	/* A failure ends the calls: IOLOOP_FAILED, the later one not called. */
	h[3].ret = -1;
	(void)!write(p[3][1], "x", 1);
	(void)!write(p[0][1], "x", 1);
	r = wake(l);
	CHECK(r == IOLOOP_FAILED && h[0].calls == 4, "failed: %d, %d", r, h[0].calls);
	h[3].ret = 0;
	/* What was ready and not called is ready at the next wait. */
	r = wake(l);
	CHECK(r == 1 && h[0].calls == 5, "after a failure: %d, %d", r, h[0].calls);

	/* A break: the later calls wait for the next wake-up. */
	h[3].breaks = true;
	(void)!write(p[3][1], "x", 1);
	(void)!write(p[0][1], "x", 1);
	r = wake(l);
	CHECK(r == 1 && h[0].calls == 5, "break: %d, %d", r, h[0].calls);
	h[3].breaks = false;
	r = wake(l);
	CHECK(r == 1 && h[0].calls == 6, "after a break: %d", r);

	/* An fd closed and another opened under its number: polled once the handle is set again. */
	close(p[0][0]);
	if ((fd = dup2(p[2][0], p[0][0])) < 0)
		return 2;
	ioloop_set(io[0], -1, POLLIN);
	ioloop_set(io[0], fd, POLLIN);
	h[0].fd = fd;
	(void)!write(p[2][1], "x", 1);
	r = wake(l);
	CHECK(r == 1 && h[0].calls == 7, "reopened: %d, %d", r, h[0].calls);

	ioloop_free(l);
	for (i = 0; i < NH; i++) {
		close(p[i][0]);
		close(p[i][1]);
	}
	check_pollpri();
	return unit_done("test_ioloop");
}
