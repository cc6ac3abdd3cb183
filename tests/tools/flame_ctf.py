#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""flame_ctf.py DIR - write a small LTTng-like kernel snapshot (CTF 1.8)
into DIR/kernel for the host test of `latency-tracker flamegraph`
(cli-flamegraph.sh): latency_tracker_offcpu, _syscall and _custom events
laid out as probes/lttng/latency_tracker_lttng.h describes them (cause as
text, comm and stacks as strings, state as a text array of one char, a
custom tracker's name in "tracker", its key as a hex integer), plus a
sched_switch that the reader must skip.  Times are CLOCK_MONOTONIC ns.
"""
import os
import struct
import sys

METADATA = """/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
typealias integer { size = 64; align = 8; signed = false; base = 16; } := hex64_t;
typealias integer { size = 32; align = 8; signed = true; } := int32_t;
trace {
	major = 1;
	minor = 8;
	byte_order = le;
	packet.header := struct { uint32_t magic; uint32_t stream_id; };
};
env {
	domain = "kernel";
	tracer_name = "lttng-modules";
};
clock {
	name = "monotonic";
	freq = 1000000000;
	offset = 0;
};
typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := uint64_clock_monotonic_t;
stream {
	id = 0;
	event.header := struct { uint32_t id; uint64_clock_monotonic_t timestamp; };
};
event {
	name = "sched_switch";
	id = 0;
	stream_id = 0;
	fields := struct { string prev_comm; int32_t prev_tid; };
};
event {
	name = "latency_tracker_offcpu";
	id = 1;
	stream_id = 0;
	fields := struct {
		string cause; uint64_t delay; int32_t pid; int32_t tgid;
		string comm; int32_t cpu;
		integer { size = 8; align = 8; signed = false; encoding = UTF8; } state[1];
		int32_t waker_pid; string waker_comm; uint64_t cgroup;
		string stack; string waker_stack;
	};
};
event {
	name = "latency_tracker_syscall";
	id = 2;
	stream_id = 0;
	fields := struct {
		string cause; uint64_t delay; int32_t pid; int32_t tgid;
		string comm; int32_t nr; uint64_t cgroup; string stack;
	};
};
event {
	name = "latency_tracker_custom";
	id = 3;
	stream_id = 0;
	fields := struct {
		string cause; uint64_t delay; int32_t pid; int32_t tgid;
		string comm; int32_t cpu; hex64_t key; uint64_t cgroup;
		string tracker; string stack;
	};
};
"""


def s(text):
    return (text.encode() if isinstance(text, str) else text) + b"\0"


def header(ev_id, ts):
    return struct.pack("<IQ", ev_id, ts)


def offcpu(ts, delay, pid, tgid, comm, state, waker_comm, stack, waker_stack):
    return (header(1, ts) + s("threshold") + struct.pack("<Qii", delay, pid, tgid)
            + s(comm) + struct.pack("<i", 1) + state.encode()
            + struct.pack("<i", 0) + s(waker_comm) + struct.pack("<Q", 1)
            + s(stack) + s(waker_stack))


def main():
    out = os.path.join(sys.argv[1], "kernel")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "metadata"), "w") as f:
        f.write(METADATA)
    data = struct.pack("<II", 0xC1FC1FC1, 0)
    data += header(0, 1000) + s("swapper/0") + struct.pack("<i", 0)
    data += offcpu(2000, 700, 432, 432, "sleep", "S", "swapper/1",
                   "do_nanosleep+0x7b/0x140;do_syscall_64+0x5d/0xb0",
                   "hrtimer_wakeup+0x1e/0x30;hrtimer_interrupt+0xf9/0x230")
    data += offcpu(3000, 300, 433, 433, "sleep", "S", "swapper/1",
                   "do_nanosleep+0x7b/0x140;do_syscall_64+0x5d/0xb0",
                   "hrtimer_wakeup+0x1e/0x30;hrtimer_interrupt+0xf9/0x230")
    data += offcpu(4000, 50, 500, 499, b"db<&\xff", "D", "", "io_schedule+0x12/0x40;?", "")
    data += (header(2, 5000) + s("timeout") + struct.pack("<Qii", 40, 432, 432)
             + s("cat") + struct.pack("<iQ", 0, 1) + s("pipe_read+0x2f0/0x450;vfs_read+0x1f4/0x2d0"))
    data += (header(3, 6000) + s("threshold") + struct.pack("<Qii", 9, 700, 700)
             + s("fsync-test") + struct.pack("<iQQ", 0, 0x2BC, 1) + s("slowsync")
             + s("jbd2_log_wait_commit+0xb0/0x120;ext4_sync_file+0x1c5/0x3b0"))
    with open(os.path.join(out, "stream_0"), "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
