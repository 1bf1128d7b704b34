"""The HTTP/1.1 protocol `tan serve` runs: uvicorn's h11 protocol with a deadline for headers.

uvicorn closes a connection idle between requests after its keep-alive timeout,
but waits for ever on one that has started a request and never finishes its
headers, so a few hundred slow clients could hold every connection (and file
descriptor). Here every connection must send a request's whole headers within
`header_timeout_s` of opening, or of the last answer on it; past that it is
answered 408 `request_timeout` and closed. (A body that comes too slowly is cut
off by `service.middleware.BodyLimitMiddleware`.)
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from service.errors import ServiceCode
from service.middleware import security_headers

__all__ = ["timed_protocol"]


def _timeout_answer(detail: str) -> bytes:
    """The 408 in the error format, with every security header an answer of the app carries (its
    path is unknown: the headers never came)."""
    body = json.dumps({"detail": detail, "code": ServiceCode.REQUEST_TIMEOUT.value}).encode()
    headers = {
        "content-type": "application/json",
        "content-length": str(len(body)),
        "connection": "close",
        **security_headers(""),
    }
    lines = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    return f"HTTP/1.1 408 Request Timeout\r\n{lines}\r\n".encode() + body


def timed_protocol(header_timeout_s: float) -> type[H11Protocol]:
    """uvicorn's h11 protocol, answering 408 and closing a connection whose request headers are
    not all in within `header_timeout_s` seconds."""

    class TimedH11Protocol(H11Protocol):
        _header_timer: asyncio.TimerHandle | None = None

        def _arm(self) -> None:
            self._disarm()
            self._header_timer = self.loop.call_later(header_timeout_s, self._headers_too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _headers_too_slow(self) -> None:
            self._header_timer = None
            in_progress = self.cycle is not None and not self.cycle.response_complete
            if in_progress or self.transport.is_closing():
                return  # its headers came: the body has its own deadline
            self.transport.write(
                _timeout_answer(f"the request headers did not arrive within {header_timeout_s:g} s")
            )
            self.transport.close()

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def handle_events(self) -> None:
            super().handle_events()
            if self.cycle is not None and not self.cycle.response_complete:
                self._disarm()  # a request's headers are in

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()  # the next request's headers have the same deadline

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return TimedH11Protocol
