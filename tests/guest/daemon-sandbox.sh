#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# daemon-sandbox.sh - latency-trackerd confined the way its systemd unit
# (tools/daemon/latency-trackerd.service) confines it, as far as that can
# be done without systemd (the guests have no systemd): the unit's
# CapabilityBoundingSet= (none), NoNewPrivileges= and UMask=, taken from
# the unit file, and by hand in a mount namespace of its own what its
# ProtectSystem=strict, ProtectKernelTunables=, ProtectProc=invisible and
# ProtectHome= do: every mount read-only but the directory it writes (here
# the test's work directory, the unit's StateDirectory/LogsDirectory),
# /proc/sys read-only, a /proc mounted with hidepid=invisible, /root and
# /home empty and closed (unless the checkout is there).  So confined, it
# still reads /proc/latency_tracker and writes a filter there, reaches
# lttng-sessiond (its socket on a read-only /run), records a snapshot of
# a wakeup outlier, runs `explain` on it in a child (its report written
# with the unit's umask), and exits 0 on SIGTERM with its session gone.
# (The unit's system call filter is checked by systemd-analyze in the
# Debian package test, tests/pkg/check-deb.sh.)
. tests/guest/lib.sh
. tests/guest/lttng.inc
trap lt_tools_cleanup EXIT

UNIT=$LT_TOP/tools/daemon/latency-trackerd.service
log=$LT_WORK/daemon.json
out=$LT_WORK/snapshots
tap_plan 21
tap_ok "tools built on the host" lt_tools_built || tap_done
tap_ok "LTTng modules installed for this kernel" lt_lttng_installed || tap_done

# The unit's settings that setpriv and umask reproduce.
umask_=$(sed -n 's/^UMask=//p' "$UNIT")
tap_ok "the unit: no capabilities (CapabilityBoundingSet= empty), NoNewPrivileges=yes, a UMask ($umask_)" \
	bash -c "grep -qx 'CapabilityBoundingSet=' '$UNIT' && grep -qx 'NoNewPrivileges=yes' '$UNIT' && [ -n '$umask_' ]"

# The wrapper: the daemon's pid is the wrapper's (unshare, bash and
# setpriv each exec the next).
cat >"$LT_WORK/sandboxed" <<EOF
#!/bin/bash
# latency-trackerd as latency-trackerd.service runs it (daemon-sandbox.sh)
exec unshare -m --propagation private -- bash -ec '
	mount -t proc -o hidepid=invisible proc /proc
	mount --bind "$LT_WORK" "$LT_WORK"
	findmnt -rno TARGET | while read -r m; do
		m=\$(printf "%b" "\$m")
		case \$m in "$LT_WORK" | /dev | /dev/* | /proc | /proc/*) continue ;; esac
		mount -o remount,bind,ro "\$m"
	done
	mount --bind /proc/sys /proc/sys && mount -o remount,bind,ro /proc/sys
	for h in /root /home /run/user; do
		case "$LT_TOP/" in "\$h"/*) continue ;; esac
		[ ! -d "\$h" ] || mount -t tmpfs -o ro,mode=000 protect-home "\$h"
	done
	umask $umask_
	exec setpriv --bounding-set=-all --inh-caps=-all --ambient-caps=-all \
		--no-new-privs -- "\$@"
' latency-trackerd "$LTD" "\$@"
EOF
chmod 755 "$LT_WORK/sandboxed"

tap_ok "lttng-sessiond starts" sessiond_start
tap_ok "wakeup tracker loads" wakeup_load 250000000
victims_start 1
victim=${VICTIM_PIDS[0]}
LTD=$LT_WORK/sandboxed daemon_start "$log" --output "$out" --trackers wakeup --explain on \
	--wakeup.filter_tgid="$victim"
wait_for 10 bash -c "[ \"\$(cat /proc/$LTD_PID/comm 2>/dev/null)\" = latency-tracker ]"
sleep 1
tap_ok "the confined daemon runs" \
	bash -c "[ \"\$(cat /proc/$LTD_PID/comm 2>/dev/null)\" = latency-tracker ]" || {
	sed 's/^/#   /' "$log"
	sed 's/^/#   /' "$LT_WORK/daemon.err"
	tap_done
}
st=/proc/$LTD_PID/status
tap_diag "$(grep -E '^(Cap(Prm|Eff|Bnd|Amb)|NoNewPrivs):' "$st" 2>/dev/null | tr '\t\n' '  ')"
tap_ok "the daemon runs with no capability (CapPrm, CapEff, CapBnd, CapAmb 0)" \
	bash -c "[ \$(grep -cE '^Cap(Prm|Eff|Bnd|Amb):[[:space:]]+0+\$' '$st') = 4 ]"
tap_ok "and no_new_privs" grep -qE '^NoNewPrivs:[[:space:]]+1$' "$st"
tap_ok "its / is read-only, its work directory writable" \
	bash -c "findmnt -N $LTD_PID -rno OPTIONS / | grep -q '^ro' && findmnt -N $LTD_PID -rno OPTIONS '$LT_WORK' | grep -q '^rw'"
tap_ok "its /proc hides other users' processes (hidepid=invisible)" \
	bash -c "findmnt -N $LTD_PID -rno OPTIONS /proc | grep -q 'hidepid=invisible'"

tap_ok "/proc/latency_tracker reachable: watching wakeup" \
	wait_for 60 log_has "$log" '"type":"watch","tracker":"wakeup"' || {
	sed 's/^/#   /' "$log"
	tap_done
}
filter=$(grep -m 1 '"type":"filter"' "$log")
tap_diag "$filter"
tap_ok "the filter written to /proc/latency_tracker/wakeup/filter_tgid" \
	bash -c "grep -q '\"filter\":\"filter_tgid\"' <<<'$filter' && ! grep -q '\"error\"' <<<'$filter'"
tap_is "the kernel has it" "$(tr -d ' \n' </proc/latency_tracker/wakeup/filter_tgid)" "$victim"
tap_ok "lttng-sessiond reachable: session ready" \
	wait_for 60 log_has "$log" '"type":"session","state":"ready"'
sleep 0.2
hog_run 600
sleep 0.3
victims_stop
tap_ok "snapshot of the victim's alert" \
	wait_for 30 log_has "$log" "\"type\":\"snapshot\".*\"pid\":$victim,"
path=$(json "$(grep '"type":"snapshot"' "$log" | grep -m 1 "\"pid\":$victim,")" path)
tap_ok "the snapshot is on disk" test -d "${path:-/nonexistent}"
report=${path:-/nonexistent}/explain/explain.txt
tap_ok "explain's child wrote its report beside the snapshot" wait_for 120 test -s "$report"
tap_ok "explain finished with status 0" wait_for 30 log_has "$log" '"type":"explain_done".*"status":0'
tap_is "the report's mode follows the unit's UMask=$umask_" \
	"$(stat -c %a "$report" 2>/dev/null)" "$(printf '%o' $((0666 & ~0$umask_)))"
tap_ok "the daemon exits 0 on SIGTERM" daemon_stop
tap_ok "its session is destroyed" bash -c '! lttng list 2>/dev/null | grep -q latency-trackerd'
[ "$_tap_failed" = 0 ] || { sed 's/^/#   /' "$log" | tail -n 20; sed 's/^/#   /' "$LT_WORK/daemon.err" | tail -n 10; }
tap_done
