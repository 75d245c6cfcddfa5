// Speculative decoding through the official OpenAI SDK: prompt lookup
// (prompt_lookup_num_tokens) and a draft model (num_assistant_tokens,
// assistant_confidence_threshold, when the server runs with --draft) give
// the same greedy output as plain decoding.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { client, model, user } from './setup.mjs';

const greedy = { model, prompt: 'The capital of France is', max_tokens: 48, temperature: 0, ignore_eos: true };
const off = { prompt_lookup_num_tokens: 0, num_assistant_tokens: 0 };
const tokens = (u) => [u.prompt_tokens, u.completion_tokens];

test('prompt lookup keeps the greedy output, streamed or not', async () => {
  const plain = await client.completions.create({ ...greedy, ...off });
  const spec = await client.completions.create({ ...greedy, ...off, prompt_lookup_num_tokens: 8 });
  assert.equal(spec.choices[0].text, plain.choices[0].text);
  assert.deepEqual(tokens(spec.usage), tokens(plain.usage));
  const stream = await client.completions.create({ ...greedy, ...off, prompt_lookup_num_tokens: 8, stream: true });
  let text = '';
  let chunks = 0;
  for await (const c of stream) {
    text += c.choices[0]?.text ?? '';
    chunks++;
  }
  assert.equal(text, plain.choices[0].text);
  assert.ok(chunks <= 48 + 2, `${chunks} chunks`);
});

test('chat with prompt lookup in nvext', async () => {
  const body = { model, messages: user('Count to ten'), max_tokens: 24, temperature: 0 };
  const plain = await client.chat.completions.create({ ...body, ...off });
  const spec = await client.chat.completions.create({ ...body, nvext: { prompt_lookup_num_tokens: 5, num_assistant_tokens: 0 } });
  assert.equal(spec.choices[0].message.content, plain.choices[0].message.content);
  assert.equal(spec.choices[0].finish_reason, plain.choices[0].finish_reason);
});

test('draft model: same output, or a clear error without one', async () => {
  const plain = await client.completions.create({ ...greedy, ...off });
  try {
    const spec = await client.completions.create({ ...greedy, ...off, num_assistant_tokens: 4, assistant_confidence_threshold: 0 });
    assert.equal(spec.choices[0].text, plain.choices[0].text);
    assert.deepEqual(tokens(spec.usage), tokens(plain.usage));
  } catch (e) {
    assert.ok(e instanceof OpenAI.BadRequestError, String(e));
    assert.equal(e.param, 'num_assistant_tokens');
    assert.match(e.message, /draft/);
  }
});

test('speculation errors name the field', async () => {
  for (const [field, value] of [['prompt_lookup_num_tokens', 99], ['num_assistant_tokens', -1], ['assistant_confidence_threshold', 2]]) {
    await assert.rejects(client.completions.create({ ...greedy, [field]: value }), (e) => {
      assert.ok(e instanceof OpenAI.BadRequestError, String(e));
      assert.equal(e.param, field);
      return true;
    });
  }
});
