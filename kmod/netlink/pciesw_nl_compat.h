/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the generated netlink code (pciesw_nl.[ch], from ynl-gen-c of 6.12)
 * needs and an older or a 6.12 kernel lacks.  Kbuild includes this before
 * pciesw_nl.c (-include), so the generated files stay as generated.
 */
#ifndef _PCIESW_NL_COMPAT_H
#define _PCIESW_NL_COMPAT_H

#include <net/genetlink.h>
#include <net/netlink.h>

#include <pciesw_compat.h>

/*
 * ynl-gen-c 6.12 puts limits beyond s16 in a range structure with
 * NLA_POLICY_FULL_RANGE() also for signed types (whose ranges are a struct
 * netlink_range_validation_signed, which that macro refuses to build), and
 * its range structures are const, which 6.1's policy pointers are not.  The
 * range pointers of struct nla_policy share a union and the core reads the
 * signed one for signed types, so one definition serves both; ynl-gen-c
 * declares the range structure by the attribute's type, so they agree.
 */
#undef NLA_POLICY_FULL_RANGE
#define NLA_POLICY_FULL_RANGE(tp, _range) {				\
	.type = NLA_ENSURE_INT_OR_BINARY_TYPE(tp),			\
	.validation_type = NLA_VALIDATE_RANGE_PTR,			\
	.range = (pciesw_nl_range_t *)(const void *)(_range),		\
}

#ifndef PCIESW_HAVE_SPLIT_OPS
/*
 * Split ops (a do and a dump of one command as two ops, each with its own
 * policy and pre/post hooks) arrived in 6.2.  Before, family.c builds a
 * struct genl_ops table from the generated one at init and dispatches the
 * family's pre_doit/post_doit to the ops' own (see pciesw_nl_compat_ops()).
 * The same layout as 6.2's.
 */
struct genl_split_ops {
	union {
		struct {
			int (*pre_doit)(const struct genl_split_ops *ops,
					struct sk_buff *skb,
					struct genl_info *info);
			int (*doit)(struct sk_buff *skb,
				    struct genl_info *info);
			void (*post_doit)(const struct genl_split_ops *ops,
					  struct sk_buff *skb,
					  struct genl_info *info);
		};
		struct {
			int (*start)(struct netlink_callback *cb);
			int (*dumpit)(struct sk_buff *skb,
				      struct netlink_callback *cb);
			int (*done)(struct netlink_callback *cb);
		};
	};
	const struct nla_policy *policy;
	unsigned int maxattr;
	u8 cmd;
	u8 internal_flags;
	u8 flags;
	u8 validate;
};
#endif

#endif /* _PCIESW_NL_COMPAT_H */
