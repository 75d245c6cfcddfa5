// Chat completions through the official OpenAI SDK. The fixture model has
// random weights: the tests check shapes and behaviour, never the text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { client, model, user } from './setup.mjs';

test('plain chat completion', async () => {
  const r = await client.chat.completions.create({ model, messages: user('Hello'), max_tokens: 8 });
  assert.equal(r.object, 'chat.completion');
  assert.match(r.id, /^chatcmpl-/);
  assert.equal(r.model, model);
  assert.equal(typeof r.created, 'number');
  assert.equal(typeof r.system_fingerprint, 'string');
  assert.equal(r.choices.length, 1);
  const c = r.choices[0];
  assert.equal(c.index, 0);
  assert.equal(c.message.role, 'assistant');
  assert.equal(typeof c.message.content, 'string');
  assert.ok(['stop', 'length'].includes(c.finish_reason));
  assert.ok(r.usage.prompt_tokens > 0);
  assert.ok(r.usage.completion_tokens > 0 && r.usage.completion_tokens <= 8);
  assert.equal(r.usage.total_tokens, r.usage.prompt_tokens + r.usage.completion_tokens);
  assert.equal(typeof r.usage.prompt_tokens_details.cached_tokens, 'number');
  assert.equal(typeof r.usage.completion_tokens_details.reasoning_tokens, 'number');
});

test('max_tokens ends with length', async () => {
  const r = await client.chat.completions.create({ model, messages: user('Count'), max_tokens: 3, temperature: 0, ignore_eos: true });
  assert.equal(r.choices[0].finish_reason, 'length');
  assert.equal(r.usage.completion_tokens, 3);
});

test('streaming: role first, deltas, finish, usage, done', async () => {
  const stream = await client.chat.completions.create({
    model, messages: user('Hi'), max_tokens: 6, stream: true, stream_options: { include_usage: true },
  });
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  assert.ok(chunks.length >= 3);
  assert.equal(chunks[0].choices[0].delta.role, 'assistant');
  const ids = new Set(chunks.map((c) => c.id));
  assert.equal(ids.size, 1);
  for (const c of chunks) assert.equal(c.object, 'chat.completion.chunk');
  const usage = chunks.at(-1);
  assert.deepEqual(usage.choices, []);
  assert.ok(usage.usage.completion_tokens > 0);
  const finish = chunks.at(-2).choices[0].finish_reason;
  assert.ok(['stop', 'length'].includes(finish));
  for (const c of chunks.slice(0, -2)) assert.equal(c.choices[0].finish_reason, null);
  assert.equal(chunks.filter((c) => c.usage).length, 1);
});

test('streaming without include_usage has no usage chunk', async () => {
  const stream = await client.chat.completions.create({ model, messages: user('Hi'), max_tokens: 4, stream: true });
  let usage = 0;
  let last;
  for await (const chunk of stream) {
    if (chunk.usage) usage++;
    last = chunk;
  }
  assert.equal(usage, 0);
  assert.notEqual(last.choices[0].finish_reason, null);
});

test('streamed deltas add up to the non-streamed answer', async () => {
  const params = { model, messages: user('Say something'), max_tokens: 8, temperature: 0 };
  const whole = await client.chat.completions.create(params);
  const stream = await client.chat.completions.create({ ...params, stream: true });
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
  assert.equal(text, whole.choices[0].message.content);
});

test('logprobs with top_logprobs', async () => {
  const r = await client.chat.completions.create({
    model, messages: user('Hi'), max_tokens: 5, logprobs: true, top_logprobs: 3, temperature: 0, ignore_eos: true,
  });
  const lp = r.choices[0].logprobs.content;
  assert.equal(lp.length, 5);
  for (const t of lp) {
    assert.equal(typeof t.token, 'string');
    assert.ok(t.logprob <= 0);
    assert.ok(Array.isArray(t.bytes));
    assert.equal(t.top_logprobs.length, 3);
    assert.ok(t.top_logprobs[0].logprob >= t.logprob - 1e-6); // greedy: the chosen token is the most probable
  }
  assert.equal(lp.map((t) => t.token).join(''), r.choices[0].message.content);
});

test('n=2 gives two choices', async () => {
  const r = await client.chat.completions.create({ model, messages: user('Hi'), max_tokens: 4, n: 2, seed: 1 });
  assert.deepEqual(r.choices.map((c) => c.index), [0, 1]);
  for (const c of r.choices) assert.equal(typeof c.message.content, 'string');
});

test('stop string ends the answer before it', async () => {
  const params = { model, messages: user('Tell me a story'), max_tokens: 12, temperature: 0, ignore_eos: true };
  const full = (await client.chat.completions.create(params)).choices[0].message.content;
  const stop = [...full].slice(4, 6).join('');
  assert.ok(stop.trim().length > 0, `no usable stop string in ${JSON.stringify(full)}`);
  const r = await client.chat.completions.create({ ...params, stop: [stop] });
  assert.equal(r.choices[0].finish_reason, 'stop');
  assert.equal(r.choices[0].message.content, full.slice(0, full.indexOf(stop)));
});

test('the same seed gives the same answer', async () => {
  const params = { model, messages: user('Pick a word'), max_tokens: 8, temperature: 1, seed: 1234 };
  const a = await client.chat.completions.create(params);
  const b = await client.chat.completions.create(params);
  assert.equal(a.choices[0].message.content, b.choices[0].message.content);
});

test('extensions: top_k, min_p, chat_template_kwargs', async () => {
  const r = await client.chat.completions.create({
    model, messages: user('Hi'), max_tokens: 4, top_k: 5, min_p: 0.05, repetition_penalty: 1.1,
    chat_template_kwargs: { enable_thinking: false },
  });
  assert.equal(r.choices.length, 1);
});
