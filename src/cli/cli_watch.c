#include <err.h>
#include <errno.h>
#include <keyutils.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_watch.h"
#include "escape.h"
#include "exit.h"
#include "keyspec.h"
#include "path.h"
#include "source.h"
#include "srcmatch.h"
#include "suggest.h"
#include "xalloc.h"
#include "wait.h"

/* "mounts, keys, sb", from the table. */
static const char *
cli_watch_source_words(void)
{
	static char words[128];
	const struct event_source *k;
	size_t n = 0;

	for (k = event_sources; k->type != EV_META; k++)
		if (n < sizeof(words))
			n += (size_t)snprintf(words + n, sizeof(words) - n, "%s%s",
			    n ? ", " : "", k->word);
	return words;
}

/*
 * Say that word names no source, and exit 64: with the nearest source words (and verbs, where
 * word is the first), or, for a path, where a path goes.
 */
static void __attribute__((noreturn))
cli_watch_unknown(const struct config *cfg, const char *word, bool first)
{
	const struct event_source *k;
	struct suggest s;
	struct buf b = { 0 };

	suggest_init(&s, word);
	for (k = event_sources; k->type != EV_META; k++)
		suggest_offer(&s, k->word);
	if (first) {
		suggest_offer(&s, "wait");
		suggest_offer(&s, "list");
	}
	suggest_text(&s, &b, "");
	if (b.len == 0 && strchr(word, '/') && cfg->mode == MODE_LIST && cfg->timestamps)
		buf_addf(&b, ": a DIR follows its SOURCE; -T is --timestamps here, and findmnt -T's "
		    "mount that holds a DIR is watchq list --target mounts %s", escape_arg(word));
	else if (b.len == 0 && strchr(word, '/'))
		buf_addf(&b, ": a DIR follows its SOURCE, as in watchq%s mounts %s",
		    cfg->mode != MODE_LIST ? "" : cfg->list_target ? " list --target" : " list",
		    escape_arg(word));
	errx(EXIT_USAGE, "unknown source '%s' (%s)%s", escape_arg(word), cli_watch_source_words(),
	    b.len > 0 ? b.data : "");
}

/* The next watch, tagged tag; exits 64 when there is no room. */
static struct watch *
cli_watch_new(struct config *cfg, enum ev_type type, const char *target, int tag)
{
	struct watch *w;

	if (cfg->nwatches >= WATCHQ_MAX_WATCHES)
		errx(EXIT_USAGE, "too many watches: at most %d targets", WATCHQ_MAX_WATCHES);
	w = &cfg->watches[cfg->nwatches++];
	w->type = type;
	w->target = target;
	w->tag = tag;
	return w;
}

/* "mnt:[4026532841] (-N 1234)": a namespace in a message. */
static const char *
cli_watch_ns_name(const struct mntns *ns)
{
	static char name[PATH_MAX + 64];

	snprintf(name, sizeof(name), "mnt:[%llu] (-N %s)", (unsigned long long)ns->ino,
	    escape_arg(ns->arg));
	return name;
}

/* A mounts TARGET looked up in each -N namespace: one watch per namespace, all with one tag. */
static void
cli_watch_add_ns(struct config *cfg, const char *target, int tag)
{
	struct statx stx;
	struct watch *w;
	size_t i;

	if (target[0] != '/')
		errx(EXIT_USAGE,
		    "%s: with -N, a PATH must be absolute: it is looked up in each namespace",
		    escape_arg(target));
	for (i = 0; i < cfg->nns; i++) {
		struct mntns *ns = &cfg->ns[i];

		w = cli_watch_new(cfg, EV_MOUNT, target, tag);
		w->ns = ns;
		w->mnt_ns = ns->ino;
		if ((w->path = mntns_canon(ns, target, false)) == NULL)
			err(EXIT_USAGE, "%s in %s", escape_arg(target), cli_watch_ns_name(ns));
		if (mntns_statx(ns, w->path, &stx) < 0 || !S_ISDIR(stx.stx_mode))
			errx(EXIT_USAGE, "%s in %s: not a directory", escape_arg(target),
			    cli_watch_ns_name(ns));
		w->reach = mntns_reach(ns, w->path);
	}
}

/*
 * One watch of type for target as given, resolved (a key serial, a canonical path); exits 64 on a
 * bad target.
 */
static void
cli_watch_add(struct config *cfg, enum ev_type type, const char *target)
{
	int tag = cfg->nwatches ? cfg->watches[cfg->nwatches - 1].tag + 1 : 0;
	struct watch *w;
	struct stat stb;

	if (type != EV_KEY && target[0] == '\0')
		errx(EXIT_USAGE, "an empty path names nothing (. is this directory)");
	if (type == EV_MOUNT && cfg->nns > 0) {
		cli_watch_add_ns(cfg, target, tag);
		return;
	}
	if (type == EV_MOUNT && cfg->ns_all) {
		/* Resolved in each namespace as it is found (nsall.c). */
		if (target[0] != '/')
			errx(EXIT_USAGE, "%s: with -N, a PATH must be absolute: it is looked up "
			    "in each namespace", escape_arg(target));
		cli_watch_new(cfg, type, target, tag);
		return;
	}
	w = cli_watch_new(cfg, type, target, tag);
	if (type == EV_KEY && keyspec_resolve(target, &w->key) < 0) {
		if (errno == EINVAL)
			errx(EXIT_USAGE,
			    "%s: not a key (@s @u @us @p @t @g @a, a serial or %%TYPE:DESC)",
			    escape_arg(target));
		err(EXIT_USAGE, "%s", escape_arg(target));
	}
	if (type == EV_MOUNT || type == EV_SB) {
		if ((w->path = path_canon(target)) == NULL)
			err(EXIT_USAGE, "%s", escape_arg(target));
		if (type == EV_MOUNT && (stat(w->path, &stb) < 0 || !S_ISDIR(stb.st_mode)))
			errx(EXIT_USAGE, "%s: not a directory", escape_arg(target));
	}
	if (type == EV_MOUNT)
		w->mnt_ns = mntns_self_ino();
}

/* A source word with no target after it: its default target, or an error. */
static void
cli_watch_end_source(struct config *cfg, const struct event_source *k, bool had_target)
{
	if (k == NULL || had_target)
		return;
	if (k->default_target == NULL)
		errx(EXIT_USAGE, "%s needs at least one PATH", k->word);
	cli_watch_add(cfg, k->type, k->default_target);
}

/*
 * --mounted and --unmounted without a mounts DIR look at or below /: an internal watch, so that
 * only the DIRs named count as watches that can go away.
 */
static void
cli_watch_default_scope(struct config *cfg)
{
	const struct event_source *k;
	size_t i, first = cfg->nwatches;

	for (i = 0; i < cfg->nwatches; i++)
		if (cfg->watches[i].type == EV_MOUNT)
			return;
	for (k = event_sources; k->type != EV_MOUNT; k++)
		;
	cli_watch_add(cfg, EV_MOUNT, k->default_target);
	for (i = first; i < cfg->nwatches; i++)
		cfg->watches[i].internal = true;
}

void
cli_watch_sources(struct config *cfg, char **args, size_t nargs)
{
	const struct event_source *k = NULL, *next;
	bool had_target = true;
	size_t i;

	if (nargs == 0 && cfg->mode != MODE_WAIT_STATE)
		errx(EXIT_USAGE, "no SOURCE given (%s); try watchq mounts /",
		    cli_watch_source_words());
	for (i = 0; i < nargs; i++) {
		if ((next = source_find(args[i])) != NULL) {
			cli_watch_end_source(cfg, k, had_target);
			k = next;
			had_target = false;
			continue;
		}
		if (k == NULL)
			cli_watch_unknown(cfg, args[i], i == 0 && cfg->mode == MODE_MONITOR);
		cli_watch_add(cfg, k->type, args[i]);
		had_target = true;
	}
	cli_watch_end_source(cfg, k, had_target);
	if (cfg->mode == MODE_WAIT_STATE && wait_by_source(cfg))
		cli_watch_default_scope(cfg);
}


/* Whether serial names a keyring (KEYCTL_DESCRIBE gives "type;uid;gid;perm;description"). */
static bool
cli_watch_is_keyring(int32_t serial)
{
	char *desc = NULL;
	bool yes;

	if (keyctl_describe_alloc(serial, &desc) < 0)
		return false;
	yes = strncmp(desc, "keyring;", 8) == 0;
	free(desc);
	return yes;
}

/* Key conditions look in one keyring, watched like a keys TARGET; each keeps its serial. */
static void
cli_watch_key_condition(struct config *cfg, struct cond *c, const char *keyring, int32_t *serial)
{
	char *colon;

	c->type = xstrdup(c->arg);
	if ((colon = strchr(c->type, ':')) == NULL || colon == c->type)
		errx(EXIT_USAGE, "%s %s: not TYPE:DESC", wait_kinds[c->kind].option,
		    escape_arg(c->arg));
	*colon = '\0';
	c->desc = colon + 1;
	if (*serial == 0) {
		cli_watch_add(cfg, EV_KEY, keyring);
		*serial = cfg->watches[cfg->nwatches - 1].key;
		if (!cli_watch_is_keyring(*serial))
			errx(EXIT_USAGE, "--keyring %s: not a keyring", escape_arg(keyring));
	}
	c->keyring = *serial;
}

/* A path condition: its canonical path (none with -N), and the sb watch of a sb-judged one. */
static void
cli_watch_path_condition(struct config *cfg, struct cond *c)
{
	enum ev_type judge = wait_kinds[c->kind].judge;

	if (c->arg[0] == '\0')
		errx(EXIT_USAGE, "%s: an empty PATH names nothing (. is this directory)",
		    wait_kinds[c->kind].option);
	if (cfg->nns > 0 && judge != EV_MOUNT)
		errx(EXIT_USAGE,
		    "%s is judged in our own mount namespace: -N applies to --mount and --unmount",
		    wait_kinds[c->kind].option);
	if (cfg->nns > 0) {
		/* Looked up in each namespace at each check. */
		if (c->arg[0] != '/')
			errx(EXIT_USAGE,
			    "%s %s: with -N, a PATH must be absolute: it is looked up in each "
			    "namespace",
			    wait_kinds[c->kind].option, escape_arg(c->arg));
		return;
	}
	c->path = judge == EV_MOUNT ? path_canon_lenient(c->arg) : path_canon(c->arg);
	if (c->path == NULL)
		err(EXIT_USAGE, "%s %s", wait_kinds[c->kind].option, escape_arg(c->arg));
	/* ext4's emergency read-only state changes no mount: the sb source wakes the wait. */
	if (judge == EV_SB) {
		cli_watch_add(cfg, EV_SB, c->arg);
		cfg->watches[cfg->nwatches - 1].internal = true;
		c->watch = &cfg->watches[cfg->nwatches - 1];
	}
}

/* A SPEC condition, as --source takes it: a tag no device has now may name one later. */
static void
cli_watch_spec_condition(const struct cond *c)
{
	dev_t devno;

	if (c->arg[0] == '\0')
		errx(EXIT_USAGE, "%s: an empty SPEC names nothing", wait_kinds[c->kind].option);
	if (srcmatch_kind(c->arg, &devno) < 0)
		errx(EXIT_USAGE, "%s: '%s' needs a value after the '='", wait_kinds[c->kind].option,
		    escape_arg(c->arg));
}

/* Whether a and b name one target: canonical paths where both have one, else as given. */
static bool
cli_watch_same_target(const struct cond *a, const struct cond *b)
{
	if (a->path && b->path)
		return strcmp(a->path, b->path) == 0;
	return strcmp(a->arg, b->arg) == 0;
}

/* Exits 64 when two conditions contradict each other: --mount P --unmount P never holds. */
static void
cli_watch_opposites(const struct config *cfg)
{
	const struct cond *a, *b;
	size_t i, k;

	for (i = 0; i < cfg->nconds; i++) {
		a = &cfg->conds[i];
		for (k = i + 1; k < cfg->nconds; k++) {
			b = &cfg->conds[k];
			if (wait_kinds[a->kind].opposite == b->kind && cli_watch_same_target(a, b))
				errx(EXIT_USAGE, "%s %s and %s %s can never both hold",
				    wait_kinds[a->kind].option, escape_arg(a->arg),
				    wait_kinds[b->kind].option, escape_arg(b->arg));
		}
	}
}

void
cli_watch_conditions(struct config *cfg, const char *keyring)
{
	int32_t serial = 0;
	size_t i;

	for (i = 0; i < cfg->nconds; i++) {
		switch (wait_kinds[cfg->conds[i].kind].arg) {
		case WAIT_ARG_KEY:
			cli_watch_key_condition(cfg, &cfg->conds[i], keyring ? keyring : "@s",
			    &serial);
			break;
		case WAIT_ARG_SPEC:
			cli_watch_spec_condition(&cfg->conds[i]);
			break;
		case WAIT_ARG_PATH:
			cli_watch_path_condition(cfg, &cfg->conds[i]);
			break;
		}
	}
	if (keyring && serial == 0)
		errx(EXIT_USAGE, "--keyring goes with --key or --no-key");
	cli_watch_opposites(cfg);
}
