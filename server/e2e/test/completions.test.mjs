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

test('prompt_logprobs (vLLM extension) on completions and chat', async () => {
  const r = await client.completions.create({ model, prompt: 'Hello world, again', max_tokens: 2, prompt_logprobs: 2, echo: true, logprobs: 1 });
  const plp = r.choices[0].prompt_logprobs;
  assert.equal(plp.length, r.usage.prompt_tokens);
  assert.equal(plp[0], null);
  const echoed = r.choices[0].logprobs;
  for (let i = 1; i < plp.length; i++) {
    const entries = Object.values(plp[i]);
    assert.ok(entries.length >= 2 && entries.length <= 3, JSON.stringify(plp[i]));
    for (const e of entries) {
      assert.ok(e.logprob <= 0 && typeof e.decoded_token === 'string');
      assert.ok(e.rank === null || (Number.isInteger(e.rank) && e.rank >= 1));
    }
    // The prompt token's logprob is the one echo reports.
    assert.ok(entries.some((e) => Math.abs(e.logprob - echoed.token_logprobs[i]) < 1e-6));
  }
  const c = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }], max_tokens: 2, prompt_logprobs: 0 });
  assert.equal(c.prompt_logprobs.length, c.usage.prompt_tokens);
  for (const e of c.prompt_logprobs.slice(1)) assert.equal(Object.keys(e).length, 1);
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
