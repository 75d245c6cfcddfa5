// Shared setup of the end-to-end tests: the client of the server that
// run.sh started (MLX_E2E_URL, MLX_E2E_KEY, MLX_E2E_MODEL).
import OpenAI from 'openai';

export const baseURL = process.env.MLX_E2E_URL;
export const apiKey = process.env.MLX_E2E_KEY;
export const model = process.env.MLX_E2E_MODEL;

if (!baseURL || !apiKey || !model) {
  throw new Error('MLX_E2E_URL, MLX_E2E_KEY and MLX_E2E_MODEL must be set: run server/e2e/run.sh');
}

export const client = new OpenAI({ baseURL, apiKey, maxRetries: 0, timeout: 60_000 });

export const user = (content) => [{ role: 'user', content }];

// metric reads one unlabelled value from /metrics.
export async function metric(name) {
  const res = await fetch(baseURL.replace(/\/v1$/, '') + '/metrics', {
    headers: { Authorization: `Bearer ${apiKey}` },
  });
  const text = await res.text();
  const line = text.split('\n').find((l) => l.startsWith(name + ' '));
  if (!line) throw new Error(`no metric ${name}`);
  return Number(line.split(' ')[1]);
}

// waitFor polls cond for up to ms milliseconds.
export async function waitFor(ms, cond) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return cond();
}
