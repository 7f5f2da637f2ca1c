#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""ynl_status.py [SWITCH_ID]: the links of pciesw switches, and one change
seen as a notification, through the kernel's own ynl netlink library
(tools/net/ynl/lib of linux-source-6.12, which scripts/ksrc.sh extracts;
nothing of it is copied here) and the family's YAML spec.

    $ python3 Documentation/examples/ynl_status.py 0
    pciesw0 (pex89048, 48 lanes, serial PEX0000000000)
      port  0 host   up   gen5 x16  l0       20000:00:00.0
      ...

Run from anywhere in the repository; reading needs no privilege.  With
--retrain PORT (needs CAP_NET_ADMIN) it also retrains that port of the
switch and prints the port-change notifications the monitor group sends.
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
SCHEMA = os.path.join(KSRC, "Documentation", "netlink", "genetlink.yaml")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("switch", nargs="?", type=int, help="switch id (default: all)")
    ap.add_argument("--retrain", type=int, metavar="PORT",
                    help="retrain PORT and print its notifications")
    args = ap.parse_args()

    ynl = YnlFamily(SPEC, SCHEMA)
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
    if args.retrain is None:
        return 0
    sw_id = args.switch if args.switch is not None else switches[0]["switch-id"]
    ynl.ntf_subscribe("monitor")
    try:
        ynl.do("port-set", {"switch-id": sw_id, "port-id": args.retrain,
                            "port-retrain": True})
    except NlError as e:
        print(f"port-set: {e}", file=sys.stderr)
        return 1
    end = time.monotonic() + 10
    seen = 0
    while time.monotonic() < end and seen < 1:
        ynl.check_ntf()
        for msg in ynl.async_msg_queue:
            if msg["name"] == "port-change-ntf" and \
               msg["msg"].get("port-id") == args.retrain:
                m = msg["msg"]
                print(f"notification {msg['name']}: port {m['port-id']} "
                      f"ltssm {m.get('port-ltssm')}")
                seen += 1
        ynl.async_msg_queue.clear()
        time.sleep(0.05)
    return 0 if seen else 1


if __name__ == "__main__":
    sys.exit(main())
