# Sourced by scripts/check-api-breakage and scripts/update-api-baseline: the product modules
# whose API is recorded in APIBaseline/, and how to reach their built modules.
#
#   api_modules   the library products' modules, one per product
#   api_build     builds them into the scratch path $1 (a no-op where CI built them already)
#                 and sets api_flags, the digester's arguments that find them

api_modules=(InvalidatingCore InvalidatingBinding InvalidatingPlatform InvalidatingInvalidation
  Invalidating)

api_build() {
  local scratch="$1" bin
  swift build --scratch-path "$scratch" --target Invalidating -Xswiftc -warnings-as-errors \
    | grep -vE '^\[[0-9]+/[0-9]+\] ' || true
  bin="$(swift build --scratch-path "$scratch" --show-bin-path)"
  [ -f "$bin/Modules/Invalidating.swiftmodule" ] || {
    echo "the build in $scratch has no Modules/Invalidating.swiftmodule" >&2
    return 1
  }
  # The C module the engine imports (the thread's context) is found by its module map.
  api_flags=(-I "$bin/Modules" -I "$bin/InvalidatingThreadLocal.build" -abort-on-module-fail)
}
