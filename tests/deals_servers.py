"""Real local servers for the delivery tests: an SMTP server (aiosmtpd) that keeps what it
receives, and an HTTP webhook receiver that verifies Standard Webhooks signatures with the
`standardwebhooks` package, and fails or hangs on purpose when told to."""

from __future__ import annotations

import email
import json
import socket
import threading
import time
from email import policy
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from aiosmtpd.controller import Controller
from standardwebhooks import Webhook


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class _Keep:
    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        msg = email.message_from_bytes(envelope.content, policy=policy.default)
        msg["X-Envelope-To"] = ",".join(envelope.rcpt_tos)
        self.messages.append(msg)
        return "250 OK"


class SmtpServer:
    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.keep = _Keep()
        self.controller = Controller(self.keep, hostname="127.0.0.1", port=self.port)

    @property
    def messages(self) -> list[EmailMessage]:
        return self.keep.messages

    def __enter__(self) -> SmtpServer:
        self.controller.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.controller.stop()


class Backlogged(ThreadingHTTPServer):
    request_queue_size = 128  # the default 5 drops concurrent connects (1 s SYN retries)


class Receiver:
    """Verifies every request's signature; `fail_next` answers 500 that many times,
    `hang_s` holds requests that long before answering."""

    def __init__(self) -> None:
        self.secret: str | None = None
        self.received: list[dict[str, Any]] = []
        self.rejected = 0
        self.fail_next = 0
        self.fail_status = 500  # what a failing answer is (410: Gone)
        self.hang_s = 0.0
        self.hang_types: set[str] = set()
        self.hold_after_record = 0  # record, then hold that many requests 3 s (no answer yet)
        self.held_ids: list[str] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["content-length"]))
                headers = {k.lower(): v for k, v in self.headers.items()}
                payload = json.loads(body)
                if payload["type"] in receiver.hang_types:
                    time.sleep(receiver.hang_s)
                try:
                    assert receiver.secret is not None
                    Webhook(receiver.secret).verify(body.decode(), headers)
                except Exception:
                    with receiver.lock:
                        receiver.rejected += 1
                    self.send_response(401)
                    self.end_headers()
                    return
                with receiver.lock:
                    failing = receiver.fail_next > 0
                    receiver.fail_next -= 1 if failing else 0
                    if not failing:
                        receiver.received.append({"headers": headers, "body": payload})
                    holding = not failing and receiver.hold_after_record > 0
                    receiver.hold_after_record -= 1 if holding else 0
                    if holding:
                        receiver.held_ids.append(headers["webhook-id"])
                if holding:
                    time.sleep(3)
                self.send_response(receiver.fail_status if failing else 204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                return None

        self.server = Backlogged(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def __enter__(self) -> Receiver:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
