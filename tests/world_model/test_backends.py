"""LLM world-model backends: an OpenAI-compatible loopback server and a tiny local model."""

from __future__ import annotations

import datetime as dt
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from compoworld_gym.importer import build_service
from compoworld_gym.importer.specs import server_from_json
from compoworld_gym.world_model import SimulationError, set_world_model

TODAY = dt.date(2026, 1, 15)
SERVER = {"server": "Shop", "slug": "shop-sim", "tools": [
    {"name": "create_order", "description": "Create an order.", "inputSchema": {
        "type": "object", "properties": {"sku": {"type": "string"}, "qty": {"type": "integer"}},
        "required": ["sku", "qty"]}},
    {"name": "quote_shipping", "description": "Quote shipping with a carrier API.", "inputSchema": {
        "type": "object", "properties": {"sku": {"type": "string"}}, "required": ["sku"]}},
    {"name": "import_order", "description": "Pull an order from the marketplace.", "inputSchema": {
        "type": "object", "properties": {"ref": {"type": "string"}}, "required": ["ref"]}},
]}


@pytest.fixture
def shop():
    cls = build_service(server_from_json(SERVER), "shop_sim")
    yield cls
    set_world_model(None)


class _Handler(BaseHTTPRequestHandler):
    replies: list[str] = []
    requests: list[dict] = []

    def do_POST(self):  # noqa: N802 - http.server naming
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append({"path": self.path, "body": body})
        content = type(self).replies.pop(0)
        payload = {"id": "cmpl-1", "object": "chat.completion", "created": 0, "model": body["model"],
                   "choices": [{"index": 0, "finish_reason": "stop",
                                "message": {"role": "assistant", "content": content}}],
                   "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture
def endpoint():
    _Handler.replies, _Handler.requests = [], []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1", _Handler
    server.shutdown()
    server.server_close()


def test_openai_backend_against_loopback(shop, endpoint):
    pytest.importorskip("openai")
    from compoworld_gym.world_model.openai_backend import OpenAIWorldModel

    url, handler = endpoint
    order = {"id": "ORDE-0042", "sku": "SKU-1", "qty": 2, "created_at": None}
    handler.replies += [
        '```json\n{"result": {"carrier": "DHL", "price": 4.5}, "state_update": {}}\n```',
        json.dumps({"result": {"imported": "ORDE-0042"}, "state_update": {"orders": {"ORDE-0042": order}}}),
        json.dumps({"result": {"imported": "X"}, "state_update": {"orders": {"X": {"id": "X", "qty": "two"}}}}),
        "I cannot do that.",
    ]
    set_world_model(OpenAIWorldModel("sim-model", base_url=url))
    svc = shop.seeded(5, TODAY)
    assert svc.call("quote_shipping", {"sku": "SKU-1"})["data"] == {"carrier": "DHL", "price": 4.5}
    sent = handler.requests[0]
    assert sent["path"] == "/v1/chat/completions" and sent["body"]["model"] == "sim-model"
    assert sent["body"]["seed"] == 5 and sent["body"]["temperature"] == 0.0
    assert "quote_shipping" in sent["body"]["messages"][1]["content"]
    assert svc.call("quote_shipping", {"sku": "SKU-1"})["data"]["carrier"] == "DHL"
    assert len(handler.requests) == 1  # cached: same arguments, same state
    assert svc.call("import_order", {"ref": "M-1"})["data"] == {"imported": "ORDE-0042"}
    assert svc.state_dict()["orders"]["ORDE-0042"] == order
    before = svc.state_dict()
    bad = svc.call("import_order", {"ref": "M-2"})
    assert bad["error"]["code"] == 500 and "orders.X" in bad["error"]["message"]
    prose = svc.call("import_order", {"ref": "M-3"})
    assert prose["error"]["code"] == 500 and "no JSON object" in prose["error"]["message"]
    assert svc.state_dict() == before


def test_openai_backend_unreachable(shop):
    pytest.importorskip("openai")
    from compoworld_gym.world_model.base import SimulationRequest
    from compoworld_gym.world_model.openai_backend import OpenAIWorldModel

    model = OpenAIWorldModel("m", base_url="http://127.0.0.1:9/v1", timeout=2.0)
    request = SimulationRequest(service="s", service_description="", tool="t", description="", input_schema={},
                                arguments={}, state={}, seed=0, read_only=True)
    with pytest.raises(SimulationError, match="endpoint error"):
        model.simulate(request)


def _tiny_model():
    """A ~100k-parameter Qwen3 with a word-level tokenizer built here (no hub)."""
    transformers = pytest.importorskip("transformers")
    pytest.importorskip("torch")
    from tokenizers import Tokenizer, models, pre_tokenizers

    words = ['{"result":', '{"quote":', '"ok"}', ",", '"state_update":', "{}}", "hello"]
    vocab = {w: i for i, w in enumerate(["<unk>", "<|endoftext|>", "<|im_start|>", "<|im_end|>", *words])}
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tokenizer = transformers.PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>",
                                                     eos_token="<|im_end|>", pad_token="<|endoftext|>")
    tokenizer.chat_template = ("{% for m in messages %}<|im_start|> {{ m['content'] }} <|im_end|> {% endfor %}"
                               "{% if add_generation_prompt %}<|im_start|> {% endif %}")
    config = transformers.Qwen3Config(vocab_size=len(vocab), hidden_size=32, intermediate_size=64,
                                      num_hidden_layers=1, num_attention_heads=2, num_key_value_heads=1,
                                      head_dim=16, max_position_embeddings=4096,
                                      pad_token_id=1, eos_token_id=3)
    import torch

    torch.manual_seed(0)
    return transformers.Qwen3ForCausalLM(config).eval(), tokenizer


def test_transformers_backend(shop, monkeypatch):
    model, tokenizer = _tiny_model()
    from compoworld_gym.world_model.transformers_backend import TransformersWorldModel

    set_world_model(TransformersWorldModel(model, tokenizer, max_new_tokens=6))
    svc = shop.seeded(0, TODAY)
    before = svc.state_dict()
    random_reply = svc.call("import_order", {"ref": "R-1"})  # an untrained model emits no JSON
    assert random_reply["error"]["code"] == 500 and svc.state_dict() == before

    script = tokenizer('{"quote": "ok"} , "state_update": {}}', add_special_tokens=False)["input_ids"]
    real_generate = model.generate

    def scripted(input_ids=None, **kwargs):
        import torch

        assert kwargs["do_sample"] is False
        return torch.cat([input_ids, torch.tensor([script])], dim=1)

    monkeypatch.setattr(model, "generate", scripted)
    set_world_model(TransformersWorldModel(model, tokenizer, max_new_tokens=6))
    assert svc.call("quote_shipping", {"sku": "A"})["error"]["code"] == 500  # no "result" key
    script[:] = tokenizer('{"result": {"quote": "ok"} , "state_update": {}}', add_special_tokens=False)["input_ids"]
    set_world_model(TransformersWorldModel(model, tokenizer, max_new_tokens=6))
    assert svc.call("quote_shipping", {"sku": "A"})["data"] == {"quote": "ok"}
    assert real_generate is not None
