"""The wheel carries formats/: an installed copy (a cluster's packed environment) needs its tables."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_wheel_holds_every_formats_file(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("pcfserver-*.whl")
    inside = set(zipfile.ZipFile(wheel).namelist())
    shipped = {
        "pcfserver/formats/" + path.relative_to(ROOT / "formats").as_posix()
        for path in (ROOT / "formats").rglob("*")
        if path.is_file()
    }
    assert shipped and shipped <= inside, sorted(shipped - inside)[:5]
    assert "pcfserver/pipeline/README.md" in inside


def test_the_wheel_holds_the_web_console(tmp_path: Path) -> None:
    """An installed server serves its console: every template and static asset (vendored libraries included) is inside."""
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("pcfserver-*.whl")
    inside = set(zipfile.ZipFile(wheel).namelist())
    console = ROOT / "pcfserver" / "console"
    shipped = {
        "pcfserver/console/" + path.relative_to(console).as_posix()
        for folder in ("templates", "static")
        for path in (console / folder).rglob("*")
        if path.is_file()
    }
    assert any(name.endswith("htmx.min.js") for name in shipped)
    assert shipped <= inside, sorted(shipped - inside)[:5]
