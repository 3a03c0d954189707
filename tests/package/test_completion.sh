#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Every long option of each tool (TOOL --list-options, printed from its
# getopt table) appears in TOOL --help, and the bash completion offers
# exactly that list for "TOOL --".
# usage: test_completion.sh COMPLETION_SCRIPT TOOL...
set -u
comp=$1
shift
# shellcheck source=/dev/null
. "$comp" || { echo "FAIL: cannot source $comp"; exit 1; }
status=0
for tool in "$@"; do
	name=$(basename "$tool")
	if ! opts=$("$tool" --list-options) || [ -z "$opts" ]; then
		echo "FAIL: $name --list-options printed nothing or failed"
		status=1
		continue
	fi
	help=$("$tool" --help 2>&1)
	n=0
	for o in $opts; do
		o=${o%=}
		n=$((n + 1))
		if ! grep -q -- "$o\\b" <<<"$help"; then
			echo "FAIL: $name: $o is in its option table but not in --help"
			status=1
		fi
	done
	COMP_WORDS=("$tool" --)
	COMP_CWORD=1
	COMPREPLY=()
	_rocewire_complete "$tool" -- "$tool"
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort)
	want=$(printf '%s\n' $opts | sort)
	if [ "$got" != "$want" ]; then
		echo "FAIL: $name: the completion of '--' differs from its option table:"
		diff <(echo "$want") <(echo "$got")
		status=1
	fi
	# and a prefix completes to the options that start with it
	first=$(head -n1 <<<"$opts")
	COMP_WORDS=("$tool" "${first:0:4}")
	COMPREPLY=()
	_rocewire_complete "$tool" "${first:0:4}" "$tool"
	if ! printf '%s\n' "${COMPREPLY[@]}" | grep -qx -- "$first"; then
		echo "FAIL: $name: '${first:0:4}' does not complete to $first"
		status=1
	fi
	# rocewire-cap -Z and --relinquish-privileges complete user names
	if [ "$name" = rocewire-cap ]; then
		for words in "-Z ro" "--relinquish-privileges ro"; do
			# shellcheck disable=SC2206
			COMP_WORDS=("$tool" $words)
			COMP_CWORD=2
			COMPREPLY=()
			_rocewire_complete "$tool" ro "${COMP_WORDS[1]}"
			if ! printf '%s\n' "${COMPREPLY[@]}" | grep -qx root; then
				echo "FAIL: $name: '$words' does not complete to the user root (got: ${COMPREPLY[*]})"
				status=1
			fi
		done
	fi
	echo "$name: $n long options, all in --help and in the completion"
done
[ $# -gt 0 ] || echo "no tool built"
exit $status
