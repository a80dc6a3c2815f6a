# Sourced by scripts/check-api-breakage and scripts/update-api-baseline: the product modules
# whose API is recorded in APIBaseline/, and how to reach their built modules.
#
#   api_modules   the library products' modules, one per product
#   api_build     builds them into the scratch path $1 (a no-op where CI built them already)
#                 and sets api_flags, the digester's arguments that find them

api_modules=(InvalidatingCore InvalidatingBinding InvalidatingPlatform InvalidatingInvalidation
  Invalidating InvalidatingTesting)

api_build() {
  local scratch="$1" bin
  for target in Invalidating InvalidatingTesting; do
    swift build --scratch-path "$scratch" --target "$target" -Xswiftc -warnings-as-errors \
      | grep -vE '^\[[0-9]+/[0-9]+\] ' || true
  done
  bin="$(swift build --scratch-path "$scratch" --show-bin-path)"
  for module in Invalidating InvalidatingTesting; do
    [ -f "$bin/Modules/$module.swiftmodule" ] || {
      echo "the build in $scratch has no Modules/$module.swiftmodule" >&2
      return 1
    }
  done
  # The C module the engine imports (the thread's context) is found by its module map.
  api_flags=(-I "$bin/Modules" -I "$bin/InvalidatingPrimitives.build" -abort-on-module-fail)
}
