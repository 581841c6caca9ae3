"""The deployment files, checked without Docker: compose.yaml, Dockerfile, .dockerignore, the settings
they use and their documentation."""

from __future__ import annotations

import fnmatch
import json
import re
import tomllib
from pathlib import Path

import pytest

from bot.settings import Settings, parse_shards, read_env_file

yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE_INSTRUCTIONS = {
    "FROM",
    "RUN",
    "CMD",
    "LABEL",
    "EXPOSE",
    "ENV",
    "ADD",
    "COPY",
    "ENTRYPOINT",
    "VOLUME",
    "USER",
    "WORKDIR",
    "ARG",
    "ONBUILD",
    "STOPSIGNAL",
    "HEALTHCHECK",
    "SHELL",
}


def compose() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))


def interpolate(value: str, env: dict[str, str]) -> str:
    """Compose's ${VAR}, ${VAR:-default} and ${VAR:?error}."""

    def sub(m: re.Match) -> str:
        name, op, arg = m["name"], m["op"], m["arg"] or ""
        if op == ":?" and not env.get(name):
            raise KeyError(f"{name}: {arg}")
        return env.get(name) or (arg if op == ":-" else "")

    return re.sub(r"\$\{(?P<name>[A-Z_][A-Z0-9_]*)(?:(?P<op>:[-?])(?P<arg>[^}]*))?\}", sub, value)


def bot_services(doc: dict) -> dict[str, dict]:
    return {name: svc for name, svc in doc["services"].items() if name.startswith("bot")}


def settings_names() -> set[str]:
    return set(re.findall(r'"((?:ADMIRALTY|DISCORD)_[A-Z_]+)"', (ROOT / "bot" / "settings.py").read_text()))


def test_compose_starts_postgres_and_two_bots_on_split_shards():
    doc = compose()
    services = doc["services"]
    assert services["db"]["image"].startswith("postgres:")
    assert "healthcheck" in services["db"]
    bots = bot_services(doc)
    assert set(bots) == {"bot-a", "bot-b"}
    env = {"DISCORD_TOKEN": "token"}
    counts, covered = set(), []
    for name, svc in bots.items():
        assert svc["build"] == "." and svc["depends_on"]["db"]["condition"] == "service_healthy", name
        values = {k: interpolate(str(v), env) for k, v in svc["environment"].items()}
        assert values["DISCORD_TOKEN"] == "token"
        assert values["ADMIRALTY_DB"].startswith("postgresql://") and "@db:5432/" in values["ADMIRALTY_DB"]
        assert values["ADMIRALTY_LOG_FORMAT"] == "json"
        ids, count = parse_shards(values["ADMIRALTY_SHARDS"])
        counts.add(count)
        covered += ids
        settings = Settings.load(values, env_file=Path("/nonexistent/.env"))  # every value is valid
        assert (
            settings.shard_ids == ids and settings.metrics_port == 9108 and settings.metrics_addr == "0.0.0.0"
        )
        assert set(values) <= settings_names(), f"{name} sets an unknown setting"
    assert {
        bots["bot-a"]["environment"]["ADMIRALTY_SHARDS"],
        bots["bot-b"]["environment"]["ADMIRALTY_SHARDS"],
    } == {"0-1/4", "2-3/4"}
    assert len(counts) == 1 and sorted(covered) == list(range(counts.pop())), "every shard runs exactly once"
    host_ports = [p.split(":")[1] for svc in bots.values() for p in svc["ports"]]
    assert len(set(host_ports)) == len(host_ports)
    assert "pgdata" in doc["volumes"]


def test_compose_refuses_to_start_without_a_token():
    bot = bot_services(compose())["bot-a"]
    with pytest.raises(KeyError, match="DISCORD_TOKEN"):
        interpolate(bot["environment"]["DISCORD_TOKEN"], {})


def dockerfile_instructions() -> list[tuple[str, str]]:
    """(instruction, arguments), with continuation lines joined and comments dropped."""
    out: list[tuple[str, str]] = []
    pending = ""
    for raw in (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line = pending + line
        pending = ""
        word, _, rest = line.partition(" ")
        out.append((word, rest.strip()))
    assert not pending, "the Dockerfile ends in a continuation"
    return out


def test_dockerfile_is_well_formed_runs_the_bot_as_a_non_root_user():
    steps = dockerfile_instructions()
    assert all(word in DOCKERFILE_INSTRUCTIONS for word, _ in steps), [w for w, _ in steps]
    first = next(i for i, (w, _) in enumerate(steps) if w != "ARG")
    assert steps[first] == ("FROM", "python:3.11-slim")
    words = [w for w, _ in steps]
    assert words.count("FROM") == 1 and words.count("CMD") == 1
    user = [a for w, a in steps if w == "USER"]
    assert user and user[-1] not in ("root", "0"), "the bot runs as a non-root user"
    assert words.index("USER") < words.index("CMD")
    cmd = json.loads(dict(steps)["CMD"])  # exec form
    assert cmd == ["python", "-m", "bot", "run"]
    installs = [a for w, a in steps if w == "RUN" and "pip install" in a]
    assert installs, "the package is installed"
    ignored = [
        p.strip()
        for p in (ROOT / ".dockerignore").read_text().splitlines()
        if p.strip() and not p.startswith("#")
    ]
    for word, args in steps:
        if word == "COPY":
            *sources, _dest = args.split()
            for src in sources:
                assert (ROOT / src).exists(), f"COPY {src}: no such file"
                assert not any(fnmatch.fnmatch(src, pat) for pat in ignored if not pat.startswith("!")), (
                    f"COPY {src} is excluded by .dockerignore"
                )


def test_dockerignore_keeps_secrets_and_local_state_out_of_the_image():
    ignored = {p.strip() for p in (ROOT / ".dockerignore").read_text().splitlines()}
    assert {".env", ".git", ".venv", "*.db", "tests"} <= ignored


def test_every_setting_is_in_env_example_and_readme():
    example = read_env_file(ROOT / ".env.example")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in settings_names():
        assert name in example, f"{name} is not in .env.example"
        assert f"`{name}`" in readme, f"{name} is not in the README"


def test_dockerfile_installs_the_wheel_with_only_extras_that_exist():
    """The image runs the installed package (its data inside it), not a source tree: the package is
    built into a wheel and installed from it, never editable; every extra asked for exists."""
    steps = dockerfile_instructions()
    installs = " ".join(a for w, a in steps if w == "RUN" and "pip " in a)
    assert "pip wheel" in installs and re.search(r"pip install \S*admiralty-\*\.whl", installs)
    assert "--editable" not in installs and " -e " not in installs
    extras = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["optional-dependencies"]
    )
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    asked = {e for group in re.findall(r"\[([A-Za-z0-9_,\- ]+)\]", installs) for e in group.split(",")}
    asked |= {v for v in re.findall(r"ARG EXTRAS=(\S+)", text)}
    assert asked <= extras, f"extras that pyproject.toml does not define: {asked - extras}"
    # the sources are not left where `python -m bot` would import them instead of the installed package
    workdir = [a for w, a in steps if w == "WORKDIR"][-1]
    copied = [a.split()[-1] for w, a in steps if w == "COPY"]
    assert not any(dest.rstrip("/") in (workdir, ".", workdir + "/bot") for dest in copied)
