"""The Typer application every command module registers on.

Every command runs inside :func:`friendly`: an error a user can cause (a
missing extra, a bad file, a refused connection) is one ``error:`` line on
stderr and a non-zero exit; ``--debug`` (or ``COMPOWORLD_DEBUG=1``) shows the
traceback instead. Ctrl-C exits 130 with one line.
"""

from __future__ import annotations

import functools
import os
from typing import Any, Callable, Optional

import typer

#: Which ``pip install "compoworld-gym[...]"`` extra provides a missing top-level module.
EXTRA_OF_MODULE = {
    "matplotlib": "viz", "mcp": "mcp", "mcp_types": "mcp", "anyio": "mcp", "httpx": "mcp",
    "torch": "train", "transformers": "train", "trl": "train", "peft": "train", "datasets": "train",
    "accelerate": "train", "tokenizers": "train", "gguf": "train", "openai": "openai", "vllm": "vllm", "ray": "ray",
}

# Exits a command raises on purpose pass through ``friendly``. typer >= 0.29
# bundles its own click, so click is not importable from a base install.
_PASSTHROUGH = tuple(x for x in (getattr(typer, n, None) for n in ("Exit", "Abort", "TyperException", "BadParameter"))
                     if isinstance(x, type)) + (SystemExit,)

_state = {"debug": os.environ.get("COMPOWORLD_DEBUG", "") not in ("", "0")}


def debugging() -> bool:
    """Whether ``--debug`` (or ``COMPOWORLD_DEBUG``) asked for tracebacks."""
    return _state["debug"]


def missing_extra_message(exc: ModuleNotFoundError) -> Optional[str]:
    """``"... needs the [viz] extra: pip install ..."`` for a module an extra provides, else None."""
    top = (exc.name or "").split(".")[0]
    extra = EXTRA_OF_MODULE.get(top)
    if extra is None:
        return None
    return (f"this command needs the [{extra}] extra (module {top!r} is not installed): "
            f'pip install "compoworld-gym[{extra}]"')


def error_line(exc: BaseException, user_errors: tuple[type[BaseException], ...] = ()) -> tuple[str, int]:
    """The one line and exit code an error gets: the one home of the CLI's error rules.

    Ctrl-C is ``interrupted`` (130); a missing extra (vLLM's own "not
    available" error included) names its ``pip install`` line (2); an error of
    ``user_errors`` is its own message (2); anything else is
    ``Type: message (run with --debug ...)`` (1).
    """
    if isinstance(exc, KeyboardInterrupt):
        return "interrupted", 130
    if isinstance(exc, ImportError) and "vllm" in str(exc).lower():
        return '--vllm needs the [vllm] extra (on a GPU machine): pip install "compoworld-gym[vllm]"', 2
    extra = missing_extra_message(exc) if isinstance(exc, ModuleNotFoundError) else None
    if extra:
        return extra, 2
    text = " ".join(str(exc).split()) or type(exc).__name__
    if isinstance(exc, user_errors):
        return text, 2
    return f"{type(exc).__name__}: {text} (run with --debug for the traceback)", 1


def friendly(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a command so that an unexpected error is one line on stderr, not a traceback.

    ``typer.Exit``/click's own exits pass through; every other error gets
    :func:`error_line`; with :func:`debugging` it is re-raised unchanged.
    """

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from compoworld_gym.cli.common import fail

        try:
            return fn(*args, **kwargs)
        except _PASSTHROUGH:
            raise
        except (KeyboardInterrupt, Exception) as exc:
            if debugging():
                raise
            raise fail(*error_line(exc)) from None

    return wrapper


def run_script(main: Callable[[], Any]) -> None:
    """Run a ``python -m`` entry point (SFT, GRPO, benchmarks) with the CLI's error rules.

    As :func:`error_line`, with a missing file or model and a bad value as
    user errors (exit 2). ``--debug`` among the arguments, or
    ``COMPOWORLD_DEBUG=1``, shows the traceback instead.
    """
    import sys

    if "--debug" in sys.argv:
        sys.argv.remove("--debug")
        _state["debug"] = True
    try:
        main()
    except (KeyboardInterrupt, Exception) as exc:
        if debugging():
            raise
        _exit_line(*error_line(exc, (FileNotFoundError, ValueError)))


def _exit_line(message: str, code: int) -> None:
    import sys

    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(code)


class FriendlyTyper(typer.Typer):
    """A Typer whose commands all run inside :func:`friendly`."""

    def command(self, *args: Any, **kwargs: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        register = super().command(*args, **kwargs)
        return lambda fn: register(friendly(fn))


app = FriendlyTyper(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                    help="compoworld-gym: composed, verified tool-use environments for LLM agents.")


def _show_version(value: bool) -> None:
    if value:
        from compoworld_gym import __version__

        typer.echo(f"compoworld-gym {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: bool = typer.Option(False, "--version", callback=_show_version, is_eager=True,
                                 help="Print the version and exit."),
    debug: bool = typer.Option(False, "--debug", help="Show the full traceback of an unexpected error instead of one line."),
) -> None:
    """compoworld-gym: composed, verified tool-use environments for LLM agents.

    Paper: Compositional Environment Scaling for General Agents (CompoWorld).
    """
    _state["debug"] = debug or _state["debug"]
