#!/usr/bin/env bash
# Builds a self-contained folder for GPU machines that have no Java: a jlink-ed Java runtime holding only the
# modules harness.jar needs (as jdeps reports them), the slim harness.jar, and a `harness` launcher.
# The folder is meant to be carried to the device as is; it must stay under 64 MiB.
#
# Usage: scripts/make-runtime.sh [OUT_DIR]        (default: runtime/, ignored by git)
#   JAR=path/to/harness.jar overrides the jar (default: harness/target/harness.jar; build it with mvn -B package)
# Needs: a JDK 17+ with jdeps and jlink on PATH. The runtime needs glibc >= 2.34, libz and libstdc++ on the device.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-runtime}
JAR=${JAR:-harness/target/harness.jar}
LIMIT=$((64 * 1024 * 1024))

[ -f "$JAR" ] || { echo "make-runtime: $JAR not found: run 'mvn -B package' first" >&2; exit 2; }
for tool in jdeps jlink; do
  command -v "$tool" >/dev/null || { echo "make-runtime: $tool not on PATH (install a JDK 17+)" >&2; exit 2; }
done
[ -e "$OUT" ] && { echo "make-runtime: $OUT exists; remove it first" >&2; exit 2; }

modules=$(jdeps --print-module-deps --ignore-missing-deps --multi-release 17 "$JAR")
echo "modules (jdeps): $modules"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# --compress=2 is zip compression of the module image (JDK 17 syntax; newer JDKs also accept zip-6).
jlink --add-modules "$modules" --strip-debug --no-header-files --no-man-pages --compress=2 --output "$tmp/rt"
mv "$tmp/rt" "$OUT"
cp "$JAR" "$OUT/harness.jar"
cat > "$OUT/harness" <<'LAUNCHER'
#!/usr/bin/env bash
# java -jar harness.jar with the runtime next to this script.
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/bin/java" -jar "$here/harness.jar" "$@"
LAUNCHER
chmod +x "$OUT/harness"

total=$(du -sb "$OUT" | cut -f1)
printf 'runtime: %s bytes (%s)\n' "$(du -sb "$OUT/lib" | cut -f1)" "$OUT/lib"
printf 'jar:     %s bytes\n' "$(stat -c %s "$OUT/harness.jar")"
printf 'total:   %s bytes in %s (limit %s)\n' "$total" "$OUT" "$LIMIT"
"$OUT/bin/java" -version 2>&1 | head -1
if [ "$total" -ge "$LIMIT" ]; then
  echo "make-runtime: $OUT is $total bytes, over the 64 MiB carry limit" >&2
  exit 1
fi
