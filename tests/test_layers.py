"""Which package may import which: the product (bot, games, render) never imports the tools
(the loopback Discord, the benches) nor the command line above them, and the bot that
`railyard run` starts loads none of the tools."""
import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("bot", "games", "render")


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def test_the_product_never_imports_the_tools_or_the_command_line():
    offenders = sorted(
        f"{path.relative_to(ROOT)} imports {name}"
        for package in PRODUCT
        for path in (ROOT / package).rglob("*.py")
        for name in _imports(path)
        if name.split(".")[0] in ("tools", "railyard")
    )
    assert offenders == []


def test_the_running_bot_loads_no_tool():
    # What `railyard run` imports before it logs in: the command line and the Discord launcher.
    probe = ("import sys, railyard.cli, bot.discord.launcher, bot.discord.bot; "
             "print(sorted(m for m in sys.modules if m == 'tools' or m.startswith('tools.')))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    # ...and the tools are still there for the bench and the tests.
    from tools.bench import main_bench
    from tools.loopback import FakeDiscord

    assert callable(main_bench) and FakeDiscord.__name__ == "FakeDiscord"


def test_only_the_discord_adapter_imports_discord():
    # the web table (bot/web) is an adapter beside bot/discord: sessions, games and renderers,
    # never discord; nor do the sessions, the store, the games or the renderers import it
    offenders = sorted(
        f"{path.relative_to(ROOT)} imports {name}"
        for package in PRODUCT
        for path in (ROOT / package).rglob("*.py")
        if not path.relative_to(ROOT).as_posix().startswith("bot/discord/")
        for name in _imports(path)
        if name.split(".")[0] == "discord"
    )
    assert offenders == []
    assert (ROOT / "bot" / "web" / "server.py").is_file()
