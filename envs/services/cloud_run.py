"""Cloud Run: GCP projects, Cloud Run services, their revisions, traffic splits and source deploys.

Follows the MCP server ``@GoogleCloudPlatform_cloud-run-mcp`` (all 7 of its
tools, with their parameter names: ``list_projects``, ``create_project``,
``list_services``, ``get_service``, ``deploy_local_files``,
``deploy_local_folder``, ``deploy_file_contents``). The other tools
(``designed_tools``) are Cloud Run Admin API v2 operations the MCP server
does not wrap: ``projects.locations.services.revisions.list/get/delete``,
``services.patch`` of ``traffic`` (the split between revisions, with tags),
of ``template.containers[0].env`` and of ``template.scaling``, and
``services.delete``. Field names follow the v2 ``Service`` and ``Revision``
resources (``latestReadyRevision``, ``latestCreatedRevision``, ``traffic``
with ``TRAFFIC_TARGET_ALLOCATION_TYPE_LATEST``/``_REVISION``, ``creator``,
``lastModifier``, ``generation``), in snake_case.

Rules of the real product: a deploy builds the upload with buildpacks (a
Dockerfile or a language manifest at its root, else the build fails) and
creates a new revision; a new service serves its latest revision, an existing
one keeps its traffic split (LATEST targets follow the new revision, pinned
ones stay); deploying needs billing on the project; names follow Resource
Manager and Cloud Run rules; a change to env vars or scaling makes a new
revision from the service's template (an image whose revision failed its
startup probe fails again); a split names ready revisions of the service
once each and sums to 100; a revision that serves traffic or is pinned in
the split cannot be deleted; PORT and the K_* variables are reserved.
Departures: builds finish at once (no long-running operations), IAM,
domain mappings, jobs and logs are left out; the local files the
``deploy_local_*`` tools read are the seeded developer workstation.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
import re
from typing import Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.envs.services._cloud_run_models import (
    LATEST, PINNED, RESERVED_ENV, CloudRunService, CloudRunState, FileContent, GcpProject, Revision, TrafficIn,
)
from compoworld_gym.envs.services._cloud_run_rules import (
    check_project_id, check_region, check_service_name, common_folder, detect_runtime, plan_traffic, serving,
    service_name,
)
from compoworld_gym.envs.services._cloud_run_seed import (
    BILLING, DEFAULT_REGION, add_revision, build_state, new_service, seed_for,
)
from compoworld_gym.envs.services._company import OPS_EMAIL
from compoworld_gym.envs.services.deployments import Deployments
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

Region = str
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
#: The identity the MCP server's credentials act as.
ACTOR = OPS_EMAIL


class CloudRun(Service):
    """Cloud Run deployment server: projects, services, revisions and traffic."""

    name = "cloud_run"
    description = ("Google Cloud Run: GCP projects, Cloud Run services with their revisions and traffic split, "
                   "source deploys from local files, env vars and scaling.")
    domain = "devops"
    spec_source = "@GoogleCloudPlatform_cloud-run-mcp"
    designed_tools = frozenset({"list_revisions", "get_revision", "delete_revision", "update_traffic",
                                "update_environment_variables", "update_scaling", "delete_service"})
    State = CloudRunState

    # ---------------------------------------------------------------- helpers
    def _project(self, project: str) -> GcpProject:
        return self.lookup(self.state.projects, project, "project")

    def _service(self, project: str, region: str, service: str) -> CloudRunService:
        self._project(project)
        check_region(region)
        name = service_name(project, region, service)
        if name not in self.state.services:
            raise NotFound(f"service {service!r} not found in project {project}, region {region}; "
                           "call list_services.")
        return self.state.services[name]

    def _revisions(self, svc: CloudRunService) -> list[Revision]:
        return sorted((r for r in self.state.revisions.values() if r.name.startswith(svc.name + "/revisions/")),
                      key=lambda r: r.generation, reverse=True)

    def _revision(self, svc: CloudRunService, revision: str) -> Revision:
        rev = self.state.revisions.get(f"{svc.name}/revisions/{revision}")
        if rev is None:
            raise NotFound(f"revision {revision!r} not found in service {svc.service}; call list_revisions.")
        return rev

    def _view(self, svc: CloudRunService) -> dict:
        split = serving(svc.traffic, svc.latest_ready_revision)
        statuses = [{"type": t.type, "revision": svc.latest_ready_revision if t.type == LATEST else t.revision,
                     "percent": t.percent, "tag": t.tag,
                     "uri": svc.uri.replace("https://", f"https://{t.tag}---") if t.tag else ""}
                    for t in svc.traffic]
        return {**svc.model_dump(), "traffic_statuses": statuses, "serving_revisions": split}

    def _rev_view(self, svc: CloudRunService, rev: Revision) -> dict:
        return {**rev.model_dump(), "traffic_percent": serving(svc.traffic, svc.latest_ready_revision)
                .get(rev.revision, 0)}

    def _deployable(self, project: str, region: str, service: str) -> None:
        p = self._project(project)
        check_region(region)
        check_service_name(service)
        if not p.billing_enabled:
            raise Unprocessable(f"billing is not enabled on project {project}; Cloud Run needs a linked billing "
                                "account before anything can be deployed.")

    def _deploy(self, project: str, region: str, service: str, names: list[str], origin: str) -> dict:
        runtime = detect_runtime(names)
        name = service_name(project, region, service)
        now = self.now()
        svc = self.state.services.get(name)
        if svc is None:
            svc = new_service(self.state, project, region, service, ACTOR, now,
                              {"APP_ENV": self.state.projects[project].labels.get("environment", "development")})
        image = f"{region}-docker.pkg.dev/{project}/cloud-run-source-deploy/{service}:{now:%Y%m%d-%H%M%S}"
        rev = add_revision(self.state, svc, now, ACTOR, image=image, annotations={"source": origin,
                                                                                  "runtime": runtime})
        return {"service": self._view(svc), "revision": rev.revision, "runtime": runtime, "uri": svc.uri,
                "files_uploaded": len(names)}

    def _new_revision(self, svc: CloudRunService) -> Revision:
        broken = any(not r.ready and r.image == svc.template.image for r in self._revisions(svc))
        return add_revision(self.state, svc, self.now(), ACTOR, image=svc.template.image, ready=not broken,
                            annotations={"change": "configuration"})

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[GcpProject])
    def list_projects(self) -> list[dict]:
        """List the GCP projects these credentials can see, with labels and billing status."""
        return [p.model_dump() for p in self.state.projects.values() if p.state == "ACTIVE"]

    @tool(read_only=True, returns=list[CloudRunService])
    def list_services(self, project: str, region: Region = DEFAULT_REGION) -> list[dict]:
        """List the Cloud Run services of a project in one region.

        Args:
            project: Google Cloud project id, e.g. acme-prod.
            region: region of the services (default europe-west1).
        """
        self._project(project)
        check_region(region)
        return [{k: v for k, v in self._view(s).items() if k not in ("template", "traffic_statuses")}
                for s in self.state.services.values() if s.project == project and s.region == region]

    @tool(read_only=True, returns=CloudRunService)
    def get_service(self, project: str, service: str, region: Region = DEFAULT_REGION) -> dict:
        """Get one Cloud Run service: URL, template (image, env, scaling), traffic split and revisions.

        Args:
            project: Google Cloud project id containing the service.
            region: region of the service (default europe-west1).
            service: name of the Cloud Run service, e.g. checkout-api.
        """
        return self._view(self._service(project, region, service))

    @tool(read_only=True, returns=list[Revision])
    def list_revisions(self, project: str, service: str, region: Region = DEFAULT_REGION) -> list[dict]:
        """List a service's revisions, newest first, with the share of traffic each serves.

        Args:
            project: Google Cloud project id.
            service: the service name.
            region: region of the service (default europe-west1).
        """
        svc = self._service(project, region, service)
        return [self._rev_view(svc, r) for r in self._revisions(svc)]

    @tool(read_only=True, returns=Revision)
    def get_revision(self, project: str, service: str, revision: str, region: Region = DEFAULT_REGION) -> dict:
        """Get one revision: image, env, readiness, annotations (the pipeline deploy) and traffic share.

        Args:
            project: Google Cloud project id.
            service: the service name.
            revision: the revision id, e.g. checkout-api-00002-xqm.
            region: region of the service (default europe-west1).
        """
        svc = self._service(project, region, service)
        return self._rev_view(svc, self._revision(svc, revision))

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=GcpProject)
    def create_project(self, projectId: Optional[str] = Field(default=None, max_length=30)) -> dict:  # noqa: N803
        """Create a GCP project and link it to the first open billing account.

        Args:
            projectId: the new project's id (6-30 lowercase letters, digits, hyphens); generated if omitted.
        """
        pid = check_project_id(projectId) if projectId else f"mcp-{self.new_id('PRJ').split('-')[1]}-run"
        if pid in self.state.projects:
            raise Conflict(f"project id {pid} is already taken; project ids are globally unique.")
        number = str(10**11 + int(hashlib.sha1(pid.encode()).hexdigest()[:12], 16) % (9 * 10**11))
        p = GcpProject(project_id=pid, name=pid, project_number=number, billing_account=BILLING,
                       billing_enabled=True, create_time=self.now())
        self.state.projects[pid] = p
        return p.model_dump()

    @tool(read_only=False)
    def deploy_local_files(self, project: str, files: list[str] = Field(min_length=1, max_length=200),
                           region: Region = DEFAULT_REGION, service: str = "app") -> dict:
        """Deploy files from the local workstation to a Cloud Run service (created if new) as a new revision.

        Args:
            project: Google Cloud project id; the user must give or confirm it.
            files: absolute paths of the files, e.g. ["/home/dev/src/app/package.json", "/home/dev/src/app/index.js"].
            region: region to deploy to (default europe-west1).
            service: the Cloud Run service to deploy to (default app).
        """
        self._deployable(project, region, service)
        paths = list(dict.fromkeys(files))
        rel = [p for p in paths if not p.startswith("/")]
        if rel:
            raise InvalidArgument(f"file paths must be absolute; got {rel[0]!r}.")
        missing = [p for p in paths if p not in self.state.local_files]
        if missing:
            raise NotFound(f"no such file on the workstation: {missing[0]}.")
        root = common_folder(paths)
        return self._deploy(project, region, service, [p[len(root):] for p in paths], "local-files")

    @tool(read_only=False)
    def deploy_local_folder(self, project: str, folderPath: str = Field(min_length=1, max_length=500),  # noqa: N803
                            region: Region = DEFAULT_REGION, service: str = "app") -> dict:
        """Deploy a whole folder of the local workstation to a Cloud Run service as a new revision.

        Args:
            project: Google Cloud project id; the user must give or confirm it.
            folderPath: absolute path of the folder, e.g. /home/dev/src/pricing-api.
            region: region to deploy to (default europe-west1).
            service: the Cloud Run service to deploy to (default app).
        """
        self._deployable(project, region, service)
        if not folderPath.startswith("/"):
            raise InvalidArgument(f"folderPath must be absolute; got {folderPath!r}.")
        root = folderPath.rstrip("/") + "/"
        names = [p[len(root):] for p in self.state.local_files if p.startswith(root)]
        if not names:
            raise NotFound(f"no such folder (or it is empty) on the workstation: {folderPath}.")
        return self._deploy(project, region, service, names, "local-folder")

    @tool(read_only=False)
    def deploy_file_contents(self, project: str, files: list[FileContent] = Field(min_length=1, max_length=100),
                             region: Region = DEFAULT_REGION, service: str = "app") -> dict:
        """Deploy files given by their contents (filename and text) to a Cloud Run service as a new revision.

        Args:
            project: Google Cloud project id; the user must confirm it.
            files: the files, each {"filename": "src/index.js", "content": "..."}; paths relative to the app root.
            region: region to deploy to (default europe-west1).
            service: the Cloud Run service to deploy to (default app).
        """
        self._deployable(project, region, service)
        names = [f.filename.strip() for f in files]
        bad = [n for n in names if n.startswith("/") or ".." in n.split("/") or not n]
        if bad:
            raise InvalidArgument(f"filename {bad[0]!r} must be a relative path inside the app.")
        if len(set(names)) != len(names):
            raise InvalidArgument("two files have the same filename.")
        return self._deploy(project, region, service, names, "file-contents")

    @tool(read_only=False, returns=CloudRunService)
    def update_traffic(self, project: str, service: str, traffic: list[TrafficIn] = Field(min_length=1, max_length=8),
                       region: Region = DEFAULT_REGION) -> dict:
        """Set a service's traffic split between revisions (and the latest ready revision); percents sum to 100.

        Args:
            project: Google Cloud project id.
            service: the service name.
            traffic: targets, each {"revision": id} or {"latest": true}, with "percent" and an optional "tag";
                e.g. [{"revision": "checkout-api-00002-xqm", "percent": 100}] rolls back to that revision.
            region: region of the service (default europe-west1).
        """
        svc = self._service(project, region, service)
        split = plan_traffic(traffic, {r.revision: r.ready for r in self._revisions(svc)}, service)
        if any(t.type == LATEST and t.percent for t in split) and svc.latest_ready_revision is None:
            raise Unprocessable(f"service {service} has no ready revision for the latest target.")
        if [t.model_dump() for t in split] == [t.model_dump() for t in svc.traffic]:
            raise Conflict(f"service {service} already has this traffic split.")
        svc.traffic, svc.generation = split, svc.generation + 1
        svc.update_time, svc.last_modifier = self.now(), ACTOR
        return self._view(svc)

    @tool(read_only=False, returns=Revision)
    def update_environment_variables(self, project: str, service: str,
                                     set_env: Optional[dict[str, str]] = None,
                                     remove_env: Optional[list[str]] = None,
                                     region: Region = DEFAULT_REGION) -> dict:
        """Set or remove environment variables of a service; this deploys a new revision with them.

        Args:
            project: Google Cloud project id.
            service: the service name.
            set_env: variables to set, name -> value, e.g. {"LOG_LEVEL": "debug"}.
            remove_env: names of variables to remove.
            region: region of the service (default europe-west1).
        """
        svc = self._service(project, region, service)
        set_env, remove_env = set_env or {}, remove_env or []
        if not set_env and not remove_env:
            raise InvalidArgument("give set_env or remove_env.")
        for key in [*set_env, *remove_env]:
            if not _ENV_NAME.match(key):
                raise InvalidArgument(f"{key!r} is not a valid environment variable name.")
            if key in RESERVED_ENV:
                raise InvalidArgument(f"{key} is reserved: Cloud Run sets it itself.")
        if set(set_env) & set(remove_env):
            raise InvalidArgument("a variable cannot be both set and removed.")
        unknown = [k for k in remove_env if k not in svc.template.env]
        if unknown:
            raise NotFound(f"service {service} has no environment variable {unknown[0]}.")
        env = {k: v for k, v in {**svc.template.env, **set_env}.items() if k not in remove_env}
        if env == svc.template.env:
            raise Conflict(f"service {service} already has these environment variables.")
        svc.template.env = env
        return self._rev_view(svc, self._new_revision(svc))

    @tool(read_only=False, returns=Revision)
    def update_scaling(self, project: str, service: str, min_instance_count: int = Field(ge=0, le=1000),
                       max_instance_count: int = Field(ge=1, le=1000), region: Region = DEFAULT_REGION) -> dict:
        """Set a service's minimum and maximum instances; this deploys a new revision with them.

        Args:
            project: Google Cloud project id.
            service: the service name.
            min_instance_count: instances kept warm (0-1000).
            max_instance_count: autoscaling ceiling (1-1000), at least min_instance_count.
            region: region of the service (default europe-west1).
        """
        svc = self._service(project, region, service)
        if min_instance_count > max_instance_count:
            raise InvalidArgument(f"min_instance_count {min_instance_count} exceeds max_instance_count "
                                  f"{max_instance_count}.")
        t = svc.template
        if (t.min_instance_count, t.max_instance_count) == (min_instance_count, max_instance_count):
            raise Conflict(f"service {service} already scales {min_instance_count}-{max_instance_count}.")
        t.min_instance_count, t.max_instance_count = min_instance_count, max_instance_count
        return self._rev_view(svc, self._new_revision(svc))

    @tool(read_only=False, destructive=True, returns=Revision)
    def delete_revision(self, project: str, service: str, revision: str, region: Region = DEFAULT_REGION) -> dict:
        """Delete a revision that serves no traffic and is not pinned in the traffic split.

        Args:
            project: Google Cloud project id.
            service: the service name.
            revision: the revision id.
            region: region of the service (default europe-west1).
        """
        svc = self._service(project, region, service)
        rev = self._revision(svc, revision)
        if serving(svc.traffic, svc.latest_ready_revision).get(revision) or any(
                t.type == PINNED and t.revision == revision for t in svc.traffic):
            raise Conflict(f"revision {revision} is serving traffic or pinned in the split; move its traffic first.")
        if revision == svc.latest_created_revision:
            raise Conflict(f"revision {revision} is the service's latest revision and cannot be deleted.")
        del self.state.revisions[rev.name]
        return rev.model_dump()

    @tool(read_only=False, destructive=True)
    def delete_service(self, project: str, service: str, region: Region = DEFAULT_REGION) -> dict:
        """Delete a Cloud Run service and all its revisions.

        Args:
            project: Google Cloud project id.
            service: the service name.
            region: region of the service (default europe-west1).
        """
        svc = self._service(project, region, service)
        gone = [r.revision for r in self._revisions(svc)]
        for r in self._revisions(svc):
            del self.state.revisions[r.name]
        del self.state.services[svc.name]
        return {"deleted": svc.name, "revisions_deleted": gone}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def seed_state(cls, seed: int, today: dt.date) -> CloudRunState:
        """Seeded state on the deployment pipeline's deploys for the same seed."""
        return seed_for(seed, today)

    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> CloudRunState:
        return build_state(rng, today, Deployments.build_seed_state(fake, rng, today))

