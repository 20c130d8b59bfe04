"""Records and state of the ``cloud_run`` service (Cloud Run Admin API v2 and Resource Manager shapes).

Projects are Resource Manager projects with their billing link; services and
revisions are ``projects/{project}/locations/{region}/services/{service}``
and ``.../revisions/{revision}`` resources; the local workspace is the
developer machine the MCP server's ``deploy_local_*`` tools read from.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

from compoworld_gym.entities import DateTime, Email, FilePath, Id, Url
from compoworld_gym.service import Record, ServiceState

Ingress = Literal["INGRESS_TRAFFIC_ALL", "INGRESS_TRAFFIC_INTERNAL_ONLY", "INGRESS_TRAFFIC_INTERNAL_LOAD_BALANCER"]
TrafficType = Literal["TRAFFIC_TARGET_ALLOCATION_TYPE_LATEST", "TRAFFIC_TARGET_ALLOCATION_TYPE_REVISION"]
LATEST = "TRAFFIC_TARGET_ALLOCATION_TYPE_LATEST"
PINNED = "TRAFFIC_TARGET_ALLOCATION_TYPE_REVISION"
#: Cloud Run regions this organisation may deploy to (the organisation policy's resource locations).
REGIONS = ("europe-west1", "europe-west4", "us-central1", "us-east1")
#: Environment variables Cloud Run sets itself and refuses in a container spec.
RESERVED_ENV = ("PORT", "K_SERVICE", "K_REVISION", "K_CONFIGURATION")


class GcpProject(Record):
    """A Google Cloud project (Resource Manager) and its billing link."""

    project_id: str = Field(description="Globally unique project id, e.g. 'acme-prod'.")
    name: str = Field(description="Display name.")
    project_number: str = Field(description="12-digit project number.")
    labels: dict[str, str] = Field(default_factory=dict, description="Labels, e.g. environment=production.")
    billing_account: Optional[str] = Field(default=None, description="billingAccounts/XXXXXX-XXXXXX-XXXXXX linked.")
    billing_enabled: bool = Field(description="Whether billing is enabled (Cloud Run needs it).")
    state: Literal["ACTIVE", "DELETE_REQUESTED"] = Field(default="ACTIVE", description="Lifecycle state.")
    create_time: DateTime = Field(description="When the project was created.")


class TrafficTarget(Record):
    """One traffic allocation of a service: the latest ready revision or a pinned one."""

    type: TrafficType = Field(description="LATEST follows the newest ready revision; REVISION pins one.")
    revision: Optional[Id("cloud_run_revision")] = Field(default=None, description="Pinned revision (REVISION).")
    percent: int = Field(ge=0, le=100, description="Share of requests, 0-100.")
    tag: str = Field(default="", description="Traffic tag giving the target its own URL ('' for none).")


class Template(Record):
    """The revision template: what the next revision runs."""

    image: str = Field(description="Container image URL (Artifact Registry).")
    env: dict[str, str] = Field(default_factory=dict, description="Environment variables, name -> value.")
    min_instance_count: int = Field(default=0, ge=0, description="Instances kept warm.")
    max_instance_count: int = Field(default=100, ge=1, le=1000, description="Autoscaling ceiling.")
    cpu: str = Field(default="1", description="vCPU limit per instance.")
    memory: str = Field(default="512Mi", description="Memory limit per instance.")
    service_account: Email = Field(description="Runtime service account.")


class CloudRunService(Record):
    """A Cloud Run service."""

    name: str = Field(description="Resource name projects/{project}/locations/{region}/services/{service}.")
    service: Id("project") = Field(description="Service id, the same key as the deploy project, e.g. 'checkout-api'.")
    project: str = Field(description="GCP project id.")
    region: str = Field(description="Region, e.g. europe-west1.")
    uri: Url = Field(description="Main URL of the service.")
    description: str = Field(default="", description="Free-text description.")
    labels: dict[str, str] = Field(default_factory=dict, description="Labels, e.g. team=payments.")
    ingress: Ingress = Field(default="INGRESS_TRAFFIC_ALL", description="Who may reach the service.")
    creator: Email = Field(description="Who created the service.")
    last_modifier: Email = Field(description="Who last deployed or changed the service.")
    create_time: DateTime = Field(description="When created.")
    update_time: DateTime = Field(description="When last changed.")
    generation: int = Field(ge=1, description="Bumped on every change of the service spec.")
    template: Template = Field(description="Template of the next revision.")
    traffic: list[TrafficTarget] = Field(min_length=1, description="Traffic split; percents sum to 100.")
    latest_created_revision: Optional[Id("cloud_run_revision")] = Field(default=None, description="Newest revision.")
    latest_ready_revision: Optional[Id("cloud_run_revision")] = Field(
        default=None, description="Newest revision that became ready (what LATEST traffic serves).")


class Revision(Record):
    """An immutable revision of a service: one image and configuration."""

    name: str = Field(description="Resource name .../services/{service}/revisions/{revision}.")
    revision: Id("cloud_run_revision") = Field(description="Revision id, e.g. 'checkout-api-00004-kax'.")
    service: Id("project") = Field(description="The service it belongs to.")
    project: str = Field(description="GCP project id.")
    region: str = Field(description="Region.")
    generation: int = Field(ge=1, description="Revision number within its service (the 5 digits of its id).")
    image: str = Field(description="Container image URL.")
    env: dict[str, str] = Field(default_factory=dict, description="Environment variables it runs with.")
    min_instance_count: int = Field(default=0, ge=0, description="Instances kept warm.")
    max_instance_count: int = Field(default=100, ge=1, le=1000, description="Autoscaling ceiling.")
    annotations: dict[str, str] = Field(
        default_factory=dict, description="Annotations: deployment-id (the pipeline deploy), version, commit-sha.")
    ready: bool = Field(description="Whether it passed its startup checks and can serve.")
    condition_reason: str = Field(default="", description="Why it is not ready (e.g. HealthCheckContainerError).")
    condition_message: str = Field(default="", description="Readiness condition message.")
    create_time: DateTime = Field(description="When created.")
    log_uri: Url = Field(description="Cloud Logging link for its logs.")


class LocalFile(Record):
    """A file on the developer workstation the deploy_local_* tools read."""

    path: FilePath = Field(description="Absolute path, e.g. /home/dev/src/checkout-api/package.json.")
    content: str = Field(description="Text content.")


# A file of deploy_file_contents. No docstring: pydantic would put it into the tool schema.
class FileContent(BaseModel):
    model_config = ConfigDict(extra="forbid")
    filename: str = Field(min_length=1, max_length=300,
                          description='Name and path of the file (e.g. "src/index.js" or "data/config.json").')
    content: Optional[str] = Field(default=None, max_length=100_000, description="Text content of the file.")


# One target of update_traffic.
class TrafficIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    revision: Optional[str] = Field(default=None, description="Revision to pin; omit with latest=true.")
    latest: bool = Field(default=False, description="Send this share to the latest ready revision.")
    percent: int = Field(ge=0, le=100, description="Share of requests, 0-100.")
    tag: Optional[str] = Field(default=None, max_length=46, description="Optional traffic tag (own URL).")


class CloudRunState(ServiceState):
    """Projects, services, revisions and the local workspace."""

    projects: dict[str, GcpProject] = Field(default_factory=dict, description="Projects by project id.")
    services: dict[str, CloudRunService] = Field(default_factory=dict, description="Services by resource name.")
    revisions: dict[str, Revision] = Field(default_factory=dict, description="Revisions by resource name.")
    local_files: dict[str, LocalFile] = Field(default_factory=dict, description="Workstation files by path.")
