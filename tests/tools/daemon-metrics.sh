#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# daemon-metrics.sh - latency-trackerd's Prometheus endpoint scraped by a
# real Prometheus server: Debian's `prometheus` package, fetched with
# `apt-get download` and unpacked with `dpkg-deb -x` under
# $LT_CACHE/prometheus (never installed: that would start a service),
# listening on 127.0.0.1 only, scraping the daemon every second.  The
# daemon (ASan) runs against a fake proc root whose histogram and stats
# files are known: PromQL through Prometheus' HTTP API must give back the
# same bucket counts, a p99 in the right bucket, the counters, the
# daemon's own counters and an escaped tracker name.
. "$(dirname "$0")/lib.sh"
tap_plan 34

PQ="python3 $LT_TOP/tests/tools/prom_query.py"

# The prometheus binary, unpacked once into the cache.
prometheus_bin() {
	local dir=$LT_CACHE/prometheus deb root
	mkdir -p "$dir"
	deb=$(ls "$dir"/prometheus_*.deb 2>/dev/null | sort -V | tail -n 1)
	if [ -z "$deb" ]; then
		(cd "$dir" && apt-get download -q prometheus >/dev/null 2>&1) ||
			(apt-get update -q >/dev/null 2>&1 && cd "$dir" &&
			 apt-get download -q prometheus >/dev/null 2>&1) || return 1
		deb=$(ls "$dir"/prometheus_*.deb | sort -V | tail -n 1)
	fi
	root=${deb%.deb}
	if [ ! -x "$root/usr/bin/prometheus" ]; then
		rm -rf "$root.tmp.$$"
		dpkg-deb -x "$deb" "$root.tmp.$$" || return 1
		mv -T "$root.tmp.$$" "$root" 2>/dev/null || rm -rf "$root.tmp.$$"
	fi
	echo "$root/usr/bin/prometheus"
}

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

root=$T_WORK/proc
mk_tracker "$root" wakeup
mk_tracker "$root" offcpu
weird='a"b\c'
mk_tracker "$root" "$weird"
# A known distribution (kernel format); p99 (rank 991 of 1001) is in the
# 4194304..8388607 ns bucket; one record in the last bucket (+Inf).
cat >"$root/wakeup/histogram" <<'EOF'
0 0 2
512 1023 10
65536 131071 200
1048576 2097151 700
4194304 8388607 80
16777216 33554431 8
9223372036854775808 18446744073709551615 1
EOF
cat >"$root/wakeup/stats" <<'EOF'
tracked 1100
matched 1001
over_threshold 89
timeouts 3
dropped 4
pending 5
alerts 89
alerts_lost 2
min_ns 0
max_ns 18446744073709551615
avg_ns 1500000
cancelled 6
filtered 7
alert_records 1024
sum_ns 36893488147419103232
capacity 8192
max_events 131072
grown 1
EOF
printf 'tracked 0\nmatched 0\npending 0\navg_ns 0\n' >"$root/offcpu/stats"
printf '1024 2047 3\n' >"$root/$weird/histogram"
printf 'matched 3\navg_ns 1500\n' >"$root/$weird/stats"

port=$(free_port)
# In a file, so that SIGHUP can move it (the command line would win).
printf 'metrics = 127.0.0.1:%s\n' "$port" >"$T_WORK/metrics.conf"
d_start metrics --config "$T_WORK/metrics.conf" --proc-root "$root" --snapshot off
tap_ok "daemon: serving /metrics" wait_for 10 log_has "$D_LOG" '"type":"metrics","listen":"127.0.0.1:'"$port"
tap_ok "daemon: listens on loopback only" bash -c "ss -Hltn 'sport = :$port' | grep -q '127.0.0.1:$port'"
# http METHOD PATH: "<status> <content-type>", the body into $T_WORK/body.
http() {
	python3 - "$1" "http://127.0.0.1:$port$2" "$T_WORK/body" <<'PY'
import sys, urllib.request, urllib.error
req = urllib.request.Request(sys.argv[2], method=sys.argv[1])
try:
    r = urllib.request.urlopen(req, timeout=10)
except urllib.error.HTTPError as e:
    r = e
open(sys.argv[3], "wb").write(r.read())
print(r.status, r.headers.get("Content-Type"))
PY
}
tap_ok "http: /other is 404" bash -c "[[ '$(http GET /other)' == 404* ]]"
tap_ok "http: POST /metrics is 405" bash -c "[[ '$(http POST /metrics)' == 405* ]]"
ct=$(http GET /metrics)
cp "$T_WORK/body" "$T_WORK/metrics.txt"
tap_ok "http: 200, text format 0.0.4 ($ct)" test "$ct" = "200 text/plain; version=0.0.4; charset=utf-8"
tap_ok "exposition: HELP and TYPE of the histogram" bash -c \
	"grep -qx '# TYPE latency_tracker_delay_seconds histogram' '$T_WORK/metrics.txt' &&
	 grep -q '^# HELP latency_tracker_delay_seconds ' '$T_WORK/metrics.txt'"
tap_ok "exposition: label escaped (\\\" and \\\\)" \
	grep -qF 'latency_tracker_delay_seconds_count{tracker="a\"b\\c"} 3' "$T_WORK/metrics.txt"

prom=$(prometheus_bin)
tap_ok "prometheus: unpacked from Debian's package ($prom)" test -x "${prom:-/nonexistent}"
promtool=${prom%/prometheus}/promtool
tap_ok "promtool check metrics: no lint finding" bash -c \
	"'$promtool' check metrics <'$T_WORK/metrics.txt' >'$T_WORK/promtool.out' 2>&1 && ! [ -s '$T_WORK/promtool.out' ] ||
	 { sed 's/^/#   /' '$T_WORK/promtool.out'; false; }"
pport=$(free_port)
purl=http://127.0.0.1:$pport
cat >"$T_WORK/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: latency-trackerd
    static_configs:
      - targets: ['127.0.0.1:$port']
EOF
"$prom" --config.file="$T_WORK/prometheus.yml" --storage.tsdb.path="$T_WORK/tsdb" \
	--web.listen-address="127.0.0.1:$pport" >"$T_WORK/prometheus.log" 2>&1 &
T_PIDS+=($!)
up() { [ "$($PQ "$purl" value 'up{job="latency-trackerd"}' 2>/dev/null)" = 1 ]; }
tap_ok "prometheus: scrapes the daemon (up == 1)" wait_for 60 up
tap_ok "prometheus: listens on loopback only" bash -c "ss -Hltn 'sport = :$pport' | grep -q '127.0.0.1:$pport'"
out=$($PQ "$purl" buckets wakeup "$root/wakeup/histogram")
tap_ok "promql: every bucket equals the histogram file (cumulative; $out)" \
	$PQ "$purl" buckets wakeup "$root/wakeup/histogram"
tap_ok "promql: empty tracker: 14 buckets (1 us .. 17.2 s, x4, +Inf), all zero" bash -c \
	"$PQ '$purl' buckets offcpu /dev/null &&
	 [ \$(grep -c '^latency_tracker_delay_seconds_bucket{tracker=\"offcpu\"' '$T_WORK/metrics.txt') = 14 ]"
p99=$($PQ "$purl" value 'histogram_quantile(0.99, latency_tracker_delay_seconds_bucket{tracker="wakeup"})')
tap_diag "histogram_quantile(0.99) = $p99 s"
tap_ok "promql: p99 in its bucket (4.19 ms .. 16.8 ms): $p99" \
	python3 -c "import sys; v = float('$p99'); sys.exit(not 0.004194303 < v <= 0.016777215)"
tap_ok "promql: _count = the histogram's total (1001)" \
	test "$($PQ "$purl" value 'latency_tracker_delay_seconds_count{tracker="wakeup"}')" = 1001
tap_ok "exposition: _sum = sum_ns, exact above 2^64 ns (2^65 ns = 36893488147.419103232 s)" \
	grep -qxF 'latency_tracker_delay_seconds_sum{tracker="wakeup"} 36893488147.419103232' "$T_WORK/metrics.txt"
wsum=$($PQ "$purl" value 'latency_tracker_delay_seconds_sum{tracker="a\"b\\c"}')
tap_ok "promql: _sum of a tracker without sum_ns = avg_ns x count (4.5 us: $wsum)" \
	python3 -c "import sys; sys.exit(abs(float('${wsum:-nan}') - 4.5e-06) > 1e-12)"
tap_ok "promql: stats counters (matched_total 1001, dropped_total 4, alerts_lost_total 2)" bash -c \
	"[ \$($PQ $purl value 'latency_tracker_matched_total{tracker=\"wakeup\"}') = 1001 ] &&
	 [ \$($PQ $purl value 'latency_tracker_dropped_total{tracker=\"wakeup\"}') = 4 ] &&
	 [ \$($PQ $purl value 'latency_tracker_alerts_lost_total{tracker=\"wakeup\"}') = 2 ]"
tap_ok "promql: the pool (pool_slots 8192, pool_max_slots 131072, pool_grown_total 1)" bash -c \
	"[ \$($PQ $purl value 'latency_tracker_pool_slots{tracker=\"wakeup\"}') = 8192 ] &&
	 [ \$($PQ $purl value 'latency_tracker_pool_max_slots{tracker=\"wakeup\"}') = 131072 ] &&
	 [ \$($PQ $purl value 'latency_tracker_pool_grown_total{tracker=\"wakeup\"}') = 1 ]"
tap_ok "exposition: no pool series for a tracker whose stats have none" \
	bash -c "! grep -qF 'latency_tracker_pool_slots{tracker=\"a\\\"b' '$T_WORK/metrics.txt'"
tap_ok "promql: escaped tracker name read back" \
	test "$($PQ "$purl" value 'latency_tracker_delay_seconds_count{tracker="a\"b\\c"}')" = 3

# The daemon's own counters follow what it does.
exec 7<>"$root/wakeup/alerts"
alert_line wakeup 6000000 >&7
alert_line wakeup 7000000 >&7
# With a breakdown: 1 ms of thread time, 0.5 ms of irq, and the next
# record's 2 ms of thread time: summed by kind.
printf 'ts=1 tracker=wakeup cause=threshold delay=1500000 pid=42 tgid=42 comm=v irq_ns=500000 softirq_ns=0 thread_ns=1000000 idle_ns=0 other_cpu_ns=0 top_irq=local_timer top_softirq=- top_thread=hog:7 migrated=0 cgroup=1\n' >&7
printf 'ts=2 tracker=wakeup cause=threshold delay=2000000 pid=42 tgid=42 comm=v irq_ns=0 softirq_ns=0 thread_ns=2000000 idle_ns=0 other_cpu_ns=0 top_irq=- top_softirq=- top_thread=hog:7 migrated=0 cgroup=1\n' >&7
daemon_alerts() { [ "$($PQ "$purl" value 'latency_trackerd_alerts_total{tracker="wakeup"}' 2>/dev/null)" = 4 ]; }
tap_ok "promql: the daemon's alerts_total reaches 4" wait_for 15 daemon_alerts
http GET /metrics >/dev/null
tap_ok "breakdown_seconds_total by kind: thread 0.003, irq 0.0005, no series for a kind never seen (idle)" bash -c \
	"grep -qxF 'latency_trackerd_breakdown_seconds_total{tracker=\"wakeup\",kind=\"thread\"} 0.003' '$T_WORK/body' &&
	 grep -qxF 'latency_trackerd_breakdown_seconds_total{tracker=\"wakeup\",kind=\"irq\"} 0.0005' '$T_WORK/body' &&
	 ! grep -q 'kind=\"idle\"' '$T_WORK/body'"
# The Grafana dashboard of the package: every panel's query answered,
# every metric it names in a scrape (the daemon's own counters too, now
# that it read alerts).
http GET /metrics >/dev/null
dash_ok() {
	$PQ "$purl" dashboard "$LT_TOP/tools/daemon/latency-tracker.grafana.json" "$T_WORK/body" \
		>"$T_WORK/dash.out"
}
wait_for 15 dash_ok	# the daemon's counters in Prometheus: its next scrape
tap_ok "grafana dashboard: every query answered, every metric scraped ($(head -n 1 "$T_WORK/dash.out"))" \
	dash_ok || sed 's/^/#   /' "$T_WORK/dash.out"
# New matches: the next scrapes see them.
printf '0 0 2\n512 1023 1010\n' >"$root/wakeup/histogram"
more() { [ "$($PQ "$purl" value 'latency_tracker_delay_seconds_bucket{tracker="wakeup",le="0.000001023"}' 2>/dev/null)" = 1012 ]; }
tap_ok "promql: a changed histogram is scraped again" wait_for 15 more

# A second daemon on the same address: refused at start, said clearly.
ASAN_OPTIONS=verify_asan_link_order=0 "$DAEMON" --config /dev/null --proc-root "$root" \
	--snapshot off --metrics "127.0.0.1:$port" --log "$T_WORK/second.log" \
	>"$T_WORK/second.out" 2>&1
rc=$?
tap_ok "address in use: exit 1, log says so (rc $rc)" bash -c \
	"[ $rc = 1 ] && grep -q 'cannot serve metrics on 127.0.0.1:$port' '$T_WORK/second.out' &&
	 grep -q 'metrics: cannot listen on 127.0.0.1:$port' '$T_WORK/second.log'"
tap_ok "address in use: the reason with the address, no 'port 0'" bash -c \
	"grep -q 'metrics: cannot listen on 127.0.0.1:$port: Address already in use' '$T_WORK/second.log' &&
	 ! grep -q 'port 0' '$T_WORK/second.log' '$T_WORK/second.out'"
tap_ok "start with metrics: no warning from the HTTP library" \
	bash -c "! grep '\"warning\"' '$D_LOG' | grep -q metrics:"

# Figures (not judged): the ASan build is slower and larger than the real one.
if command -v curl >/dev/null; then
	for i in $(seq 20); do
		curl -s -o /dev/null -w '%{time_total}\n' "http://127.0.0.1:$port/metrics"
	done | sort -n | awk '{a[NR] = $1} END {printf "# scrape time of /metrics (ASan build, 3 trackers), 20 runs: median %.2f ms, max %.2f ms\n", a[int((NR + 1) / 2)] * 1000, a[NR] * 1000}'
fi
echo "# daemon (ASan build) $(grep VmRSS /proc/"$D_PID"/status | tr -s ' \t' ' ')"
exec 7>&-
# SIGHUP with another address: served there, no longer on the old one.
port2=$(free_port)
printf 'metrics = 127.0.0.1:%s\n' "$port2" >"$T_WORK/metrics.conf"
kill -HUP "$D_PID"
tap_ok "SIGHUP: metrics moved to the new address" wait_for 10 log_has "$D_LOG" '"type":"metrics","listen":"127.0.0.1:'"$port2"
tap_ok "SIGHUP: the old address closed" bash -c "! ss -Hltn 'sport = :$port' | grep -q LISTEN"
# SIGHUP with other bounds: 1 ms to 1 s, each twice the last (2^20 - 1 ..
# 2^30 - 1 ns: 11 bounds and +Inf); the 1012 delays (histogram above)
# are all below the first.
printf 'metrics = 127.0.0.1:%s\nmetrics-bucket-min = 1ms\nmetrics-bucket-max = 1s\nmetrics-bucket-step = 2\n' \
	"$port2" >"$T_WORK/metrics.conf"
kill -HUP "$D_PID"
port=$port2
rebucketed() {
	http GET /metrics >/dev/null &&
	[ "$(grep -c '^latency_tracker_delay_seconds_bucket{tracker="wakeup"' "$T_WORK/body")" = 12 ]
}
tap_ok "SIGHUP: the histogram's bounds from the configuration (12 buckets)" wait_for 10 rebucketed
tap_ok "... 1.048575 ms first, 1.073741823 s last, counts exact at them" bash -c \
	"grep '^latency_tracker_delay_seconds_bucket{tracker=\"wakeup\"' '$T_WORK/body' | head -n 1 |
	 grep -qF 'le=\"0.001048575\"} 1012' &&
	 grep -qF 'latency_tracker_delay_seconds_bucket{tracker=\"wakeup\",le=\"1.073741823\"}' '$T_WORK/body' &&
	 grep -qF 'latency_tracker_delay_seconds_bucket{tracker=\"wakeup\",le=\"+Inf\"} 1012' '$T_WORK/body'"
d_stop
tap_ok "daemon: exits cleanly" test "$D_RC" = 0
tap_ok "daemon: no ASan/UBSan report" no_sanitizer_report
tap_end
