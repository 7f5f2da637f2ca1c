/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the 32-bit helper programs (pciesw_compat.c, pciesw_nvme_compat.c)
 * share: a check that prints what failed as a "# " line and remembers it.
 * Only libc: they are built with -m32 -static.
 */
#ifndef _PCIESW_COMPAT_H
#define _PCIESW_COMPAT_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int failed;

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		printf("# %s:%d: %s: ", __FILE__, __LINE__, #cond);	\
		printf(__VA_ARGS__);					\
		printf(" (errno %s)\n", strerror(errno));		\
		failed = 1;						\
	}								\
} while (0)

#endif /* _PCIESW_COMPAT_H */
