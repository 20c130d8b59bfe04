"""World models: simulate tools that cannot be implemented locally.

Backends: :class:`OfflineWorldModel` (deterministic, the default),
:class:`~compoworld_gym.world_model.openai_backend.OpenAIWorldModel` (any
OpenAI-compatible endpoint, e.g. vLLM) and
:class:`~compoworld_gym.world_model.transformers_backend.TransformersWorldModel`
(a local ``transformers`` model). Simulations are cached by
``(service, tool, arguments, state digest)`` and validated against the
service's types before they touch the state.

Example:
    >>> from compoworld_gym.world_model import OfflineWorldModel, set_world_model
    >>> set_world_model(OfflineWorldModel())
"""

from compoworld_gym.world_model.base import (
    Simulation,
    SimulationError,
    SimulationRequest,
    WorldModel,
    build_messages,
    parse_simulation,
)
from compoworld_gym.world_model.offline import OfflineWorldModel
from compoworld_gym.world_model.runtime import (
    cache_size,
    clear_cache,
    get_world_model,
    set_world_model,
    simulate_call,
    state_digest,
)

__all__ = [
    "OfflineWorldModel", "Simulation", "SimulationError", "SimulationRequest", "WorldModel",
    "build_messages", "cache_size", "clear_cache", "get_world_model", "parse_simulation",
    "set_world_model", "simulate_call", "state_digest",
]
