// SPDX-License-Identifier: GPL-2.0
/*
 * switchctl: command-line tool for pciesw virtual PCIe switch cards.
 *
 * This file holds the grammar: global options, the command table with its
 * help texts, and dispatch.  The commands themselves live in cmd_*.c.
 *
 *   switchctl [OPTIONS] [OBJECT] COMMAND [ARGS]
 */

#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/pciesw.h>

#include "cmd.h"
#include "print.h"
#include "util.h"

#ifndef SWITCHCTL_VERSION
#define SWITCHCTL_VERSION "unknown"
#endif

struct command {
	const char *object;	/* NULL for a top-level command */
	const char *name;
	const char *args;	/* argument synopsis */
	const char *summary;	/* one line for the command list */
	const char *help;	/* the rest of "COMMAND --help" */
	int (*run)(int argc, char **argv);
};

static const char switch_arg_help[] =
	"SWITCH is a switch name (pciesw0) or number (0), 0-255.\n";

static const struct command commands[] = {
	{
		.name = "list",
		.summary = "one line per switch: profile, lanes, serial",
		.help = "With -j: an array of objects with the switch-get attributes\n"
			"switch-id, switch-name, switch-profile, switch-lanes,\n"
			"switch-serial, switch-nr-ports.\n",
		.run = cmd_list,
	},
	{
		.name = "show",
		.args = "[SWITCH]",
		.summary = "details of switches and their lane groups",
		.help = "Prints the switch (all switch-get attributes) and its lane\n"
			"groups: name, type, lanes, bifurcation config and the allowed\n"
			"configs.\n"
			"With -j: an object with the switch-* attributes and \"groups\",\n"
			"an array of objects with the group-* attributes; without\n"
			"SWITCH, an array of such objects.\n",
		.run = cmd_show,
	},
	{
		.name = "status",
		.args = "[SWITCH]",
		.summary = "one line per port: link, LTSSM, speed, width",
		.help = "Columns: port id, lane group, role, lanes, width (configured/\n"
			"negotiated, \"-\" while the link is down), negotiated, target and\n"
			"maximum speed, LTSSM state, link (Data Link Layer active), ACS\n"
			"P2P request redirect (downstream ports), degraded (negotiated\n"
			"width below what both ends can do).\n"
			"With -j: {\"switch\": NAME, \"ports\": [...]} where each port has\n"
			"the port-get attributes (enums as their spec names, e.g.\n"
			"\"port-ltssm\": \"l0\", \"port-speed\": \"gen5\"; flags as true/false);\n"
			"without SWITCH, an array of such objects.\n",
		.run = cmd_status,
	},
	{
		.object = "switch",
		.name = "add",
		.args = "ID [PROFILE]",
		.summary = "create switch ID (needs CAP_NET_ADMIN)",
		.help = "ID is a number (3) or name (pciesw3), 0-255.  PROFILE names a\n"
			"card model known to the module; without it the module's default\n"
			"(pex89048, the 48-lane card) is used.\n",
		.run = cmd_switch_add,
	},
	{
		.object = "switch",
		.name = "del",
		.args = "ID",
		.summary = "delete switch ID (needs CAP_NET_ADMIN)",
		.help = "ID is a number (3) or name (pciesw3), 0-255.\n",
		.run = cmd_switch_del,
	},
	{
		.name = "load",
		.args = "[--switches N] [PATH]",
		.summary = "load the module (installed, or the file PATH)",
		.help = "Without PATH, loads the installed module like modprobe would;\n"
			"with PATH, inserts that pciesw.ko.\n"
			"  --switches N   create switches pciesw0..N-1 (0-256; module\n"
			"                 parameter nr_switches, default 1)\n"
			"Needs CAP_SYS_MODULE.  Fails if the module is already loaded.\n",
		.run = cmd_load,
	},
	{
		.name = "unload",
		.summary = "unload the pciesw module",
		.help = "Fails while the module is in use (e.g. /dev/pcieswN open).\n"
			"Needs CAP_SYS_MODULE.\n",
		.run = cmd_unload,
	},
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const char exit_help[] =
	"Exit status:\n"
	"  0  success\n"
	"  1  the operation failed (kernel refused it, no such object, permission)\n"
	"  2  usage error\n"
	"  3  the pciesw module is not loaded (no \"pciesw\" netlink family)\n";

static void print_synopsis(FILE *f, const struct command *c)
{
	char *s = xasprintf("%s%s%s%s%s", c->object ? c->object : "",
			    c->object ? " " : "", c->name,
			    c->args ? " " : "", c->args ? c->args : "");

	fprintf(f, "  %-28s %s\n", s, c->summary);
	free(s);
}

static void main_help(void)
{
	size_t i;

	printf("Usage: switchctl [OPTIONS] COMMAND [ARGS]\n"
	       "       switchctl [OPTIONS] OBJECT COMMAND [ARGS]\n"
	       "       switchctl [OBJECT] [COMMAND] --help\n"
	       "\n"
	       "Manage pciesw virtual PCIe switch cards through the \"%s\" generic\n"
	       "netlink family.\n"
	       "\n"
	       "Commands:\n", PCIESW_FAMILY_NAME);
	for (i = 0; i < NR_COMMANDS; i++)
		print_synopsis(stdout, &commands[i]);
	printf("  %-28s %s\n", "help [OBJECT] [COMMAND]",
	       "this help, or a command's");
	printf("\n%s"
	       "\n"
	       "Options (before the command):\n"
	       "  -j, --json      JSON output; keys are the attribute names of the\n"
	       "                  netlink spec (Documentation/netlink/specs/pciesw.yaml)\n"
	       "  -p, --pretty    indented JSON (implies --json)\n"
	       "  -h, --help      this help\n"
	       "  -V, --version   print the version\n"
	       "\n%s", switch_arg_help, exit_help);
}

static void command_help(const struct command *c)
{
	printf("Usage: switchctl [OPTIONS] %s%s%s%s%s\n\n%c%s.\n",
	       c->object ? c->object : "", c->object ? " " : "", c->name,
	       c->args ? " " : "", c->args ? c->args : "",
	       toupper((unsigned char)c->summary[0]), c->summary + 1);
	if (c->help)
		printf("\n%s", c->help);
	if (c->args && strstr(c->args, "SWITCH"))
		printf("\n%s", switch_arg_help);
	printf("\n%s", exit_help);
}

static bool is_object(const char *word)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (commands[i].object && !strcmp(commands[i].object, word))
			return true;
	return false;
}

static void object_help(const char *object)
{
	size_t i;

	printf("Usage: switchctl [OPTIONS] %s COMMAND [ARGS]\n\nCommands:\n",
	       object);
	for (i = 0; i < NR_COMMANDS; i++)
		if (commands[i].object && !strcmp(commands[i].object, object))
			print_synopsis(stdout, &commands[i]);
	printf("\nswitchctl %s COMMAND --help shows a command's help.\n\n%s",
	       object, exit_help);
}

static const struct command *find_command(const char *object,
					  const char *name)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++) {
		const struct command *c = &commands[i];

		if (!!c->object != !!object ||
		    (object && strcmp(c->object, object)))
			continue;
		if (!strcmp(c->name, name))
			return c;
	}
	return NULL;
}

static bool is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

/*
 * Global options after the command would be taken for its arguments; say
 * where they go instead of "invalid switch \"-j\"".
 */
static int misplaced_option(int argc, char **argv)
{
	static const char *const long_global[] = {
		"--json", "--pretty", "--version",
	};
	const char *a;
	size_t g;
	int i;

	for (i = 0; i < argc && strcmp(argv[i], "--"); i++) {
		a = argv[i];
		/* -j, -p, -V and bundles of them such as -jp */
		if (a[0] == '-' && a[1] && a[1] != '-' &&
		    strspn(a + 1, "jpV") == strlen(a + 1))
			goto misplaced;
		for (g = 0; g < sizeof(long_global) / sizeof(long_global[0]); g++)
			if (!strcmp(a, long_global[g]))
				goto misplaced;
	}
	return EXIT_OK;
misplaced:
	return usage_error("option \"%s\" goes before the command", a);
}

/* --help anywhere among a command's arguments (before "--") asks for help. */
static bool wants_help(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc && strcmp(argv[i], "--"); i++)
		if (is_help(argv[i]))
			return true;
	return false;
}

static int finish_help(void)
{
	if (fflush(stdout) || ferror(stdout)) {
		error("cannot write the output");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/*
 * The command named by argv[0..] ("COMMAND" or "OBJECT COMMAND"), and in
 * *used how many words that took.  For "OBJECT" alone or "OBJECT --help"
 * returns NULL with *ret = EXIT_OK: the caller shows the object's help.
 * Otherwise NULL means a usage error, already printed, exit code in *ret.
 */
static const struct command *lookup(int argc, char **argv, int *used,
				    int *ret)
{
	const struct command *c;

	*ret = EXIT_OK;
	if (!is_object(argv[0])) {
		*used = 1;
		c = find_command(NULL, argv[0]);
		if (!c)
			*ret = usage_error("unknown command \"%s\"", argv[0]);
		return c;
	}
	usage_context(argv[0]);
	*used = 2;
	if (argc < 2 || is_help(argv[1])) {
		*used = 1;
		return NULL;
	}
	c = find_command(argv[0], argv[1]);
	if (!c)
		*ret = usage_error("unknown command \"%s %s\"", argv[0],
				   argv[1]);
	return c;
}

/* "help [OBJECT] [COMMAND]" */
static int cmd_help(int argc, char **argv)
{
	const struct command *c;
	int used, ret;

	if (!argc || (argc == 1 && is_help(argv[0]))) {
		main_help();
		return finish_help();
	}
	c = lookup(argc, argv, &used, &ret);
	if (ret)
		return ret;
	if (argc > used && !is_help(argv[used]))
		return usage_error("too many arguments: \"%s\"", argv[used]);
	if (c)
		command_help(c);
	else
		object_help(argv[0]);
	return finish_help();
}

int main(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	bool json = false, pretty = false;
	const struct command *c;
	char *context;
	int opt, used, ret;

	/* getopt's own messages would not match ours: ':' and opterr = 0 */
	opterr = 0;
	/* '+': options end at the command, whose arguments are its own */
	while ((opt = getopt_long(argc, argv, "+:jphV", long_opts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'p':
			json = pretty = true;
			break;
		case 'h':
			main_help();
			return finish_help();
		case 'V':
			printf("switchctl %s (netlink family %s version %d)\n",
			       SWITCHCTL_VERSION, PCIESW_FAMILY_NAME,
			       PCIESW_FAMILY_VERSION);
			return finish_help();
		default:
			if (optopt)
				return usage_error("unknown option \"-%c\"",
						   optopt);
			return usage_error("unknown option \"%s\"",
					   argv[optind - 1]);
		}
	}
	argc -= optind;
	argv += optind;
	if (!argc)
		return usage_error("missing command");
	print_init(json, pretty);

	if (!strcmp(argv[0], "help"))
		return cmd_help(argc - 1, argv + 1);

	c = lookup(argc, argv, &used, &ret);
	if (!c) {
		if (ret)
			return ret;
		/* "switch" alone is a usage error, "switch --help" is not */
		if (argc < 2)
			return usage_error("missing command after \"%s\"",
					   argv[0]);
		object_help(argv[0]);
		return finish_help();
	}
	if (wants_help(argc - used, argv + used)) {
		command_help(c);
		return finish_help();
	}
	/* usage errors of the command point to the command's --help */
	context = c->object ? xasprintf("%s %s", c->object, c->name) :
			      xstrdup(c->name);
	usage_context(context);
	ret = misplaced_option(argc - used, argv + used);
	if (!ret)
		ret = c->run(argc - used, argv + used);
	usage_context(NULL);
	free(context);
	return ret;
}
