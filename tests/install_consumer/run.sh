#!/usr/bin/env bash
# Builds and runs the consumer project beside this script against collision, one of two ways:
#
#   run.sh installed    <source dir> <build dir> <work dir>
#       installs the already built <build dir> into <work dir>/prefix (cmake --install), then
#       configures the consumer with -DCMAKE_PREFIX_PATH=<work dir>/prefix (find_package)
#   run.sh subdirectory <source dir> <build dir> <work dir>
#       configures the consumer with add_subdirectory(<source dir>), building the library afresh
#
# Optional environment (tests/CMakeLists.txt passes the parent build's values):
#   CONSUMER_GENERATOR, CONSUMER_CXX_COMPILER, CONSUMER_BUILD_TYPE,
#   CONSUMER_SANITIZE (the parent's COLLISION_SANITIZE: the consumer must link the same runtime),
#   COLLISION_LIBRARY (the built library: built first if missing).
set -euo pipefail

if (($# != 4)); then
  echo "usage: $0 installed|subdirectory <source dir> <build dir> <work dir>" >&2
  exit 2
fi
mode="$1"
source_dir="$2"
build_dir="$3"
work_dir="$4"
consumer_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

configure_args=()
[[ -n "${CONSUMER_GENERATOR:-}" ]] && configure_args+=(-G "$CONSUMER_GENERATOR")
[[ -n "${CONSUMER_CXX_COMPILER:-}" ]] && configure_args+=("-DCMAKE_CXX_COMPILER=$CONSUMER_CXX_COMPILER")
[[ -n "${CONSUMER_BUILD_TYPE:-}" ]] && configure_args+=("-DCMAKE_BUILD_TYPE=$CONSUMER_BUILD_TYPE")
if [[ -n "${CONSUMER_SANITIZE:-}" ]]; then
  flags="-fsanitize=$CONSUMER_SANITIZE -fno-omit-frame-pointer"
  configure_args+=("-DCMAKE_CXX_FLAGS=$flags" "-DCMAKE_EXE_LINKER_FLAGS=$flags")
fi
configure_args+=(-DCMAKE_EXPORT_COMPILE_COMMANDS=ON)

mkdir -p "$work_dir"
consumer_build="$work_dir/build"
rm -rf "$consumer_build"

case "$mode" in
  installed)
    # The library must be built before it can be installed. script/test builds everything before
    # ctest; a bare ctest in a build directory that was never built gets the library built here.
    if [[ -n "${COLLISION_LIBRARY:-}" && ! -f "$COLLISION_LIBRARY" ]]; then
      echo "== building the library first ($COLLISION_LIBRARY is missing)"
      cmake --build "$build_dir" --target collision
    fi
    # The CommonRoad reader is installed beside it, when it is part of the build.
    if grep -q '^COLLISION_BUILD_COMMONROAD:BOOL=ON' "$build_dir/CMakeCache.txt" 2>/dev/null; then
      cmake --build "$build_dir" --target collision_commonroad
    fi
    prefix="$work_dir/prefix"
    rm -rf "$prefix"
    echo "== cmake --install $build_dir --prefix $prefix"
    cmake --install "$build_dir" --prefix "$prefix"

    # The installed headers are what a planner compiles: Eigen and the standard library only.
    if grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](boost|yaml-cpp)/' \
      "$prefix/include/collision"; then
      echo "FAILED: installed headers include Boost or yaml-cpp (above)" >&2
      exit 1
    fi
    for installed in share/collision/default.yaml share/doc/collision/LICENSE; do
      if [[ ! -f "$prefix/$installed" ]]; then
        echo "FAILED: $installed is not installed" >&2
        exit 1
      fi
    done

    echo "== configuring the consumer with find_package(collision)"
    cmake -S "$consumer_dir" -B "$consumer_build" "${configure_args[@]}" \
      "-DCMAKE_PREFIX_PATH=$prefix"
    ;;
  subdirectory)
    echo "== configuring the consumer with add_subdirectory($source_dir)"
    cmake -S "$consumer_dir" -B "$consumer_build" "${configure_args[@]}" \
      -DCONSUMER_USE_SUBDIRECTORY=ON "-DCOLLISION_SOURCE_DIR=$source_dir"
    ;;
  *)
    echo "run.sh: unknown mode '$mode' (installed or subdirectory)" >&2
    exit 2
    ;;
esac

echo "== building the consumer"
cmake --build "$consumer_build" --parallel 2

# The consumer's own compile line must need neither Boost nor yaml-cpp.
if grep -E '"command".*main\.cpp' "$consumer_build/compile_commands.json" |
  grep -E -- '-(I|isystem) ?[^ ]*(boost|yaml)'; then
  echo "FAILED: the consumer's compile line names Boost or yaml-cpp include directories" >&2
  exit 1
fi

# add_subdirectory builds the library alone unless asked for more: the CommonRoad reader (and
# with it pugixml) only with -DCOLLISION_BUILD_COMMONROAD=ON.
if [[ "$mode" == subdirectory && -e "$consumer_build/consumer_commonroad" ]]; then
  echo "FAILED: add_subdirectory(collision) built the CommonRoad reader by default" >&2
  exit 1
fi

echo "== running the consumer"
"$consumer_build/consumer"
if [[ -x "$consumer_build/consumer_commonroad" ]]; then
  echo "== running the CommonRoad consumer"
  "$consumer_build/consumer_commonroad"
fi
