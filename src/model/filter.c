#include <libmount.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"
#include "xalloc.h"

/*
 * Flags mountinfo writes only as noX, never as X: findmnt -O noX means "no option X", which every
 * mount passes; +noX is the option itself.
 */
static const char *const filter_no_only[] = {
	"nosuid", "nodev", "noexec", "noatime", "nodiratime", "nosymfollow", NULL,
};

static void
filter_add(struct filter *f, unsigned type, uint32_t subtypes, unsigned mask, unsigned value)
{
	if (subtypes == 0 || f->n >= FILTER_MAX_ENTRIES)
		return;
	f->e[f->n++] = (struct filter_entry){ type, subtypes, mask, value };
}

void
filter_compile(struct filter *f, const struct evset *s)
{
	unsigned type, sub, v;
	uint32_t whole, partial;
	struct evset_variant var;

	memset(f, 0, sizeof(*f));
	for (type = 0; type < EV__NTYPES; type++) {
		whole = 0;
		partial = 0;
		for (sub = 0; sub < 32; sub++) {
			unsigned have = 0, n = evset_nvariants(type, sub);

			for (v = 0; v < n; v++)
				if (s->leaf[type][v] & (1u << sub))
					have++;
			if (have == n)
				whole |= 1u << sub;
			else if (have)
				partial |= 1u << sub;
		}
		filter_add(f, type, whole, 0, 0);
		for (sub = 0; sub < 32; sub++) {
			if (!(partial & (1u << sub)))
				continue;
			evset_variant(type, sub, &var);
			for (v = 0; v < var.nvalues; v++)
				if (s->leaf[type][v] & (1u << sub))
					filter_add(f, type, 1u << sub, var.mask, var.values[v]);
		}
	}
}

bool
filter_match(const struct filter *f, const struct event *ev)
{
	unsigned i;

	for (i = 0; i < f->n; i++) {
		const struct filter_entry *e = &f->e[i];

		if (e->type == (unsigned)ev->type && ev->subtype < 32 &&
		    (e->subtypes & (1u << ev->subtype)) &&
		    (ev->info & e->info_mask) == e->info_value)
			return true;
	}
	return false;
}

int
filter_paths_add(struct filter_paths *p, const char *re, bool icase, bool exclude, char *err,
    size_t errsize)
{
	struct filter_re *r;
	int rc;

	p->v = xreallocarray(p->v, p->n + 1, sizeof(*p->v));
	r = &p->v[p->n];
	rc = regcomp(&r->re, re, REG_EXTENDED | REG_NOSUB | (icase ? REG_ICASE : 0));
	if (rc != 0) {
		regerror(rc, &r->re, err, errsize);
		return -1;
	}
	r->exclude = exclude;
	p->n++;
	p->nincludes += !exclude;
	return 0;
}

/* Whether one path matches an include (if there are any) and no exclude. */
static bool
filter_path_passes(const struct filter_paths *p, const char *path)
{
	bool included = p->nincludes == 0;
	size_t i;

	for (i = 0; i < p->n; i++) {
		if (regexec(&p->v[i].re, path, 0, NULL, 0) != 0)
			continue;
		if (p->v[i].exclude)
			return false;
		included = true;
	}
	return included;
}

/*
 * inotifywait reports the two ends of a rename as two events, each matched alone; a move is one
 * record here, reported if either end would be.
 */
bool
filter_paths_match(const struct filter_paths *p, const struct event *ev)
{
	const char *path = NULL, *old = NULL;

	if (p->n == 0)
		return true;
	if (ev->type == EV_MOUNT) {
		path = ev->u.mount.at ? ev->u.mount.at->target : NULL;
		if (ev->subtype == MOUNT_MOVE)
			old = ev->u.mount.old_path;
	} else if (ev->type == EV_SB) {
		path = ev->u.sb.path;
	}
	/* Keys, transient mounts, loss and removal have no path to rule them out by. */
	if (path == NULL && old == NULL)
		return true;
	return (path && filter_path_passes(p, path)) || (old && filter_path_passes(p, old));
}

void
filter_paths_free(struct filter_paths *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		regfree(&p->v[i].re);
	free(p->v);
	memset(p, 0, sizeof(*p));
}

int
filter_options_check(const char *list)
{
	char *s = (char *)list, *name, *value;
	const char *q;
	size_t namesz, valuesz, n = 0, quotes = 0;
	int rc;

	/* libmount reads an unclosed quote as the end of the list, the items in it unread. */
	for (q = list; (q = strchr(q, '"')) != NULL; q++)
		quotes++;
	if (quotes % 2)
		return -3;
	while ((rc = mnt_optstr_next_option(&s, &name, &namesz, &value, &valuesz)) == 0) {
		/* libmount reads it as an error (2.39+) or as no option at all (before). */
		if (namesz == 2 && strncmp(name, "no", 2) == 0)
			return -2;
		n++;
	}
	if (rc < 0)
		return -4;
	return n == 0 ? -1 : 0;
}

const char *
filter_options_trap(const char *list)
{
	char *s = (char *)list, *name, *value;
	size_t namesz, valuesz, i;

	while (mnt_optstr_next_option(&s, &name, &namesz, &value, &valuesz) == 0)
		for (i = 0; filter_no_only[i]; i++)
			if (strlen(filter_no_only[i]) == namesz &&
			    strncmp(name, filter_no_only[i], namesz) == 0)
				return filter_no_only[i];
	return NULL;
}

bool
filter_options_match(const char *list, const char *options)
{
	return mnt_match_options(options, list) == 1;
}
