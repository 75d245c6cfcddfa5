// Several choices, best_of and beam search (use_beam_search, a vLLM
// extension) through the official OpenAI SDK, which sends the extension
// fields of the body as they are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { client, model, user } from './setup.mjs';

const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const choiceLogprob = (c) => sum(c.logprobs.token_logprobs);

test('n choices each count their tokens', async () => {
  const r = await client.completions.create({ model, prompt: 'Once', n: 3, max_tokens: 4, ignore_eos: true, temperature: 1, seed: 3 });
  assert.deepEqual(r.choices.map((c) => c.index), [0, 1, 2]);
  assert.equal(r.usage.completion_tokens, 12);
  for (const c of r.choices) assert.equal(c.finish_reason, 'length');
});

test('best_of returns the n most probable of its samples', async () => {
  const r = await client.completions.create({
    model, prompt: 'Once upon', n: 2, best_of: 5, max_tokens: 5, ignore_eos: true, temperature: 1, seed: 11, logprobs: 0,
  });
  assert.equal(r.choices.length, 2);
  const [a, b] = r.choices.map(choiceLogprob);
  assert.ok(a >= b, `choice 0 (${a}) ranks below choice 1 (${b})`);
  // Every sample is generated and counted.
  assert.equal(r.usage.completion_tokens, 25);
});

test('beam search: the best beams, ranked, deterministic, at least as probable as greedy', async () => {
  const body = { model, prompt: 'The weather today', n: 3, best_of: 4, max_tokens: 6, ignore_eos: true, logprobs: 0,
    use_beam_search: true, length_penalty: 0 };
  const r = await client.completions.create(body);
  assert.equal(r.choices.length, 3);
  assert.deepEqual(r.choices.map((c) => c.index), [0, 1, 2]);
  const scores = r.choices.map(choiceLogprob);
  for (let i = 1; i < scores.length; i++) assert.ok(scores[i - 1] >= scores[i] - 1e-5, JSON.stringify(scores));
  assert.equal(new Set(r.choices.map((c) => c.text)).size, 3, 'the beams are distinct');
  for (const c of r.choices) assert.equal(c.logprobs.tokens.join(''), c.text);
  const again = await client.completions.create(body);
  assert.deepEqual(again.choices.map((c) => c.text), r.choices.map((c) => c.text));
  const greedy = await client.completions.create({ model, prompt: 'The weather today', max_tokens: 6, ignore_eos: true, logprobs: 0, temperature: 0 });
  assert.ok(scores[0] >= choiceLogprob(greedy.choices[0]) - 1e-4, `beam ${scores[0]} below greedy ${choiceLogprob(greedy.choices[0])}`);
});

test('beam search on chat completions, with diverse groups', async () => {
  const r = await client.chat.completions.create({
    model, messages: user('Name a color'), n: 2, max_tokens: 5, logprobs: true, use_beam_search: true,
  });
  assert.equal(r.choices.length, 2);
  assert.notEqual(r.choices[0].message.content, r.choices[1].message.content);
  for (const c of r.choices) assert.ok(c.logprobs.content.length >= 1 && ['stop', 'length'].includes(c.finish_reason));
  const d = await client.chat.completions.create({
    model, messages: user('Name a color'), n: 4, best_of: 4, max_tokens: 4, use_beam_search: true,
    num_beam_groups: 2, diversity_penalty: 2, early_stopping: 'never',
  });
  assert.equal(d.choices.length, 4);
});

test('beam search errors', async () => {
  const bad = [
    [{ prompt: 'a', use_beam_search: true, stream: true }, 'use_beam_search'],
    [{ prompt: 'a', use_beam_search: true, early_stopping: 'soon' }, 'early_stopping'],
    [{ prompt: 'a', use_beam_search: true, best_of: 4, num_beam_groups: 3 }, 'num_beam_groups'],
    [{ prompt: 'a', use_beam_search: true, best_of: 2, diversity_penalty: 1 }, 'diversity_penalty'],
    [{ prompt: 'a', best_of: 3, n: 1, stream: true }, 'best_of'],
  ];
  for (const [extra, param] of bad) {
    await assert.rejects(
      client.completions.create({ model, max_tokens: 2, ...extra }),
      (err) => err instanceof OpenAI.BadRequestError && err.param === param,
      JSON.stringify(extra),
    );
  }
});
