# Shared by ./run and ./test: system libraries and the virtual environment. Idempotent and
# fast on the second call (a stamp file records the installed pyproject.toml).

_apt_install() {
  # $@: Debian packages. Installs them as root, otherwise prints the exact command.
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing system packages: $*" >&2
    (apt-get install -y -q "$@" >/dev/null 2>&1 || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q "$@" >/dev/null; }) \
      || { echo "apt-get install $* failed" >&2; return 1; }
  else
    echo "Missing system packages. Run: sudo apt-get install -y $*" >&2
    return 1
  fi
}

ensure_system_libs() {
  local need=()
  if ! ldconfig -p 2>/dev/null | grep -q 'libEGL.so.1'; then need+=(libegl1); fi
  if ! ls /usr/lib/*/dri/swrast_dri.so /usr/lib/*/dri/kms_swrast_dri.so >/dev/null 2>&1 \
     && ! ldconfig -p 2>/dev/null | grep -q 'libEGL_mesa'; then need+=(libegl-mesa0 libgl1-mesa-dri); fi
  if ! ldconfig -p 2>/dev/null | grep -q 'libGL.so.1'; then need+=(libgl1); fi
  if [ "$1" = "test" ]; then
    command -v xvfb-run >/dev/null 2>&1 || need+=(xvfb xauth)
    command -v ffmpeg >/dev/null 2>&1 || true
  fi
  if [ "${#need[@]}" -gt 0 ]; then _apt_install "${need[@]}"; fi
}

ensure_venv() {
  local extras="${1:-}"
  local stamp=".venv/.installed${extras:+-$extras}"
  local py="${PYTHON:-python3}"
  if [ ! -x .venv/bin/python ]; then
    "$py" -m venv .venv
    .venv/bin/python -m pip install -q --upgrade pip >/dev/null
  fi
  local want
  want="$(sha256sum pyproject.toml | cut -d' ' -f1)"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    if [ -n "$extras" ]; then
      .venv/bin/python -m pip install -q -e ".[$extras]"
    else
      .venv/bin/python -m pip install -q -e .
    fi
    echo "$want" > "$stamp"
  fi
}
