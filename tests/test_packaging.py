"""The wheel carries formats/: an installed copy (a cluster's packed environment) needs its tables."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[set[str], str]:
    """The file names inside a wheel built once from this checkout, and what the build printed."""
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--verbose", "--no-deps", "--no-build-isolation", "-w", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        text=True,
    )
    (wheel,) = out.glob("pcfserver-*.whl")
    return set(zipfile.ZipFile(wheel).namelist()), built.stdout + built.stderr


@pytest.fixture(scope="module")
def wheel_names(wheel_build: tuple[set[str], str]) -> set[str]:
    return wheel_build[0]


def test_the_build_leaves_no_shipped_folder_out_of_packages(wheel_build: tuple[set[str], str]) -> None:
    """setuptools warns, in a block a new user sees while tools/run.sh sets up, of every folder Python could import
    that `packages` leaves out, and says a later release would leave its files out of the wheel."""
    printed = wheel_build[1]
    assert "bdist_wheel" in printed or "Building wheel" in printed  # (the build's own output is there to read)
    assert "absent from the `packages` configuration" not in printed, printed[printed.find("absent from") - 300 :][:600]


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
