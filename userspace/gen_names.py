#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the netlink spec into switchctl's tables.

  gen_names.py SPEC.yaml > spec_names.h

switchctl prints attribute and enum names as the spec spells them, parses
replies with a policy of the spec's attribute types, and explains the
kernel's "bad attribute" errors with the spec's checks (min, max).  All of
them come from the spec at build time, the way selftests/gen_spec.py makes
the selftests' tables (its naming helpers are reused), so the tool follows
the spec as it grows.  Entries are indexed by the uAPI header's names: a
spec name the header lacks fails the build.
"""
import os
import sys

import yaml

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'selftests'))
from gen_spec import c_name  # noqa: E402

# libnl's types for the reply policy; pad is left out (never read)
NLA = {
    'flag': 'NLA_FLAG', 'u8': 'NLA_U8', 'u16': 'NLA_U16', 'u32': 'NLA_U32',
    'u64': 'NLA_U64', 's32': 'NLA_S32', 's64': 'NLA_S64',
    'string': 'NLA_STRING', 'binary': 'NLA_UNSPEC', 'nest': 'NLA_NESTED',
}


def main():
    path = sys.argv[1]
    with open(path) as f:
        spec = yaml.safe_load(f)
    fam = spec['name']
    consts = {d['name']: d['value'] for d in spec.get('definitions', [])
              if d['type'] == 'const'}
    out = []
    w = out.append
    w('/* SPDX-License-Identifier: GPL-2.0 */')
    w(f'/* Generated from {os.path.basename(path)} by gen_names.py: '
      'do not edit. */')
    w('#ifndef SWITCHCTL_SPEC_NAMES_H')
    w('#define SWITCHCTL_SPEC_NAMES_H')
    w('')
    w('#include <stdbool.h>')
    w('#include <netlink/attr.h>')
    w('#include <linux/pciesw.h>')
    w('')
    w('/* each file that includes this uses some of the tables */')
    w('#define SPEC_TABLE static __attribute__((unused))')
    w('')

    main_set = spec['attribute-sets'][0]
    apfx = c_name(main_set.get('name-prefix', f'{fam}-a-'))
    attrs = main_set['attributes']

    w('/* attribute names, by attribute type */')
    w('SPEC_TABLE const char *const spec_attr_names[PCIESW_A_MAX + 1] = {')
    for a in attrs:
        w(f"\t[{apfx}{c_name(a['name'])}] = \"{a['name']}\",")
    w('};')
    w('')

    w('/* the types of every attribute, for parsing replies */')
    w('SPEC_TABLE struct nla_policy spec_reply_policy[PCIESW_A_MAX + 1] = {')
    for a in attrs:
        if a['type'] in NLA:
            w(f"\t[{apfx}{c_name(a['name'])}] = {{ .type = {NLA[a['type']]} }},")
    w('};')
    w('')

    def value(v):
        return consts.get(v, v) if isinstance(v, str) else v

    w('/* the spec\'s range checks of integer attributes */')
    w('struct spec_check {')
    w('\tbool has_min, has_max;')
    w('\tlong long min, max;')
    w('};')
    w('')
    w('SPEC_TABLE const struct spec_check spec_attr_checks[PCIESW_A_MAX + 1] = {')
    for a in attrs:
        c = a.get('checks', {})
        if 'min' not in c and 'max' not in c:
            continue
        parts = []
        if 'min' in c:
            parts.append(f".has_min = true, .min = {value(c['min'])}LL")
        if 'max' in c:
            parts.append(f".has_max = true, .max = {value(c['max'])}LL")
        w(f"\t[{apfx}{c_name(a['name'])}] = {{ {', '.join(parts)} }},")
    w('};')
    w('')

    w('/* the entry names of every enum, by value */')
    for d in spec.get('definitions', []):
        if d['type'] != 'enum':
            continue
        epfx = c_name(d.get('name-prefix', f"{fam}-{d['name']}-"))
        ident = d['name'].replace('-', '_')
        w(f'SPEC_TABLE const char *const spec_enum_{ident}[] = {{')
        for e in d['entries']:
            e = e if isinstance(e, dict) else {'name': e}
            w(f"\t[{epfx}{c_name(e['name'])}] = \"{e['name']}\",")
        w('};')
        w(f'#define SPEC_ENUM_{c_name(d["name"])}_N '
          f'(sizeof(spec_enum_{ident}) / sizeof(spec_enum_{ident}[0]))')
        w('')
    w(f'#define SPEC_FAMILY "{fam}"')
    w('')
    w('#endif /* SWITCHCTL_SPEC_NAMES_H */')
    print('\n'.join(out))


if __name__ == '__main__':
    main()
