#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""ynl_status.py [SWITCH_ID]: the links of pciesw switches, and one change
seen as a notification, through the kernel's own ynl netlink library
(tools/net/ynl/lib of linux-source-6.12, which scripts/ksrc.sh extracts;
nothing of it is copied here) and the family's YAML spec.

    python3 Documentation/examples/ynl_status.py 0 --acs 2
    pciesw0 (pex89048, 48 lanes, serial PSW48100000)
      port  0 host   up   gen5  x16  l0       ffff:01:00.0
      ...
    notification port-change-ntf: port 2 acs-redirect 1
    notification port-change-ntf: port 2 acs-redirect 0

Run from anywhere in the repository; reading needs no privilege.  With
--acs PORT (needs CAP_NET_ADMIN) it also turns ACS P2P redirect of that
downstream port on and off again and prints the port-change notification
the monitor group sends for each change.
"""
import argparse
import os
import subprocess
import sys
import time

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
KSRC = subprocess.run([os.path.join(TOP, "scripts", "ksrc.sh")], check=True,
                      capture_output=True, text=True).stdout.strip()
sys.path.insert(0, os.path.join(KSRC, "tools", "net", "ynl"))
from lib import YnlFamily, NlError  # noqa: E402  (the kernel's ynl library)

SPEC = os.path.join(TOP, "Documentation", "netlink", "specs", "pciesw.yaml")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("switch", nargs="?", type=int, help="switch id (default: all)")
    ap.add_argument("--acs", type=int, metavar="PORT",
                    help="turn ACS redirect of PORT on and off again, printing "
                         "the notifications (needs CAP_NET_ADMIN)")
    args = ap.parse_args()

    # schema "": no jsonschema validation of the spec at every start (slow;
    # make check validates it with ynl-gen-c, scripts/netlink-gen.sh)
    ynl = YnlFamily(SPEC, "")
    # Notifications on a socket of their own: 6.12's ynl fails on a
    # notification that arrives in the middle of a request's replies.
    mon = None
    if args.acs is not None:
        mon = YnlFamily(SPEC, "")
        mon.ntf_subscribe("monitor")
    req = {} if args.switch is None else {"switch-id": args.switch}
    switches = ynl.dump("switch-get", req)
    ports = ynl.dump("port-get", req)
    for sw in switches:
        print(f"{sw['switch-name']} ({sw['switch-profile']}, {sw['switch-lanes']} lanes, "
              f"serial {sw['switch-serial']})")
        for p in ports:
            if p["switch-id"] != sw["switch-id"]:
                continue
            link = "up" if p.get("port-link-active") else "down"
            speed = p.get("port-speed", "-")
            print(f"  port {p['port-id']:2} {p.get('group-name', '?'):6} {link:4} "
                  f"{speed:5} x{p.get('port-width', 0):<3} {p.get('port-ltssm', '?'):8} "
                  f"{p.get('port-pci-name', '')}")
    if args.acs is None:
        return 0
    sw_id = args.switch if args.switch is not None else switches[0]["switch-id"]
    seen = []
    for on in (1, 0):
        mon.check_ntf()
        mon.async_msg_queue.clear()     # what came before the change
        try:
            ynl.do("port-set", {"switch-id": sw_id, "port-id": args.acs,
                                "port-acs-redirect": on})
        except NlError as e:
            print(f"port-set: {e}", file=sys.stderr)
            return 1
        end = time.monotonic() + 10
        got = None
        while got is None and time.monotonic() < end:
            mon.check_ntf()
            for msg in mon.async_msg_queue:
                m = msg["msg"]
                if msg["name"] == "port-change-ntf" and m.get("port-id") == args.acs:
                    got = m
            time.sleep(0.05)
        if got is None:
            print(f"no port-change-ntf for port {args.acs}", file=sys.stderr)
            return 1
        print(f"notification port-change-ntf: port {got['port-id']} "
              f"acs-redirect {got.get('port-acs-redirect')}")
        seen.append(got)
    return 0

if __name__ == "__main__":
    sys.exit(main())
