"""A real headless Chromium for the web table's end-to-end tests, driven with Selenium through
Debian's chromedriver (no browser or driver is downloaded at run time).

Without Chromium or its driver the browser tests are skipped with a message saying how to
install them, except in CI (the CI environment variable, which .ci/run sets), where that is a
failure: CI must run them. `.ci/run` installs the browser when it is missing.

The server under test runs on the test's event loop, and Selenium's calls block, so every call
goes through a thread (`Browser` below), leaving the loop free to answer the browser.
"""
from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

INSTALL_HINT = ("Chromium and its driver were not found: install them with "
                "`apt-get install chromium chromium-driver` (Debian/Ubuntu), or name them in "
                "RAILYARD_CHROMIUM and RAILYARD_CHROMEDRIVER")
# The closed network refuses background connections: Chromium is told to make none.
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--disable-extensions",
         "--disable-default-apps", "--no-default-browser-check", "--metrics-recording-only",
         "--window-size=1280,1000")


def programs() -> tuple[str, str] | None:
    browser = os.environ.get("RAILYARD_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    driver = os.environ.get("RAILYARD_CHROMEDRIVER") or shutil.which("chromedriver")
    if not browser or not driver:
        return None
    return browser, driver


def require() -> tuple[str, str]:
    found = programs()
    if found is not None:
        try:
            import selenium  # noqa: F401
        except ImportError:
            found = None
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(f"{INSTALL_HINT}. CI (the CI environment variable is set) must run the browser tests.",
                        pytrace=False)
        pytest.skip(f"browser tests skipped: {INSTALL_HINT}")
    return found


class Browser:
    """One headless Chromium with a fresh profile; every call runs in a thread."""

    def __init__(self, browser: str, driver: str, *, width: int = 1280, height: int = 1000, phone: bool = False) -> None:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self._profile = tempfile.mkdtemp(prefix="railyard-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = browser
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={self._profile}")
        options.add_argument(f"--window-size={width},{height}")
        if phone:  # a phone's screen: 390 CSS px wide, three device pixels to one
            options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 390, "height": 844,
                                                                                  "pixelRatio": 3.0}})
        self.driver = webdriver.Chrome(service=Service(executable_path=driver), options=options)
        self.driver.set_page_load_timeout(30)

    @classmethod
    async def launch(cls, **kw: Any) -> "Browser":
        browser, driver = require()
        return await asyncio.to_thread(cls, browser, driver, **kw)

    async def call(self, fn: Any, *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args)

    async def open(self, url: str) -> None:
        await self.call(self.driver.get, url)

    async def js(self, script: str, *args: Any) -> Any:
        return await self.call(self.driver.execute_script, script, *args)

    async def wait(self, script: str, *args: Any, timeout: float = 15.0, what: str = "") -> Any:
        """Poll `script` (a JS expression's body with `return`) until it gives something truthy."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = await self.js(script, *args)
            if value:
                return value
            if loop.time() > deadline:
                raise AssertionError(f"the page never showed {what or script}; its text: "
                                     f"{await self.js('return document.body.innerText')!r}")
            await asyncio.sleep(0.05)

    async def click(self, css: str) -> None:
        from selenium.webdriver.common.by import By

        def click() -> None:
            self.driver.find_element(By.CSS_SELECTOR, css).click()

        await self.call(click)

    async def text(self, css: str = "body") -> str:
        return await self.js("const e = document.querySelector(arguments[0]); return e ? e.innerText : ''", css)

    async def screenshot(self, path: Path) -> None:
        await self.call(self.driver.save_screenshot, str(path))

    async def close(self) -> None:
        try:
            await self.call(self.driver.quit)
        finally:
            shutil.rmtree(self._profile, ignore_errors=True)


@pytest.fixture
async def browser():
    """A headless Chromium for one test (import this fixture into the test module)."""
    b = await Browser.launch()
    try:
        yield b
    finally:
        await b.close()
