"""nginx of ``deploy/nginx/meeple.conf`` on this machine: the site's configuration on free
ports with a self-signed certificate made now, inside a main configuration whose files all
lie in one folder (the ops tests and ``benchmarks/server_load.py --nginx`` run it)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def certificate(d: Path) -> tuple[Path, Path]:
    """A self-signed certificate of localhost, made now."""
    cert, key = d / "cert.pem", d / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return cert, key


def nginx_config(d: Path, https: int, http: int, upstreams: list[int],
                 workers: str = "1", connections: int = 256) -> Path:
    """deploy/nginx/meeple.conf listening on ``https`` and ``http`` of 127.0.0.1, in front of
    the servers on ``upstreams`` (as many as given), with a certificate made now (``d /
    "cert.pem"``); ``workers`` and ``connections`` per worker of the main configuration."""
    cert, key = certificate(d)
    site = (DEPLOY / "nginx" / "meeple.conf").read_text()
    servers = re.findall(r"    server 127\.0\.0\.1:800\d (.*);\n", site)
    assert len(servers) == 2, "the upstream's servers are not where they were"
    for old, new in [
        ("    listen [::]:80;\n", ""), ("    listen [::]:443 ssl http2;\n", ""),
        ("listen 80;", f"listen 127.0.0.1:{http};"),
        ("listen 443 ssl http2;", f"listen 127.0.0.1:{https} ssl http2;"),
        (f"    server 127.0.0.1:8001 {servers[0]};\n    server 127.0.0.1:8002 {servers[1]};\n",
         "".join(f"    server 127.0.0.1:{port} {servers[0]};\n" for port in upstreams)),
        ("/etc/letsencrypt/live/play.example.org/fullchain.pem", str(cert)),
        ("/etc/letsencrypt/live/play.example.org/privkey.pem", str(key)),
        ("play.example.org", "localhost"),
    ]:
        assert old in site, old
        site = site.replace(old, new)
    (d / "meeple.conf").write_text(site)
    user = "user root;\n" if os.geteuid() == 0 else ""
    main = d / "nginx.conf"
    main.write_text(f"""{user}daemon off;
worker_processes {workers};
worker_rlimit_nofile {connections * 2 + 64};
pid {d}/nginx.pid;
error_log {d}/error.log;
events {{ worker_connections {connections}; }}
http {{
    access_log {d}/access.log;
    client_body_temp_path {d}/body;
    proxy_temp_path {d}/proxy;
    fastcgi_temp_path {d}/fastcgi;
    uwsgi_temp_path {d}/uwsgi;
    scgi_temp_path {d}/scgi;
    include {d}/meeple.conf;
}}
""")
    return main
