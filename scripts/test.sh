#!/usr/bin/env bash
# Builds rocewire and runs every test (unit, e2e, fuzz for a bounded time).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
scripts/build.sh
cd "$BUILD_DIR"
ctest --output-on-failure -j2 "$@"
