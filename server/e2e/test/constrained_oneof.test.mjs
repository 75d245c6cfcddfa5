// Constrained output through the official OpenAI SDK, beyond the basics
// of constrained.test.mjs: oneOf unions (ajv checks that exactly one
// branch matches), nested schemas, a tool whose parameters are a union,
// and named tool choices in the Responses API and in a stream. The
// fixture model has random weights: the grammar alone shapes the output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Ajv from 'ajv';
import { client, model, user } from './setup.mjs';

const ajv = new Ajv({ allErrors: true });

// A discriminated union, a union told apart by required properties, and
// a union by type; every string, array and number is bounded.
const unionSchema = {
  type: 'object',
  properties: {
    shape: {
      oneOf: [
        { type: 'object', properties: { kind: { const: 'circle' }, r: { type: 'integer', minimum: 1, maximum: 9 } }, required: ['kind', 'r'] },
        { type: 'object', properties: { kind: { enum: ['square', 'rect'] }, w: { type: 'integer', minimum: 1, maximum: 9 } }, required: ['kind', 'w'] },
      ],
    },
    limit: {
      type: 'object',
      properties: { min: { type: 'integer', minimum: 0, maximum: 99 }, max: { type: 'integer', minimum: 0, maximum: 99 } },
      oneOf: [{ required: ['min'] }, { required: ['max'] }],
    },
    value: { oneOf: [{ type: 'string', maxLength: 4 }, { type: 'boolean' }, { type: 'null' }] },
  },
  required: ['shape', 'limit', 'value'],
  additionalProperties: false,
};

// Nested objects and arrays with enums and bounded numbers.
const orderSchema = {
  type: 'object',
  properties: {
    status: { enum: ['pending', 'paid', 'shipped'] },
    items: {
      type: 'array', minItems: 1, maxItems: 2,
      items: {
        type: 'object',
        properties: { sku: { type: 'string', maxLength: 5 }, qty: { type: 'integer', minimum: 1, maximum: 9 }, price: { type: 'number', minimum: 0, maximum: 100 } },
        required: ['sku', 'qty'],
        additionalProperties: false,
      },
    },
    note: { type: 'string', maxLength: 10 },
  },
  required: ['status', 'items'],
  additionalProperties: false,
};

const tools = [
  {
    type: 'function',
    function: {
      name: 'set_target',
      description: 'Aim at a point or a named place.',
      parameters: {
        type: 'object',
        properties: {
          target: {
            oneOf: [
              { type: 'object', properties: { x: { type: 'integer', minimum: 0, maximum: 9 }, y: { type: 'integer', minimum: 0, maximum: 9 } }, required: ['x', 'y'], additionalProperties: false },
              { type: 'string', maxLength: 6 },
            ],
          },
        },
        required: ['target'],
        additionalProperties: false,
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'lookup',
      parameters: { type: 'object', properties: { id: { type: 'integer', minimum: 0, maximum: 999 } }, required: ['id'], additionalProperties: false },
    },
  },
];

const validators = Object.fromEntries(tools.map((t) => [t.function.name, ajv.compile(t.function.parameters)]));

function assertValid(schema, text) {
  const validate = ajv.compile(schema);
  const value = JSON.parse(text);
  assert.ok(validate(value), `${text}: ${ajv.errorsText(validate.errors)}`);
  return value;
}

function assertArgs(name, args) {
  const validate = validators[name];
  assert.ok(validate, `call of undeclared ${name}`);
  assert.ok(validate(JSON.parse(args)), `${name}(${args}): ${ajv.errorsText(validate.errors)}`);
}

test('json_schema with oneOf unions: exactly one branch matches in every choice', async () => {
  const r = await client.chat.completions.create({
    model, messages: user('A shape as JSON.'), max_tokens: 200, n: 4, seed: 31, temperature: 1,
    response_format: { type: 'json_schema', json_schema: { name: 'union', strict: true, schema: unionSchema } },
  });
  assert.equal(r.choices.length, 4);
  for (const c of r.choices) {
    assert.equal(c.finish_reason, 'stop', c.message.content);
    const v = assertValid(unionSchema, c.message.content);
    assert.ok(('min' in v.limit) !== ('max' in v.limit), JSON.stringify(v.limit));
  }
});

test('json_schema with nested objects and arrays, streamed', async () => {
  const stream = await client.chat.completions.create({
    model, messages: user('An order as JSON.'), max_tokens: 250, seed: 32, stream: true,
    response_format: { type: 'json_schema', json_schema: { name: 'order', schema: orderSchema } },
  });
  let text = '';
  let finish;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta?.content ?? '';
    finish = chunk.choices[0]?.finish_reason ?? finish;
  }
  assert.equal(finish, 'stop', text);
  const v = assertValid(orderSchema, text);
  assert.ok(v.items.length >= 1);
});

test('a forced call of a tool whose parameters hold a union', async () => {
  const r = await client.chat.completions.create({
    model, messages: user('Aim.'), max_tokens: 200, n: 3, seed: 33, tools,
    tool_choice: { type: 'function', function: { name: 'set_target' } },
  });
  for (const c of r.choices) {
    assert.equal(c.finish_reason, 'tool_calls', JSON.stringify(c.message));
    assert.equal(c.message.tool_calls.length, 1);
    const call = c.message.tool_calls[0];
    assert.equal(call.function.name, 'set_target');
    assertArgs(call.function.name, call.function.arguments);
  }
});

test('a named tool choice, streamed: one call of that tool in the deltas', async () => {
  const stream = await client.chat.completions.create({
    model, messages: user('Find 7.'), max_tokens: 200, seed: 34, tools, stream: true,
    tool_choice: { type: 'function', function: { name: 'lookup' } },
  });
  let name = '';
  let args = '';
  let finish;
  for await (const chunk of stream) {
    for (const d of chunk.choices[0]?.delta?.tool_calls ?? []) {
      assert.equal(d.index, 0);
      name += d.function?.name ?? '';
      args += d.function?.arguments ?? '';
    }
    finish = chunk.choices[0]?.finish_reason ?? finish;
  }
  assert.equal(finish, 'tool_calls');
  assert.equal(name, 'lookup');
  assertArgs(name, args);
});

test('responses: a named function tool_choice forces one valid call of it', async () => {
  const r = await client.responses.create({
    model, input: 'Find something.', max_output_tokens: 200, temperature: 1,
    tools: tools.map((x) => ({ type: 'function', ...x.function })),
    tool_choice: { type: 'function', name: 'set_target' },
  });
  assert.equal(r.status, 'completed');
  const calls = r.output.filter((it) => it.type === 'function_call');
  assert.equal(calls.length, 1);
  assert.equal(calls[0].name, 'set_target');
  assertArgs(calls[0].name, calls[0].arguments);
});
