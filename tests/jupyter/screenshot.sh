#!/bin/sh
# tests/jupyter/screenshot.sh: remake docs/notebook.png, the picture of the
# example notebook in docs/jupyter.md: examples/series.ipynb executed on the
# `marubatsu` kernel and converted to HTML by nbconvert, then shot by
# Debian's headless Chromium (with src/jupyter/svg.html.j2, which keeps SVG
# outputs, and, for the Japanese title, a CJK font such as fonts-ipafont-gothic:
# without one Chromium draws boxes).
# Usage: sh tests/jupyter/screenshot.sh [PROGRAM [OUT.png]]
set -eu
cd "$(dirname "$0")/../.."
program=$(cd "$(dirname "${1:-build/marubatsu}")" && pwd)/$(basename "${1:-build/marubatsu}")
out=${2:-docs/notebook.png}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sh src/jupyter/kernelspec.sh "$tmp/jupyter/kernels/marubatsu" "$PWD/src/jupyter" "$program"
export JUPYTER_PATH="$tmp/jupyter" JUPYTER_RUNTIME_DIR="$tmp/runtime" HOME="$tmp/home"
export PYDEVD_DISABLE_FILE_VALIDATION=1
mkdir -p "$HOME"
/usr/bin/python3 -m nbconvert --to html --template-file "$PWD/src/jupyter/svg.html.j2" \
    --execute --ExecutePreprocessor.kernel_name=marubatsu \
    --ExecutePreprocessor.timeout=1200 --output-dir "$tmp" examples/series.ipynb
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1100,4700 \
    --screenshot="$tmp/shot.png" "file://$tmp/series.html" 2>/dev/null
mv "$tmp/shot.png" "$out"
echo "wrote $out"
