// Anthropic's Messages API through the official Anthropic TypeScript SDK,
// as Claude Code and other Anthropic agents call it. The fixture model
// has random weights: what is checked is the shape of every answer, the
// order of the streamed events, that a forced tool call travels back as
// a tool result, token counting, and the error classes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { baseURL, apiKey, model } from './setup.mjs';

const anthropic = new Anthropic({ baseURL: baseURL.replace(/\/v1$/, ''), apiKey, maxRetries: 0, timeout: 60_000 });
const user = (content) => [{ role: 'user', content }];

const weather = {
  name: 'get_weather',
  description: 'Get the current weather for a city.',
  input_schema: {
    type: 'object',
    properties: { location: { type: 'string', maxLength: 8 }, unit: { enum: ['c', 'f'] } },
    required: ['location'],
  },
};

// checkMessage checks the shape of a message.
function checkMessage(m) {
  assert.match(m.id, /^msg_/);
  assert.equal(m.type, 'message');
  assert.equal(m.role, 'assistant');
  assert.equal(m.model, model);
  assert.ok(Array.isArray(m.content));
  for (const b of m.content) assert.ok(['text', 'thinking', 'tool_use'].includes(b.type), b.type);
  assert.ok(['end_turn', 'max_tokens', 'stop_sequence', 'tool_use'].includes(m.stop_reason), m.stop_reason);
  assert.ok(m.usage.input_tokens + (m.usage.cache_read_input_tokens ?? 0) > 0 && m.usage.output_tokens > 0, JSON.stringify(m.usage));
}

test('messages.create', async () => {
  const m = await anthropic.messages.create({ model, max_tokens: 6, system: 'You are brief.', messages: user('Say hi'), temperature: 0 });
  checkMessage(m);
  assert.ok(m.usage.output_tokens <= 6);
});

test('messages.stream, events in order', async () => {
  const stream = anthropic.messages.stream({ model, max_tokens: 8, messages: user('Count to five'), thinking: { type: 'disabled' } });
  const events = [];
  for await (const ev of stream) events.push(ev);
  const final = await stream.finalMessage();
  checkMessage(final);
  assert.equal(final.stop_reason, 'max_tokens');
  const types = events.map((e) => e.type);
  assert.equal(types[0], 'message_start');
  assert.deepEqual(types.slice(-2), ['message_delta', 'message_stop']);
  let open = -1;
  let blocks = 0;
  for (const ev of events.slice(1, -2)) {
    switch (ev.type) {
      case 'ping':
        break;
      case 'content_block_start':
        assert.equal(open, -1, 'a block starts while another is open');
        assert.equal(ev.index, blocks);
        open = ev.index;
        blocks++;
        break;
      case 'content_block_delta':
        assert.equal(ev.index, open);
        assert.ok(['text_delta', 'thinking_delta', 'input_json_delta'].includes(ev.delta.type), ev.delta.type);
        break;
      case 'content_block_stop':
        assert.equal(ev.index, open);
        open = -1;
        break;
      default:
        assert.fail(`unexpected event ${ev.type}`);
    }
  }
  assert.equal(open, -1, 'a block was left open');
  assert.equal(blocks, final.content.length);
  assert.equal(events.at(-2).delta.stop_reason, 'max_tokens');
});

test('tool_use, then tool_result', async () => {
  const messages = user('How warm is it in Tokyo?');
  const first = await anthropic.messages.create({ model, max_tokens: 200, tools: [weather], tool_choice: { type: 'tool', name: 'get_weather' }, messages });
  checkMessage(first);
  assert.equal(first.stop_reason, 'tool_use');
  const call = first.content.find((b) => b.type === 'tool_use');
  assert.ok(call, JSON.stringify(first.content));
  assert.match(call.id, /^toolu_/);
  assert.equal(call.name, 'get_weather');
  assert.equal(typeof call.input.location, 'string');
  const next = await anthropic.messages.create({
    model, max_tokens: 6, tools: [weather],
    messages: [...messages, { role: 'assistant', content: first.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '{"temperature": 25}' }] }],
  });
  checkMessage(next);
  const count = async (extra) => (await anthropic.messages.countTokens({ model, tools: [weather], messages: [...messages, ...extra] })).input_tokens;
  const withResult = await count([{ role: 'assistant', content: first.content },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: '{"temperature": 25}' }] }]);
  assert.ok(withResult > await count([]), 'the tool call and its result reach the prompt');
});

test('countTokens', async () => {
  const short = await anthropic.messages.countTokens({ model, messages: user('hi') });
  const long = await anthropic.messages.countTokens({ model, system: 'You are a helpful assistant.', messages: user('hi there, how are you?') });
  assert.ok(short.input_tokens > 0);
  assert.ok(long.input_tokens > short.input_tokens, `${long.input_tokens} <= ${short.input_tokens}`);
});

test('errors in Anthropic\'s shape', async () => {
  await assert.rejects(anthropic.messages.create({ model: 'no-such-model', max_tokens: 4, messages: user('hi') }), (err) => {
    assert.ok(err instanceof Anthropic.NotFoundError, err.constructor.name);
    assert.equal(err.status, 404);
    assert.equal(err.error.type, 'error');
    assert.equal(err.error.error.type, 'not_found_error');
    return true;
  });
  const wrongKey = new Anthropic({ baseURL: baseURL.replace(/\/v1$/, ''), apiKey: 'wrong', maxRetries: 0 });
  await assert.rejects(wrongKey.messages.create({ model, max_tokens: 4, messages: user('hi') }), Anthropic.AuthenticationError);
  await assert.rejects(anthropic.messages.create({ model, max_tokens: 4, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } }] }] }),
    (err) => err instanceof Anthropic.BadRequestError && err.error.error.type === 'invalid_request_error');
});
