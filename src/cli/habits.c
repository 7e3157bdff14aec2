#include <string.h>
#include <strings.h>

#include "habits.h"

static const char HABIT_LIST[] =
    "watchq prints one record a line already; list SOURCE gives the present state, "
    "--format '%p %d %f %O' findmnt's columns";
static const char HABIT_DF[] =
    "watchq list sb PATH gives each filesystem's avail and size, in bytes";
static const char HABIT_CSV[] =
    "watchq writes no CSV; --json with jq -r '[.event, .path] | @csv', or --format";
static const char HABIT_DAEMON[] =
    "watchq stays in the foreground; run it as a service (Type=notify, see watchq(1)) or "
    "with &, and -o FILE for the events";

/*
 * -n (findmnt's --noheadings) and -T (its --target) are watchq's --count and --timestamps: their
 * mix-ups are told where their arguments are read (cli.c), as are -t's and -o's.
 */
static const struct habit habits[] = {
	{ 'J', NULL, "findmnt's --json", "here -j, --json, one object a line" },
	{ 'l', NULL, "findmnt's --list", HABIT_LIST },
	{ 0, "list", "findmnt's", HABIT_LIST },
	/* findmnt's --raw and inotifywait's --recursive share the letter. */
	{ 'r', NULL, "findmnt's --raw or inotifywait's --recursive",
	    "watchq's text is one record a line, escaped as findmnt -r escapes (\\x20); mounts "
	    "DIR reports every mount at or below DIR already; keys: --recursive" },
	{ 0, "raw", "findmnt's",
	    "watchq's text is one record a line already, escaped as findmnt -r escapes (\\x20)" },
	{ 0, "noheadings", "findmnt's -n", "watchq prints no headings" },
	{ 'D', NULL, "findmnt's --df", HABIT_DF },
	{ 0, "df", "findmnt's", HABIT_DF },
	{ 0, "tree", "findmnt's",
	    "watchq lists mounts one a line, in mount order; --json gives each parent_id to "
	    "build the tree from" },
	{ 0, "poll", "findmnt's",
	    "watching for changes is what watchq does (watchq mounts /); list gives the present "
	    "state" },
	{ 'c', NULL, "inotifywait's --csv", HABIT_CSV },
	{ 0, "csv", "inotifywait's", HABIT_CSV },
	{ 'd', NULL, "inotifywait's --daemon", HABIT_DAEMON },
	{ 0, "daemon", "inotifywait's", HABIT_DAEMON },
	{ 0, "fromfile", "inotifywait's",
	    "give the TARGETs as arguments, as xargs -d '\\n' -a FILE watchq mounts does" },
	{ 0, "outfile", "inotifywait's", "here -o, --output=FILE" },
	{ 0, NULL, NULL, NULL },
};

/* inotifywait's file events that no watchq event is, and the nearest watchq has. */
static const struct {
	const char *name;
	const char *clause;
} habit_events[] = {
	{ "create", "inotifywait's file event; a new mount is mount here" },
	{ "delete", "inotifywait's file event; a mount going away is unmount here, the watched "
	    "directory going away removal" },
	{ "delete_self", "inotifywait's file event; the watched directory going away is "
	    "removal here (always delivered)" },
	{ "move_self", "inotifywait's file event; the watched directory moved away is removal "
	    "here (always delivered)" },
	{ "modify", "inotifywait's file event; a mount's options changing is remount here "
	    "(readonly, writable, setattr), a key's payload changing updated" },
	{ "attrib", "inotifywait's file event; a mount's other options changing is setattr "
	    "here, a key's permissions or owner changing setattr too" },
	{ "access", "inotifywait's file event; watchq sees no file read or written, only "
	    "mounts, filesystems and keys" },
	{ "open", "inotifywait's file event; watchq sees no file opened, only mounts, "
	    "filesystems and keys" },
	{ "close", "inotifywait's file event; watchq sees no file closed, only mounts, "
	    "filesystems and keys" },
	{ "close_write", "inotifywait's file event; watchq sees no file written, only mounts, "
	    "filesystems and keys" },
	{ "close_nowrite", "inotifywait's file event; watchq sees no file read, only mounts, "
	    "filesystems and keys" },
	{ NULL, NULL },
};

const struct habit *
habits_short(int c)
{
	const struct habit *h;

	for (h = habits; h->text; h++)
		if (h->c != 0 && h->c == c)
			return h;
	return NULL;
}

const struct habit *
habits_long(const char *name, size_t n)
{
	const struct habit *h;

	for (h = habits; h->text; h++)
		if (h->name && strncmp(h->name, name, n) == 0 && h->name[n] == '\0')
			return h;
	return NULL;
}

const char *
habits_event(const char *name)
{
	size_t i;

	for (i = 0; habit_events[i].name; i++)
		if (strcasecmp(habit_events[i].name, name) == 0)
			return habit_events[i].clause;
	return NULL;
}
