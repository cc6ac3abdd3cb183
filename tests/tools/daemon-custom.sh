#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# daemon-custom.sh - the custom trackers of latency-trackerd's configuration
# (custom.NAME = definition), on the host under ASan, against fake proc
# roots whose custom file is
#   - a FIFO read by fake_custom.py (a stand-in for latency_tracker_custom:
#     it logs every line written and makes or removes the tracker's
#     directory): created at start, their alerts followed and snapshotted,
#     their metrics served; on SIGHUP a changed one deleted and created
#     anew, an undeclared one deleted, a new one created, an unchanged one
#     left; the daemon's own deleted at exit;
#   - a regular file holding a listing (what the kernel lists; the last
#     line written replaces it): a live tracker with the same definition
#     kept, one with another a conflict logged once, neither ever deleted;
#   - absent at start (the module not loaded): said once, the trackers
#     created once it appears, with their filters after them; created
#     again after the module was unloaded and loaded;
#   - with an app file (latency_tracker_app) and no custom file: an
#     application tracker (custom.NAME = app ...) written to the app file,
#     app-group's `group GID` line written there when the file's group is
#     another, a group that does not exist refused by --check;
# and definitions refused by --check with the file and line.
. "$(dirname "$0")/lib.sh"
tap_plan 43

export ASAN_OPTIONS=verify_asan_link_order=0
FAKE_CUSTOM="python3 $LT_TOP/tests/tools/fake_custom.py"

# custom_line TRACKER DELAY_NS: a custom tracker's record as the kernel writes it.
custom_line() {
	printf 'ts=%s tracker=%s cause=threshold delay=%s pid=42 tgid=42 comm=lt_victim cpu=1 key=0x2a cgroup=1\n' \
		"$(($(date +%s%N) / 1000))" "$1" "$2"
}
# cmds_are FILE LINE...: the lines the fake module was given, exactly;
# cmds_wait SECONDS FILE LINE...: within that time (what came, if not).
cmds_are() {
	local f=$1
	shift
	[ "$(cat "$f" 2>/dev/null)" = "$(printf '%s\n' "$@")" ]
}
cmds_wait() {
	local s=$1
	shift
	wait_for "$s" cmds_are "$@" ||
		{ echo "#   got: $(tr '\n' '|' <"$1" 2>/dev/null)"; return 1; }
}
file_is() { [ "$(cat "$1" 2>/dev/null)" = "$2" ]; }

# ---- created at start, followed, snapshotted, served; SIGHUP; exit
root=$T_WORK/proc
cmds=$T_WORK/cmds
mk_tracker "$root" wakeup
$FAKE_CUSTOM "$root" "$cmds" &
emu=$!
T_PIDS+=("$emu")
wait_for 20 test -p "$root/custom" || tap_diag "fake_custom.py did not make $root/custom"
conf=$T_WORK/custom.conf
cat >"$conf" <<'EOF'
custom.slowsync = fn=vfs_fsync threshold=10ms
custom.blk = in=kprobe:blk_mq_start_request out=kprobe:blk_mq_end_request key=arg1 threshold=2ms stack=1
custom.reads = fn=vfs_read threshold=1ms
EOF
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
D_INIT=sessiond d_start main --config "$conf" --proc-root "$root" --output "$T_WORK/snaps" \
	--rate-limit 0 --metrics "127.0.0.1:$port"
tap_ok "start: the three definitions written, times in ns, in the config's order" cmds_wait 10 "$cmds" \
	"slowsync fn=vfs_fsync threshold=10000000" \
	"blk in=kprobe:blk_mq_start_request out=kprobe:blk_mq_end_request key=arg1 threshold=2000000 stack=1" \
	"reads fn=vfs_read threshold=1000000"
tap_ok "start: a custom line per tracker, action created" bash -c \
	"[ \$(grep -c '\"type\":\"custom\",\"tracker\":\"[a-z]*\",\"action\":\"created\"' '$D_LOG') = 3 ]"
tap_ok "start: the log says the definition" log_has "$D_LOG" \
	'"type":"custom","tracker":"slowsync","action":"created","definition":"fn=vfs_fsync threshold=10000000"'
tap_ok "start: slowsync, blk and reads followed" wait_for 10 bash -c \
	"grep -q '\"type\":\"watch\",\"tracker\":\"slowsync\"' '$D_LOG' &&
	 grep -q '\"type\":\"watch\",\"tracker\":\"blk\"' '$D_LOG' &&
	 grep -q '\"type\":\"watch\",\"tracker\":\"reads\"' '$D_LOG'"
tap_ok "start: session ready" wait_for 10 log_has "$D_LOG" '"type":"session","state":"ready"'
exec 7<>"$root/slowsync/alerts"
custom_line slowsync 12000000 >&7
tap_ok "alerts: a custom tracker's alert logged with its fields" wait_for 15 log_has "$D_LOG" \
	'"type":"alert","ts":[0-9]*,"tracker":"slowsync","cause":"threshold","delay":12000000,.*"key":"0x2a","cgroup":1,"action":"snapshot"'
tap_ok "alerts: a snapshot for it" wait_for 15 log_has "$D_LOG" '"type":"snapshot",.*"alert":{[^}]*"tracker":"slowsync"'
exec 7>&-
metrics() {
	python3 -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())' \
		"http://127.0.0.1:$port/metrics" >"$T_WORK/metrics.txt"
}
tap_ok "metrics: served" metrics
tap_ok "metrics: the custom trackers' histograms and counters" bash -c \
	"grep -qxF 'latency_tracker_delay_seconds_count{tracker=\"blk\"} 2' '$T_WORK/metrics.txt' &&
	 grep -qxF 'latency_tracker_matched_total{tracker=\"reads\"} 2' '$T_WORK/metrics.txt'"
tap_ok "metrics: the daemon's own counters of a custom tracker" \
	grep -qxF 'latency_trackerd_snapshots_taken_total{tracker="slowsync"} 1' "$T_WORK/metrics.txt"

# SIGHUP: slowsync changed, blk gone, reads the same, opens new.
cat >"$conf" <<'EOF'
custom.slowsync = fn=vfs_fsync threshold=20ms
custom.reads = fn=vfs_read threshold=1ms
custom.opens = in=tp:syscalls:sys_enter_openat out=tp:syscalls:sys_exit_openat key=tid threshold=1ms
EOF
: >"$cmds"
kill -HUP "$D_PID"
tap_ok "SIGHUP: changed deleted and created anew, undeclared deleted, new created" cmds_wait 10 "$cmds" \
	"del slowsync" "del blk" \
	"slowsync fn=vfs_fsync threshold=20000000" \
	"opens in=tp:syscalls:sys_enter_openat out=tp:syscalls:sys_exit_openat key=tid threshold=1000000"
tap_ok "SIGHUP: the reasons logged" bash -c \
	"grep -q '\"tracker\":\"slowsync\",\"action\":\"deleted\",.*\"reason\":\"definition changed\"' '$D_LOG' &&
	 grep -q '\"tracker\":\"blk\",\"action\":\"deleted\",.*\"reason\":\"not in the configuration\"' '$D_LOG'"
tap_ok "SIGHUP: opens followed, blk no longer" wait_for 15 bash -c \
	"grep -q '\"type\":\"watch\",\"tracker\":\"opens\"' '$D_LOG' &&
	 grep -q '\"type\":\"unwatch\",\"tracker\":\"blk\"' '$D_LOG'" ||
	{ grep -v '"type":"alert"' "$D_LOG" | tail -n 30 | sed 's/^/#   /'; ls -l "$root" | sed 's/^/#   /'; }
tap_ok "SIGHUP: the reload line counts the custom trackers" log_has "$D_LOG" '"type":"reload",.*"custom":3'
sleep 1.5	# a rescan: nothing taken for gone, nothing created twice
tap_ok "rescan: nothing more written" cmds_wait 0 "$cmds" \
	"del slowsync" "del blk" \
	"slowsync fn=vfs_fsync threshold=20000000" \
	"opens in=tp:syscalls:sys_enter_openat out=tp:syscalls:sys_exit_openat key=tid threshold=1000000"
# One deleted behind the daemon's back: created again.
: >"$cmds"
echo "del reads" >"$root/custom"
tap_ok "gone: reads deleted by someone else is created again" cmds_wait 10 "$cmds" \
	"del reads" "reads fn=vfs_read threshold=1000000"
tap_ok "gone: logged" log_has "$D_LOG" '"tracker":"reads","action":"gone"'
: >"$cmds"
d_stop
tap_ok "exit: the daemon's own custom trackers deleted" cmds_wait 0 "$cmds" \
	"del slowsync" "del reads" "del opens"
tap_ok "exit: status 0" test "$D_RC" = 0
tap_ok "exit: no ASan/UBSan report" no_sanitizer_report
kill -TERM "$emu"
wait "$emu"

# ---- a listing: kept, conflict (logged once), neither deleted; exit
root=$T_WORK/proc2
mk_tracker "$root" same
mk_tracker "$root" other
printf '%s\n' "same fn=vfs_fsync key=tid threshold=10000000 timeout=0 max_events=4096 stack=0" \
	"other fn=vfs_read threshold=5000000" >"$root/custom"
cat >"$conf" <<'EOF'
custom.same = fn=vfs_fsync threshold=10ms
custom.other = fn=vfs_read threshold=1ms
custom.fresh = in=kprobe:a out=kretprobe:a in_key=arg1 out_key=ret threshold=2ms
EOF
d_start listed --config "$conf" --proc-root "$root" --snapshot off
tap_ok "listed: the same definition live: kept" wait_for 10 log_has "$D_LOG" '"tracker":"same","action":"kept"'
tap_ok "listed: another definition live: a conflict naming both" log_has "$D_LOG" \
	'"tracker":"other","action":"conflict","definition":"fn=vfs_read threshold=1000000","live":"fn=vfs_read threshold=5000000"'
tap_ok "listed: the missing one written" file_is "$root/custom" \
	"fresh in=kprobe:a out=kretprobe:a in_key=arg1 out_key=ret threshold=2000000"
sleep 2.5	# two rescans
n=$(log_count "$D_LOG" '"action":"conflict"')
tap_ok "listed: the conflict logged once (got $n)" test "$n" = 1
tap_ok "listed: nothing written since" file_is "$root/custom" \
	"fresh in=kprobe:a out=kretprobe:a in_key=arg1 out_key=ret threshold=2000000"
d_stop
tap_ok "listed: at exit only the daemon's own deleted" file_is "$root/custom" "del fresh"
tap_ok "listed: no ASan/UBSan report" no_sanitizer_report

# ---- the module loaded later; its filters after it; unloaded and loaded again
root=$T_WORK/proc3
mk_tracker "$root" late
echo >"$root/late/filter_tgid"
cat >"$conf" <<'EOF'
custom.late = fn=vfs_fsync
late.filter_tgid = 77
EOF
d_start late --config "$conf" --proc-root "$root" --snapshot off
tap_ok "late: not loaded, said" wait_for 10 log_has "$D_LOG" \
	'"type":"warning","msg":"1 custom trackers declared; latency_tracker_custom is not loaded'
echo >"$root/late/filter_tgid"	# written at start too: cleared
sleep 1.5
n=$(log_count "$D_LOG" 'latency_tracker_custom is not loaded')
tap_ok "late: said once (got $n)" test "$n" = 1
: >"$root/custom"
tap_ok "late: created once the module is there" wait_for 15 file_is "$root/custom" "late fn=vfs_fsync"
tap_ok "late: its filter written after it" wait_for 15 file_is "$root/late/filter_tgid" 77
rm "$root/custom"
tap_ok "late: the module unloaded, said" wait_for 15 log_has "$D_LOG" 'latency_tracker_custom was unloaded: 1 custom trackers gone'
: >"$root/custom"
tap_ok "late: created again once loaded again" wait_for 15 file_is "$root/custom" "late fn=vfs_fsync"
n=$(log_count "$D_LOG" '"tracker":"late","action":"created"')
tap_ok "late: two created lines (got $n)" test "$n" = 2
d_stop
tap_ok "late: exit deletes it" file_is "$root/custom" "del late"
tap_ok "late: no ASan/UBSan report" no_sanitizer_report

# ---- an application tracker and app-group: the app file only (no custom file)
root=$T_WORK/proc4
mkdir -p "$root"
: >"$root/app"
chgrp root "$root/app"
cat >"$conf" <<'EOF'
custom.checkout = app threshold=20ms
app-group = 65534
EOF
d_start app --config "$conf" --proc-root "$root" --snapshot off
tap_ok "app: the definition written to the app file" wait_for 10 log_has "$D_LOG" \
	'"tracker":"checkout","action":"created","definition":"app threshold=20000000"'
tap_ok "app: app-group: 'group 65534' written, the file's group being root's" \
	log_has "$D_LOG" '"type":"app_group",.*"group":"65534"'
chgrp 65534 "$root/app"	# what the module does on that line
n=$(log_count "$D_LOG" '"type":"app_group"')
sleep 2.5	# two rescans
tap_ok "app: the group right, nothing more written (got $(log_count "$D_LOG" '"type":"app_group"'), had $n)" \
	test "$(log_count "$D_LOG" '"type":"app_group"')" = "$n"
d_stop
tap_ok "app: exit deletes it from the app file" file_is "$root/app" "del checkout"
out=$("$DAEMON" --config /dev/null --check --app-group no_such_group_here 2>&1)
rc=$?
tap_ok "check: app-group of no group: exit 2 ($out)" \
	test "$rc $(grep -c "'no_such_group_here' is no group of this system" <<<"$out")" = "2 1"

# ---- definitions refused before anything starts, with the file and line
printf 'rate-limit = 1s\ncustom.slow = fn=vfs_fsync threshold=10xs\n' >"$conf"
out=$("$DAEMON" --config "$conf" --check 2>&1)
rc=$?
tap_ok "check: a bad definition: exit 2, file:line and the field ($out)" bash -c \
	"[ $rc = 2 ] && [[ '$out' == *'custom.conf:2: custom.slow: threshold=10xs: not a duration'* ]]"
out=$("$DAEMON" --config /dev/null --check --custom.blk 'in=tp:block:block_rq_issue out=kprobe:f key=arg1' 2>&1)
rc=$?
tap_ok "check: on the command line too ($out)" bash -c \
	"[ $rc = 2 ] && [[ '$out' == *'--custom.blk: key=arg1: function arguments are read at a kprobe end; the in end is a tracepoint'* ]]"

tap_end
