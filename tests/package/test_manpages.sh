#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Each tool's man page lists exactly the options of its option table: the
# long options named on its option headings (a line after .TP that starts
# with .B, .BR or .BI and a dash) equal TOOL --list-options, no more, no
# fewer. rocewire-gen and rocewire-verbs (their tables: gen/opts.c,
# gen/verbs/opts.c).
# usage: test_manpages.sh TOOL=MANPAGE...
set -u
status=0
for pair in "$@"; do
	tool=${pair%%=*} man=${pair#*=}
	name=$(basename "$tool")
	if ! table=$("$tool" --list-options) || [ -z "$table" ]; then
		echo "FAIL: $name --list-options printed nothing or failed"
		status=1
		continue
	fi
	want=$(sed 's/=$//' <<<"$table" | sort -u)
	got=$(awk 'tp && /^\.B[IR]? +\\-/ {print} {tp = /^\.TP/}' "$man" |
		sed 's/\\-/-/g' | grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
	if [ -z "$got" ]; then
		echo "FAIL: $name: no option headings (.TP, then .B \\-...) in $man"
		status=1
	elif [ "$got" != "$want" ]; then
		echo "FAIL: $name: $man's option headings differ from its option table (< table, > man page):"
		diff <(echo "$want") <(echo "$got") | grep '^[<>]'
		status=1
	else
		echo "$name: $(wc -l <<<"$want") options, the same in its table and in $(basename "$man")"
	fi
done
[ $# -gt 0 ] || echo "no tool built"
exit $status
