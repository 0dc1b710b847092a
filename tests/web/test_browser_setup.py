"""Without Chromium the browser tests say how to install it and skip, except in CI, where they fail."""
from __future__ import annotations

import pytest

from tests.support import browser


def test_without_chromium_the_browser_tests_skip_saying_how_to_install_it(monkeypatch):
    monkeypatch.setattr(browser.shutil, "which", lambda name: None)
    monkeypatch.delenv("RAILYARD_CHROMIUM", raising=False)
    monkeypatch.delenv("RAILYARD_CHROMEDRIVER", raising=False)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install chromium chromium-driver"):
        browser.require()
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception, match="CI .* must run the browser tests"):
        browser.require()


def test_chromium_is_told_to_make_no_background_connections():
    for flag in ("--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"):
        assert flag in browser.FLAGS
