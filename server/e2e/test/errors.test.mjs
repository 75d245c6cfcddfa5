// Errors, authentication and a client that aborts mid-stream.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { baseURL, client, metric, model, user, waitFor } from './setup.mjs';

test('unknown model is a 404 model_not_found', async () => {
  await assert.rejects(
    client.chat.completions.create({ model: 'no/such-model-here', messages: user('Hi') }),
    (err) => err instanceof OpenAI.NotFoundError && err.code === 'model_not_found' && err.param === 'model',
  );
});

for (const [name, extra, param] of [
  ['temperature out of range', { temperature: 5 }, 'temperature'],
  ['n of zero', { n: 0 }, 'n'],
  ['top_logprobs above 20', { logprobs: true, top_logprobs: 21 }, 'top_logprobs'],
  ['too many stop strings', { stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop'],
  ['bad tool_choice', { tool_choice: 'auto' }, 'tool_choice'],
]) {
  test(`bad parameter: ${name}`, async () => {
    await assert.rejects(
      client.chat.completions.create({ model, messages: user('Hi'), ...extra }),
      (err) => err instanceof OpenAI.BadRequestError && err.param === param && err.type === 'invalid_request_error',
    );
  });
}

test('completions suffix with a prompt of token ids is refused', async () => {
  await assert.rejects(
    client.completions.create({ model, prompt: [1, 2], suffix: 'b' }),
    (err) => err instanceof OpenAI.BadRequestError && err.param === 'prompt',
  );
});

test('a prompt over the context is a 400 that names both lengths', async () => {
  await assert.rejects(
    client.completions.create({ model, prompt: 'word '.repeat(5000), max_tokens: 1 }),
    (err) => err instanceof OpenAI.BadRequestError && err.code === 'context_length_exceeded' && /\d+ tokens/.test(err.message),
  );
});

test('a wrong API key is a 401', async () => {
  const bad = new OpenAI({ baseURL, apiKey: 'wrong-key', maxRetries: 0 });
  await assert.rejects(bad.models.list(), (err) => err instanceof OpenAI.AuthenticationError);
});

test('aborting a stream frees the server', async () => {
  const controller = new AbortController();
  const stream = await client.chat.completions.create(
    { model, messages: user('Write a long story'), max_tokens: 400, ignore_eos: true, stream: true },
    { signal: controller.signal },
  );
  let chunks = 0;
  // The SDK ends the iteration quietly (or with an abort error) once aborted.
  try {
    for await (const _ of stream) {
      if (++chunks === 3) controller.abort();
    }
  } catch (err) {
    assert.ok(err instanceof OpenAI.APIUserAbortError || err.name === 'AbortError', String(err));
  }
  assert.ok(chunks >= 3 && chunks < 400, `${chunks} chunks`);
  const freed = await waitFor(1000, async () => (await metric('mlx_sequences_running')) === 0);
  assert.ok(freed, 'a sequence still runs 1 s after the client aborted');
  // Only the /metrics request itself is in flight.
  assert.equal(await metric('mlx_http_requests_in_flight'), 1);
  const r = await client.chat.completions.create({ model, messages: user('Still there?'), max_tokens: 2 });
  assert.equal(r.choices.length, 1);
});
