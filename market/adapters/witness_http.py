"""The witness's HTTP front (the standard library's ThreadingHTTPServer): `POST
/add-checkpoint` and the monitoring `GET /<origin hash>/checkpoint` of C2SP tlog-witness,
each handed to a function that answers (status, content type, body). What the witness
decides lives in `services.witness_server`; this is only the I/O."""

from __future__ import annotations

import re
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

Answer = tuple[int, str, bytes]
MAX_BODY = 64 * 1024  # 63 proof lines and a checkpoint with a few signatures fit easily
MONITOR = re.compile(r"^/([0-9a-f]{64})/checkpoint$")


def make_server(
    host: str,
    port: int,
    add_checkpoint: Callable[[bytes], Answer],
    monitor: Callable[[str], Answer],
) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as the spec asks clients and witnesses

        def _answer(self, answer: Answer) -> None:
            status, content_type, body = answer
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _text(self, status: int, message: str) -> None:
            self._answer((status, "text/plain; charset=utf-8", (message + "\n").encode()))

        def do_POST(self) -> None:
            if self.path != "/add-checkpoint":
                self._text(404, "not found")
                return
            try:
                length = int(self.headers.get("Content-Length", ""))
            except ValueError:
                self._text(411, "a Content-Length is required")
                return
            if not 0 <= length <= MAX_BODY:
                self.close_connection = True
                self._text(413, f"the body is over {MAX_BODY} bytes")
                return
            self._answer(add_checkpoint(self.rfile.read(length)))

        def do_GET(self) -> None:
            found = MONITOR.match(self.path)
            if found is None:
                self._text(404, "not found")
                return
            self._answer(monitor(found.group(1)))

    return ThreadingHTTPServer((host, port), Handler)
