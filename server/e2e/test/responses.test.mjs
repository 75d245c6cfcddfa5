// The Responses API through the official OpenAI SDK. The fixture model has
// random weights: the tests check shapes, events and state, never the text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { client, model } from './setup.mjs';

// messageText joins the output_text parts of a response's messages.
const messageText = (r) =>
  r.output.filter((it) => it.type === 'message').flatMap((it) => it.content).map((p) => p.text).join('');

test('responses.create: output, usage and the echoed request', async () => {
  const r = await client.responses.create({
    model, input: 'Hello', instructions: 'Be brief.', max_output_tokens: 8, temperature: 0.5, top_p: 0.9,
    metadata: { run: 'e2e' }, user: 'u1', service_tier: 'flex',
  });
  assert.match(r.id, /^resp_/);
  assert.equal(r.object, 'response');
  assert.equal(r.model, model);
  assert.ok(['completed', 'incomplete'].includes(r.status));
  if (r.status === 'incomplete') assert.equal(r.incomplete_details.reason, 'max_output_tokens');
  assert.ok(r.output.length >= 1);
  for (const it of r.output) assert.ok(['message', 'reasoning', 'function_call'].includes(it.type));
  assert.equal(r.output_text, messageText(r));
  assert.ok(r.usage.input_tokens > 0);
  assert.ok(r.usage.output_tokens > 0 && r.usage.output_tokens <= 8);
  assert.equal(r.usage.total_tokens, r.usage.input_tokens + r.usage.output_tokens);
  assert.equal(typeof r.usage.input_tokens_details.cached_tokens, 'number');
  assert.equal(typeof r.usage.output_tokens_details.reasoning_tokens, 'number');
  assert.equal(r.instructions, 'Be brief.');
  assert.equal(r.max_output_tokens, 8);
  assert.equal(r.temperature, 0.5);
  assert.equal(r.top_p, 0.9);
  assert.deepEqual(r.metadata, { run: 'e2e' });
  assert.equal(r.user, 'u1');
  assert.equal(r.service_tier, 'flex');
  assert.equal(r.store, true);
  assert.equal(r.truncation, 'disabled');
  assert.deepEqual(r.text.format, { type: 'text' });
  assert.equal(typeof r.created_at, 'number');
  assert.equal(typeof r.completed_at, 'number');
});

test('responses.stream: events in order, deltas add up to the final text', async () => {
  const stream = client.responses.stream({ model, input: 'Tell me something', max_output_tokens: 12, temperature: 0 });
  const events = [];
  for await (const ev of stream) events.push(ev);
  const final = await stream.finalResponse();
  const types = events.map((e) => e.type);
  assert.equal(types[0], 'response.created');
  assert.equal(types[1], 'response.in_progress');
  assert.ok(['response.completed', 'response.incomplete'].includes(types.at(-1)));
  events.forEach((e, i) => assert.equal(e.sequence_number, i));
  const open = new Map(); // output_index → item type while open
  let text = '';
  for (const e of events.slice(2, -1)) {
    switch (e.type) {
      case 'response.output_item.added':
        assert.ok(!open.has(e.output_index));
        open.set(e.output_index, e.item.type);
        break;
      case 'response.output_item.done':
        assert.ok(open.has(e.output_index));
        open.delete(e.output_index);
        break;
      case 'response.output_text.delta':
        assert.equal(open.get(e.output_index), 'message');
        assert.ok(Array.isArray(e.logprobs));
        text += e.delta;
        break;
      default:
        assert.ok(open.has(e.output_index), `${e.type} outside an item`);
    }
  }
  assert.equal(open.size, 0);
  assert.equal(text, messageText(final));
  assert.equal(final.output_text, text);
  const whole = await client.responses.create({ model, input: 'Tell me something', max_output_tokens: 12, temperature: 0 });
  assert.equal(whole.output_text, text);
});

test('retrieve and delete a stored response', async () => {
  const r = await client.responses.create({ model, input: 'Hi', max_output_tokens: 4 });
  const got = await client.responses.retrieve(r.id);
  assert.equal(got.id, r.id);
  assert.equal(got.status, r.status);
  assert.equal(got.output_text, r.output_text);
  const items = [];
  for await (const it of client.responses.inputItems.list(r.id)) items.push(it);
  assert.equal(items.length, 1);
  assert.equal(items[0].role, 'user');
  assert.equal(items[0].content[0].text, 'Hi');
  await client.responses.delete(r.id);
  await assert.rejects(client.responses.retrieve(r.id), (err) => err instanceof OpenAI.NotFoundError);
});

test('store: false keeps nothing', async () => {
  const r = await client.responses.create({ model, input: 'Hi', max_output_tokens: 4, store: false });
  assert.equal(r.store, false);
  await assert.rejects(client.responses.retrieve(r.id), (err) => err instanceof OpenAI.NotFoundError);
});

test('cancel stops a running response', async () => {
  const stream = await client.responses.create({
    model, input: 'Write a long story', max_output_tokens: 900, ignore_eos: true, stream: true,
  });
  let id;
  let cancelled;
  let last;
  for await (const ev of stream) {
    if (ev.type === 'response.created') id = ev.response.id;
    if (ev.type === 'response.output_text.delta' && !cancelled) cancelled = await client.responses.cancel(id);
    last = ev;
  }
  assert.equal(cancelled.status, 'cancelled');
  assert.equal(last.type, 'response.failed');
  assert.equal(last.response.status, 'cancelled');
  assert.ok(last.response.usage === null || last.response.usage.output_tokens < 900);
  assert.equal((await client.responses.retrieve(id)).status, 'cancelled');
  await assert.rejects(client.responses.cancel(id), (err) => err instanceof OpenAI.BadRequestError);
});

test('previous_response_id chains the earlier turns', async () => {
  const r1 = await client.responses.create({ model, input: 'My name is Ada.', max_output_tokens: 6 });
  const r2 = await client.responses.create({ model, input: 'What is my name?', previous_response_id: r1.id, max_output_tokens: 6 });
  assert.equal(r2.previous_response_id, r1.id);
  assert.ok(r2.usage.input_tokens > r1.usage.input_tokens, 'the history is in the prompt');
  const items = [];
  for await (const it of client.responses.inputItems.list(r2.id, { order: 'asc' })) items.push(it);
  assert.deepEqual(items.map((it) => it.content[0].text), ['What is my name?']);
  await assert.rejects(
    client.responses.create({ model, input: 'x', previous_response_id: 'resp_missing' }),
    (err) => err instanceof OpenAI.BadRequestError && err.param === 'previous_response_id',
  );
});

test('a function tool round trip: the call output is fed back', async () => {
  const tools = [{
    type: 'function', name: 'get_weather', description: 'Weather of a city', strict: true,
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  }];
  const r1 = await client.responses.create({ model, input: 'Weather in Paris?', tools, max_output_tokens: 8 });
  assert.equal(r1.tools[0].name, 'get_weather');
  assert.equal(r1.tool_choice, 'auto');
  const call = { type: 'function_call', call_id: 'call_e2e', name: 'get_weather', arguments: '{"city":"Paris"}' };
  const r2 = await client.responses.create({
    model, tools, previous_response_id: r1.id, max_output_tokens: 8,
    input: [call, { type: 'function_call_output', call_id: 'call_e2e', output: '{"temp_c":21}' }],
  });
  assert.ok(['completed', 'incomplete'].includes(r2.status));
  const items = [];
  for await (const it of client.responses.inputItems.list(r2.id, { order: 'asc' })) items.push(it);
  assert.deepEqual(items.map((it) => it.type), ['function_call', 'function_call_output']);
  assert.equal(items[1].output, '{"temp_c":21}');
  assert.match(items[1].id, /^fco_/);
});

test('text.format json_schema is accepted and echoed', async () => {
  const format = {
    type: 'json_schema', name: 'person', strict: true,
    schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
  };
  const r = await client.responses.create({ model, input: 'A person as JSON', text: { format }, max_output_tokens: 8 });
  assert.equal(r.text.format.type, 'json_schema');
  assert.equal(r.text.format.name, 'person');
  assert.deepEqual(r.text.format.schema, format.schema);
});

test('reasoning effort none turns thinking off in the template', async () => {
  const off = await client.responses.create({ model, input: 'Hi', reasoning: { effort: 'none' }, max_output_tokens: 4 });
  const on = await client.responses.create({ model, input: 'Hi', reasoning: { effort: 'high' }, max_output_tokens: 4 });
  assert.equal(off.reasoning.effort, 'none');
  assert.equal(on.reasoning.effort, 'high');
  // The Qwen3 template closes an empty think block when thinking is off.
  assert.ok(off.usage.input_tokens > on.usage.input_tokens, `${off.usage.input_tokens} vs ${on.usage.input_tokens}`);
});

for (const [name, extra, param] of [
  ['background', { background: true }, 'background'],
  ['a built-in tool', { tools: [{ type: 'web_search' }] }, 'tools[0].type'],
  ['truncation auto', { truncation: 'auto' }, 'truncation'],
  ['an image input', { input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'https://example.com/a.png' }] }] }, 'input[0].content[0].type'],
  ['conversation with previous_response_id', { conversation: 'conv_x', previous_response_id: 'resp_x' }, 'previous_response_id'],
  ['max_output_tokens of 0', { max_output_tokens: 0 }, 'max_output_tokens'],
]) {
  test(`responses: bad request: ${name}`, async () => {
    await assert.rejects(
      client.responses.create({ model, input: 'Hi', ...extra }),
      (err) => err instanceof OpenAI.BadRequestError && err.param === param,
    );
  });
}
