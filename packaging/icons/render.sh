#!/usr/bin/env bash
# Renders the PNG icons from the scalable SVG (needs rsvg-convert, package librsvg2-bin). The PNGs are committed
# so that building the package needs no SVG renderer; run this after editing the SVG and commit the result.
set -euo pipefail
cd "$(dirname "$0")/hicolor"
svg=scalable/apps/io.github.dirbench.DirBench.svg
for size in 16 32 48 64 128 256; do
  mkdir -p "${size}x${size}/apps"
  rsvg-convert --width "$size" --height "$size" "$svg" -o "${size}x${size}/apps/io.github.dirbench.DirBench.png"
done
