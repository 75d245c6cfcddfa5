// Constrained output through the official OpenAI SDK: JSON schema
// response formats, forced tool calls and the GBNF grammar extension. The
// fixture model has random weights, so every valid output shows that the
// grammar, not the model, shaped it. Outputs are checked with ajv.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Ajv from 'ajv';
import { client, model, user } from './setup.mjs';

const ajv = new Ajv({ allErrors: true });

// Every string, array and number is bounded, so any output ends.
const pointSchema = {
  type: 'object',
  properties: {
    label: { type: 'string', maxLength: 6 },
    x: { type: 'integer', minimum: -9, maximum: 99 },
    on: { anyOf: [{ type: 'boolean' }, { enum: ['auto'] }] },
    tags: { type: 'array', items: { enum: ['a', 'b'] }, maxItems: 2 },
  },
  required: ['label', 'x'],
  additionalProperties: false,
};

const tools = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'The weather in a city.',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string', maxLength: 8 }, unit: { enum: ['c', 'f'] } },
        required: ['city', 'unit'],
        additionalProperties: false,
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'lookup',
      parameters: { type: 'object', properties: { id: { type: 'integer', minimum: 0, maximum: 999 } }, required: ['id'] },
    },
  },
];

const toolSchema = Object.fromEntries(tools.map((t) => [t.function.name, ajv.compile(t.function.parameters)]));

// assertValid parses text as JSON and validates it against schema.
function assertValid(schema, text) {
  const value = JSON.parse(text);
  const validate = ajv.compile(schema);
  assert.ok(validate(value), `${text}: ${ajv.errorsText(validate.errors)}`);
  return value;
}

// assertCalls checks that a choice is only tool calls of declared tools
// (of name when given) whose arguments match their schema.
function assertCalls(choice, name) {
  assert.equal(choice.finish_reason, 'tool_calls', JSON.stringify(choice.message));
  assert.ok(!choice.message.content, `content ${JSON.stringify(choice.message.content)}`);
  const calls = choice.message.tool_calls;
  assert.ok(calls.length >= 1);
  for (const call of calls) {
    assert.equal(call.type, 'function');
    assert.match(call.id, /^call_/);
    if (name) assert.equal(call.function.name, name);
    const validate = toolSchema[call.function.name];
    assert.ok(validate, `call of undeclared ${call.function.name}`);
    const args = JSON.parse(call.function.arguments);
    assert.ok(validate(args), `${call.function.arguments}: ${ajv.errorsText(validate.errors)}`);
  }
  return calls;
}

test('response_format json_schema: every choice is valid JSON for the schema', async () => {
  const r = await client.chat.completions.create({
    model, messages: user('Give a point as JSON.'), max_tokens: 200, n: 3, seed: 11,
    response_format: { type: 'json_schema', json_schema: { name: 'point', strict: true, schema: pointSchema } },
  });
  assert.equal(r.choices.length, 3);
  for (const c of r.choices) {
    assert.equal(c.finish_reason, 'stop');
    const v = assertValid(pointSchema, c.message.content);
    assert.equal(typeof v.label, 'string');
  }
});

test('response_format json_schema, streamed: the deltas add up to valid JSON', async () => {
  const stream = await client.chat.completions.create({
    model, messages: user('A point.'), max_tokens: 200, seed: 12, stream: true,
    response_format: { type: 'json_schema', json_schema: { name: 'point', schema: pointSchema } },
  });
  let text = '';
  let finish;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta?.content ?? '';
    finish = chunk.choices[0]?.finish_reason ?? finish;
  }
  assert.equal(finish, 'stop');
  assertValid(pointSchema, text);
});

test('response_format json_object starts an object', async () => {
  const r = await client.chat.completions.create({
    model, messages: user('Answer in JSON.'), max_tokens: 40, seed: 13, response_format: { type: 'json_object' },
  });
  const c = r.choices[0];
  assert.match(c.message.content, /^\{/);
  if (c.finish_reason === 'stop') assert.equal(typeof JSON.parse(c.message.content), 'object');
});

test('a named tool_choice forces one valid call of that tool', async () => {
  const r = await client.chat.completions.create({
    model, messages: user('Weather in Rome?'), max_tokens: 200, n: 2, seed: 14, tools,
    tool_choice: { type: 'function', function: { name: 'get_weather' } },
  });
  for (const c of r.choices) assert.equal(assertCalls(c, 'get_weather').length, 1);
});

test('tool_choice required forces valid calls of the declared tools', async () => {
  const r = await client.chat.completions.create({
    model, messages: user('Do something.'), max_tokens: 200, n: 3, seed: 15, tools, tool_choice: 'required',
    parallel_tool_calls: false,
  });
  for (const c of r.choices) assert.equal(assertCalls(c).length, 1);
});

test('tool_choice required, streamed: the call comes as a tool_calls delta', async () => {
  const stream = await client.chat.completions.create({
    model, messages: user('Do something.'), max_tokens: 300, seed: 16, tools, tool_choice: 'required', stream: true,
  });
  const calls = [];
  let finish;
  for await (const chunk of stream) {
    calls.push(...(chunk.choices[0]?.delta?.tool_calls ?? []));
    finish = chunk.choices[0]?.finish_reason ?? finish;
  }
  assertCalls({ finish_reason: finish, message: { content: null, tool_calls: calls.map((c) => ({ ...c, type: 'function' })) } });
});

test('responses: text.format json_schema and a required tool call', async () => {
  const r = await client.responses.create({
    model, input: 'A point as JSON.', max_output_tokens: 200, temperature: 1,
    text: { format: { type: 'json_schema', name: 'point', strict: true, schema: pointSchema } },
  });
  assert.equal(r.status, 'completed');
  assert.deepEqual(r.text.format.schema, pointSchema);
  assertValid(pointSchema, r.output_text);
  const t = await client.responses.create({
    model, input: 'Weather?', max_output_tokens: 200, tool_choice: 'required', parallel_tool_calls: false,
    tools: tools.map((x) => ({ type: 'function', ...x.function })),
  });
  const calls = t.output.filter((it) => it.type === 'function_call');
  assert.equal(calls.length, 1);
  assert.ok(toolSchema[calls[0].name](JSON.parse(calls[0].arguments)), calls[0].arguments);
});

test('the grammar extension shapes chat and completions', async () => {
  const grammar = 'root ::= ("yes" | "no") ", " [0-9]{1,3} "."';
  const r = await client.chat.completions.create({ model, messages: user('Yes?'), max_tokens: 20, seed: 17, grammar });
  assert.match(r.choices[0].message.content, /^(yes|no), [0-9]{1,3}\.$/);
  const c = await client.completions.create({
    model, prompt: 'Point:', max_tokens: 200, seed: 18,
    response_format: { type: 'json_schema', json_schema: { name: 'point', schema: pointSchema } },
  });
  assertValid(pointSchema, c.choices[0].text);
});

for (const [name, extra, param] of [
  ['unsupported schema keyword', { response_format: { type: 'json_schema', json_schema: { name: 's', schema: { type: 'array', uniqueItems: true } } } },
    'response_format.json_schema.schema'],
  ['GBNF syntax error', { grammar: 'root ::= "a' }, 'grammar'],
  ['tool parameters that cannot be forced', { tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', not: {} } } }], tool_choice: 'required' },
    'tools[0].function.parameters'],
]) {
  test(`constraint error: ${name}`, async () => {
    await assert.rejects(
      client.chat.completions.create({ model, messages: user('Hi'), ...extra }),
      (err) => err instanceof OpenAI.BadRequestError && err.param === param,
    );
  });
}
