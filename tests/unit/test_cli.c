/* How the command line becomes watches and conditions, and which input is a usage error. */
#include <keyutils.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "unit.h"

static struct config cfg;
static struct mntns ns[MNTNS_MAX];

/* "watchq" and the NULL-terminated list first, ap in argv, storage argp may permute; argc. */
static int
make_argv(char **argv, size_t max, const char *first, va_list ap)
{
	const char *a;
	int argc = 0;

	argv[argc++] = (char *)"watchq";
	for (a = first; a != NULL && (size_t)argc < max - 1; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	argv[argc] = NULL;
	return argc;
}

static void
parse(const char *first, ...)
{
	static char *argv[32];
	va_list ap;
	int argc;

	cli_free(&cfg);
	va_start(ap, first);
	argc = make_argv(argv, 32, first, ap);
	va_end(ap);
	cli_parse(&cfg, ns, argc, argv);
}

/* Parse in a child: its exit status, and its stderr in err (NUL-terminated). */
static int
parse_status(char *err, size_t errsize, const char *first, ...)
{
	static char *argv[32];
	va_list ap;
	int argc, p[2], st;
	ssize_t n;
	size_t got;
	pid_t pid;

	va_start(ap, first);
	argc = make_argv(argv, 32, first, ap);
	va_end(ap);
	if (pipe(p) < 0 || (pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		dup2(p[1], STDERR_FILENO);
		cli_free(&cfg);	/* this copy's: cli_parse() starts from nothing */
		cli_parse(&cfg, ns, argc, argv);
		_exit(0);
	}
	close(p[1]);
	for (got = 0; got < errsize - 1 && (n = read(p[0], err + got, errsize - 1 - got)) > 0; got += (size_t)n)
		;
	err[got] = '\0';
	close(p[0]);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Exit 64 with exactly one line on stderr, containing want. */
#define USAGE(want, ...) do { \
	char err_[512]; \
	int st_ = parse_status(err_, sizeof(err_), __VA_ARGS__, (const char *)NULL); \
	CHECK(st_ == 64, "status %d: %s", st_, err_); \
	CHECK(strstr(err_, want) != NULL && strchr(err_, '\n') == err_ + strlen(err_) - 1, \
	    "want one line with \"%s\", got \"%s\"", want, err_); \
} while (0)

int
main(void)
{
	key_serial_t ring, user;
	char num[16], unum[16];

	/* A session keyring of our own (keyrings are part of what watchq is for: no skip), holding a keyring and a user key. */
	if (keyctl_join_session_keyring(NULL) < 0) {
		perror("keyctl_join_session_keyring");
		return 1;
	}
	ring = add_key("keyring", "wq-unit", NULL, 0, KEY_SPEC_SESSION_KEYRING);
	user = add_key("user", "wq-user", "x", 1, KEY_SPEC_SESSION_KEYRING);
	CHECK(ring > 0 && user > 0, "add_key: %m");
	snprintf(num, sizeof(num), "%d", ring);
	snprintf(unum, sizeof(unum), "%d", user);

	/* Each key condition keeps the keyring, even after a --writable added an sb watch. */
	parse("wait", "--key", "user:a", "--writable", "/", "--key", "user:c", "--keyring", num, (char *)NULL);
	CHECK(cfg.nconds == 3, "nconds %zu", cfg.nconds);
	CHECK(cfg.nwatches == 2, "nwatches %zu", cfg.nwatches);
	CHECK(cfg.watches[0].type == EV_KEY && cfg.watches[0].key == ring && !cfg.watches[0].internal,
	    "keys watch of the keyring");
	CHECK(cfg.watches[1].type == EV_SB && cfg.watches[1].internal && strcmp(cfg.watches[1].path, "/") == 0,
	    "internal sb watch of the --writable path");
	CHECK(cfg.conds[0].keyring == ring && cfg.conds[2].keyring == ring, "keyrings %d %d, want %d",
	    cfg.conds[0].keyring, cfg.conds[2].keyring, ring);
	CHECK_STR(cfg.conds[0].type, "user");
	CHECK_STR(cfg.conds[0].desc, "a");
	CHECK_STR(cfg.conds[2].desc, "c");
	CHECK(cfg.conds[1].kind == COND_WRITABLE && strcmp(cfg.conds[1].path, "/") == 0, "writable /");

	/* Default keyring: @s, watched once for all key conditions. */
	parse("wait", "--readonly", "/", "--no-key", "user:x", "--mount", "/nonexistent-wq/a/..", "--key", "user:y",
	    (char *)NULL);
	CHECK(cfg.nwatches == 2, "nwatches %zu", cfg.nwatches);
	CHECK(cfg.watches[0].type == EV_SB && cfg.watches[0].internal, "sb first");
	CHECK(cfg.watches[1].type == EV_KEY && cfg.watches[1].key == keyctl_get_keyring_ID(KEY_SPEC_SESSION_KEYRING, 0),
	    "@s watched");
	CHECK(cfg.conds[1].keyring == cfg.watches[1].key && cfg.conds[3].keyring == cfg.watches[1].key,
	    "both key conditions read @s");
	CHECK_STR(cfg.conds[2].path, "/nonexistent-wq");
	CHECK(cfg.sources == (1u << EV_MOUNT | 1u << EV_KEY | 1u << EV_SB), "sources %#x", cfg.sources);

	/* Mount conditions add no watch; the mount source serves them. */
	parse("wait", "--unmount", "/", (char *)NULL);
	CHECK(cfg.nwatches == 0 && cfg.sources == 1u << EV_MOUNT, "no watch, mounts opened");

	/*
	 * --mounted and --unmounted look at or below / by default (an internal watch), else at or
	 * below each mounts DIR (watches like any); --mounted asks for the present record it prints.
	 */
	parse("wait", "--unmounted", "LABEL=wq", "--mount", "/", (char *)NULL);
	CHECK(cfg.nwatches == 1 && cfg.watches[0].type == EV_MOUNT && cfg.watches[0].internal &&
	    strcmp(cfg.watches[0].path, "/") == 0, "internal mounts / for --unmounted");
	CHECK(!evset_has_event(&cfg.events, EV_MOUNT, MOUNT_PRESENT), "--unmounted prints nothing");
	parse("wait", "--mounted", "8:1", "mounts", "/", "/tmp", (char *)NULL);
	CHECK(cfg.nwatches == 2 && !cfg.watches[0].internal && !cfg.watches[1].internal &&
	    strcmp(cfg.watches[1].path, "/tmp") == 0, "mounts / /tmp for --mounted");
	CHECK(cfg.conds[0].kind == COND_MOUNTED && cfg.conds[0].path == NULL, "--mounted 8:1");
	CHECK(evset_has_event(&cfg.events, EV_MOUNT, MOUNT_PRESENT), "--mounted prints present");
	USAGE("--mounted: 'UUID=' needs a value after the '='", "wait", "--mounted", "UUID=");
	USAGE("take no SOURCE", "wait", "--mount", "/", "mounts", "/");
	USAGE("keys does not apply", "wait", "--unmounted", "x", "mounts", "/", "keys");

	/* Sources and default targets. */
	parse("mounts", "keys", num, "sb", "/", (char *)NULL);
	CHECK(cfg.nwatches == 3 && strcmp(cfg.watches[0].path, "/") == 0 && cfg.watches[1].key == ring &&
	    cfg.watches[2].type == EV_SB, "mounts /, keys RING, sb /");
	CHECK(cfg.watches[2].tag == 2, "tags count watches");

	/* --initial and list ask for the present records of keys and sb too. */
	parse("--initial", "keys", num, "sb", "/", (char *)NULL);
	CHECK(evset_has_event(&cfg.events, EV_KEY, KEY_PRESENT) &&
	    evset_has_event(&cfg.events, EV_SB, SB_PRESENT), "--initial keys sb: present");
	parse("list", "keys", num, (char *)NULL);
	CHECK(cfg.mode == MODE_LIST && evset_has_event(&cfg.events, EV_KEY, KEY_PRESENT),
	    "list keys: present");

	/* --keyring must name a keyring. */
	USAGE("not a keyring", "wait", "--key", "user:a", "--keyring", unum);
	USAGE("not a keyring", "wait", "--no-key", "user:a", "--keyring", "%user:wq-user");
	USAGE("--keyring goes with", "wait", "--mount", "/", "--keyring", num);

	/* Options that do not apply. */
	USAGE("'present' comes only with --initial", "-e", "present", "mounts");
	USAGE("--fstype applies to mounts", "--fstype", "ext4", "keys");
	USAGE("--source applies to mounts", "--source", "/dev/sda", "sb", "/");
	USAGE("does not serve sb", "--backend=poll", "sb", "/");
	USAGE("-T applies to text", "-T", "--json", "mounts");
	USAGE("-T applies to text", "-T", "--format", "%e", "mounts");
	USAGE("--timefmt applies", "--timefmt", "%s", "--json", "mounts");
	USAGE("--timefmt applies", "--timefmt", "%s", "--format", "%e", "mounts");
	USAGE("--timefmt applies", "--timefmt", "%s", "mounts");
	USAGE("-e: empty event list", "-e", ",", "mounts");
	USAGE("-E: empty event list", "-E", ",,", "mounts");
	parse("--timefmt", "%s", "--format", "%T %e", "mounts", (char *)NULL);
	CHECK_STR(cfg.timefmt, "%s");
	parse("-T", "mounts", (char *)NULL);
	CHECK_STR(cfg.timefmt, "%Y-%m-%dT%H:%M:%S%z");

	/* argp's own errors: one line, the argument escaped. */
	USAGE("unknown option '--frob'", "--frob", "mounts");
	USAGE("unknown option '-z'", "-qz", "mounts");
	USAGE("option '--timeout' needs SECONDS", "mounts", "--timeout");
	USAGE("option '-n' needs N", "mounts", "-n");
	USAGE("option '--json' takes no argument", "--json=1", "mounts");
	USAGE("unknown option '--ke'; did you mean --key, --keyctl, --keyring?", "--ke", "x", "wait");
	USAGE("unknown option '--init'; did you mean --initial?", "--init", "mounts");
	USAGE("unknown option '--a\\x0awatchq:\\x20forged'", "--a\nwatchq: forged", "mounts");

	/* Every echo of an argument is escaped: no forged line. */
	USAGE("/nonexistent\\x0awatchq:\\x20x: No such file", "sb", "/nonexistent\nwatchq: x");
	USAGE("unknown source 'a\\xc2\\x9b2J'", "a\xc2\x9b" "2J");
	USAGE("-e \\xe2\\x80\\xaemount: unknown event", "-e", "\xe2\x80\xaemount", "mounts");
	USAGE("--timeout: 'x\\x0ay'", "-t", "x\ny", "mounts");

	cli_free(&cfg);
	return unit_done("test_cli");
}
