// Embeddings through the official OpenAI SDK: embeddings.create asks for
// base64 by default and decodes it, or takes the floats as they are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { client, model } from './setup.mjs';

const norm = (v) => Math.sqrt(v.reduce((a, x) => a + x * x, 0));

test('embeddings.create: float and base64 give the same unit vectors', async () => {
  const input = ['The capital of France is Paris.', 'naïve café ✓'];
  const floats = await client.embeddings.create({ model, input, encoding_format: 'float' });
  const decoded = await client.embeddings.create({ model, input });
  assert.equal(floats.object, 'list');
  assert.equal(floats.data.length, 2);
  assert.ok(floats.usage.prompt_tokens > 0);
  assert.equal(floats.usage.total_tokens, floats.usage.prompt_tokens);
  for (const [i, d] of floats.data.entries()) {
    assert.equal(d.index, i);
    assert.ok(Math.abs(norm(d.embedding) - 1) < 1e-5, `norm ${norm(d.embedding)}`);
    const b = decoded.data[i].embedding;
    assert.equal(b.length, d.embedding.length);
    for (let k = 0; k < b.length; k++) assert.ok(Math.abs(b[k] - d.embedding[k]) < 1e-6, `value ${k}: ${b[k]} vs ${d.embedding[k]}`);
  }
});

test('embeddings.create: a batch gives each input its vector alone', async () => {
  const batch = await client.embeddings.create({ model, input: ['one', 'two words', 'three short words'], encoding_format: 'float' });
  for (const [i, text] of ['one', 'two words', 'three short words'].entries()) {
    const alone = await client.embeddings.create({ model, input: text, encoding_format: 'float' });
    const a = alone.data[0].embedding, b = batch.data[i].embedding;
    for (let k = 0; k < a.length; k++) assert.ok(Math.abs(a[k] - b[k]) < 1e-5, `input ${i} value ${k}`);
  }
});

test('embeddings.create: dimensions cuts and renormalises', async () => {
  const r = await client.embeddings.create({ model, input: 'Paris', dimensions: 16 });
  assert.equal(r.data[0].embedding.length, 16);
  assert.ok(Math.abs(norm(r.data[0].embedding) - 1) < 1e-5);
});

test('embeddings.create: an input longer than the context is a 400', async () => {
  const long = Array.from({ length: 1100 }, (_, i) => 10 + (i % 50));
  await assert.rejects(client.embeddings.create({ model, input: [long] }), (err) => {
    assert.equal(err.status, 400);
    assert.equal(err.code, 'context_length_exceeded');
    return true;
  });
});
