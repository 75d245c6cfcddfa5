// Embeddings through the clients that retrieval pipelines use: LangChain's
// OpenAIEmbeddings (@langchain/openai) and the Vercel AI SDK's embed and
// embedMany (OpenAI-compatible provider). Each vector must be the one the
// OpenAI SDK gets for its text alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OpenAIEmbeddings } from '@langchain/openai';
import { embed, embedMany } from 'ai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { apiKey, baseURL, client, model } from './setup.mjs';

const texts = ['The capital of France is Paris.', 'naïve café – 東京 ✓', 'Bananas are yellow.'];

// reference returns the unit vector of text from the OpenAI SDK, as floats.
async function reference(text) {
  const r = await client.embeddings.create({ model, input: text, encoding_format: 'float' });
  return r.data[0].embedding;
}

function assertClose(got, want, what) {
  assert.equal(got.length, want.length, `${what}: ${got.length} values, want ${want.length}`);
  for (let k = 0; k < want.length; k++) {
    assert.ok(Math.abs(got[k] - want[k]) < 1e-5, `${what} value ${k}: ${got[k]} vs ${want[k]}`);
  }
}

for (const encodingFormat of [undefined, 'float']) {
  // Without encodingFormat the OpenAI SDK under LangChain asks for base64
  // and decodes it.
  test(`LangChain OpenAIEmbeddings (${encodingFormat ?? 'base64 on the wire'}): embedDocuments and embedQuery`, async () => {
    const lc = new OpenAIEmbeddings({
      model, apiKey, encodingFormat, batchSize: 2, maxRetries: 0, configuration: { baseURL },
    });
    const docs = await lc.embedDocuments(texts); // two requests: a batch of 2, then 1
    assert.equal(docs.length, texts.length);
    for (const [i, text] of texts.entries()) assertClose(docs[i], await reference(text), `document ${i}`);
    assertClose(await lc.embedQuery(texts[0]), await reference(texts[0]), 'query');
  });
}

test('Vercel AI SDK: embedMany and embed', async () => {
  const provider = createOpenAICompatible({ name: 'mlx', baseURL, apiKey });
  const em = provider.embeddingModel(model);
  const { embeddings, usage } = await embedMany({ model: em, values: texts, maxRetries: 0 });
  assert.equal(embeddings.length, texts.length);
  for (const [i, text] of texts.entries()) assertClose(embeddings[i], await reference(text), `value ${i}`);
  assert.ok(usage.tokens > 0, `usage ${JSON.stringify(usage)}`);
  const one = await embed({ model: em, value: texts[1], maxRetries: 0 });
  assertClose(one.embedding, await reference(texts[1]), 'embed');
});
