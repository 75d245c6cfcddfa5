// The model routes through the official OpenAI SDK.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { client, model } from './setup.mjs';

test('list models', async () => {
  const ids = [];
  for await (const m of client.models.list()) {
    assert.equal(m.object, 'model');
    assert.equal(typeof m.created, 'number');
    assert.equal(typeof m.owned_by, 'string');
    ids.push(m.id);
  }
  assert.ok(ids.length >= 1);
});

test('retrieve a model by its short name', async () => {
  const m = await client.models.retrieve(model);
  assert.equal(m.object, 'model');
  assert.ok(m.id.endsWith(model));
});
