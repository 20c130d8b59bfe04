"""Containers: one Docker host's containers, Compose projects, images and networks.

Follows the MCP server ``docker-mcp`` (all 4 of its tools, with their
parameter names: ``create-container``, ``deploy-compose``, ``get-logs``,
``list-containers``). The other tools (``designed_tools``) are Docker Engine
API operations the server does not wrap: ``GET /containers/{id}/json``
(inspect-container), ``POST /containers/{id}/start``, ``/stop``,
``/restart``, ``DELETE /containers/{id}?force=`` (remove-container), ``GET
/images/json``, ``POST /images/create`` (pull-image), ``DELETE
/images/{name}?force=``, ``GET /networks`` and ``POST /networks/create``;
a container is addressed by name, full id or a unique id prefix, as Docker
does.

Rules of the real product: container names are unique on the host ("The
container name is already in use"); create-container pulls a missing image
and starts the container, as ``docker run -d`` does; a host port serves one
running container ("port is already allocated"); starting a running or
stopping a stopped container is refused (Docker's 304); a running container
cannot be removed without force; an image used by a running container cannot
be removed, one used by a stopped container only with force; network names
are unique and host/none exist once; deploy-compose brings a project up like
``docker compose -p <project> up -d``: containers ``<project>-<service>-1``
on ``<project>_default``, dependencies first, unchanged services left
running, changed ones recreated. Departures: no builds (a Compose ``build``
is refused), no volumes, exec or stats; time is the logical clock.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.envs.services._containers_models import Container, ContainersState, Image, Network
from compoworld_gym.envs.services._containers_rules import (
    REGISTRY, check_name, check_project, hex_id, normal_ref, port_map, random_name, read_compose, status_text,
)
from compoworld_gym.envs.services._containers_seed import (
    COMPANY_REGISTRY, HOST, add_container, add_image, add_network, build_state, ts,
)
from compoworld_gym.envs.services._engineering import APPS_BY_KEY
from compoworld_gym.envs.services.deployments import Deployments
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound
from compoworld_gym.service import DAY_START, Service, tool

_LOG_TAIL = 100


class Containers(Service):
    """Docker host: containers, Compose projects, images and networks."""

    name = "containers"
    description = ("Docker host (staging): containers with their state, ports, labels and logs, Compose "
                   "projects, images and networks; create, start, stop, restart and remove containers.")
    domain = "devops"
    spec_source = "docker-mcp"
    designed_tools = frozenset({"inspect-container", "start-container", "stop-container", "restart-container",
                                "remove-container", "list-images", "pull-image", "remove-image", "list-networks",
                                "create-network"})
    State = ContainersState

    # ---------------------------------------------------------------- helpers
    def _clock(self) -> dt.datetime:
        return dt.datetime.combine(self.today, DAY_START) + dt.timedelta(minutes=self.state.clock)

    def _find(self, ref: str) -> Container:
        for c in self.state.containers.values():
            if c.name == ref.lstrip("/") or c.id == ref:
                return c
        hits = [c for c in self.state.containers.values() if ref and c.id.startswith(ref.lower())]
        if len(hits) > 1:
            raise InvalidArgument(f"multiple containers found with id prefix {ref!r}; give more of the id.")
        if not hits:
            raise NotFound(f"No such container: {ref}; call list-containers.")
        return hits[0]

    def _view(self, c: Container) -> dict:
        return {**c.model_dump(exclude={"logs"}), "short_id": c.id[:12],
                "status": status_text(c.state, c.exit_code, c.started_at, c.finished_at, self._clock())}

    def _pullable(self, ref: str) -> bool:
        if ref in REGISTRY:
            return True
        repo, _, tag = ref.rpartition(":")
        return repo.startswith(COMPANY_REGISTRY + "/") and repo.split("/", 1)[1] in APPS_BY_KEY and tag.startswith("v")

    def _image(self, image: str) -> str:
        """The local reference of ``image``, which must be local or pullable (not pulled yet)."""
        ref = normal_ref(image)
        if not any(ref in i.repo_tags for i in self.state.images.values()) and not self._pullable(ref):
            raise NotFound(f"pull access denied for {ref.rsplit(':', 1)[0]}, repository does not exist or may "
                           "require 'docker login'.")
        return ref

    def _check_ports(self, ports: dict[str, str], ignore: tuple[str, ...] = ()) -> None:
        for c in self.state.containers.values():
            if c.state == "running" and c.id not in ignore:
                taken = set(c.ports.values()) & set(ports.values())
                if taken:
                    raise Conflict(f"Bind for 0.0.0.0:{sorted(taken)[0]} failed: port is already allocated "
                                   f"(container {c.name}).")

    def _check_name(self, name: str, ignore: tuple[str, ...] = ()) -> None:
        for c in self.state.containers.values():
            if c.name == name and c.id not in ignore:
                raise Conflict(f'The container name "/{name}" is already in use by container "{c.id}". You have to '
                               "remove (or rename) that container to be able to reuse that name.")

    def _start(self, c: Container, verb: str = "starting") -> None:
        now = self.now()
        c.state, c.started_at, c.exit_code, c.oom_killed = "running", now, 0, False
        c.logs.append(f"{ts(now)} INFO  {verb} {c.name} ({c.image})")

    def _stop(self, c: Container) -> None:
        now = self.now()
        c.logs.append(f"{ts(now)} INFO  received SIGTERM, shutting down")
        c.state, c.finished_at, c.exit_code = "exited", now, 0

    def _run(self, name: str, ref: str, ports: dict[str, str], env: dict[str, str], labels: dict[str, str],
             networks: list[str], restart: str = "no", command: str = "") -> Container:
        now = self.now()
        add_image(self.state, ref, now)
        c = add_container(self.state, name, ref, now, state_="created", ports=ports, env=env, labels=labels,
                          networks=networks, restart=restart, command=command,
                          cid=hex_id(HOST, name, str(self.state.clock), str(len(self.state.containers))))
        self._start(c)
        return c

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, name="list-containers", returns=list[Container])
    def list_containers(self) -> list[dict]:
        """List all containers on the host, running or not, with image, status, ports and labels."""
        return [self._view(c) for c in self.state.containers.values()]

    @tool(read_only=True, name="inspect-container", returns=Container)
    def inspect_container(self, container_id: str = Field(min_length=1, max_length=128)) -> dict:
        """Inspect one container: state, exit code, OOM kill, restart count, ports, env, labels and networks.

        Args:
            container_id: the container's name, id or a unique id prefix.
        """
        return self._view(self._find(container_id))

    @tool(read_only=True, name="get-logs")
    def get_logs(self, container_name: str = Field(min_length=1, max_length=128)) -> dict:
        """The latest log lines (up to 100) of a container.

        Args:
            container_name: the container's name (or id).
        """
        c = self._find(container_name)
        tail = c.logs[-_LOG_TAIL:]
        return {"container": c.name, "lines": len(tail), "logs": "\n".join(tail)}

    @tool(read_only=True, name="list-images", returns=list[Image])
    def list_images(self) -> list[dict]:
        """List local images with tags, size and how many containers use each."""
        return [{**i.model_dump(), "containers": sum(c.image_id == i.id for c in self.state.containers.values())}
                for i in self.state.images.values()]

    @tool(read_only=True, name="list-networks", returns=list[Network])
    def list_networks(self) -> list[dict]:
        """List networks with the containers attached to each."""
        return [{**n.model_dump(), "containers": [c.name for c in self.state.containers.values()
                                                  if n.name in c.networks]} for n in self.state.networks.values()]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, name="create-container", returns=Container)
    def create_container(self, image: str = Field(min_length=1, max_length=256),
                         name: Optional[str] = Field(default=None, max_length=128),
                         ports: Optional[dict[str, str]] = None,
                         environment: Optional[dict[str, str]] = None) -> dict:
        """Create and start a standalone container (pulling the image if it is not local), like docker run -d.

        Args:
            image: image reference, e.g. nginx:1.27-alpine (no tag means :latest).
            name: container name, unique on the host (generated if omitted).
            ports: container port -> host port, e.g. {"80": "8080"}.
            environment: environment variables, e.g. {"LOG_LEVEL": "debug"}.
        """
        ref = self._image(image)
        cname = check_name(name) if name else random_name(f"{ref}/{self.state.clock}/{len(self.state.containers)}")
        self._check_name(cname)
        mapped = port_map(ports)
        self._check_ports(mapped)
        return self._view(self._run(cname, ref, mapped, dict(environment or {}), {}, ["bridge"]))

    @tool(read_only=False, name="deploy-compose")
    def deploy_compose(self, compose_yaml: str = Field(min_length=1, max_length=50_000),
                       project_name: str = Field(min_length=1, max_length=64)) -> dict:
        """Bring a Docker Compose project up (docker compose -p <project> up -d): create or recreate its containers.

        Args:
            compose_yaml: the Compose file's YAML text (services with image, ports, environment, depends_on...).
            project_name: the Compose project name, e.g. staging-db.
        """
        project = check_project(project_name)
        specs, nets = read_compose(compose_yaml)
        plan, keep_ids, seen_ports = [], [], {}
        for s in specs:
            s["image"] = self._image(s["image"])
            name = s["container_name"] or f"{project}-{s['service']}-1"
            old = next((c for c in self.state.containers.values() if c.name == name), None)
            if old is not None and (old.labels.get("com.docker.compose.project"),
                                    old.labels.get("com.docker.compose.service")) != (project, s["service"]):
                self._check_name(name)
            for port in s["ports"].values():
                if seen_ports.setdefault(port, name) != name:
                    raise InvalidArgument(f"services {seen_ports[port]} and {name} both publish host port {port}.")
            keep_ids += [old.id] if old else []
            plan.append((s, name, old))
        for s, name, old in plan:
            self._check_ports(s["ports"], tuple(keep_ids))
        made = []
        for net in ["default", *nets]:
            full = f"{project}_{net}"
            if not any(n.name == full for n in self.state.networks.values()):
                add_network(self.state, full, "bridge", self.now(), {"com.docker.compose.network": net,
                                                                     "com.docker.compose.project": project})
                made.append(full)
        out = []
        for s, name, old in plan:
            labels = {**s["labels"], "com.docker.compose.project": project, "com.docker.compose.service": s["service"]}
            networks = [f"{project}_{n}" for n in s["networks"]] or [f"{project}_default"]
            same = old is not None and old.state == "running" and (old.image, old.ports, old.env, old.labels,
                                                                   old.command, old.restart_policy, old.networks) == (
                s["image"], s["ports"], s["env"], labels, s["command"], s["restart"], networks)
            if same:
                out.append({"name": name, "service": s["service"], "action": "Running", "id": old.id[:12]})
                continue
            if old is not None:
                del self.state.containers[old.id]
            c = self._run(name, s["image"], s["ports"], s["env"], labels, networks, s["restart"], s["command"])
            out.append({"name": name, "service": s["service"], "action": "Recreated" if old else "Created",
                        "id": c.id[:12]})
        return {"project": project, "containers": out, "networks_created": made}

    @tool(read_only=False, name="start-container", returns=Container)
    def start_container(self, container_id: str = Field(min_length=1, max_length=128)) -> dict:
        """Start a created or stopped container.

        Args:
            container_id: the container's name, id or a unique id prefix.
        """
        c = self._find(container_id)
        if c.state == "running":
            raise Conflict(f"container {c.name} is already started.")
        self._check_ports(c.ports, (c.id,))
        self._start(c)
        return self._view(c)

    @tool(read_only=False, name="stop-container", returns=Container)
    def stop_container(self, container_id: str = Field(min_length=1, max_length=128)) -> dict:
        """Stop a running container (SIGTERM, then SIGKILL after the grace period).

        Args:
            container_id: the container's name, id or a unique id prefix.
        """
        c = self._find(container_id)
        if c.state != "running":
            raise Conflict(f"container {c.name} is already stopped ({c.state}).")
        self._stop(c)
        return self._view(c)

    @tool(read_only=False, name="restart-container", returns=Container)
    def restart_container(self, container_id: str = Field(min_length=1, max_length=128)) -> dict:
        """Restart a container: stop it if it runs, then start it again.

        Args:
            container_id: the container's name, id or a unique id prefix.
        """
        c = self._find(container_id)
        if c.state != "running":
            self._check_ports(c.ports, (c.id,))
        else:
            self._stop(c)
        self._start(c, "restarting")
        c.restart_count += 1
        return self._view(c)

    @tool(read_only=False, destructive=True, name="remove-container", returns=Container)
    def remove_container(self, container_id: str = Field(min_length=1, max_length=128), force: bool = False) -> dict:
        """Remove a container; a running one only with force (it is killed first).

        Args:
            container_id: the container's name, id or a unique id prefix.
            force: kill and remove a running container.
        """
        c = self._find(container_id)
        if c.state in ("running", "restarting", "paused") and not force:
            raise Conflict(f"You cannot remove a running container {c.id}. Stop the container before attempting "
                           "removal or force remove.")
        del self.state.containers[c.id]
        return {**self._view(c), "removed": True}

    @tool(read_only=False, name="pull-image", returns=Image)
    def pull_image(self, image: str = Field(min_length=1, max_length=256)) -> dict:
        """Pull an image from its registry (no tag means :latest).

        Args:
            image: image reference, e.g. redis:7.2.
        """
        ref = self._image(image)
        return add_image(self.state, ref, self.now()).model_dump()

    @tool(read_only=False, destructive=True, name="remove-image", returns=Image)
    def remove_image(self, image: str = Field(min_length=1, max_length=256), force: bool = False) -> dict:
        """Remove a local image; refused while a running container uses it, and for a stopped one without force.

        Args:
            image: image reference or id.
            force: remove it even if stopped containers use it.
        """
        ref = normal_ref(image)
        img = next((i for i in self.state.images.values() if ref in i.repo_tags or i.id == image), None)
        if img is None:
            raise NotFound(f"No such image: {image}; call list-images.")
        users = [c for c in self.state.containers.values() if c.image_id == img.id]
        running = [c.name for c in users if c.state == "running"]
        if running:
            raise Conflict(f"conflict: unable to remove {ref}: image is being used by running container {running[0]}.")
        if users and not force:
            raise Conflict(f"conflict: unable to remove {ref} (must force): container {users[0].name} is using its "
                           "referenced image.")
        del self.state.images[img.id]
        return img.model_dump()

    @tool(read_only=False, name="create-network", returns=Network)
    def create_network(self, name: str = Field(min_length=1, max_length=64), internal: bool = False) -> dict:
        """Create a bridge network.

        Args:
            name: network name, unique on the host.
            internal: cut the network off from outside connectivity.
        """
        check_name(name)
        if any(n.name == name for n in self.state.networks.values()):
            raise Conflict(f"network with name {name} already exists.")
        net = add_network(self.state, name, "bridge", self.now())
        net.internal = internal
        return net.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> ContainersState:
        """Seeded state on the deployment pipeline's staging deploys for the same seed."""
        return build_state(random.Random(f"containers:{seed}"), today, Deployments.seed_state(seed, today))

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> ContainersState:
        return build_state(rng, today, Deployments.build_seed_state(fake, rng, today))
