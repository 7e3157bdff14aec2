#ifndef WATCHQ_EXIT_H
#define WATCHQ_EXIT_H

/* Exit statuses: the table of EXIT STATUS in watchq(1). */
enum exit_code {
	EXIT_OK = 0,
	EXIT_ERROR = 1,
	EXIT_NOTHING = 1,	/* list: a mounts DIR had nothing to list, as findmnt's 1 */
	EXIT_TIMEOUT = 2,
	EXIT_REMOVED = 3,
	EXIT_USAGE = 64,
	EXIT_UNAVAILABLE = 69,
	/* + the signal's number: a wait ended by a signal, or SIGPIPE when its reader went away */
	EXIT_SIGNAL = 128,
};

#endif
