"""Real servers for the operations tests, each a test-owned process on loopback, bounded
and stopped by the test: gunicorn serving market.wsgi:app with two workers, and Debian's
nginx as a TLS front with its own prefix, configuration and pid file in a temp dir."""

from __future__ import annotations

import datetime
import ipaddress
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from market.adapters.signing import create_key_file
from tests.conftest import ERA_TODAY

ROOT = Path(__file__).resolve().parents[1]
IN_CI = os.environ.get("CI", "").lower() == "true"
START_TIMEOUT_S = 60


def need(program: str, package: str) -> str:
    """The program's path; missing is a failure under CI (scripts/test installs it)."""
    found = shutil.which(program) or shutil.which(program, path="/usr/sbin:/usr/bin")
    if found is None:
        reason = f"{program} is not installed (apt-get install {package})"
        if IN_CI:
            pytest.fail(reason + "; CI requires it", pytrace=False)
        pytest.skip(reason)
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_up(url: str, proc: subprocess.Popen[bytes], log: Path, **kw: object) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"{proc.args} exited: {log.read_text()[-3000:]}")
        try:
            requests.get(url, timeout=5, allow_redirects=False, **kw)  # type: ignore[arg-type]
            return
        except (requests.ConnectionError, requests.Timeout):  # still starting
            time.sleep(0.2)
    raise AssertionError(f"{url} did not answer within {START_TIMEOUT_S} s")


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


class Served:
    def __init__(self, port: int, log: Path, multiproc_dir: Path) -> None:
        self.url = f"http://127.0.0.1:{port}"
        self.port, self.log, self.multiproc_dir = port, log, multiproc_dir


@contextmanager
def gunicorn(database_url: str, tmp: Path, **settings: str) -> Iterator[Served]:
    """market.wsgi:app under gunicorn, two workers, LOG_FORMAT=json, the counters in
    prometheus-client's multiprocess directory (as scripts/run serves it)."""
    port, log, prom = free_port(), tmp / "gunicorn.log", tmp / "prometheus"
    prom.mkdir()
    key = tmp / "signing_key.pem"
    create_key_file(key)
    env = dict(
        os.environ,
        DATABASE_URL=database_url,
        SECRET_KEY="served-secret",
        MARKET_TODAY=ERA_TODAY,
        LOG_FORMAT="json",
        PROMETHEUS_MULTIPROC_DIR=str(prom),
        SIGNING_KEY_FILE=str(key),
        CHECKPOINT_DIR=str(tmp / "checkpoints"),
        PYTHONPATH=str(ROOT),
        **settings,
    )
    args = [sys.executable, "-m", "gunicorn", "--workers", "2", "--bind", f"127.0.0.1:{port}"]
    # gunicorn's own lines (booting, workers) are plain text: warnings only, as scripts/run.
    args += ["--log-level", "warning", "market.wsgi:app"]
    with log.open("wb") as out:
        proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_until_up(f"http://127.0.0.1:{port}/healthz", proc, log)
        yield Served(port, log, prom)
    finally:
        stop(proc)


def self_signed(tmp: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and localhost, made here (cryptography)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = tmp / "cert.pem", tmp / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


NGINX_CONF = (ROOT / "tests" / "fixtures" / "nginx_tls_front.conf").read_text()


class Front:
    def __init__(self, http_port: int, https_port: int, cert: Path) -> None:
        self.http = f"http://127.0.0.1:{http_port}"
        self.https = f"https://127.0.0.1:{https_port}"
        self.cert = str(cert)


@contextmanager
def nginx_front(upstream_port: int, tmp: Path) -> Iterator[Front]:
    """nginx in front of the app on loopback: HTTP redirects, HTTPS proxies to the app
    from 127.0.0.2 (so the app can tell the proxy's address from the client's)."""
    binary = need("nginx", "nginx")
    prefix = tmp / "nginx"
    prefix.mkdir()
    cert, _key = self_signed(prefix)
    http_port, https_port = free_port(), free_port()
    conf = prefix / "nginx.conf"
    conf.write_text(
        NGINX_CONF.replace("{prefix}", str(prefix))
        .replace("{user}", "user root;" if os.geteuid() == 0 else "")
        .replace("{http_port}", str(http_port))
        .replace("{https_port}", str(https_port))
        .replace("{upstream_port}", str(upstream_port))
    )
    log = prefix / "error.log"
    args = [binary, "-p", str(prefix), "-c", str(conf), "-e", str(log)]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        wait_until_up(f"https://127.0.0.1:{https_port}/healthz", proc, log, verify=str(cert))
        yield Front(http_port, https_port, cert)
    finally:
        stop(proc)
