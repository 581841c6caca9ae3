"""The package as a user installs it: a wheel built from the project's files, installed into a fresh
virtualenv outside the checkout, plays a demo game with the data it carries (``admiralty_data``).

Offline: the wheel is built with this environment's setuptools (no build isolation), installed with
``--no-deps --no-index``, and the fresh environment reaches the dependencies already installed here
through a ``.pth`` file (a path file adds directories, it runs nothing: this checkout's editable
install stays out)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path

import setuptools

ROOT = Path(__file__).resolve().parents[1]
# what a wheel is built from (the rest of the checkout must not matter)
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "bot", "cogs", "rendering", "data")


def run(args: list[str | Path], cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "PIP_"))}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, f"{args[:4]} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def build_wheel(tmp: Path) -> tuple[Path, str]:
    """The wheel, and what the build printed."""
    src = tmp / "src"
    src.mkdir()
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        elif path.exists():
            shutil.copy2(path, src / name)
    out = tmp / "dist"
    built = run(
        [
            sys.executable,
            "-c",
            "import sys; from setuptools import build_meta; build_meta.build_wheel(sys.argv[1])",
            out,
        ],
        cwd=src,
    )
    (wheel,) = out.glob("admiralty-*.whl")
    return wheel, built.stdout + built.stderr


def fresh_venv(tmp: Path) -> Path:
    """A virtualenv without pip whose interpreter also sees this environment's installed packages."""
    venv = tmp / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=tmp)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    purelib = run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=tmp)
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (Path(purelib.stdout.strip()) / "_admiralty_test_deps.pth").write_text("\n".join(sorted(ours)) + "\n")
    return python


def test_the_packages_listed_in_pyproject_are_those_of_the_tree():
    """Every importable folder, data-only ones (namespace packages such as bot/migrations/sqlite, data/<game>)
    included: setuptools warns about each one left out of the list, and `pip install` prints it."""
    listed = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]["packages"]
    skip = ["*__pycache__*"]
    found = setuptools.find_namespace_packages(
        str(ROOT), include=["bot*", "cogs*", "rendering*"], exclude=skip
    )
    data = [
        f"admiralty_data.{p}" for p in setuptools.find_namespace_packages(str(ROOT / "data"), exclude=skip)
    ]
    assert sorted(listed) == sorted([*found, "admiralty_data", *data])


def test_a_wheel_installed_outside_the_checkout_plays_a_demo_game(tmp_path):
    wheel, printed = build_wheel(tmp_path)
    # a quiet build: no "Package 'bot.migrations.sqlite' is absent from the `packages` configuration"
    assert "absent from the `packages` configuration" not in printed, printed[-3000:]
    data = {
        f"admiralty_data/{p.relative_to(ROOT / 'data').as_posix()}"
        for p in (ROOT / "data").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    migrations = {p.relative_to(ROOT).as_posix() for p in (ROOT / "bot" / "migrations").rglob("*.sql")}
    assert migrations, "no migrations found"
    with zipfile.ZipFile(wheel) as whl:
        assert data <= set(whl.namelist()), f"data files the wheel lacks: {data - set(whl.namelist())}"
        lacking = migrations - set(whl.namelist())
        assert not lacking, f"migrations the wheel lacks: {lacking}"
    python = fresh_venv(tmp_path)
    run(
        [sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", "--no-index", wheel],
        tmp_path,
    )
    venv = python.parent.parent.resolve()
    away = tmp_path / "elsewhere"  # not the checkout, not the source the wheel was built from
    away.mkdir()

    where = run(
        [python, "-c", "import bot, admiralty_data; print(bot.__file__); print(admiralty_data.__file__)"],
        away,
    )
    for line in where.stdout.split():
        assert Path(line).resolve().is_relative_to(venv), f"{line} is not the installed wheel"

    # every game starts from the installed data and draws its first image
    every_game = (
        "import rendering\nfrom bot.games import registry\n"
        "for spec in registry.all():\n"
        "    game = spec.new(players=spec.min_players, options={}, seed=7)\n"
        "    if rendering.has_renderer(spec.key):\n"
        "        assert rendering.render(spec.key, game.view(None), ['A', 'B', 'C', 'D'])[:4] == b'\\x89PNG'\n"
        "    print(spec.key)\n"
    )
    games = run([python, "-c", every_game], away).stdout.split()
    assert {"enemy-lines", "enemy-in-sight", "warships", "everrain"} <= set(games)

    # the catalogues travel with it, read from the installed package (bot/i18n.py)
    polish = (
        "from bot.i18n import languages, translate\nprint(len(languages()), translate('pl', 'Warships'))\n"
    )
    assert run([python, "-c", polish], away).stdout.strip() == "7 Manewry Morskie"
    # the licence travels with the package
    licence = (
        "from importlib.metadata import distribution\n"
        "d = distribution('admiralty')\n"
        "print(d.metadata['License-Expression'])\n"
        "print(any(f.name == 'LICENSE' and 'MIT License' in f.read_text() for f in d.files))\n"
    )
    assert run([python, "-c", licence], away).stdout.split() == ["MIT", "True"]

    demo = run([python, "-m", "bot", "demo", "enemy-lines", "--seed", "3", "--out", away / "demo"], away)
    assert "finished" in demo.stdout
    assert (away / "demo" / "result.json").is_file() and (away / "demo" / "move-0000.png").is_file()
