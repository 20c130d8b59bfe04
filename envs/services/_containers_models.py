"""Records and state of the ``containers`` service (Docker Engine API shapes).

Containers (``/containers/{id}/json``: ``Id``, ``Name``, ``Config.Image``,
``Config.Env``, ``Config.Labels``, ``State.Status``/``ExitCode``/
``OOMKilled``/``StartedAt``/``FinishedAt``, ``RestartCount``,
``HostConfig.PortBindings``/``RestartPolicy``, ``NetworkSettings.Networks``)
flattened to snake_case; images (``/images/json``: ``Id``, ``RepoTags``,
``Size``, ``Created``); networks (``/networks``: ``Id``, ``Name``,
``Driver``, ``Scope``, ``Labels``).
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field

from compoworld_gym.entities import DateTime, Id
from compoworld_gym.service import Record, ServiceState

ContainerState = Literal["created", "running", "paused", "restarting", "exited", "dead"]
RestartPolicy = Literal["no", "always", "unless-stopped", "on-failure"]


class Container(Record):
    """A container on the Docker host."""

    id: Id("docker_container") = Field(description="Full 64-hex container id; its first 12 characters identify it too.")
    name: str = Field(description="Container name (unique on the host).")
    image: str = Field(description="Image reference it was created from, e.g. nginx:1.27-alpine.")
    image_id: str = Field(description="Id of that image.")
    command: str = Field(default="", description="Command it runs.")
    state: ContainerState = Field(description="created, running, paused, restarting, exited or dead.")
    exit_code: int = Field(default=0, description="Exit code of the last run.")
    oom_killed: bool = Field(default=False, description="Whether the kernel killed it for memory.")
    created_at: DateTime = Field(description="When created.")
    started_at: Optional[DateTime] = Field(default=None, description="When last started.")
    finished_at: Optional[DateTime] = Field(default=None, description="When last stopped.")
    restart_count: int = Field(default=0, ge=0, description="Restarts (by the restart policy or restart-container).")
    ports: dict[str, str] = Field(default_factory=dict, description="Published ports, container '80/tcp' -> host '8080'.")
    env: dict[str, str] = Field(default_factory=dict, description="Environment variables.")
    labels: dict[str, str] = Field(default_factory=dict,
                                   description="Labels: app (the service key), owner (email), compose project/service.")
    networks: list[str] = Field(default_factory=list, description="Networks it is attached to.")
    restart_policy: RestartPolicy = Field(default="no", description="Restart policy.")
    logs: list[str] = Field(default_factory=list, description="Its stdout/stderr lines, oldest first.")


class Image(Record):
    """A local image."""

    id: str = Field(description="Image id, sha256:...")
    repo_tags: list[str] = Field(min_length=1, description="Tags, e.g. ['postgres:16'].")
    size_mb: float = Field(ge=0, description="Size in MB.")
    created_at: DateTime = Field(description="When it was pulled or built.")


class Network(Record):
    """A Docker network."""

    id: str = Field(description="Network id (64 hex).")
    name: str = Field(description="Network name (unique).")
    driver: Literal["bridge", "host", "null", "overlay"] = Field(description="Network driver.")
    scope: Literal["local", "swarm"] = Field(default="local", description="Scope.")
    internal: bool = Field(default=False, description="No outside connectivity.")
    labels: dict[str, str] = Field(default_factory=dict, description="Labels (compose project, ...).")
    created_at: DateTime = Field(description="When created.")


class ContainersState(ServiceState):
    """Containers, images and networks of one Docker host."""

    host: str = Field(default="", description="The Docker host's name.")
    containers: dict[str, Container] = Field(default_factory=dict, description="Containers by full id.")
    images: dict[str, Image] = Field(default_factory=dict, description="Images by id.")
    networks: dict[str, Network] = Field(default_factory=dict, description="Networks by id.")
