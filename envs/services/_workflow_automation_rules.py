"""Rules of the ``workflow_automation`` service (n8n): triggers, credentials, connections, retries.

n8n activates a workflow only when it has an enabled trigger, poller or
webhook node (the Manual Trigger and the Error Trigger do not count), and
every enabled node that needs a credential has one that exists. Node names
are unique in a workflow and connections join existing nodes. Only a failed
execution (status error or crashed) can be retried, once successfully: the
retry runs the workflow as it was (or, with ``load_workflow``, as it is now),
and fails again when the failing node's credential no longer exists.
"""

from __future__ import annotations

from typing import Any, Iterable, Optional

from compoworld_gym.envs.services._workflow_automation_models import Credential, CredentialRef, Node, NodeIn, Workflow
from compoworld_gym.errors import InvalidArgument, NotFound, Unprocessable

#: Start nodes that are not triggers: a workflow with only these cannot be activated.
NOT_TRIGGERS = frozenset({"n8n-nodes-base.manualTrigger", "n8n-nodes-base.errorTrigger",
                          "n8n-nodes-base.executeWorkflowTrigger"})
#: Start nodes whose type name does not end in "Trigger".
OTHER_TRIGGERS = frozenset({"n8n-nodes-base.webhook", "n8n-nodes-base.cron", "n8n-nodes-base.interval",
                            "n8n-nodes-base.emailReadImap", "n8n-nodes-base.rssFeedReadTrigger"})
#: Credential type each node type needs (nodes not listed need none).
NEEDS_CREDENTIAL = {
    "n8n-nodes-base.slack": "slackApi", "n8n-nodes-base.stripeTrigger": "stripeApi",
    "n8n-nodes-base.stripe": "stripeApi", "n8n-nodes-base.shopifyTrigger": "shopifyApi",
    "n8n-nodes-base.xero": "xeroOAuth2Api", "n8n-nodes-base.googleSheets": "googleSheetsOAuth2Api",
    "n8n-nodes-base.pagerDuty": "pagerDutyApi", "n8n-nodes-base.emailReadImap": "imap",
    "n8n-nodes-base.postgres": "postgres", "n8n-nodes-base.gmail": "gmailOAuth2",
    "n8n-nodes-base.twilio": "twilioApi", "n8n-nodes-base.hubspot": "hubspotApi",
}


def is_trigger(node: Node) -> bool:
    """Whether an enabled node starts the workflow by itself (trigger, poller or webhook)."""
    if node.disabled or node.type in NOT_TRIGGERS:
        return False
    return node.type.endswith("Trigger") or node.type in OTHER_TRIGGERS


def check_activatable(wf: Workflow, credentials: dict[str, Credential]) -> None:
    """Refuse to activate a workflow n8n would not activate.

    Raises:
        Unprocessable: 422, no trigger node, or an enabled node's credential is missing.
    """
    if not any(is_trigger(n) for n in wf.nodes):
        raise Unprocessable(f"workflow {wf.id} has no node to start the workflow: at least one trigger, poller or "
                            "webhook node is required (a Manual Trigger does not count).")
    for node in wf.nodes:
        need = NEEDS_CREDENTIAL.get(node.type)
        if node.disabled or need is None:
            continue
        ref = node.credentials.get(need)
        if ref is None:
            raise Unprocessable(f"node {node.name!r} has no {need} credential set; set one before activating.")
        if ref.id not in credentials:
            raise Unprocessable(f"node {node.name!r}: credential with id {ref.id} does not exist for type {need}.")


def check_graph(names: list[str], connections: dict[str, Any]) -> None:
    """Node names are unique and connections join existing nodes.

    Raises:
        InvalidArgument: 400, a repeated node name or a connection to or from an unknown node.
    """
    seen = set()
    for n in names:
        if n in seen:
            raise InvalidArgument(f"two nodes are named {n!r}; node names must be unique.")
        seen.add(n)
    for source, outputs in connections.items():
        if source not in seen:
            raise InvalidArgument(f"connections start from unknown node {source!r}.")
        if not isinstance(outputs, dict):
            raise InvalidArgument(f"connections of {source!r} must be an object like {{'main': [[...]]}}.")
        for branches in outputs.values():
            for branch in branches if isinstance(branches, list) else [branches]:
                for link in branch if isinstance(branch, list) else [branch]:
                    target = link.get("node") if isinstance(link, dict) else None
                    if target not in seen:
                        raise InvalidArgument(f"a connection from {source!r} goes to unknown node {target!r}.")


def chain(names: Iterable[str]) -> dict[str, Any]:
    """The connections of nodes run one after another, in ``names`` order."""
    names = list(names)
    return {a: {"main": [[{"node": b, "type": "main", "index": 0}]]} for a, b in zip(names, names[1:])}


def retry_failure(current: Optional[Workflow], node: str, snapshot_credential: Optional[str],
                  credentials: dict[str, Credential], load_workflow: bool) -> Optional[str]:
    """The error message a retry fails with, or None when it succeeds.

    Args:
        current: the workflow as saved now.
        node: the node that failed.
        snapshot_credential: the credential that node used when it failed (credential errors only).
        credentials: the credentials that exist now.
        load_workflow: retry the saved workflow (True) or the one the execution ran (False).
    """
    cred = snapshot_credential
    if load_workflow and current is not None:
        n = next((x for x in current.nodes if x.name == node), None)
        need = NEEDS_CREDENTIAL.get(n.type) if n and not n.disabled else None
        if need and need not in n.credentials:
            return f"Node '{node}' has no {need} credentials set."
        cred = n.credentials[need].id if need else None
    if cred is not None and cred not in credentials:
        return f"Credential with ID {cred} does not exist."
    return None


def build_nodes(nodes: list[NodeIn], credentials: dict[str, Credential]) -> list[Node]:
    """The stored nodes of ``nodes``, each credential resolved by id, or by name within its type.

    Raises:
        NotFound: 404, an unknown credential id or name.
        InvalidArgument: 400, a credential of another type, or a name several credentials share.
    """
    out = []
    for k, n in enumerate(nodes, start=1):
        refs = {}
        for ctype, ref in n.credentials.items():
            if ref.id is not None:
                if ref.id not in credentials:
                    raise NotFound(f"credential {ref.id!r} not found; call list_credentials.")
                cred = credentials[ref.id]
            else:
                hits = [c for c in credentials.values() if c.type == ctype and c.name == ref.name]
                if not hits:
                    raise NotFound(f"no {ctype} credential named {ref.name!r}; call list_credentials.")
                if len(hits) > 1:
                    raise InvalidArgument(f"{len(hits)} {ctype} credentials are named {ref.name!r}; give its id.")
                cred = hits[0]
            if cred.type != ctype:
                raise InvalidArgument(f"credential {cred.id} is of type {cred.type}, not {ctype}.")
            refs[ctype] = CredentialRef(id=cred.id, name=cred.name)
        out.append(Node(id=f"n{k}", name=n.name, type=n.type, type_version=n.type_version, position=list(n.position),
                        parameters=n.parameters, credentials=refs, disabled=n.disabled))
    return out
