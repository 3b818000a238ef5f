"""The wheel carries formats/: an installed copy (a cluster's packed environment) needs its tables."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    """The file names inside a wheel built once from this checkout."""
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", str(out), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = out.glob("pcfserver-*.whl")
    return set(zipfile.ZipFile(wheel).namelist())


def test_the_wheel_holds_every_formats_file(wheel_names: set[str]) -> None:
    shipped = {
        "pcfserver/formats/" + path.relative_to(ROOT / "formats").as_posix()
        for path in (ROOT / "formats").rglob("*")
        if path.is_file()
    }
    assert shipped and shipped <= wheel_names, sorted(shipped - wheel_names)[:5]
    assert "pcfserver/pipeline/README.md" in wheel_names


def test_the_wheel_holds_the_web_console(wheel_names: set[str]) -> None:
    """An installed server serves its console: every template and static asset (vendored libraries included) is inside."""
    console = ROOT / "pcfserver" / "console"
    shipped = {
        "pcfserver/console/" + path.relative_to(console).as_posix()
        for folder in ("templates", "static")
        for path in (console / folder).rglob("*")
        if path.is_file()
    }
    assert any(name.endswith("htmx.min.js") for name in shipped)
    assert shipped <= wheel_names, sorted(shipped - wheel_names)[:5]
