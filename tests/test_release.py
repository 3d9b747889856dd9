"""The release workflow (.github/workflows/release.yml) cannot run here, so it is linted:
actionlint (types, expressions, runner labels, and the ``run:`` scripts through shellcheck when
installed) and zizmor (the security audits), both clean, plus what the release must do:
the platforms, actions pinned to commits, trusted publishing with least privilege.

The linters come with the ``release`` extra; under CI a missing one fails instead of skipping."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from typing import Any

import pytest

from support.tree import ROOT, source_tree

pytestmark = source_tree

WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"


def tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        message = f"{name} is not installed (pip install 'vncards[release]')"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


def workflow() -> dict[Any, Any]:
    yaml = pytest.importorskip("yaml")
    data: dict[Any, Any] = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    return data


def test_actionlint_is_clean() -> None:
    out = subprocess.run(
        [tool("actionlint"), "-no-color", "-oneline", str(WORKFLOW)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (out.returncode, out.stdout + out.stderr) == (0, "")


def test_zizmor_is_clean_even_pedantic() -> None:
    out = subprocess.run(
        [tool("zizmor"), "--offline", "--no-progress", "--pedantic", "--format", "plain", str(WORKFLOW)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "No findings" in out.stdout


def test_every_action_is_pinned_to_a_commit() -> None:
    uses = re.findall(r"uses:\s*(\S+)(.*)", WORKFLOW.read_text(encoding="utf-8"))
    assert uses
    for ref, comment in uses:
        assert re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", ref), ref
        assert re.fullmatch(r"\s*# v\d+(\.\d+)*", comment), f"{ref}: no release comment"


def test_it_builds_every_platform_and_the_sdist() -> None:
    jobs = workflow()["jobs"]
    linux = {(m["target"], m["manylinux"]) for m in jobs["linux"]["strategy"]["matrix"]["include"]}
    assert linux == {
        ("x86_64", "2014"),
        ("aarch64", "2014"),
        ("x86_64", "musllinux_1_2"),
        ("aarch64", "musllinux_1_2"),
    }
    assert {m["target"] for m in jobs["macos"]["strategy"]["matrix"]["include"]} == {"x86_64", "aarch64"}
    assert any(s.get("with", {}).get("target") == "x64" for s in jobs["windows"]["steps"])
    sdist_steps = " ".join(str(s.get("run", "")) for s in jobs["sdist"]["steps"])
    assert "scripts/build_sdist.py" in sdist_steps and "scripts/check_sdist.py" in sdist_steps
    # Every built wheel is installed and played on its own runner before it is uploaded.
    for name in ("linux", "macos", "windows"):
        runs = " ".join(str(s.get("run", "")) for s in jobs[name]["steps"])
        assert "no_numpy.py" in runs and "vncards simulate" in runs, name


def test_publishing_is_trusted_and_least_privilege() -> None:
    flow = workflow()
    assert flow["permissions"] == {}
    assert "secrets." not in WORKFLOW.read_text(encoding="utf-8")
    for name, job in flow["jobs"].items():
        expected = {"id-token": "write"} if name == "publish" else {"contents": "read"}
        assert job["permissions"] == expected, name
    publish = flow["jobs"]["publish"]
    assert set(publish["needs"]) == {"linux", "macos", "windows", "sdist"}
    assert publish["environment"]["name"] == "pypi"
    assert any("pypa/gh-action-pypi-publish@" in s.get("uses", "") for s in publish["steps"])
    for job in flow["jobs"].values():
        for step in job["steps"]:
            if "actions/checkout@" in step.get("uses", ""):
                assert step["with"]["persist-credentials"] is False
