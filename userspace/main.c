// SPDX-License-Identifier: GPL-2.0
/*
 * switchctl: command-line tool for pciesw virtual PCIe switch cards.
 *
 * This file holds the grammar: global options, the command table, the
 * help around the commands', and dispatch.  Each command's handler and
 * help text live in a cmd_*.c, the text next to the handler (cmd.h).
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
#include "objs.h"
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
	bool own_options;	/* takes -j/-p after the command too */
	/*
	 * The object's default: "OBJECT [ARGS]" runs it when ARGS do not
	 * begin with one of the object's commands ("errors pciesw0").
	 */
	bool dflt;
	int (*run)(int argc, char **argv);
};

static const char switch_arg_help[] =
	"SWITCH is a switch name (pciesw0) or number (0), 0-255.\n";

/*
 * Every command, in the order of "switchctl --help": its words, synopsis
 * and summary here, its handler and help text (NAME_help) in its cmd_*.c.
 */
static const struct command commands[] = {
	{
		.name = "list",
		.summary = "one line per switch: profile, lanes, serial",
		.help = list_help,
		.run = cmd_list,
	},
	{
		.name = "show",
		.args = "[SWITCH]",
		.summary = "details of switches and their lane groups",
		.help = show_help,
		.run = cmd_show,
	},
	{
		.name = "status",
		.args = "[SWITCH]",
		.summary = "one line per port: link, speed, width, endpoint",
		.help = status_help,
		.run = cmd_status,
	},
	{
		.object = "lanes",
		.name = "show",
		.args = "[SWITCH]",
		.summary = "lane groups: bifurcation, allowed configs, ports",
		.help = lanes_show_help,
		.dflt = true,
		.run = cmd_lanes_show,
	},
	{
		.object = "lanes",
		.name = "set",
		.args = "SWITCH GROUP CONFIG",
		.summary = "re-bifurcate a lane group (needs CAP_NET_ADMIN)",
		.help = lanes_set_help,
		.run = cmd_lanes_set,
	},
	{
		.object = "port",
		.name = "show",
		.args = "SWITCH [PORT]",
		.summary = "ports in detail, with their LTSSM history",
		.help = port_show_help,
		.dflt = true,
		.run = cmd_port_show,
	},
	{
		.object = "port",
		.name = "set",
		.args = "SWITCH PORT SETTING...",
		.summary = "change a port's link (needs CAP_NET_ADMIN; faults CAP_SYS_ADMIN)",
		.help = port_set_help,
		.run = cmd_port_set,
	},
	{
		.object = "ep",
		.name = "list",
		.args = "[SWITCH]",
		.summary = "one line per endpoint: type, port, limits",
		.help = ep_list_help,
		.dflt = true,
		.run = cmd_ep_list,
	},
	{
		.object = "ep",
		.name = "show",
		.args = "SWITCH EP",
		.summary = "an endpoint in detail",
		.help = ep_show_help,
		.run = cmd_ep_show,
	},
	{
		.object = "ep",
		.name = "add",
		.args = "SWITCH PORT TYPE [OPTION]...",
		.summary = "hot-plug an endpoint (needs CAP_SYS_ADMIN)",
		.help = ep_add_help,
		.run = cmd_ep_add,
	},
	{
		.object = "ep",
		.name = "del",
		.args = "SWITCH EP",
		.summary = "hot-unplug an endpoint (needs CAP_NET_ADMIN)",
		.help = ep_del_help,
		.run = cmd_ep_del,
	},
	{
		.object = "ep",
		.name = "discard",
		.args = "SWITCH EP [offset BYTES] [size BYTES]",
		.summary = "free a range of an endpoint's memory window",
		.help = ep_discard_help,
		.run = cmd_ep_discard,
	},
	{
		.name = "temp",
		.args = "[SWITCH] [-v]",
		.summary = "temperatures of the on-die sensors, limits, alarms",
		.help = temp_help,
		.run = cmd_temp,
	},
	{
		.object = "errors",
		.name = "show",
		.args = "[SWITCH [PORT]] [--all] [--clear]",
		.summary = "error counters of the ports (the default)",
		.help = errors_show_help,
		.dflt = true,
		.run = cmd_errors_show,
	},
	{
		.object = "errors",
		.name = "clear",
		.args = "SWITCH [PORT]",
		.summary = "zero counters (needs CAP_NET_ADMIN)",
		.help = errors_clear_help,
		.run = cmd_errors_clear,
	},
	{
		.object = "errors",
		.name = "threshold",
		.args = "SWITCH [PORT] COUNTER VALUE",
		.summary = "set a counter threshold (needs CAP_NET_ADMIN)",
		.help = errors_threshold_help,
		.run = cmd_errors_threshold,
	},
	{
		.object = "errors",
		.name = "thresholds",
		.args = "[SWITCH]",
		.summary = "the counter thresholds set",
		.help = errors_thresholds_help,
		.run = cmd_errors_thresholds,
	},
	{
		.name = "bw",
		.args = "[SWITCH] [--interval S]",
		.summary = "traffic per port: bytes/s and TLPs/s in and out",
		.help = bw_help,
		.run = cmd_bw,
	},
	{
		.name = "inject",
		.args = "SWITCH PORT|EP|temp FAULT...",
		.summary = "fault injection (needs CAP_SYS_ADMIN)",
		.help = inject_help,
		.run = cmd_inject,
	},
	{
		.object = "vpd",
		.name = "show",
		.args = "[SWITCH] [--raw]",
		.summary = "the card's Vital Product Data, decoded (needs CAP_SYS_ADMIN)",
		.help = vpd_show_help,
		.dflt = true,
		.run = cmd_vpd_show,
	},
	{
		.object = "vpd",
		.name = "set",
		.args = "SWITCH FIELD TEXT",
		.summary = "change a VPD-W field (needs CAP_NET_ADMIN)",
		.help = vpd_set_help,
		.run = cmd_vpd_set,
	},
	{
		.object = "fw",
		.name = "show",
		.args = "[SWITCH]",
		.summary = "the firmware that runs and the two partitions",
		.help = fw_show_help,
		.dflt = true,
		.run = cmd_fw_show,
	},
	{
		.object = "fw",
		.name = "toggle",
		.args = "SWITCH",
		.summary = "boot the other firmware partition (needs CAP_NET_ADMIN)",
		.help = fw_toggle_help,
		.run = cmd_fw_toggle,
	},
	{
		.object = "fw",
		.name = "image",
		.args = "--version X.Y.Z [--part P] [--size N] [--build-time T] -o FILE",
		.summary = "build a firmware image for devlink dev flash",
		.help = fw_image_help,
		/* its --version is the image's, not switchctl's */
		.own_options = true,
		.run = cmd_fw_image,
	},
	{
		.object = "log",
		.name = "show",
		.args = "[SWITCH] [--since T] [-j]",
		.summary = "the event log: the last 256 events of each switch",
		.help = log_show_help,
		.own_options = true,
		.dflt = true,
		.run = cmd_log_show,
	},
	{
		.object = "log",
		.name = "clear",
		.args = "SWITCH",
		.summary = "empty the event log (needs CAP_NET_ADMIN)",
		.help = log_clear_help,
		.run = cmd_log_clear,
	},
	{
		.object = "p2p",
		.name = "check",
		.args = "SWITCH EP_A EP_B [-j]",
		.summary = "how DMA between two endpoints travels, and why",
		.help = p2p_check_help,
		.own_options = true,
		.run = cmd_p2p_check,
	},
	{
		.object = "dma",
		.name = "copy",
		.args = "SWITCH SRC DST --size N [-j]",
		.summary = "one DMA transfer through /dev/pcieswN",
		.help = dma_copy_help,
		.own_options = true,
		.run = cmd_dma_copy,
	},
	{
		.object = "dma",
		.name = "bench",
		.args = "SWITCH SRC DST --size N [OPTION]... [-j]",
		.summary = "DMA throughput: blocks in flight over channels",
		.help = dma_bench_help,
		.own_options = true,
		.run = cmd_dma_bench,
	},
	{
		.object = "gds",
		.name = "check",
		.args = "[SWITCH] [-j]",
		.summary = "which drive/GPU pairs a file read goes peer-to-peer between",
		.help = gds_check_help,
		.own_options = true,
		.run = cmd_gds_check,
	},
	{
		.object = "gds",
		.name = "read",
		.args = "FILE GPU[:OFFSET] [--size N] [-j]",
		.summary = "one O_DIRECT read of a file into a GPU's window",
		.help = gds_read_help,
		.own_options = true,
		.run = cmd_gds_read,
	},
	{
		.object = "gds",
		.name = "write",
		.args = "GPU[:OFFSET] FILE --size N [-j]",
		.summary = "one O_DIRECT write of a GPU's window into a file",
		.help = gds_write_help,
		.own_options = true,
		.run = cmd_gds_write,
	},
	{
		.object = "gds",
		.name = "bench",
		.args = "FILE GPU [--block B] [--depth Q] [--threads T] [--bounce] [-j]",
		.summary = "GDS throughput: a file into a GPU, blocks in flight",
		.help = gds_bench_help,
		.own_options = true,
		.run = cmd_gds_bench,
	},
	{
		.name = "monitor",
		.args = "[SWITCH] [EVENT...] [-j] [-p] [-t]",
		.summary = "print events as they happen, until interrupted",
		.help = monitor_help,
		.own_options = true,
		.run = cmd_monitor,
	},
	{
		.name = "top",
		.args = "[SWITCH] [-d SECONDS] [-b] [-n COUNT] [-j]",
		.summary = "the cards' health live, full screen (or -b batch)",
		.help = top_help,
		.own_options = true,
		.run = cmd_top,
	},
	{
		.object = "switch",
		.name = "add",
		.args = "ID [PROFILE]",
		.summary = "create switch ID (needs CAP_SYS_ADMIN)",
		.help = switch_add_help,
		.run = cmd_switch_add,
	},
	{
		.object = "switch",
		.name = "del",
		.args = "ID",
		.summary = "delete switch ID (needs CAP_SYS_ADMIN)",
		.help = switch_del_help,
		.run = cmd_switch_del,
	},
	{
		.object = "switch",
		.name = "show",
		.args = "[SWITCH]",
		.summary = "the same as show: a switch, its settings, lane groups",
		.help = show_help,
		.dflt = true,
		.run = cmd_show,
	},
	{
		.object = "switch",
		.name = "set",
		.args = "SWITCH SETTING...",
		.summary = "change a switch's settings (needs CAP_NET_ADMIN; pci-view CAP_SYS_ADMIN)",
		.help = switch_set_help,
		.run = cmd_switch_set,
	},
	{
		.name = "export",
		.args = "[SWITCH] [--textfile DIR]",
		.summary = "metrics in the Prometheus text format (needs CAP_SYS_ADMIN)",
		.help = export_help,
		.run = cmd_export,
	},
	{
		.name = "verify",
		.args = "FILE | --dump [SWITCH]",
		.summary = "check the cards against an as-built description (needs CAP_SYS_ADMIN)",
		.help = verify_help,
		.own_options = true,
		.run = cmd_verify,
	},
	{
		.name = "load",
		.args = "[--switches N] [PATH]",
		.summary = "load the module (installed, or the file PATH)",
		.help = load_help,
		.run = cmd_load,
	},
	{
		.name = "unload",
		.summary = "unload the pciesw module",
		.help = unload_help,
		.run = cmd_unload,
	},
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const char exit_help[] =
	"Exit status:\n"
	"  0  success\n"
	"  1  the operation failed (kernel refused it, no such object, permission)\n"
	"  2  usage error (verify: also an invalid FILE)\n"
	"  3  the pciesw module is not loaded (no \"pciesw\" netlink family),\n"
	"     or (monitor) it was unloaded\n";

/* The command column of the command lists */
#define SYNOPSIS_WIDTH 29

static void print_synopsis(FILE *f, const struct command *c)
{
	char *s = xasprintf("%s%s%s%s%s", c->object ? c->object : "",
			    c->object ? " " : "", c->name,
			    c->args ? " " : "", c->args ? c->args : "");

	/* a synopsis too long for the column puts the summary below it */
	if (strlen(s) > SYNOPSIS_WIDTH)
		fprintf(f, "  %s\n  %-*s %s\n", s, SYNOPSIS_WIDTH, "",
			c->summary);
	else
		fprintf(f, "  %-*s %s\n", SYNOPSIS_WIDTH, s, c->summary);
	free(s);
}

static void main_help(void)
{
	size_t i;

	printf("Usage: switchctl [OPTIONS] COMMAND [ARGS]\n"
	       "       switchctl [OPTIONS] OBJECT COMMAND [ARGS]\n"
	       "       switchctl [OBJECT] [COMMAND] --help\n"
	       "\n"
	       "Objects and commands may be shortened to a unique prefix (port sh);\n"
	       "an object alone, or followed by SWITCH, shows or lists (port\n"
	       "pciesw0 = port show pciesw0).  Options take --opt=value as well\n"
	       "as --opt value; \"--\" ends the options.  JSON (-j) is an object\n"
	       "for one switch, an array of such objects for all switches.\n"
	       "Errors the kernel reports keep the command's context and name the\n"
	       "attribute (its spec name): \"error: cannot set switch 0: switch-mps:\n"
	       "MPS must be a power of 2 ...\"; a number outside the range of the\n"
	       "kernel's policy or the spec gets the range: \"ATTR: 0 is out of\n"
	       "range 1-16\".\n"
	       "\n"
	       "Manage pciesw virtual PCIe switch cards through the \"%s\" generic\n"
	       "netlink family.\n"
	       "\n"
	       "Commands:\n", PCIESW_FAMILY_NAME);
	for (i = 0; i < NR_COMMANDS; i++)
		print_synopsis(stdout, &commands[i]);
	printf("  %-*s %s\n", SYNOPSIS_WIDTH, "help [OBJECT] [COMMAND]",
	       "this help, or a command's");
	printf("\n%s"
	       "\n"
	       "Options (before the command, or after it as in iproute2):\n"
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

static bool is_object(const char *word);

static void object_help(const char *object)
{
	const struct command *dflt = NULL;
	size_t i;

	printf("Usage: switchctl [OPTIONS] %s COMMAND [ARGS]\n\nCommands:\n",
	       object);
	for (i = 0; i < NR_COMMANDS; i++) {
		if (!commands[i].object || strcmp(commands[i].object, object))
			continue;
		print_synopsis(stdout, &commands[i]);
		if (commands[i].dflt)
			dflt = &commands[i];
	}
	if (dflt)
		printf("\nWithout COMMAND: %s %s.\n", object, dflt->name);
	printf("\nswitchctl %s COMMAND --help shows a command's help.\n\n%s",
	       object, exit_help);
}

static const struct command *default_command(const char *object)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (commands[i].dflt && !strcmp(commands[i].object, object))
			return &commands[i];
	return NULL;
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

/*
 * The word of command @c among the top-level words (@object NULL: its
 * object's, or its own without one) or the commands of @object (its own,
 * NULL for a command of another object).
 */
static const char *command_word(const struct command *c, const char *object)
{
	if (object)
		return c->object && !strcmp(c->object, object) ? c->name : NULL;
	return c->object ? c->object : c->name;
}

/*
 * The word @w, or the one word it is a prefix of (iproute2's "port sh"),
 * among the top-level words (@object NULL: objects and commands without
 * one) or the commands of @object.  An exact match wins.  NULL if there is
 * none; with several, a usage error naming them, *@ret set.
 */
static const char *resolve(const char *object, const char *w, int *ret)
{
	const char *found = NULL, *word;
	char *all = NULL, *next;
	size_t i, len = strlen(w), n = 0;

	*ret = EXIT_OK;
	for (i = 0; i < NR_COMMANDS; i++) {
		word = command_word(&commands[i], object);
		if (word && !strcmp(word, w))
			return word;
	}
	if (!len)
		return NULL;
	for (i = 0; i < NR_COMMANDS; i++) {
		word = command_word(&commands[i], object);
		/* an object's word comes once per command: count it once */
		if (!word || strncmp(word, w, len) ||
		    (found && !strcmp(found, word)) ||
		    (all && strstr(all, word)))
			continue;
		next = xasprintf("%s%s%s", all ? all : "", all ? ", " : "",
				 word);
		free(all);
		all = next;
		if (!found)
			found = word;
		n++;
	}
	if (n > 1) {
		*ret = usage_error("ambiguous command \"%s%s%s\": %s",
				   object ? object : "", object ? " " : "", w,
				   all);
		found = NULL;
	}
	free(all);
	return found;
}

static bool is_object(const char *word)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (commands[i].object && !strcmp(commands[i].object, word))
			return true;
	return false;
}

static bool is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

/*
 * -j, -p (and bundles such as -jp), --json and --pretty after the command
 * (before a "--") are the global options, as iproute2 takes them: taken
 * out of argv[0..*argc), the output set up by them.  -V there is a usage
 * error (it goes before the command).
 */
static int output_options_after(int *argc, char **argv)
{
	bool json = false, pretty = false;
	const char *a;
	int i, n = 0;

	for (i = 0; i < *argc; i++) {
		a = argv[i];
		if (!strcmp(a, "--")) {
			while (i < *argc)
				argv[n++] = argv[i++];
			break;
		}
		if (a[0] == '-' && a[1] && a[1] != '-' &&
		    strspn(a + 1, "jpV") == strlen(a + 1)) {
			if (strchr(a, 'V'))
				return usage_error("option \"%s\" goes before the command",
						   a);
			json = true;
			pretty = pretty || strchr(a, 'p');
			continue;
		}
		if (!strcmp(a, "--json")) {
			json = true;
			continue;
		}
		if (!strcmp(a, "--pretty")) {
			json = pretty = true;
			continue;
		}
		if (!strcmp(a, "--version"))
			return usage_error("option \"%s\" goes before the command",
					   a);
		argv[n++] = argv[i];
	}
	*argc = n;
	output_options(json, pretty);
	return EXIT_OK;
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
 * With @dflt, an object with a default command runs it for "OBJECT" alone
 * and for "OBJECT ARGS" whose ARGS name none of its commands.
 */
static const struct command *lookup(int argc, char **argv, int *used,
				    int *ret, bool dflt)
{
	const struct command *c = NULL, *d;
	const char *word, *sub;

	word = resolve(NULL, argv[0], ret);
	if (!word) {
		if (!*ret)
			*ret = usage_error("unknown command \"%s\"", argv[0]);
		return NULL;
	}
	/* the full word from here on: help texts and messages use it */
	argv[0] = (char *)word;
	if (!is_object(word)) {
		*used = 1;
		return find_command(NULL, word);
	}
	usage_context(word);
	*used = 2;
	d = dflt ? default_command(word) : NULL;
	if (argc >= 2 && !is_help(argv[1])) {
		sub = resolve(word, argv[1], ret);
		if (*ret)
			return NULL;
		if (sub) {
			argv[1] = (char *)sub;
			c = find_command(word, sub);
		}
	}
	if (!c && d && (argc < 2 || !is_help(argv[1]))) {
		*used = 1;
		return d;
	}
	if (argc < 2 || is_help(argv[1])) {
		*used = 1;
		return NULL;
	}
	if (!c)
		*ret = usage_error("unknown command \"%s %s\"", word,
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
	c = lookup(argc, argv, &used, &ret, false);
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

	c = lookup(argc, argv, &used, &ret, true);
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
	argc -= used;
	argv += used;
	ret = c->own_options ? EXIT_OK : output_options_after(&argc, argv);
	if (!ret)
		ret = c->run(argc, argv);
	usage_context(NULL);
	free(context);
	return ret;
}
