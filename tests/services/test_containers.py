"""Tests of the containers service (docker-mcp plus the Docker Engine API)."""

from __future__ import annotations

import pytest
from _svc_asserts import code, error, ok

from compoworld_gym.errors import InvalidArgument
from compoworld_gym.envs.services._containers_rules import parse_yaml, read_compose
from compoworld_gym.envs.services.containers import Containers
from compoworld_gym.envs.services.deployments import Deployments

COMPOSE = """
services:
  api:
    image: "nginx:1.27-alpine"   # the front
    ports:
      - "8181:80"
    environment:
      - LOG_LEVEL=debug
    depends_on: [cache]
  cache:
    image: redis:7.2
    restart: always
"""


@pytest.fixture
def svc(make_service):
    return make_service(Containers)


def _by_name(svc):
    return {c["name"]: c for c in ok(svc, "list-containers")}


def test_seed_lines_up_with_the_deployment_pipeline(svc, make_service):
    dep = make_service(Deployments)
    live = dep.state.deployments[dep.state.projects["checkout-api"].live["staging"]]
    c = ok(svc, "inspect-container", {"container_id": "checkout-api"})
    assert c["image"] == f"registry.company.example/checkout-api:{live.version}" == \
        "registry.company.example/checkout-api:v1.16.0"
    assert c["labels"] == {"app": "checkout-api", "team": "payments", "owner": dep.state.projects["checkout-api"]
                           .owner_email}
    assert (c["state"], c["status"], c["ports"]) == ("running", "Up 12 days", {"8080/tcp": "8081"})


def test_reads(svc):
    rows = _by_name(svc)
    assert len(rows) == 11
    assert (rows["search-api"]["status"], rows["search-api"]["oom_killed"]) == ("Exited (137) 4 hours ago", True)
    assert rows["adminer"]["status"] == "Created"
    short = rows["payments-service"]["short_id"]
    assert ok(svc, "inspect-container", {"container_id": short[:6]})["name"] == "payments-service"
    assert code(svc, "inspect-container", {"container_id": "nope"}) == 404
    logs = ok(svc, "get-logs", {"container_name": "search-api"})
    assert logs["lines"] == 9 and logs["logs"].endswith("ERROR index warmup aborted")
    images = {i["repo_tags"][0]: i["containers"] for i in ok(svc, "list-images")}
    assert (images["python:3.12-slim"], images["postgres:16"], len(images)) == (0, 1, 13)
    nets = {n["name"]: n["containers"] for n in ok(svc, "list-networks")}
    assert nets["staging-db_default"] == ["staging-db-postgres-1", "staging-db-redis-1", "adminer"]


def test_create_container_pulls_and_starts(svc):
    c = ok(svc, "create-container", {"image": "nginx", "name": "web-preview", "ports": {"80": "8200"},
                                     "environment": {"MODE": "preview"}})
    assert (c["image"], c["state"], c["ports"], c["env"]) == ("nginx:latest", "running", {"80/tcp": "8200"},
                                                              {"MODE": "preview"})
    assert any(i["repo_tags"] == ["nginx:latest"] for i in ok(svc, "list-images"))
    anon = ok(svc, "create-container", {"image": "busybox:1.36"})
    assert anon["name"] == "quirky_darwin"
    msg = error(svc, "create-container", {"image": "redis:7.2", "name": "web-preview"})
    assert msg["code"] == 409 and "already in use" in msg["message"]
    msg = error(svc, "create-container", {"image": "redis:7.2", "name": "r2", "ports": {"6379": "5432"}})
    assert msg["code"] == 409 and "port is already allocated" in msg["message"]
    assert code(svc, "create-container", {"image": "acme/secret-tool:1"}) == 404
    assert code(svc, "create-container", {"image": "redis:7.2", "name": "bad name"}) == 400
    assert code(svc, "create-container", {"image": "redis:7.2", "ports": {"6379": "99999"}}) == 400
    ok(svc, "create-container", {"image": "registry.company.example/search-api:v2.16.0", "name": "search-api-2"})


def test_start_stop_restart(svc):
    up = ok(svc, "start-container", {"container_id": "search-api"})
    assert (up["state"], up["exit_code"], up["oom_killed"], up["status"]) == ("running", 0, False,
                                                                             "Up 1 minute")
    assert code(svc, "start-container", {"container_id": "search-api"}) == 409
    down = ok(svc, "stop-container", {"container_id": "checkout-api"})
    assert (down["state"], down["exit_code"]) == ("exited", 0)
    assert code(svc, "stop-container", {"container_id": "checkout-api"}) == 409
    again = ok(svc, "restart-container", {"container_id": "auth-service"})
    assert (again["state"], again["restart_count"]) == ("running", 1)
    assert "restarting auth-service" in ok(svc, "get-logs", {"container_name": "auth-service"})["logs"]
    ok(svc, "create-container", {"image": "nginx:1.27-alpine", "name": "squatter", "ports": {"80": "9090"}})
    msg = error(svc, "start-container", {"container_id": "adminer"})
    assert msg["code"] == 409 and "9090" in msg["message"]


def test_remove_container_needs_force_while_running(svc):
    msg = error(svc, "remove-container", {"container_id": "web-frontend"})
    assert msg["code"] == 409 and "Stop the container" in msg["message"]
    assert ok(svc, "remove-container", {"container_id": "checkout-api-old"})["removed"] is True
    assert ok(svc, "remove-container", {"container_id": "web-frontend", "force": True})["name"] == "web-frontend"
    assert code(svc, "inspect-container", {"container_id": "web-frontend"}) == 404
    assert ok(svc, "create-container", {"image": "nginx:1.27-alpine", "name": "web-frontend"})["state"] == "running"


def test_images_and_networks(svc):
    assert ok(svc, "pull-image", {"image": "rabbitmq:3.13-management"})["size_mb"] == 249.9
    assert code(svc, "pull-image", {"image": "unknown/thing"}) == 404
    assert ok(svc, "remove-image", {"image": "python:3.12-slim"})["repo_tags"] == ["python:3.12-slim"]
    assert code(svc, "remove-image", {"image": "python:3.12-slim"}) == 404
    msg = error(svc, "remove-image", {"image": "postgres:16", "force": True})
    assert msg["code"] == 409 and "running container" in msg["message"]
    assert code(svc, "remove-image", {"image": "adminer:4.8.1"}) == 409
    assert ok(svc, "remove-image", {"image": "adminer:4.8.1", "force": True})["repo_tags"] == ["adminer:4.8.1"]
    net = ok(svc, "create-network", {"name": "ci", "internal": True})
    assert (net["driver"], net["internal"]) == ("bridge", True)
    assert code(svc, "create-network", {"name": "ci"}) == 409
    assert code(svc, "create-network", {"name": "host"}) == 409


def test_deploy_compose(svc):
    out = ok(svc, "deploy-compose", {"compose_yaml": COMPOSE, "project_name": "preview"})
    assert [(c["name"], c["action"]) for c in out["containers"]] == [("preview-cache-1", "Created"),
                                                                     ("preview-api-1", "Created")]
    assert out["networks_created"] == ["preview_default"]
    api = ok(svc, "inspect-container", {"container_id": "preview-api-1"})
    assert (api["ports"], api["env"], api["networks"], api["labels"]["com.docker.compose.service"]) == (
        {"80/tcp": "8181"}, {"LOG_LEVEL": "debug"}, ["preview_default"], "api")
    again = ok(svc, "deploy-compose", {"compose_yaml": COMPOSE.replace("debug", "info"), "project_name": "preview"})
    assert [(c["name"], c["action"]) for c in again["containers"]] == [("preview-cache-1", "Running"),
                                                                       ("preview-api-1", "Recreated")]
    assert code(svc, "deploy-compose", {"compose_yaml": COMPOSE, "project_name": "Preview!"}) == 400
    clash = "services:\n  db:\n    image: postgres:16\n    ports: ['5432:5432']\n"
    assert code(svc, "deploy-compose", {"compose_yaml": clash, "project_name": "other"}) == 409
    named = "services:\n  db:\n    image: postgres:16\n    container_name: adminer\n"
    assert code(svc, "deploy-compose", {"compose_yaml": named, "project_name": "other"}) == 409
    assert code(svc, "deploy-compose", {"compose_yaml": "services:\n  a:\n    build: .\n", "project_name": "b"}) == 400
    assert code(svc, "deploy-compose", {"compose_yaml": "services:\n  a:\n    image: x\n    foo: 1\n",
                                        "project_name": "b"}) == 400
    assert code(svc, "deploy-compose", {"compose_yaml": "services:\n  a:\n    image: nope/x:1\n",
                                        "project_name": "b"}) == 404
    loop = "services:\n  a:\n    image: redis:7.2\n    depends_on: [b]\n  b:\n    image: redis:7.2\n    depends_on: [a]\n"
    assert code(svc, "deploy-compose", {"compose_yaml": loop, "project_name": "b"}) == 400


def test_compose_text_is_read_as_yaml():
    assert parse_yaml("a:\n  - x: 1\n    y: '2'\n  - z\nb: [p, q]\nc: {k: v}\n") == {
        "a": [{"x": 1, "y": "2"}, "z"], "b": ["p", "q"], "c": {"k": "v"}}
    with pytest.raises(InvalidArgument, match=r"line 4, column 1: expected .,. or .\]."):
        parse_yaml("services:\n  a:\n    image: [x\n")
    with pytest.raises(InvalidArgument, match="empty"):
        parse_yaml("# nothing\n")
    specs, _ = read_compose("services:\n  a:\n    image: nginx:1.27\n    environment:\n      DEBUG: true\n"
                            "    ports: ['8080:80']\n")
    assert specs[0]["env"] == {"DEBUG": "true"} and specs[0]["ports"] == {"80/tcp": "8080"}


def test_failed_write_rolls_back_and_seed_is_deterministic(svc, make_service):
    before = svc.state_dict()
    assert svc.call("remove-container", {"container_id": "checkout-api"})["success"] is False
    assert svc.state_dict() == before
    assert make_service(Containers, seed=2).state_dict() == make_service(Containers, seed=2).state_dict()
