#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Every source file states its licence in an "SPDX-License-Identifier:" line
# within its first 3 lines, and it is the licence decided for its place
# (LICENSE, wireshark-plugin/LICENSE): GPL-2.0-or-later under
# wireshark-plugin/, BSD-3-Clause elsewhere, the exceptions in want_for.
# Source files: the tracked ones (git ls-files) in a git checkout, else those
# found (a tree without .git: build folders, caches and corpora left out)
# ending in .c .h .sh .py .cmake .yaml .in .bash-completion or .1-.9 (man
# pages), and CMakeLists.txt. Not data (.json .pcap .md .txt ...),
# tests/e2e/bad-scenarios/ (its line numbers are what its tests expect),
# tests/fuzz/seeds and regressions (fuzzer inputs), nor packaging/copyright.in
# (the DEP-5 copyright file itself).
# usage: test_spdx.sh SOURCE_DIR   checks the tree
#        test_spdx.sh --self-test  checks this script on made-up trees
set -u

is_source() {
	case $1 in
	packaging/copyright.in | tests/e2e/bad-scenarios/* | tests/fuzz/seeds/* | tests/fuzz/regressions/*)
		return 1 ;;
	*.c | *.h | *.sh | *.py | *.cmake | *.yaml | *.in | *.bash-completion | *.[1-9]) return 0 ;;
	CMakeLists.txt | */CMakeLists.txt) return 0 ;;
	esac
	return 1
}

want_for() {
	case $1 in
	wireshark-plugin/*) echo GPL-2.0-or-later ;;
	# loaded into the kernel, which wants a GPL-compatible licence for the
	# GPL-only helpers it calls
	tests/e2e/ecn_marker.bpf.c | tests/e2e/between_rule.bpf.c) echo "BSD-3-Clause OR GPL-2.0-only" ;;
	*) echo BSD-3-Clause ;;
	esac
}

# in_git DIR: DIR is the top of a git checkout (not a folder inside another)
in_git() {
	local top
	top=$(git -C "$1" rev-parse --show-toplevel 2>/dev/null) && [ "$(cd "$top" && pwd -P)" = "$1" ]
}

# list_files DIR HOW: the candidate files, relative to DIR, one a line
list_files() {
	if [ "$2" = git ]; then
		git -C "$1" ls-files
	else
		(cd "$1" && find . \( -name .git -o -name __pycache__ -o -path './build*' -o -path ./out \
			-o -path ./demo-out -o -path './tests/fuzz/corpus-*' \
			-o \( -type d -exec test -e '{}/CMakeCache.txt' \; \) \) -prune \
			-o -type f -print) | sed 's,^\./,,'
	fi
}

# check DIR: prints one line a bad file and a summary; 0 when all are right.
check() {
	local dir=$1 f id want n=0 bad=0 how=find
	in_git "$dir" && how=git
	while IFS= read -r f; do
		is_source "$f" || continue
		[ -f "$dir/$f" ] || continue # tracked, deleted in the work tree
		n=$((n + 1))
		want=$(want_for "$f")
		id=$(head -n 3 "$dir/$f" | grep -m1 -o 'SPDX-License-Identifier:.*')
		if [ -z "$id" ]; then
			echo "FAIL: $f: no SPDX-License-Identifier line in its first 3 lines (want $want)"
			bad=$((bad + 1))
			continue
		fi
		id=${id#SPDX-License-Identifier:}
		id=${id%\*/}
		read -r id <<<"$id" # trimmed
		if [ "$id" != "$want" ]; then
			echo "FAIL: $f: SPDX-License-Identifier: $id (want $want)"
			bad=$((bad + 1))
		fi
	done < <(list_files "$dir" $how)
	[ $how = git ] && how="git ls-files"
	if [ $n -eq 0 ]; then
		echo "FAIL: no source file found in $dir ($how)"
		return 1
	fi
	echo "$n source files ($how): $bad without the licence of their place"
	[ $bad -eq 0 ]
}

self_test() {
	local status=0 out rc
	t=$(mktemp -d "${TMPDIR:-/tmp}/rw-spdx.XXXXXX")
	trap 'rm -rf "$t"' EXIT
	mk() { mkdir -p "$(dirname "$t/tree/$1")" && printf '%b' "$2" >"$t/tree/$1"; }
	mk lib.c '/* SPDX-License-Identifier: BSD-3-Clause */\nint x;\n'
	mk tool/run.sh '#!/bin/sh\n# SPDX-License-Identifier: BSD-3-Clause\ntrue\n'
	mk CMakeLists.txt '# SPDX-License-Identifier: BSD-3-Clause\n'
	mk doc/tool.1 '.\\" SPDX-License-Identifier: BSD-3-Clause\n.TH TOOL 1\n'
	mk wireshark-plugin/plugin.c '/* SPDX-License-Identifier: GPL-2.0-or-later */\n'
	mk wireshark-plugin/CMakeLists.txt '# SPDX-License-Identifier: GPL-2.0-or-later\n'
	mk tests/e2e/ecn_marker.bpf.c '/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */\n'
	mk tests/e2e/bad-scenarios/typo.yaml 'flows: [\n'
	mk tests/fuzz/seeds/one.c 'not C\n'
	mk samples/data.json '{}\n'
	mk packaging/copyright.in 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n'
	mk build-x/CMakeFiles/id.c 'int main(void) { return 0; }\n'
	mk elsewhere/CMakeCache.txt '\n'
	mk elsewhere/gen.c 'int y;\n'
	# expect WHAT RC [GREP] : the last check exited RC, its output has GREP
	expect() {
		if [ "$rc" -ne "$2" ] || { [ -n "${3:-}" ] && ! grep -q -- "$3" <<<"$out"; }; then
			echo "FAIL: self-test: $1: exit $rc (want $2${3:+, output with '$3'}):"
			echo "$out"
			status=1
		else
			echo "ok: $1"
		fi
	}
	# variant NAME PATH CONTENT RC GREP: the good tree with PATH replaced
	variant() {
		rm -rf "$t/v" && cp -a "$t/tree" "$t/v"
		mkdir -p "$(dirname "$t/v/$2")" && printf '%b' "$3" >"$t/v/$2"
		out=$(check "$(cd "$t/v" && pwd -P)" 2>&1)
		rc=$?
		expect "$1" "$4" "$5"
	}
	out=$(check "$(cd "$t/tree" && pwd -P)" 2>&1)
	rc=$?
	expect "a right tree passes (find: data, bad-scenarios, seeds, build folders left out)" 0 \
		"^7 source files (find)"
	variant "a file without an SPDX line fails" lib.c 'int x;\n' 1 "FAIL: lib.c: no SPDX"
	variant "an SPDX line on line 4 fails" tool/run.sh '#!/bin/sh\n\n\n# SPDX-License-Identifier: BSD-3-Clause\n' \
		1 "FAIL: tool/run.sh: no SPDX"
	variant "a man page without one fails" doc/tool.1 '.TH TOOL 1\n' 1 "FAIL: doc/tool.1"
	variant "a new source file without one fails" gen/new.h '#pragma once\n' 1 "FAIL: gen/new.h"
	variant "BSD-3-Clause under wireshark-plugin/ fails" wireshark-plugin/plugin.c \
		'/* SPDX-License-Identifier: BSD-3-Clause */\n' 1 "FAIL: wireshark-plugin/plugin.c: .*want GPL-2.0-or-later"
	variant "GPL elsewhere fails" lib.c '// SPDX-License-Identifier: GPL-2.0-or-later\n' 1 \
		"FAIL: lib.c: .*want BSD-3-Clause"
	variant "the BPF program's dual licence elsewhere fails" tests/e2e/other.bpf.c \
		'/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */\n' 1 "FAIL: tests/e2e/other.bpf.c"
	if command -v git >/dev/null; then
		# In a checkout only tracked files count: an untracked file without
		# a line passes, a tracked one fails.
		rm -rf "$t/v" && cp -a "$t/tree" "$t/v"
		git -C "$t/v" init -q && git -C "$t/v" add -A . &&
			git -C "$t/v" rm -q -r --cached build-x elsewhere && printf 'int z;\n' >"$t/v/untracked.c"
		out=$(check "$(cd "$t/v" && pwd -P)" 2>&1)
		rc=$?
		expect "in a git checkout, git ls-files: an untracked file is not checked" 0 "(git ls-files)"
		git -C "$t/v" add untracked.c
		out=$(check "$(cd "$t/v" && pwd -P)" 2>&1)
		rc=$?
		expect "in a git checkout, a tracked file without a line fails" 1 "FAIL: untracked.c"
	else
		echo "self-test: git is missing, the git ls-files case is not checked"
	fi
	return $status
}

case ${1:-} in
--self-test) self_test ;;
'') echo "usage: test_spdx.sh SOURCE_DIR | --self-test" >&2; exit 2 ;;
*) check "$(cd "$1" && pwd -P)" ;;
esac
