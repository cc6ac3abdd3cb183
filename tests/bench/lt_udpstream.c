// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_udpstream.c - the loopback UDP stream of make bench's netrx part
 * (tests/guest/bench.sh): 100000 datagrams of 64 bytes to 127.0.0.1, in
 * 200 batches on CPU 0, each sent then read at once by the same thread, so
 * that every datagram takes the whole receive path once (loopback_xmit(),
 * the backlog's netif_receive_skb, the socket's queue, the copy to user
 * space and the free) and none waits for another.  Prints the ms the
 * 100000 datagrams take at the median batch's pace (lt_batches.h).  Exits
 * 1 if a call fails.
 */
#include "lt_batches.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#define BATCHES		200
#define PACKETS		500	/* per batch: 500 * 200 = 100000 datagrams */
#define SIZE		64

int main(void)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	static long long batch[BATCHES];
	socklen_t len = sizeof(addr);
	char buf[SIZE] = { 0 };
	int rx, tx, b, i;

	if (lt_pin_cpu0()) {
		perror("lt_udpstream: sched_setaffinity");
		return 1;
	}
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	rx = socket(AF_INET, SOCK_DGRAM, 0);
	tx = socket(AF_INET, SOCK_DGRAM, 0);
	if (rx < 0 || tx < 0 ||
	    bind(rx, (struct sockaddr *)&addr, sizeof(addr)) ||
	    getsockname(rx, (struct sockaddr *)&addr, &len) ||
	    connect(tx, (struct sockaddr *)&addr, sizeof(addr))) {
		perror("lt_udpstream: socket");
		return 1;
	}
	for (b = 0; b < BATCHES; b++) {
		long long t0 = lt_now_ns();

		for (i = 0; i < PACKETS; i++) {
			if (send(tx, buf, SIZE, 0) != SIZE ||
			    recv(rx, buf, SIZE, 0) != SIZE) {
				perror("lt_udpstream: send/recv");
				return 1;
			}
		}
		batch[b] = lt_now_ns() - t0;
	}
	lt_print_median_pace(batch, BATCHES);
	return 0;
}
