"""How long a player waits for puzzles: `GET /v1/puzzles`, and the page's puzzles mode until its
first puzzle's moves are shown.

    python -m benchmarks.puzzle_load [--requests 50] [--pages 5] [--output FILE]

Starts a real `tan serve` on a free loopback port (a temporary database) and times
`--requests` requests of `GET /v1/puzzles` one after another (the first, read from
the shipped file, apart), then `--pages` fresh phone-sized pages (390×844, their
own storage, Debian's chromium through Playwright) opened at `/#puzzles` until the
first puzzle's move buttons are in the page. Reports the median and the slowest
of each, in milliseconds, with the set's size in bytes.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from service.process import ServiceProcess

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--headless=new", "--disable-gpu"]
PHONE = {"width": 390, "height": 844}


def _summary(times: list[float]) -> dict[str, float]:
    return {"median_ms": round(statistics.median(times), 1), "max_ms": round(max(times), 1), "n": len(times)}


def time_requests(url: str, requests: int) -> dict[str, Any]:
    """The first `GET /v1/puzzles` and the median and slowest of the rest."""
    times: list[float] = []
    size = 0
    with httpx.Client(timeout=30.0) as client:
        for _ in range(requests + 1):
            begun = time.perf_counter()
            answer = client.get(url + "/v1/puzzles")
            answer.raise_for_status()
            times.append((time.perf_counter() - begun) * 1000.0)
            size = len(answer.content)
    return {"first_ms": round(times[0], 1), **_summary(times[1:]), "bytes": size,
            "puzzles": len(answer.json()["puzzles"])}


def time_pages(url: str, pages: int) -> dict[str, Any]:
    """Fresh pages at `/#puzzles` until the first puzzle's moves are shown."""
    from playwright.sync_api import sync_playwright

    times: list[float] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for _ in range(pages):
                context = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
                page = context.new_page()
                begun = time.perf_counter()
                page.goto(url + "/#puzzles")
                page.wait_for_selector("[data-role=puzzle-move]")
                times.append((time.perf_counter() - begun) * 1000.0)
                context.close()
        finally:
            browser.close()
    return _summary(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.puzzle_load", description=__doc__)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--pages", type=int, default=5)
    parser.add_argument("--output", type=Path)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder, ServiceProcess(Path(folder) / "games.db") as server:
        result = {"get": time_requests(server.url, args.requests), "page": time_pages(server.url, args.pages)}
    text = json.dumps(result, indent=1)
    print(text)
    if args.output is not None:
        args.output.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
