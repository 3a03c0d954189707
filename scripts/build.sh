#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Configures and builds rocewire into ${BUILD_DIR:-build}.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-RelWithDebInfo} >"$BUILD_DIR.configure.log" 2>&1 ||
	{ cat "$BUILD_DIR.configure.log" >&2; exit 1; }
grep 'rocewire:' "$BUILD_DIR.configure.log" >&2 || true
cmake --build "$BUILD_DIR" -j"$(nproc)" >"$BUILD_DIR.build.log" 2>&1 ||
	{ tail -50 "$BUILD_DIR.build.log" >&2; exit 1; }
