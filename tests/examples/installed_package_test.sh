#!/usr/bin/env bash
# The installed package is enough to build a game: `cmake --install` the build into a fresh prefix
# (the development component: library, public headers, CMake package, pkg-config file), then
# configure and build examples/tiny_game (C++) and examples/c_game (C11) as standalone projects
# from copies outside the tree, with find_package(tickwire) and nothing but the prefix. A header
# the public list misses, a dependency the package does not find, or an include that reaches the
# source tree fails the build (or the check below).
# Usage: installed_package_test.sh SOURCE_DIR BUILD_DIR CMAKE GENERATOR C_COMPILER CXX_COMPILER [LAUNCHER]
set -euo pipefail
source_dir="$1"
build_dir="$2"
cmake="$3"
generator="$4"
c_compiler="$5"
cxx_compiler="$6"
launcher="${7:-}"
work="$build_dir/installed-package-test"  # a fixed place, so a compiler cache can hit on reruns
prefix="$work/prefix"
rm -rf "$work"
mkdir -p "$work"

"$cmake" --install "$build_dir" --prefix "$prefix" --component development >"$work/install.log"
installed="$(cd "$prefix/include" && find tickwire -name '*.h' | LC_ALL=C sort)"
listed="$(sed -n 's|^  \(tickwire/.*\.h\)$|\1|p' "$source_dir/cmake/public_headers.cmake" | LC_ALL=C sort)"
if [[ "$installed" != "$listed" ]]; then
  echo "installed_package_test: the installed headers are not cmake/public_headers.cmake" >&2
  diff <(echo "$listed") <(echo "$installed") >&2 || true
  exit 1
fi
echo "installed_package_test: $(echo "$installed" | wc -l) public headers installed"
pc_libs="$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig:$prefix/lib/x86_64-linux-gnu/pkgconfig" pkg-config --cflags --libs tickwire)"
for lib in -ltickwire -lsodium -lcrypto; do  # the static library's own dependencies come with it
  [[ " $pc_libs " == *" $lib "* ]] || { echo "installed_package_test: tickwire.pc does not give $lib" >&2; exit 1; }
done

launchers=()
if [[ -n "$launcher" ]]; then
  launchers=(-DCMAKE_C_COMPILER_LAUNCHER="$launcher" -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher")
fi
for example in tiny_game c_game; do
  cp -r "$source_dir/examples/$example" "$work/$example"
  "$cmake" -S "$work/$example" -B "$work/build-$example" -G "$generator" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_C_COMPILER="$c_compiler" -DCMAKE_CXX_COMPILER="$cxx_compiler" "${launchers[@]}" \
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON >"$work/configure-$example.log" ||
    { cat "$work/configure-$example.log" >&2; exit 1; }
  "$cmake" --build "$work/build-$example" || exit 1
  if grep -q -- "$source_dir/include" "$work/build-$example/compile_commands.json"; then
    echo "installed_package_test: $example was compiled with the source tree's include directory" >&2
    exit 1
  fi
  echo "installed_package_test: $example built against the installed package"
done
