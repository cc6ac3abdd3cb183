#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# daemon-faults.sh - latency-trackerd under faults: started before the
# modules and before sessiond it says so and keeps going, alerts are
# logged anyway; sessiond killed while it runs -> reported, recovers after
# sessiond restarts, later snapshots work; SIGHUP reloads the config (a
# bad one is refused and the old kept); bad config -> exit 2 with the
# file, line and key.
. tests/guest/lib.sh
. tests/guest/lttng.inc
trap lt_tools_cleanup EXIT

out=$LT_WORK/snapshots
log=$LT_WORK/daemon.json
conf=$LT_WORK/ltd.conf

tap_plan 33
tap_ok "tools built on the host" lt_tools_built || tap_done
tap_ok "LTTng modules installed for this kernel" lt_lttng_installed || tap_done

# --- bad configuration ---
printf 'output = %s\nrate-limit = fast\n' "$out" >"$conf"
msg=$("$LTD" --config "$conf" 2>&1)
tap_is "bad config: exit status 2" "$?" 2
tap_is "bad config: one line naming file, line and key" "$msg" \
	"latency-trackerd: $conf:2: rate-limit: 'fast' is not a duration (e.g. 1s, 500ms)"
printf 'outptu = /tmp\n' >"$conf"
msg=$("$LTD" --config "$conf" 2>&1)
tap_is "unknown key: exit status 2" "$?" 2
tap_is "unknown key: message" "$msg" "latency-trackerd: $conf:1: unknown key 'outptu'"
msg=$("$LTD" --output relative 2>&1)
tap_is "bad option value: exit 2" "$?" 2
tap_ok "bad option value: message names the option" grep -q -- "--output: 'relative'" <<<"$msg"
tap_ok "--check accepts a good config" bash -c "printf 'output = $out\nrate-limit = 1s\n' >'$conf' && '$LTD' --config '$conf' --check"

# --- neither modules nor sessiond yet ---
daemon_start "$log" --config "$conf" --retry-interval 500ms --trackers wakeup
tap_ok "reports the missing module" wait_for 10 log_has "$log" 'latency_tracker module is not loaded'
tap_ok "reports the missing sessiond" wait_for 10 log_has "$log" '"state":"down".*lttng-sessiond is not running'
tap_ok "still running" kill -0 "$LTD_PID"
tap_ok "wakeup tracker loads" wakeup_load 250000000
tap_ok "picks up the tracker loaded later" wait_for 10 log_has "$log" '"type":"watch","tracker":"wakeup"'
victim=$(outlier 600)
tap_ok "alert logged without sessiond" wait_for 10 log_has "$log" "\"type\":\"alert\".*\"pid\":$victim,.*\"action\":\"unavailable\""

# --- sessiond appears, is killed, comes back ---
tap_ok "lttng-sessiond starts" sessiond_start
tap_ok "daemon: session ready once sessiond is there" wait_for 30 log_has "$log" '"state":"ready"'
sleep 1.2
victim=$(outlier 600)
tap_ok "snapshot works" wait_for 30 log_has "$log" "\"type\":\"snapshot\".*\"pid\":$victim,"
tap_ok "sessiond killed (SIGKILL)" sessiond_stop KILL
tap_ok "daemon reports it" wait_for 10 log_has "$log" '"state":"down".*(went away|not running|disappeared)'
sleep 1.2
victim=$(outlier 600)
tap_ok "alert still logged while sessiond is dead" wait_for 10 log_has "$log" "\"type\":\"alert\".*\"pid\":$victim,"
tap_ok "daemon still running" kill -0 "$LTD_PID"
ready_before=$(grep -c '"state":"ready"' "$log")
tap_ok "lttng-sessiond restarted" sessiond_start
tap_ok "daemon recovers: session ready again" wait_for 30 bash -c "[ \$(grep -c '\"state\":\"ready\"' '$log') -gt $ready_before ]"
sleep 1.2
victim=$(outlier 600)
tap_ok "snapshots work again" wait_for 30 log_has "$log" "\"type\":\"snapshot\".*\"pid\":$victim,"
path=$(grep '"type":"snapshot"' "$log" | tail -n 1 | sed -n 's/.*"path":"\([^"]*\)".*/\1/p')
tap_ok "and babeltrace2 reads it" bash -c "babeltrace2 '$path' | grep -q latency_tracker_wakeup"

# --- SIGHUP ---
printf 'output = %s\nrate-limit = 1s\nmax-snapshots = 1\n' "$out" >"$conf"
kill -HUP "$LTD_PID"
tap_ok "SIGHUP: reload logged" wait_for 10 log_has "$log" '"type":"reload".*"max_snapshots":1'
printf 'rate-limit = never\n' >"$conf"
kill -HUP "$LTD_PID"
tap_ok "SIGHUP with a bad config: refused, named" wait_for 10 log_has "$log" "reload refused.*$conf:1: rate-limit"
tap_ok "still running after a refused reload" kill -0 "$LTD_PID"
sleep 1.2
victim=$(outlier 600)
tap_ok "snapshot after reloads" wait_for 30 log_has "$log" "\"type\":\"snapshot\".*\"pid\":$victim,"
one_left() { [ "$(ls -d "$out"/lt-* 2>/dev/null | wc -l)" = 1 ]; }
tap_ok "max-snapshots 1 from the reloaded config applies" wait_for 10 one_left
tap_ok "clean exit on SIGTERM" daemon_stop
tap_empty "no stderr output from the daemon" "$LT_WORK/daemon.err"
tap_done
