// Tool call round trips through the official OpenAI SDK: the SDK's own
// tool runner, a manual two-step loop on chat completions, and the
// Responses API's function_call + function_call_output items. The
// fixture model has random weights, so a forced tool_choice makes the
// calls; what is checked is that the calls come back to the server as
// the SDK sends them (assistant content null, tool results) and that the
// server takes them into the next prompt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Ajv from 'ajv';
import { client, model, user } from './setup.mjs';

// Bounded arguments, so that a forced call always ends.
const weatherParams = {
  type: 'object',
  properties: { city: { type: 'string', maxLength: 8 }, unit: { enum: ['c', 'f'] } },
  required: ['city', 'unit'],
  additionalProperties: false,
};
const validArgs = new Ajv().compile(weatherParams);
const weatherTool = { type: 'function', function: { name: 'get_weather', description: 'The weather in a city.', parameters: weatherParams } };
const responsesTool = { type: 'function', name: 'get_weather', description: 'The weather in a city.', parameters: weatherParams };
const forced = { type: 'function', function: { name: 'get_weather' } };

// weather is the tool's implementation: it checks its arguments.
function weather(args) {
  assert.ok(validArgs(args), JSON.stringify(args));
  return { city: args.city, temperature: 21, unit: args.unit };
}

test('runTools: the runner sends the calls and their results back', async () => {
  let calls = 0;
  const runner = client.chat.completions.runTools(
    {
      model, messages: user('What is the weather in Rome?'), max_tokens: 120, seed: 41,
      tool_choice: 'required', parallel_tool_calls: false,
      tools: [{ type: 'function', function: { ...weatherTool.function, parse: JSON.parse, function: (a) => { calls++; return weather(a); } } }],
    },
    { maxChatCompletions: 2 },
  );
  const completions = [];
  runner.on('chatCompletion', (c) => completions.push(c));
  await runner.done();
  assert.equal(completions.length, 2);
  assert.equal(calls, 2);
  const msgs = runner.messages;
  const assistant = msgs.filter((m) => m.role === 'assistant');
  const results = msgs.filter((m) => m.role === 'tool');
  assert.equal(assistant.length, 2);
  assert.equal(results.length, 2);
  for (const [i, a] of assistant.entries()) {
    assert.equal(a.content, null); // sent back as null
    assert.equal(a.tool_calls.length, 1);
    assert.equal(results[i].tool_call_id, a.tool_calls[0].id);
  }
  // The second request holds the first call and its result.
  assert.ok(completions[1].usage.prompt_tokens > completions[0].usage.prompt_tokens,
    `prompt ${completions[0].usage.prompt_tokens} then ${completions[1].usage.prompt_tokens}`);
});

test('runTools, streamed: the runner sends the calls and their results back', async () => {
  let calls = 0;
  const runner = client.chat.completions.runTools(
    {
      model, messages: user('And in Oslo?'), max_tokens: 120, seed: 42, stream: true,
      tool_choice: 'required', parallel_tool_calls: false,
      tools: [{ type: 'function', function: { ...weatherTool.function, parse: JSON.parse, function: (a) => { calls++; return weather(a); } } }],
    },
    { maxChatCompletions: 2 },
  );
  await runner.done();
  assert.equal(calls, 2);
  assert.equal(runner.messages.filter((m) => m.role === 'tool').length, 2);
});

test('chat completions: a manual two-step tool round trip', async () => {
  const messages = user('What is the weather in Rome?');
  const first = await client.chat.completions.create({ model, messages, tools: [weatherTool], tool_choice: forced, max_tokens: 120, seed: 43 });
  const choice = first.choices[0];
  assert.equal(choice.finish_reason, 'tool_calls');
  const msg = choice.message;
  assert.equal(msg.content, null);
  assert.equal(msg.tool_calls.length, 1);
  const call = msg.tool_calls[0];
  const result = weather(JSON.parse(call.function.arguments));
  // The assistant message goes back exactly as it came, content null.
  messages.push(msg, { role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) });
  const second = await client.chat.completions.create({ model, messages, tools: [weatherTool], max_tokens: 8, seed: 44 });
  const answer = second.choices[0];
  assert.equal(answer.message.role, 'assistant');
  assert.ok(['stop', 'length', 'tool_calls'].includes(answer.finish_reason));
  assert.ok(second.usage.prompt_tokens > first.usage.prompt_tokens);
  // The same turn without a content member renders the same prompt.
  const { content: _, ...noContent } = msg;
  const again = await client.chat.completions.create({
    model, messages: [messages[0], noContent, messages[2]], tools: [weatherTool], max_tokens: 1,
  });
  assert.equal(again.usage.prompt_tokens, second.usage.prompt_tokens);
});

// firstCall creates a response that calls get_weather and returns it
// with its call.
async function firstCall(extra = {}) {
  const r = await client.responses.create({
    model, input: 'What is the weather in Rome?', tools: [responsesTool], tool_choice: { type: 'function', name: 'get_weather' },
    max_output_tokens: 120, ...extra,
  });
  const calls = r.output.filter((it) => it.type === 'function_call');
  assert.equal(calls.length, 1, JSON.stringify(r.output));
  assert.equal(calls[0].name, 'get_weather');
  return { r, call: calls[0] };
}

test('responses: function_call_output after previous_response_id', async () => {
  const { r, call } = await firstCall();
  const output = JSON.stringify(weather(JSON.parse(call.arguments)));
  const next = await client.responses.create({
    model, previous_response_id: r.id, tools: [responsesTool], max_output_tokens: 8,
    input: [{ type: 'function_call_output', call_id: call.call_id, output }],
  });
  assert.ok(['completed', 'incomplete'].includes(next.status));
  assert.equal(next.previous_response_id, r.id);
  assert.ok(next.usage.input_tokens > r.usage.input_tokens);
  const items = await client.responses.inputItems.list(next.id);
  assert.ok(items.data.some((it) => it.type === 'function_call_output' && it.call_id === call.call_id));
});

test('responses: function_call and function_call_output as typed input', async () => {
  const { r, call } = await firstCall({ store: false });
  const output = JSON.stringify(weather(JSON.parse(call.arguments)));
  const next = await client.responses.create({
    model, tools: [responsesTool], max_output_tokens: 8, store: false,
    input: [
      { role: 'user', content: 'What is the weather in Rome?' },
      call,
      { type: 'function_call_output', call_id: call.call_id, output },
    ],
  });
  assert.ok(['completed', 'incomplete'].includes(next.status));
  assert.ok(next.usage.input_tokens > r.usage.input_tokens);
});

test('a chat_template given with the request replaces the model\'s', async () => {
  const own = await client.chat.completions.create({
    model, messages: user('Hello there'), max_tokens: 1, chat_template: '{{ messages[0].content }}',
  });
  const usual = await client.chat.completions.create({ model, messages: user('Hello there'), max_tokens: 1 });
  assert.ok(own.usage.prompt_tokens < usual.usage.prompt_tokens, `${own.usage.prompt_tokens} against ${usual.usage.prompt_tokens}`);
  await assert.rejects(
    client.chat.completions.create({ model, messages: user('Hi'), chat_template: '{% for %}' }),
    (err) => err instanceof OpenAI.BadRequestError && err.param === 'chat_template',
  );
});
