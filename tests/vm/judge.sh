# SPDX-License-Identifier: GPL-2.0-only
#
# judge.sh - how check-vm.sh judges what a guest boot left in its results
# directory (sourced; tests/vm/selftest.sh uses it too).  Each function
# prints result lines "ok - NAME DETAIL" / "not ok - NAME DETAIL" (the
# caller numbers them) followed by "#" diagnostics.
#
# The kernel log: guest-run.sh streamed every record of the boot into
# kmsg.log and marked each test's start and end (<test>.seq).  kmsg_split
# cuts the stream into windows, so that every record belongs to exactly one
# of them: boot.dmesg (before the first test), <test>.dmesg (from its start
# mark to its end mark) and <test>.dmesg-after (after its end, until the
# next test or the final phase starts: late work of that test).  A window
# with a line matching LT_SPLAT_RE, or with records lost, fails its owner.

# Kernel log lines that fail the test whose window holds them, at any
# level: bugs and warnings (WARN, lockdep, RCU checks, KASAN, UBSAN, list
# and object debugging print through these), oopses, lockups and stalls.
# Not the bare word "lockdep": the debug kernel's boot says "RCU lockdep
# checking is enabled"; lockdep's own reports say what they found.
LT_SPLAT_RE='BUG:|WARNING:|Oops|Call Trace|KASAN|UBSAN:|general protection'
LT_SPLAT_RE+='|lockdep is turned off|turning off the locking correctness validator'
LT_SPLAT_RE+='|kernel BUG at|Kernel panic|suspicious RCU usage|possible circular locking'
LT_SPLAT_RE+='|possible recursive locking|inconsistent lock state|blocked for more than'
LT_SPLAT_RE+='|detected stalls?|soft lockup|hard LOCKUP'
# What the stream says when records are missing from it (kmsg_split).
LT_LOST_RE='lt-harness: [0-9]+ kernel log records lost'

report() { # status name detail
	if [ "$1" = ok ]; then
		echo "ok - $2 $3"
	else
		echo "not ok - $2 $3"
	fi
}

indent() { sed 's/^/#   /'; }

# Each failed assertion of a TAP file with the diagnostics written just
# before it (the last 8 lines, and how many more there were): why it
# failed, in the log CI keeps.
failed_with_diag() { # tap
	awk '/^#/ { d[n++ % 8] = $0; next }
	/^not ok/ {
		if (n > 8)
			print "# (" n - 8 " earlier lines not shown)"
		for (i = (n > 8 ? n - 8 : 0); i < n; i++)
			print d[i % 8]
		print
	}
	{ n = 0 }' "$1"
}

# The console from its first splat line (or its tail when there is none).
console_excerpt() { # console.log
	local first
	echo "#  console ($1):"
	first=$(grep -nE -m 1 "$LT_SPLAT_RE" "$1" | cut -d: -f1)
	if [ -n "$first" ]; then
		tail -n "+$((first > 3 ? first - 3 : 1))" "$1" | head -n 45 | indent
	else
		tail -n 30 "$1" | indent
	fi
}

# kmsg_split DIR NAME...: cut DIR/kmsg.log into the windows of a boot whose
# items (tests, then final-unload) ran in the order given; an item without
# a start mark owns no record.  Records read twice are dropped; a gap in
# the sequence numbers becomes a line "lt-harness: N kernel log records
# lost" in the window where they were.  Dictionary lines (starting with a
# blank) are left out.
kmsg_split() { # dir names...
	local d=$1 t s e
	shift
	rm -f "$d"/*.dmesg "$d"/*.dmesg-after
	for t in "$@"; do
		[ -e "$d/$t.seq" ] || continue
		read -r s e <"$d/$t.seq"
		[[ $s =~ ^[0-9]+$ ]] || continue
		[[ ${e:-} =~ ^[0-9]+$ ]] || e=-
		echo "$t $s $e"
	done >"$d/windows"
	[ -e "$d/kmsg.log" ] || return 0
	awk -v dir="$d" '
	FNR == NR { n++; name[n] = $1; st[n] = $2 + 0; en[n] = $3; next }
	function emit(seq, line,   f) {
		while (cur < n && seq >= st[cur + 1])
			cur++
		if (cur == 0)
			f = dir "/boot.dmesg"
		else if (en[cur] != "-" && seq > en[cur] + 0)
			f = dir "/" name[cur] ".dmesg-after"
		else
			f = dir "/" name[cur] ".dmesg"
		if (f != out) {
			if (out != "")
				close(out)
			out = f
		}
		print line >>out
	}
	/^[0-9]+,[0-9]+,[0-9]+,/ {
		i = index($0, ";")
		split(substr($0, 1, i - 1), h, ",")
		seq = h[2] + 0
		if (seen && seq <= last)
			next
		first = seen ? last + 1 : 0
		if (seq > first)
			emit(first, sprintf("lt-harness: %d kernel log records lost (sequence numbers %d to %d%s)",
				seq - first, first, seq - 1, seen ? "" : ", before the stream started"))
		seen = 1
		last = seq
		emit(seq, sprintf("[%5d.%06d] %s", int(h[3] / 1000000), h[3] % 1000000, substr($0, i + 1)))
	}' "$d/windows" "$d/kmsg.log"
}

# Adds to why[] what is wrong with a TAP file; sets oks and skips.  The
# plan must come first (comments aside) and match the assertions run; a
# "# SKIP" assertion counts as run.
tap_check() { # tap-file
	local f=$1 first plans bad ran
	first=$(grep -vE '^[[:space:]]*(#|$)|^TAP version' "$f" | head -n 1)
	plans=$(grep -cE '^1\.\.[0-9]+' "$f")
	oks=$(grep -cE '^ok [0-9]+' "$f")
	skips=$(grep -cE '^ok [0-9]+.*# *SKIP' "$f")
	bad=$(grep -cE '^not ok [0-9]+' "$f")
	ran=$((oks + bad))
	if [[ $first =~ ^1\.\.([0-9]+) ]]; then
		[ "$plans" -gt 1 ] && why+=("$plans TAP plans")
		[ "${BASH_REMATCH[1]}" != "$ran" ] && why+=("planned ${BASH_REMATCH[1]}, ran $ran")
	elif [ "$plans" -gt 0 ]; then
		why+=("no up-front TAP plan")
	else
		why+=("no TAP plan")
	fi
	[ "$bad" != 0 ] && why+=("$bad not ok")
	grep -q '^Bail out!' "$f" && why+=("bailed out")
}

# Adds to why[] what is wrong with a test's windows of the kernel log.
log_check() { # dir name
	local d=$1 t=$2 s e
	read -r s e <"$d/$t.seq" 2>/dev/null
	[[ ${s:-} =~ ^[0-9]+$ ]] ||
		{ why+=("the kernel log stream did not record its start: its log is unchecked"); return; }
	[[ ${e:-} =~ ^[0-9]+$ ]] || why+=("the kernel log stream did not record its end")
	grep -qsE "$LT_SPLAT_RE" "$d/$t.dmesg" && why+=("kernel splat in dmesg")
	grep -qsE "$LT_SPLAT_RE" "$d/$t.dmesg-after" &&
		why+=("kernel splat after the test ended, before the next began")
	grep -qsE "$LT_LOST_RE" "$d/$t.dmesg" "$d/$t.dmesg-after" && why+=("kernel log records lost")
}

# The splat lines of a window, with the lines just before them (a WARN's
# own message comes before its "WARNING:" line) and after them.
splat_excerpt() { # title file
	grep -qsE "$LT_SPLAT_RE|$LT_LOST_RE" "$2" || return 0
	echo "#  $1 ($2):"
	grep -E -B 3 -A 25 "$LT_SPLAT_RE|$LT_LOST_RE" "$2" | head -n 60 | indent
}

# judge KERNEL NAME DIR [WHO]: one test (or the final phase) that ended.
judge() {
	local k=$1 t=$2 d=$3 who=${4:-} rc ms why=() oks=0 skips=0 extra=
	rc=$(cat "$d/$t.rc")
	ms=$(cat "$d/$t.ms" 2>/dev/null || echo 0)
	{ [ "$rc" = 124 ] || [ "$rc" = 137 ]; } && why+=("timed out after ${LT_TEST_TIMEOUT}s")
	[ "$rc" != 0 ] && why+=("exit status $rc")
	tap_check "$d/$t.tap"
	log_check "$d" "$t"
	if [ ${#why[@]} = 0 ]; then
		[ "$skips" != 0 ] && extra=", $skips skipped"
		report ok "$k/$t" "($who$oks assertions$extra, $((ms / 1000)).$((ms % 1000 / 100)) s)"
		return
	fi
	report fail "$k/$t" "($who$(IFS=';'; echo "${why[*]}"))"
	failed_with_diag "$d/$t.tap" | indent
	[ -s "$d/$t.err" ] && { echo "#  stderr (tail):"; tail -n 15 "$d/$t.err" | indent; }
	splat_excerpt "kernel log" "$d/$t.dmesg"
	splat_excerpt "kernel log after the test ended" "$d/$t.dmesg-after"
	echo "#  results: $d"
}

# A test during which the guest died: the console and the end of the
# test's window of the stream (what the console level may have hidden).
judge_crash() { # kernel name dir [who]
	local k=$1 t=$2 d=$3 who=${4:-}
	report fail "$k/$t" "(${who}the guest crashed or hung during this test)"
	[ -e "$d/watchdog" ] && echo "#  watchdog: $(cat "$d/watchdog")"
	console_excerpt "$d/console.log"
	if [ -s "$d/$t.dmesg" ]; then
		echo "#  kernel log stream, end of this test's window ($d/$t.dmesg):"
		tail -n 25 "$d/$t.dmesg" | indent
	fi
	echo "#  results: $d"
}

# judge_boot KERNEL DIR N [WHO]: the kernel log of boot N before its first
# test.
judge_boot() {
	local k=$1 d=$2 b=$3 who=${4:-}
	if [ ! -s "$d/kmsg.log" ]; then
		report fail "$k/boot" "(${who}boot $b: no kernel log stream in $d)"
	elif grep -qsE "$LT_SPLAT_RE|$LT_LOST_RE" "$d/boot.dmesg"; then
		report fail "$k/boot" "(${who}boot $b: kernel splat or lost records before the first test)"
		splat_excerpt "kernel log" "$d/boot.dmesg"
	else
		report ok "$k/boot" "(${who}boot $b: kernel log clean before the first test)"
	fi
}

# kmemleak.txt of a boot whose final phase ran: every object still
# unreferenced after all our modules were unloaded.  Ours: a backtrace
# frame in one of our modules, or a frame left as a bare address (code of
# a module unloaded since, as ours are by then); the kernel's own are only
# shown.  EXPECTED=1 (a kernel built with kmemleak): a boot without the
# report fails -- debugfs not mounted, the scan refused -- instead of
# passing unseen; EXPECTED=0: nothing to judge.
judge_kmemleak() { # kernel dir who expected
	local k=$1 d=$2 who=$3 ours all
	if [ ! -e "$d/kmemleak.txt" ]; then
		[ "${4:-0}" = 1 ] || return 0
		report fail "$k/kmemleak" "(${who}no kmemleak report from a kernel built with kmemleak: was debugfs mounted?)"
		grep -E '^(not ok|#)' "$d/final-unload.tap" 2>/dev/null | indent
		return
	fi
	all=$(grep -c '^unreferenced object' "$d/kmemleak.txt")
	ours=$(awk '/^unreferenced object/ { if (rec != "" && mine) print rec; rec = ""; mine = 0 }
		{ rec = rec $0 "\n" }
		/\[<[0-9a-f]+>\] (0x[0-9a-f]+|[^ ]+ \[(latency_tracker[a-z_]*|lt_[a-z_]*)\])$/ { mine = 1 }
		END { if (rec != "" && mine) print rec }' "$d/kmemleak.txt")
	if [ -z "$ours" ]; then
		report ok "$k/kmemleak" "(${who}nothing of ours unreferenced after unloading; $all other objects)"
		[ "$all" = 0 ] || head -n 20 "$d/kmemleak.txt" | indent
		return
	fi
	report fail "$k/kmemleak" "(${who}objects allocated by our modules leaked)"
	printf '%b' "$ours" | head -n 60 | indent
}
