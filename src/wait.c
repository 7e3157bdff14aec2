#include <errno.h>
#include <keyutils.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "sb_state.h"
#include "wait.h"

/* Whether "type;uid;gid;perm;description" (KEYCTL_DESCRIBE) names the condition's key. */
static bool
describes(const char *d, const struct cond *c)
{
	size_t tl = strlen(c->type);
	int semis = 0;

	if (strncmp(d, c->type, tl) != 0 || d[tl] != ';')
		return false;
	while (*d && semis < 4)
		semis += *d++ == ';';
	return semis == 4 && strcmp(d, c->desc) == 0;
}

/* Whether a key of the condition's type and description is linked in its keyring. */
static enum wait_state
key_linked(const struct cond *c)
{
	int32_t *links = NULL;
	char *desc;
	long n, i;
	bool found = false;

	if ((n = keyctl_read_alloc(c->keyring, (void **)&links)) < 0)
		return errno == ENOKEY || errno == EKEYREVOKED || errno == EKEYEXPIRED ? WAIT_GONE : WAIT_PENDING;
	for (i = 0; i < n / (long)sizeof(int32_t) && !found; i++) {
		if (keyctl_describe_alloc(links[i], &desc) < 0)
			continue;
		found = describes(desc, c);
		free(desc);
	}
	free(links);
	return found ? WAIT_MET : WAIT_PENDING;
}

static enum wait_state
check_one(const struct cond *c, const struct mounttab *t)
{
	struct statvfs sv;
	struct sb_info si;
	bool ro;

	switch (c->kind) {
	case COND_MOUNT:
		return mounttab_has_target(t, c->path) ? WAIT_MET : WAIT_PENDING;
	case COND_UNMOUNT:
		return mounttab_has_target(t, c->path) ? WAIT_PENDING : WAIT_MET;
	case COND_READONLY:
	case COND_WRITABLE:
		/* ST_RDONLY covers a read-only mount and superblock, not ext4's emergency read-only. */
		if (statvfs(c->path, &sv) < 0)
			return errno == ENOENT || errno == ENOTDIR ? WAIT_GONE : WAIT_PENDING;
		ro = (sv.f_flag & ST_RDONLY) != 0;
		if (!ro && sb_info_get(&si, c->path) == 0) {
			ro = si.ro == SB_RO_EMERGENCY;
			sb_info_free(&si);
		}
		return ro == (c->kind == COND_READONLY) ? WAIT_MET : WAIT_PENDING;
	case COND_KEY:
		return key_linked(c);
	case COND_NO_KEY:
		switch (key_linked(c)) {
		case WAIT_MET:
			return WAIT_PENDING;
		case WAIT_PENDING:
			return WAIT_MET;
		case WAIT_GONE:
			return WAIT_GONE;
		}
	}
	return WAIT_PENDING;
}

enum wait_state
wait_check(const struct config *cfg, const struct mounttab *t)
{
	enum wait_state all = WAIT_MET, s;
	size_t i;

	for (i = 0; i < cfg->nconds; i++) {
		s = check_one(&cfg->conds[i], t);
		if (s == WAIT_GONE)
			return WAIT_GONE;
		if (s == WAIT_PENDING)
			all = WAIT_PENDING;
	}
	return all;
}
