#include <stddef.h>
#include <string.h>

#include "compat.h"
#include "event.h"

_Static_assert(KEY_INSTANTIATED == KAPI_NOTIFY_KEY_INSTANTIATED &&
	KEY_UPDATED == KAPI_NOTIFY_KEY_UPDATED && KEY_LINKED == KAPI_NOTIFY_KEY_LINKED &&
	KEY_UNLINKED == KAPI_NOTIFY_KEY_UNLINKED && KEY_CLEARED == KAPI_NOTIFY_KEY_CLEARED &&
	KEY_REVOKED == KAPI_NOTIFY_KEY_REVOKED && KEY_INVALIDATED == KAPI_NOTIFY_KEY_INVALIDATED &&
	KEY_SETATTR == KAPI_NOTIFY_KEY_SETATTR,
    "enum ev_key must equal the kernel's key notification subtypes");

const struct event_name event_names[] = {
	{ "present", EV_MOUNT, MOUNT_PRESENT, 0, 0 },
	{ "mount", EV_MOUNT, MOUNT_MOUNT, 0, 0 },
	{ "new_mount", EV_MOUNT, MOUNT_MOUNT, 0, 0 },
	{ "unmount", EV_MOUNT, MOUNT_UNMOUNT, 0, 0 },
	{ "move_from", EV_MOUNT, MOUNT_MOVE, EV_INFO_MOVE_MASK, EV_INFO_MOVE_FROM },
	{ "move_to", EV_MOUNT, MOUNT_MOVE, EV_INFO_MOVE_MASK, EV_INFO_MOVE_TO },
	{ "move", EV_MOUNT, MOUNT_MOVE, 0, 0 },
	{ "readonly", EV_MOUNT, MOUNT_READONLY, 0, 0 },
	{ "writable", EV_MOUNT, MOUNT_WRITABLE, 0, 0 },
	{ "setattr", EV_MOUNT, MOUNT_SETATTR, 0, 0 },
	{ "propagation", EV_MOUNT, MOUNT_PROPAGATION, 0, 0 },
	{ "transient", EV_MOUNT, MOUNT_TRANSIENT, 0, 0 },
	{ "instantiated", EV_KEY, KEY_INSTANTIATED, 0, 0 },
	{ "updated", EV_KEY, KEY_UPDATED, 0, 0 },
	{ "linked", EV_KEY, KEY_LINKED, 0, 0 },
	{ "unlinked", EV_KEY, KEY_UNLINKED, 0, 0 },
	{ "cleared", EV_KEY, KEY_CLEARED, 0, 0 },
	{ "revoked", EV_KEY, KEY_REVOKED, 0, 0 },
	{ "invalidated", EV_KEY, KEY_INVALIDATED, 0, 0 },
	{ "setattr", EV_KEY, KEY_SETATTR, 0, 0 },
	{ "present", EV_KEY, KEY_PRESENT, 0, 0 },
	{ "error", EV_SB, SB_ERROR, 0, 0 },
	{ "readonly", EV_SB, SB_READONLY, 0, 0 },
	{ "edquot", EV_SB, SB_EDQUOT, 0, 0 },
	{ "lowspace", EV_SB, SB_LOWSPACE, 0, 0 },
	{ "present", EV_SB, SB_PRESENT, 0, 0 },
	{ "loss", EV_META, META_LOSS, 0, 0 },
	{ "removal", EV_META, META_REMOVAL, 0, 0 },
	{ "ns_new", EV_META, META_NS_NEW, 0, 0 },
	{ "ns_gone", EV_META, META_NS_GONE, 0, 0 },
	/* Other tools' names, after the names watchq prints: findmnt's, inotifywait's. */
	{ "umount", EV_MOUNT, MOUNT_UNMOUNT, 0, 0 },
	{ "remount", EV_MOUNT, MOUNT_READONLY, 0, 0 },
	{ "remount", EV_MOUNT, MOUNT_WRITABLE, 0, 0 },
	{ "remount", EV_MOUNT, MOUNT_SETATTR, 0, 0 },
	{ "moved_from", EV_MOUNT, MOUNT_MOVE, EV_INFO_MOVE_MASK, EV_INFO_MOVE_FROM },
	{ "moved_to", EV_MOUNT, MOUNT_MOVE, EV_INFO_MOVE_MASK, EV_INFO_MOVE_TO },
	/* keyctl watch's: the words it prints (its gc: a watched key destroyed), and in full. */
	{ "inst", EV_KEY, KEY_INSTANTIATED, 0, 0 },
	{ "update", EV_KEY, KEY_UPDATED, 0, 0 },
	{ "upd", EV_KEY, KEY_UPDATED, 0, 0 },
	{ "link", EV_KEY, KEY_LINKED, 0, 0 },
	{ "unlink", EV_KEY, KEY_UNLINKED, 0, 0 },
	{ "unlk", EV_KEY, KEY_UNLINKED, 0, 0 },
	{ "clr", EV_KEY, KEY_CLEARED, 0, 0 },
	{ "revoke", EV_KEY, KEY_REVOKED, 0, 0 },
	{ "rev", EV_KEY, KEY_REVOKED, 0, 0 },
	{ "inval", EV_KEY, KEY_INVALIDATED, 0, 0 },
	{ "inv", EV_KEY, KEY_INVALIDATED, 0, 0 },
	{ "attr", EV_KEY, KEY_SETATTR, 0, 0 },
	{ "gc", EV_META, META_REMOVAL, 0, 0 },
	{ NULL, 0, 0, 0, 0 },
};

const struct event_source event_sources[] = {
	{ EV_MOUNT, "mount", "mounts", "/" },
	{ EV_KEY, "key", "keys", "@s" },
	{ EV_SB, "sb", "sb", NULL },
	{ EV_META, "meta", "meta", NULL },
	{ 0, NULL, NULL, NULL },
};

const char *
event_type_name(enum ev_type type)
{
	const struct event_source *s;

	for (s = event_sources; s->name; s++)
		if (s->type == type)
			return s->name;
	return "unknown";
}

bool
event_is_summary(const struct event *ev)
{
	return ev->type == EV_META || (ev->type == EV_MOUNT && ev->subtype == MOUNT_TRANSIENT);
}

bool
event_is_present(const struct event *ev)
{
	return (ev->type == EV_MOUNT && ev->subtype == MOUNT_PRESENT) ||
	    (ev->type == EV_KEY && ev->subtype == KEY_PRESENT) ||
	    (ev->type == EV_SB && ev->subtype == SB_PRESENT);
}

const char *
event_sb_ro_name(enum sb_ro ro)
{
	switch (ro) {
	case SB_RO_RO:
		return "ro";
	case SB_RO_EMERGENCY:
		return "emergency_ro";
	default:
		return "rw";
	}
}

const char *
event_name(const struct event *ev)
{
	const struct event_name *n;

	for (n = event_names; n->name; n++)
		if (n->type == ev->type && n->subtype == ev->subtype &&
		    (ev->info & n->info_mask) == n->info_value)
			return n->name;
	return "unknown";
}

const struct event_name *
event_name_first(const struct event_name *n)
{
	const struct event_name *m;

	for (m = event_names; m != n; m++)
		if (m->type == n->type && m->subtype == n->subtype &&
		    m->info_mask == n->info_mask && m->info_value == n->info_value)
			return m;
	return n;
}

const char *
event_alias_of(const struct event_name *n)
{
	const struct event_name *m;
	size_t rows = 0;

	for (m = event_names; m->name; m++)
		rows += m->type == n->type && strcmp(m->name, n->name) == 0;
	return event_name_first(n) != n && rows == 1 ? event_name_first(n)->name : NULL;
}
