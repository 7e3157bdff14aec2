/*
 * unitjail UNIT CMD [ARG...]: run CMD under the sandbox a systemd unit file sets, as far as it
 * bears on what a root service may call, so that the suite can show that watchq's process capture
 * loads under the installed unit's own restrictions without systemd as init. Applied, as systemd
 * applies them to a service running as root:
 *   CapabilityBoundingSet=   every other capability dropped from the bounding set before exec
 *                            (root's capabilities after exec are then those left)
 *   NoNewPrivileges=yes      PR_SET_NO_NEW_PRIVS
 *   SystemCallFilter=~...    the sets and calls named, expanded by systemd-analyze syscall-filter
 *                            (systemd's own tables), fail with SystemCallErrorNumber= (EPERM)
 *   RestrictAddressFamilies= socket(2) of any other family fails with EAFNOSUPPORT
 *   MemoryDenyWriteExecute=  mmap(2) writable and executable, mprotect(2) executable: EPERM
 *   RestrictNamespaces=yes   unshare(2), clone(2) with a namespace flag and setns(2): EPERM;
 *                            clone3(2) ENOSYS (glibc then falls back to clone)
 *   SystemCallArchitectures=native   no other architecture's calls
 * Any other line of [Service] is not applied: unitjail says which on stderr. Exits 2 on a unit it
 * cannot read or a call set systemd does not know.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/capability.h>

#define NS_FLAGS (CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | \
	CLONE_NEWNET | CLONE_NEWCGROUP | CLONE_NEWTIME)

static void
die(const char *what)
{
	fprintf(stderr, "unitjail: %s\n", what);
	exit(2);
}

/* Capability names by number (linux/capability.h), as units spell them. */
static const char *const cap_names[] = {
	"CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_DAC_READ_SEARCH", "CAP_FOWNER", "CAP_FSETID",
	"CAP_KILL", "CAP_SETGID", "CAP_SETUID", "CAP_SETPCAP", "CAP_LINUX_IMMUTABLE",
	"CAP_NET_BIND_SERVICE", "CAP_NET_BROADCAST", "CAP_NET_ADMIN", "CAP_NET_RAW",
	"CAP_IPC_LOCK", "CAP_IPC_OWNER", "CAP_SYS_MODULE", "CAP_SYS_RAWIO", "CAP_SYS_CHROOT",
	"CAP_SYS_PTRACE", "CAP_SYS_PACCT", "CAP_SYS_ADMIN", "CAP_SYS_BOOT", "CAP_SYS_NICE",
	"CAP_SYS_RESOURCE", "CAP_SYS_TIME", "CAP_SYS_TTY_CONFIG", "CAP_MKNOD", "CAP_LEASE",
	"CAP_AUDIT_WRITE", "CAP_AUDIT_CONTROL", "CAP_SETFCAP", "CAP_MAC_OVERRIDE",
	"CAP_MAC_ADMIN", "CAP_SYSLOG", "CAP_WAKE_ALARM", "CAP_BLOCK_SUSPEND", "CAP_AUDIT_READ",
	"CAP_PERFMON", "CAP_BPF", "CAP_CHECKPOINT_RESTORE",
};

/* Whether the space-separated list holds word exactly. */
static bool
listed(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = list; (p = strstr(p, word)) != NULL; p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
			return true;
	return false;
}

static void
rule(scmp_filter_ctx ctx, uint32_t act, const char *name, unsigned n, struct scmp_arg_cmp *c)
{
	int nr = seccomp_syscall_resolve_name(name);

	if (nr != __NR_SCMP_ERROR && seccomp_rule_add_array(ctx, act, nr, n, c) < 0)
		die(name);
}

/* Deny every call of one SystemCallFilter= word: a call, or a @set systemd-analyze expands. */
static void
deny_word(scmp_filter_ctx ctx, uint32_t act, const char *word)
{
	char cmd[256], line[256], *p;
	FILE *f;

	if (word[0] != '@') {
		rule(ctx, act, word, 0, NULL);
		return;
	}
	snprintf(cmd, sizeof(cmd), "systemd-analyze syscall-filter '%s' 2>/dev/null", word);
	if ((f = popen(cmd, "r")) == NULL)
		die("systemd-analyze");
	while (fgets(line, sizeof(line), f)) {
		p = line + strspn(line, " \t");
		p[strcspn(p, " \t\n")] = '\0';
		if (line[0] != ' ' || *p == '\0' || *p == '#')
			continue;
		if (*p == '@')
			deny_word(ctx, act, p);
		else
			rule(ctx, act, p, 0, NULL);
	}
	if (pclose(f) != 0)
		die(word);
}

static void
restrict_families(scmp_filter_ctx ctx, const char *allowed)
{
	static const struct { const char *name; int af; } names[] = {
		{ "AF_UNIX", AF_UNIX }, { "AF_NETLINK", AF_NETLINK }, { "AF_INET", AF_INET },
		{ "AF_INET6", AF_INET6 }, { "AF_PACKET", AF_PACKET },
	};
	bool ok[AF_MAX] = { false };
	struct scmp_arg_cmp c;
	size_t i;
	int af;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		ok[names[i].af] = listed(allowed, names[i].name);
	for (af = 0; af < AF_MAX; af++) {
		if (ok[af])
			continue;
		c = SCMP_A0(SCMP_CMP_EQ, af);
		rule(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), "socket", 1, &c);
	}
	c = SCMP_A0(SCMP_CMP_GE, AF_MAX);
	rule(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), "socket", 1, &c);
}

static void
deny_wx(scmp_filter_ctx ctx)
{
	struct scmp_arg_cmp wx = SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_WRITE | PROT_EXEC,
	    PROT_WRITE | PROT_EXEC);
	struct scmp_arg_cmp x = SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, PROT_EXEC);

	rule(ctx, SCMP_ACT_ERRNO(EPERM), "mmap", 1, &wx);
	rule(ctx, SCMP_ACT_ERRNO(EPERM), "mprotect", 1, &x);
	rule(ctx, SCMP_ACT_ERRNO(EPERM), "pkey_mprotect", 1, &x);
}

static void
deny_namespaces(scmp_filter_ctx ctx)
{
	unsigned long flag;
	struct scmp_arg_cmp c;

	for (flag = 1; flag; flag <<= 1) {
		if (!(flag & NS_FLAGS))
			continue;
		c = SCMP_A0(SCMP_CMP_MASKED_EQ, flag, flag);
		rule(ctx, SCMP_ACT_ERRNO(EPERM), "unshare", 1, &c);
		rule(ctx, SCMP_ACT_ERRNO(EPERM), "clone", 1, &c);
	}
	rule(ctx, SCMP_ACT_ERRNO(EPERM), "setns", 0, NULL);
	rule(ctx, SCMP_ACT_ERRNO(ENOSYS), "clone3", 0, NULL);
}

/* Keep only the capabilities named in the bounding set (CAP_SYS_ADMIN ...). */
static void
bound_caps(const char *keep)
{
	unsigned long cap;

	for (cap = 0; cap <= 63; cap++) {
		if (cap < sizeof(cap_names) / sizeof(cap_names[0]) && listed(keep, cap_names[cap]))
			continue;
		/* EINVAL: no such capability in this kernel. */
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EINVAL)
			die("PR_CAPBSET_DROP");
	}
}

int
main(int argc, char **argv)
{
	char line[4096], *v, *w, *save;
	uint32_t act = SCMP_ACT_ERRNO(EPERM);
	scmp_filter_ctx ctx;
	bool service = false;
	FILE *f;

	if (argc < 3)
		die("usage: unitjail UNIT CMD [ARG...]");
	if ((f = fopen(argv[1], "re")) == NULL || (ctx = seccomp_init(SCMP_ACT_ALLOW)) == NULL)
		die(argv[1]);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '[')
			service = strcmp(line, "[Service]") == 0;
		if (!service || (v = strchr(line, '=')) == NULL || line[0] == '#')
			continue;
		*v++ = '\0';
		if (strcmp(line, "CapabilityBoundingSet") == 0) {
			bound_caps(v);
		} else if (strcmp(line, "NoNewPrivileges") == 0) {
			if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
				die("PR_SET_NO_NEW_PRIVS");
		} else if (strcmp(line, "SystemCallFilter") == 0 && v[0] == '~') {
			for (w = strtok_r(v + 1, " ", &save); w; w = strtok_r(NULL, " ", &save))
				deny_word(ctx, act, w);
		} else if (strcmp(line, "SystemCallErrorNumber") == 0) {
			if (strcmp(v, "EPERM") != 0)
				die("SystemCallErrorNumber other than EPERM");
		} else if (strcmp(line, "SystemCallArchitectures") == 0) {
			/* native: seccomp_init() lets no other architecture's calls through. */
			if (strcmp(v, "native") != 0)
				die("SystemCallArchitectures other than native");
		} else if (strcmp(line, "RestrictAddressFamilies") == 0) {
			restrict_families(ctx, v);
		} else if (strcmp(line, "MemoryDenyWriteExecute") == 0 && strcmp(v, "yes") == 0) {
			deny_wx(ctx);
		} else if (strcmp(line, "RestrictNamespaces") == 0 && strcmp(v, "yes") == 0) {
			deny_namespaces(ctx);
		} else if (strcmp(line, "SystemCallFilter") == 0) {
			die("an allow list (SystemCallFilter= without ~) is not applied");
		} else {
			fprintf(stderr, "unitjail: not applied: %s=%s\n", line, v);
		}
	}
	fclose(f);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || seccomp_load(ctx) < 0)
		die("seccomp_load");
	execvp(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}
