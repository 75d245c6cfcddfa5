// The Vercel AI SDK's multi-step tool loop (generateText and streamText
// with stopWhen) through its OpenAI-compatible provider. The first step
// is forced to call the tool (the fixture model has random weights), the
// second may not call one: it answers after the tool's result, which the
// SDK sends back with the assistant's tool call (content null).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Ajv from 'ajv';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { apiKey, baseURL, model } from './setup.mjs';

const provider = createOpenAICompatible({ name: 'mlx', baseURL, apiKey, includeUsage: true });

const weatherParams = {
  type: 'object',
  properties: { city: { type: 'string', maxLength: 8 }, unit: { enum: ['c', 'f'] } },
  required: ['city', 'unit'],
  additionalProperties: false,
};
const validArgs = new Ajv().compile(weatherParams);

// loop returns the options of a two-step tool loop; calls counts the
// tool's executions.
function loop(calls, prompt, seed) {
  return {
    model: provider.chatModel(model),
    prompt,
    seed,
    maxOutputTokens: 120,
    maxRetries: 0,
    tools: {
      get_weather: tool({
        description: 'The weather in a city.',
        inputSchema: jsonSchema(weatherParams),
        execute: async (args) => {
          assert.ok(validArgs(args), JSON.stringify(args));
          calls.push(args);
          return { city: args.city, temperature: 21, unit: args.unit };
        },
      }),
    },
    prepareStep: ({ stepNumber }) => ({ toolChoice: stepNumber === 0 ? { type: 'tool', toolName: 'get_weather' } : 'none' }),
    stopWhen: stepCountIs(2),
  };
}

// checkSteps checks a two-step run: a tool call and its result, then an
// answer to a prompt that holds them, longer than the question alone.
async function checkSteps(steps, calls) {
  assert.equal(steps.length, 2);
  assert.equal(calls.length, 1);
  assert.equal(steps[0].finishReason, 'tool-calls');
  assert.equal(steps[0].toolCalls.length, 1);
  assert.equal(steps[0].toolResults.length, 1);
  const id = steps[0].toolCalls[0].toolCallId;
  assert.equal(steps[0].toolResults[0].toolCallId, id);
  assert.equal(steps[1].toolCalls.length, 0);
  assert.ok(['stop', 'length'].includes(steps[1].finishReason), steps[1].finishReason);
  const body = steps[1].request.body;
  const sent = (typeof body === 'string' ? JSON.parse(body) : body).messages;
  const call = sent.find((m) => m.role === 'assistant');
  assert.equal(call.content, null);
  assert.equal(call.tool_calls[0].id, id);
  assert.ok(sent.some((m) => m.role === 'tool' && m.tool_call_id === id));
  const alone = await generateText({ model: provider.chatModel(model), messages: sent.slice(0, 1), maxOutputTokens: 1, maxRetries: 0 });
  assert.ok(steps[1].usage.inputTokens > alone.usage.inputTokens,
    `input ${steps[1].usage.inputTokens}, the question alone ${alone.usage.inputTokens}`);
}

test('Vercel AI SDK: generateText runs a two-step tool loop', async () => {
  const calls = [];
  const r = await generateText(loop(calls, 'What is the weather in Rome?', 51));
  await checkSteps(r.steps, calls);
  assert.equal(typeof r.text, 'string');
});

test('Vercel AI SDK: streamText runs a two-step tool loop', async () => {
  const calls = [];
  const r = streamText(loop(calls, 'And in Oslo?', 52));
  let text = '';
  for await (const delta of r.textStream) text += delta;
  await checkSteps(await r.steps, calls);
  assert.equal(text, await r.text);
});
