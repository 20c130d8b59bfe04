"""Seed data of the ``cloud_run`` service, on the deployment pipeline's seeded state.

Every production deploy of the pipeline (``deployments``) is a revision of
the app's Cloud Run service in project ``acme-prod``, annotated with the
pipeline's deployment id, version and commit; three apps also run in
``acme-staging`` from their staging deploys. The apps and engineers come
from the shared engineering roster, so an alert's service in monitoring is
the Cloud Run service of the same name. Also seeded: a storefront canary
(90 % pinned on the previous revision, 10 % on the latest under tag
``canary``), a search-api revision deployed this morning that failed its
startup probe (the service still serves the previous ready one), a sandbox
project without billing, and a developer workstation with source folders.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Optional

from compoworld_gym.envs.services._cloud_run_models import (
    LATEST, PINNED, CloudRunService, CloudRunState, GcpProject, LocalFile, Revision, Template, TrafficTarget,
)
from compoworld_gym.envs.services._cloud_run_rules import revision_id, service_name
from compoworld_gym.envs.services._engineering import APPS, team_engineers
from compoworld_gym.envs.services.deployments import Deployments, DeploymentsState
from compoworld_gym.service import DAY_START

PROD, STAGING, SANDBOX = "acme-prod", "acme-staging", "acme-ml-sandbox"
DEFAULT_REGION = "europe-west1"
BILLING = "billingAccounts/01A2B3-C4D5E6-F7A8B9"
#: project id -> (display name, number, environment label, billing linked)
PROJECTS = {PROD: ("Acme Production", "418220519133", "production", True),
            STAGING: ("Acme Staging", "730015298412", "staging", True),
            SANDBOX: ("ML Sandbox", "902764110385", "sandbox", False)}
#: Apps that also run in staging.
STAGED = ("checkout-api", "web-frontend", "auth-service")
#: Region of each production service (the rest run in the default region).
REGION_OF = {"reporting-etl": "us-central1"}
PROBE_FAILURE = ("The user-provided container failed to start and listen on the port defined provided by the "
                 "PORT=8080 environment variable within the allocated timeout.")
WORKSTATION = {
    "/home/dev/src/notifications-worker/package.json":
        '{"name": "notifications-worker", "version": "3.2.0", "scripts": {"start": "node index.js"}}',
    "/home/dev/src/notifications-worker/index.js":
        "const http = require('http');\nhttp.createServer((q, r) => r.end('ok')).listen(process.env.PORT);\n",
    "/home/dev/src/pricing-api/requirements.txt": "flask==3.0.3\ngunicorn==22.0.0\n",
    "/home/dev/src/pricing-api/main.py":
        "from flask import Flask\napp = Flask(__name__)\n\n@app.get('/')\ndef index():\n    return 'pricing'\n",
    "/home/dev/src/pricing-api/Procfile": "web: gunicorn -b :$PORT main:app\n",
    "/home/dev/src/status-badge/go.mod": "module github.com/acme/status-badge\n\ngo 1.22\n",
    "/home/dev/src/status-badge/main.go": "package main\n\nfunc main() {}\n",
    "/home/dev/notes/README.md": "# Scratch notes\n\nNothing to deploy here.\n",
    "/home/dev/notes/todo.txt": "- rotate the search-api key\n",
}


def project_number(state: CloudRunState, project: str) -> str:
    p = state.projects.get(project)
    return p.project_number if p else "000000000000"


def uri_of(state: CloudRunState, project: str, region: str, service: str) -> str:
    return f"https://{service}-{project_number(state, project)}.{region}.run.app"


def log_uri(project: str, service: str, rev: str) -> str:
    return (f"https://console.cloud.google.com/logs/viewer?project={project}"
            f"&resource=cloud_run_revision/service_name/{service}/revision_name/{rev}")


def add_revision(state: CloudRunState, svc: CloudRunService, when: dt.datetime, who: str, *, image: str,
                 ready: bool = True, annotations: Optional[dict[str, str]] = None) -> Revision:
    """Add the next revision of ``svc`` (generation + 1) from its template with ``image``; a ready one
    becomes the latest ready revision."""
    number = 1
    if svc.latest_created_revision is not None:
        svc.generation += 1
        number = int(svc.latest_created_revision.rsplit("-", 2)[1]) + 1
    svc.template.image = image
    rid = revision_id(svc.project, svc.service, number)
    rev = Revision(name=f"{svc.name}/revisions/{rid}", revision=rid, service=svc.service, project=svc.project,
                   region=svc.region, generation=number, image=image, env=dict(svc.template.env),
                   min_instance_count=svc.template.min_instance_count,
                   max_instance_count=svc.template.max_instance_count, annotations=dict(annotations or {}),
                   ready=ready, create_time=when, log_uri=log_uri(svc.project, svc.service, rid))
    if not ready:
        rev.condition_reason, rev.condition_message = "HealthCheckContainerError", PROBE_FAILURE
    state.revisions[rev.name] = rev
    svc.latest_created_revision = rid
    if ready:
        svc.latest_ready_revision = rid
    svc.update_time, svc.last_modifier = when, who
    return rev


def new_service(state: CloudRunState, project: str, region: str, service: str, who: str, when: dt.datetime,
                env: dict[str, str], team: str = "") -> CloudRunService:
    """A new service at generation 1 serving LATEST at 100 % (add_revision gives it its first revision)."""
    name = service_name(project, region, service)
    svc = CloudRunService(
        name=name, service=service, project=project, region=region, uri=uri_of(state, project, region, service),
        labels={"team": team} if team else {}, creator=who, last_modifier=who, create_time=when, update_time=when,
        generation=1, template=Template(image="", env=env, service_account=f"{service}@{project}.iam.gserviceaccount.com"),
        traffic=[TrafficTarget(type=LATEST, percent=100)])
    state.services[name] = svc
    return svc


def image_of(project: str, region: str, app: str, version: str) -> str:
    return f"{region}-docker.pkg.dev/{project}/apps/{app}:{version}"


def build_state(rng: random.Random, today: dt.date, source: DeploymentsState) -> CloudRunState:
    """Projects, services and revisions for ``source``'s deploys, and the workstation."""
    state = CloudRunState()
    start = dt.datetime.combine(today, DAY_START)
    for pid, (label, number, env, billed) in PROJECTS.items():
        state.projects[pid] = GcpProject(project_id=pid, name=label, project_number=number,
                                         labels={"environment": env}, billing_account=BILLING if billed else None,
                                         billing_enabled=billed, create_time=start - dt.timedelta(days=900 - len(pid)))
    deploys = sorted(source.deployments.values(), key=lambda d: (d.created_at, d.id))
    for app in APPS:
        for project, env in ((PROD, "production"), (STAGING, "staging")):
            if env == "staging" and app.key not in STAGED:
                continue
            mine = [d for d in deploys if d.project_id == app.key and d.environment == env
                    and d.status in ("ready", "rolled_back")]
            if not mine:
                continue
            region = REGION_OF.get(app.key, DEFAULT_REGION) if project == PROD else DEFAULT_REGION
            envs = {"APP_ENV": env, "LOG_LEVEL": rng.choice(("info", "info", "warn")),
                    "VAULT_SECRET_PATH": f"secret/apps/{app.key}/database", "OTEL_SERVICE_NAME": app.key}
            svc = new_service(state, project, region, app.key, mine[0].created_by,
                              mine[0].created_at + dt.timedelta(minutes=4), envs, app.team)
            svc.description = app.name
            if project == PROD:
                svc.template.min_instance_count = rng.choice((1, 2))
                svc.template.max_instance_count = rng.choice((20, 50, 100))
            for d in mine:
                add_revision(state, svc, d.created_at + dt.timedelta(minutes=4), d.created_by,
                             image=image_of(project, region, app.key, d.version),
                             annotations={"deployment-id": d.id, "version": d.version, "commit-sha": d.commit_sha})
    _canary(state, start, rng)
    _failed_rollout(state, start)
    for path, content in WORKSTATION.items():
        state.local_files[path] = LocalFile(path=path, content=content)
    return state


def _canary(state: CloudRunState, start: dt.datetime, rng: random.Random) -> None:
    svc = state.services.get(service_name(PROD, DEFAULT_REGION, "web-frontend"))
    if svc is None or svc.latest_ready_revision is None:
        return
    stable = svc.latest_ready_revision
    who = team_engineers("storefront")[1].email
    major, minor, _ = state.revisions[f"{svc.name}/revisions/{stable}"].annotations.get("version", "v1.0.0")[1:].split(".")
    version = f"v{major}.{int(minor) + 1}.0-rc1"
    add_revision(state, svc, start - dt.timedelta(hours=rng.randint(15, 20)), who,
                 image=image_of(PROD, DEFAULT_REGION, "web-frontend", version), annotations={"version": version})
    svc.traffic = [TrafficTarget(type=PINNED, revision=stable, percent=90),
                   TrafficTarget(type=LATEST, percent=10, tag="canary")]


def _failed_rollout(state: CloudRunState, start: dt.datetime) -> None:
    svc = state.services.get(service_name(PROD, DEFAULT_REGION, "search-api"))
    if svc is None:
        return
    who = team_engineers("storefront")[0].email
    add_revision(state, svc, start - dt.timedelta(minutes=80), who, ready=False,
                 image=f"{DEFAULT_REGION}-docker.pkg.dev/{PROD}/apps/search-api:hotfix-index-warmup",
                 annotations={"version": "hotfix-index-warmup"})


def seed_for(seed: int, today: dt.date) -> CloudRunState:
    """The seeded state for ``seed``, on the deployment pipeline's seeded state for the same seed."""
    return build_state(random.Random(f"cloud_run:{seed}"), today, Deployments.seed_state(seed, today))
