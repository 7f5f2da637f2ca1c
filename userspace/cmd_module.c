// SPDX-License-Identifier: GPL-2.0
/*
 * load / unload the pciesw module through libkmod, the library modprobe and
 * rmmod use (opened on first use, kmod_dl.h): by name it resolves
 * dependencies and modprobe.d options like modprobe would; with a path it
 * inserts that file (a freshly built module that is not installed).
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include <linux/pciesw.h>

#include "cmd.h"
#include "kmod_dl.h"
#include "util.h"

#define MODULE_NAME "pciesw"

/* libkmod logs its own errors to stderr; switchctl says what went wrong. */
static void quiet_log(void *data, int priority, const char *file, int line,
		      const char *fn, const char *format, va_list args)
{
	(void)data, (void)priority, (void)file, (void)line, (void)fn;
	(void)format, (void)args;
}

static struct kmod_ctx *kmod_open(void)
{
	struct kmod_ctx *ctx;

	if (kmod_dl_open())
		return NULL;
	ctx = sym_kmod_new(NULL, NULL);
	if (!ctx) {
		error("cannot initialize libkmod");
		return NULL;
	}
	sym_kmod_set_log_fn(ctx, quiet_log, NULL);
	return ctx;
}

/* The module's state in the kernel, or -ENOENT when it is not loaded. */
static int module_state(const struct kmod_module *mod)
{
	return sym_kmod_module_get_initstate(mod);
}

static int load_error(int err, const char *path)
{
	switch (err) {
	case EEXIST:
		error("module %s is already loaded", MODULE_NAME);
		break;
	case EPERM:
		error("operation not permitted (need CAP_SYS_MODULE, and module loading enabled)");
		break;
	case ENOENT:
		if (path)
			error("cannot load %s: %s", path, strerror(err));
		else
			error("module %s not found for the running kernel; give the path to %s.ko",
			      MODULE_NAME, MODULE_NAME);
		break;
	case ENOEXEC:
		error("cannot load %s: invalid module format (built for another kernel?)",
		      path ? path : MODULE_NAME);
		break;
	case EINVAL:
		error("cannot load %s: %s (see the kernel log)",
		      path ? path : MODULE_NAME, strerror(err));
		break;
	default:
		error("cannot load %s: %s", path ? path : MODULE_NAME,
		      strerror(err));
		break;
	}
	return EXIT_FAIL;
}

int cmd_load(int argc, char **argv)
{
	struct kmod_module *mod = NULL;
	struct kmod_ctx *ctx;
	const char *path = NULL, *val;
	bool opts_done = false, have_n = false;
	char *options = NULL;
	unsigned long n = 0;
	int i, err, ret;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!opts_done && !strcmp(a, "--")) {
			opts_done = true;
			continue;
		}
		if (!opts_done && !strncmp(a, "--switches", 10) &&
		    (a[10] == '\0' || a[10] == '=')) {
			if (a[10] == '=')
				val = a + 11;
			else if (i + 1 < argc)
				val = argv[++i];
			else
				return usage_error("--switches needs a number");
			if (have_n)
				return usage_error("--switches given twice");
			if (!parse_uint(val, PCIESW_MAX_SWITCH_ID + 1, &n))
				return usage_error("invalid number of switches \"%s\": 0 to %u",
						   val, PCIESW_MAX_SWITCH_ID + 1);
			have_n = true;
			continue;
		}
		if (!opts_done && a[0] == '-' && a[1])
			return usage_error("unknown option \"%s\"", a);
		if (path)
			return usage_error("too many arguments: \"%s\"", a);
		path = a;
	}

	ctx = kmod_open();
	if (!ctx)
		return EXIT_FAIL;
	if (path) {
		err = sym_kmod_module_new_from_path(ctx, path, &mod);
		if (err < 0) {
			ret = load_error(-err, path);
			goto out;
		}
		/* the name comes from the file name: it must be pciesw.ko */
		if (strcmp(sym_kmod_module_get_name(mod), MODULE_NAME)) {
			ret = usage_error("%s is not %s.ko", path, MODULE_NAME);
			goto out;
		}
	} else {
		err = sym_kmod_module_new_from_name(ctx, MODULE_NAME, &mod);
		if (err < 0) {
			ret = load_error(-err, NULL);
			goto out;
		}
	}
	if (module_state(mod) >= 0) {
		ret = load_error(EEXIST, path);
		goto out;
	}

	if (have_n)
		options = xasprintf("nr_switches=%lu", n);
	if (path)
		err = sym_kmod_module_insert_module(mod, 0, options);
	else
		err = sym_kmod_module_probe_insert_module(mod,
						      KMOD_PROBE_FAIL_ON_LOADED,
						      options, NULL, NULL,
						      NULL);
	/* > 0 only for blacklist flags, which are not used: treat as failure */
	ret = err ? load_error(err < 0 ? -err : EINVAL, path) : EXIT_OK;
out:
	free(options);
	sym_kmod_module_unref(mod);
	sym_kmod_unref(ctx);
	return ret;
}

const char load_help[] =
	"Without PATH, loads the installed module like modprobe would;\n"
	"with PATH, inserts that pciesw.ko.\n"
	"  --switches N   create switches pciesw0..N-1 (0-256; module\n"
	"                 parameter nr_switches, default 1)\n"
	"Needs CAP_SYS_MODULE.  Fails if the module is already loaded.\n";

/* Modules that depend on pciesw, as "a, b" for the message; NULL if none. */
static char *holders_text(const struct kmod_module *mod)
{
	struct kmod_list *holders = sym_kmod_module_get_holders(mod), *l;
	char *text = NULL, *more;

	for (l = holders; l; l = sym_kmod_list_next(holders, l)) {
		struct kmod_module *h = sym_kmod_module_get_module(l);

		more = xasprintf("%s%s%s", text ? text : "", text ? ", " : "",
				 sym_kmod_module_get_name(h));
		free(text);
		text = more;
		sym_kmod_module_unref(h);
	}
	sym_kmod_module_unref_list(holders);
	return text;
}

int cmd_unload(int argc, char **argv)
{
	struct kmod_module *mod = NULL;
	struct kmod_ctx *ctx;
	char *holders;
	int err, ret = EXIT_FAIL, state;

	if (argc && argv[0][0] == '-' && argv[0][1])
		return usage_error("unknown option \"%s\"", argv[0]);
	if (argc)
		return usage_error("too many arguments: \"%s\"", argv[0]);
	ctx = kmod_open();
	if (!ctx)
		return EXIT_FAIL;
	err = sym_kmod_module_new_from_name(ctx, MODULE_NAME, &mod);
	if (err < 0) {
		error("cannot unload %s: %s", MODULE_NAME, strerror(-err));
		goto out;
	}

	state = module_state(mod);
	if (state < 0) {
		error("module %s is not loaded", MODULE_NAME);
		ret = EXIT_NOMODULE;
		goto out;
	}
	if (state == KMOD_MODULE_BUILTIN) {
		error("module %s is built into the kernel", MODULE_NAME);
		goto out;
	}
	/* say who holds it, rather than the kernel's bare EWOULDBLOCK */
	holders = holders_text(mod);
	if (holders) {
		error("module %s is in use by %s", MODULE_NAME, holders);
		free(holders);
		goto out;
	}
	if (sym_kmod_module_get_refcnt(mod) > 0) {
		error("module %s is in use", MODULE_NAME);
		goto out;
	}

	err = sym_kmod_module_remove_module(mod, 0);
	switch (-err) {
	case 0:
		ret = EXIT_OK;
		break;
	case EBUSY:
	case EAGAIN:
		error("module %s is in use", MODULE_NAME);
		break;
	case EPERM:
		error("operation not permitted (need CAP_SYS_MODULE)");
		break;
	case ENOENT:
		error("module %s is not loaded", MODULE_NAME);
		ret = EXIT_NOMODULE;
		break;
	default:
		error("cannot unload %s: %s", MODULE_NAME, strerror(-err));
		break;
	}
out:
	sym_kmod_module_unref(mod);
	sym_kmod_unref(ctx);
	return ret;
}

const char unload_help[] =
	"Fails while the module is in use (e.g. /dev/pcieswN open).\n"
	"Needs CAP_SYS_MODULE.\n";
