/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libkmod, loaded when a command needs it (load, unload): the other
 * commands start without it and the libraries it brings (zstd, xz,
 * libcrypto), whose loading and relocation were a quarter of switchctl's
 * start-up.  Call the functions through their sym_ pointers after
 * kmod_dl_open() succeeded.
 */
#ifndef SWITCHCTL_KMOD_DL_H
#define SWITCHCTL_KMOD_DL_H

#include <libkmod.h>

#define KMOD_DL_SYMS(X)							\
	X(kmod_new) X(kmod_unref) X(kmod_set_log_fn) X(kmod_list_next)	\
	X(kmod_module_new_from_name) X(kmod_module_new_from_path)	\
	X(kmod_module_unref) X(kmod_module_unref_list)			\
	X(kmod_module_get_name) X(kmod_module_get_initstate)		\
	X(kmod_module_get_refcnt) X(kmod_module_get_holders)		\
	X(kmod_module_get_module) X(kmod_module_insert_module)		\
	X(kmod_module_probe_insert_module) X(kmod_module_remove_module)

#define KMOD_DL_DECLARE(f) extern __typeof__(f) *sym_##f;
KMOD_DL_SYMS(KMOD_DL_DECLARE)
#undef KMOD_DL_DECLARE

/* 0, or -1 after saying why libkmod cannot be used */
int kmod_dl_open(void);

#endif
