"""Rules of the ``cloud_run`` service: names, revision naming, source builds and traffic splits.

Project ids follow Resource Manager (6-30 characters, lowercase letters,
digits and hyphens, starting with a letter, not ending with a hyphen);
service names follow Cloud Run (up to 49 characters, same alphabet).
Revisions are named ``{service}-{generation:05d}-{3 letters}`` as Cloud Run
names them. A source deploy is built by Google Cloud's buildpacks, which need
a Dockerfile or a language manifest to detect the runtime. A traffic split
names each revision once, its percents sum to 100 and at most one target
follows the latest revision.
"""

from __future__ import annotations

import hashlib
import re
from typing import Iterable

from compoworld_gym.envs.services._cloud_run_models import LATEST, PINNED, REGIONS, TrafficIn, TrafficTarget
from compoworld_gym.errors import InvalidArgument, NotFound, Unprocessable

_PROJECT = re.compile(r"^[a-z][a-z0-9-]{4,28}[a-z0-9]$")
_SERVICE = re.compile(r"^[a-z]([a-z0-9-]{0,47}[a-z0-9])?$")
_TAG = re.compile(r"^[a-z]([a-z0-9-]{0,44}[a-z0-9])?$")
#: (file that gives the runtime away, buildpack runtime), in detection order.
BUILDPACKS = (("Dockerfile", "dockerfile"), ("package.json", "nodejs"), ("requirements.txt", "python"),
              ("pyproject.toml", "python"), ("go.mod", "go"), ("pom.xml", "java"), ("Gemfile", "ruby"))


def check_project_id(project_id: str) -> str:
    """A valid new project id.

    Raises:
        InvalidArgument: 400, not 6-30 lowercase letters, digits or hyphens starting with a letter.
    """
    if not _PROJECT.match(project_id) or "--" in project_id:
        raise InvalidArgument(f"project id {project_id!r} must be 6-30 lowercase letters, digits or hyphens, "
                              "start with a letter and not end with a hyphen.")
    return project_id


def check_service_name(service: str) -> str:
    """A valid Cloud Run service name.

    Raises:
        InvalidArgument: 400, not a DNS-style name of up to 49 characters.
    """
    if not _SERVICE.match(service):
        raise InvalidArgument(f"service name {service!r} must be up to 49 lowercase letters, digits or hyphens, "
                              "start with a letter and not end with a hyphen.")
    return service


def check_region(region: str) -> str:
    """A region this organisation deploys to.

    Raises:
        InvalidArgument: 400, another region.
    """
    if region not in REGIONS:
        raise InvalidArgument(f"region {region!r} is not allowed by the organisation policy; "
                              f"use one of {', '.join(REGIONS)}.")
    return region


def service_name(project: str, region: str, service: str) -> str:
    """The service's resource name."""
    return f"projects/{project}/locations/{region}/services/{service}"


def revision_id(project: str, service: str, generation: int) -> str:
    """The revision id Cloud Run gives generation ``generation`` of ``service``."""
    digest = hashlib.sha1(f"{project}/{service}/{generation}".encode()).digest()
    suffix = "".join(chr(ord("a") + b % 26) for b in digest[:3])
    return f"{service}-{generation:05d}-{suffix}"


def detect_runtime(filenames: Iterable[str]) -> str:
    """The buildpack runtime of a source upload (file names relative to its root).

    Raises:
        Unprocessable: 422, no Dockerfile or language manifest at the root.
    """
    root = {f.strip("/") for f in filenames if "/" not in f.strip("/")}
    for marker, runtime in BUILDPACKS:
        if marker in root:
            return runtime
    raise Unprocessable("build failed: no buildpack group passed detection; the upload needs a Dockerfile or a "
                        "manifest (package.json, requirements.txt, pyproject.toml, go.mod, pom.xml, Gemfile) "
                        "at its root.")


def plan_traffic(targets: list[TrafficIn], revisions: dict[str, bool], service: str) -> list[TrafficTarget]:
    """The traffic split ``targets`` as the service will hold it.

    Args:
        targets: the requested split.
        revisions: ``{revision id: ready}`` of the service's revisions.
        service: the service id, for messages.

    Raises:
        InvalidArgument: 400, a target both latest and pinned (or neither), a revision or tag named twice,
            two latest targets, a bad tag, or percents not summing to 100.
        NotFound: 404, a revision of another service or none.
        Unprocessable: 422, a pinned revision that is not ready.
    """
    out, seen, tags = [], set(), set()
    for t in targets:
        if t.latest == (t.revision is not None):
            raise InvalidArgument("each traffic target gives either revision or latest=true.")
        key = LATEST if t.latest else t.revision
        if key in seen:
            raise InvalidArgument(f"traffic names {'the latest revision' if t.latest else t.revision} twice.")
        seen.add(key)
        if t.tag:
            if not _TAG.match(t.tag) or t.tag in tags:
                raise InvalidArgument(f"tag {t.tag!r} must be a unique lowercase DNS label.")
            tags.add(t.tag)
        if not t.latest:
            if t.revision not in revisions:
                raise NotFound(f"revision {t.revision!r} is not a revision of service {service}; "
                               "call list_revisions.")
            if not revisions[t.revision]:
                raise Unprocessable(f"revision {t.revision} is not ready and cannot receive traffic.")
        out.append(TrafficTarget(type=LATEST if t.latest else PINNED, revision=None if t.latest else t.revision,
                                 percent=t.percent, tag=t.tag or ""))
    total = sum(t.percent for t in out)
    if total != 100:
        raise InvalidArgument(f"traffic percents sum to {total}; they must sum to 100.")
    return out


def serving(traffic: list[TrafficTarget], latest_ready: str | None) -> dict[str, int]:
    """``{revision id: percent}`` the split sends to each revision (LATEST resolved)."""
    out: dict[str, int] = {}
    for t in traffic:
        rev = latest_ready if t.type == LATEST else t.revision
        if rev and t.percent:
            out[rev] = out.get(rev, 0) + t.percent
    return out


def common_folder(paths: list[str]) -> str:
    """The deepest folder holding every path, with a trailing slash (the root of a file upload)."""
    parts = [p.split("/")[:-1] for p in paths]
    common = []
    for level in zip(*parts):
        if len(set(level)) != 1:
            break
        common.append(level[0])
    return "/".join(common) + "/"
