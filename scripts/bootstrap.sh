# Shared by ./run and ./test: system libraries and the virtual environment. Idempotent and
# fast on the second call (a stamp file in .venv records the installed pyproject.toml and
# setup.py).
#
# System libraries: Mesa's EGL (headless rendering, needed by both), Xvfb and xdotool (only for
# the tests that open and drive the real window; without them those skip), Chromium (only for the
# gallery's browser test; without it that test skips). Missing ones are installed
# with apt-get when running as root; otherwise the exact command is printed. Libraries are
# found without relying on PATH (ldconfig by its absolute path, else the dynamic loader), so a
# normal user whose libraries are installed goes straight on.

_apt_install() {
  # $@: Debian packages. Installs them as root, otherwise prints the exact command. A failed
  # install prints apt-get's own output (it says why: no network, unknown package, ...).
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing system packages: $*" >&2
    local log
    if log="$(DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" 2>&1)"; then
      return 0
    fi
    # A fresh container has no package lists yet.
    if log="$(apt-get update -q 2>&1)" \
       && log="$(DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" 2>&1)"; then
      return 0
    fi
    echo "$log" >&2
    echo "apt-get install $* failed (its output is above)" >&2
    return 1
  fi
  echo "Missing system packages. Run: sudo apt-get install -y $*" >&2
  return 1
}

_ldconfig_bin() {
  # ldconfig lives in /sbin (or /usr/sbin), which a normal user's PATH often lacks.
  local c
  for c in /sbin/ldconfig /usr/sbin/ldconfig "$(command -v ldconfig 2>/dev/null)"; do
    if [ -n "$c" ] && [ -x "$c" ]; then echo "$c"; return 0; fi
  done
  return 1
}

_probe_python() {
  local py
  for py in "${PYTHON:-}" /usr/bin/python3 python3; do
    if [ -n "$py" ] && command -v "$py" >/dev/null 2>&1; then echo "$py"; return 0; fi
  done
  return 1
}

_have_lib() {
  # $1: a shared library soname (libEGL.so.1). The linker cache by absolute path; without
  # ldconfig, ask the dynamic loader itself (ctypes dlopen) whether the library loads.
  local ldc cache py
  if ldc="$(_ldconfig_bin)"; then
    cache="$("$ldc" -p 2>/dev/null)" || cache=""
    case "$cache" in *"$1"*) return 0 ;; esac
  fi
  py="$(_probe_python)" || return 1
  "$py" -c 'import ctypes, sys; ctypes.CDLL(sys.argv[1])' "$1" >/dev/null 2>&1
}

_missing_egl() {
  local need=()
  _have_lib 'libEGL.so.1' || need+=(libegl1)
  # Mesa's EGL vendor library and its software rasteriser (llvmpipe).
  if ! _have_lib 'libEGL_mesa.so.0'; then need+=(libegl-mesa0); fi
  local f found=""
  for f in /usr/lib/*/dri/swrast_dri.so /usr/lib/*/dri/kms_swrast_dri.so \
           /usr/lib/dri/swrast_dri.so /usr/lib64/dri/swrast_dri.so; do
    if [ -e "$f" ]; then found=1; break; fi
  done
  [ -n "$found" ] || need+=(libgl1-mesa-dri)
  _have_lib 'libGL.so.1' || need+=(libgl1)
  echo "${need[@]}"
}

ensure_system_libs() {
  # $1: run | test
  local need
  need="$(_missing_egl)"
  if [ -n "$need" ]; then
    # shellcheck disable=SC2086
    _apt_install $need || { echo "Headless rendering needs Mesa EGL; see above." >&2; return 1; }
  fi
  if [ "$1" = "test" ] && { ! command -v xvfb-run >/dev/null 2>&1 \
                            || ! command -v xdotool >/dev/null 2>&1; }; then
    # Xvfb runs the real window; xdotool drives it like a user (tests/app/xdriver.py)
    _apt_install xvfb xauth xdotool \
      || echo "Continuing without Xvfb / xdotool: the real-window tests will be skipped." >&2
  fi
  if [ "$1" = "test" ] && ! command -v chromium >/dev/null 2>&1; then
    # headless Chromium opens the gallery's index.html from the file system
    # (tests/contract/test_contract_gallery.py)
    _apt_install chromium \
      || echo "Continuing without Chromium: the gallery's browser test will be skipped." >&2
  fi
  if [ "$1" = "test" ]; then ensure_gltf_validator; fi
  return 0
}

ensure_gltf_validator() {
  # The Khronos glTF validator (npm gltf-validator, a JavaScript library) for the test of
  # vfxviewer export, installed into .venv/gltf-validator (ignored, kept between runs) where
  # node and npm exist; without node that test is skipped.
  command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || return 0
  [ -d .venv/gltf-validator/node_modules/gltf-validator ] && return 0
  echo "Installing the glTF validator (npm gltf-validator) into .venv/gltf-validator" >&2
  npm install --silent --no-audit --no-fund --prefix .venv/gltf-validator gltf-validator \
    >&2 || echo "npm install gltf-validator failed: the glTF validator test will fail." >&2
  return 0
}

_python() {
  local py
  for py in "${PYTHON:-}" python3.13 python3.12 python3.11 python3; do
    [ -n "$py" ] || continue
    if command -v "$py" >/dev/null 2>&1 \
       && "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      echo "$py"
      return 0
    fi
  done
  echo "Python >= 3.11 not found (set PYTHON=/path/to/python3.11)." >&2
  return 1
}

ensure_venv() {
  # $1: extras to install ("dev" for ./test); a dev install also satisfies ./run.
  local extras="${1:-}"
  local want
  want="$(cat pyproject.toml setup.py | sha256sum | cut -d' ' -f1)"
  local stamp=".venv/.installed${extras:+-$extras}"
  if [ -x .venv/bin/python ]; then
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then return 0; fi
    if [ -z "$extras" ] && [ -f .venv/.installed-dev ] \
       && [ "$(cat .venv/.installed-dev)" = "$want" ]; then return 0; fi
  else
    local py
    py="$(_python)" || return 1
    echo "Creating .venv with $py" >&2
    "$py" -m venv .venv || {
      echo "Could not create a venv. On Debian/Ubuntu: sudo apt-get install -y python3-venv" >&2
      return 1
    }
    .venv/bin/python -m pip install -q --upgrade pip >/dev/null
  fi
  echo "Installing the viewer into .venv${extras:+ (with $extras extras)}" >&2
  if [ -n "$extras" ]; then
    .venv/bin/python -m pip install -q -e ".[$extras]"
  else
    .venv/bin/python -m pip install -q -e .
  fi
  echo "$want" > "$stamp"
}
