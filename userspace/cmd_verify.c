// SPDX-License-Identifier: GPL-2.0
/*
 * switchctl verify: the live cards against an as-built description (JSON,
 * parsed with json-c), one PASS/FAIL line per check; verify --dump writes
 * the description of what is there now.
 *
 *   {
 *     "switches": [ {
 *       "switch": "pciesw0", "profile": "pex89048",
 *       "part-number": "...", "serial": "...", "firmware": "...",
 *       "lanes": { "host": "1x16", "nvme": "4x4" },
 *       "ports": [ { "port": 1, "role": "downstream", "speed": "gen5",
 *                    "width": 16, "pci-name": "ffff:02:01.0",
 *                    "ep": "gpu0", "ep-type": "gpu",
 *                    "ep-pci-name": "ffff:03:00.0" } ]
 *     } ]
 *   }
 *
 * Every key but "switch" and "port" is optional: what is left out is not
 * checked.  "width" and "speed" take tolerances: ">=8", ">=gen4", or the
 * keys "min-width" and "min-speed".  "ep": null expects an empty port.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cmd.h"
#include "names.h"
#include "objprint.h"
#include "objs.h"
#include "print.h"
#include "util.h"

#define FORMAT_NAME	"pciesw-as-built"
#define FORMAT_VERSION	1

struct live {
	struct objs sw, groups, ports, eps, vpd;
};

static void live_free(struct live *l)
{
	objs_free(&l->sw);
	objs_free(&l->groups);
	objs_free(&l->ports);
	objs_free(&l->eps);
	objs_free(&l->vpd);
}

static int live_fetch(const struct target *t, struct live *l)
{
	static const struct objs_part parts[] = {
		{ PCIESW_CMD_GROUP_GET, "lane groups", offsetof(struct live, groups) },
		{ PCIESW_CMD_PORT_GET, "ports", offsetof(struct live, ports) },
		{ PCIESW_CMD_EP_GET, "endpoints", offsetof(struct live, eps) },
		{ PCIESW_CMD_VPD_GET, "VPD", offsetof(struct live, vpd) },
	};
	struct nl_session *s;
	int ret;

	ret = nl_session_open(&s);
	if (ret)
		return ret;
	ret = fetch_with_parts(s, t, &l->sw, l, parts,
			       sizeof(parts) / sizeof(parts[0]));
	nl_session_close(s);
	if (ret)
		live_free(l);
	return ret;
}

static const char *str_or_null(const struct nlattr *a)
{
	return a ? nla_get_string((struct nlattr *)a) : NULL;
}

/* The value of VPD keyword @kw of the VPD reply @i, or NULL. */
struct vpd_find {
	const char *kw;
	const char *value;
};

static void vpd_match(const struct nlattr *nest, void *arg)
{
	struct nlattr *tb[PCIESW_A_MAX + 1];
	struct vpd_find *v = arg;

	if (nl_parse_nest(nest, tb) < 0 || !tb[PCIESW_A_VPD_KEYWORD] ||
	    !tb[PCIESW_A_VPD_VALUE])
		return;
	if (!strcmp(nla_get_string(tb[PCIESW_A_VPD_KEYWORD]), v->kw))
		v->value = nla_get_string(tb[PCIESW_A_VPD_VALUE]);
}

static const char *vpd_value(const struct live *l, struct nlattr **sw,
			     const char *kw)
{
	struct vpd_find v = { .kw = kw };
	size_t i;

	for (i = 0; i < l->vpd.n; i++)
		if (same_switch(l->vpd.tb[i], sw))
			nl_for_each_attr(objs_hdr(&l->vpd, i),
					 PCIESW_A_VPD_FIELD, vpd_match, &v);
	return v.value;
}

static struct nlattr **find_ep(const struct live *l, struct nlattr **port)
{
	size_t i;

	if (!port[PCIESW_A_EP_ID])
		return NULL;
	for (i = 0; i < l->eps.n; i++)
		if (same_switch(l->eps.tb[i], port) && l->eps.tb[i][PCIESW_A_EP_ID] &&
		    nla_get_u32(l->eps.tb[i][PCIESW_A_EP_ID]) ==
		    nla_get_u32(port[PCIESW_A_EP_ID]))
			return l->eps.tb[i];
	return NULL;
}

static const char *enum_attr(const struct nlattr *a,
			     const struct enum_table *t)
{
	return a ? enum_spec(t, nla_get_u32(a)) : NULL;
}

/* --- dump ----------------------------------------------------------------- */

static void add_str(json_object *o, const char *key, const char *v)
{
	json_object_object_add(o, key, v ? json_object_new_string(v) : NULL);
}

static json_object *dump_port(const struct live *l, struct nlattr **p)
{
	json_object *o = json_object_new_object();
	struct nlattr **ep = find_ep(l, p);

	json_object_object_add(o, "port", json_object_new_int64(
		p[PCIESW_A_PORT_ID] ? nla_get_u32(p[PCIESW_A_PORT_ID]) : 0));
	add_str(o, "role", enum_attr(p[PCIESW_A_PORT_ROLE], &port_role_names));
	add_str(o, "speed", enum_attr(p[PCIESW_A_PORT_SPEED],
				      &link_speed_names));
	json_object_object_add(o, "width", json_object_new_int64(
		p[PCIESW_A_PORT_WIDTH] ? nla_get_u32(p[PCIESW_A_PORT_WIDTH]) :
		0));
	if (p[PCIESW_A_PORT_PCI_NAME])
		add_str(o, "pci-name", str_or_null(p[PCIESW_A_PORT_PCI_NAME]));
	add_str(o, "ep", str_or_null(p[PCIESW_A_EP_NAME]));
	if (ep) {
		add_str(o, "ep-type", enum_attr(ep[PCIESW_A_EP_TYPE],
						&ep_type_names));
		if (ep[PCIESW_A_EP_PCI_NAME])
			add_str(o, "ep-pci-name",
				str_or_null(ep[PCIESW_A_EP_PCI_NAME]));
	}
	return o;
}

static json_object *dump_switch(const struct live *l, struct nlattr **sw)
{
	json_object *o = json_object_new_object(), *lanes, *ports;
	size_t i;

	add_str(o, "switch", str_or_null(sw[PCIESW_A_SWITCH_NAME]));
	add_str(o, "profile", str_or_null(sw[PCIESW_A_SWITCH_PROFILE]));
	add_str(o, "part-number", vpd_value(l, sw, "PN"));
	add_str(o, "serial", str_or_null(sw[PCIESW_A_SWITCH_SERIAL]));
	add_str(o, "firmware", vpd_value(l, sw, "V0"));
	lanes = json_object_new_object();
	for (i = 0; i < l->groups.n; i++) {
		struct nlattr **g = l->groups.tb[i];

		if (same_switch(g, sw) && g[PCIESW_A_GROUP_NAME])
			add_str(lanes, nla_get_string(g[PCIESW_A_GROUP_NAME]),
				str_or_null(g[PCIESW_A_GROUP_CONFIG]));
	}
	json_object_object_add(o, "lanes", lanes);
	ports = json_object_new_array();
	for (i = 0; i < l->ports.n; i++)
		if (same_switch(l->ports.tb[i], sw))
			json_object_array_add(ports,
					      dump_port(l, l->ports.tb[i]));
	json_object_object_add(o, "ports", ports);
	return o;
}

static int verify_dump(const struct target *t)
{
	json_object *root, *arr;
	struct live l = { 0 };
	size_t i;
	int ret;

	ret = live_fetch(t, &l);
	if (ret)
		return ret;
	root = json_object_new_object();
	add_str(root, "format", FORMAT_NAME);
	json_object_object_add(root, "version",
			       json_object_new_int(FORMAT_VERSION));
	arr = json_object_new_array();
	for (i = 0; i < l.sw.n; i++)
		json_object_array_add(arr, dump_switch(&l, l.sw.tb[i]));
	json_object_object_add(root, "switches", arr);
	printf("%s\n", json_object_to_json_string_ext(root,
		JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
		JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
	live_free(&l);
	if (fflush(stdout) || ferror(stdout)) {
		error("cannot write the output");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* --- checking --------------------------------------------------------------- */

struct verify {
	const char *file;
	unsigned int passed, failed;
};

/* One check: a PASS/FAIL line, or an object of the "checks" array. */
static void report(struct verify *v, const char *sw, const uint32_t *port,
		   const char *what, const char *expected, const char *found,
		   bool pass)
{
	char where[64];

	if (pass)
		v->passed++;
	else
		v->failed++;
	if (port)
		snprintf(where, sizeof(where), "%s port %u", sw, *port);
	else
		snprintf(where, sizeof(where), "%s", sw);
	open_object(NULL);
	print_string(PRINT_JSON, "result", NULL, pass ? "pass" : "fail");
	print_text("%s %s %s: ", pass ? "PASS" : "FAIL", where, what);
	print_string(PRINT_JSON, "switch", NULL, sw);
	if (port)
		print_uint(PRINT_JSON, "port", NULL, *port);
	else
		print_null(PRINT_JSON, "port", NULL);
	print_string(PRINT_JSON, "check", NULL, what);
	print_string(PRINT_ANY, "expected", "expected %s, ",
		     expected ? expected : "none");
	print_string(PRINT_ANY, "found", "found %s\n", found ? found : "none");
	close_object();
}

/* Bad input: says where in the file, returns EXIT_USAGE. */
static int bad_file(const struct verify *v, const char *where,
		    const char *fmt, const char *arg)
{
	char *msg = xasprintf(fmt, arg);

	error("%s: %s: %s", v->file, where, msg);
	free(msg);
	return EXIT_USAGE;
}

/* The keys an object may have; anything else is a mistake in the file. */
static int known_keys(const struct verify *v, json_object *o,
		      const char *where, const char *const *keys)
{
	json_object_object_foreach(o, key, val) {
		const char *const *k;

		(void)val;
		for (k = keys; *k && strcmp(*k, key); k++)
			;
		if (!*k)
			return bad_file(v, where, "unknown key \"%s\"", key);
	}
	return EXIT_OK;
}

/* A string value, or NULL with an error printed when @o is another type. */
static int want_string(const struct verify *v, json_object *o,
		       const char *where, const char *key, const char **s)
{
	if (!json_object_is_type(o, json_type_string))
		return bad_file(v, where, "\"%s\" must be a string", key);
	*s = json_object_get_string(o);
	return EXIT_OK;
}

/* A string check: the key's value against @found. */
static int check_string(struct verify *v, json_object *spec, const char *where,
			const char *sw, const uint32_t *port, const char *key,
			const char *found)
{
	json_object *o;
	const char *want;

	if (!json_object_object_get_ex(spec, key, &o))
		return EXIT_OK;
	if (!o) {
		report(v, sw, port, key, NULL, found, !found);
		return EXIT_OK;
	}
	if (want_string(v, o, where, key, &want))
		return EXIT_USAGE;
	report(v, sw, port, key, want, found, found && !strcmp(want, found));
	return EXIT_OK;
}

/*
 * A number with a tolerance: N (exactly), ">=N" or, from "min-KEY", at
 * least N.  Speeds are numbers too: their enum values, gen1 .. gen5.
 */
static int parse_bound(const struct verify *v, json_object *o,
		       const char *where, const char *key, bool speed,
		       bool *at_least, uint32_t *val)
{
	const char *s;
	unsigned long n;

	if (!speed && json_object_is_type(o, json_type_int)) {
		int64_t i = json_object_get_int64(o);

		if (i < 0 || i > 16)
			return bad_file(v, where, "\"%s\" must be 0 to 16 lanes",
					key);
		*val = i;
		return EXIT_OK;
	}
	if (!json_object_is_type(o, json_type_string))
		return bad_file(v, where, speed ?
				"\"%s\" must be a speed (gen4, \">=gen4\")" :
				"\"%s\" must be a width (8, \">=8\")", key);
	s = json_object_get_string(o);
	if (!strncmp(s, ">=", 2)) {
		*at_least = true;
		s += 2;
	}
	if (speed ? !enum_parse(&link_speed_names, s, 0, val) :
		    !parse_uint(s, 16, &n))
		return bad_file(v, where, speed ?
				"\"%s\" must be a speed (gen4, \">=gen4\")" :
				"\"%s\" must be a width (8, \">=8\")", key);
	if (!speed)
		*val = n;
	return EXIT_OK;
}

static int check_bound(struct verify *v, json_object *spec, const char *where,
		       const char *sw, uint32_t port, const char *key,
		       bool speed, const struct nlattr *found)
{
	char *min_key = xasprintf("min-%s", key);
	char exp[32], got[32];
	bool at_least = false;
	uint32_t want, have;
	json_object *o;
	int ret = EXIT_OK;

	if (json_object_object_get_ex(spec, min_key, &o)) {
		at_least = true;
		if (json_object_object_get_ex(spec, key, NULL)) {
			ret = bad_file(v, where, "both \"%s\" and its min- form",
				       key);
			goto out;
		}
	} else if (!json_object_object_get_ex(spec, key, &o)) {
		goto out;
	}
	ret = parse_bound(v, o, where, at_least ? min_key : key, speed,
			  &at_least, &want);
	if (ret)
		goto out;
	have = found ? nla_get_u32(found) : 0;
	if (speed) {
		snprintf(exp, sizeof(exp), "%s%s", at_least ? ">=" : "",
			 enum_spec(&link_speed_names, want) ?: "?");
		snprintf(got, sizeof(got), "%s",
			 enum_spec(&link_speed_names, have) ?: "?");
	} else {
		snprintf(exp, sizeof(exp), "%s%u", at_least ? ">=" : "", want);
		snprintf(got, sizeof(got), "%u", have);
	}
	report(v, sw, &port, key, exp, found ? got : NULL,
	       found && (at_least ? have >= want : have == want));
out:
	free(min_key);
	return ret;
}

static const char *const port_keys[] = {
	"port", "role", "speed", "min-speed", "width", "min-width",
	"pci-name", "ep", "ep-type", "ep-pci-name", NULL,
};

static int verify_port(struct verify *v, const struct live *l,
		       struct nlattr **sw, json_object *spec,
		       const char *where)
{
	const char *name = str_or_null(sw[PCIESW_A_SWITCH_NAME]);
	struct nlattr **p = NULL, **ep;
	json_object *o;
	uint32_t id;
	size_t i;
	int ret;

	if (!json_object_is_type(spec, json_type_object))
		return bad_file(v, where, "%s", "a port must be an object");
	ret = known_keys(v, spec, where, port_keys);
	if (ret)
		return ret;
	if (!json_object_object_get_ex(spec, "port", &o) ||
	    !json_object_is_type(o, json_type_int) ||
	    json_object_get_int64(o) < 0 ||
	    json_object_get_int64(o) > UINT32_MAX)
		return bad_file(v, where, "%s",
				"\"port\" (a port number) is required");
	id = json_object_get_int64(o);
	for (i = 0; i < l->ports.n; i++)
		if (same_switch(l->ports.tb[i], sw) &&
		    l->ports.tb[i][PCIESW_A_PORT_ID] &&
		    nla_get_u32(l->ports.tb[i][PCIESW_A_PORT_ID]) == id)
			p = l->ports.tb[i];
	if (!p) {
		report(v, name, &id, "present", "yes", "no", false);
		return EXIT_OK;
	}
	ep = find_ep(l, p);
	ret = check_string(v, spec, where, name, &id, "role",
			   enum_attr(p[PCIESW_A_PORT_ROLE], &port_role_names));
	ret = ret ?: check_bound(v, spec, where, name, id, "speed", true,
				 p[PCIESW_A_PORT_SPEED]);
	ret = ret ?: check_bound(v, spec, where, name, id, "width", false,
				 p[PCIESW_A_PORT_WIDTH]);
	ret = ret ?: check_string(v, spec, where, name, &id, "pci-name",
				  str_or_null(p[PCIESW_A_PORT_PCI_NAME]));
	ret = ret ?: check_string(v, spec, where, name, &id, "ep",
				  str_or_null(p[PCIESW_A_EP_NAME]));
	ret = ret ?: check_string(v, spec, where, name, &id, "ep-type",
				  ep ? enum_attr(ep[PCIESW_A_EP_TYPE],
						 &ep_type_names) : NULL);
	ret = ret ?: check_string(v, spec, where, name, &id, "ep-pci-name",
				  ep ? str_or_null(ep[PCIESW_A_EP_PCI_NAME]) :
				  NULL);
	return ret;
}

static int verify_lanes(struct verify *v, const struct live *l,
			struct nlattr **sw, json_object *lanes,
			const char *where)
{
	const char *name = str_or_null(sw[PCIESW_A_SWITCH_NAME]);
	char *what;
	size_t i;

	if (!json_object_is_type(lanes, json_type_object))
		return bad_file(v, where, "%s",
				"\"lanes\" must be an object: {\"GROUP\": \"NxW\"}");
	json_object_object_foreach(lanes, group, cfg) {
		const char *want, *found = NULL;
		bool known = false;

		if (want_string(v, cfg, where, group, &want))
			return EXIT_USAGE;
		for (i = 0; i < l->groups.n; i++) {
			struct nlattr **g = l->groups.tb[i];

			if (same_switch(g, sw) && g[PCIESW_A_GROUP_NAME] &&
			    !strcmp(nla_get_string(g[PCIESW_A_GROUP_NAME]),
				    group)) {
				known = true;
				found = str_or_null(g[PCIESW_A_GROUP_CONFIG]);
			}
		}
		what = xasprintf("lanes %s", group);
		report(v, name, NULL, what, want, known ? found : "no such group",
		       known && found && !strcmp(want, found));
		free(what);
	}
	return EXIT_OK;
}

static const char *const switch_keys[] = {
	"switch", "profile", "part-number", "serial", "firmware", "lanes",
	"ports", NULL,
};

static int verify_switch(struct verify *v, const struct live *l,
			 json_object *spec, size_t idx)
{
	char *where = xasprintf("switches[%zu]", idx), *pw;
	struct nlattr **sw = NULL;
	json_object *o;
	const char *s;
	uint32_t id;
	size_t i, n;
	int ret;

	if (!json_object_is_type(spec, json_type_object)) {
		ret = bad_file(v, where, "%s", "a switch must be an object");
		goto out;
	}
	ret = known_keys(v, spec, where, switch_keys);
	if (ret)
		goto out;
	if (!json_object_object_get_ex(spec, "switch", &o) ||
	    !json_object_is_type(o, json_type_string) ||
	    !parse_switch_id(json_object_get_string(o), &id)) {
		ret = bad_file(v, where, "%s",
			       "\"switch\" (pciesw<N>) is required");
		goto out;
	}
	s = json_object_get_string(o);
	for (i = 0; i < l->sw.n; i++)
		if (l->sw.tb[i][PCIESW_A_SWITCH_ID] &&
		    nla_get_u32(l->sw.tb[i][PCIESW_A_SWITCH_ID]) == id)
			sw = l->sw.tb[i];
	if (!sw) {
		report(v, s, NULL, "present", "yes", "no", false);
		goto out;
	}
	s = str_or_null(sw[PCIESW_A_SWITCH_NAME]);
	ret = check_string(v, spec, where, s, NULL, "profile",
			   str_or_null(sw[PCIESW_A_SWITCH_PROFILE]));
	ret = ret ?: check_string(v, spec, where, s, NULL, "part-number",
				  vpd_value(l, sw, "PN"));
	ret = ret ?: check_string(v, spec, where, s, NULL, "serial",
				  str_or_null(sw[PCIESW_A_SWITCH_SERIAL]));
	ret = ret ?: check_string(v, spec, where, s, NULL, "firmware",
				  vpd_value(l, sw, "V0"));
	if (!ret && json_object_object_get_ex(spec, "lanes", &o))
		ret = verify_lanes(v, l, sw, o, where);
	if (ret || !json_object_object_get_ex(spec, "ports", &o))
		goto out;
	if (!json_object_is_type(o, json_type_array)) {
		ret = bad_file(v, where, "%s", "\"ports\" must be an array");
		goto out;
	}
	n = json_object_array_length(o);
	for (i = 0; !ret && i < n; i++) {
		pw = xasprintf("%s.ports[%zu]", where, i);
		ret = verify_port(v, l, sw, json_object_array_get_idx(o, i), pw);
		free(pw);
	}
out:
	free(where);
	return ret;
}

/* The whole file, parsed, or NULL with the parser's word on what is wrong. */
static json_object *read_file(const char *file)
{
	struct json_tokener *tok;
	json_object *root = NULL;
	char buf[4096];
	size_t n, line = 1, i;
	FILE *f;

	f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	if (!f) {
		error("cannot open %s: %s", file, strerror(errno));
		return NULL;
	}
	tok = json_tokener_new();
	if (!tok) {
		error("out of memory");
		goto out;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		root = json_tokener_parse_ex(tok, buf, n);
		if (json_tokener_get_error(tok) != json_tokener_continue)
			break;
		for (i = 0; i < n; i++)
			line += buf[i] == '\n';
	}
	if (ferror(f)) {
		error("cannot read %s: %s", file, strerror(errno));
		json_object_put(root);
		root = NULL;
	} else if (json_tokener_get_error(tok) == json_tokener_continue) {
		/* a document that ends early: flush the tokener */
		root = json_tokener_parse_ex(tok, "", -1);
		if (!root)
			error("%s: not valid JSON: unexpected end of file",
			      file);
	} else if (json_tokener_get_error(tok) != json_tokener_success) {
		for (i = 0; i < (size_t)json_tokener_get_parse_end(tok) &&
			    i < n; i++)
			line += buf[i] == '\n';
		error("%s:%zu: not valid JSON: %s", file, line,
		      json_tokener_error_desc(json_tokener_get_error(tok)));
		root = NULL;
	} else if (!root) {
		error("%s: not valid JSON: empty", file);
	}
	json_tokener_free(tok);
out:
	if (f != stdin)
		fclose(f);
	return root;
}

static const char *const root_keys[] = {
	"format", "version", "switches", NULL,
};

static int verify_file(const char *file)
{
	struct verify v = { .file = file };
	struct target t = { .all = true };
	json_object *root, *o;
	struct live l = { 0 };
	size_t i, n;
	int ret;

	root = read_file(file);
	if (!root)
		return EXIT_USAGE;
	if (!json_object_is_type(root, json_type_object)) {
		ret = bad_file(&v, "top level", "%s",
			       "expected an object with \"switches\"");
		goto out;
	}
	ret = known_keys(&v, root, "top level", root_keys);
	if (ret)
		goto out;
	if (json_object_object_get_ex(root, "format", &o) &&
	    (!json_object_is_type(o, json_type_string) ||
	     strcmp(json_object_get_string(o), FORMAT_NAME))) {
		ret = bad_file(&v, "format", "expected \"%s\"", FORMAT_NAME);
		goto out;
	}
	if (json_object_object_get_ex(root, "version", &o) &&
	    (!json_object_is_type(o, json_type_int) ||
	     json_object_get_int(o) != FORMAT_VERSION)) {
		ret = bad_file(&v, "version", "%s", "expected 1");
		goto out;
	}
	if (!json_object_object_get_ex(root, "switches", &o) ||
	    !json_object_is_type(o, json_type_array)) {
		ret = bad_file(&v, "top level", "%s",
			       "\"switches\" (an array) is required");
		goto out;
	}
	ret = live_fetch(&t, &l);
	if (ret)
		goto out;

	/*
	 * Twice: muted first, so that a mistake anywhere in the file is
	 * reported before any check is printed; then for real.
	 */
	n = json_object_array_length(o);
	print_mute(true);
	for (i = 0; !ret && i < n; i++)
		ret = verify_switch(&v, &l, json_object_array_get_idx(o, i), i);
	print_mute(false);
	if (ret) {
		live_free(&l);
		goto out;
	}
	v.passed = v.failed = 0;
	open_object(NULL);
	print_string(PRINT_JSON, "file", NULL, file);
	open_array("checks");
	for (i = 0; !ret && i < n; i++)
		ret = verify_switch(&v, &l, json_object_array_get_idx(o, i), i);
	close_array();
	print_uint(PRINT_JSON, "passed", NULL, v.passed);
	print_uint(PRINT_JSON, "failed", NULL, v.failed);
	print_text("%u passed, %u failed\n", v.passed, v.failed);
	close_object();
	live_free(&l);
	if (!ret && v.failed)
		ret = EXIT_FAIL;
	ret = finish(ret);
out:
	json_object_put(root);
	return ret;
}

int cmd_verify(int argc, char **argv)
{
	bool dump = false, json = false, pretty = false;
	const struct cmd_opt opts[] = {
		{ "--dump", "-d", &dump, NULL },
		JSON_OPTIONS(json, pretty),
		{ NULL, NULL, NULL, NULL },
	};
	struct target t;
	int ret;

	ret = take_options(&argc, argv, opts);
	if (ret)
		return ret;
	output_options(json, pretty);
	if (dump) {
		ret = parse_target(argc, argv, &t);
		return ret ?: verify_dump(&t);
	}
	if (argc < 1)
		return usage_error("missing FILE (or --dump)");
	if (argc > 1)
		return usage_error("too many arguments: \"%s\"", argv[1]);
	return verify_file(argv[0]);
}

const char verify_help[] =
	"Compares the live switches with FILE (\"-\": stdin), a JSON\n"
	"as-built description, and prints one line per check:\n"
	"  PASS pciesw0 port 1 width: expected >=8, found 16\n"
	"  FAIL pciesw0 part-number: expected \"X\", found \"Y\"\n"
	"then \"N passed, M failed\".  Exit 1 if any check failed.\n"
	"  -d, --dump    print the description of the switches now (all,\n"
	"                or SWITCH) in that format, ready to edit\n"
	"  -j, --json    {\"file\", \"checks\": [{result (pass, fail),\n"
	"                switch, port (null: the card), check, expected,\n"
	"                found}], passed, failed}\n"
	"  -p, --pretty  indented JSON\n"
	"FILE: {\"format\": \"pciesw-as-built\", \"version\": 1,\n"
	"\"switches\": [{\"switch\": \"pciesw0\", \"profile\", \"part-number\"\n"
	"(VPD PN), \"serial\", \"firmware\" (VPD V0), \"lanes\": {GROUP:\n"
	"\"NxW\"}, \"ports\": [{\"port\": N, \"role\", \"speed\" (gen1 ..\n"
	"gen5, none while down), \"width\" (lanes, 0 while down),\n"
	"\"pci-name\", \"ep\" (null: no endpoint), \"ep-type\",\n"
	"\"ep-pci-name\"}]}]}.  Only \"switch\" and \"port\" are required;\n"
	"what is left out is not checked.  Tolerances: \"width\": \">=8\",\n"
	"\"speed\": \">=gen4\", or \"min-width\": 8, \"min-speed\": \"gen4\".\n"
	"Unknown keys, wrong types and invalid JSON are errors that\n"
	"name the place in the file (exit 2).\n"
	"Needs CAP_SYS_ADMIN (--dump too): it reads the VPD and the\n"
	"serial numbers, which are root-only.\n";
