#!/usr/bin/env bash
# GENERATED FILE: do not edit. Rendered from pins.yaml and images/npu-a2-verl0.8.0/pylock.linux-amd64.toml by templates/install.sh.j2;
# change those and run `make render` (or `python build.py render`).
#
# Installs on this host, without a container, what the image npu-a2-verl0.8.0 installs for linux/amd64
# (npu, SoC ascend910b1, python 3.11): the same locked files tier by tier with
# pip --require-hashes, the same git commits and patches, and an activation file with the image's ENV.
#
#   images/npu-a2-verl0.8.0/install.linux-amd64.sh [--venv DIR] [--wheelhouse DIR] [--cache DIR] [--python PYTHON]
#                                [--system-packages] [--system-python] [--allow-unverified NAME ...]
#
#   --venv DIR         where to install: a new venv is created there, or an existing venv or conda
#                      environment of python 3.11 is installed into
#                      (default: ${XDG_DATA_HOME:-~/.local/share}/verl-ascend/npu-a2-verl0.8.0-x86_64)
#   --wheelhouse DIR   install offline from DIR, which `python build.py wheelhouse npu-a2-verl0.8.0 --platform linux/amd64
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

IMAGE=npu-a2-verl0.8.0
PLATFORM=linux/amd64
ARCH=x86_64
PYTHON_VERSION=3.11
GLIBC=2.35
CANN_VERSION=9.0.0
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

# ---------------------------------------------------------------- the install, from the plan below
args=(--repo "$root" --venv "$venv" --cache "$cache")
[ -z "$wheelhouse" ] || args+=(--wheelhouse "$wheelhouse")
[ "$system_python" = 0 ] || args+=(--system-python)
args+=("${allow_unverified[@]}")
"$python" "$root/baremetal/host_install.py" "${args[@]}" <<'PLAN'
{
 "format": 1,
 "image": "npu-a2-verl0.8.0",
 "platform": "linux/amd64",
 "lock_inputs": "256aff7ff49ef7142ac69301ff90b58cbd6087ab7e2dd790a399e12e18095fc3",
 "python": "3.11",
 "device": "npu",
 "system_site_packages": true,
 "image_venv": "/opt/venv",
 "env_scripts": ["/usr/local/Ascend/ascend-toolkit/set_env.sh", "/usr/local/Ascend/nnal/atb/set_env.sh"],
 "env": [["DEBIAN_FRONTEND", "noninteractive"], ["LANG", "C.UTF-8"], ["PIP_NO_CACHE_DIR", "1"], ["PIP_DISABLE_PIP_VERSION_CHECK", "1"], ["VIRTUAL_ENV", "/opt/venv"], ["PATH", "/opt/venv/bin:$PATH"], ["PYTHONUNBUFFERED", "1"], ["VERL_USE_EXTERNAL_MODULES", "mindspeed.megatron_adaptor"]],
 "patches": [{"diff": "mbridge-dequant-device.diff", "file": "mbridge/models/ext/deepseek_v3/dequant_fp8_safetensor_io.py", "name": "mbridge-dequant-device", "package": "mbridge", "sha256": "485085d84c9f7dfc49641f70393e008d210da92e4ed6eefa0dd83b4b3c90679e"}],
 "pins": {"base": {"image": "quay.io/ascend/cann", "name": "cann-9.0.0-a2", "source": "image", "tag": "9.0.0-910b-ubuntu22.04-py3.11"}, "cann_version": "9.0.0", "constraints": [{"dist": "arctic-inference", "name": "arctic-inference-verl0.8.0", "source": "pypi", "version": "0.1.1"}, {"dist": "opencv-python-headless", "name": "opencv-python-headless-verl0.8.0", "source": "pypi", "version": "4.11.0.86"}], "device": "npu", "env": {"VERL_USE_EXTERNAL_MODULES": "mindspeed.megatron_adaptor"}, "image": "npu-a2-verl0.8.0", "mounted_libraries": ["libascend_hal.so", "libdrvdsmi_host.so", "libdcmi.so"], "patches": [{"diff": "mbridge-dequant-device.diff", "file": "mbridge/models/ext/deepseek_v3/dequant_fp8_safetensor_io.py", "name": "mbridge-dequant-device", "package": "mbridge", "sha256": "485085d84c9f7dfc49641f70393e008d210da92e4ed6eefa0dd83b4b3c90679e"}], "pip_extra_index": {"linux/amd64": "https://download.pytorch.org/whl/cpu"}, "platforms": ["linux/arm64", "linux/amd64"], "python": "3.11", "repository": "verl-ascend", "soc_version": "ascend910b1", "stack": {"addons": [{"dist": "flash-linear-attention", "name": "flash-linear-attention-verl0.8.0", "source": "pypi", "version": "0.5.0"}, {"dist": "viztracer", "name": "viztracer-verl0.8.0", "source": "pypi", "version": "1.1.1"}], "bridge": [{"dist": "mbridge", "name": "mbridge-verl0.8.0", "source": "pypi", "version": "0.15.1"}, {"branch": "main", "commit": "de93536e9028ecf1e4dc28608dc80f336dcdfe59", "dist": "megatron-bridge", "import_path": "/opt/sources/megatron-bridge/src", "name": "megatron-bridge", "repo": "https://github.com/NVIDIA-NeMo/Megatron-Bridge.git", "source": "git"}], "megatron": [{"branch": "core_r0.16.0", "commit": "ddc0d6774783b032ddceacc5714e653651daecb9", "dist": "megatron-core", "name": "megatron-lm-verl0.8.0", "repo": "https://github.com/NVIDIA/Megatron-LM.git", "source": "git"}], "mindspeed": [{"branch": "core_r0.16.0", "commit": "e4772499f7eb9fa9a68919dd1eaddef00e915b2d", "dist": "mindspeed", "name": "mindspeed-verl0.8.0", "repo": "https://github.com/Ascend/MindSpeed.git", "source": "git"}], "tools": [{"dist": "setuptools", "name": "setuptools-verl0.8.0", "source": "pypi", "version": "80.10.2"}], "torch": [{"dist": "torch", "name": "torch-verl0.8.0", "source": "pypi", "version": "2.9.0"}], "torch_npu": [{"dist": "torch-npu", "name": "torch_npu-verl0.8.0", "source": "pypi", "version": "2.9.0.post2"}], "torchaudio": [{"dist": "torchaudio", "name": "torchaudio-verl0.8.0", "source": "pypi", "version": "2.9.0"}], "torchvision": [{"dist": "torchvision", "name": "torchvision-verl0.8.0", "source": "pypi", "version": "0.24.0"}], "transformers": [{"dist": "transformers", "name": "transformers-verl0.8.0", "source": "pypi", "version": "5.3.0"}], "triton_ascend": [{"dist": "triton-ascend", "name": "triton-ascend-verl0.8.0", "source": "pypi", "version": "3.2.1"}], "verl": [{"branch": "release/v0.8.0", "commit": "3e4edb6e3d6872ad8aa21af83e98ee6e1bea19a2", "dist": "verl", "name": "verl-verl0.8.0", "repo": "https://github.com/verl-project/verl.git", "source": "git", "version": "0.8.0"}], "vllm": [{"dist": "vllm", "name": "vllm-verl0.8.0", "sha256": "9a1bee091db8dbb4664a2a09cd9c61912e9912a44af1ce12b8593a231d05971c", "source": "url", "url": "https://files.pythonhosted.org/packages/39/a9/ed48c497572a41552cc71b5ede15291d882c546a01df27ed42944eb3b3ad/vllm-0.18.0.tar.gz", "version": "0.18.0"}], "vllm_ascend": [{"branch": "releases/v0.18.0", "commit": "35b0fdf7d57aee5bd93793e03506ae2d85959595", "dist": "vllm-ascend", "name": "vllm-ascend-verl0.8.0", "repo": "https://github.com/vllm-project/vllm-ascend.git", "source": "git", "version": "0.18.0"}]}, "tag": "verl0.8.0-cann9.0.0-a2-py3.11-torch2.9.0", "wins_over": ["opencv-python-headless", "transformers"], "without": ["nvidia-modelopt", "triton"]},
 "parts": [
  {"slug": "1-tools/deps",
   "requirements": [
    "cmake==4.4.5 --hash=sha256:85625a9b6d5e88ff99c7eb79123d85570844e77ac076366cf75c609cc0b1b579",
    "nanobind==2.9.2 --hash=sha256:c37957ffd5eac7eda349cff3622ecd32e5ee1244ecc912c99b5bc8188bafd16e",
    "ninja==1.13.2 --hash=sha256:65a24341b5ac09fcadcc37082660be40a94174e51a937fabf6e2cae26225fa2c",
    "packaging==25.0 --hash=sha256:29572ef2b1f17581046b3a2227d5c611fb25ec70ca1ba8554b24b0e69331a484",
    "setuptools-scm==10.2.1 --hash=sha256:b7c82f4102d389ee57dc66ccdb4f9b4bca3c40ba83b43f1f63d68ccd72db2580",
    "vcs-versioning==2.2.2 --hash=sha256:fe7fb216f8780a5516e7864a9333aacb1b70015b087a9be3918da76ef2760808",
    "wheel==0.48.0 --hash=sha256:3217dcc807155e45db462d7ef2431f5ddda0d7273b700d05a67b271ceb1287ab"
   ],
   "files": [
    {"index": "https://pypi.org/simple", "name": "cmake-4.4.5-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl", "project": "cmake", "sha256": "85625a9b6d5e88ff99c7eb79123d85570844e77ac076366cf75c609cc0b1b579", "url": "https://files.pythonhosted.org/packages/61/e3/0d24bb452ebc819ab03bbc01b1f4d92863e5c106a93755a4eb38761495da/cmake-4.4.5-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "nanobind-2.9.2-py3-none-any.whl", "project": "nanobind", "sha256": "c37957ffd5eac7eda349cff3622ecd32e5ee1244ecc912c99b5bc8188bafd16e", "url": "https://files.pythonhosted.org/packages/05/20/f8944f162df48a20f8f533f4e4faed63891aa368ceca8cc8b32d4c785ed4/nanobind-2.9.2-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "ninja-1.13.2-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl", "project": "ninja", "sha256": "65a24341b5ac09fcadcc37082660be40a94174e51a937fabf6e2cae26225fa2c", "url": "https://files.pythonhosted.org/packages/6e/53/ebfed7b689c338dd8ebeec9c0730c8d56821292f14e2536e5f3ef1a05744/ninja-1.13.2-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "packaging-25.0-py3-none-any.whl", "project": "packaging", "sha256": "29572ef2b1f17581046b3a2227d5c611fb25ec70ca1ba8554b24b0e69331a484", "url": "https://files.pythonhosted.org/packages/20/12/38679034af332785aac8774540895e234f4d07f7545804097de4b666afd8/packaging-25.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "setuptools_scm-10.2.1-py3-none-any.whl", "project": "setuptools-scm", "sha256": "b7c82f4102d389ee57dc66ccdb4f9b4bca3c40ba83b43f1f63d68ccd72db2580", "url": "https://files.pythonhosted.org/packages/c3/b4/02ac1d9833b882c87b3a4e82703e70eac4ab33d0d15fb123e60bb01f3bc1/setuptools_scm-10.2.1-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "vcs_versioning-2.2.2-py3-none-any.whl", "project": "vcs-versioning", "sha256": "fe7fb216f8780a5516e7864a9333aacb1b70015b087a9be3918da76ef2760808", "url": "https://files.pythonhosted.org/packages/85/9e/1f06f4ddc3a74ccfe0877490caaf4a5233e65401160afc8cb13207815f5e/vcs_versioning-2.2.2-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "wheel-0.48.0-py3-none-any.whl", "project": "wheel", "sha256": "3217dcc807155e45db462d7ef2431f5ddda0d7273b700d05a67b271ceb1287ab", "url": "https://files.pythonhosted.org/packages/2e/29/69cfbb602cd91690c55d38ba9fe53e6a7e76a6fa647bf38f19c138d25449/wheel-0.48.0-py3-none-any.whl"}
   ],
   "sources": {"apt_build": [], "compile": false, "items": [], "soc_version": "ascend910b1"}},
  {"slug": "1-tools/pins",
   "requirements": [
    "setuptools==80.10.2 --hash=sha256:95b30ddfb717250edb492926c92b5221f7ef3fbcc2b07579bcd4a27da21d0173"
   ],
   "files": [
    {"index": "https://pypi.org/simple", "name": "setuptools-80.10.2-py3-none-any.whl", "project": "setuptools", "sha256": "95b30ddfb717250edb492926c92b5221f7ef3fbcc2b07579bcd4a27da21d0173", "url": "https://files.pythonhosted.org/packages/94/b8/f1f62a5e3c0ad2ff1d189590bfa4c46b4f3b6e49cef6f26c6ee4e575394d/setuptools-80.10.2-py3-none-any.whl"}
   ],
   "sources": {"apt_build": [], "compile": false, "items": [], "soc_version": "ascend910b1"}},
  {"slug": "2-torch/deps",
   "requirements": [
    "filelock==4.3.2 --hash=sha256:02a8801bc6b2a80921bf3d7895c63084d53bae2a3c86783adce5ae2b89a1825b",
    "fsspec==2026.9.0 --hash=sha256:8dd6e646e99ea382bd85f97a45e6b526a442d79423a7dc673f1e2756d05fcb5f",
    "jinja2==3.1.6 --hash=sha256:85ece4451f492d0c13c5dd7c13a64681a86afae63a5f347908daf103ce6d2f67",
    "markupsafe==3.0.4 --hash=sha256:6da83a088f8ef93b2d483a8232a4dbf4d69d3d8496b568a03c56becac43e1808",
    "mpmath==1.3.0 --hash=sha256:a0b2b9fe80bbcd81a6647ff13108738cfb482d481d826cc0e02f5b35e5c88d2c",
    "networkx==3.6.1 --hash=sha256:d47fbf302e7d9cbbb9e2555a0d267983d2aa476bac30e90dfbe5669bd57f3762",
    "numpy==1.26.0 --hash=sha256:e062aa24638bb5018b7841977c360d2f5917268d125c833a686b7cbabbec496c",
    "pillow==13.0.0 --hash=sha256:a625df9a2a5597fa5e5266e01aefc82604bb85d291e3547981e863560d75da6c",
    "sympy==1.14.0 --hash=sha256:e091cc3e99d2141a0ba2847328f5479b05d94a6635cb96148ccb3f34671bd8f5",
    "typing-extensions==4.16.0 --hash=sha256:481caa481374e813c1b176ada14e97f1f67a4539ce9cfeb3f350d78d6370c2e8"
   ],
   "files": [
    {"index": "https://pypi.org/simple", "name": "filelock-4.3.2-py3-none-any.whl", "project": "filelock", "sha256": "02a8801bc6b2a80921bf3d7895c63084d53bae2a3c86783adce5ae2b89a1825b", "url": "https://files.pythonhosted.org/packages/d7/4f/6429bb372197194e65bb33885cd112c7008c2b9cf7496285874aa274e506/filelock-4.3.2-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "fsspec-2026.9.0-py3-none-any.whl", "project": "fsspec", "sha256": "8dd6e646e99ea382bd85f97a45e6b526a442d79423a7dc673f1e2756d05fcb5f", "url": "https://files.pythonhosted.org/packages/6c/c0/a98505f18594f1bce828bb159cec0fcf9860562f1a2c85913409fc8f3d9e/fsspec-2026.9.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "jinja2-3.1.6-py3-none-any.whl", "project": "jinja2", "sha256": "85ece4451f492d0c13c5dd7c13a64681a86afae63a5f347908daf103ce6d2f67", "url": "https://files.pythonhosted.org/packages/62/a1/3d680cbfd5f4b8f15abc1d571870c5fc3e594bb582bc3b64ea099db13e56/jinja2-3.1.6-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "markupsafe-3.0.4-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl", "project": "markupsafe", "sha256": "6da83a088f8ef93b2d483a8232a4dbf4d69d3d8496b568a03c56becac43e1808", "url": "https://files.pythonhosted.org/packages/81/a5/a513b76c139a3915b43404324e55c0b7979ae4f0d39eb6f075b0282e90a8/markupsafe-3.0.4-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "mpmath-1.3.0-py3-none-any.whl", "project": "mpmath", "sha256": "a0b2b9fe80bbcd81a6647ff13108738cfb482d481d826cc0e02f5b35e5c88d2c", "url": "https://files.pythonhosted.org/packages/43/e3/7d92a15f894aa0c9c4b49b8ee9ac9850d6e63b03c9c32c0367a13ae62209/mpmath-1.3.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "networkx-3.6.1-py3-none-any.whl", "project": "networkx", "sha256": "d47fbf302e7d9cbbb9e2555a0d267983d2aa476bac30e90dfbe5669bd57f3762", "url": "https://files.pythonhosted.org/packages/9e/c9/b2622292ea83fbb4ec318f5b9ab867d0a28ab43c5717bb85b0a5f6b3b0a4/networkx-3.6.1-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "numpy-1.26.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl", "project": "numpy", "sha256": "e062aa24638bb5018b7841977c360d2f5917268d125c833a686b7cbabbec496c", "url": "https://files.pythonhosted.org/packages/c4/36/161e2f8110f8c49e59f6107bd6da4257d30aff9f06373d0471811f73dcc5/numpy-1.26.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "pillow-13.0.0-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl", "project": "pillow", "sha256": "a625df9a2a5597fa5e5266e01aefc82604bb85d291e3547981e863560d75da6c", "url": "https://files.pythonhosted.org/packages/36/46/f509b74787f40ce0627501089d630b2c741b63b244c1f40b640b3b01e181/pillow-13.0.0-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "sympy-1.14.0-py3-none-any.whl", "project": "sympy", "sha256": "e091cc3e99d2141a0ba2847328f5479b05d94a6635cb96148ccb3f34671bd8f5", "url": "https://files.pythonhosted.org/packages/a2/09/77d55d46fd61b4a135c444fc97158ef34a095e5681d0a6c10b75bf356191/sympy-1.14.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "typing_extensions-4.16.0-py3-none-any.whl", "project": "typing-extensions", "sha256": "481caa481374e813c1b176ada14e97f1f67a4539ce9cfeb3f350d78d6370c2e8", "url": "https://files.pythonhosted.org/packages/49/d3/b8441a820a491ddfc024b0b0cf0393375b75ea13866d9c66727e54c2fc80/typing_extensions-4.16.0-py3-none-any.whl"}
   ],
   "sources": {"apt_build": [], "compile": false, "items": [], "soc_version": "ascend910b1"}},
  {"slug": "2-torch/pins",
   "requirements": [
    "torch-npu==2.9.0.post2 --hash=sha256:dfdb746cc6c66d05f1cad62a7b6f0842fc689ccfbeae7764e56a44ecae0423f0"
   ],
   "files": [
    {"index": "https://pypi.org/simple", "name": "torch_npu-2.9.0.post2-cp311-cp311-manylinux_2_28_x86_64.whl", "project": "torch-npu", "sha256": "dfdb746cc6c66d05f1cad62a7b6f0842fc689ccfbeae7764e56a44ecae0423f0", "url": "https://files.pythonhosted.org/packages/2c/fb/827746d3080167f67c28206631a395e1c972c6ea157af8efe09032695285/torch_npu-2.9.0.post2-cp311-cp311-manylinux_2_28_x86_64.whl"}
   ],
   "sources": {"apt_build": [], "compile": false, "items": [{"component": "torch-verl0.8.0", "dist": "torch", "env": {}, "fetch": {"dist": "torch", "file": "", "index": "https://download.pytorch.org/whl/cpu", "platform": "linux/amd64", "sha256": "", "version": "2.9.0+cpu"}, "file": "", "kind": "index", "sha256": "", "soc_env": "", "version": "2.9.0+cpu"}, {"component": "torchvision-verl0.8.0", "dist": "torchvision", "env": {}, "fetch": {"dist": "torchvision", "file": "", "index": "https://download.pytorch.org/whl/cpu", "platform": "linux/amd64", "sha256": "", "version": "0.24.0+cpu"}, "file": "", "kind": "index", "sha256": "", "soc_env": "", "version": "0.24.0+cpu"}, {"component": "torchaudio-verl0.8.0", "dist": "torchaudio", "env": {}, "fetch": {"dist": "torchaudio", "file": "", "index": "https://download.pytorch.org/whl/cpu", "platform": "linux/amd64", "sha256": "", "version": "2.9.0+cpu"}, "file": "", "kind": "index", "sha256": "", "soc_env": "", "version": "2.9.0+cpu"}, {"component": "triton-ascend-verl0.8.0", "dist": "triton-ascend", "env": {}, "fetch": {"dist": "triton-ascend", "file": "", "index": "https://mirrors.huaweicloud.com/ascend/repos/pypi", "platform": "linux/amd64", "sha256": "", "version": "3.2.1"}, "file": "", "kind": "index", "sha256": "", "soc_env": "", "version": "3.2.1"}], "soc_version": "ascend910b1"}},
  {"slug": "3-frameworks/deps",
   "requirements": [
    "agent-detector==2.0.0 --hash=sha256:22c6a1c9c23894a12f55aea625f060b8d3330fba774de72d02d5442bb580417f",
    "aiofiles==25.1.0 --hash=sha256:abe311e527c862958650f9438e859c1fa7568a141b22abcd015e120e86a85695",
    "aiohappyeyeballs==2.7.1 --hash=sha256:9243213661e29250eb41368e5daa826fc017156c3b8a11440826b2e3ed376472",
    "aiohttp==3.14.5 --hash=sha256:50a195903119008fe9cc68710535eb37f556ffffd6a7759afe70a2c145587045",
    "aiosignal==1.4.0 --hash=sha256:053243f8b92b990551949e63930a839ff0cf0b0ebbe0597b0f3fb19e1a0fe82e",
    "annotated-doc==0.0.7 --hash=sha256:6bc31bbbec6dfaaedc1676dbc11dbda96fe22a2b5c400e9ebad113fec44a9dc6",
    "annotated-types==0.8.0 --hash=sha256:f072f4d804ea359e4eaf198b1af7a8b0943881a87f31bb764f8bf219bb9419e0",
    "anthropic==2.16.0 --hash=sha256:fda498e294f8e29cda37862d8cdfa9721dd8ac9489b1c6d5fefadcd6f01d3b33",
    "anyio==4.16.0 --hash=sha256:c66ae634e0b8228396b801741beb3294326d4b6102f7bba4041c0dfb58c29026",
    "apache-tvm-ffi==0.1.15.post2 --hash=sha256:8ecebe749834f6ac0f2693d5964acf9ac75d0bc26e6ba64c46eb7ab00ea50fac",
    "arctic-inference==0.1.1 --hash=sha256:36857e2fbe3ead34821a04be98dfab95086050c1e38199c8fdfe308234fdcf63",
    "astor==0.8.1 --hash=sha256:070a54e890cefb5b3739d19f30f5a5ec840ffc9c50ffa7d23cc9fc1a38ebbfc5",
    "attrs==26.1.0 --hash=sha256:c647aa4a12dfbad9333ca4e71fe62ddc36f4e63b2d260a37a8b83d2f043ac309",
    "blake3==1.0.11 --hash=sha256:fe624bb87ee53d9770bec087631d7fd8f01eab0128693b8fe6b884d8c2cf0989",
    "blinker==1.9.0 --hash=sha256:ba0efaa9080b619ff2f3459d1d500c57bddea4a6b424b60a91141db6fd2f08bc",
    "cachetools==8.0.2 --hash=sha256:502bf3c17c6e35d78ccdaa70da8c7001b28634541f5cde0dee33c93bb252277d",
    "cbor2==6.3.0 --hash=sha256:ebe634e9fe6ae36b3fe1c42d280c4ecb368397efbcd497f8d5826d48e9093f1b",
    "certifi==2026.10.19.post1 --hash=sha256:1324c476b4811eff41a8bc2122cd0bbd4d9c7234c725446d99ab1612b3a7fdd2",
    "cffi==2.1.1 --hash=sha256:34e261f78cb6ceaaa36f42f2613f4380d94d9c759a9c73c769ee6e0247364632",
    "charset-normalizer==3.5.3 --hash=sha256:2a6f937e0b70133d1f826d0a253331b6fe1a4c874808cc12e16f2fb8177042f4",
    "click==8.5.1 --hash=sha256:8bb5376d2006950386f8c6427613334a2acadc5f559cb80e638d00b4df957e37",
    "cloudpickle==3.1.3 --hash=sha256:1654f4f18e416447210a63c5c25a135d65a292156aa5fa519dfa4baf7726dddb",
    "compressed-tensors==0.13.0 --hash=sha256:3518799c9baf034eb642efb551db6b0537b8713d45a64fe4def26f7f8d6cabec",
    "cryptography==50.0.2 --hash=sha256:9dab55f57c74c3cad24c323bacbbd04be4705ba6eb0d92e920b1fc4837ed5079",
    "decorator==5.3.1 --hash=sha256:f47fe6fdbd2edd623ecfe36875d37aba411624e2670dd395dddae1358689bb3c",
    "depyf==0.20.0 --hash=sha256:d31effad4261cebecb58955d832e448ace88f432328f95f82fd99c30fd9308d4",
    "detect-installer==0.2.1 --hash=sha256:87e2ce7d05cb108b178f8e45bb80d3d88c0cb4b397983345c18ad6562e02e620",
    "dill==0.4.1 --hash=sha256:1e1ce33e978ae97fcfcff5638477032b801c46c7c65cf717f95fbc2248f79a9d",
    "diskcache==5.6.3 --hash=sha256:5e31b2d5fbad117cc363ebaf6b689474db18a1f6438bc82358b024abd4c2ca19",
    "distro==1.9.0 --hash=sha256:7bffd925d65168f85027d8da9af6bddab658135b840670a223589bc0c8ef02b2",
    "dnspython==2.9.2 --hash=sha256:af15f7d385a6ae2fb35a796fde2138004c8c42c7389090e2addc83e3b3340fd8",
    "docstring-parser==0.18.0 --hash=sha256:b3fcbed555c47d8479be0796ef7e19c2670d428d72e96da63f3a40122860374b",
    "einops==0.8.2 --hash=sha256:54058201ac7087911181bfec4af6091bb59380360f069276601256a76af08193",
    "email-validator==2.4.0 --hash=sha256:4454e41c4e1c6b6caee34a1dc71d5e736791562be8fd179b02e298f796522684",
    "fastapi==0.123.10 --hash=sha256:0503b7b7bc71bc98f7c90c9117d21fdf6147c0d74703011b87936becc86985c1",
    "fastapi-cli==0.0.34 --hash=sha256:4a1185b66308c7543e98957426a8ecd205d58853514cb9a68c78066f2e6e467b",
    "fastapi-cloud-cli==0.28.0 --hash=sha256:e1409bc42017a86f8092fdf1dd64ead129698936cfeb151a6c3e023f611fd620",
    "fastar==0.12.0 --hash=sha256:471a2f3c7295c296252463ae2eadd87f258dec33a7fec053a553c90930e03392",
    "flask==3.1.3 --hash=sha256:f4bcbefc124291925f1a26446da31a5178f9483862233b23c0c96a20701f670c",
    "frozenlist==1.8.0 --hash=sha256:2552f44204b744fba866e573be4c1f9048d6a324dfe14475103fd51613eb1d1f",
    "gguf==0.19.0 --hash=sha256:70bcd10edfe697fb2dad6e40af2234b9d8ece9a41a99761405121ebda1c3c1cd",
    "googleapis-common-protos==1.76.0 --hash=sha256:59e13344a9f3651aa201a03e2bee815a3bf43a4baf1f9ff8a9b62a840ce25fac",
    "gpytorch==1.15.2 --hash=sha256:2112fdc7c0c0bf56a7f2444663cfc80fdfc3e19724399d6303a83d8efdd71e9e",
    "grpcio==1.85.3 --hash=sha256:f2948333a1f462c0e559b5ea436655ed36822fa448f5713d6de2d483bed6e03f",
    "h11==0.16.0 --hash=sha256:63cf8bbe7522de3bf65932fda1d9c2772064ffb3dae62d55932da54b31cb6c86",
    "h2==4.4.1 --hash=sha256:0e25f1462b23c9cb82d9eb02e28bc706dac2a68cb457c6a0d74d63c8a2a5d0e6",
    "hf-xet==1.8.0 --hash=sha256:29dab7c904cd1914a0439c6e1306c12c7497c8bd32290fbe563ebf51ca4b6d6d",
    "hpack==4.2.0 --hash=sha256:858ac0b02280fa582b5080d68db0899c62a80375e0e5413a74970c5e518b6986",
    "httpcore==1.0.9 --hash=sha256:2d400746a40668fc9dec9810239072b40b4484b640a8c38fd654a024c7a1bf55",
    "httpcore2==2.16.2 --hash=sha256:16051ae2a42f776007543f32de9349a317b23d2cbb4e1456b4bac0e88b87419a",
    "httptools==0.9.0 --hash=sha256:b68fb053b37c258a473ab67f4965c3b439500dc160fe364667035a6833eaf50a",
    "httpx==0.29.0 --hash=sha256:6734dcf742ced6e8018e45d3f9f7728975b6b3e1085a24f3e2c056069d858bd1",
    "httpx2==2.16.2 --hash=sha256:f05c13aade4c45dbf1c9060647a1058f0acad62398fad96e741269edb33d46f5",
    "huggingface-hub==1.33.0 --hash=sha256:04e434b06e100eddbce9a6e817d72693a7884b10a79bd67ab48080d5c07eb899",
    "hypercorn==0.18.0 --hash=sha256:225e268f2c1c2f28f6d8f6db8f40cb8c992963610c5725e13ccfcddccb24b1cd",
    "hyperframe==6.1.0 --hash=sha256:b03380493a519fce58ea5af42e4a42317bf9bd425596f7a0835ffce80f1a42e5",
    "idna==3.20 --hash=sha256:ab7ae7122974553370f0bdb919e1a960b2cd1bc1ef0276416d896db81c14582c",
    "ijson==3.6.0 --hash=sha256:fa09fa38307b66c43efc98077f21e18e0af2fd192ff42130834cdcf4720424a6",
    "iniconfig==2.3.1 --hash=sha256:9121e2c1fdb355232495be3194c8dfe87ccc2d5dee45947b78e68f499790d7a7",
    "interegular==0.3.3 --hash=sha256:b0c07007d48c89d6d19f7204972d369b2a77222722e126b6aa63aa721dc3b19c",
    "itsdangerous==2.2.0 --hash=sha256:c6242fc49e35958c8b15141343aa660db5fc54d4f13a1db01a3f5891b98700ef",
    "jiter==0.19.0 --hash=sha256:cc4a2b70ecd4f102583344c1f8cc5dc11618665b1889286bb3b4279c19b337dd",
    "jmespath==1.1.0 --hash=sha256:a5663118de4908c91729bea0acadca56526eb2698e83de10cd116ae0f4e97c64",
    "joblib==1.6.0 --hash=sha256:3dbbf9f6e4b592a2357b854608e980fe6390d131d7a82f011a377ef2ebef7aba",
    "jsonschema==4.26.0 --hash=sha256:d489f15263b8d200f8387e64b4c3a75f06629559fb73deb8fdfb525f2dab50ce",
    "jsonschema-specifications==2025.9.1 --hash=sha256:98802fee3a11ee76ecaca44429fda8a41bff98b00a0f2838151b113f210cc6fe",
    "lark==1.2.2 --hash=sha256:c2276486b02f0f1b90be155f2c8ba4a8e194d42775786db622faccd652d8e80c",
    "linear-operator==0.6.1 --hash=sha256:a5981c1fcda08df3a210dffb6e8019b4751f4afaf3ffc822c24eaaf56b11eed9",
    "llguidance==1.3.0 --hash=sha256:bc17e9dd602c3879bf91664a64bf72f54c74dbfbeb24ccfab6a5fe435b12f7aa",
    "llvmlite==0.50.0 --hash=sha256:a6ffde00d4be8772a24e3e8b3af6bf86a79e7cf066d944ef56136b3957d707dc",
    "lm-format-enforcer==0.11.3 --hash=sha256:cf586350875def1ae7a8fba84fcbbfc8371424b6c9d05c1fcba70aa233fbf06f",
    "loguru==0.7.3 --hash=sha256:31a33c10c8e1e10422bfd431aeb5d351c7cf7fa671e3c4df004162264b28220c",
    "markdown-it-py==4.3.0 --hash=sha256:7aa1511a46c39138de78d9eba92ce47e63124d8003fc98b3a351909e04239efa",
    "mcp==2.3.0 --hash=sha256:dd0c44c089d16453e8ae31a3877a0054d7a2314caaa81f5e0541b9b1734b2377",
    "mcp-types==2.3.0 --hash=sha256:968efdbdaedfab06adae40d378a34395f1090c5921d4be3c9cde283aaf76d91d",
    "mdurl==0.1.2 --hash=sha256:84008a41e51615a49fc9966191ff91509e3c40b939176e643fd50a5c2196b8f8",
    "memcache-hybrid==1.0.4 --hash=sha256:c6c7c47a41c69910802b05e955a73ac4edb5c16f4eb086fc573f5884f831f027",
    "memfabric-hybrid==1.0.8 --hash=sha256:b1b5b63536ba81aa50be2fec66dc3868329106beb023118c7ed408e6974bee35",
    "mistral-common==1.13.1 --hash=sha256:98b4d0755b8d90bf4691fa8f1b70cb3b4a8cd4dc1653c4ed08ef3d1c7d2c29af",
    "model-hosting-container-standards==0.1.16 --hash=sha256:47f4f65713120bc3a69feb022981a38db9e557aedf88dbd72077f20588caa12b",
    "msgpack==1.2.4 --hash=sha256:a45ceb5f199d5e388f28b550ba881096a3740d4bda10e661d77f59d9a2e8187a",
    "msgspec==0.23.0 --hash=sha256:2e514e5b2a23e376f545f4962834b7312d9400705627c53330116b46daddfbe3",
    "multidict==7.2.1 --hash=sha256:3b7542fad2706595c1b1853b46f2c3c4ae5cc5a6252b7225f294d607a29e1bdf",
    "narwhals==2.29.0 --hash=sha256:1c69b3dc30240f6e848c5a673cafc86affa44184ecce721e25b7194663ad10dc",
    "numba==0.68.1 --hash=sha256:58fe7a3810261cf13797d8aa94c018cfe91e1e8adf634df60eb60ef834f9367b",
    "openai==2.24.0 --hash=sha256:fed30480d7d6c884303287bde864980a4b137b60553ffbcf9ab4a233b7a73d94",
    "openai-harmony==0.0.8 --hash=sha256:c007d277218a50db8839e599ed78e0fffe5130f614c3f6d93ae257f282071a29",
    "opencv-python-headless==4.11.0.86 --hash=sha256:0e0a27c19dd1f40ddff94976cfe43066fbbe9dfbb2ec1907d66c19caef42a57b",
    "opentelemetry-api==1.45.2 --hash=sha256:2cbd737377e710ee740d261c94e93fa0f08e6d037c18f17513cc0a2d94479a34",
    "opentelemetry-exporter-http-transport==0.66b2 --hash=sha256:fd5f5b490c099acda1cd7b909d5e8981436bf18cc8c6098d302d114c271720e9",
    "opentelemetry-exporter-otlp==1.45.2 --hash=sha256:52c8b9f268289c92c08b3a97f48c63d6e5c037f25ca1f6f29ef162fb78974afc",
    "opentelemetry-exporter-otlp-common==0.66b2 --hash=sha256:ace86efb75489f925f1ef809856ae5f0c7db534e4afdc624530222228b1236a5",
    "opentelemetry-exporter-otlp-proto-common==1.45.2 --hash=sha256:af483b24217028892f017096731b794b196b785025d2e6808874720fd0b05a80",
    "opentelemetry-exporter-otlp-proto-grpc==1.45.2 --hash=sha256:8a48d60835e90536846bd82de487bfbd81bccb5a1b3d0fb82edeea17db07395c",
    "opentelemetry-exporter-otlp-proto-http==1.45.2 --hash=sha256:6e4d025138829d0ee57946930c2ccad6491ad4d92a958e9c7eea69278fe60cfc",
    "opentelemetry-proto==1.45.2 --hash=sha256:03a7ca1b43f89fd5b965d5975902bb2515c0c86e2428b456836e9a6149c6235a",
    "opentelemetry-sdk==1.45.2 --hash=sha256:ff974ea70ee4f1d51e2ec152db37c2b626c7bf82bb3f7d86114fd8704e7199c6",
    "opentelemetry-semantic-conventions==0.66b2 --hash=sha256:4cbe61e5f9275d57ab31708446e7938ef4291ebbe6a7fca6f7a629c5acae87d8",
    "opentelemetry-semantic-conventions-ai==0.5.1 --hash=sha256:25aeb22bd261543b4898a73824026d96770e5351209c7d07a0b1314762b1f6e4",
    "outlines-core==0.2.11 --hash=sha256:132605b8dd1e3d1369da6a851992dd357f6376068292f6bd47caa7a28b794d19",
    "pandas==3.0.6 --hash=sha256:47121f9571503f724c9b93e297ab6254ac99c77adf5e9ed085ea419fd585c258",
    "pandas-stubs==3.1.0.261029 --hash=sha256:70f631f2d0781c4500b1cd5f84cab7d7279a3d114674d69655536a4a99a3a67f",
    "partial-json-parser==0.2.1.1.post7 --hash=sha256:145119e5eabcf80cbb13844a6b50a85c68bf99d376f8ed771e2a3c3b03e653ae",
    "pip==26.3 --hash=sha256:f3b60b20ffaadd4415ed7957212a38ac63fa4c5fa375bd0f4a797777940fad13",
    "pluggy==1.7.0 --hash=sha256:7dd7b0d8832ba3cb632c306926ded123429211b83641b35dc5c41ad2d34f9bec",
    "priority==2.0.0 --hash=sha256:6f8eefce5f3ad59baf2c080a664037bb4725cd0a790d53d59ab4059288faf6aa",
    "prometheus-client==0.26.0 --hash=sha256:fa93d06737aa02bacd05794768508bb97d2fbee28cb3bca04eaae92f0ca953d6",
    "prometheus-fastapi-instrumentator==7.1.0 --hash=sha256:978130f3c0bb7b8ebcc90d35516a6fe13e02d2eb358c8f83887cdef7020c31e9",
    "propcache==0.5.4 --hash=sha256:6e9368e87a3efc285e559131092c5db643eb8e56de4ee42064d5baec22ef2bb5",
    "protobuf==7.36.2 --hash=sha256:89f23aa53c24553a2416fd4fd1ec06f74fa42b14b546d8883128813f775bbfd2",
    "psutil==7.2.2 --hash=sha256:076a2d2f923fd4821644f5ba89f059523da90dc9014e85f8e45a5774ca5bc6f9",
    "py-cpuinfo==9.0.0 --hash=sha256:859625bc251f64e21f077d099d4162689c762b5d6a4c3c97553d56241c9674d5",
    "pybase64==1.5.1 --hash=sha256:13cfb64d2a0a8e15b9196c8b1ad61d8adfd8ee68bf4ce749cbb3a313239fef3b",
    "pybind11==3.1.0 --hash=sha256:b8488090f8acffbcb6b5d6a85571a6827a0a2981ffb75e5a0b27b87c4a6b7dd0",
    "pycountry==26.2.16 --hash=sha256:115c4baf7cceaa30f59a4694d79483c9167dbce7a9de4d3d571c5f3ea77c305a",
    "pycparser==3.12 --hash=sha256:a076f3f489b39b43ed13563a1dafe42447445bec2e294154ec5c57fcdda4c85e",
    "pydantic==2.14.4 --hash=sha256:653a2ad9f6d8858529c77c72717d0ea991d6c6837fe683246b2f4b2bbfc3fadc",
    "pydantic-core==2.50.5 --hash=sha256:488319076ec92908b91fc6265ce761f1d78748f69f85518564fd16bf333e1b70",
    "pydantic-extra-types==2.11.1 --hash=sha256:1722ea2bddae5628ace25f2aa685b69978ef533123e5638cfbddb999e0100ec1",
    "pygments==2.21.0 --hash=sha256:2363c69b61c4a97c838da3b130dcd6468f4848992b21a82f2a63ec34377137d9",
    "pyjwt==2.15.1 --hash=sha256:42d59d631f7768a1028a64c7ff581a9bf7519804daf91fc5b6c56e30eec5e193",
    "pytest==9.2.0 --hash=sha256:07acdcf88ec174f907dc01af70bf52d49b014bbab03faeeade31c96b18c2e588",
    "pytest-mock==3.17.0 --hash=sha256:1b82aa4b37137248bd687055e109723debeb07b489de1565297dc9589c5f2d6b",
    "python-dateutil==4.0.0 --hash=sha256:a5e246f79eb80475e691bf93862cead98decd8a498cf53ba0516fcdc0f50dc1c",
    "python-dotenv==1.2.4 --hash=sha256:42269a8a5b3fd54ffa6f3d84b18abed50064717576b4ecf03dc4a55d8aa04fdc",
    "python-json-logger==4.2.0 --hash=sha256:158a52126fcd6869e09574d2b66272666f3dc8f468c62637ef9a1fa883719cb9",
    "python-multipart==0.0.34 --hash=sha256:ebacd224bd686eee2f9aa1066a657affe07435a185834e05e5235e2e59173e91",
    "pyyaml==6.0.4 --hash=sha256:622aa875fa6533f25fedcffe23079357d65a690d462200afed5d8e9d0e01ebee",
    "pyzmq==27.3.0 --hash=sha256:477b8ad30d66fc905c5388351e83b9ac25824b00e82c0d052b72ea6392636dfd",
    "quart==0.22.0 --hash=sha256:bb659545f1a8a287a14df9434b9225a3d4738362a3ed170744d0e03bb9447b50",
    "referencing==0.37.0 --hash=sha256:381329a9f99628c9069361716891d34ad94af76e461dcb0335825aecc7692231",
    "regex==2026.11.19 --hash=sha256:86d3b2ea69b3c56df3e8ddbac6cd98eaf5a8c5b5e7e006897ebdf7a28d6818e6",
    "requests==2.34.2 --hash=sha256:2a0d60c172f83ac6ab31e4554906c0f3b3588d37b5cb939b1c061f4907e278e0",
    "rich==15.0.0 --hash=sha256:33bd4ef74232fb73fe9279a257718407f169c09b78a87ad3d296f548e27de0bb",
    "rich-toolkit==0.20.6 --hash=sha256:465453ba6f94f99401f59f79fb562827ba5f6b4d4759015d40019f5c67750262",
    "rignore==0.8.1 --hash=sha256:9869b618dc28104003292f26cad26a2d54f6a3941684f16fe9ff435b5df1b0c0",
    "rpds-py==2026.9.1 --hash=sha256:136a1c3fe4402b7008bc81cb62ee538481795b61a7e83df88dff3b3f02b726ff",
    "scikit-learn==1.9.1 --hash=sha256:52a0703bbc07ad27f560fa63fa68e4c54dd735bfbbf65b4dd3c225dc7547b6df",
    "scipy==1.16.3 --hash=sha256:0151a0749efeaaab78711c78422d413c583b8cdd2011a3c1d6c794938ee9fdb2",
    "sentencepiece==0.2.3 --hash=sha256:141dc0bef1e28a5cf7e41c8354ad6cc14525758278045286dcb5429b9906d39f",
    "sentry-sdk==2.75.0 --hash=sha256:9a10e97de2cbd42ad7e4a6e02a0d5af19de9811eb02445077d41ba14c08e170c",
    "setproctitle==1.3.8 --hash=sha256:1a6f6a3b2920f4362e8d924f9e5b084f0b2692a2c140e348abd2e3a07a1def73",
    "shellingham==1.5.4 --hash=sha256:7ecfff8f2fd72616f7481040475a65b2bf8af90a56c89140852d1120324e8686",
    "six==1.17.0 --hash=sha256:4721f391ed90541fddacab5acf947aa0d3dc7d27b2e1e8eda2be8970586c3274",
    "sniffio==1.3.1 --hash=sha256:2f6da418d1f1e0fddd844478f41680e794e6051915791a034ff65e5f100525a2",
    "sqlalchemy==2.1.9 --hash=sha256:3a24b459e52b3ac138f6a05e99a4bd0589443a1ae18041a59c1cfdee12134a2b",
    "sse-starlette==3.7.1 --hash=sha256:c1bb3af0508c6c24cd4ab6257047654bbec01456a424bed36b36e8020cd7a37f",
    "starlette==0.50.0 --hash=sha256:9e5391843ec9b6e472eed1365a78c8098cfceb7a74bfd4d6b1c0c0095efb3bca",
    "supervisor==4.3.0 --hash=sha256:0bcb763fddafba410f35cbde226aa7f8514b9fb82eb05a0c85f6588d1c13f8db",
    "threadpoolctl==3.8.0 --hash=sha256:f1b49c82704d50f13ffae019c727b0fa4f6791a58f48f06a09c45face1be66da",
    "tiktoken==0.14.0 --hash=sha256:f5e7665f6624e052e5e7f6a36919ab69279decdc976d7b16b4fa15e1897d0513",
    "tokenizers==0.22.2 --hash=sha256:369cc9fc8cc10cb24143873a0d95438bb8ee257bb80c71989e3ee290e8d72c67",
    "tqdm==4.70.1 --hash=sha256:c293e525e6fef9c20e8728fd4612df02a0aa31bb5fe91ecd93e123b1b7bffa73",
    "truststore==0.10.5 --hash=sha256:9aaaedaefaf06d8b206278cf8b5012bc897f485a874503501e12d776df78951c",
    "typer==0.29.2 --hash=sha256:f30731f8ca758368b836b3714872e58e395cef8fcaff918c853b1969ed5274e7",
    "typing-inspection==0.4.5 --hash=sha256:bc210535442b39e1bf2805e0c7a17dfd6a4ace760c84c7f7d16245d23a6b1c39",
    "tzdata==2026.6 --hash=sha256:0a10eec6e13ef16b627fabed9a5f2ba61a62b1c67f327305f4e7e412a70b4aec",
    "urllib3==2.8.0 --hash=sha256:0cf3cae568d36aa9576b28dfb35f11328f1cb974ca7647d9475ebb86c75ac6e3",
    "uvicorn==0.55.0 --hash=sha256:bee604c5af6e15fb0584913c632b222c09db1048c26fc05053203207c4b9e37d",
    "uvloop==0.23.0 --hash=sha256:ab17b3a8aa754be0de0e397f7b95f13b14e56f077a4c6ae295e3d4afd199b325",
    "watchfiles==1.3.0 --hash=sha256:b5768b49e426fd5b550b012c866db347cdf15c398ef98dc557b6e6b72fa74cd1",
    "websockets==17.4 --hash=sha256:cebad8f4796248b91fc2168515e507e5cb6b663a32befd09f3b1e7920acdcb1a",
    "werkzeug==3.1.9 --hash=sha256:6392e50c78460ba618e5b21f08a71f59c99ce99cdc6cf6e3dd7e6ccca8754fab",
    "wsproto==1.3.2 --hash=sha256:61eea322cdf56e8cc904bd3ad7573359a242ba65688716b0710a5eb12beab584",
    "xgrammar==0.2.9 --hash=sha256:b5179499ae9ef8366e1dcf592c3ee6b17ecf646971df50828b242934862d916c",
    "yarl==1.25.1 --hash=sha256:d5add7b4ca7afeea91d52e4d4e4db3b1fe9885b71f07054560d8c4296b7441a2"
   ],
   "files": [
    {"index": "https://pypi.org/simple", "name": "agent_detector-2.0.0-py3-none-any.whl", "project": "agent-detector", "sha256": "22c6a1c9c23894a12f55aea625f060b8d3330fba774de72d02d5442bb580417f", "url": "https://files.pythonhosted.org/packages/72/15/504337e302d070bd2ff2f39418bb17d2ad73c662c403a4f37cb4e5c5b237/agent_detector-2.0.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "aiofiles-25.1.0-py3-none-any.whl", "project": "aiofiles", "sha256": "abe311e527c862958650f9438e859c1fa7568a141b22abcd015e120e86a85695", "url": "https://files.pythonhosted.org/packages/bc/8a/340a1555ae33d7354dbca4faa54948d76d89a27ceef032c8c3bc661d003e/aiofiles-25.1.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "aiohappyeyeballs-2.7.1-py3-none-any.whl", "project": "aiohappyeyeballs", "sha256": "9243213661e29250eb41368e5daa826fc017156c3b8a11440826b2e3ed376472", "url": "https://files.pythonhosted.org/packages/71/43/1947f06babed6b3f1d7f38b0c767f52df66bfb2bc10b468c4a7de9eceff2/aiohappyeyeballs-2.7.1-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "aiohttp-3.14.5-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl", "project": "aiohttp", "sha256": "50a195903119008fe9cc68710535eb37f556ffffd6a7759afe70a2c145587045", "url": "https://files.pythonhosted.org/packages/42/74/2a2b22953de15c6c8a80debf26db3047e4e8a5a5db6dd7c2c6c01eec0605/aiohttp-3.14.5-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "aiosignal-1.4.0-py3-none-any.whl", "project": "aiosignal", "sha256": "053243f8b92b990551949e63930a839ff0cf0b0ebbe0597b0f3fb19e1a0fe82e", "url": "https://files.pythonhosted.org/packages/fb/76/641ae371508676492379f16e2fa48f4e2c11741bd63c48be4b12a6b09cba/aiosignal-1.4.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "annotated_doc-0.0.7-py3-none-any.whl", "project": "annotated-doc", "sha256": "6bc31bbbec6dfaaedc1676dbc11dbda96fe22a2b5c400e9ebad113fec44a9dc6", "url": "https://files.pythonhosted.org/packages/5e/b1/9530d6bee606979d54501adcc767d958a38929827f11a524b0d93429d2ad/annotated_doc-0.0.7-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "annotated_types-0.8.0-py3-none-any.whl", "project": "annotated-types", "sha256": "f072f4d804ea359e4eaf198b1af7a8b0943881a87f31bb764f8bf219bb9419e0", "url": "https://files.pythonhosted.org/packages/99/91/8acff4f5e50511b911bbccb72b8628a49c68ce14148cd9f6431094859a90/annotated_types-0.8.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "anthropic-2.16.0-py3-none-any.whl", "project": "anthropic", "sha256": "fda498e294f8e29cda37862d8cdfa9721dd8ac9489b1c6d5fefadcd6f01d3b33", "url": "https://files.pythonhosted.org/packages/aa/23/f8a12a7c3d6877618b87ec3e86c9dab6948deb67158e9e764507e2db264d/anthropic-2.16.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "anyio-4.16.0-py3-none-any.whl", "project": "anyio", "sha256": "c66ae634e0b8228396b801741beb3294326d4b6102f7bba4041c0dfb58c29026", "url": "https://files.pythonhosted.org/packages/a9/16/7757fb84c819accc7d7e9af5291b261e4abb8627ee040f99e7d35ef2457a/anyio-4.16.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "apache_tvm_ffi-0.1.15.post2-cp311-cp311-manylinux_2_24_x86_64.manylinux_2_28_x86_64.whl", "project": "apache-tvm-ffi", "sha256": "8ecebe749834f6ac0f2693d5964acf9ac75d0bc26e6ba64c46eb7ab00ea50fac", "url": "https://files.pythonhosted.org/packages/d9/a5/a123483862e34e6b4dbc9f793f3bc780eb69ebcdf3d726b055af2d6e2b07/apache_tvm_ffi-0.1.15.post2-cp311-cp311-manylinux_2_24_x86_64.manylinux_2_28_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "arctic_inference-0.1.1.tar.gz", "project": "arctic-inference", "sha256": "36857e2fbe3ead34821a04be98dfab95086050c1e38199c8fdfe308234fdcf63", "url": "https://files.pythonhosted.org/packages/2a/d2/3bcebda042d08cfa0f35a2bbc6dd168d60fea60b6678824665c7a3665418/arctic_inference-0.1.1.tar.gz"},
    {"index": "https://pypi.org/simple", "name": "astor-0.8.1-py2.py3-none-any.whl", "project": "astor", "sha256": "070a54e890cefb5b3739d19f30f5a5ec840ffc9c50ffa7d23cc9fc1a38ebbfc5", "url": "https://files.pythonhosted.org/packages/c3/88/97eef84f48fa04fbd6750e62dcceafba6c63c81b7ac1420856c8dcc0a3f9/astor-0.8.1-py2.py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "attrs-26.1.0-py3-none-any.whl", "project": "attrs", "sha256": "c647aa4a12dfbad9333ca4e71fe62ddc36f4e63b2d260a37a8b83d2f043ac309", "url": "https://files.pythonhosted.org/packages/64/b4/17d4b0b2a2dc85a6df63d1157e028ed19f90d4cd97c36717afef2bc2f395/attrs-26.1.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "blake3-1.0.11-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl", "project": "blake3", "sha256": "fe624bb87ee53d9770bec087631d7fd8f01eab0128693b8fe6b884d8c2cf0989", "url": "https://files.pythonhosted.org/packages/4b/ff/2c518f72592dd3a707e5f1484af5b21554afd55148389739aa98d0c735b3/blake3-1.0.11-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "blinker-1.9.0-py3-none-any.whl", "project": "blinker", "sha256": "ba0efaa9080b619ff2f3459d1d500c57bddea4a6b424b60a91141db6fd2f08bc", "url": "https://files.pythonhosted.org/packages/10/cb/f2ad4230dc2eb1a74edf38f1a38b9b52277f75bef262d8908e60d957e13c/blinker-1.9.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "cachetools-8.0.2-py3-none-any.whl", "project": "cachetools", "sha256": "502bf3c17c6e35d78ccdaa70da8c7001b28634541f5cde0dee33c93bb252277d", "url": "https://files.pythonhosted.org/packages/f6/35/0dca79b22cd3ad3fc4bfbd91ea85f259903e7ce5fe956647916df8f691f4/cachetools-8.0.2-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "cbor2-6.3.0-cp311-cp311-manylinux_2_28_x86_64.whl", "project": "cbor2", "sha256": "ebe634e9fe6ae36b3fe1c42d280c4ecb368397efbcd497f8d5826d48e9093f1b", "url": "https://files.pythonhosted.org/packages/3e/aa/fde8c2765fc91ef632b2c44a255de8f4cd7c4af6267060068f6207ff6bed/cbor2-6.3.0-cp311-cp311-manylinux_2_28_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "certifi-2026.10.19.post1-py3-none-any.whl", "project": "certifi", "sha256": "1324c476b4811eff41a8bc2122cd0bbd4d9c7234c725446d99ab1612b3a7fdd2", "url": "https://files.pythonhosted.org/packages/7a/3e/9ddb6d78c2ffd17604c05745f553614bfbecd2cc6741bbaa5181bc8b2496/certifi-2026.10.19.post1-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "cffi-2.1.1-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.whl", "project": "cffi", "sha256": "34e261f78cb6ceaaa36f42f2613f4380d94d9c759a9c73c769ee6e0247364632", "url": "https://files.pythonhosted.org/packages/f7/a4/4399daaf8f7dfee9d7c3327fdb0426ee041cc63edc358b93911ceb2bfc7a/cffi-2.1.1-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "charset_normalizer-3.5.3-cp311-cp311-manylinux1_x86_64.manylinux_2_28_x86_64.manylinux_2_5_x86_64.whl", "project": "charset-normalizer", "sha256": "2a6f937e0b70133d1f826d0a253331b6fe1a4c874808cc12e16f2fb8177042f4", "url": "https://files.pythonhosted.org/packages/98/ff/6b85c4ee2809f4dbfcee89d128f64d2e5141f2d4c3191cb00048bb93b150/charset_normalizer-3.5.3-cp311-cp311-manylinux1_x86_64.manylinux_2_28_x86_64.manylinux_2_5_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "click-8.5.1-py3-none-any.whl", "project": "click", "sha256": "8bb5376d2006950386f8c6427613334a2acadc5f559cb80e638d00b4df957e37", "url": "https://files.pythonhosted.org/packages/31/7d/164b7ffc8624fe9efb4221bf9af485d5c1e41b9ae118045d2b6dc5457d8b/click-8.5.1-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "cloudpickle-3.1.3-py3-none-any.whl", "project": "cloudpickle", "sha256": "1654f4f18e416447210a63c5c25a135d65a292156aa5fa519dfa4baf7726dddb", "url": "https://files.pythonhosted.org/packages/a4/42/3b121b42b114919ffc6195a81c1c7065a465f62f46477fbdb87a07699e51/cloudpickle-3.1.3-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "compressed_tensors-0.13.0-py3-none-any.whl", "project": "compressed-tensors", "sha256": "3518799c9baf034eb642efb551db6b0537b8713d45a64fe4def26f7f8d6cabec", "url": "https://files.pythonhosted.org/packages/0b/b5/61ac2563c62490922b603c09113a083fd74af3630ec3931e769484d6dcb5/compressed_tensors-0.13.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "cryptography-50.0.2-cp311-abi3-manylinux_2_34_x86_64.whl", "project": "cryptography", "sha256": "9dab55f57c74c3cad24c323bacbbd04be4705ba6eb0d92e920b1fc4837ed5079", "url": "https://files.pythonhosted.org/packages/d3/69/2c833a049475e0a3444e94c7d0aca0aa51d166374a449b09e92ac98138de/cryptography-50.0.2-cp311-abi3-manylinux_2_34_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "decorator-5.3.1-py3-none-any.whl", "project": "decorator", "sha256": "f47fe6fdbd2edd623ecfe36875d37aba411624e2670dd395dddae1358689bb3c", "url": "https://files.pythonhosted.org/packages/05/7f/798705f5296a58ca505d600456748d1be48078eac8a7050d8a98bc9edb89/decorator-5.3.1-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "depyf-0.20.0-py3-none-any.whl", "project": "depyf", "sha256": "d31effad4261cebecb58955d832e448ace88f432328f95f82fd99c30fd9308d4", "url": "https://files.pythonhosted.org/packages/cf/65/4df6936130b56e1429114e663e7c1576cf845f3aef1b2dd200c0a5d19dba/depyf-0.20.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "detect_installer-0.2.1-py3-none-any.whl", "project": "detect-installer", "sha256": "87e2ce7d05cb108b178f8e45bb80d3d88c0cb4b397983345c18ad6562e02e620", "url": "https://files.pythonhosted.org/packages/61/fe/a245e1d579e7abf47208f7c1ce5684caa2cd956ede5ff646d66d0299d9e8/detect_installer-0.2.1-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "dill-0.4.1-py3-none-any.whl", "project": "dill", "sha256": "1e1ce33e978ae97fcfcff5638477032b801c46c7c65cf717f95fbc2248f79a9d", "url": "https://files.pythonhosted.org/packages/1e/77/dc8c558f7593132cf8fefec57c4f60c83b16941c574ac5f619abb3ae7933/dill-0.4.1-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "diskcache-5.6.3-py3-none-any.whl", "project": "diskcache", "sha256": "5e31b2d5fbad117cc363ebaf6b689474db18a1f6438bc82358b024abd4c2ca19", "url": "https://files.pythonhosted.org/packages/3f/27/4570e78fc0bf5ea0ca45eb1de3818a23787af9b390c0b0a0033a1b8236f9/diskcache-5.6.3-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "distro-1.9.0-py3-none-any.whl", "project": "distro", "sha256": "7bffd925d65168f85027d8da9af6bddab658135b840670a223589bc0c8ef02b2", "url": "https://files.pythonhosted.org/packages/12/b3/231ffd4ab1fc9d679809f356cebee130ac7daa00d6d6f3206dd4fd137e9e/distro-1.9.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "dnspython-2.9.2-py3-none-any.whl", "project": "dnspython", "sha256": "af15f7d385a6ae2fb35a796fde2138004c8c42c7389090e2addc83e3b3340fd8", "url": "https://files.pythonhosted.org/packages/1e/0c/5346358b3a20275d256978c35203ddc2c8617f78c1b23795b79ba22ced6d/dnspython-2.9.2-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "docstring_parser-0.18.0-py3-none-any.whl", "project": "docstring-parser", "sha256": "b3fcbed555c47d8479be0796ef7e19c2670d428d72e96da63f3a40122860374b", "url": "https://files.pythonhosted.org/packages/a7/5f/ed01f9a3cdffbd5a008556fc7b2a08ddb1cc6ace7effa7340604b1d16699/docstring_parser-0.18.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "einops-0.8.2-py3-none-any.whl", "project": "einops", "sha256": "54058201ac7087911181bfec4af6091bb59380360f069276601256a76af08193", "url": "https://files.pythonhosted.org/packages/2a/09/f8d8f8f31e4483c10a906437b4ce31bdf3d6d417b73fe33f1a8b59e34228/einops-0.8.2-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "email_validator-2.4.0-py3-none-any.whl", "project": "email-validator", "sha256": "4454e41c4e1c6b6caee34a1dc71d5e736791562be8fd179b02e298f796522684", "url": "https://files.pythonhosted.org/packages/b8/8b/99e715c59560afa0bf68f21ed16eec794d94293945f57934b70c5255d741/email_validator-2.4.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "fastapi-0.123.10-py3-none-any.whl", "project": "fastapi", "sha256": "0503b7b7bc71bc98f7c90c9117d21fdf6147c0d74703011b87936becc86985c1", "url": "https://files.pythonhosted.org/packages/d7/f0/7cb92c4a720def85240fd63fbbcf147ce19e7a731c8e1032376bb5a486ac/fastapi-0.123.10-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "fastapi_cli-0.0.34-py3-none-any.whl", "project": "fastapi-cli", "sha256": "4a1185b66308c7543e98957426a8ecd205d58853514cb9a68c78066f2e6e467b", "url": "https://files.pythonhosted.org/packages/c3/3a/55c60f574ee03db3b11a21ea42f4f784e36163c22b2800eebc725f23f028/fastapi_cli-0.0.34-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "fastapi_cloud_cli-0.28.0-py3-none-any.whl", "project": "fastapi-cloud-cli", "sha256": "e1409bc42017a86f8092fdf1dd64ead129698936cfeb151a6c3e023f611fd620", "url": "https://files.pythonhosted.org/packages/17/0c/d1f01df6de9c3b6647aaf0042d3ab5d02a577858adaff775c6e26add15e4/fastapi_cloud_cli-0.28.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "fastar-0.12.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl", "project": "fastar", "sha256": "471a2f3c7295c296252463ae2eadd87f258dec33a7fec053a553c90930e03392", "url": "https://files.pythonhosted.org/packages/0b/4e/be067dce9da50815e1911684639d8404cd4d49352c9de1f9deb92417e574/fastar-0.12.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "flask-3.1.3-py3-none-any.whl", "project": "flask", "sha256": "f4bcbefc124291925f1a26446da31a5178f9483862233b23c0c96a20701f670c", "url": "https://files.pythonhosted.org/packages/7f/9c/34f6962f9b9e9c71f6e5ed806e0d0ff03c9d1b0b2340088a0cf4bce09b18/flask-3.1.3-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "frozenlist-1.8.0-cp311-cp311-manylinux1_x86_64.manylinux_2_28_x86_64.manylinux_2_5_x86_64.whl", "project": "frozenlist", "sha256": "2552f44204b744fba866e573be4c1f9048d6a324dfe14475103fd51613eb1d1f", "url": "https://files.pythonhosted.org/packages/11/b1/71a477adc7c36e5fb628245dfbdea2166feae310757dea848d02bd0689fd/frozenlist-1.8.0-cp311-cp311-manylinux1_x86_64.manylinux_2_28_x86_64.manylinux_2_5_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "gguf-0.19.0-py3-none-any.whl", "project": "gguf", "sha256": "70bcd10edfe697fb2dad6e40af2234b9d8ece9a41a99761405121ebda1c3c1cd", "url": "https://files.pythonhosted.org/packages/b3/bb/d71d6da82763528c2c2ed6b59a9d6142c6595545a4c448e2085d155e88c2/gguf-0.19.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "googleapis_common_protos-1.76.0-py3-none-any.whl", "project": "googleapis-common-protos", "sha256": "59e13344a9f3651aa201a03e2bee815a3bf43a4baf1f9ff8a9b62a840ce25fac", "url": "https://files.pythonhosted.org/packages/05/6d/78dc67a9e779e594b49bf62604034d3a6aa428a55afc729cafda4b7333e1/googleapis_common_protos-1.76.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "gpytorch-1.15.2-py3-none-any.whl", "project": "gpytorch", "sha256": "2112fdc7c0c0bf56a7f2444663cfc80fdfc3e19724399d6303a83d8efdd71e9e", "url": "https://files.pythonhosted.org/packages/b6/70/c419a361b09ccb618b5165daa919003ccdd9c148356f7ff71a710db6bcf0/gpytorch-1.15.2-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "grpcio-1.85.3-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.whl", "project": "grpcio", "sha256": "f2948333a1f462c0e559b5ea436655ed36822fa448f5713d6de2d483bed6e03f", "url": "https://files.pythonhosted.org/packages/ce/2e/ece7b743fd06a24a13306e2398a67529e01bb21f41f9cff99a3d2e39190d/grpcio-1.85.3-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "h11-0.16.0-py3-none-any.whl", "project": "h11", "sha256": "63cf8bbe7522de3bf65932fda1d9c2772064ffb3dae62d55932da54b31cb6c86", "url": "https://files.pythonhosted.org/packages/04/4b/29cac41a4d98d144bf5f6d33995617b185d14b22401f75ca86f384e87ff1/h11-0.16.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "h2-4.4.1-py3-none-any.whl", "project": "h2", "sha256": "0e25f1462b23c9cb82d9eb02e28bc706dac2a68cb457c6a0d74d63c8a2a5d0e6", "url": "https://files.pythonhosted.org/packages/7e/22/e85faf23bd72a92d1921e37d674ca56eb298a3c8be31fdecef0ff2b3aaac/h2-4.4.1-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "hf_xet-1.8.0-cp38-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl", "project": "hf-xet", "sha256": "29dab7c904cd1914a0439c6e1306c12c7497c8bd32290fbe563ebf51ca4b6d6d", "url": "https://files.pythonhosted.org/packages/f8/1e/1e8ecc05ef034e9a95c18ed32d2ec07905a7cd2ca611a9d88e25ee1f4850/hf_xet-1.8.0-cp38-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "hpack-4.2.0-py3-none-any.whl", "project": "hpack", "sha256": "858ac0b02280fa582b5080d68db0899c62a80375e0e5413a74970c5e518b6986", "url": "https://files.pythonhosted.org/packages/71/b4/4a9fcfb2aef6ba44d9073ecd301443aa00b3dac95de5619f2a7de7ec8a91/hpack-4.2.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "httpcore-1.0.9-py3-none-any.whl", "project": "httpcore", "sha256": "2d400746a40668fc9dec9810239072b40b4484b640a8c38fd654a024c7a1bf55", "url": "https://files.pythonhosted.org/packages/7e/f5/f66802a942d491edb555dd61e3a9961140fd64c90bce1eafd741609d334d/httpcore-1.0.9-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "httpcore2-2.16.2-py3-none-any.whl", "project": "httpcore2", "sha256": "16051ae2a42f776007543f32de9349a317b23d2cbb4e1456b4bac0e88b87419a", "url": "https://files.pythonhosted.org/packages/2a/e8/009c347feac27f8960605aa98d55ed263b5870dd4fd80b82fd1d00d5716c/httpcore2-2.16.2-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "httptools-0.9.0-cp311-cp311-manylinux1_x86_64.manylinux_2_28_x86_64.manylinux_2_5_x86_64.whl", "project": "httptools", "sha256": "b68fb053b37c258a473ab67f4965c3b439500dc160fe364667035a6833eaf50a", "url": "https://files.pythonhosted.org/packages/f7/0b/6498fe8218db1ed5f785010c303bfef50516d0988e64988bb8f9f59d70ab/httptools-0.9.0-cp311-cp311-manylinux1_x86_64.manylinux_2_28_x86_64.manylinux_2_5_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "httpx-0.29.0-py3-none-any.whl", "project": "httpx", "sha256": "6734dcf742ced6e8018e45d3f9f7728975b6b3e1085a24f3e2c056069d858bd1", "url": "https://files.pythonhosted.org/packages/82/c6/dddba524648da23345e446e6413530474e19e44122dba752d34ae7c4ae57/httpx-0.29.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "httpx2-2.16.2-py3-none-any.whl", "project": "httpx2", "sha256": "f05c13aade4c45dbf1c9060647a1058f0acad62398fad96e741269edb33d46f5", "url": "https://files.pythonhosted.org/packages/77/de/8c4306a3d6aa2495111986addf33a9e561eff4c47552e4c4b9251160d0ad/httpx2-2.16.2-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "huggingface_hub-1.33.0-py3-none-any.whl", "project": "huggingface-hub", "sha256": "04e434b06e100eddbce9a6e817d72693a7884b10a79bd67ab48080d5c07eb899", "url": "https://files.pythonhosted.org/packages/fc/16/963096d224b80909432dc16561a615fd33d2d13beef3ce4c63fa25e40867/huggingface_hub-1.33.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "hypercorn-0.18.0-py3-none-any.whl", "project": "hypercorn", "sha256": "225e268f2c1c2f28f6d8f6db8f40cb8c992963610c5725e13ccfcddccb24b1cd", "url": "https://files.pythonhosted.org/packages/93/35/850277d1b17b206bd10874c8a9a3f52e059452fb49bb0d22cbb908f6038b/hypercorn-0.18.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "hyperframe-6.1.0-py3-none-any.whl", "project": "hyperframe", "sha256": "b03380493a519fce58ea5af42e4a42317bf9bd425596f7a0835ffce80f1a42e5", "url": "https://files.pythonhosted.org/packages/48/30/47d0bf6072f7252e6521f3447ccfa40b421b6824517f82854703d0f5a98b/hyperframe-6.1.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "idna-3.20-py3-none-any.whl", "project": "idna", "sha256": "ab7ae7122974553370f0bdb919e1a960b2cd1bc1ef0276416d896db81c14582c", "url": "https://files.pythonhosted.org/packages/58/a2/bb081bab032533a855d44de1d56f8e8426114ff1ba5d1f07a438a0a654f8/idna-3.20-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "ijson-3.6.0-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl", "project": "ijson", "sha256": "fa09fa38307b66c43efc98077f21e18e0af2fd192ff42130834cdcf4720424a6", "url": "https://files.pythonhosted.org/packages/66/63/027e4f03328b9c7684b1b2a467d796a7381a48337f93b5747c2bb4f88cc4/ijson-3.6.0-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "iniconfig-2.3.1-py3-none-any.whl", "project": "iniconfig", "sha256": "9121e2c1fdb355232495be3194c8dfe87ccc2d5dee45947b78e68f499790d7a7", "url": "https://files.pythonhosted.org/packages/56/43/4ca9e49d27a1fcf6bece6f6aec0ea46bb9112489b93d4b688fb415457bdb/iniconfig-2.3.1-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "interegular-0.3.3-py37-none-any.whl", "project": "interegular", "sha256": "b0c07007d48c89d6d19f7204972d369b2a77222722e126b6aa63aa721dc3b19c", "url": "https://files.pythonhosted.org/packages/c4/01/72d6472f80651673716d1deda2a5bbb633e563ecf94f4479da5519d69d25/interegular-0.3.3-py37-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "itsdangerous-2.2.0-py3-none-any.whl", "project": "itsdangerous", "sha256": "c6242fc49e35958c8b15141343aa660db5fc54d4f13a1db01a3f5891b98700ef", "url": "https://files.pythonhosted.org/packages/04/96/92447566d16df59b2a776c0fb82dbc4d9e07cd95062562af01e408583fc4/itsdangerous-2.2.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "jiter-0.19.0-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.whl", "project": "jiter", "sha256": "cc4a2b70ecd4f102583344c1f8cc5dc11618665b1889286bb3b4279c19b337dd", "url": "https://files.pythonhosted.org/packages/43/06/37a1051b8fe6189c9cc87d4483fc3b30841b9678cba95caddcadc77d6ead/jiter-0.19.0-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "jmespath-1.1.0-py3-none-any.whl", "project": "jmespath", "sha256": "a5663118de4908c91729bea0acadca56526eb2698e83de10cd116ae0f4e97c64", "url": "https://files.pythonhosted.org/packages/14/2f/967ba146e6d58cf6a652da73885f52fc68001525b4197effc174321d70b4/jmespath-1.1.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "joblib-1.6.0-py3-none-any.whl", "project": "joblib", "sha256": "3dbbf9f6e4b592a2357b854608e980fe6390d131d7a82f011a377ef2ebef7aba", "url": "https://files.pythonhosted.org/packages/18/53/84099323c2ec4be98d935f63c033ac4151ee83836ca1050ede3b3aadf155/joblib-1.6.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "jsonschema-4.26.0-py3-none-any.whl", "project": "jsonschema", "sha256": "d489f15263b8d200f8387e64b4c3a75f06629559fb73deb8fdfb525f2dab50ce", "url": "https://files.pythonhosted.org/packages/69/90/f63fb5873511e014207a475e2bb4e8b2e570d655b00ac19a9a0ca0a385ee/jsonschema-4.26.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "jsonschema_specifications-2025.9.1-py3-none-any.whl", "project": "jsonschema-specifications", "sha256": "98802fee3a11ee76ecaca44429fda8a41bff98b00a0f2838151b113f210cc6fe", "url": "https://files.pythonhosted.org/packages/41/45/1a4ed80516f02155c51f51e8cedb3c1902296743db0bbc66608a0db2814f/jsonschema_specifications-2025.9.1-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "lark-1.2.2-py3-none-any.whl", "project": "lark", "sha256": "c2276486b02f0f1b90be155f2c8ba4a8e194d42775786db622faccd652d8e80c", "url": "https://files.pythonhosted.org/packages/2d/00/d90b10b962b4277f5e64a78b6609968859ff86889f5b898c1a778c06ec00/lark-1.2.2-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "linear_operator-0.6.1-py3-none-any.whl", "project": "linear-operator", "sha256": "a5981c1fcda08df3a210dffb6e8019b4751f4afaf3ffc822c24eaaf56b11eed9", "url": "https://files.pythonhosted.org/packages/e6/34/ee74708a93704baca5c1ef439817c4cb649f73382c518380ccc5ab335603/linear_operator-0.6.1-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "llguidance-1.3.0-cp39-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl", "project": "llguidance", "sha256": "bc17e9dd602c3879bf91664a64bf72f54c74dbfbeb24ccfab6a5fe435b12f7aa", "url": "https://files.pythonhosted.org/packages/83/a8/1ff2bedb8f9acb46a2d2d603415d272bb622c142ea86f5b95445cc6e366c/llguidance-1.3.0-cp39-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "llvmlite-0.50.0-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl", "project": "llvmlite", "sha256": "a6ffde00d4be8772a24e3e8b3af6bf86a79e7cf066d944ef56136b3957d707dc", "url": "https://files.pythonhosted.org/packages/59/b2/a5234f59ccf69cc90d29c62e01cacd1d60403fc5dfac77b38e019237d301/llvmlite-0.50.0-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "lm_format_enforcer-0.11.3-py3-none-any.whl", "project": "lm-format-enforcer", "sha256": "cf586350875def1ae7a8fba84fcbbfc8371424b6c9d05c1fcba70aa233fbf06f", "url": "https://files.pythonhosted.org/packages/a0/ef/11292bb0b85cf4c93447cab5a29f64576ed14d3ab4280e35ddd23486594a/lm_format_enforcer-0.11.3-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "loguru-0.7.3-py3-none-any.whl", "project": "loguru", "sha256": "31a33c10c8e1e10422bfd431aeb5d351c7cf7fa671e3c4df004162264b28220c", "url": "https://files.pythonhosted.org/packages/0c/29/0348de65b8cc732daa3e33e67806420b2ae89bdce2b04af740289c5c6c8c/loguru-0.7.3-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "markdown_it_py-4.3.0-py3-none-any.whl", "project": "markdown-it-py", "sha256": "7aa1511a46c39138de78d9eba92ce47e63124d8003fc98b3a351909e04239efa", "url": "https://files.pythonhosted.org/packages/c9/31/5f0ac2f1a1c67423c995c731a11cd4ad05d081a2be969d74f868bdb9cc70/markdown_it_py-4.3.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "mcp-2.3.0-py3-none-any.whl", "project": "mcp", "sha256": "dd0c44c089d16453e8ae31a3877a0054d7a2314caaa81f5e0541b9b1734b2377", "url": "https://files.pythonhosted.org/packages/20/d7/4a2878f128df729db3ca04e71bfce26405cc2e0c9ebe19c592feeb4c61b9/mcp-2.3.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "mcp_types-2.3.0-py3-none-any.whl", "project": "mcp-types", "sha256": "968efdbdaedfab06adae40d378a34395f1090c5921d4be3c9cde283aaf76d91d", "url": "https://files.pythonhosted.org/packages/ce/48/32583066b155bb5d4507e7887dc88ee23118cc4de8e2a12870c49719e2a8/mcp_types-2.3.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "mdurl-0.1.2-py3-none-any.whl", "project": "mdurl", "sha256": "84008a41e51615a49fc9966191ff91509e3c40b939176e643fd50a5c2196b8f8", "url": "https://files.pythonhosted.org/packages/b3/38/89ba8ad64ae25be8de66a6d463314cf1eb366222074cfda9ee839c56a4b4/mdurl-0.1.2-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "memcache_hybrid-1.0.4-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl", "project": "memcache-hybrid", "sha256": "c6c7c47a41c69910802b05e955a73ac4edb5c16f4eb086fc573f5884f831f027", "url": "https://files.pythonhosted.org/packages/c2/a7/2591f98f5949df283693f7eaa9202ee392b4aca8dd1f2345eb44954a745d/memcache_hybrid-1.0.4-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "memfabric_hybrid-1.0.8-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl", "project": "memfabric-hybrid", "sha256": "b1b5b63536ba81aa50be2fec66dc3868329106beb023118c7ed408e6974bee35", "url": "https://files.pythonhosted.org/packages/a1/ad/34ea47d6efff4581429aba7f63687f6a6347a96fc6bd7c0dda176d0dc788/memfabric_hybrid-1.0.8-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "mistral_common-1.13.1-py3-none-any.whl", "project": "mistral-common", "sha256": "98b4d0755b8d90bf4691fa8f1b70cb3b4a8cd4dc1653c4ed08ef3d1c7d2c29af", "url": "https://files.pythonhosted.org/packages/e5/9c/58411e76b2bdd31a012a756dd0d13a624669cdd728e8966d709113d0d437/mistral_common-1.13.1-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "model_hosting_container_standards-0.1.16-py3-none-any.whl", "project": "model-hosting-container-standards", "sha256": "47f4f65713120bc3a69feb022981a38db9e557aedf88dbd72077f20588caa12b", "url": "https://files.pythonhosted.org/packages/07/ef/6eabeb251d2a0598cb5f9a274159e05ae07a1e3fe6a1473bf6035793252a/model_hosting_container_standards-0.1.16-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "msgpack-1.2.4-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl", "project": "msgpack", "sha256": "a45ceb5f199d5e388f28b550ba881096a3740d4bda10e661d77f59d9a2e8187a", "url": "https://files.pythonhosted.org/packages/03/41/ed5517a107628f6f7f3a1f46f19de3aca979bd1fc95861cb56ce0e4bcc02/msgpack-1.2.4-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "msgspec-0.23.0-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl", "project": "msgspec", "sha256": "2e514e5b2a23e376f545f4962834b7312d9400705627c53330116b46daddfbe3", "url": "https://files.pythonhosted.org/packages/5c/79/7844827ee0c6e6bc0bf5546b3b9aa30f0352a2fcc00161ac4285c5a36d5c/msgspec-0.23.0-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "multidict-7.2.1-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl", "project": "multidict", "sha256": "3b7542fad2706595c1b1853b46f2c3c4ae5cc5a6252b7225f294d607a29e1bdf", "url": "https://files.pythonhosted.org/packages/d0/38/b8403d97ae5273002fa664c3c440c5cc186082fa0ba20fcc93885d13a686/multidict-7.2.1-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "narwhals-2.29.0-py3-none-any.whl", "project": "narwhals", "sha256": "1c69b3dc30240f6e848c5a673cafc86affa44184ecce721e25b7194663ad10dc", "url": "https://files.pythonhosted.org/packages/9e/2b/20b4b463c3795dc390db8fa6ec2b5c3e0aea90a760f813305da4c33dd814/narwhals-2.29.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "numba-0.68.1-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl", "project": "numba", "sha256": "58fe7a3810261cf13797d8aa94c018cfe91e1e8adf634df60eb60ef834f9367b", "url": "https://files.pythonhosted.org/packages/cc/0c/7cfda35338753113a01e8ba5b9e7736c5c66e6af3e548b5cdb16ffb75f6a/numba-0.68.1-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "openai-2.24.0-py3-none-any.whl", "project": "openai", "sha256": "fed30480d7d6c884303287bde864980a4b137b60553ffbcf9ab4a233b7a73d94", "url": "https://files.pythonhosted.org/packages/c9/30/844dc675ee6902579b8eef01ed23917cc9319a1c9c0c14ec6e39340c96d0/openai-2.24.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "openai_harmony-0.0.8-cp38-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl", "project": "openai-harmony", "sha256": "c007d277218a50db8839e599ed78e0fffe5130f614c3f6d93ae257f282071a29", "url": "https://files.pythonhosted.org/packages/25/3f/1a192b93bb47c6b44cd98ba8cc1d3d2a9308f1bb700c3017e6352da11bda/openai_harmony-0.0.8-cp38-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "opencv_python_headless-4.11.0.86-cp37-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl", "project": "opencv-python-headless", "sha256": "0e0a27c19dd1f40ddff94976cfe43066fbbe9dfbb2ec1907d66c19caef42a57b", "url": "https://files.pythonhosted.org/packages/dd/5c/c139a7876099916879609372bfa513b7f1257f7f1a908b0bdc1c2328241b/opencv_python_headless-4.11.0.86-cp37-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "opentelemetry_api-1.45.2-py3-none-any.whl", "project": "opentelemetry-api", "sha256": "2cbd737377e710ee740d261c94e93fa0f08e6d037c18f17513cc0a2d94479a34", "url": "https://files.pythonhosted.org/packages/a9/2d/610db864d7513158cebb8f36cc88e67e73bd6c7aa1905ef18d89e1281c81/opentelemetry_api-1.45.2-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "opentelemetry_exporter_http_transport-0.66b2-py3-none-any.whl", "project": "opentelemetry-exporter-http-transport", "sha256": "fd5f5b490c099acda1cd7b909d5e8981436bf18cc8c6098d302d114c271720e9", "url": "https://files.pythonhosted.org/packages/a1/b2/c622a101f31c0e6670b82f4264c4e77c161bce415bc6fc158fda0b82e218/opentelemetry_exporter_http_transport-0.66b2-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "opentelemetry_exporter_otlp-1.45.2-py3-none-any.whl", "project": "opentelemetry-exporter-otlp", "sha256": "52c8b9f268289c92c08b3a97f48c63d6e5c037f25ca1f6f29ef162fb78974afc", "url": "https://files.pythonhosted.org/packages/19/27/fcc3b725ddbfa274fbf6098c9583032557671d35aa8d5e08d7e7277fb126/opentelemetry_exporter_otlp-1.45.2-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "opentelemetry_exporter_otlp_common-0.66b2-py3-none-any.whl", "project": "opentelemetry-exporter-otlp-common", "sha256": "ace86efb75489f925f1ef809856ae5f0c7db534e4afdc624530222228b1236a5", "url": "https://files.pythonhosted.org/packages/a8/47/b3049e30b339c82e3c7ec1fc692185a5d5a3ba65a94c570bb39b2c0b8424/opentelemetry_exporter_otlp_common-0.66b2-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "opentelemetry_exporter_otlp_proto_common-1.45.2-py3-none-any.whl", "project": "opentelemetry-exporter-otlp-proto-common", "sha256": "af483b24217028892f017096731b794b196b785025d2e6808874720fd0b05a80", "url": "https://files.pythonhosted.org/packages/e6/d6/0f30d38120a949aef70528f845bf539f80df62abb4b8e62fdf69c2b6df5a/opentelemetry_exporter_otlp_proto_common-1.45.2-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "opentelemetry_exporter_otlp_proto_grpc-1.45.2-py3-none-any.whl", "project": "opentelemetry-exporter-otlp-proto-grpc", "sha256": "8a48d60835e90536846bd82de487bfbd81bccb5a1b3d0fb82edeea17db07395c", "url": "https://files.pythonhosted.org/packages/e8/48/14301cac3d106e795eef7e89e191489f086b4e5ad26e47c9635a198e95f4/opentelemetry_exporter_otlp_proto_grpc-1.45.2-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "opentelemetry_exporter_otlp_proto_http-1.45.2-py3-none-any.whl", "project": "opentelemetry-exporter-otlp-proto-http", "sha256": "6e4d025138829d0ee57946930c2ccad6491ad4d92a958e9c7eea69278fe60cfc", "url": "https://files.pythonhosted.org/packages/32/65/f64d7d2450217e2989714e1dee15e19bf79a77a313387abac0cac77bc10e/opentelemetry_exporter_otlp_proto_http-1.45.2-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "opentelemetry_proto-1.45.2-py3-none-any.whl", "project": "opentelemetry-proto", "sha256": "03a7ca1b43f89fd5b965d5975902bb2515c0c86e2428b456836e9a6149c6235a", "url": "https://files.pythonhosted.org/packages/7e/0d/a0b8f2b9efe2ec1abdf639d3696db9b1563ebeb11d91aac08ba7341e9122/opentelemetry_proto-1.45.2-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "opentelemetry_sdk-1.45.2-py3-none-any.whl", "project": "opentelemetry-sdk", "sha256": "ff974ea70ee4f1d51e2ec152db37c2b626c7bf82bb3f7d86114fd8704e7199c6", "url": "https://files.pythonhosted.org/packages/9f/a5/9a3b793ef48245f2336a16beb2324c2397dbb3f987cd68942f77cca06156/opentelemetry_sdk-1.45.2-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "opentelemetry_semantic_conventions-0.66b2-py3-none-any.whl", "project": "opentelemetry-semantic-conventions", "sha256": "4cbe61e5f9275d57ab31708446e7938ef4291ebbe6a7fca6f7a629c5acae87d8", "url": "https://files.pythonhosted.org/packages/67/bd/6bf33ed31521c565931c037e9e81bac47c1acb000e850c6e24220e2a0c00/opentelemetry_semantic_conventions-0.66b2-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "opentelemetry_semantic_conventions_ai-0.5.1-py3-none-any.whl", "project": "opentelemetry-semantic-conventions-ai", "sha256": "25aeb22bd261543b4898a73824026d96770e5351209c7d07a0b1314762b1f6e4", "url": "https://files.pythonhosted.org/packages/55/22/41fb05f1dc5fda2c468e05a41814c20859016c85117b66c8a257cae814f6/opentelemetry_semantic_conventions_ai-0.5.1-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "outlines_core-0.2.11-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl", "project": "outlines-core", "sha256": "132605b8dd1e3d1369da6a851992dd357f6376068292f6bd47caa7a28b794d19", "url": "https://files.pythonhosted.org/packages/4c/db/32c6e1170f139420e948fdd18a09a6175244bc0760dcf4dc2470e18411b9/outlines_core-0.2.11-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "pandas-3.0.6-cp311-cp311-manylinux_2_24_x86_64.manylinux_2_28_x86_64.whl", "project": "pandas", "sha256": "47121f9571503f724c9b93e297ab6254ac99c77adf5e9ed085ea419fd585c258", "url": "https://files.pythonhosted.org/packages/63/be/dfb6cc9329d0bbe76dadda8a1113d026bb996ec76c509221368dc68349f4/pandas-3.0.6-cp311-cp311-manylinux_2_24_x86_64.manylinux_2_28_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "pandas_stubs-3.1.0.261029-py3-none-any.whl", "project": "pandas-stubs", "sha256": "70f631f2d0781c4500b1cd5f84cab7d7279a3d114674d69655536a4a99a3a67f", "url": "https://files.pythonhosted.org/packages/c0/2c/ecbc04b2a8d05d737351a54398f843223cb66edf42ec5c0fcc6198f17d3a/pandas_stubs-3.1.0.261029-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "partial_json_parser-0.2.1.1.post7-py3-none-any.whl", "project": "partial-json-parser", "sha256": "145119e5eabcf80cbb13844a6b50a85c68bf99d376f8ed771e2a3c3b03e653ae", "url": "https://files.pythonhosted.org/packages/42/32/658973117bf0fd82a24abbfb94fe73a5e86216e49342985e10acce54775a/partial_json_parser-0.2.1.1.post7-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "pip-26.3-py3-none-any.whl", "project": "pip", "sha256": "f3b60b20ffaadd4415ed7957212a38ac63fa4c5fa375bd0f4a797777940fad13", "url": "https://files.pythonhosted.org/packages/07/25/ee8c38ae72d66b844ce8eb9711ba905dba21ca1a8a0c960057c41cd23337/pip-26.3-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "pluggy-1.7.0-py3-none-any.whl", "project": "pluggy", "sha256": "7dd7b0d8832ba3cb632c306926ded123429211b83641b35dc5c41ad2d34f9bec", "url": "https://files.pythonhosted.org/packages/40/9e/2b38731e0fc536806f16490e1a12d7f0dc2a1235aa8cc07bcc75416a7daa/pluggy-1.7.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "priority-2.0.0-py3-none-any.whl", "project": "priority", "sha256": "6f8eefce5f3ad59baf2c080a664037bb4725cd0a790d53d59ab4059288faf6aa", "url": "https://files.pythonhosted.org/packages/5e/5f/82c8074f7e84978129347c2c6ec8b6c59f3584ff1a20bc3c940a3e061790/priority-2.0.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "prometheus_client-0.26.0-py3-none-any.whl", "project": "prometheus-client", "sha256": "fa93d06737aa02bacd05794768508bb97d2fbee28cb3bca04eaae92f0ca953d6", "url": "https://files.pythonhosted.org/packages/eb/a3/b69efbf4143b5b9859b977770bbbabcc2796b702fa69dc40271e45cd5a56/prometheus_client-0.26.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "prometheus_fastapi_instrumentator-7.1.0-py3-none-any.whl", "project": "prometheus-fastapi-instrumentator", "sha256": "978130f3c0bb7b8ebcc90d35516a6fe13e02d2eb358c8f83887cdef7020c31e9", "url": "https://files.pythonhosted.org/packages/27/72/0824c18f3bc75810f55dacc2dd933f6ec829771180245ae3cc976195dec0/prometheus_fastapi_instrumentator-7.1.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "propcache-0.5.4-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl", "project": "propcache", "sha256": "6e9368e87a3efc285e559131092c5db643eb8e56de4ee42064d5baec22ef2bb5", "url": "https://files.pythonhosted.org/packages/c7/06/519a5ebb48b6f94beb48396e55c905f12246a25c3a3608a7ec7bceabf50e/propcache-0.5.4-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "protobuf-7.36.2-cp310-abi3-manylinux2014_x86_64.whl", "project": "protobuf", "sha256": "89f23aa53c24553a2416fd4fd1ec06f74fa42b14b546d8883128813f775bbfd2", "url": "https://files.pythonhosted.org/packages/db/f3/3996583dd2906297a637af12114deddf7658af6e683fedb83be061983fb5/protobuf-7.36.2-cp310-abi3-manylinux2014_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "psutil-7.2.2-cp36-abi3-manylinux2010_x86_64.manylinux_2_12_x86_64.manylinux_2_28_x86_64.whl", "project": "psutil", "sha256": "076a2d2f923fd4821644f5ba89f059523da90dc9014e85f8e45a5774ca5bc6f9", "url": "https://files.pythonhosted.org/packages/b5/70/5d8df3b09e25bce090399cf48e452d25c935ab72dad19406c77f4e828045/psutil-7.2.2-cp36-abi3-manylinux2010_x86_64.manylinux_2_12_x86_64.manylinux_2_28_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "py_cpuinfo-9.0.0-py3-none-any.whl", "project": "py-cpuinfo", "sha256": "859625bc251f64e21f077d099d4162689c762b5d6a4c3c97553d56241c9674d5", "url": "https://files.pythonhosted.org/packages/e0/a9/023730ba63db1e494a271cb018dcd361bd2c917ba7004c3e49d5daf795a2/py_cpuinfo-9.0.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "pybase64-1.5.1-cp311-cp311-manylinux1_x86_64.manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_5_x86_64.whl", "project": "pybase64", "sha256": "13cfb64d2a0a8e15b9196c8b1ad61d8adfd8ee68bf4ce749cbb3a313239fef3b", "url": "https://files.pythonhosted.org/packages/83/90/3fcd7eb178db3001e9bce5963a997836843136cf994225b065dc6e23b4c3/pybase64-1.5.1-cp311-cp311-manylinux1_x86_64.manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_5_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "pybind11-3.1.0-py3-none-any.whl", "project": "pybind11", "sha256": "b8488090f8acffbcb6b5d6a85571a6827a0a2981ffb75e5a0b27b87c4a6b7dd0", "url": "https://files.pythonhosted.org/packages/33/fd/8762f7ee3e4e4be6d1d846cffb4916dd9bb02b2f800d3603718a0efe494c/pybind11-3.1.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "pycountry-26.2.16-py3-none-any.whl", "project": "pycountry", "sha256": "115c4baf7cceaa30f59a4694d79483c9167dbce7a9de4d3d571c5f3ea77c305a", "url": "https://files.pythonhosted.org/packages/9c/42/7703bd45b62fecd44cd7d3495423097e2f7d28bc2e99e7c1af68892ab157/pycountry-26.2.16-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "pycparser-3.12-py3-none-any.whl", "project": "pycparser", "sha256": "a076f3f489b39b43ed13563a1dafe42447445bec2e294154ec5c57fcdda4c85e", "url": "https://files.pythonhosted.org/packages/b6/ae/315bbeee126a769cbde43cf4908acb4b40408d8bf8bbf334dd7368d8dadf/pycparser-3.12-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "pydantic-2.14.4-py3-none-any.whl", "project": "pydantic", "sha256": "653a2ad9f6d8858529c77c72717d0ea991d6c6837fe683246b2f4b2bbfc3fadc", "url": "https://files.pythonhosted.org/packages/8a/8c/824a686c4ba815ddb0722f9e66272088bccd4e1ae1d2f7015375e4a4fc7f/pydantic-2.14.4-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "pydantic_core-2.50.5-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.whl", "project": "pydantic-core", "sha256": "488319076ec92908b91fc6265ce761f1d78748f69f85518564fd16bf333e1b70", "url": "https://files.pythonhosted.org/packages/bd/77/9520ca4c8f9bac81c2c4124389a8413c9d0e97e054b1d0c854b71e104297/pydantic_core-2.50.5-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "pydantic_extra_types-2.11.1-py3-none-any.whl", "project": "pydantic-extra-types", "sha256": "1722ea2bddae5628ace25f2aa685b69978ef533123e5638cfbddb999e0100ec1", "url": "https://files.pythonhosted.org/packages/17/c1/3226e6d7f5a4f736f38ac11a6fbb262d701889802595cdb0f53a885ac2e0/pydantic_extra_types-2.11.1-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "pygments-2.21.0-py3-none-any.whl", "project": "pygments", "sha256": "2363c69b61c4a97c838da3b130dcd6468f4848992b21a82f2a63ec34377137d9", "url": "https://files.pythonhosted.org/packages/71/46/17f022dd3e953bf20a04a028a21ec746d942f8d2af30fa0f124fa0e6a684/pygments-2.21.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "pyjwt-2.15.1-py3-none-any.whl", "project": "pyjwt", "sha256": "42d59d631f7768a1028a64c7ff581a9bf7519804daf91fc5b6c56e30eec5e193", "url": "https://files.pythonhosted.org/packages/50/ca/44de4e75f8aadc457f0634be3b542815078ded46dca30efb960edeecad6e/pyjwt-2.15.1-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "pytest-9.2.0-py3-none-any.whl", "project": "pytest", "sha256": "07acdcf88ec174f907dc01af70bf52d49b014bbab03faeeade31c96b18c2e588", "url": "https://files.pythonhosted.org/packages/51/39/1f5d8c8877a0fa327db959c19341d4be61660de1ab6b7391f9eb805bcd67/pytest-9.2.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "pytest_mock-3.17.0-py3-none-any.whl", "project": "pytest-mock", "sha256": "1b82aa4b37137248bd687055e109723debeb07b489de1565297dc9589c5f2d6b", "url": "https://files.pythonhosted.org/packages/e8/ea/47fbdc8f37410956fd445720e927589b1e2a47772c5f28109f0ce2fa26d9/pytest_mock-3.17.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "python_dateutil-4.0.0-py3-none-any.whl", "project": "python-dateutil", "sha256": "a5e246f79eb80475e691bf93862cead98decd8a498cf53ba0516fcdc0f50dc1c", "url": "https://files.pythonhosted.org/packages/2f/a9/52b89563d154433d79b51ed1eb4842bf7334cb2696891a7fe135618853d7/python_dateutil-4.0.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "python_dotenv-1.2.4-py3-none-any.whl", "project": "python-dotenv", "sha256": "42269a8a5b3fd54ffa6f3d84b18abed50064717576b4ecf03dc4a55d8aa04fdc", "url": "https://files.pythonhosted.org/packages/60/d1/38f3a3405989a89ac18390803e70c6ad7c7760da4f9b83cbeca0c44a0c72/python_dotenv-1.2.4-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "python_json_logger-4.2.0-py3-none-any.whl", "project": "python-json-logger", "sha256": "158a52126fcd6869e09574d2b66272666f3dc8f468c62637ef9a1fa883719cb9", "url": "https://files.pythonhosted.org/packages/dc/55/6467fde553886cb293e41538f3a8b4e4fd4688c6df242cf982162d8367fb/python_json_logger-4.2.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "python_multipart-0.0.34-py3-none-any.whl", "project": "python-multipart", "sha256": "ebacd224bd686eee2f9aa1066a657affe07435a185834e05e5235e2e59173e91", "url": "https://files.pythonhosted.org/packages/f5/0e/090c52b122d8ec5fa37942c1410fea9cf04ce98bca0c84dde7f0aa11594d/python_multipart-0.0.34-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "pyyaml-6.0.4-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl", "project": "pyyaml", "sha256": "622aa875fa6533f25fedcffe23079357d65a690d462200afed5d8e9d0e01ebee", "url": "https://files.pythonhosted.org/packages/9d/3e/c1c307b6c03e4ea7d86f166f14920ead07aecc35e88d873814d12aa2da66/pyyaml-6.0.4-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "pyzmq-27.3.0-cp311-cp311-manylinux_2_26_x86_64.manylinux_2_28_x86_64.whl", "project": "pyzmq", "sha256": "477b8ad30d66fc905c5388351e83b9ac25824b00e82c0d052b72ea6392636dfd", "url": "https://files.pythonhosted.org/packages/8e/09/9f33bee7acbb95b0b8b4847a20f0ca15650bbfbed53795c2ca88f3390391/pyzmq-27.3.0-cp311-cp311-manylinux_2_26_x86_64.manylinux_2_28_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "quart-0.22.0-py3-none-any.whl", "project": "quart", "sha256": "bb659545f1a8a287a14df9434b9225a3d4738362a3ed170744d0e03bb9447b50", "url": "https://files.pythonhosted.org/packages/81/80/0159d6fe2fc76915f2354e5b9187082987f7d648f0298d49770320c086ef/quart-0.22.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "referencing-0.37.0-py3-none-any.whl", "project": "referencing", "sha256": "381329a9f99628c9069361716891d34ad94af76e461dcb0335825aecc7692231", "url": "https://files.pythonhosted.org/packages/2c/58/ca301544e1fa93ed4f80d724bf5b194f6e4b945841c5bfd555878eea9fcb/referencing-0.37.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "regex-2026.11.19-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl", "project": "regex", "sha256": "86d3b2ea69b3c56df3e8ddbac6cd98eaf5a8c5b5e7e006897ebdf7a28d6818e6", "url": "https://files.pythonhosted.org/packages/ec/9b/010ae7ce9edad5ff603fc6ed8488045a6e6f9f7a028cbd08cd549e338dc5/regex-2026.11.19-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "requests-2.34.2-py3-none-any.whl", "project": "requests", "sha256": "2a0d60c172f83ac6ab31e4554906c0f3b3588d37b5cb939b1c061f4907e278e0", "url": "https://files.pythonhosted.org/packages/a0/f4/c67b0b3f1b9245e8d266f0f112c500d50e5b4e83cb6f3b71b6528104182a/requests-2.34.2-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "rich-15.0.0-py3-none-any.whl", "project": "rich", "sha256": "33bd4ef74232fb73fe9279a257718407f169c09b78a87ad3d296f548e27de0bb", "url": "https://files.pythonhosted.org/packages/82/3b/64d4899d73f91ba49a8c18a8ff3f0ea8f1c1d75481760df8c68ef5235bf5/rich-15.0.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "rich_toolkit-0.20.6-py3-none-any.whl", "project": "rich-toolkit", "sha256": "465453ba6f94f99401f59f79fb562827ba5f6b4d4759015d40019f5c67750262", "url": "https://files.pythonhosted.org/packages/79/fc/7c296a563a893b0a23a73923ce27965ae15f658dcb58c0bcdd463e1671a2/rich_toolkit-0.20.6-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "rignore-0.8.1-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl", "project": "rignore", "sha256": "9869b618dc28104003292f26cad26a2d54f6a3941684f16fe9ff435b5df1b0c0", "url": "https://files.pythonhosted.org/packages/08/dc/dd73f3d47e3da48ff2535d24ee2dfda3ecacba9ad5f96b96a15860796041/rignore-0.8.1-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "rpds_py-2026.9.1-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl", "project": "rpds-py", "sha256": "136a1c3fe4402b7008bc81cb62ee538481795b61a7e83df88dff3b3f02b726ff", "url": "https://files.pythonhosted.org/packages/2d/5c/aac3b960fd55d37b49f77c0eebbe043eaf36762ebd48e7b46951e59c1c05/rpds_py-2026.9.1-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "scikit_learn-1.9.1-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl", "project": "scikit-learn", "sha256": "52a0703bbc07ad27f560fa63fa68e4c54dd735bfbbf65b4dd3c225dc7547b6df", "url": "https://files.pythonhosted.org/packages/69/46/f8b95a7a16fd13b458401d5e85a63d88ecb3679f3649812d5fdbea4c8357/scikit_learn-1.9.1-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "scipy-1.16.3-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.whl", "project": "scipy", "sha256": "0151a0749efeaaab78711c78422d413c583b8cdd2011a3c1d6c794938ee9fdb2", "url": "https://files.pythonhosted.org/packages/ca/6e/8942461cf2636cdae083e3eb72622a7fbbfa5cf559c7d13ab250a5dbdc01/scipy-1.16.3-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "sentencepiece-0.2.3-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl", "project": "sentencepiece", "sha256": "141dc0bef1e28a5cf7e41c8354ad6cc14525758278045286dcb5429b9906d39f", "url": "https://files.pythonhosted.org/packages/0f/90/7a01161697ff2a6dc1968a735b7ea7fefd7eb09827d90242923ff76e33fd/sentencepiece-0.2.3-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "sentry_sdk-2.75.0-py3-none-any.whl", "project": "sentry-sdk", "sha256": "9a10e97de2cbd42ad7e4a6e02a0d5af19de9811eb02445077d41ba14c08e170c", "url": "https://files.pythonhosted.org/packages/ec/ee/fbfe67386d64a7218013c8346b88b89d72f279b4ddb434ed5e94bea3d389/sentry_sdk-2.75.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "setproctitle-1.3.8-cp311-cp311-manylinux1_x86_64.manylinux_2_28_x86_64.manylinux_2_5_x86_64.whl", "project": "setproctitle", "sha256": "1a6f6a3b2920f4362e8d924f9e5b084f0b2692a2c140e348abd2e3a07a1def73", "url": "https://files.pythonhosted.org/packages/2e/89/7a19bba7f4a354fc3499bf83614b27452232235b1d44191f46ff396051de/setproctitle-1.3.8-cp311-cp311-manylinux1_x86_64.manylinux_2_28_x86_64.manylinux_2_5_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "shellingham-1.5.4-py2.py3-none-any.whl", "project": "shellingham", "sha256": "7ecfff8f2fd72616f7481040475a65b2bf8af90a56c89140852d1120324e8686", "url": "https://files.pythonhosted.org/packages/e0/f9/0595336914c5619e5f28a1fb793285925a8cd4b432c9da0a987836c7f822/shellingham-1.5.4-py2.py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "six-1.17.0-py2.py3-none-any.whl", "project": "six", "sha256": "4721f391ed90541fddacab5acf947aa0d3dc7d27b2e1e8eda2be8970586c3274", "url": "https://files.pythonhosted.org/packages/b7/ce/149a00dd41f10bc29e5921b496af8b574d8413afcd5e30dfa0ed46c2cc5e/six-1.17.0-py2.py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "sniffio-1.3.1-py3-none-any.whl", "project": "sniffio", "sha256": "2f6da418d1f1e0fddd844478f41680e794e6051915791a034ff65e5f100525a2", "url": "https://files.pythonhosted.org/packages/e9/44/75a9c9421471a6c4805dbf2356f7c181a29c1879239abab1ea2cc8f38b40/sniffio-1.3.1-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "sqlalchemy-2.1.9-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl", "project": "sqlalchemy", "sha256": "3a24b459e52b3ac138f6a05e99a4bd0589443a1ae18041a59c1cfdee12134a2b", "url": "https://files.pythonhosted.org/packages/a7/fb/0811345b81af424d7b3a3bb1f4129dd68494b37b74bb7d51f1386e2c95f7/sqlalchemy-2.1.9-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "sse_starlette-3.7.1-py3-none-any.whl", "project": "sse-starlette", "sha256": "c1bb3af0508c6c24cd4ab6257047654bbec01456a424bed36b36e8020cd7a37f", "url": "https://files.pythonhosted.org/packages/78/4d/6b0380b7dbb965b84c3368c0bfd85aa6ba1b9b825e9b8f42b8643efbab11/sse_starlette-3.7.1-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "starlette-0.50.0-py3-none-any.whl", "project": "starlette", "sha256": "9e5391843ec9b6e472eed1365a78c8098cfceb7a74bfd4d6b1c0c0095efb3bca", "url": "https://files.pythonhosted.org/packages/d9/52/1064f510b141bd54025f9b55105e26d1fa970b9be67ad766380a3c9b74b0/starlette-0.50.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "supervisor-4.3.0-py2.py3-none-any.whl", "project": "supervisor", "sha256": "0bcb763fddafba410f35cbde226aa7f8514b9fb82eb05a0c85f6588d1c13f8db", "url": "https://files.pythonhosted.org/packages/0e/65/5e726c372da8a5e35022a94388b12252710aad0c2351699c3d76ae8dba78/supervisor-4.3.0-py2.py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "threadpoolctl-3.8.0-py3-none-any.whl", "project": "threadpoolctl", "sha256": "f1b49c82704d50f13ffae019c727b0fa4f6791a58f48f06a09c45face1be66da", "url": "https://files.pythonhosted.org/packages/54/1b/831f2de4840a25db1dd7b1afea433ccafe6bb10aca07e13264f2079462d0/threadpoolctl-3.8.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "tiktoken-0.14.0-cp311-cp311-manylinux_2_28_x86_64.whl", "project": "tiktoken", "sha256": "f5e7665f6624e052e5e7f6a36919ab69279decdc976d7b16b4fa15e1897d0513", "url": "https://files.pythonhosted.org/packages/24/65/8c5dddd7cb67f6571d154a58d7c6e2f07da54bf84c49b6a1839965b7c35e/tiktoken-0.14.0-cp311-cp311-manylinux_2_28_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "tokenizers-0.22.2-cp39-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl", "project": "tokenizers", "sha256": "369cc9fc8cc10cb24143873a0d95438bb8ee257bb80c71989e3ee290e8d72c67", "url": "https://files.pythonhosted.org/packages/2e/76/932be4b50ef6ccedf9d3c6639b056a967a86258c6d9200643f01269211ca/tokenizers-0.22.2-cp39-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "tqdm-4.70.1-py3-none-any.whl", "project": "tqdm", "sha256": "c293e525e6fef9c20e8728fd4612df02a0aa31bb5fe91ecd93e123b1b7bffa73", "url": "https://files.pythonhosted.org/packages/a7/03/921a3d3c75785aca9ebfbfcabfbc3a1be12e2ab5265deb026d55a5a3f83e/tqdm-4.70.1-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "truststore-0.10.5-py3-none-any.whl", "project": "truststore", "sha256": "9aaaedaefaf06d8b206278cf8b5012bc897f485a874503501e12d776df78951c", "url": "https://files.pythonhosted.org/packages/51/e9/3a7820be2bb0fe53b6bc9c3be26d3d1158004e4c3ab953aa6840b955b1e9/truststore-0.10.5-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "typer-0.29.2-py3-none-any.whl", "project": "typer", "sha256": "f30731f8ca758368b836b3714872e58e395cef8fcaff918c853b1969ed5274e7", "url": "https://files.pythonhosted.org/packages/62/f3/864dcb0e165b52e9f75aa3c7e0aeeb9876f139c66eb14d87856bb173b0fa/typer-0.29.2-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "typing_inspection-0.4.5-py3-none-any.whl", "project": "typing-inspection", "sha256": "bc210535442b39e1bf2805e0c7a17dfd6a4ace760c84c7f7d16245d23a6b1c39", "url": "https://files.pythonhosted.org/packages/de/0c/ea2544850a7c135e15033a5c7a8e7211136184b7ae63e2239d557c2b3019/typing_inspection-0.4.5-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "tzdata-2026.6-py2.py3-none-any.whl", "project": "tzdata", "sha256": "0a10eec6e13ef16b627fabed9a5f2ba61a62b1c67f327305f4e7e412a70b4aec", "url": "https://files.pythonhosted.org/packages/0a/66/9a06c2227fedfd4919f0eaaa8b94377d9730882a7e4f95823c9a331ab5e1/tzdata-2026.6-py2.py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "urllib3-2.8.0-py3-none-any.whl", "project": "urllib3", "sha256": "0cf3cae568d36aa9576b28dfb35f11328f1cb974ca7647d9475ebb86c75ac6e3", "url": "https://files.pythonhosted.org/packages/92/9d/c4e665119135114480843e7ab388fa94d8480650450e6f8e26b70d323a4c/urllib3-2.8.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "uvicorn-0.55.0-py3-none-any.whl", "project": "uvicorn", "sha256": "bee604c5af6e15fb0584913c632b222c09db1048c26fc05053203207c4b9e37d", "url": "https://files.pythonhosted.org/packages/d2/05/3f8e143f2180eb21ed5e28b3c319143960c797c68852744c4d9116480928/uvicorn-0.55.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "uvloop-0.23.0-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl", "project": "uvloop", "sha256": "ab17b3a8aa754be0de0e397f7b95f13b14e56f077a4c6ae295e3d4afd199b325", "url": "https://files.pythonhosted.org/packages/16/fd/8cbf6124607863399008ae4b0d2bb50c22ed83526deec28dca08d635eb6d/uvloop-0.23.0-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "watchfiles-1.3.0-cp310-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl", "project": "watchfiles", "sha256": "b5768b49e426fd5b550b012c866db347cdf15c398ef98dc557b6e6b72fa74cd1", "url": "https://files.pythonhosted.org/packages/8a/cf/e3ad894ed5909a7c44b0707e89bc25d19a3d78b3a7aec846119443b6ae56/watchfiles-1.3.0-cp310-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "websockets-17.4-cp311-cp311-manylinux1_x86_64.manylinux_2_28_x86_64.manylinux_2_5_x86_64.whl", "project": "websockets", "sha256": "cebad8f4796248b91fc2168515e507e5cb6b663a32befd09f3b1e7920acdcb1a", "url": "https://files.pythonhosted.org/packages/57/70/80f870701f8610e88649d3cd173a0e7ce66433913da3683035a4370063ad/websockets-17.4-cp311-cp311-manylinux1_x86_64.manylinux_2_28_x86_64.manylinux_2_5_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "werkzeug-3.1.9-py3-none-any.whl", "project": "werkzeug", "sha256": "6392e50c78460ba618e5b21f08a71f59c99ce99cdc6cf6e3dd7e6ccca8754fab", "url": "https://files.pythonhosted.org/packages/a1/38/df03f564f43cec2684823f3cccae1a652ee7face1cbaa76fb223096e64d7/werkzeug-3.1.9-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "wsproto-1.3.2-py3-none-any.whl", "project": "wsproto", "sha256": "61eea322cdf56e8cc904bd3ad7573359a242ba65688716b0710a5eb12beab584", "url": "https://files.pythonhosted.org/packages/a4/f5/10b68b7b1544245097b2a1b8238f66f2fc6dcaeb24ba5d917f52bd2eed4f/wsproto-1.3.2-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "xgrammar-0.2.9-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl", "project": "xgrammar", "sha256": "b5179499ae9ef8366e1dcf592c3ee6b17ecf646971df50828b242934862d916c", "url": "https://files.pythonhosted.org/packages/b0/75/5bbce81b7e82ab2d47766ddda8fbdf58e12c4b62605a40f6898fb05726d0/xgrammar-0.2.9-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "yarl-1.25.1-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl", "project": "yarl", "sha256": "d5add7b4ca7afeea91d52e4d4e4db3b1fe9885b71f07054560d8c4296b7441a2", "url": "https://files.pythonhosted.org/packages/95/0c/a71501bbc1a674ff72c4d6c2b75f4d9a5af819f5244c3a7558080a8802c5/yarl-1.25.1-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl"}
   ],
   "sources": {"apt_build": [], "compile": true, "items": [], "soc_version": "ascend910b1"}},
  {"slug": "3-frameworks/pins",
   "requirements": [
   ],
   "files": [
   ],
   "sources": {"apt_build": [], "compile": true, "items": [{"component": "vllm-verl0.8.0", "dist": "vllm", "env": {"VLLM_TARGET_DEVICE": "empty"}, "fetch": {"file": "vllm-0.18.0.tar.gz", "sha256": "9a1bee091db8dbb4664a2a09cd9c61912e9912a44af1ce12b8593a231d05971c", "url": "https://files.pythonhosted.org/packages/39/a9/ed48c497572a41552cc71b5ede15291d882c546a01df27ed42944eb3b3ad/vllm-0.18.0.tar.gz"}, "file": "vllm-0.18.0.tar.gz", "kind": "sdist", "sha256": "9a1bee091db8dbb4664a2a09cd9c61912e9912a44af1ce12b8593a231d05971c", "soc_env": ""}, {"component": "vllm-ascend-verl0.8.0", "dist": "vllm-ascend", "env": {"COMPILE_CUSTOM_KERNELS": "1", "SETUPTOOLS_SCM_PRETEND_VERSION": "0.18.0"}, "fetch": {"branch": "releases/v0.18.0", "commit": "35b0fdf7d57aee5bd93793e03506ae2d85959595", "git": "https://github.com/vllm-project/vllm-ascend.git"}, "kind": "git", "soc_env": "SOC_VERSION"}, {"component": "megatron-lm-verl0.8.0", "dist": "megatron-core", "env": {}, "fetch": {"branch": "core_r0.16.0", "commit": "ddc0d6774783b032ddceacc5714e653651daecb9", "git": "https://github.com/NVIDIA/Megatron-LM.git"}, "kind": "git", "soc_env": ""}, {"component": "mindspeed-verl0.8.0", "dist": "mindspeed", "env": {}, "fetch": {"branch": "core_r0.16.0", "commit": "e4772499f7eb9fa9a68919dd1eaddef00e915b2d", "git": "https://github.com/Ascend/MindSpeed.git"}, "kind": "git", "soc_env": ""}], "soc_version": "ascend910b1"}},
  {"slug": "4-app/deps-av",
   "requirements": [
    "av==18.1.0 --hash=sha256:8a032e8d8ebc73dec079364b9b4a6837638a2d106e8472314e685ffbf163e700"
   ],
   "files": [
    {"index": "https://pypi.org/simple", "name": "av-18.1.0-cp311-abi3-manylinux_2_28_x86_64.whl", "project": "av", "sha256": "8a032e8d8ebc73dec079364b9b4a6837638a2d106e8472314e685ffbf163e700", "url": "https://files.pythonhosted.org/packages/27/3a/204dbfc3e08eb4cdc6e6ff57be02150bc44523ebdb50182d10025792ebd9/av-18.1.0-cp311-abi3-manylinux_2_28_x86_64.whl"}
   ],
   "sources": {"apt_build": [], "compile": false, "items": [], "soc_version": "ascend910b1"}},
  {"slug": "4-app/deps-pyarrow",
   "requirements": [
    "pyarrow==24.0.0 --hash=sha256:14e31a3c9e35f1ab6356c6378f6f72830e6d2d5f1791df3774a7b097d18a6a1e"
   ],
   "files": [
    {"index": "https://pypi.org/simple", "name": "pyarrow-24.0.0-cp311-cp311-manylinux_2_28_x86_64.whl", "project": "pyarrow", "sha256": "14e31a3c9e35f1ab6356c6378f6f72830e6d2d5f1791df3774a7b097d18a6a1e", "url": "https://files.pythonhosted.org/packages/f3/27/99c42abe8e21b44f4917f62631f3aa31404882a2c41d8a4cd5c110e13d52/pyarrow-24.0.0-cp311-cp311-manylinux_2_28_x86_64.whl"}
   ],
   "sources": {"apt_build": [], "compile": false, "items": [], "soc_version": "ascend910b1"}},
  {"slug": "4-app/deps-ray",
   "requirements": [
    "ray==2.60.0 --hash=sha256:e227f6b2af8ab4626dd9a35a5860b33864325ea137383d57f854d4637ee3fea2"
   ],
   "files": [
    {"index": "https://pypi.org/simple", "name": "ray-2.60.0-cp311-cp311-manylinux2014_x86_64.whl", "project": "ray", "sha256": "e227f6b2af8ab4626dd9a35a5860b33864325ea137383d57f854d4637ee3fea2", "url": "https://files.pythonhosted.org/packages/cc/36/99ab211a4eb44b1254e6ca8c41d0c9fab23c0bc818f20d3360ccb734fe7a/ray-2.60.0-cp311-cp311-manylinux2014_x86_64.whl"}
   ],
   "sources": {"apt_build": [], "compile": false, "items": [], "soc_version": "ascend910b1"}},
  {"slug": "4-app/deps-tensorboard",
   "requirements": [
    "tensorboard==2.21.0 --hash=sha256:7279316dcb6bd5bc391d623dea841531299cde1887310e8133bc34a996d32255"
   ],
   "files": [
    {"index": "https://pypi.org/simple", "name": "tensorboard-2.21.0-py3-none-any.whl", "project": "tensorboard", "sha256": "7279316dcb6bd5bc391d623dea841531299cde1887310e8133bc34a996d32255", "url": "https://files.pythonhosted.org/packages/37/4b/cd2eec9642781a8f5b2fb9994e3933a7b259ab18e9d49aeede9b5acf6311/tensorboard-2.21.0-py3-none-any.whl"}
   ],
   "sources": {"apt_build": [], "compile": false, "items": [], "soc_version": "ascend910b1"}},
  {"slug": "4-app/deps-tensorboard-data-server",
   "requirements": [
    "tensorboard-data-server==0.7.2 --hash=sha256:ef687163c24185ae9754ed5650eb5bc4d84ff257aabdc33f0cc6f74d8ba54530"
   ],
   "files": [
    {"index": "https://pypi.org/simple", "name": "tensorboard_data_server-0.7.2-py3-none-manylinux_2_31_x86_64.whl", "project": "tensorboard-data-server", "sha256": "ef687163c24185ae9754ed5650eb5bc4d84ff257aabdc33f0cc6f74d8ba54530", "url": "https://files.pythonhosted.org/packages/73/c6/825dab04195756cf8ff2e12698f22513b3db2f64925bdd41671bfb33aaa5/tensorboard_data_server-0.7.2-py3-none-manylinux_2_31_x86_64.whl"}
   ],
   "sources": {"apt_build": [], "compile": false, "items": [], "soc_version": "ascend910b1"}},
  {"slug": "4-app/deps-virtualenv",
   "requirements": [
    "virtualenv==21.14.5 --hash=sha256:b0651e0174982bba17cc6f0aaa2ef496730cb85a3f35eb5d1119d1c904f7d1da"
   ],
   "files": [
    {"index": "https://pypi.org/simple", "name": "virtualenv-21.14.5-py3-none-any.whl", "project": "virtualenv", "sha256": "b0651e0174982bba17cc6f0aaa2ef496730cb85a3f35eb5d1119d1c904f7d1da", "url": "https://files.pythonhosted.org/packages/df/93/084f10ebbecdedf7902ed68fbecc903f0e9c5742155bfffb05eccbc071da/virtualenv-21.14.5-py3-none-any.whl"}
   ],
   "sources": {"apt_build": [], "compile": false, "items": [], "soc_version": "ascend910b1"}},
  {"slug": "4-app/deps-wandb",
   "requirements": [
    "wandb==0.31.0 --hash=sha256:009bcf370598d5e7a3d3bb66e33510f78c17fcc0505f8aa7ecf51dbc4378f979"
   ],
   "files": [
    {"index": "https://pypi.org/simple", "name": "wandb-0.31.0-py3-none-manylinux_2_28_x86_64.whl", "project": "wandb", "sha256": "009bcf370598d5e7a3d3bb66e33510f78c17fcc0505f8aa7ecf51dbc4378f979", "url": "https://files.pythonhosted.org/packages/2a/07/5594faeaea9440be2ea01cee692573416b3997879df67f0e940bfbfc2d26/wandb-0.31.0-py3-none-manylinux_2_28_x86_64.whl"}
   ],
   "sources": {"apt_build": [], "compile": false, "items": [], "soc_version": "ascend910b1"}},
  {"slug": "4-app/deps",
   "requirements": [
    "absl-py==2.5.1 --hash=sha256:721200f2f0e9960f2ca9dc3a2a706b201f5f75d812c158f059cbbe29eeafbdb8",
    "accelerate==1.16.0 --hash=sha256:180885b6d7b05a19dc2dd6f722c5ce930f615e81e9e5f79d3ca910ddb9e6859e",
    "aiohttp-cors==0.8.1 --hash=sha256:3180cf304c5c712d626b9162b195b1db7ddf976a2a25172b35bb2448b890a80d",
    "antlr4-python3-runtime==4.9.3 --hash=sha256:f224469b4168294902bb1efa80a8bf7855f24c99aef99cbefc1bcd3cce77881b",
    "bytecode==0.19.1 --hash=sha256:211a5091abd6f16f5bb3d34f1b88fc77f8f8539801a02384b51a97bdcee45f0f",
    "codetiming==1.4.0 --hash=sha256:3b80f409bef00941a9755c5524071ce2f72eaa4520f4bc35b33869cde024ccbd",
    "colorful==0.5.8 --hash=sha256:a9381fdda3337fbaba5771991020abc69676afa102646650b759927892875992",
    "cwevals==0.0.1b1 --hash=sha256:6936baf0ccdc5d9092abd5c2ab628cedcdae9bb72edfdf730f7aaac19118855a",
    "datasets==5.2.0 --hash=sha256:4be9e2882caaf5db13eadc39e93f3da2a995187b99acebac1595bf6c58dfa927",
    "distlib==0.4.4 --hash=sha256:cf09d55b1e85a89576b036aeb71550bfd68320f3f21761ca329eadadad918638",
    "fla-core==0.5.0 --hash=sha256:5c826ff32daf6b629658e3e4f6125d87cf8c32eea937e3be9ba85f51951d809a",
    "google-api-core==2.44.0 --hash=sha256:8cb9ad8af28de9bc75121686d69b697ce0937e21fad2ad80c9a7e89f22b26e1f",
    "google-auth==2.63.0 --hash=sha256:cbc065325f67511946d1a66672e4f47e71ed162ef1abd2bb8404ceec407c86ba",
    "hf-transfer==0.1.9 --hash=sha256:cdca9bfb89e6f8f281890cc61a8aff2d3cecaff7e1a4d275574d96ca70098557",
    "hydra-core==1.3.8 --hash=sha256:d5f184c291691cba835c7f04bc4e36270ad88b1d7e394a3712f5af084c30b394",
    "importlib-metadata==10.2.0 --hash=sha256:c7a4bf1c7479601f6b8e437cfc14f4f77028ba62a8f34ae95cd93d9774dfba51",
    "lazy-importer==0.1.0 --hash=sha256:bd93fab7bef18e842eea02b839410954d37889140dc64ca4d9680aec6880c739",
    "markdown==3.11.3 --hash=sha256:e1a31a112232504d753e5c01bb8c2de90d3f0ba986b063e10770cf7695b09e73",
    "mathruler==0.1.0 --hash=sha256:e8ce0d9e07e892bf971fbff5e6eee330f6a66fd022666c99828a0000c788079f",
    "multiprocess==0.70.19 --hash=sha256:928851ae7973aea4ce0eaf330bbdafb2e01398a91518d5c8818802845564f45c",
    "objprint==0.3.0 --hash=sha256:489083bfc8baf0526f8fd6af74673799511532636f0ce4141133255ded773405",
    "omegaconf==2.3.1 --hash=sha256:3d701d14e9a8828f1edd28bb70b725908b34277cdd72cf7d6a83f94dadc6b6a0",
    "opencensus==0.11.4 --hash=sha256:a18487ce68bc19900336e0ff4655c5a116daf10c1b3685ece8d971bddad6a864",
    "opencensus-context==0.1.3 --hash=sha256:073bb0590007af276853009fac7e4bab1d523c3f03baf4cb4511ca38967c6039",
    "opentelemetry-exporter-prometheus==0.66b2 --hash=sha256:b73998788aa30bec3bfe20fae312650878adb59f6563ed8bf37c188cb450a189",
    "orjson==3.13.0 --hash=sha256:89bcf2d4bc6c9a7e1763c8cf534f38712e66b76a0fefda7fb7785462f0d635e4",
    "peft==0.21.2 --hash=sha256:106ab6077ff72c54d21577f9af5970e34bac7582cb14209f7b2b511e322a4eae",
    "platformdirs==4.14.9 --hash=sha256:d0d3a23e7ff282cfa94b77f5a22b81030dcb68ba0430f90c74f4bd8d090782ea",
    "proto-plus==1.29.0 --hash=sha256:8acd070469a7aaf43f440b022ef9757c8cac1a9f866e933f59ae98669ddc6c8b",
    "py-spy==0.4.3 --hash=sha256:8a4277225f470d394a85cca0cdd944bef87f0097b6f20150a6dd3ac2e92806b8",
    "pyasn1==0.6.5 --hash=sha256:4017b0fce125096b8573b39c989fdb1a4b19cf761e683398184550fea0e66587",
    "pyasn1-modules==0.4.2 --hash=sha256:29253a9207ce32b64c3ac6600edc75368f98473906e8fd1043bd6b5b1de2c14a",
    "pylatexenc==2.11 --hash=sha256:e78e7391d6c104f1ed150e21cfaa58016cdb50aa54406a2eecb793649ffdfdd0",
    "python-discovery==1.9.7 --hash=sha256:3add4a4dfc794f8e4a8c0fa0d9d6563172196d68709071a627e89fc36af39177",
    "pyvers==0.1.0 --hash=sha256:065249805ae537ddf9a2d1a8dffc6d0a12474a347d2eaa2f35ebdae92c0c8199",
    "qwen-vl-utils==0.0.14 --hash=sha256:5e28657bfd031e56bd447c5901b58ddfc3835285ed100f4c56580e0ade054e96",
    "safetensors==0.8.0 --hash=sha256:fd6f3f93c9a0a7cc2788ee63fb763353d4bd2e89b0751bc78fcf7dda00bea774",
    "smart-open==9.0.4 --hash=sha256:a0194ca29b392127c0cfc51183e0d9492ca129be91169250996c307ef293d80c",
    "tensordict==0.10.0 --hash=sha256:bccb6a7d7f02a8c83ca41815943bfa284da7d28019ab4276135809bda5ba05a6",
    "torchdata==0.11.0 --hash=sha256:52b940fbbe0e00fb21cabddf528449d1bec5bfb0d0823b7487b15f951658ee33",
    "transferqueue==0.1.7 --hash=sha256:d0657b107f668a431989a35b555d47425f398655e876f7b12984924f29d6dba2",
    "wrapt==2.5.2 --hash=sha256:0743950d3dda9940e56f81f5334ba051c4fe2e1421e4e4a4ef8eb8fb86a90894",
    "xxhash==4.1.0 --hash=sha256:5e713f5db9e1a8aafac59a45cc1ffce11ca507730f5dc12e212ea7b73d9debde",
    "zipp==4.1.2 --hash=sha256:b30cb6cd253122169c47de245ca24a86bac2a5d3802ba15bf7ba6414eb9e144d"
   ],
   "files": [
    {"index": "https://pypi.org/simple", "name": "absl_py-2.5.1-py3-none-any.whl", "project": "absl-py", "sha256": "721200f2f0e9960f2ca9dc3a2a706b201f5f75d812c158f059cbbe29eeafbdb8", "url": "https://files.pythonhosted.org/packages/b3/7d/01e62f59e4166af1be6238d9f2b7f3453630c51b8044b412d05b5606532a/absl_py-2.5.1-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "accelerate-1.16.0-py3-none-any.whl", "project": "accelerate", "sha256": "180885b6d7b05a19dc2dd6f722c5ce930f615e81e9e5f79d3ca910ddb9e6859e", "url": "https://files.pythonhosted.org/packages/29/8e/d77aa769cf76472ede10e73e5c27ed22587ff12091fdd7408bc390f41af7/accelerate-1.16.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "aiohttp_cors-0.8.1-py3-none-any.whl", "project": "aiohttp-cors", "sha256": "3180cf304c5c712d626b9162b195b1db7ddf976a2a25172b35bb2448b890a80d", "url": "https://files.pythonhosted.org/packages/98/3b/40a68de458904bcc143622015fff2352b6461cd92fd66d3527bf1c6f5716/aiohttp_cors-0.8.1-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "antlr4-python3-runtime-4.9.3.tar.gz", "project": "antlr4-python3-runtime", "sha256": "f224469b4168294902bb1efa80a8bf7855f24c99aef99cbefc1bcd3cce77881b", "url": "https://files.pythonhosted.org/packages/3e/38/7859ff46355f76f8d19459005ca000b6e7012f2f1ca597746cbcd1fbfe5e/antlr4-python3-runtime-4.9.3.tar.gz"},
    {"index": "https://pypi.org/simple", "name": "bytecode-0.19.1-py3-none-any.whl", "project": "bytecode", "sha256": "211a5091abd6f16f5bb3d34f1b88fc77f8f8539801a02384b51a97bdcee45f0f", "url": "https://files.pythonhosted.org/packages/b5/d2/7b937ec5bcc2fabca017e32541a0b1ef081bb5a1bb3531d382300f7a1ccc/bytecode-0.19.1-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "codetiming-1.4.0-py3-none-any.whl", "project": "codetiming", "sha256": "3b80f409bef00941a9755c5524071ce2f72eaa4520f4bc35b33869cde024ccbd", "url": "https://files.pythonhosted.org/packages/bc/91/e4a2b7c64e738beefddfa24b409d6eecb16c378bde01578918b6ea722a09/codetiming-1.4.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "colorful-0.5.8-py2.py3-none-any.whl", "project": "colorful", "sha256": "a9381fdda3337fbaba5771991020abc69676afa102646650b759927892875992", "url": "https://files.pythonhosted.org/packages/c3/11/25cdf9d5fc21efd30134fc74c43702c6f7ef09ebae8ed927f1283403ad8d/colorful-0.5.8-py2.py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "cwevals-0.0.1b1-py3-none-any.whl", "project": "cwevals", "sha256": "6936baf0ccdc5d9092abd5c2ab628cedcdae9bb72edfdf730f7aaac19118855a", "url": "https://files.pythonhosted.org/packages/b5/96/b3b348954f88915e60e2f1fbe6d09250584e53a20d949e55786f31dbaeb0/cwevals-0.0.1b1-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "datasets-5.2.0-py3-none-any.whl", "project": "datasets", "sha256": "4be9e2882caaf5db13eadc39e93f3da2a995187b99acebac1595bf6c58dfa927", "url": "https://files.pythonhosted.org/packages/ae/22/c92c96de701dd7441f553adaaa480801ff3d37575486ef82df651a45f0ec/datasets-5.2.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "distlib-0.4.4-py2.py3-none-any.whl", "project": "distlib", "sha256": "cf09d55b1e85a89576b036aeb71550bfd68320f3f21761ca329eadadad918638", "url": "https://files.pythonhosted.org/packages/c1/2b/238f02a4927fa2e27aa995371d240a468b52e42eae44a678434aff736b38/distlib-0.4.4-py2.py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "fla_core-0.5.0-py3-none-any.whl", "project": "fla-core", "sha256": "5c826ff32daf6b629658e3e4f6125d87cf8c32eea937e3be9ba85f51951d809a", "url": "https://files.pythonhosted.org/packages/f4/03/96e6820d176256353670b41ca56dabbbebe129674b4f4ad7b54a152b7b36/fla_core-0.5.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "google_api_core-2.44.0-py3-none-any.whl", "project": "google-api-core", "sha256": "8cb9ad8af28de9bc75121686d69b697ce0937e21fad2ad80c9a7e89f22b26e1f", "url": "https://files.pythonhosted.org/packages/c9/73/4068d4b123d206f42e44d476b6ed4de773d81efc4e88101ff82e318b9a7a/google_api_core-2.44.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "google_auth-2.63.0-py3-none-any.whl", "project": "google-auth", "sha256": "cbc065325f67511946d1a66672e4f47e71ed162ef1abd2bb8404ceec407c86ba", "url": "https://files.pythonhosted.org/packages/5e/78/1c31250140faba4206c557b2bb16e8b1f1e42202864f0dbe0a8f4bc8dab2/google_auth-2.63.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "hf_transfer-0.1.9-cp38-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl", "project": "hf-transfer", "sha256": "cdca9bfb89e6f8f281890cc61a8aff2d3cecaff7e1a4d275574d96ca70098557", "url": "https://files.pythonhosted.org/packages/d6/d8/f87ea6f42456254b48915970ed98e993110521e9263472840174d32c880d/hf_transfer-0.1.9-cp38-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "hydra_core-1.3.8-py3-none-any.whl", "project": "hydra-core", "sha256": "d5f184c291691cba835c7f04bc4e36270ad88b1d7e394a3712f5af084c30b394", "url": "https://files.pythonhosted.org/packages/13/69/8e5cf7ad847538fc180fbd06e8442b8bede53ee4852458a16e24231395e9/hydra_core-1.3.8-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "importlib_metadata-10.2.0-py3-none-any.whl", "project": "importlib-metadata", "sha256": "c7a4bf1c7479601f6b8e437cfc14f4f77028ba62a8f34ae95cd93d9774dfba51", "url": "https://files.pythonhosted.org/packages/7f/61/0c0fae37eb561d8fddb788cbae0f227051628d70d67498a8a116c1f547d7/importlib_metadata-10.2.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "lazy_importer-0.1.0-py3-none-any.whl", "project": "lazy-importer", "sha256": "bd93fab7bef18e842eea02b839410954d37889140dc64ca4d9680aec6880c739", "url": "https://files.pythonhosted.org/packages/0a/28/7ded071d0975dcc6d5d106ffbf7b3ca420f7caa3b8a235fa604b6e37032a/lazy_importer-0.1.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "markdown-3.11.3-py3-none-any.whl", "project": "markdown", "sha256": "e1a31a112232504d753e5c01bb8c2de90d3f0ba986b063e10770cf7695b09e73", "url": "https://files.pythonhosted.org/packages/81/6f/1fa8970e960e5c832874399e6efa564870ade8206d57fef5d5e296b834f5/markdown-3.11.3-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "mathruler-0.1.0-py3-none-any.whl", "project": "mathruler", "sha256": "e8ce0d9e07e892bf971fbff5e6eee330f6a66fd022666c99828a0000c788079f", "url": "https://files.pythonhosted.org/packages/54/a5/91d16d65b66251c2423bfedb9219c2e803f11d91af9bfba75f05ddc33bfb/mathruler-0.1.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "multiprocess-0.70.19-py311-none-any.whl", "project": "multiprocess", "sha256": "928851ae7973aea4ce0eaf330bbdafb2e01398a91518d5c8818802845564f45c", "url": "https://files.pythonhosted.org/packages/86/c2/dec9722dc3474c164a0b6bcd9a7ed7da542c98af8cabce05374abab35edd/multiprocess-0.70.19-py311-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "objprint-0.3.0-py3-none-any.whl", "project": "objprint", "sha256": "489083bfc8baf0526f8fd6af74673799511532636f0ce4141133255ded773405", "url": "https://files.pythonhosted.org/packages/ec/af/572825252f16f36eeecbc8e3b721913d2640d69b984fdb8907aa8b4b0975/objprint-0.3.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "omegaconf-2.3.1-py3-none-any.whl", "project": "omegaconf", "sha256": "3d701d14e9a8828f1edd28bb70b725908b34277cdd72cf7d6a83f94dadc6b6a0", "url": "https://files.pythonhosted.org/packages/a4/0e/152509871bf30df6fc38569f52a2db9b55dd41aae957adae50a053ac7778/omegaconf-2.3.1-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "opencensus-0.11.4-py2.py3-none-any.whl", "project": "opencensus", "sha256": "a18487ce68bc19900336e0ff4655c5a116daf10c1b3685ece8d971bddad6a864", "url": "https://files.pythonhosted.org/packages/b5/ed/9fbdeb23a09e430d87b7d72d430484b88184633dc50f6bfb792354b6f661/opencensus-0.11.4-py2.py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "opencensus_context-0.1.3-py2.py3-none-any.whl", "project": "opencensus-context", "sha256": "073bb0590007af276853009fac7e4bab1d523c3f03baf4cb4511ca38967c6039", "url": "https://files.pythonhosted.org/packages/10/68/162c97ea78c957d68ecf78a5c5041d2e25bd5562bdf5d89a6cbf7f8429bf/opencensus_context-0.1.3-py2.py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "opentelemetry_exporter_prometheus-0.66b2-py3-none-any.whl", "project": "opentelemetry-exporter-prometheus", "sha256": "b73998788aa30bec3bfe20fae312650878adb59f6563ed8bf37c188cb450a189", "url": "https://files.pythonhosted.org/packages/b3/ec/91617f3e9bbe50487fd899a9efee4d111eabc3c61b66c2ef3ecf0aaba68e/opentelemetry_exporter_prometheus-0.66b2-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "orjson-3.13.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl", "project": "orjson", "sha256": "89bcf2d4bc6c9a7e1763c8cf534f38712e66b76a0fefda7fb7785462f0d635e4", "url": "https://files.pythonhosted.org/packages/cd/cc/c0874f13819ae346d69ca00d074d464710b494abd4442bdebf75ac404a98/orjson-3.13.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "peft-0.21.2-py3-none-any.whl", "project": "peft", "sha256": "106ab6077ff72c54d21577f9af5970e34bac7582cb14209f7b2b511e322a4eae", "url": "https://files.pythonhosted.org/packages/70/0b/59441cdbfdd342ed03c08af90a2fe16173f0cd48ab219f523b39ca059a79/peft-0.21.2-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "platformdirs-4.14.9-py3-none-any.whl", "project": "platformdirs", "sha256": "d0d3a23e7ff282cfa94b77f5a22b81030dcb68ba0430f90c74f4bd8d090782ea", "url": "https://files.pythonhosted.org/packages/3b/e7/fc53dfd2f9469cce9be9c58385bdcdb5087e790c135c9dadd4cc8401bb3d/platformdirs-4.14.9-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "proto_plus-1.29.0-py3-none-any.whl", "project": "proto-plus", "sha256": "8acd070469a7aaf43f440b022ef9757c8cac1a9f866e933f59ae98669ddc6c8b", "url": "https://files.pythonhosted.org/packages/b1/05/a3ef5b1161498e7b5a2a60288a9cf41b9149e94555423a43ec536737ac1a/proto_plus-1.29.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "py_spy-0.4.3-py2.py3-none-manylinux1_x86_64.manylinux_2_5_x86_64.whl", "project": "py-spy", "sha256": "8a4277225f470d394a85cca0cdd944bef87f0097b6f20150a6dd3ac2e92806b8", "url": "https://files.pythonhosted.org/packages/78/1f/651389a861f6148754443834a50dd576993257af5f645d4316ab94505267/py_spy-0.4.3-py2.py3-none-manylinux1_x86_64.manylinux_2_5_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "pyasn1-0.6.5-py3-none-any.whl", "project": "pyasn1", "sha256": "4017b0fce125096b8573b39c989fdb1a4b19cf761e683398184550fea0e66587", "url": "https://files.pythonhosted.org/packages/19/1f/3eefd5c84c35cae44549ce1c7f7e58f7945b34f5a6bce07a135438522073/pyasn1-0.6.5-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "pyasn1_modules-0.4.2-py3-none-any.whl", "project": "pyasn1-modules", "sha256": "29253a9207ce32b64c3ac6600edc75368f98473906e8fd1043bd6b5b1de2c14a", "url": "https://files.pythonhosted.org/packages/47/8d/d529b5d697919ba8c11ad626e835d4039be708a35b0d22de83a269a6682c/pyasn1_modules-0.4.2-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "pylatexenc-2.11-py2.py3-none-any.whl", "project": "pylatexenc", "sha256": "e78e7391d6c104f1ed150e21cfaa58016cdb50aa54406a2eecb793649ffdfdd0", "url": "https://files.pythonhosted.org/packages/e7/06/3d67bd912ef337aa4856b466121d03f304aa1bb4d804f9298b6227cd227e/pylatexenc-2.11-py2.py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "python_discovery-1.9.7-py3-none-any.whl", "project": "python-discovery", "sha256": "3add4a4dfc794f8e4a8c0fa0d9d6563172196d68709071a627e89fc36af39177", "url": "https://files.pythonhosted.org/packages/6c/47/d4852249f59b263ff1bc66456c6ca13dfd5d67900ce72c0418389b33db5d/python_discovery-1.9.7-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "pyvers-0.1.0-py3-none-any.whl", "project": "pyvers", "sha256": "065249805ae537ddf9a2d1a8dffc6d0a12474a347d2eaa2f35ebdae92c0c8199", "url": "https://files.pythonhosted.org/packages/7f/39/c5432f541e6ea1d616dfd6ef42ce02792f7eb42dd44f5ed4439dbe17a58b/pyvers-0.1.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "qwen_vl_utils-0.0.14-py3-none-any.whl", "project": "qwen-vl-utils", "sha256": "5e28657bfd031e56bd447c5901b58ddfc3835285ed100f4c56580e0ade054e96", "url": "https://files.pythonhosted.org/packages/c4/43/80f67e0336cb2fc725f8e06f7fe35c1d0fe946f4d2b8b2175e797e07349e/qwen_vl_utils-0.0.14-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "safetensors-0.8.0-cp310-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl", "project": "safetensors", "sha256": "fd6f3f93c9a0a7cc2788ee63fb763353d4bd2e89b0751bc78fcf7dda00bea774", "url": "https://files.pythonhosted.org/packages/28/50/f203ff3a3ddfe19308efc83c5a3a29ed02bf786732ec35e68bf9162f3365/safetensors-0.8.0-cp310-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "smart_open-9.0.4-py3-none-any.whl", "project": "smart-open", "sha256": "a0194ca29b392127c0cfc51183e0d9492ca129be91169250996c307ef293d80c", "url": "https://files.pythonhosted.org/packages/6f/af/62ef87f267e9f5aeed76392d3d25d5a1a36893743e67fb727b61fff6994b/smart_open-9.0.4-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "tensordict-0.10.0-cp311-cp311-manylinux_2_28_x86_64.whl", "project": "tensordict", "sha256": "bccb6a7d7f02a8c83ca41815943bfa284da7d28019ab4276135809bda5ba05a6", "url": "https://files.pythonhosted.org/packages/41/c1/373677e2376c25f0b01ba46907fcae33268d371bcaae45026f6fed418b77/tensordict-0.10.0-cp311-cp311-manylinux_2_28_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "torchdata-0.11.0-py3-none-any.whl", "project": "torchdata", "sha256": "52b940fbbe0e00fb21cabddf528449d1bec5bfb0d0823b7487b15f951658ee33", "url": "https://files.pythonhosted.org/packages/95/d4/af694ef718aedbe95a72760ab9ff7a6a7a44ace2d7f70c27bfeb67c5c503/torchdata-0.11.0-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "transferqueue-0.1.7-py3-none-any.whl", "project": "transferqueue", "sha256": "d0657b107f668a431989a35b555d47425f398655e876f7b12984924f29d6dba2", "url": "https://files.pythonhosted.org/packages/16/fe/bc9c75492b15ad90d0c9e97eb8b3ad643c8b2a023e7361c1ff99948a2f96/transferqueue-0.1.7-py3-none-any.whl"},
    {"index": "https://pypi.org/simple", "name": "wrapt-2.5.2-cp311-cp311-manylinux1_x86_64.manylinux_2_28_x86_64.manylinux_2_5_x86_64.whl", "project": "wrapt", "sha256": "0743950d3dda9940e56f81f5334ba051c4fe2e1421e4e4a4ef8eb8fb86a90894", "url": "https://files.pythonhosted.org/packages/98/00/a0effd5872aed3271b28b4740a71bc2d7406d33b4e03eac01ae099ac8569/wrapt-2.5.2-cp311-cp311-manylinux1_x86_64.manylinux_2_28_x86_64.manylinux_2_5_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "xxhash-4.1.0-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl", "project": "xxhash", "sha256": "5e713f5db9e1a8aafac59a45cc1ffce11ca507730f5dc12e212ea7b73d9debde", "url": "https://files.pythonhosted.org/packages/b6/4f/5b195a79fafb6e9ab8e95229cc5346572a6cc40d6d6ed9227183a25315ea/xxhash-4.1.0-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl"},
    {"index": "https://pypi.org/simple", "name": "zipp-4.1.2-py3-none-any.whl", "project": "zipp", "sha256": "b30cb6cd253122169c47de245ca24a86bac2a5d3802ba15bf7ba6414eb9e144d", "url": "https://files.pythonhosted.org/packages/b8/44/7bd2007260da11cccca29ba2d4c345f1287aa663db38ee7cefeabf6386a5/zipp-4.1.2-py3-none-any.whl"}
   ],
   "sources": {"apt_build": [], "compile": true, "items": [], "soc_version": "ascend910b1"}},
  {"slug": "4-app/pins-mbridge-verl0.8.0",
   "requirements": [
    "mbridge==0.15.1 --hash=sha256:5c7c007c2eb13bb2d0ce9bd6b313537024d0a7fad52179ff367635eafe5cd4cd"
   ],
   "files": [
    {"index": "https://pypi.org/simple", "name": "mbridge-0.15.1-py3-none-any.whl", "project": "mbridge", "sha256": "5c7c007c2eb13bb2d0ce9bd6b313537024d0a7fad52179ff367635eafe5cd4cd", "url": "https://files.pythonhosted.org/packages/51/dc/8208746f41ff08d0b6eb8c261569d57af97648ee0d1631ea273e68c627dc/mbridge-0.15.1-py3-none-any.whl"}
   ],
   "sources": {"apt_build": [], "compile": false, "items": [], "soc_version": "ascend910b1"}},
  {"slug": "4-app/pins-megatron-bridge",
   "requirements": [
   ],
   "files": [
   ],
   "sources": {"apt_build": [], "compile": false, "items": [{"component": "megatron-bridge", "dist": "megatron-bridge", "env": {}, "fetch": {"branch": "main", "commit": "de93536e9028ecf1e4dc28608dc80f336dcdfe59", "git": "https://github.com/NVIDIA-NeMo/Megatron-Bridge.git"}, "import_path": "/opt/sources/megatron-bridge/src", "kind": "git", "path": "src", "soc_env": ""}], "soc_version": "ascend910b1"}},
  {"slug": "4-app/pins-transformers-verl0.8.0",
   "requirements": [
    "transformers==5.3.0 --hash=sha256:50ac8c89c3c7033444fb3f9f53138096b997ebb70d4b5e50a2e810bf12d3d29a"
   ],
   "files": [
    {"index": "https://pypi.org/simple", "name": "transformers-5.3.0-py3-none-any.whl", "project": "transformers", "sha256": "50ac8c89c3c7033444fb3f9f53138096b997ebb70d4b5e50a2e810bf12d3d29a", "url": "https://files.pythonhosted.org/packages/b8/88/ae8320064e32679a5429a2c9ebbc05c2bf32cefb6e076f9b07f6d685a9b4/transformers-5.3.0-py3-none-any.whl"}
   ],
   "sources": {"apt_build": [], "compile": false, "items": [], "soc_version": "ascend910b1"}},
  {"slug": "4-app/pins-verl-verl0.8.0",
   "requirements": [
   ],
   "files": [
   ],
   "sources": {"apt_build": [], "compile": true, "items": [{"component": "verl-verl0.8.0", "dist": "verl", "env": {}, "fetch": {"branch": "release/v0.8.0", "commit": "3e4edb6e3d6872ad8aa21af83e98ee6e1bea19a2", "git": "https://github.com/verl-project/verl.git"}, "kind": "git", "soc_env": ""}], "soc_version": "ascend910b1"}},
  {"slug": "4-app/pins-flash-linear-attention-verl0.8.0",
   "requirements": [
    "flash-linear-attention==0.5.0 --hash=sha256:92e64e989ed34355c1f838232597b2e39783ee0494ada3199b58e156aa1d8eb8"
   ],
   "files": [
    {"index": "https://pypi.org/simple", "name": "flash_linear_attention-0.5.0-py3-none-any.whl", "project": "flash-linear-attention", "sha256": "92e64e989ed34355c1f838232597b2e39783ee0494ada3199b58e156aa1d8eb8", "url": "https://files.pythonhosted.org/packages/cc/16/7736db08806981562c728f32ea1dcb4565948fa9faffdbf4ffbf72522fbf/flash_linear_attention-0.5.0-py3-none-any.whl"}
   ],
   "sources": {"apt_build": [], "compile": false, "items": [], "soc_version": "ascend910b1"}},
  {"slug": "4-app/pins-viztracer-verl0.8.0",
   "requirements": [
    "viztracer==1.1.1 --hash=sha256:92b27f3be8d956bb04c3c773916a8861a1e4ec0f8001ea736ace168c4f5aeb2c"
   ],
   "files": [
    {"index": "https://pypi.org/simple", "name": "viztracer-1.1.1-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl", "project": "viztracer", "sha256": "92b27f3be8d956bb04c3c773916a8861a1e4ec0f8001ea736ace168c4f5aeb2c", "url": "https://files.pythonhosted.org/packages/8e/b7/dc09fe126c98521322d685b2b9f00d438ef60db1c80020e349b99222f604/viztracer-1.1.1-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl"}
   ],
   "sources": {"apt_build": [], "compile": false, "items": [], "soc_version": "ascend910b1"}}
 ]
}
PLAN
