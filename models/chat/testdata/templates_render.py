#!/usr/bin/env python3
"""Render testdata/templates/<id>.json: chat templates of model families that
the shared template fixture lacks (Gemma 4, Qwen3.5), in the shared
fixture's format, over the shared scenarios plus a few that exercise what
these templates add (thinking switched on, reasoning kept before a tool
call).

Each case is rendered by Python's jinja2 in the environment of the shared
fixture (harmony_render.py builds it; the check run first re-renders the
shared Gemma 2 fixture and requires every case to come out as recorded).

Run from this directory:
  python3 templates_render.py SHARED_TEMPLATES_DIR LLAMA_CPP_TEMPLATES_DIR
where SHARED_TEMPLATES_DIR is ../shared/testdata/templates and
LLAMA_CPP_TEMPLATES_DIR is llama.cpp's models/templates.
"""
import datetime
import json
import os
import sys

from harmony_render import environment, render

TEMPLATES = [
    # id, family, model repo, special tokens
    ("google-gemma-4-31B-it", "Gemma 4", "google/gemma-4-31B-it",
     {"bos_token": "<bos>", "eos_token": "<eos>"}),
    ("google-gemma-4-31B-it-interleaved", "Gemma 4", "google/gemma-4-31B-it",
     {"bos_token": "<bos>", "eos_token": "<eos>"}),
    ("Qwen3.5-4B", "Qwen3.5", "Qwen/Qwen3.5-4B",
     {"eos_token": "<|im_end|>", "pad_token": "<|endoftext|>"}),
]

WEATHER = {"type": "function", "function": {
    "name": "get_weather", "description": "Get the current weather for a city.",
    "parameters": {"type": "object", "properties": {
        "location": {"type": "string", "description": "City name"},
        "days": {"type": "integer", "description": "Forecast days"},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
        "required": ["location"]}}}
USER = {"role": "user", "content": "What's the weather in Paris?"}
CALL = {"id": "call00001", "type": "function",
        "function": {"name": "get_weather", "arguments": {"location": "Paris", "days": 2}}}
TOOL = {"role": "tool", "tool_call_id": "call00001", "content": "{\"temperature\": 18}"}

EXTRA = [
    ("enable_thinking_true", [USER], [WEATHER], True, {"enable_thinking": True}),
    ("enable_thinking_true_no_tools", [{"role": "system", "content": "Be brief."}, USER], None, True,
     {"enable_thinking": True}),
    ("reasoning_before_pending_tool_call", [
        USER, {"role": "assistant", "content": "", "reasoning_content": "Need the weather tool.",
               "tool_calls": [CALL]}, TOOL], [WEATHER], True, {"enable_thinking": True}),
    ("tool_call_then_answer", [
        USER, {"role": "assistant", "content": None, "tool_calls": [CALL]}, TOOL,
        {"role": "assistant", "content": "It is 18 degrees in Paris."},
        {"role": "user", "content": "Thanks!"}], [WEATHER], True, {}),
]


def main():
    shared, llama = sys.argv[1], sys.argv[2]
    check = json.load(open(os.path.join(shared, "google-gemma-2-2b-it.json")))
    tpl = environment(datetime.datetime.fromisoformat(check["fixed_now"])).from_string(check["template"])
    for case in check["cases"]:
        got = render(tpl, check, case["input"])
        if got.get("expected_output") != case.get("expected_output") or \
                ("expected_error" in case) != ("expected_error" in got):
            sys.exit(f"{case['scenario']}: this environment renders differently from the fixture")
    scen = json.load(open(os.path.join(shared, "scenarios.json")))
    fixed_now = scen["fixed_now"]
    inputs = [(s["name"], {"messages": s["messages"], "tools": s.get("tools"),
                           "add_generation_prompt": s["add_generation_prompt"], "kwargs": s.get("kwargs") or {}})
              for s in scen["scenarios"]]
    inputs += [(name, {"messages": m, "tools": t, "add_generation_prompt": g, "kwargs": k})
               for name, m, t, g, k in EXTRA]
    for tid, family, repo, tokens in TEMPLATES:
        source = open(os.path.join(llama, tid + ".jinja")).read()
        fixture = {"format_version": 1, "id": tid, "family": family,
                   "template_source_file": f"llama.cpp models/templates/{tid}.jinja", "model_repo": repo,
                   "bos_token": tokens.get("bos_token"), "eos_token": tokens.get("eos_token"),
                   "special_tokens": tokens, "template_kwargs": {}, "fixed_now": fixed_now,
                   "template": source}
        tpl = environment(datetime.datetime.fromisoformat(fixed_now)).from_string(source)
        fixture["cases"] = [{"scenario": name, "input": inp, **render(tpl, fixture, inp)} for name, inp in inputs]
        with open(os.path.join("templates", tid + ".json"), "w") as out:
            json.dump(fixture, out, ensure_ascii=False, indent=1)
            out.write("\n")


if __name__ == "__main__":
    main()
