#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""net_load.py - the net trackers' workloads (tests/guest/net.sh), on one
address (127.0.0.1, ::1, or another given), all in one thread.

  net_load.py ttfb ADDR N SLEEP_MS    a TCP server on ADDR accepts N
        connections, one at a time, and for each sleeps SLEEP_MS after
        accept() returns, then sends one byte (the client, in the same
        thread, connected before: the kernel completes the handshake
        without the server) and closes;
  net_load.py close ADDR N            the same, closing each accepted
        connection without sending anything;
  net_load.py netrx ADDR N SLEEP_MS   a UDP socket on ADDR receives N
        datagrams, one at a time, each from a socket of its own and read
        SLEEP_MS after it was sent.

Across two network namespaces, the two sides in two processes:

  net_load.py serve ADDR N SLEEP_MS   the ttfb server alone; prints
        `port=<port>` once listening;
  net_load.py connect ADDR PORT N     its client: N connections, one at a
        time, each reading the byte;
  net_load.py recv ADDR N SLEEP_MS    the UDP receiver alone, reading each
        datagram SLEEP_MS after it is readable; prints `port=<port>`;
  net_load.py send ADDR PORT N GAP_MS its sender: N datagrams, GAP_MS
        apart.

Prints `pid=<pid>` first, then one line per connection or datagram, the
connection from the server's (the receiver's) side as a record names it:
`conn saddr=<local> sport=<local port> daddr=<peer> dport=<peer port>`.
"""
import os
import select
import socket
import sys
import time


def family(addr):
    return socket.AF_INET6 if ':' in addr else socket.AF_INET


def show(local, peer):
    print('conn saddr=%s sport=%d daddr=%s dport=%d' %
          (local[0], local[1], peer[0], peer[1]), flush=True)


def listener(addr, n):
    srv = socket.socket(family(addr), socket.SOCK_STREAM)
    srv.bind((addr, 0))
    srv.listen(n)
    return srv


def tcp(addr, n, sleep_ms, send):
    srv = listener(addr, n)
    for _ in range(n):
        c = socket.socket(family(addr), socket.SOCK_STREAM)
        c.connect(srv.getsockname()[:2])
        conn, peer = srv.accept()
        if send:
            time.sleep(sleep_ms / 1000.0)
            conn.send(b'x')
            c.recv(1)
        show(conn.getsockname(), peer)
        conn.close()
        c.close()
    srv.close()


def serve(addr, n, sleep_ms):
    srv = listener(addr, n)
    print('port=%d' % srv.getsockname()[1], flush=True)
    for _ in range(n):
        conn, peer = srv.accept()
        time.sleep(sleep_ms / 1000.0)
        conn.send(b'x')
        show(conn.getsockname(), peer)
        conn.recv(1)
        conn.close()
    srv.close()


def connect(addr, port, n):
    for _ in range(n):
        c = socket.create_connection((addr, port), timeout=30)
        c.recv(1)
        c.close()


def recv(addr, n, sleep_ms):
    rx = socket.socket(family(addr), socket.SOCK_DGRAM)
    rx.bind((addr, 0))
    print('port=%d' % rx.getsockname()[1], flush=True)
    for _ in range(n):
        select.select([rx], [], [], 30)
        time.sleep(sleep_ms / 1000.0)
        _, peer = rx.recvfrom(2048)
        show(rx.getsockname(), peer)
    rx.close()


def send_one(addr, port):
    """A datagram from a socket of its own: each has its own 4-tuple."""
    tx = socket.socket(family(addr), socket.SOCK_DGRAM)
    tx.sendto(b'x' * 64, (addr, port))
    tx.close()


def send(addr, port, n, gap_ms):
    for _ in range(n):
        send_one(addr, port)
        time.sleep(gap_ms / 1000.0)


def udp(addr, n, sleep_ms):
    rx = socket.socket(family(addr), socket.SOCK_DGRAM)
    rx.bind((addr, 0))
    for _ in range(n):
        send_one(addr, rx.getsockname()[1])
        time.sleep(sleep_ms / 1000.0)
        _, peer = rx.recvfrom(2048)
        show(rx.getsockname(), peer)
    rx.close()


def main():
    mode, addr = sys.argv[1], sys.argv[2]
    a = [int(v) for v in sys.argv[3:]]
    if mode == 'connect':
        connect(addr, a[0], a[1])
        return
    if mode == 'send':
        send(addr, a[0], a[1], a[2])
        return
    n, sleep_ms = a[0], a[1] if len(a) > 1 else 0
    print('pid=%d' % os.getpid(), flush=True)
    if mode == 'serve':
        serve(addr, n, sleep_ms)
    elif mode == 'recv':
        recv(addr, n, sleep_ms)
    elif mode == 'ttfb':
        tcp(addr, n, sleep_ms, True)
    elif mode == 'close':
        tcp(addr, n, 0, False)
    elif mode == 'netrx':
        udp(addr, n, sleep_ms)
    else:
        sys.exit('unknown mode ' + mode)


if __name__ == '__main__':
    main()
