// The Conversations API, and responses that continue a conversation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { client, model } from './setup.mjs';

async function listItems(id, query) {
  const items = [];
  for await (const it of client.conversations.items.list(id, query)) items.push(it);
  return items;
}

test('conversations: create, retrieve, update, delete', async () => {
  const conv = await client.conversations.create({ metadata: { topic: 'e2e' } });
  assert.match(conv.id, /^conv_/);
  assert.equal(conv.object, 'conversation');
  assert.deepEqual(conv.metadata, { topic: 'e2e' });
  assert.equal((await client.conversations.retrieve(conv.id)).id, conv.id);
  const updated = await client.conversations.update(conv.id, { metadata: { topic: 'changed' } });
  assert.deepEqual(updated.metadata, { topic: 'changed' });
  const del = await client.conversations.delete(conv.id);
  assert.equal(del.deleted, true);
  assert.equal(del.object, 'conversation.deleted');
  await assert.rejects(client.conversations.retrieve(conv.id), (err) => err instanceof OpenAI.NotFoundError);
});

test('conversations: items create, list, retrieve, delete', async () => {
  const conv = await client.conversations.create({ items: [{ type: 'message', role: 'user', content: 'first' }] });
  const added = await client.conversations.items.create(conv.id, {
    items: [{ type: 'message', role: 'assistant', content: 'second' }, { type: 'message', role: 'user', content: 'third' }],
  });
  assert.equal(added.data.length, 2);
  const asc = await listItems(conv.id, { order: 'asc', limit: 2 }); // two pages
  assert.deepEqual(asc.map((it) => it.content[0].text), ['first', 'second', 'third']);
  assert.deepEqual(asc.map((it) => it.content[0].type), ['input_text', 'output_text', 'input_text']);
  const desc = await listItems(conv.id);
  assert.deepEqual(desc.map((it) => it.id), asc.map((it) => it.id).reverse());
  const one = await client.conversations.items.retrieve(asc[1].id, { conversation_id: conv.id });
  assert.equal(one.role, 'assistant');
  await client.conversations.items.delete(asc[1].id, { conversation_id: conv.id });
  assert.equal((await listItems(conv.id)).length, 2);
  await assert.rejects(
    client.conversations.items.retrieve(asc[1].id, { conversation_id: conv.id }),
    (err) => err instanceof OpenAI.NotFoundError,
  );
});

test('responses continue a conversation and append to it', async () => {
  const conv = await client.conversations.create({ items: [{ type: 'message', role: 'user', content: 'My name is Ada.' }] });
  const r1 = await client.responses.create({ model, conversation: conv.id, input: 'Hello', max_output_tokens: 6 });
  assert.equal(r1.conversation.id, conv.id);
  const r2 = await client.responses.create({ model, conversation: { id: conv.id }, input: 'What is my name?', max_output_tokens: 6 });
  assert.ok(r2.usage.input_tokens > r1.usage.input_tokens, 'the conversation is in the prompt');
  const items = await listItems(conv.id, { order: 'asc' });
  const users = items.filter((it) => it.type === 'message' && it.role === 'user').map((it) => it.content[0].text);
  assert.deepEqual(users, ['My name is Ada.', 'Hello', 'What is my name?']);
  const outputs = new Set([...r1.output, ...r2.output].map((it) => it.id));
  assert.equal(items.filter((it) => outputs.has(it.id)).length, outputs.size, 'the output items are in the conversation');
  await assert.rejects(
    client.responses.create({ model, conversation: 'conv_missing', input: 'x' }),
    (err) => err instanceof OpenAI.NotFoundError && err.param === 'conversation',
  );
});
