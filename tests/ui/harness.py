"""The console as a user meets it: ``sharebroker ui`` as a subprocess, Debian's chromium
driven headless by Selenium through chromedriver (no browser is downloaded).

Screenshots go to ``$UI_SCREENSHOTS`` (default ``build/ui-screenshots``); the ones in
docs/ui/ were picked from there.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(os.environ.get("UI_SCREENSHOTS", ROOT / "build" / "ui-screenshots"))
CHROMIUM = os.environ.get("UI_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("UI_CHROMEDRIVER", "/usr/bin/chromedriver")
# The console prints its address once Hypercorn has bound; a start slower than this is broken.
START_TIMEOUT_S = 30.0
# Chromium flags for a headless run as root with nothing fetched from outside.
CHROMIUM_FLAGS = (
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1440,1600",
)


def browser_missing() -> str | None:
    for path in (CHROMIUM, CHROMEDRIVER):
        if not shutil.which(path):
            return f"{path} not found (apt-get install chromium chromium-driver; make test-ui does it)"
    return None


class UiProcess:
    """One ``sharebroker ui`` subprocess on a free port."""

    def __init__(self, bootstrap: str, *extra: str, refresh: float = 1.0) -> None:
        self.cmd = [
            sys.executable,
            "-m",
            "broker",
            "ui",
            "--bootstrap-server",
            bootstrap,
            "--listen",
            "127.0.0.1:0",
            "--refresh",
            str(refresh),
            *extra,
        ]
        fd, path = tempfile.mkstemp(prefix="sharebroker-ui-", suffix=".log")
        os.close(fd)
        self.log_path = Path(path)
        self.proc: subprocess.Popen | None = None
        self.url = ""

    def start(self) -> UiProcess:
        with open(self.log_path, "wb") as out:
            self.proc = subprocess.Popen(self.cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            found = re.search(r"serving (https?://\S+)", self.log())
            if found:
                self.url = found.group(1)
                return self
            if self.proc.poll() is not None:
                raise RuntimeError(f"sharebroker ui exited {self.proc.returncode}:\n{self.log()}")
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"sharebroker ui did not start in {START_TIMEOUT_S} s:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.proc = None
        self.log_path.unlink(missing_ok=True)

    def __enter__(self) -> UiProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def new_browser() -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='sharebroker-ui-chromium-')}")
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def wait_for(what: str, check: Callable[[], Any], timeout: float = 30.0, interval: float = 0.25) -> Any:
    """Poll ``check`` until it returns something true; fail naming ``what`` and the last value."""
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        try:
            last = check()
        except Exception as exc:  # a page mid-swap: try again
            last = exc
        else:
            if last:
                return last
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}; last: {last!r}")


def click_through(driver: Any, element: Any, timeout: float = 30.0) -> None:
    """Click something that submits a form or follows a link, and wait for the next page.

    A click returns once the browser has dispatched it, which may be before the new document
    has replaced the old one; looking up the next page's elements straight after could find
    nothing, or find the old page's.

    The old page is recognised by a mark set on its window object (a new document gets a new
    one), not by an element handle: asking chromedriver about an element of a document being
    swapped out can fail with a generic error ("Node with given id does not belong to the
    document") instead of the stale-element one.
    """
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support.ui import WebDriverWait

    driver.execute_script("window.__beforeClickThrough = true")
    element.click()

    def next_page_loaded(d: Any) -> bool:
        try:
            return bool(
                d.execute_script(
                    "return window.__beforeClickThrough === undefined && document.readyState === 'complete'"
                )
            )
        except WebDriverException:  # the document is being replaced: ask again
            return False

    WebDriverWait(driver, timeout).until(next_page_loaded)


def screenshot(driver: Any, name: str) -> Path:
    """A full-page PNG (the window stretched to the page's height) under SCREENSHOTS."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    height = driver.execute_script("return Math.max(document.body.scrollHeight, 900)")
    driver.set_window_size(1440, min(int(height) + 40, 4000))
    path = SCREENSHOTS / f"{name}.png"
    driver.save_screenshot(str(path))
    driver.set_window_size(1440, 1600)
    return path


def texts(driver: Any, css: str) -> Sequence[str]:
    from selenium.webdriver.common.by import By

    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, css)]
