#include <err.h>
#include <errno.h>
#include <keyutils.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_watch.h"
#include "escape.h"
#include "keyspec.h"
#include "path.h"
#include "source.h"
#include "util.h"

/* "mounts, keys, sb", from the table. */
static const char *
source_words(void)
{
	static char words[128];
	const struct source_kind *k;
	size_t n = 0;

	for (k = source_kinds; k->word; k++)
		if (n < sizeof(words))
			n += (size_t)snprintf(words + n, sizeof(words) - n, "%s%s", n ? ", " : "", k->word);
	return words;
}

/* One watch of type for target as given, resolved (a key serial, a canonical path); exits 64 on a bad target. */
static void
add_watch(struct config *cfg, enum ev_type type, const char *target)
{
	struct watch *w;
	struct stat stb;

	if (cfg->nwatches >= WATCHQ_MAX_WATCHES)
		errx(EXIT_USAGE, "too many watches: at most %d targets", WATCHQ_MAX_WATCHES);
	w = &cfg->watches[cfg->nwatches];
	w->type = type;
	w->target = target;
	w->tag = (int)cfg->nwatches;
	if (type == EV_KEY && keyspec_resolve(target, &w->key) < 0) {
		if (errno == EINVAL)
			errx(EXIT_USAGE, "%s: not a key (@s @u @us @p @t @g @a, a serial or %%TYPE:DESC)", escape_arg(target));
		err(EXIT_USAGE, "%s", escape_arg(target));
	}
	if (type == EV_MOUNT || type == EV_SB) {
		if ((w->path = path_canon(target)) == NULL)
			err(EXIT_USAGE, "%s", escape_arg(target));
		if (type == EV_MOUNT && (stat(w->path, &stb) < 0 || !S_ISDIR(stb.st_mode)))
			errx(EXIT_USAGE, "%s: not a directory", escape_arg(target));
	}
	cfg->nwatches++;
}

/* A source word with no target after it: its default target, or an error. */
static void
end_source(struct config *cfg, const struct source_kind *k, bool had_target)
{
	if (k == NULL || had_target)
		return;
	if (k->default_target == NULL)
		errx(EXIT_USAGE, "%s needs at least one PATH", k->word);
	add_watch(cfg, k->type, k->default_target);
}

void
cli_watch_sources(struct config *cfg, char **args, size_t nargs)
{
	const struct source_kind *k = NULL, *next;
	bool had_target = true;
	size_t i;

	if (nargs == 0 && !(cfg->wait && cfg->nconds > 0))
		errx(EXIT_USAGE, "no SOURCE given (%s); try watchq mounts /", source_words());
	for (i = 0; i < nargs; i++) {
		if ((next = source_kind_find(args[i])) != NULL) {
			end_source(cfg, k, had_target);
			k = next;
			had_target = false;
			continue;
		}
		if (k == NULL)
			errx(EXIT_USAGE, "unknown source '%s' (%s)", escape_arg(args[i]), source_words());
		add_watch(cfg, k->type, args[i]);
		had_target = true;
	}
	end_source(cfg, k, had_target);
}


/* Whether serial names a keyring (KEYCTL_DESCRIBE gives "type;uid;gid;perm;description"). */
static bool
is_keyring(int32_t serial)
{
	char *desc = NULL;
	bool yes;

	if (keyctl_describe_alloc(serial, &desc) < 0)
		return false;
	yes = strncmp(desc, "keyring;", 8) == 0;
	free(desc);
	return yes;
}

/* Key conditions look in one keyring, watched like a keys TARGET; each condition keeps its serial. */
static void
check_key_condition(struct config *cfg, struct cond *c, const char *keyring, int32_t *serial)
{
	char *colon;

	c->type = xstrdup(c->arg);
	if ((colon = strchr(c->type, ':')) == NULL || colon == c->type)
		errx(EXIT_USAGE, "%s %s: not TYPE:DESC", cli_watch_cond_option(c->kind), escape_arg(c->arg));
	*colon = '\0';
	c->desc = colon + 1;
	if (*serial == 0) {
		add_watch(cfg, EV_KEY, keyring);
		*serial = cfg->watches[cfg->nwatches - 1].key;
		if (!is_keyring(*serial))
			errx(EXIT_USAGE, "--keyring %s: not a keyring", escape_arg(keyring));
	}
	c->keyring = *serial;
}

void
cli_watch_conditions(struct config *cfg, const char *keyring)
{
	int32_t serial = 0;
	size_t i;
	struct cond *c;

	for (i = 0; i < cfg->nconds; i++) {
		c = &cfg->conds[i];
		if (c->kind == COND_KEY || c->kind == COND_NO_KEY) {
			check_key_condition(cfg, c, keyring ? keyring : "@s", &serial);
			continue;
		}
		if (c->kind == COND_MOUNT || c->kind == COND_UNMOUNT)
			c->path = path_canon_lenient(c->arg);
		else
			c->path = path_canon(c->arg);
		if (c->path == NULL)
			err(EXIT_USAGE, "%s", escape_arg(c->arg));
		/* ext4's emergency read-only state changes no mount: its wake-up comes from the sb source. */
		if (c->kind == COND_READONLY || c->kind == COND_WRITABLE) {
			add_watch(cfg, EV_SB, c->arg);
			cfg->watches[cfg->nwatches - 1].internal = true;
		}
	}
	if (keyring && serial == 0)
		errx(EXIT_USAGE, "--keyring goes with --key or --no-key");
}

const char *
cli_watch_cond_option(enum cond_kind kind)
{
	static const char *const names[] = {
		[COND_MOUNT] = "--mount", [COND_UNMOUNT] = "--unmount", [COND_READONLY] = "--readonly",
		[COND_WRITABLE] = "--writable", [COND_KEY] = "--key", [COND_NO_KEY] = "--no-key",
	};

	return names[kind];
}
