// SPDX-License-Identifier: GPL-2.0
/* libkmod opened with dlopen() on first use: see kmod_dl.h. */

#include <dlfcn.h>
#include <stddef.h>

#include "kmod_dl.h"
#include "util.h"

/* the library's ABI: what libkmod-dev's libkmod.so links against */
#define LIBKMOD_SONAME "libkmod.so.2"

#define KMOD_DL_DEFINE(f) __typeof__(f) *sym_##f;
KMOD_DL_SYMS(KMOD_DL_DEFINE)
#undef KMOD_DL_DEFINE

int kmod_dl_open(void)
{
	static void *dl;
	const char *missing = NULL;

	if (dl)
		return 0;
	dl = dlopen(LIBKMOD_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!dl) {
		error("cannot load %s (package libkmod2): %s", LIBKMOD_SONAME,
		      dlerror());
		return -1;
	}
#define KMOD_DL_RESOLVE(f)					\
	sym_##f = (__typeof__(sym_##f))dlsym(dl, #f);		\
	if (!sym_##f && !missing)				\
		missing = #f;
	KMOD_DL_SYMS(KMOD_DL_RESOLVE)
#undef KMOD_DL_RESOLVE
	if (missing) {
		error("%s has no %s: too old a libkmod", LIBKMOD_SONAME,
		      missing);
		dlclose(dl);
		dl = NULL;
		return -1;
	}
	return 0;
}
