"""The resource engine on seeded collections: name keys, actions, upserts,
the outside-world classifier and the deterministic share of the real specs."""

from __future__ import annotations

import datetime as dt

import pytest

from compoworld_gym.importer import build_service, import_specs, load_jsonl
from compoworld_gym.importer.outside import outside_world_reason
from compoworld_gym.importer.specs import server_from_json
from compoworld_gym.specs import SPECS_PATH as SPECS

TODAY = dt.date(2026, 1, 15)


def _tool(name: str, description: str, props: dict, required: list[str] = ()) -> dict:
    return {"name": name, "description": description,
            "inputSchema": {"type": "object", "properties": props, "required": list(required)}}


S, I = {"type": "string"}, {"type": "integer"}
CODE_HOST = {
    "server": "Code Host", "slug": "@demo_code-host", "category": "Development Tools",
    "tools": [
        _tool("get_user", "Get a user by username.", {"username": S}, ["username"]),
        _tool("list_users", "List users.", {"limit": I}),
        _tool("list_repos", "List the repositories of an owner.", {"owner": S, "page": I}),
        _tool("get_repo", "Get a repository.", {"owner": S, "repo": S}, ["owner", "repo"]),
        _tool("update_repo", "Change a repository's description.",
              {"owner": S, "repo": S, "description": S, "stars": I}, ["owner", "repo"]),
        _tool("archive_repo", "Archive a repository.", {"owner": S, "repo": S}, ["owner", "repo"]),
        _tool("count_repos", "Count the repositories of an owner.", {"owner": S}),
        _tool("write_file", "Write a file.", {"path": S, "content": S}, ["path", "content"]),
        _tool("read_file", "Read a file.", {"path": S}, ["path"]),
        _tool("list_files", "List the files under a directory.", {"path": S}),
        _tool("list_departments", "List the museum's departments.", {}),
        _tool("search_museum_objects", "Search the museum's objects.",
              {"q": S, "departmentId": I, "hasImages": {"type": "boolean"}, "title": {"type": "boolean"}}, ["q"]),
        _tool("list_indexes", "List the search indexes.", {}),
        _tool("get_index", "Get an index.", {"indexUid": S}, ["indexUid"]),
        _tool("update_index", "Change an index's primary key.", {"indexUid": S, "primaryKey": S},
              ["indexUid", "primaryKey"]),
        _tool("get_museum_object", "Get a museum object by id.", {"objectId": {"type": "number"}}, ["objectId"]),
        # Tools that need the outside world: they must stay simulated.
        _tool("web_search", "Search the web for pages.", {"query": S}, ["query"]),
        _tool("get_weather", "Current weather for a city.", {"city": S}, ["city"]),
        _tool("get_stock_price", "Latest stock price of a symbol.", {"symbol": S}, ["symbol"]),
        _tool("fetch_page", "Fetch a page.", {"url": S}, ["url"]),
        _tool("browser_click", "Click an element.", {"selector": S}, ["selector"]),
        _tool("execute_command", "Run a shell command.", {"command": S}, ["command"]),
        _tool("generate_image", "Generate an image from a prompt with an AI model.", {"prompt": S}, ["prompt"]),
    ],
}
OUTSIDE = {"web_search": "web_search", "get_weather": "weather", "get_stock_price": "market_prices",
           "fetch_page": "web_content", "browser_click": "browser", "execute_command": "desktop_shell",
           "generate_image": "llm_generation"}


@pytest.fixture(scope="module")
def host_cls():
    return build_service(server_from_json(CODE_HOST), "demo_code_host")


@pytest.fixture
def svc(host_cls):
    return host_cls(host_cls.seed_state(11, TODAY), today=TODAY)


def test_outside_world_tools_stay_simulated(host_cls):
    sim = {n for n, t in host_cls.tools.items() if t.simulated}
    assert sim == set(OUTSIDE)
    assert {n: host_cls.simulated_reasons[n] for n in OUTSIDE} == OUTSIDE
    assert host_cls.collections["repo"].seeded and host_cls.collections["repo"].unique == [("owner", "repo")]


def test_classifier_reasons():
    assert outside_world_reason("web_search_exa", "Search the web using Exa AI") == "web_search"
    assert outside_world_reason("get-forecast", "Get weather forecast for a location") == "weather"
    assert outside_world_reason("get-ticker", "Get current ticker information for a trading pair") == "market_prices"
    assert outside_world_reason("scrape_as_markdown", "", {"required": ["url"]}) == "web_content"
    assert outside_world_reason("scraping_browser_links", "Get all links on the current page") == "browser"
    assert outside_world_reason("run_query", "", {"required": ["sql"]}) == "code_execution"
    assert outside_world_reason("get_route_directions", "Driving directions") == "maps"
    # Records stay with the engine, a stored URL included.
    assert outside_world_reason("create_bookmark", "Save a bookmark.", {"required": ["url"]}) is None
    assert outside_world_reason("get_issue", "Get an issue by its number.", {"required": ["issue_number"]}) is None
    assert outside_world_reason("update_product", "Update a product's price.", {"required": ["id"]}) is None


def test_seeded_records_list_and_get_agree(host_cls, svc):
    users = svc.call("list_users", {})["data"]
    assert 2 <= len(users) <= 4 and all(u["username"] for u in users)
    first = users[0]
    assert svc.call("get_user", {"username": first["username"]})["data"] == first
    assert svc.call("get_user", {"username": first["username"].upper()})["data"] == first  # case-insensitive
    missing = svc.call("get_user", {"username": "no-such-user-x"})
    assert missing["error"]["code"] == 404 and "username='no-such-user-x'" in missing["error"]["message"]
    objects = svc.call("search_museum_objects", {"q": ""})["data"]
    obj = objects[0]
    assert svc.call("get_museum_object", {"objectId": float(obj["id"])})["data"] == obj
    departments = {d["id"] for d in svc.call("list_departments", {})["data"]}
    assert objects and all(o["departmentId"] in departments for o in objects)  # integer ids: references resolve
    word = obj["name"].split()[0]
    assert obj in svc.call("search_museum_objects", {"q": word, "title": True})["data"]
    assert "title" not in obj  # a search-scope flag is not a record field
    assert host_cls.seed_state(11, TODAY) == svc.state  # same seed, same records
    assert host_cls.seed_state(12, TODAY) != svc.state


def test_name_keyed_repo_update_action_and_count(svc):
    repos = svc.call("list_repos", {})["data"]
    owner, name = repos[0]["owner"], repos[0]["repo"]
    got = svc.call("get_repo", {"owner": owner, "repo": name})["data"]
    assert got == repos[0]
    assert svc.call("list_repos", {"owner": owner})["data"][0] == got
    n = sum(r["owner"].casefold() == owner.casefold() for r in repos)
    assert svc.call("count_repos", {"owner": owner})["data"] == {"count": n}
    changed = svc.call("update_repo", {"owner": owner, "repo": name, "description": "Mirror of upstream"})
    assert changed["data"]["description"] == "Mirror of upstream" and changed["data"]["id"] == got["id"]
    assert svc.call("get_repo", {"owner": owner, "repo": name})["data"]["description"] == "Mirror of upstream"
    assert svc.call("archive_repo", {"owner": owner, "repo": name})["data"]["status"] == "archived"
    assert svc.call("get_repo", {"owner": owner, "repo": name})["data"]["status"] == "archived"


def test_failed_update_leaves_state_unchanged(svc):
    repo = svc.call("list_repos", {})["data"][0]
    before = svc.state_dict()
    bad_type = svc.call("update_repo", {"owner": repo["owner"], "repo": repo["repo"], "stars": "many"})
    missing = svc.call("update_repo", {"owner": "nobody-here", "repo": "nothing", "description": "x"})
    assert bad_type["error"]["code"] == 400 and "stars" in bad_type["error"]["message"]
    assert missing["error"]["code"] == 404
    assert svc.state_dict() == before


def test_update_by_id_writes_key_like_values(svc):
    index = svc.call("list_indexes", {})["data"][0]
    changed = svc.call("update_index", {"indexUid": index["id"], "primaryKey": "movie_id"})["data"]
    assert changed["primaryKey"] == "movie_id"  # a value to write, not a key to match
    assert svc.call("get_index", {"indexUid": index["id"]})["data"]["primaryKey"] == "movie_id"


def test_upsert_by_path(svc):
    made = svc.call("write_file", {"path": "/notes/todo.md", "content": "buy milk"})["data"]
    assert made["created"] is True and made["path"] == "/notes/todo.md"
    again = svc.call("write_file", {"path": "/notes/todo.md", "content": "buy oat milk"})["data"]
    assert again["created"] is False and again["id"] == made["id"]
    assert svc.call("read_file", {"path": "/notes/todo.md"})["data"]["content"] == "buy oat milk"
    assert [f["id"] for f in svc.call("list_files", {"path": "/notes"})["data"]] == [made["id"]]
    assert svc.call("read_file", {"path": "/notes/none.md"})["error"]["code"] == 404


def test_bundled_share_and_reasons():
    report = import_specs(load_jsonl(SPECS), register=False)
    share = report.deterministic_tools / report.tools
    assert report.tools == 3665 and 0.35 <= share < 0.6  # 0.286 before batch tools, the journal, functions, filterGroups
    assert sum(report.simulated_reasons.values()) == report.simulated_tools
    for reason in ("web_search", "browser", "weather", "market_prices", "web_content", "llm_generation",
                   "search_only_collection"):
        assert report.simulated_reasons[reason] > 0
    airbnb = next(c for c in report.services if c.spec_source == "@openbnb-org_mcp-server-airbnb")
    assert airbnb.simulated_reasons["airbnb_search"] == "search_only_collection"  # a live marketplace query


@pytest.mark.xfail(strict=True, reason="issue 17 item 5 asks for 60%; the honest engine reaches ~34% "
                                       "(see the import-mcp reasons): most simulated tools need the outside "
                                       "world or are not record operations")
def test_bundled_share_reaches_sixty_percent():
    report = import_specs(load_jsonl(SPECS), register=False)
    assert report.deterministic_tools / report.tools >= 0.60
