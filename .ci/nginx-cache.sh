# Sourced by .ci/remote-cache and Scripts/benchmark-scale: a Bazel HTTP remote cache on this
# machine, served by Debian's nginx with its built-in WebDAV module, as docs/ci-and-teams.md
# shows a team to run one. Anonymous GET and HEAD; PUT only with HTTP Basic auth.
#
#   nginx_cache_install        installs Debian's nginx (and protoc) when missing
#   nginx_cache_start          starts nginx on a free port of 127.0.0.1, from a folder of its own; sets
#                              NGINX_CACHE_URL        http://127.0.0.1:PORT/cache
#                              NGINX_CACHE_ROOT       the folder holding ac/ and cas/
#                              NGINX_CACHE_USER, NGINX_CACHE_PASSWORD   the one account that may write
#                              NGINX_CACHE_ACCESS_LOG nginx's access log
#   nginx_cache_stop           stops it and returns once it has exited (nothing when not running)
#   nginx_cache_resume         starts it again on the same port, with the same root and account
#   nginx_cache_finish         stops it and removes its folder (for a trap on EXIT)
#
# nginx is not a system service here: it runs from a temporary folder (`-p`) holding its config,
# pid file, logs, temp folders and root. Started as root, its workers run as `nobody`, so that
# folder is made writable for them; it is made by mktemp in the system's temp folder, whose
# parents they can pass (a caller's own mktemp folder is private). nginx binds its port before
# the starting command returns, so a started cache takes requests.

nginx_cache_install() {
  local missing=""
  command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing="nginx"
  command -v protoc >/dev/null || missing="$missing protobuf-compiler"
  if [ -n "$missing" ]; then
    local as_root=""
    [ "$(id -u)" -eq 0 ] || as_root="sudo"
    $as_root apt-get update -q
    DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -q $missing
  fi
}

_nginx_cache_binary() { command -v nginx || echo /usr/sbin/nginx; }

nginx_cache_start() {
  _nginx_cache_dir=$(mktemp -d -t stepwise-nginx.XXXXXX)
  local dir=$_nginx_cache_dir
  mkdir -p "$dir/root/cache" "$dir/tmp"
  chmod 0755 "$dir"
  chmod -R a+rwX "$dir/root" "$dir/tmp"
  NGINX_CACHE_ROOT="$dir/root/cache"
  NGINX_CACHE_ACCESS_LOG="$dir/access.log"
  NGINX_CACHE_USER=stepwise-ci
  NGINX_CACHE_PASSWORD=$(openssl rand -hex 16)
  printf '%s:%s\n' "$NGINX_CACHE_USER" "$(openssl passwd -apr1 "$NGINX_CACHE_PASSWORD")" >"$dir/htpasswd"
  chmod 0644 "$dir/htpasswd"
  local attempt
  for attempt in 1 2 3 4 5; do
    # A port the kernel calls free now; another process may take it before nginx binds it,
    # in which case nginx fails to start and the next attempt takes another.
    _nginx_cache_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    _nginx_cache_config "$dir" "$_nginx_cache_port" >"$dir/nginx.conf"
    if nginx_cache_resume 2>>"$dir/start.log"; then
      NGINX_CACHE_URL="http://127.0.0.1:$_nginx_cache_port/cache"
      return 0
    fi
  done
  echo "nginx did not start:" >&2
  cat "$dir/start.log" "$dir/error.log" >&2 2>/dev/null || true
  return 1
}

nginx_cache_resume() {
  "$(_nginx_cache_binary)" -p "$_nginx_cache_dir" -c "$_nginx_cache_dir/nginx.conf" -e "$_nginx_cache_dir/error.log"
}

nginx_cache_stop() {
  [ -n "${_nginx_cache_dir:-}" ] && [ -s "$_nginx_cache_dir/nginx.pid" ] || return 0
  local pid
  pid=$(cat "$_nginx_cache_dir/nginx.pid")
  kill -TERM "$pid" 2>/dev/null || return 0
  tail --pid="$pid" -f /dev/null # returns when the master has exited and its port is closed
}

nginx_cache_finish() {
  nginx_cache_stop
  [ -z "${_nginx_cache_dir:-}" ] || rm -rf "$_nginx_cache_dir"
}

_nginx_cache_config() {
  local dir=$1 port=$2
  cat <<EOF
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log;
events { worker_connections 64; }
http {
    access_log $dir/access.log;
    client_body_temp_path $dir/tmp/body;
    proxy_temp_path $dir/tmp/proxy;
    fastcgi_temp_path $dir/tmp/fastcgi;
    uwsgi_temp_path $dir/tmp/uwsgi;
    scgi_temp_path $dir/tmp/scgi;
    default_type application/octet-stream;
    client_max_body_size 0;
    server {
        listen 127.0.0.1:$port;
        root $dir/root;
        location /cache/ {
            dav_methods PUT;
            create_full_put_path on;
            dav_access user:rw group:r all:r;
            limit_except GET HEAD {
                auth_basic "Stepwise cache";
                auth_basic_user_file $dir/htpasswd;
            }
        }
    }
}
EOF
}
