"""Seed data of the ``containers`` service: the staging Docker host, on the deployment pipeline's seed.

Every app of the shared engineering roster runs as a container named after
its service key, from the company registry's image of the version live in
staging in ``deployments`` (the same seed), labelled with the app key, its
owning team and the project owner's email. search-api was OOM-killed (exit
137), reporting-etl's nightly batch exited 0, an old checkout-api container
of the previous version is kept stopped, a Compose project ``staging-db``
runs Postgres and Redis, and an adminer container was created but never
started. Unused images (python, busybox) can be removed.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from compoworld_gym.envs.services._containers_models import Container, ContainersState, Image, Network
from compoworld_gym.envs.services._containers_rules import REGISTRY, hex_id
from compoworld_gym.envs.services._engineering import APPS, team_engineers
from compoworld_gym.envs.services.deployments import DeploymentsState
from compoworld_gym.service import DAY_START

HOST = "staging-docker-01"
COMPANY_REGISTRY = "registry.company.example"
APP_PORT = 8080
APP_SIZE_MB = 212.4


def ts(when: dt.datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def app_logs(name: str, version: str, started: dt.datetime, rng: random.Random) -> list[str]:
    lines = [f"{ts(started)} INFO  starting {name} {version} (APP_ENV=staging)",
             f"{ts(started + dt.timedelta(seconds=2))} INFO  connected to postgres at staging-db-postgres-1:5432",
             f"{ts(started + dt.timedelta(seconds=3))} INFO  listening on :{APP_PORT}"]
    for k in range(4):
        at = started + dt.timedelta(minutes=10 * (k + 1))
        lines.append(f"{ts(at)} INFO  GET /healthz 200 {rng.randint(1, 9)}ms")
    return lines


def add_image(state: ContainersState, ref: str, when: dt.datetime) -> Image:
    """The local image ``ref``, added (as pulled at ``when``) when missing."""
    for img in state.images.values():
        if ref in img.repo_tags:
            return img
    size = REGISTRY.get(ref, APP_SIZE_MB)
    img = Image(id=f"sha256:{hex_id('image', ref)}", repo_tags=[ref], size_mb=size, created_at=when)
    state.images[img.id] = img
    return img


def add_network(state: ContainersState, name: str, driver: str, when: dt.datetime,
                labels: Optional[dict[str, str]] = None) -> Network:
    net = Network(id=hex_id("network", name), name=name, driver=driver, labels=labels or {}, created_at=when)
    state.networks[net.id] = net
    return net


def add_container(state: ContainersState, name: str, image: str, created: dt.datetime, *, state_: str = "running",
                  started: Optional[dt.datetime] = None, finished: Optional[dt.datetime] = None, exit_code: int = 0,
                  ports: Optional[dict[str, str]] = None, env: Optional[dict[str, str]] = None,
                  labels: Optional[dict[str, str]] = None, networks: Optional[list[str]] = None,
                  restart: str = "unless-stopped", logs: Optional[list[str]] = None, command: str = "",
                  oom: bool = False, cid: Optional[str] = None) -> Container:
    img = add_image(state, image, created - dt.timedelta(minutes=2))
    c = Container(id=cid or hex_id(HOST, name, created.isoformat()), name=name, image=image, image_id=img.id,
                  command=command, state=state_, exit_code=exit_code, oom_killed=oom, created_at=created,
                  started_at=started, finished_at=finished, ports=ports or {}, env=env or {}, labels=labels or {},
                  networks=networks or ["bridge"], restart_policy=restart, logs=logs or [])
    state.containers[c.id] = c
    return c


def build_state(rng: random.Random, today: dt.date, source: DeploymentsState) -> ContainersState:
    st = ContainersState(host=HOST)
    start = dt.datetime.combine(today, DAY_START)
    boot = start - dt.timedelta(days=60)
    for name, driver in (("bridge", "bridge"), ("host", "host"), ("none", "null")):
        add_network(st, name, driver, boot)
    add_network(st, "apps", "bridge", boot + dt.timedelta(days=1))
    add_network(st, "staging-db_default", "bridge", boot + dt.timedelta(days=2),
                {"com.docker.compose.network": "default", "com.docker.compose.project": "staging-db"})
    db_up = start - dt.timedelta(days=rng.randint(12, 20), hours=3)
    for svc, image, port, line in (("postgres", "postgres:16", "5432", "database system is ready to accept connections"),
                                   ("redis", "redis:7.2", "6379", "Ready to accept connections tcp")):
        add_container(st, f"staging-db-{svc}-1", image, db_up, started=db_up, ports={f"{port}/tcp": port},
                      labels={"com.docker.compose.project": "staging-db", "com.docker.compose.service": svc},
                      networks=["staging-db_default", "apps"], logs=[f"{ts(db_up)} {line}"], restart="always")
    for i, app in enumerate(APPS):
        project = source.projects[app.key]
        live = source.deployments.get(project.live["staging"] or "")
        version = live.version if live else "v1.0.0"
        created = (live.created_at if live else start - dt.timedelta(days=9)) + dt.timedelta(minutes=6)
        labels = {"app": app.key, "team": app.team, "owner": project.owner_email}
        env = {"APP_ENV": "staging", "VAULT_SECRET_PATH": f"secret/apps/{app.key}/database", "LOG_LEVEL": "info"}
        kw: dict = {"started": created, "ports": {f"{APP_PORT}/tcp": str(APP_PORT + 1 + i)}, "env": env,
                    "labels": labels, "networks": ["apps"], "logs": app_logs(app.key, version, created, rng)}
        if app.key == "search-api":
            died = start - dt.timedelta(hours=rng.randint(2, 5))
            kw.update(state_="exited", finished=died, exit_code=137, oom=True, restart="no")
            kw["logs"] = kw["logs"] + [f"{ts(died)} ERROR java.lang.OutOfMemoryError: Java heap space",
                                       f"{ts(died)} ERROR index warmup aborted"]
        elif app.key == "reporting-etl":
            done = start - dt.timedelta(hours=6)
            kw.update(state_="exited", started=done - dt.timedelta(minutes=42), finished=done, restart="no",
                      command="python -m etl.nightly")
            kw["logs"] = [f"{ts(done - dt.timedelta(minutes=42))} INFO  nightly load started",
                          f"{ts(done)} INFO  loaded {rng.randint(9000, 15000)} rows; done"]
        add_container(st, app.key, f"{COMPANY_REGISTRY}/{app.key}:{version}", created, **kw)
    old = source.projects["checkout-api"]
    earlier = sorted((d for d in source.deployments.values() if d.project_id == "checkout-api"
                      and d.environment == "staging" and d.status == "ready"), key=lambda d: d.created_at)
    if len(earlier) > 1:
        made = earlier[0].created_at + dt.timedelta(minutes=6)
        add_container(st, "checkout-api-old", f"{COMPANY_REGISTRY}/checkout-api:{earlier[0].version}", made,
                      state_="exited", started=made, finished=earlier[-1].created_at, restart="no",
                      labels={"app": "checkout-api", "team": "payments", "owner": old.owner_email},
                      networks=["apps"], logs=app_logs("checkout-api", earlier[0].version, made, rng))
    add_container(st, "adminer", "adminer:4.8.1", start - dt.timedelta(days=1, hours=2), state_="created",
                  ports={"8080/tcp": "9090"}, networks=["staging-db_default"], restart="no",
                  labels={"owner": team_engineers("platform")[1].email})
    for ref in ("python:3.12-slim", "busybox:1.36"):
        add_image(st, ref, boot + dt.timedelta(days=rng.randint(3, 40)))
    return st
