"""Packaging: every package in the tree is listed, so a non-editable install is complete."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_is_listed_in_pyproject():
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(cfg["packages"])
    mapping = {"compoworld_gym": ROOT / "compoworld_gym",
               **{name: ROOT / path for name, path in cfg["package-dir"].items()}}
    found = set()
    for base_name, base in mapping.items():
        for init in base.rglob("__init__.py"):
            rel = init.parent.relative_to(base)
            parts = [] if str(rel) == "." else list(rel.parts)
            if "__pycache__" in parts:
                continue
            name = ".".join([base_name, *parts])
            if base_name == "compoworld_gym" and parts and parts[0] in ("envs", "wrappers", "baselines", "benchmarks"):
                continue  # those live in the mapped top-level folders
            found.add(name)
    assert sorted(found - listed) == []
    assert sorted(listed - found) == []


def test_the_package_imports_from_a_checkout_without_the_package_dir_mapping():
    # Regression (fresh-user review): after a plain `pip install .`, `python -m compoworld_gym...` run in
    # the checkout's root imports the checkout's compoworld_gym/, where pyproject's package-dir mapping of
    # envs/, wrappers/, baselines/ and benchmarks/ is not in force (ModuleNotFoundError: compoworld_gym.envs).
    # `python -S` with only site-packages on PYTHONPATH reproduces it: no .pth file, so no editable mapping.
    import site
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    code = ("import compoworld_gym.envs, compoworld_gym.wrappers, compoworld_gym.baselines.config, "
            "compoworld_gym.benchmarks; print(compoworld_gym.envs.__file__)")
    env = {"PYTHONPATH": ":".join(site.getsitepackages()), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-S", "-c", code], cwd=root, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    assert Path(out.stdout.strip()) == root / "envs" / "__init__.py"
