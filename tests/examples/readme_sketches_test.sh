#!/usr/bin/env bash
# The README's code sketches stay true: a fenced block whose first line names a file in a comment
# ("// examples/tiny_game/tiny_server.cpp", "# examples/c_game/CMakeLists.txt") is an excerpt of
# that file, so every other line of it (leading spaces aside; "..." lines skip) must appear in the
# file in the same order. The files themselves are built and run by the examples' tests.
# Usage: readme_sketches_test.sh SOURCE_DIR
set -euo pipefail
source_dir="$1"
readme="$source_dir/README.md"
checked=0
failed=0

check_block() {  # $1: the file the block names; the block's lines in the array `block`
  local path="$source_dir/$1" cursor=0 line found i
  if [[ ! -f "$path" ]]; then
    echo "readme_sketches_test: README names $1, which does not exist" >&2
    failed=1
    return
  fi
  mapfile -t lines < <(sed 's/^[[:space:]]*//' "$path")
  for line in "${block[@]}"; do
    line="${line#"${line%%[![:space:]]*}"}"
    [[ -z "$line" || "$line" == "..." ]] && continue
    found=0
    for ((i = cursor; i < ${#lines[@]}; ++i)); do
      if [[ "${lines[$i]}" == "$line" ]]; then
        found=1
        cursor=$((i + 1))
        break
      fi
    done
    if [[ $found -eq 0 ]]; then
      echo "readme_sketches_test: README's excerpt of $1 has a line the file lacks (or out of order): $line" >&2
      failed=1
    fi
  done
  checked=$((checked + 1))
}

in_block=0
named=""
block=()
while IFS= read -r text; do
  if [[ $in_block -eq 0 && "$text" =~ ^\`\`\` ]]; then
    in_block=1
    named=""
    block=()
  elif [[ $in_block -eq 1 && "$text" =~ ^\`\`\` ]]; then
    in_block=0
    [[ -n "$named" ]] && check_block "$named"
  elif [[ $in_block -eq 1 && ${#block[@]} -eq 0 && -z "$named" && "$text" =~ ^(//|#)\ (examples/[^ ]+)$ ]]; then
    named="${BASH_REMATCH[2]}"
  elif [[ $in_block -eq 1 ]]; then
    block+=("$text")
  fi
done <"$readme"

if [[ $checked -eq 0 ]]; then
  echo "readme_sketches_test: README has no excerpt naming an example" >&2
  exit 1
fi
[[ $failed -eq 0 ]] || exit 1
echo "readme_sketches_test: $checked README excerpts match their files"
