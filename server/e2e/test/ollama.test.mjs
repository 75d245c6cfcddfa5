// Ollama's native API through the official Ollama JavaScript client
// (ollama-js), as Open WebUI and other Ollama tools call it. The fixture
// model has random weights: what is checked is the shape of every
// answer, that a JSON schema format is followed, and that tool calls
// and their results travel into the prompt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ollama } from 'ollama';
import Ajv from 'ajv';
import { baseURL, apiKey, model } from './setup.mjs';

const ollama = new Ollama({ host: baseURL.replace(/\/v1$/, ''), headers: { Authorization: `Bearer ${apiKey}` } });
const user = (content) => [{ role: 'user', content }];

// checkFinal checks the counts and timings of a last object.
function checkFinal(r) {
  assert.equal(r.done, true);
  assert.ok(['stop', 'length'].includes(r.done_reason), r.done_reason);
  assert.ok(r.prompt_eval_count > 0 && r.eval_count > 0, JSON.stringify(r));
  assert.ok(r.total_duration > 0 && r.eval_duration >= 0);
  assert.ok(!Number.isNaN(new Date(r.created_at).getTime()));
}

test('chat', async () => {
  const r = await ollama.chat({ model, messages: user('Say hi'), options: { num_predict: 6, temperature: 0, seed: 1 } });
  assert.equal(r.model, model);
  assert.equal(r.message.role, 'assistant');
  assert.equal(typeof r.message.content, 'string');
  checkFinal(r);
  assert.ok(r.eval_count <= 6);
  const again = await ollama.chat({ model, messages: user('Say hi'), options: { num_predict: 6, temperature: 0, seed: 1 } });
  assert.equal(again.message.content, r.message.content, 'greedy decoding repeats itself');
});

test('chat streaming', async () => {
  const parts = [];
  const stream = await ollama.chat({ model, messages: user('Count to five'), stream: true, think: false, options: { num_predict: 8 } });
  for await (const part of stream) parts.push(part);
  assert.ok(parts.length >= 2, `${parts.length} objects`);
  for (const p of parts.slice(0, -1)) assert.equal(p.done, false);
  const last = parts.at(-1);
  checkFinal(last);
  assert.equal(last.done_reason, 'length');
  assert.equal(last.eval_count, 8);
});

test('generate, streamed and not', async () => {
  const r = await ollama.generate({ model, prompt: 'Once upon a time', system: 'You tell stories.', options: { num_predict: 5 } });
  assert.equal(typeof r.response, 'string');
  checkFinal(r);
  let text = '';
  const stream = await ollama.generate({ model, prompt: 'Once upon a time', raw: true, stream: true, options: { num_predict: 5, temperature: 0 } });
  let last;
  for await (const part of stream) { text += part.response; last = part; }
  checkFinal(last);
  assert.equal(typeof text, 'string');
});

test('format with a JSON schema', async () => {
  const schema = {
    type: 'object',
    properties: { name: { type: 'string', maxLength: 10 }, age: { type: 'integer', minimum: 0, maximum: 120 } },
    required: ['name', 'age'],
    additionalProperties: false,
  };
  const r = await ollama.chat({ model, messages: user('A person as JSON'), format: schema, options: { num_predict: 80, seed: 5 } });
  assert.ok(new Ajv().compile(schema)(JSON.parse(r.message.content)), r.message.content);
  const j = await ollama.generate({ model, prompt: 'JSON please', format: 'json', options: { num_predict: 60, seed: 2 } });
  if (j.done_reason === 'stop') JSON.parse(j.response);
});

test('tools: declared, and a call with its result sent back', async () => {
  const tools = [{
    type: 'function',
    function: { name: 'get_weather', description: 'The weather in a city.', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  }];
  const r = await ollama.chat({
    model, tools, options: { num_predict: 10 },
    messages: [
      ...user('Weather in Rome?'),
      { role: 'assistant', content: '', tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Rome' } } }] },
      { role: 'tool', tool_name: 'get_weather', content: '{"temperature": 21}' },
    ],
  });
  checkFinal(r);
  for (const c of r.message.tool_calls ?? []) {
    assert.equal(c.function.name, 'get_weather');
    assert.equal(typeof c.function.arguments, 'object');
  }
});

test('list, show, ps, version', async () => {
  const list = await ollama.list();
  const entry = list.models.find((m) => m.name === model);
  assert.ok(entry, JSON.stringify(list));
  assert.match(entry.digest, /^[0-9a-f]{64}$/);
  assert.ok(entry.size > 0 && entry.details.format);
  const show = await ollama.show({ model });
  assert.ok(show.details.family && show.details.parameter_size, JSON.stringify(show.details));
  assert.ok(show.capabilities.includes('completion'));
  assert.ok(show.model_info['general.parameter_count'] > 0);
  const ps = await ollama.ps();
  const running = ps.models.find((m) => m.name === model);
  assert.ok(running && running.size > 0, JSON.stringify(ps));
  const { version } = await ollama.version();
  assert.equal(typeof version, 'string');
});

test('errors have Ollama\'s shape', async () => {
  await assert.rejects(ollama.chat({ model: 'no-such-model', messages: user('hi') }),
    (e) => e.status_code === 404 && /model "no-such-model" not found/.test(e.error));
  await assert.rejects(ollama.chat({ model, messages: [{ role: 'user', content: 'hi', images: ['aGk='] }] }),
    (e) => e.status_code === 400 && /images are not supported/.test(e.error));
});

test('embed', async () => {
  const r = await ollama.embed({ model, input: ['The capital of France', 'Paris'] });
  assert.equal(r.embeddings.length, 2);
  for (const v of r.embeddings) {
    const norm = Math.sqrt(v.reduce((a, x) => a + x * x, 0));
    assert.ok(Math.abs(norm - 1) < 1e-3, `norm ${norm}`);
  }
  assert.notDeepEqual(r.embeddings[0], r.embeddings[1]);
  assert.ok(r.prompt_eval_count > 0);
});

test('copy names the model again until delete', async () => {
  await ollama.copy({ source: model, destination: 'my-copy' });
  assert.ok((await ollama.list()).models.some((m) => m.name === 'my-copy'));
  const r = await ollama.generate({ model: 'my-copy', prompt: 'Hi', options: { num_predict: 2 } });
  assert.equal(r.model, 'my-copy');
  await ollama.delete({ model: 'my-copy' });
  assert.ok(!(await ollama.list()).models.some((m) => m.name === 'my-copy'));
  await assert.rejects(ollama.delete({ model }), (e) => e.status_code === 403 && /mlx rm/.test(e.error));
});

// The server run.sh starts with --allow-pull, over the fake hub of the CI
// pull test; absent when the GGUF fixture it serves is missing.
const pullURL = process.env.MLX_E2E_PULL_URL;
const pullModel = process.env.MLX_E2E_PULL_MODEL;

test('pull from the hub, with progress', { skip: !pullURL && 'no pulling server (MLX_E2E_PULL_URL)' }, async () => {
  const hub = new Ollama({ host: pullURL });
  assert.ok(!(await hub.list()).models.some((m) => m.name === pullModel), 'the model is in the cache before the pull');
  const parts = [];
  for await (const p of await hub.pull({ model: pullModel, stream: true })) parts.push(p);
  assert.equal(parts[0].status, 'pulling manifest');
  assert.equal(parts.at(-1).status, 'success');
  assert.ok(parts.some((p) => p.total > 0 && p.completed === p.total && p.status.startsWith('pulling ')), JSON.stringify(parts));
  assert.equal((await hub.pull({ model: pullModel })).status, 'success');
  assert.ok((await hub.list()).models.some((m) => m.name === pullModel));
  checkFinal(await hub.generate({ model: pullModel, prompt: 'Hi', options: { num_predict: 2 } }));
  await assert.rejects(hub.pull({ model: 'test/not-on-the-hub' }), (e) => e.status_code === 404);
});
