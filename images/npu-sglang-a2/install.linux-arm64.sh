#!/usr/bin/env bash
# GENERATED FILE: do not edit. Rendered from pins.yaml by templates/install.sh.j2; change it and run
# `make render` (or `python build.py render`). What it installs is read at run time from images/npu-sglang-a2/pylock.linux-arm64.toml
# and images/npu-sglang-a2/pins.json: this script holds no version or hash of its own.
#
# Installs on this host, without a container, what the image npu-sglang-a2 installs for linux/arm64
# (npu, SoC ascend910b1, python 3.11): the same locked files tier by tier with
# pip --require-hashes, the same git commits and patches, and an activation file with the image's ENV.
#
#   images/npu-sglang-a2/install.linux-arm64.sh [--venv DIR] [--wheelhouse DIR] [--cache DIR] [--python PYTHON]
#                                [--system-packages] [--system-python] [--allow-unverified NAME ...]
#
#   --venv DIR         where to install: a new venv is created there, or an existing venv or conda
#                      environment of python 3.11 is installed into
#                      (default: ${XDG_DATA_HOME:-~/.local/share}/verl-ascend/npu-sglang-a2-aarch64)
#   --wheelhouse DIR   install offline from DIR, which `python build.py wheelhouse npu-sglang-a2 --platform linux/arm64
#                      --out DIR` fills on a machine with network (every file is checked against the sha256
#                      its lock recorded before anything is installed); without it files are downloaded
#   --cache DIR        where downloads and checked-out sources go (default: ${XDG_CACHE_HOME:-~/.cache}/verl-ascend)
#   --python PYTHON    the interpreter a new venv is made from (default: python3 if it is python 3.11, else
#                      python3.11)
#   --system-packages  install the image's missing system packages with apt-get first (Debian/Ubuntu, as root)
#   --system-python    allow --venv to be a python that is no venv or conda environment (never done otherwise)
#   --allow-unverified NAME
#                      install component NAME although the lock holds no sha256 for its file (its index did
#                      not answer `build.py lock`): taken as served and listed with its sha256; without it
#                      such a file stops the install before anything downloads (repeatable)
#
# Run it from a checkout of this repository: the install itself is baremetal/host_install.py, which runs
# installer/install_tier.py, payload/bin/apply_patches.py, payload/bin/fetch_source.py and installer/verify.py
# from this checkout, as the image build does. A second run changes nothing; a failed run resumes at the
# part that failed.
set -euo pipefail

IMAGE=npu-sglang-a2
PLATFORM=linux/arm64
ARCH=aarch64
PYTHON_VERSION=3.11
GLIBC=2.35
CANN_VERSION=8.5.0
SYSTEM_PACKAGES=(ca-certificates libnuma1 libibverbs1 libcurl4 gcc libc6-dev g++ make git libnuma-dev pkg-config)
ENV_SCRIPTS=(/usr/local/Ascend/ascend-toolkit/set_env.sh /usr/local/Ascend/nnal/atb/set_env.sh)

say() { echo "install.sh: $*"; }
fail() { echo "install.sh: $*" >&2; exit 1; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
venv=${XDG_DATA_HOME:-$HOME/.local/share}/verl-ascend/$IMAGE-$ARCH
cache=${XDG_CACHE_HOME:-$HOME/.cache}/verl-ascend
wheelhouse=
python=
system_packages=0
system_python=0
allow_unverified=()
while [ $# -gt 0 ]; do
    case $1 in
        --venv) venv=${2:?--venv needs a directory}; shift 2 ;;
        --wheelhouse) wheelhouse=${2:?--wheelhouse needs a directory}; shift 2 ;;
        --cache) cache=${2:?--cache needs a directory}; shift 2 ;;
        --python) python=${2:?--python needs an interpreter}; shift 2 ;;
        --system-packages) system_packages=1; shift ;;
        --system-python) system_python=1; shift ;;
        --allow-unverified) allow_unverified+=(--allow-unverified "${2:?--allow-unverified needs a component name}"); shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d'; exit 0 ;;
        *) fail "unknown option $1 (see --help)" ;;
    esac
done

# ---------------------------------------------------------------- the host: what the image's base pins
have_arch=$(uname -m)
[ "$have_arch" = "$ARCH" ] || fail "this host is $have_arch; this script installs $IMAGE for $PLATFORM: run install.linux-*.sh for $have_arch from images/$IMAGE/"
have_glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')
[ -n "$have_glibc" ] || fail "cannot read the glibc version (getconf GNU_LIBC_VERSION): $IMAGE's wheels need glibc >= $GLIBC"
[ "$(printf '%s\n' "$GLIBC" "$have_glibc" | sort -V | head -n1)" = "$GLIBC" ] \
    || fail "glibc $have_glibc is older than $GLIBC, which $IMAGE's locked wheels are built for: use a host with glibc >= $GLIBC, or the container image"

missing=()
if command -v dpkg-query >/dev/null; then
    for package in "${SYSTEM_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
elif [ "${SYSTEM_PACKAGES[*]}" != "" ]; then
    say "not a Debian/Ubuntu host: make sure the equivalents of these packages are installed: ${SYSTEM_PACKAGES[*]}"
fi
if [ "${missing[*]}" != "" ]; then
    [ "$system_packages" = 1 ] || fail "missing system packages: ${missing[*]}: run \`apt-get install -y --no-install-recommends ${missing[*]}\` as root, or pass --system-packages"
    [ "$(id -u)" = 0 ] || fail "--system-packages needs root to install ${missing[*]}"
    say "installing system packages: ${missing[*]}"
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if [ -x "$venv/bin/python" ]; then
    python=$venv/bin/python
elif [ -z "$python" ]; then
    # python3 first: the image makes its venv with it, and the venv's scripts name it in their first line
    for candidate in python3 "python$PYTHON_VERSION"; do
        found=$(command -v "$candidate" || true)
        if [ -n "$found" ] && [ "$("$found" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)" = "$PYTHON_VERSION" ]; then
            python=$found
            break
        fi
    done
    python=${python:-$(command -v python3 || true)}
fi
[ -n "$python" ] || fail "no python $PYTHON_VERSION found: install python$PYTHON_VERSION (with its venv module), or pass --python"
have_python=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null) \
    || fail "$python does not run: pass --python with a python $PYTHON_VERSION interpreter"
[ "$have_python" = "$PYTHON_VERSION" ] \
    || fail "$python is python $have_python; $IMAGE is built for python $PYTHON_VERSION: pass --python with a python $PYTHON_VERSION, or a --venv of that python"

if [ -n "$CANN_VERSION" ]; then
    toolkit=${ASCEND_TOOLKIT_HOME:-/usr/local/Ascend/ascend-toolkit/latest}
    have_cann=$(find "$toolkit/" -maxdepth 3 \( -name ascend_toolkit_install.info -o -name version.info \) -exec grep -h '^version=' {} + 2>/dev/null | head -n1 | cut -d= -f2)
    [ -n "$have_cann" ] || fail "no CANN toolkit at $toolkit: install CANN $CANN_VERSION (toolkit and NNAL) or set ASCEND_TOOLKIT_HOME"
    case $have_cann in
        "$CANN_VERSION"*) ;;
        *) fail "CANN $have_cann is installed at $toolkit; $IMAGE pins CANN $CANN_VERSION: install CANN $CANN_VERSION, or use the script of an image built on CANN $have_cann" ;;
    esac
    for script in "${ENV_SCRIPTS[@]}"; do
        [ -f "$script" ] || fail "$script is missing: install CANN $CANN_VERSION's toolkit and NNAL (ATB), whose set_env scripts the image sources"
    done
fi
[ -f "$root/baremetal/host_install.py" ] || fail "run this script from a checkout of the repository (no baremetal/ next to images/)"
say "host: $have_arch, glibc $have_glibc, python $have_python ($python)${CANN_VERSION:+, CANN $CANN_VERSION}"

# ---------------------------------------------------------------- the install: the layout below, completed from the lock
args=(--repo "$root" --venv "$venv" --cache "$cache")
[ -z "$wheelhouse" ] || args+=(--wheelhouse "$wheelhouse")
[ "$system_python" = 0 ] || args+=(--system-python)
args+=("${allow_unverified[@]}")
"$python" "$root/baremetal/host_install.py" "${args[@]}" <<'LAYOUT'
{
 "format": 2,
 "image": "npu-sglang-a2",
 "platform": "linux/arm64",
 "python": "3.11",
 "device": "npu",
 "system_site_packages": true,
 "image_venv": "/opt/venv",
 "env_scripts": ["/usr/local/Ascend/ascend-toolkit/set_env.sh", "/usr/local/Ascend/nnal/atb/set_env.sh"],
 "env": [["DEBIAN_FRONTEND", "noninteractive"], ["LANG", "C.UTF-8"], ["PIP_NO_CACHE_DIR", "1"], ["PIP_DISABLE_PIP_VERSION_CHECK", "1"], ["VIRTUAL_ENV", "/opt/venv"], ["PATH", "/opt/venv/bin:$PATH"], ["PYTHONUNBUFFERED", "1"], ["VERL_USE_EXTERNAL_MODULES", "mindspeed.megatron_adaptor"]],
 "soc_version": "ascend910b1",
 "parts": [
  {"slug": "1-tools/deps", "tier": "tools", "takes": {"except": ["setuptools"]}, "items": []},
  {"slug": "1-tools/pins", "tier": "tools", "takes": {"only": ["setuptools"]}, "items": [{"component": "setuptools", "dist": "setuptools", "env": {}, "soc_env": "", "source": "pypi"}]},
  {"slug": "2-torch/deps", "tier": "torch", "takes": {"except": ["torch", "torch-npu", "torchvision", "triton-ascend"]}, "items": []},
  {"slug": "2-torch/pins", "tier": "torch", "takes": {"only": ["torch", "torch-npu", "torchvision", "triton-ascend"]}, "items": [{"component": "torch-sglang", "dist": "torch", "env": {}, "soc_env": "", "source": "pypi"}, {"component": "torchvision-sglang", "dist": "torchvision", "env": {}, "soc_env": "", "source": "pypi"}, {"component": "torch-npu-sglang", "dist": "torch-npu", "env": {}, "soc_env": "", "source": "pypi"}, {"component": "triton-ascend", "dist": "triton-ascend", "env": {}, "soc_env": "", "source": "pypi"}]},
  {"slug": "3-frameworks/deps", "tier": "frameworks", "takes": {"except": ["megatron-core", "mindspeed", "mooncake-transfer-engine-npu", "sgl-kernel-npu-a2", "sglang"]}, "items": []},
  {"slug": "3-frameworks/pins", "tier": "frameworks", "takes": {"only": ["megatron-core", "mindspeed", "mooncake-transfer-engine-npu", "sgl-kernel-npu-a2", "sglang"]}, "items": [{"component": "sglang", "dist": "sglang", "env": {}, "soc_env": "", "source": "git", "git": {"kind": "git", "subdirectory": "python", "pyproject": "python/pyproject_npu.toml"}}, {"component": "sgl-kernel-npu-a2", "dist": "sgl-kernel-npu-a2", "env": {}, "soc_env": "", "source": "archive"}, {"component": "megatron-lm", "dist": "megatron-core", "env": {}, "soc_env": "", "source": "git", "git": {"kind": "git"}}, {"component": "mindspeed", "dist": "mindspeed", "env": {}, "soc_env": "", "source": "git", "git": {"kind": "git"}}, {"component": "mooncake-npu", "dist": "mooncake-transfer-engine-npu", "env": {}, "soc_env": "", "source": "pypi"}]},
  {"slug": "4-app/deps-ray", "tier": "app", "takes": {"only": ["ray"]}, "items": []},
  {"slug": "4-app/deps-virtualenv", "tier": "app", "takes": {"only": ["virtualenv"]}, "items": []},
  {"slug": "4-app/deps-wandb", "tier": "app", "takes": {"only": ["wandb"]}, "items": []},
  {"slug": "4-app/deps", "tier": "app", "takes": {"except": ["mbridge", "ray", "transformers", "verl", "virtualenv", "wandb"]}, "items": []},
  {"slug": "4-app/pins-mbridge", "tier": "app", "takes": {"only": ["mbridge"]}, "items": [{"component": "mbridge", "dist": "mbridge", "env": {}, "soc_env": "", "source": "pypi"}]},
  {"slug": "4-app/pins-transformers", "tier": "app", "takes": {"only": ["transformers"]}, "items": [{"component": "transformers", "dist": "transformers", "env": {}, "soc_env": "", "source": "pypi"}]},
  {"slug": "4-app/pins-verl-npu", "tier": "app", "takes": {"only": ["verl"]}, "items": [{"component": "verl-npu", "dist": "verl", "env": {}, "soc_env": "", "source": "pypi"}]}
 ]
}
LAYOUT
