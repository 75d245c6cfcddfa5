#!/bin/sh
# Compiles every compute kernel to SPIR-V for Vulkan (glslc) and translates
# that SPIR-V to Metal Shading Language (spirv-cross). Run by go generate;
# OUT (default: this folder) is where the files go.
set -eu
cd "$(dirname "$0")"
out=${OUT:-.}
for src in *.comp; do
	k=${src%.comp}
	glslc -O --target-env=vulkan1.0 -fshader-stage=compute "$src" -o "$out/$k.spv"
	spirv-cross --msl --msl-version 20100 "$out/$k.spv" --output "$out/$k.metal"
done
