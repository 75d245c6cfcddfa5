#!/usr/bin/env python3
"""Render harmony.json: gpt-oss chat template cases for the Harmony format.

The scenarios below exercise what the shared template fixture
(testdata/templates/openai-gpt-oss-120b.json, rendered over the common
scenarios) does not: the reasoning_effort, model_identity and builtin_tools
variables, the developer role, the `thinking` field of assistant messages
around tool calls, and the template's own raise_exception checks.

Each is rendered by Python's jinja2 in the environment transformers'
apply_chat_template builds (render_jinja_template in
transformers/utils/chat_template_utils.py): a sandboxed environment with
trim_blocks, lstrip_blocks and loopcontrols, its tojson filter, and the
raise_exception and strftime_now globals; variables are messages, tools,
documents (None), add_generation_prompt, the special tokens, then kwargs.

Run: python3 harmony_render.py PATH/TO/openai-gpt-oss-120b.json > harmony.json
(the check run first renders the fixture's own cases and requires every one
to come out as recorded, so the environment is the one of the fixture).
"""
import datetime
import json
import sys

import jinja2
import jinja2.ext
from jinja2.sandbox import ImmutableSandboxedEnvironment


def environment(fixed_now):
    def raise_exception(message):
        raise jinja2.exceptions.TemplateError(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

    def strftime_now(fmt):
        return fixed_now.strftime(fmt)

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[jinja2.ext.loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    return env


def render(tpl, fixture, inp):
    variables = dict(messages=inp["messages"], tools=inp.get("tools"), documents=None,
                     add_generation_prompt=inp["add_generation_prompt"])
    for k, v in fixture["special_tokens"].items():
        if v is not None:
            variables[k] = v
    variables.update(fixture.get("template_kwargs") or {})
    variables.update(inp.get("kwargs") or {})
    try:
        return {"expected_output": tpl.render(**variables)}
    except jinja2.exceptions.TemplateError as e:
        src = "raise_exception" if type(e) is jinja2.exceptions.TemplateError else "runtime"
        return {"expected_error": str(e), "error_source": src}
    except Exception as e:  # noqa: BLE001 - Python failed inside the template
        return {"expected_error": str(e), "error_source": "runtime"}


WEATHER = {"type": "function", "function": {
    "name": "get_weather", "description": "Get the current weather for a city.",
    "parameters": {"type": "object", "properties": {
        "location": {"type": "string", "description": "City name"},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
        "required": ["location"]}}}

USER = {"role": "user", "content": "What's the weather in Paris?"}
CALL = {"id": "call1", "type": "function",
        "function": {"name": "get_weather", "arguments": {"location": "Paris"}}}
TOOL = {"role": "tool", "tool_call_id": "call1", "content": "{\"temperature\": 18}"}

SCENARIOS = [
    ("reasoning_effort_low", [USER], None, True, {"reasoning_effort": "low"}),
    ("reasoning_effort_high", [USER], None, True, {"reasoning_effort": "high"}),
    ("model_identity", [USER], None, True, {"model_identity": "You are a helpful robot."}),
    ("builtin_tools_python", [USER], None, True, {"builtin_tools": ["python"]}),
    ("builtin_tools_browser_and_functions", [USER], [WEATHER], True, {"builtin_tools": ["browser"]}),
    ("developer_message", [{"role": "developer", "content": "Answer in French."}, USER], None, True, {}),
    ("system_message_and_tools", [{"role": "system", "content": "Be brief."}, USER], [WEATHER], True,
     {"reasoning_effort": "high"}),
    ("tool_call_with_thinking_pending", [
        USER, {"role": "assistant", "thinking": "Need the weather tool.", "tool_calls": [CALL]}, TOOL],
     [WEATHER], True, {}),
    ("tool_call_thinking_dropped_after_final", [
        USER, {"role": "assistant", "thinking": "Need the weather tool.", "tool_calls": [CALL]}, TOOL,
        {"role": "assistant", "content": "It is 18 degrees in Paris."},
        {"role": "user", "content": "And tomorrow?"}],
     [WEATHER], True, {}),
    ("tool_call_content_as_analysis", [
        USER, {"role": "assistant", "content": "Let me look that up.", "tool_calls": [CALL]}, TOOL],
     [WEATHER], True, {}),
    ("tool_call_string_content_type", [
        USER, {"role": "assistant", "content": "", "tool_calls": [
            {"type": "function", "function": {"name": "get_weather", "arguments": "{\"location\": \"Paris\"}"}}]},
        TOOL], [WEATHER], True, {}),
    ("final_with_thinking_training", [
        USER, {"role": "assistant", "thinking": "Paris is mild today.", "content": "18 degrees."}],
     None, False, {}),
    ("final_thinking_dropped_in_history", [
        USER, {"role": "assistant", "thinking": "Paris is mild today.", "content": "18 degrees."},
        {"role": "user", "content": "Thanks!"}], None, True, {}),
    ("error_content_and_thinking_with_call", [
        USER, {"role": "assistant", "content": "x", "thinking": "y", "tool_calls": [CALL]}, TOOL],
     [WEATHER], True, {}),
    ("error_channel_tags_in_content", [
        USER, {"role": "assistant", "content": "<|channel|>final<|message|>18 degrees."},
        {"role": "user", "content": "Thanks!"}], None, True, {}),
    ("error_channel_tags_in_thinking", [
        USER, {"role": "assistant", "thinking": "<|channel|>analysis<|message|>hm", "content": "18."},
        {"role": "user", "content": "Thanks!"}], None, True, {}),
    ("error_tool_without_call", [USER, TOOL], None, True, {}),
]


def main():
    fixture = json.load(open(sys.argv[1]))
    fixed_now = datetime.datetime.fromisoformat(fixture["fixed_now"])
    tpl = environment(fixed_now).from_string(fixture["template"])
    for case in fixture["cases"]:
        got = render(tpl, fixture, case["input"])
        want = {k: case[k] for k in ("expected_output",) if k in case}
        if "expected_output" in case and got != want:
            sys.exit(f"{case['scenario']}: this environment renders differently from the fixture")
        if "expected_error" in case and "expected_error" not in got:
            sys.exit(f"{case['scenario']}: this environment does not fail as the fixture did")
    cases = []
    for name, msgs, tools, agp, kwargs in SCENARIOS:
        inp = {"messages": msgs, "tools": tools, "add_generation_prompt": agp, "kwargs": kwargs}
        cases.append({"scenario": name, "input": inp, **render(tpl, fixture, inp)})
    json.dump({"format_version": 1, "template_id": fixture["id"], "cases": cases}, sys.stdout,
              ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
