"""What an install is made of: every package of the layering contract ships, in the wheel and in the image."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from setuptools import find_packages

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
LAYERED = PYPROJECT["tool"]["importlinter"]["root_packages"]


def test_the_wheel_holds_every_package_of_the_layering_contract():
    include = PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"]
    shipped = set(find_packages(str(ROOT), include=include))
    assert set(LAYERED) <= shipped, sorted(set(LAYERED) - shipped)
    assert not {p for p in shipped if p.split(".")[0] == "tests"}  # the tests are not the product


def test_the_wheel_holds_the_web_page():
    patterns = PYPROJECT["tool"]["setuptools"]["package-data"]["server"]
    page = {p.relative_to(ROOT / "server") for p in (ROOT / "server" / "static").iterdir()}
    assert page >= {Path("static/index.html"), Path("static/app.js"), Path("static/style.css")}
    assert all(any(f.match(pattern) for pattern in patterns) for f in page)


def test_the_image_copies_every_package_and_the_routing_thresholds():
    copied = set(re.findall(r"^COPY (\S+) \./", (ROOT / "Dockerfile").read_text(), re.M))
    assert set(LAYERED) | {"config", "corpus"} <= copied, sorted(set(LAYERED) | {"config", "corpus"} - copied)
