#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the netlink spec into C tables for the selftests.

  gen_spec.py SPEC.yaml > pciesw_spec.h

The tests check the kernel against the spec (attribute types, which
attributes each reply may carry, admin-perm ops) and the uAPI header against
the spec (every name has the value the spec gives it), so both follow the
spec as it grows instead of a copy of it in the tests.  The fuzzer
(pciesw_fuzz.c) builds its requests from the same tables: which attributes
each op takes (do_req, dump_req), their types and the ranges the spec's
checks give them (min, max, max-len; an enum's entries are its range).
"""
import sys

import yaml

TYPES = {
    'pad': 'T_PAD', 'flag': 'T_FLAG', 'u8': 'T_U8', 'u16': 'T_U16',
    'u32': 'T_U32', 'u64': 'T_U64', 's32': 'T_U32', 's64': 'T_U64',
    'uint': 'T_UINT', 'string': 'T_STR', 'binary': 'T_BIN', 'nest': 'T_NEST',
}


def c_name(s):
    return s.upper().replace('-', '_')


def main():
    with open(sys.argv[1]) as f:
        spec = yaml.safe_load(f)
    fam = spec['name']
    out = []
    w = out.append
    w('/* SPDX-License-Identifier: GPL-2.0 */')
    w(f'/* Generated from {sys.argv[1]} by gen_spec.py: do not edit. */')
    w('#ifndef _PCIESW_SPEC_H')
    w('#define _PCIESW_SPEC_H')
    w('')

    # the checks name consts of the definitions or give numbers
    consts = {d['name']: d['value'] for d in spec.get('definitions', [])
              if d['type'] == 'const'}
    nr_entries = {d['name']: len(d['entries'])
                  for d in spec.get('definitions', []) if d['type'] == 'enum'}

    def const(v):
        return consts[v] if isinstance(v, str) else int(v)

    # attribute sets: the main one (with values) and subsets
    sets = {s['name']: s for s in spec['attribute-sets']}
    main = spec['attribute-sets'][0]
    attrs = {}
    val = 0
    for a in main['attributes']:
        val = a.get('value', val + 1)
        attrs[a['name']] = dict(a, value=val)
    amax = max(a['value'] for a in attrs.values())
    w(f'#define SPEC_FAMILY "{fam}"')
    w(f'#define SPEC_ATTR_MAX {amax}')
    w('')
    nests = [s['name'] for s in spec['attribute-sets'][1:]]
    w('struct spec_attr {')
    w('\tconst char *name;')
    w('\tunsigned char type;')
    w('\tbool multi;')
    w('\tint nest;\t/* index into spec_nests, -1 if none */')
    w('\t/* the spec\'s checks: has_min/has_max with min/max; max_len */')
    w('\tbool has_min, has_max;')
    w('\tlong long min, max;')
    w('\tunsigned int max_len;\t/* strings and binaries, 0 if none */')
    w('\tunsigned int nr_enum;\t/* entries of its enum, 0 if none */')
    w('};')
    w('')
    w('static const struct spec_attr spec_attrs[SPEC_ATTR_MAX + 1] = {')
    for a in sorted(attrs.values(), key=lambda a: a['value']):
        nest = nests.index(a['nested-attributes']) \
            if a.get('nested-attributes') in nests else -1
        ck = a.get('checks', {})
        extra = ''
        for k, f in (('min', 'min'), ('max', 'max')):
            if k in ck:
                extra += f', .has_{f} = true, .{f} = {const(ck[k])}LL'
        if 'max-len' in ck:
            extra += f", .max_len = {const(ck['max-len'])}"
        if 'enum' in a:
            extra += f", .nr_enum = {nr_entries[a['enum']]}"
        w(f"\t[{a['value']}] = {{ \"{a['name']}\", {TYPES[a['type']]}, "
          f"{'true' if a.get('multi-attr') else 'false'}, {nest}{extra} }},")
    w('};')
    w('')
    # nested (subset) sets: which attributes may appear inside
    w(f'#define SPEC_NR_NESTS {max(len(nests), 1)}')
    w('static const unsigned char '
      'spec_nests[SPEC_NR_NESTS][SPEC_ATTR_MAX + 1] = {')
    for n in nests:
        ids = [attrs[a['name']]['value'] for a in sets[n]['attributes']]
        w('\t{ ' + ', '.join(f'[{i}] = 1' for i in ids) + ' },')
    w('};')
    w('')

    # operations
    ops = spec['operations']['list']
    cmds = {}
    val = 0
    for op in ops:
        val = op.get('value', val + 1)
        cmds[op['name']] = dict(op, value=val)
    cmax = max(o['value'] for o in cmds.values())
    w(f'#define SPEC_CMD_MAX {cmax}')
    w('')
    w('struct spec_op {')
    w('\tconst char *name;')
    w('\tbool admin;')
    w('\tbool has_do, has_dump, is_ntf;')
    w('\t/* attributes allowed in requests / replies, per attribute id */')
    w('\tunsigned char do_req[SPEC_ATTR_MAX + 1];')
    w('\tunsigned char do_reply[SPEC_ATTR_MAX + 1];')
    w('\tunsigned char dump_req[SPEC_ATTR_MAX + 1];')
    w('\tunsigned char dump_reply[SPEC_ATTR_MAX + 1];')
    w('};')
    w('')

    def attr_set(lst):
        return '{ ' + ', '.join(f"[{attrs[a]['value']}] = 1"
                                for a in lst) + ' }'

    def part(op, mode, kind):
        return op.get(mode, {}).get(kind, {}).get('attributes', [])

    w('static const struct spec_op spec_ops[SPEC_CMD_MAX + 1] = {')
    for op in sorted(cmds.values(), key=lambda o: o['value']):
        src = op
        if 'notify' in op:
            src = cmds[op['notify']]
        w(f"\t[{op['value']}] = {{")
        w(f"\t\t.name = \"{op['name']}\",")
        w(f"\t\t.admin = {'true' if 'admin-perm' in op.get('flags', []) else 'false'},")
        w(f"\t\t.has_do = {'true' if 'do' in op else 'false'},")
        w(f"\t\t.has_dump = {'true' if 'dump' in op else 'false'},")
        w(f"\t\t.is_ntf = {'true' if 'notify' in op or 'event' in op else 'false'},")
        w(f"\t\t.do_req = {attr_set(part(op, 'do', 'request'))},")
        w(f"\t\t.do_reply = {attr_set(part(src, 'do', 'reply'))},")
        w(f"\t\t.dump_req = {attr_set(part(op, 'dump', 'request'))},")
        w(f"\t\t.dump_reply = {attr_set(part(src, 'dump', 'reply'))},")
        w('\t},')
    w('};')
    w('')

    # the uAPI header against the spec
    uapi = []
    pfx = c_name(fam) + '_'
    for d in spec.get('definitions', []):
        if d['type'] == 'const':
            uapi.append((pfx + c_name(d['name']), d['value']))
        elif d['type'] == 'enum':
            epfx = c_name(d.get('name-prefix', f"{fam}-{d['name']}-"))
            v = -1
            for e in d['entries']:
                e = e if isinstance(e, dict) else {'name': e}
                v = e.get('value', v + 1)
                uapi.append((epfx + c_name(e['name']), v))
    apfx = c_name(main.get('name-prefix', f'{fam}-a-'))
    for a in attrs.values():
        uapi.append((apfx + c_name(a['name']), a['value']))
    opfx = c_name(spec['operations'].get('name-prefix', f'{fam}-cmd-'))
    for o in cmds.values():
        uapi.append((opfx + c_name(o['name']), o['value']))
    for g in spec.get('mcast-groups', {}).get('list', []):
        uapi.append((f"{pfx}MCGRP_{c_name(g['name'])}", f"\"{g['name']}\""))
    w('/* every uAPI name the spec defines, with its value in the spec */')
    w('struct spec_uapi {')
    w('\tconst char *name;')
    w('\tlong long spec;')
    w('\tlong long uapi;')
    w('};')
    w('')
    w('static const struct spec_uapi spec_uapi_ints[] = {')
    for name, v in uapi:
        if isinstance(v, str):
            continue
        # a name the header lacks fails the build, which says which
        w(f'\t{{ "{name}", {v}, {name} }},')
    w('};')
    w('')
    w('static const struct { const char *name, *spec, *uapi; } '
      'spec_uapi_strs[] = {')
    for name, v in uapi:
        if isinstance(v, str):
            w(f'\t{{ "{name}", {v}, {name} }},')
    w('};')
    w('')
    w('#endif /* _PCIESW_SPEC_H */')
    print('\n'.join(out))


if __name__ == '__main__':
    main()
