#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""dgram_sink.py PATH OUT: bind a Unix datagram socket at PATH (a stand-in
for /dev/log or journald's /run/systemd/journal/socket) and append every
datagram received to OUT, followed by a line "--", until SIGTERM.  Creates
OUT once the socket is bound, so a caller can wait for it."""
import os
import signal
import socket
import sys

path, out = sys.argv[1], sys.argv[2]
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
try:
    os.unlink(path)
except FileNotFoundError:
    pass
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(path)
os.chmod(path, 0o666)
with open(out, "ab", buffering=0) as f:
    while True:
        data = s.recv(65536)
        f.write(data.rstrip(b"\n") + b"\n--\n")
