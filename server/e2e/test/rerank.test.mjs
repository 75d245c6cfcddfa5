// Reranking through Cohere's official SDK (cohere-ai, v2 client: POST
// /v2/rerank) and the Jina / llama-server shape (/v1/rerank, /rerank) with
// plain fetch, against the reranker that run.sh serves (MLX_E2E_RERANK_URL:
// the Qwen3 fixture with --pooling rank). Every shape must give the same
// scores, and a clear 400 for bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CohereClientV2, CohereError } from 'cohere-ai';
import { apiKey, baseURL, model } from './setup.mjs';

const rerankURL = process.env.MLX_E2E_RERANK_URL;
const rerankModel = process.env.MLX_E2E_RERANK_MODEL;
const skip = !rerankURL && 'no reranker served (MLX_E2E_RERANK_URL)';

const query = 'What is the capital of France?';
const documents = ['The capital of France is Paris.', 'naïve café – 東京 ✓', 'Bananas are yellow.', 'Paris, France'];

const cohere = (url) => new CohereClientV2({ token: apiKey, baseUrl: url, maxRetries: 0, timeoutInSeconds: 60 });

// post sends body to path of the reranker and returns the status and JSON.
async function post(path, body) {
  const res = await fetch(rerankURL + path, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

test('Cohere SDK v2.rerank: results by score, topN, meta', { skip }, async () => {
  const r = await cohere(rerankURL).rerank({ model: rerankModel, query, documents });
  assert.ok(r.id, 'an id');
  assert.equal(r.results.length, documents.length);
  assert.deepEqual(r.results.map((x) => x.index).sort(), [0, 1, 2, 3]);
  for (let k = 1; k < r.results.length; k++) {
    assert.ok(r.results[k - 1].relevanceScore >= r.results[k].relevanceScore, 'results by score');
  }
  for (const x of r.results) assert.ok(x.relevanceScore > 0 && x.relevanceScore < 1, `score ${x.relevanceScore}`);
  assert.equal(r.meta.apiVersion.version, '2');
  assert.ok(r.meta.billedUnits.searchUnits >= 1);
  assert.ok(r.meta.tokens.inputTokens > 0);

  const top = await cohere(rerankURL).rerank({ model: rerankModel, query, documents, topN: 2 });
  assert.deepEqual(top.results, r.results.slice(0, 2));

  // The Jina / llama-server shape scores the same.
  for (const path of ['/v1/rerank', '/rerank']) {
    const j = await post(path, { model: rerankModel, query, documents, top_n: documents.length });
    assert.equal(j.status, 200, JSON.stringify(j.body));
    for (const [k, x] of j.body.results.entries()) {
      assert.equal(x.index, r.results[k].index, `${path} result ${k}`);
      assert.ok(Math.abs(x.relevance_score - r.results[k].relevanceScore) < 1e-6, `${path} result ${k} score`);
      assert.equal(x.document.text, documents[x.index]);
    }
  }
});

// cohereRefusal returns the status and body of the SDK's error for request.
async function cohereRefusal(url, request) {
  try {
    await cohere(url).rerank(request);
  } catch (e) {
    assert.ok(e instanceof CohereError, `a CohereError, got ${e}`);
    return { status: e.statusCode, body: e.body };
  }
  assert.fail('the request was not refused');
}

const bad = [
  ['no documents', { query, documents: [] }, /documents must not be empty/],
  ['too many documents', { query, documents: Array(2049).fill('a') }, /at most 2048/],
  ['an empty query', { query: '', documents }, /query must not be empty/],
];

test('bad rerank requests: a 400 in Cohere\'s shape and in Jina\'s', { skip }, async () => {
  for (const [what, req, msg] of bad) {
    const c = await cohereRefusal(rerankURL, { model: rerankModel, ...req });
    assert.equal(c.status, 400, what);
    assert.match(c.body.message, msg, what);
    assert.ok(c.body.id, `${what}: an id`);
    const j = await post('/v1/rerank', { model: rerankModel, ...req });
    assert.equal(j.status, 400, what);
    assert.match(j.body.error.message, msg, what);
  }
});

test('a model that cannot rerank: a 400 in each shape', async () => {
  const root = baseURL.replace(/\/v1$/, '');
  const c = await cohereRefusal(root, { model, query, documents });
  assert.equal(c.status, 400);
  assert.match(c.body.message, /not a reranker/);
  const res = await fetch(baseURL + '/rerank', {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ model, query, documents }),
  });
  assert.equal(res.status, 400);
  assert.match((await res.json()).error.message, /not a reranker/);
});
