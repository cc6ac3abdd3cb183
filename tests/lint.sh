#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# lint.sh [CHECK...] - static checks (`make lint`), one TAP line per check:
#   sparse      sparse over our modules, against each kernel line's
#               headers (LT_KERNEL_LINES; the backports lines' in their
#               build root, tests/vm/buildroot.sh): the findings the
#               guests' build of the modules keeps (tests/vm/modules.sh);
#   checkpatch  the kernel's checkpatch.pl --strict (from Debian's
#               linux-source-6.1) over our kernel sources;
#   cppcheck    cppcheck over the userspace tools and the library;
#   prototypes  LT_PROBE_TPS's build-time check of a probe against its
#               tracepoint's prototype, against one kernel line's headers
#               (LT_PROTO_LINE, default 6.12): tests/kmod/proto_check/
#               must build with its probe's right prototype and fail, in
#               check_trace_callback_type_sched_switch() and nowhere
#               else, with a wrong one.
#   hotpath     the functions every system call, switch and wakeup runs,
#               every hit of a custom tracker's probe, and every received
#               packet's (netrx)
#               (LT_HOT_FUNCS below, with their .isra/.constprop/.part/
#               .cold parts), built against one kernel line (LT_HOT_LINE,
#               default 6.12; Debian builds its kernels with
#               INIT_STACK_ALL_ZERO: every stack variable is zeroed), hold
#               no string instruction and call no memset/memcpy/memmove
#               (a struct zeroed or copied whole; emulators run one
#               iteration per element, CPUs pay a start-up cost).
# Default: all five.  A finding fails its check unless
# tests/lint-exceptions.txt justifies it: one line
# "<tool> <file> <regex> # why", the regex matched against the finding's text.
# A check that could not run fails too: its tool missing, its input empty,
# a kernel line that does not resolve, a tool that ended in error, fewer
# files checked than given.
set -u
set -o pipefail
. "$(dirname "$0")/vm/common.sh"

exceptions=$LT_TOP/tests/lint-exceptions.txt
work=$(mktemp -d)
mkdir -p "$LT_CACHE/tmp" && kwork=$(mktemp -d -p "$LT_CACHE/tmp") || exit 1
trap 'rm -rf "$work" "$kwork"' EXIT
n=0 failed=0

# filter TOOL < findings > unexplained findings ("file:line: text" lines)
filter() {
	local tool=$1 line f t pat ok
	while IFS= read -r line; do
		ok=0
		while read -r t f pat; do
			[ "$t" = "$tool" ] || continue
			pat=${pat%%#*}
			pat=${pat% }
			case $line in *"$f"*) [[ $line =~ $pat ]] && ok=1 ;; esac
		done < <(grep -vsE '^\s*(#|$)' "$exceptions")
		[ $ok = 1 ] || echo "$line"
	done
}

result() { # check findings-file what-was-checked
	n=$((n + 1))
	if [ -s "$2" ]; then
		failed=$((failed + 1))
		echo "not ok $n - $1 ($(wc -l <"$2") findings)"
		head -n 40 "$2" | sed 's/^/#   /'
	else
		echo "ok $n - $1 clean ($3)"
	fi
}

# A check that could not run: never "clean".
not_run() { # check why
	n=$((n + 1)) failed=$((failed + 1))
	echo "not ok $n - $1 (did not run: $2)"
}

# Our kernel sources, tracked or new (not ignored).
ksources() {
	(cd "$LT_TOP" && { git ls-files --cached --others --exclude-standard \
		'tracker/*.[ch]' 'include/*.h' 'probes/*.[ch]' 'probes/**/*.[ch]' \
		'tests/kmod/*.c' 'tests/kmod/**/*.c' 2>/dev/null ||
		find tracker include probes tests/kmod -name '*.[ch]' 2>/dev/null; }) | sort -u
}

lint_sparse() {
	local line kver d checked
	for line in $LT_KERNEL_LINES; do
		if ! kver=$("$LT_TOP/tests/vm/kernel.sh" headers "$line" 2>"$work/err"); then
			not_run "sparse on $line" "cannot get the kernel line's headers: $(tail -n 1 "$work/err")"
			continue
		fi
		lt_krun "$kver" sh -c 'command -v sparse' >/dev/null ||
			{ not_run "sparse on $kver" "sparse is not installed"; continue; }
		[ -e "$(lt_kdir "$kver")/Makefile" ] ||
			{ not_run "sparse on $kver" "no headers at $(lt_kdir "$kver")"; continue; }
		# The guests' build of the modules checks what it compiles and
		# keeps the findings (modules.sh): up to date, it builds nothing.
		d=$kwork/sparse-$line
		if ! "$LT_TOP/tests/vm/modules.sh" "$kver" "$d" >/dev/null 2>"$work/err"; then
			not_run "sparse on $kver" "the modules did not build: $(tail -n 1 "$work/err")"
			continue
		fi
		[ -e "$d/sparse.txt" ] ||
			{ not_run "sparse on $kver" "the build kept no sparse findings ($d/sparse.txt)"; continue; }
		checked=$(sed -n 's/^checked \([0-9]*\)$/\1/p' "$d/sparse.txt")
		{ grep -v '^checked ' "$d/sparse.txt" | filter sparse
		  [ "${checked:-0}" -gt 0 ] || echo "sparse checked no file"; } >"$work/sparse-$line.out"
		result "sparse on $kver" "$work/sparse-$line.out" "${checked:-0} files"
	done
}

# checkpatch.pl and its data files, extracted once into the cache (into a
# directory of this run's own, renamed into place: runs at once are safe).
checkpatch_script() {
	local cp_dir=$LT_CACHE/checkpatch tarball tmp
	if [ ! -x "$cp_dir/scripts/checkpatch.pl" ]; then
		tarball=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -n 1)
		[ -n "$tarball" ] || { echo "linux-source-6.1 is not installed (make lint installs it)"; return 1; }
		mkdir -p "$LT_CACHE"
		tmp=$(mktemp -d "$cp_dir.XXXXXX") || return 1
		if ! tar -xf "$tarball" -C "$tmp" --strip-components=1 --wildcards \
			'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
			'*/scripts/const_structs.checkpatch'; then
			rm -rf "$tmp"
			echo "cannot extract checkpatch.pl from $tarball"
			return 1
		fi
		chmod 0755 "$tmp"
		# Another run may have won: keep its copy.
		mv -T "$tmp" "$cp_dir" 2>/dev/null || rm -rf "$tmp"
	fi
	echo "$cp_dir/scripts/checkpatch.pl"
}

lint_checkpatch() {
	local cp f i rc files=0
	ksources >"$work/ksources"
	[ -s "$work/ksources" ] ||
		{ not_run "checkpatch --strict on the kernel sources" "no kernel source found in $LT_TOP"; return; }
	cp=$(checkpatch_script) || { not_run "checkpatch --strict on the kernel sources" "$cp"; return; }
	: >"$work/checkpatch.raw" && : >"$work/checkpatch.fail"
	# One run per file, as many at once as the host has CPUs; each
	# leaves its output and exit status under $work/cp/<n>.
	mkdir -p "$work/cp"
	nl -ba "$work/ksources" | xargs -P "$(nproc)" -L 1 sh -c \
		'"$0" --strict --no-tree --terse --show-types \
			--ignore SPDX_LICENSE_TAG,FILE_PATH_CHANGES -f "$1/$4" >"$2/cp/$3.out" 2>&1
		echo $? >"$2/cp/$3.rc"' "$cp" "$LT_TOP" "$work"
	while read -r i f; do
		files=$((files + 1))
		rc=$(cat "$work/cp/$i.rc" 2>/dev/null || echo none)
		# 0: clean, 1: findings; anything else: it did not check the file.
		case $rc in 0 | 1) ;; *)
			echo "$f: checkpatch.pl failed (exit $rc): $(tail -n 1 "$work/cp/$i.out" 2>/dev/null)" >>"$work/checkpatch.fail" ;;
		esac
		grep -E '^[^ ]+:[0-9]+: (ERROR|WARNING|CHECK)' "$work/cp/$i.out" 2>/dev/null |
			sed "s|$LT_TOP/||" >>"$work/checkpatch.raw"
	done < <(nl -ba "$work/ksources")
	{ filter checkpatch <"$work/checkpatch.raw"; cat "$work/checkpatch.fail"; } >"$work/checkpatch.out"
	result "checkpatch --strict on the kernel sources" "$work/checkpatch.out" "$files files"
}

lint_cppcheck() {
	local name="cppcheck on tools/ and lib/" files checked
	files=$(find "$LT_TOP/tools" "$LT_TOP/lib" -name '*.c' 2>/dev/null | wc -l)
	[ "$files" -gt 0 ] || { not_run "$name" "no C file under $LT_TOP/tools"; return; }
	command -v cppcheck >/dev/null || { not_run "$name" "cppcheck is not installed"; return; }
	if ! cppcheck --enable=warning,style,performance,portability --std=c11 \
		--error-exitcode=0 --inline-suppr --template='{file}:{line}: {severity}: {message} [{id}]' \
		-I "$LT_TOP/tools/lib" -I "$LT_TOP/tools/cli" -I "$LT_TOP/tools/daemon" -I "$LT_TOP/tools/explain" \
		-I "$LT_TOP/lib" -I "$LT_TOP/include" "$LT_TOP/tools" "$LT_TOP/lib" >"$work/cppcheck.log" 2>&1; then
		not_run "$name" "cppcheck failed: $(tail -n 1 "$work/cppcheck.log")"
		return
	fi
	# Without --quiet, cppcheck names each file it checks.
	checked=$(grep -cE '^Checking .* \.\.\.$' "$work/cppcheck.log")
	{ sed "s|$LT_TOP/||" "$work/cppcheck.log" | grep -E '^[^ ]+:[0-9]+: ' | filter cppcheck
	  [ "$checked" -ge "$files" ] || echo "cppcheck checked $checked of $files files"; } >"$work/cppcheck.out"
	result "$name" "$work/cppcheck.out" "$checked files"
}

# proto_build KVER DIR WRONG: tests/kmod/proto_check/ and the headers it uses
# copied into DIR (under the cache: a build root sees it at the same
# path), its object built against KVER with LT_PROTO_WRONG=WRONG; the
# log in DIR/log.
proto_build() {
	local d=$2
	mkdir -p "$d/tracker" "$d/probes/common" "$d/tests/kmod" &&
		cp -r "$LT_TOP/include" "$d/" &&
		cp "$LT_TOP"/tracker/*.h "$d/tracker/" &&
		cp "$LT_TOP"/probes/common/*.h "$d/probes/common/" &&
		cp -r "$LT_TOP/tests/kmod/proto_check" "$d/tests/kmod/" ||
		{ echo "cannot copy the sources" >"$d/log"; return 2; }
	lt_kmake "$1" M="$d/tests/kmod/proto_check" LT_PROTO_WRONG="$3" \
		lt_proto_check.o >"$d/log" 2>&1
}

lint_prototypes() {
	local line=${LT_PROTO_LINE:-6.12} kver b rc
	local name="probe prototypes checked at build time"
	local want='error: passing argument 1 of .check_trace_callback_type_sched_switch. from incompatible pointer type'
	if ! kver=$("$LT_TOP/tests/vm/kernel.sh" headers "$line" 2>"$work/err"); then
		not_run "$name on $line" "cannot get the kernel line's headers: $(tail -n 1 "$work/err")"
		return
	fi
	[ -e "$(lt_kdir "$kver")/Makefile" ] ||
		{ not_run "$name on $kver" "no headers at $(lt_kdir "$kver")"; return; }
	: >"$work/proto.out"
	# The right prototype builds: the wrong one's failure is its own.
	b=$kwork/proto-right
	proto_build "$kver" "$b" 0
	rc=$?
	[ $rc = 0 ] && [ -s "$b/tests/kmod/proto_check/lt_proto_check.o" ] ||
		{ echo "the right prototype did not build (exit $rc):"
		  grep -E 'error|Error' "$b/log" | head -n 10; } >>"$work/proto.out"
	b=$kwork/proto-wrong
	proto_build "$kver" "$b" 1
	rc=$?
	if [ $rc = 0 ]; then
		echo "a probe with a wrong prototype built (LT_PROBE_TPS checked nothing)" >>"$work/proto.out"
	elif ! grep -qE "$want" "$b/log"; then
		{ echo "the wrong prototype failed (exit $rc) but not as it must ($want):"
		  tail -n 10 "$b/log"; } >>"$work/proto.out"
	elif grep -E '(^|: )(fatal )?error: ' "$b/log" | grep -vqE "$want"; then
		{ echo "the wrong prototype failed with other errors too:"
		  grep -E '(^|: )(fatal )?error: ' "$b/log" | grep -vE "$want" | head -n 10; } >>"$work/proto.out"
	fi
	n=$((n + 1))
	if [ -s "$work/proto.out" ]; then
		failed=$((failed + 1))
		echo "not ok $n - $name on $kver"
		sed 's/^/#   /' "$work/proto.out"
	else
		echo "ok $n - $name on $kver (the right prototype builds; the wrong one fails: $(grep -m 1 -oE "$want" "$b/log"))"
	fi
}

# module: functions of the probe path (each must exist).
LT_HOT_FUNCS=(
	"tracker/latency_tracker.ko: latency_tracker_event_in latency_tracker_event_out
	 latency_tracker_event_out_switch latency_tracker_find_event latency_tracker_event_record"
	"probes/latency_tracker_wakeup.ko: lt_wakeup_probe_waking lt_wakeup_probe_wakeup
	 lt_wakeup_probe_switch lt_wakeup_probe_migrate lt_probe_track_task
	 lt_ct_switch lt_ct_wait_begin lt_ct_wait_queued lt_ct_probe_irq_entry lt_ct_probe_irq_exit
	 lt_ct_probe_vector_entry lt_ct_probe_vector_exit
	 lt_ct_probe_softirq_entry lt_ct_probe_softirq_exit"
	"probes/latency_tracker_offcpu.ko: lt_offcpu_probe_switch lt_offcpu_probe_waking"
	"probes/latency_tracker_syscalls.ko: lt_syscalls_probe_enter lt_syscalls_probe_exit
	 lt_syscalls_probe_switch lt_syscalls_start lt_bd_switch_in lt_bd_begin_switch"
	"probes/latency_tracker_custom.ko: lt_custom_kprobe_pre lt_custom_kretprobe_ret
	 lt_custom_fn_entry lt_custom_fn_ret lt_custom_tp_probe"
	"probes/latency_tracker_net.ko: lt_netrx_probe_receive lt_netrx_probe_copy
	 lt_netrx_udp_pre lt_netrx_probe_kfree lt_netrx_probe_consume"
	"probes/latency_tracker_app.ko: lt_bd_probe_switch lt_bd_probe_wakeup"
	"probes/latency_tracker_irq.ko: lt_irq_probe_irq_entry lt_irq_probe_irq_exit
	 lt_irq_probe_vector_entry lt_irq_probe_vector_exit lt_irq_probe_raise
	 lt_irq_probe_softirq_entry lt_irq_probe_softirq_exit"
	"probes/latency_tracker_lock.ko: lt_lock_probe_begin lt_lock_probe_end"
)
lint_hotpath() {
	local line=${LT_HOT_LINE:-6.12} kver entry ko fn body nfn=0
	local name="no string instruction or mem* call on the probe path"
	command -v objdump >/dev/null || { not_run "$name" "no objdump"; return; }
	if ! kver=$("$LT_TOP/tests/vm/kernel.sh" headers "$line" 2>"$work/err"); then
		not_run "$name on $line" "cannot get the kernel line's headers: $(tail -n 1 "$work/err")"
		return
	fi
	if ! "$LT_TOP/tests/vm/modules.sh" "$kver" "$kwork/hot" >/dev/null 2>"$work/err"; then
		not_run "$name on $kver" "the modules did not build: $(tail -n 1 "$work/err")"
		return
	fi
	: >"$work/hot.raw"
	for entry in "${LT_HOT_FUNCS[@]}"; do
		ko=${entry%%:*}
		for fn in ${entry#*:}; do
			# The function and the parts GCC split off or specialised.
			body=$(objdump -dr --no-show-raw-insn "$kwork/hot/$ko" |
				awk -v f="$fn" '/^[0-9a-f]+ <.*>:$/ {
					name = substr($2, 2, length($2) - 3)
					on = name == f || index(name, f ".") == 1; next }
					on && /^$/ { on = 0 } on')
			if [ -z "$body" ]; then
				echo "$ko: $fn: not found" >>"$work/hot.raw"
				continue
			fi
			nfn=$((nfn + 1))
			grep -E '\brep[a-z]* +(stos|movs)|R_X86_64_(PLT|PC)32[[:space:]]+(__)?mem(set|cpy|move)\b' \
				<<<"$body" | sed "s|^|$ko: $fn: |" >>"$work/hot.raw"
		done
	done
	filter hotpath <"$work/hot.raw" >"$work/hot.out"
	result "$name on $kver" "$work/hot.out" "$nfn functions"
}

checks=("$@")
[ ${#checks[@]} = 0 ] && checks=(sparse checkpatch cppcheck prototypes hotpath)
for c in "${checks[@]}"; do
	case $c in
	sparse | checkpatch | cppcheck | prototypes | hotpath) "lint_$c" ;;
	*) lt_die "unknown check '$c' (known: sparse checkpatch cppcheck prototypes hotpath)" ;;
	esac
done
echo "1..$n"
[ $failed = 0 ]
