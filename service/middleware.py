"""Middleware of every answer: the request body cap and the security headers.

- `BodyLimitMiddleware`: a body larger than `max_body_bytes` is refused with 413
  before any handler sees it, whether or not the client declared its length,
  and one that does not arrive whole within `timeout_s` with 408 (the
  connection is then closed).
- `SecurityHeadersMiddleware`: the headers every answer carries (docs/api.md §3,
  "Headers"): no content sniffing, no framing, no caching of the API's answers
  (they hold hands and tokens), and a content security policy — the web page's
  own, which lets it load only its script, style and API from this server.
"""

from __future__ import annotations

import asyncio
import json

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.errors import ServiceCode

__all__ = ["PAGE_POLICY", "BodyLimitMiddleware", "SecurityHeadersMiddleware", "security_headers"]

PAGE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""The web page's content security policy: its script, style and API calls from this server only,
no inline script, and no framing by any other page."""

_API_POLICY = "default-src 'none'; frame-ancestors 'none'"
_DOCS_POLICY = "frame-ancestors 'none'"  # Swagger UI's page runs an inline script of its own
_DOCS_PATHS = ("/docs", "/static-offline-docs")


def security_headers(path: str) -> dict[str, str]:
    """The security headers of an answer to `path` (docs/api.md §3, "Headers"), declared once for
    the app's answers and for those the HTTP server writes itself (a 408 before the headers are
    in, whose path is unknown: `""`).

    `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer`
    everywhere; `Content-Security-Policy`: `PAGE_POLICY` for the page and its files,
    `frame-ancestors 'none'` alone for `/docs`, `default-src 'none'` for the rest;
    `Cache-Control: no-store` on every `/v1` answer.
    """
    if path == "/" or path.startswith("/static/"):
        policy = PAGE_POLICY
    elif path.startswith(_DOCS_PATHS):
        policy = _DOCS_POLICY
    else:
        policy = _API_POLICY
    headers = {
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "no-referrer",
        "Content-Security-Policy": policy,
    }
    if path.startswith("/v1/") or path == "/v1":
        headers["Cache-Control"] = "no-store"
    return headers


class SecurityHeadersMiddleware:
    """Add `security_headers` to every HTTP answer, errors included (a policy an answer sets
    itself is kept)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        added = security_headers(scope.get("path", ""))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in added.items():
                    if name == "Content-Security-Policy":
                        headers.setdefault(name, value)
                    else:
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)


class BodyLimitMiddleware:
    """Read the body up to the cap within the deadline, answer 413 beyond the cap and 408 past the
    deadline, else hand it on unchanged."""

    def __init__(self, app: ASGIApp, max_bytes: int, timeout_s: float = 30.0) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.timeout_s = timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(send)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        deadline = asyncio.get_running_loop().time() + self.timeout_s
        while more:
            try:
                message = await asyncio.wait_for(receive(), deadline - asyncio.get_running_loop().time())
            except TimeoutError:
                await self._too_slow(send)
                return
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(send)
                return
            chunks.append(chunk)
            more = bool(message.get("more_body", False))
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        detail = f"the request body is larger than {self.max_bytes} bytes"
        await _answer(send, 413, detail, ServiceCode.TOO_LARGE)

    async def _too_slow(self, send: Send) -> None:
        detail = f"the request body did not arrive within {self.timeout_s:g} s"
        await _answer(send, 408, detail, ServiceCode.REQUEST_TIMEOUT, close=True)


async def _answer(send: Send, status: int, detail: str, code: ServiceCode, close: bool = False) -> None:
    """An error answer of docs/api.md §3 straight from a middleware; `close`: and the connection."""
    payload = json.dumps({"detail": detail, "code": code.value}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})
