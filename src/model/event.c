#include <stddef.h>
#include <string.h>
#include <syslog.h>

#include "compat.h"
#include "event.h"

_Static_assert(KEY_INSTANTIATED == KAPI_NOTIFY_KEY_INSTANTIATED &&
	KEY_UPDATED == KAPI_NOTIFY_KEY_UPDATED && KEY_LINKED == KAPI_NOTIFY_KEY_LINKED &&
	KEY_UNLINKED == KAPI_NOTIFY_KEY_UNLINKED && KEY_CLEARED == KAPI_NOTIFY_KEY_CLEARED &&
	KEY_REVOKED == KAPI_NOTIFY_KEY_REVOKED && KEY_INVALIDATED == KAPI_NOTIFY_KEY_INVALIDATED &&
	KEY_SETATTR == KAPI_NOTIFY_KEY_SETATTR,
    "enum ev_key must equal the kernel's key notification subtypes");

const struct event_name event_names[] = {
	{ .name = "present", .type = EV_MOUNT, .subtype = MOUNT_PRESENT,
	    .message_id = "e6d00a8a0eee4642b677b5978a8f0e00",
	    .priority = LOG_INFO },
	{ .name = "mount", .type = EV_MOUNT, .subtype = MOUNT_MOUNT,
	    .message_id = "7126bf6314fe4efebcee6fd8379f8930",
	    .priority = LOG_INFO },
	{ .name = "new_mount", .type = EV_MOUNT, .subtype = MOUNT_MOUNT },
	{ .name = "unmount", .type = EV_MOUNT, .subtype = MOUNT_UNMOUNT,
	    .message_id = "7b42f54dd0134a92b06fe62e8d891409",
	    .priority = LOG_INFO },
	{ .name = "move_from", .type = EV_MOUNT, .subtype = MOUNT_MOVE,
	    .info_mask = EV_INFO_MOVE_MASK, .info_value = EV_INFO_MOVE_FROM,
	    .message_id = "05332dd799814eeca66fbdea761f8aa3",
	    .priority = LOG_INFO },
	{ .name = "move_to", .type = EV_MOUNT, .subtype = MOUNT_MOVE,
	    .info_mask = EV_INFO_MOVE_MASK, .info_value = EV_INFO_MOVE_TO,
	    .message_id = "a5e4d75cca0f4092a095cbed1455c317",
	    .priority = LOG_INFO },
	{ .name = "move", .type = EV_MOUNT, .subtype = MOUNT_MOVE,
	    .message_id = "3daf7e56f3364843b2fb74249ad488be",
	    .priority = LOG_INFO },
	{ .name = "readonly", .type = EV_MOUNT, .subtype = MOUNT_READONLY,
	    .message_id = "3f50eea74684451282e8989dc9b61af4",
	    .priority = LOG_WARNING, .on_signal = true },
	{ .name = "writable", .type = EV_MOUNT, .subtype = MOUNT_WRITABLE,
	    .message_id = "1f0224450e624ff8bf111a682623393e",
	    .priority = LOG_INFO, .on_signal = true },
	{ .name = "setattr", .type = EV_MOUNT, .subtype = MOUNT_SETATTR,
	    .message_id = "8a0afb69d2384330993c3fbeaba0da87",
	    .priority = LOG_INFO, .on_signal = true },
	{ .name = "propagation", .type = EV_MOUNT, .subtype = MOUNT_PROPAGATION,
	    .message_id = "1007e75004d04c169f3840974de01093",
	    .priority = LOG_INFO, .on_signal = true },
	{ .name = "transient", .type = EV_MOUNT, .subtype = MOUNT_TRANSIENT,
	    .message_id = "9ae6ed05d51349e8bf49efce514b96fb",
	    .priority = LOG_INFO },
	{ .name = "instantiated", .type = EV_KEY, .subtype = KEY_INSTANTIATED,
	    .message_id = "73e4a413d5e4488c823cae550af3820c",
	    .priority = LOG_INFO },
	{ .name = "updated", .type = EV_KEY, .subtype = KEY_UPDATED,
	    .message_id = "9477f569c458428dae9da7e3374d9a21",
	    .priority = LOG_INFO },
	{ .name = "linked", .type = EV_KEY, .subtype = KEY_LINKED,
	    .message_id = "8517a7b661034fcaaeaff2bbd89279e8",
	    .priority = LOG_INFO },
	{ .name = "unlinked", .type = EV_KEY, .subtype = KEY_UNLINKED,
	    .message_id = "894f2ed435a242e4844e2d18c2b62106",
	    .priority = LOG_INFO },
	{ .name = "cleared", .type = EV_KEY, .subtype = KEY_CLEARED,
	    .message_id = "14364cb0b15444058333778ade48cef2",
	    .priority = LOG_INFO },
	{ .name = "revoked", .type = EV_KEY, .subtype = KEY_REVOKED,
	    .message_id = "8c7941313a0642f6be2ec29283f67cf5",
	    .priority = LOG_INFO },
	{ .name = "invalidated", .type = EV_KEY, .subtype = KEY_INVALIDATED,
	    .message_id = "f2cc70dd9d0b4f0cb2305ab1ddf72dd5",
	    .priority = LOG_INFO },
	{ .name = "setattr", .type = EV_KEY, .subtype = KEY_SETATTR,
	    .message_id = "344c83ddc57c4f1b982a2853b4393232",
	    .priority = LOG_INFO },
	{ .name = "present", .type = EV_KEY, .subtype = KEY_PRESENT,
	    .message_id = "45b6861337d24e0cb4598a7650979f19",
	    .priority = LOG_INFO },
	{ .name = "error", .type = EV_SB, .subtype = SB_ERROR,
	    .message_id = "b7df2cfdc9644f16a4ee4b05566e6c89",
	    .priority = LOG_ERR },
	{ .name = "readonly", .type = EV_SB, .subtype = SB_READONLY,
	    .message_id = "4f283b87319d4444856e8574f87a96e9",
	    .priority = LOG_WARNING },
	{ .name = "edquot", .type = EV_SB, .subtype = SB_EDQUOT,
	    .message_id = "e16efbd32f4045dca97a9391cb86c621",
	    .priority = LOG_WARNING },
	{ .name = "lowspace", .type = EV_SB, .subtype = SB_LOWSPACE,
	    .message_id = "84af2e7b76cc4d27bbb6f2ca878a8967",
	    .priority = LOG_WARNING },
	{ .name = "present", .type = EV_SB, .subtype = SB_PRESENT,
	    .message_id = "e860a6d54df147e380368ab5addd48e4",
	    .priority = LOG_INFO },
	{ .name = "loss", .type = EV_META, .subtype = META_LOSS,
	    .message_id = "d4577f0b04444851aaae9c5ef670c444",
	    .priority = LOG_WARNING },
	{ .name = "removal", .type = EV_META, .subtype = META_REMOVAL,
	    .message_id = "baab567b4b06496c8d985f19d62ab4c0",
	    .priority = LOG_NOTICE },
	{ .name = "ns_new", .type = EV_META, .subtype = META_NS_NEW,
	    .message_id = "9c152da4c32141c9a0919294220db28d",
	    .priority = LOG_INFO, .with = 1u << EV_MOUNT },
	{ .name = "ns_gone", .type = EV_META, .subtype = META_NS_GONE,
	    .message_id = "4ab5f6a03ad0439eb35dd5a5b3d2e7d0",
	    .priority = LOG_INFO, .with = 1u << EV_MOUNT },
	/* Other tools' names, after the names watchq prints: findmnt's, inotifywait's. */
	{ .name = "umount", .type = EV_MOUNT, .subtype = MOUNT_UNMOUNT },
	{ .name = "remount", .type = EV_MOUNT, .subtype = MOUNT_READONLY },
	{ .name = "remount", .type = EV_MOUNT, .subtype = MOUNT_WRITABLE },
	{ .name = "remount", .type = EV_MOUNT, .subtype = MOUNT_SETATTR },
	{ .name = "moved_from", .type = EV_MOUNT, .subtype = MOUNT_MOVE,
	    .info_mask = EV_INFO_MOVE_MASK, .info_value = EV_INFO_MOVE_FROM },
	{ .name = "moved_to", .type = EV_MOUNT, .subtype = MOUNT_MOVE,
	    .info_mask = EV_INFO_MOVE_MASK, .info_value = EV_INFO_MOVE_TO },
	/* keyctl watch's: the words it prints (--keyctl prints them; its gc: a watched key
	 * destroyed), and in full. */
	{ .name = "inst", .type = EV_KEY, .subtype = KEY_INSTANTIATED, .keyctl = true },
	{ .name = "update", .type = EV_KEY, .subtype = KEY_UPDATED },
	{ .name = "upd", .type = EV_KEY, .subtype = KEY_UPDATED, .keyctl = true },
	{ .name = "link", .type = EV_KEY, .subtype = KEY_LINKED, .keyctl = true },
	{ .name = "unlink", .type = EV_KEY, .subtype = KEY_UNLINKED },
	{ .name = "unlk", .type = EV_KEY, .subtype = KEY_UNLINKED, .keyctl = true },
	{ .name = "clr", .type = EV_KEY, .subtype = KEY_CLEARED, .keyctl = true },
	{ .name = "revoke", .type = EV_KEY, .subtype = KEY_REVOKED },
	{ .name = "rev", .type = EV_KEY, .subtype = KEY_REVOKED, .keyctl = true },
	{ .name = "inval", .type = EV_KEY, .subtype = KEY_INVALIDATED },
	{ .name = "inv", .type = EV_KEY, .subtype = KEY_INVALIDATED, .keyctl = true },
	{ .name = "attr", .type = EV_KEY, .subtype = KEY_SETATTR, .keyctl = true },
	{ .name = "gc", .type = EV_META, .subtype = META_REMOVAL, .keyctl = true,
	    .with = 1u << EV_KEY },
	{ .name = NULL },
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

const struct event_name *
event_row(const struct event *ev)
{
	const struct event_name *n;

	for (n = event_names; n->name; n++)
		if (n->type == ev->type && n->subtype == ev->subtype &&
		    (ev->info & n->info_mask) == n->info_value)
			return n;
	return NULL;
}

const char *
event_keyctl_word(const struct event *ev)
{
	const struct event_name *n;

	for (n = event_names; n->name; n++)
		if (n->keyctl && n->type == ev->type && n->subtype == ev->subtype)
			return n->name;
	return NULL;
}

const char *
event_name(const struct event *ev)
{
	const struct event_name *n = event_row(ev);

	return n ? n->name : "unknown";
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
