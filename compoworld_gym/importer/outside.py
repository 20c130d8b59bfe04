"""Which imported tools truly need the outside world, and why.

A tool whose answer depends on something no typed state of the service can
hold stays simulated by the world model, whatever its name looks like: a
web search, the content behind an arbitrary URL, the weather, live market
prices, a browser or the host's desktop and shell, an interpreter or
debugger, a language or image model, a map service. The classifier reads
the tool name's tokens, the first sentence of its description and its
required parameters; it is deliberately eager, so that no outside-world
tool is counted as deterministic.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from compoworld_gym.importer.names import tokens

WEB_SEARCH = "web_search"
WEB_CONTENT = "web_content"
WEATHER = "weather"
MARKET_PRICES = "market_prices"
BROWSER = "browser"
DESKTOP_SHELL = "desktop_shell"
CODE_EXECUTION = "code_execution"
LLM_GENERATION = "llm_generation"
MAPS = "maps"

#: Every reason :func:`outside_world_reason` may return, in the order the rules are tried.
OUTSIDE_REASONS = (WEB_CONTENT, BROWSER, DESKTOP_SHELL, CODE_EXECUTION, WEB_SEARCH, WEATHER, MARKET_PRICES,
                   LLM_GENERATION, MAPS)

#: Words of the tool *name* that settle the reason on their own.
_NAME_WORDS: dict[str, frozenset[str]] = {
    BROWSER: frozenset({"browser", "playwright", "puppeteer", "selenium", "webpage", "navigate", "click",
                        "scroll", "hover", "screenshot", "dom", "tab", "tabs", "scrape", "scraping", "crawl",
                        "crawling", "webdriver"}),
    DESKTOP_SHELL: frozenset({"shell", "terminal", "bash", "powershell", "cmd", "command", "commands",
                              "keyboard", "mouse", "clipboard", "desktop", "window", "windows", "process",
                              "processes", "applescript", "adb", "sys", "system", "cpu", "env", "pid"}),
    CODE_EXECUTION: frozenset({"execute", "exec", "eval", "evaluate", "sql", "python", "javascript", "script",
                               "gdb", "lldb", "debugger", "breakpoint", "ida", "disassemble", "decompile",
                               "compile", "build", "git", "docker", "kubectl", "dbt", "lint",
                               "run", "cypher", "repl", "sandbox", "jupyter", "notebook"}),
    WEB_SEARCH: frozenset({"web", "google", "bing", "duckduckgo", "brave", "serp", "tavily", "exa",
                           "perplexity", "searxng", "arxiv", "pubmed", "scholar", "wikipedia", "internet",
                           "research", "biorxiv", "medrxiv", "news", "trending", "hotsearch"}),
    WEATHER: frozenset({"weather", "forecast", "temperature", "climate"}),
    MARKET_PRICES: frozenset({"price", "prices", "ticker", "tickers", "quote", "quotes", "ohlc", "ohlcv",
                              "candle", "candles", "candlestick", "orderbook", "stock", "stocks", "market",
                              "markets", "trades", "tvl", "fng", "funding", "forex", "apy", "dex",
                              "dexs", "gas"}),
    LLM_GENERATION: frozenset({"llm", "gpt", "openai", "claude", "gemini", "generate", "generation", "imagine",
                               "tts", "speech", "summarize", "summarise", "translate", "ask", "completion",
                               "sampling", "embedding", "embeddings", "vision", "ocr", "transcribe"}),
    MAPS: frozenset({"geocode", "geocoding", "directions", "nearby", "elevation", "distance", "maps",
                     "isochrone", "traveler"}),
}

#: Phrases of the *description's first sentence* that settle the reason.
_PHRASES: dict[str, re.Pattern[str]] = {
    WEB_SEARCH: re.compile(r"\b(the web|web search|search engine|internet|online search|google|bing|duckduckgo|"
                           r"arxiv|pubmed|google scholar|wikipedia|news articles|real-time search)\b"),
    WEB_CONTENT: re.compile(r"\b(web ?page|website content|url content|scrape|crawl|fetch (the )?(content|url)|"
                            r"from (a|the) url|http request)\b"),
    WEATHER: re.compile(r"\b(weather|forecast|air quality|uv index)\b"),
    MARKET_PRICES: re.compile(r"\b((current|live|real-time|latest|historical) (token |coin |stock |crypto )?prices?|"
                              r"price (data|history|chart)|tickers?|ohlcv?|candlesticks?|order ?book|"
                              r"exchange rates?|market data|market cap|stock (price|market|quote|data)s?|"
                              r"trading pairs?|funding rates?|gas prices?)\b"),
    BROWSER: re.compile(r"\b(browser|web page|the page|playwright|puppeteer|selenium)\b"),
    DESKTOP_SHELL: re.compile(r"\b(shell|terminal|command line|commands? on|running process|operating system|"
                              r"the desktop|keyboard|mouse|clipboard|screen)\b"),
    CODE_EXECUTION: re.compile(r"\b(sql|execute (a |the )?(query|code|script|statement)|run (a |the )?"
                               r"(query|code|script)|python code|javascript code|interpreter|debugger|repl)\b"),
    LLM_GENERATION: re.compile(r"\b(llm|language model|ai model|gpt|openai|claude|gemini|generate (an? )?"
                               r"(image|audio|video|speech|text|story|response)|text[- ]to[- ]\w+)\b"),
    MAPS: re.compile(r"\b(geocod\w*|directions|driving|walking route|nearby places|distance matrix|"
                     r"latitude|longitude|coordinates)\b"),
}

#: Required parameters that carry an arbitrary resource of the outside world.
_URL_WORDS = frozenset({"url", "urls", "uri", "link", "href", "website", "webpage"})
_CODE_WORDS = frozenset({"sql", "code", "script", "expression", "cypher", "statement", "snippet"})
_SHELL_WORDS = frozenset({"command", "cmd", "commandline"})
_GEO_WORDS = frozenset({"latitude", "longitude", "lat", "lon", "lng"})
#: Verbs of tools that store what they are given (a URL kept as a bookmark is a record field).
_STORING = frozenset({"create", "add", "new", "insert", "register", "save", "set", "update", "edit", "put",
                      "store", "upsert", "configure", "subscribe"})


def _first_sentence(description: str) -> str:
    text = " ".join((description or "").split()).lower()
    return text.split(". ", 1)[0][:240]


def _required_words(schema: Any) -> list[list[str]]:
    if not isinstance(schema, dict) or not isinstance(schema.get("required"), list):
        return []
    return [tokens(r) for r in schema["required"] if isinstance(r, str)]


def _by_parameters(schema: Any, storing: bool) -> Optional[str]:
    for words in _required_words(schema):
        if not words:
            continue
        if words[-1] in _URL_WORDS and not storing:
            return WEB_CONTENT
        if words[-1] in _SHELL_WORDS:
            return DESKTOP_SHELL
        if words[-1] in _CODE_WORDS or (words[-1] == "query" and "sql" in words):
            return CODE_EXECUTION
        if words[-1] in _GEO_WORDS:
            return MAPS
    return None


def outside_world_reason(name: str, description: str = "", schema: Any = None) -> Optional[str]:
    """Why a tool needs the outside world (one of :data:`OUTSIDE_REASONS`), or None.

    Args:
        name: the MCP tool name, any casing.
        description: its MCP description (only the first sentence is read).
        schema: its ``inputSchema``; a required URL (unless the tool stores
            it: ``create_bookmark(url)``), code/SQL or coordinate parameter
            settles the reason on its own.

    Returns:
        The reason, or None when the tool may be served from typed state.

    Example:
        >>> outside_world_reason("web_search_exa", "Search the web using Exa AI")
        'web_search'
        >>> outside_world_reason("get_issue", "Get an issue by id.") is None
        True
    """
    words = set(tokens(name))
    found = _by_parameters(schema, storing=bool(words & _STORING))
    if found is not None:
        return found
    for reason in OUTSIDE_REASONS:
        if words & _NAME_WORDS.get(reason, frozenset()):
            return reason
    sentence = _first_sentence(description)
    for reason in OUTSIDE_REASONS:
        pattern = _PHRASES.get(reason)
        if pattern is not None and pattern.search(sentence):
            return reason
    return None
