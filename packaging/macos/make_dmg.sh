#!/usr/bin/env bash
# The macOS disk image: "Triage Desk.app" (built by `pyinstaller packaging/triage-desk.spec`
# on a Mac, into build/dist/) beside a link to /Applications, so that installing is dragging
# the one onto the other. Needs macOS (hdiutil); runs on the hosted runner
# (.github/workflows/package.yml), never on Linux.
#
#     packaging/macos/make_dmg.sh [build/dist/Triage\ Desk.app] [build/]
set -euo pipefail

app=${1:-build/dist/Triage Desk.app}
out_dir=${2:-build}
[ -d "$app" ] || { echo "no app bundle at $app: run pyinstaller on the spec first" >&2; exit 1; }
version=$(/usr/libexec/PlistBuddy -c "Print CFBundleShortVersionString" "$app/Contents/Info.plist")
arch=$(uname -m)
dmg="$out_dir/TriageDesk-$version-macos-$arch.dmg"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cp -R "$app" "$stage/"
ln -s /Applications "$stage/Applications"

# Unsigned: a release signs the app (codesign --deep --options runtime) and notarizes the
# image (xcrun notarytool) with the team's identity, which CI does not hold.
rm -f "$dmg"
hdiutil create -volname "Triage Desk $version" -srcfolder "$stage" -fs HFS+ \
  -format UDZO -imagekey zlib-level=9 "$dmg"
echo "$dmg: $(du -h "$dmg" | cut -f1)"
