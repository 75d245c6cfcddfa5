// Legacy completions through the official OpenAI SDK.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { client, model } from './setup.mjs';

test('string prompt', async () => {
  const r = await client.completions.create({ model, prompt: 'The capital of France is', max_tokens: 6 });
  assert.equal(r.object, 'text_completion');
  assert.match(r.id, /^cmpl-/);
  assert.equal(r.choices.length, 1);
  assert.equal(typeof r.choices[0].text, 'string');
  assert.ok(['stop', 'length'].includes(r.choices[0].finish_reason));
  assert.ok(r.usage.prompt_tokens > 0 && r.usage.completion_tokens <= 6);
});

test('token id prompt', async () => {
  const r = await client.completions.create({ model, prompt: [785, 6722, 315], max_tokens: 3 });
  assert.equal(r.usage.prompt_tokens, 3);
  assert.equal(r.choices.length, 1);
});

test('several prompts, n each', async () => {
  const r = await client.completions.create({ model, prompt: ['a', 'b'], n: 2, max_tokens: 2 });
  assert.deepEqual(r.choices.map((c) => c.index), [0, 1, 2, 3]);
});

test('echo returns the prompt first', async () => {
  const prompt = 'Once upon a time';
  const r = await client.completions.create({ model, prompt, max_tokens: 4, echo: true });
  assert.ok(r.choices[0].text.startsWith(prompt));
});

test('logprobs in the legacy format', async () => {
  const r = await client.completions.create({ model, prompt: 'Hello', max_tokens: 4, logprobs: 2, temperature: 0, ignore_eos: true });
  const lp = r.choices[0].logprobs;
  assert.equal(lp.tokens.length, 4);
  assert.equal(lp.token_logprobs.length, 4);
  assert.equal(lp.top_logprobs.length, 4);
  assert.deepEqual(lp.text_offset.slice(0, 1), [0]);
  for (const top of lp.top_logprobs) assert.ok(Object.keys(top).length >= 1 && Object.keys(top).length <= 2);
  assert.equal(lp.tokens.join(''), r.choices[0].text);
});

test('echo with logprobs scores the prompt', async () => {
  const r = await client.completions.create({ model, prompt: 'Hello world', max_tokens: 2, logprobs: 1, echo: true, ignore_eos: true });
  const lp = r.choices[0].logprobs;
  assert.equal(lp.tokens.length, r.usage.prompt_tokens + 2);
  assert.equal(lp.token_logprobs[0], null);
  assert.ok(lp.token_logprobs.slice(1).every((v) => typeof v === 'number' && v <= 0));
});

test('streamed completion', async () => {
  const stream = await client.completions.create({ model, prompt: 'Hi', max_tokens: 4, stream: true });
  let text = '';
  let finish = null;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.text ?? '';
    finish = chunk.choices[0]?.finish_reason ?? finish;
  }
  assert.equal(typeof text, 'string');
  assert.ok(['stop', 'length'].includes(finish));
});
