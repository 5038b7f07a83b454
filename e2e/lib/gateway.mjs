// Helpers of the inference gateway tests (gateway.test.mjs): the strata CLI
// on the data directory of the server under test (the catalog is data, so
// the test imports the models it needs), and one neutral description of a
// chat request sent through either official SDK, streaming or not, read back
// through each SDK's own types and stream accumulators.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as anthropicSDK from '@anthropic-ai/sdk';
import * as openaiSDK from 'openai';
import { STRATA_URL } from './harness.mjs';

const run = promisify(execFile);

/**
 * Runs the strata binary under test with args, on the data directory of the
 * running server (e2e/run exports STRATA_BIN and STRATA_DATA_DIR): the CLI
 * attaches to that embedded cluster and leaves it running. Resolves with
 * its stdout; rejects with its stderr when it fails.
 */
export async function strata(...args) {
  const bin = process.env.STRATA_BIN;
  const dataDir = process.env.STRATA_DATA_DIR;
  if (!bin || !dataDir) throw new Error('STRATA_BIN and STRATA_DATA_DIR are not set: run the suite with `bash e2e/run`');
  try {
    const { stdout } = await run(bin, args, {
      env: { ...process.env, STRATA_DATA_DIR: dataDir },
      timeout: 60_000,
      maxBuffer: 16 << 20,
    });
    return stdout;
  } catch (err) {
    throw new Error(`strata ${args.join(' ')} failed (${err.code ?? err.signal}): ${err.stderr || err.message}`);
  }
}

/** The upstream model both test models are served as (the dev upstream echoes it). */
export const UPSTREAM_MODEL = 'strata-dev-frontier';

/**
 * The two chat models the gateway tests add to the catalog: the same
 * upstream model behind an upstream of each wire format (the upstream
 * configuration e2e/run writes), free so that no credit runs out.
 */
export const MODELS = [
  { id: 'e2e-via-openai', upstream: 'dev', format: 'openai' },
  { id: 'e2e-via-messages', upstream: 'dev-messages', format: 'messages' },
];

function catalogEntry({ id, upstream }) {
  return {
    id,
    provider: 'strata-e2e',
    label: `e2e chat model on upstream ${upstream}`,
    kind: 'chat',
    capabilities: { intelligence: 5, speed: 5, cost: 1 },
    context_window: 200000,
    max_tokens: 8192,
    tags: ['e2e', 'tools', 'image'],
    tier: 'free',
    pricing: { input: 0, output: 0, cache_read: 0 },
    free: true,
    supports_tools: true,
    supports_images: true,
    status: 'live',
    upstream: { id: upstream, model: UPSTREAM_MODEL },
  };
}

/**
 * Adds MODELS to the catalog through the CLI: `models list --json` (the
 * current catalog as an importable file), the two entries added or
 * replaced, `models import FILE` (an import must keep every model the
 * catalog has). Returns the import's output.
 */
export async function importModels() {
  const file = JSON.parse(await strata('models', 'list', '--json'));
  assert.ok(Array.isArray(file.models) && file.models.length > 0, 'models list --json: no models');
  const ids = new Set(MODELS.map((m) => m.id));
  file.models = file.models.filter((m) => !ids.has(m.id)).concat(MODELS.map(catalogEntry));
  const dir = await mkdtemp(join(tmpdir(), 'strata-e2e-catalog-'));
  try {
    const path = join(dir, 'catalog.json');
    await writeFile(path, JSON.stringify(file, null, 2));
    return await strata('models', 'import', path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Polls the catalog listing (GET /v1/public/models) until it lists every id. */
export async function waitForModels(key, ids, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    const res = await fetch(new URL('/v1/public/models', STRATA_URL), { headers: { 'x-api-key': key } });
    last = `${res.status} ${await res.text()}`;
    if (res.status === 200) {
      const listed = new Set(JSON.parse(last.slice(4)).models.map((m) => m.id));
      if (ids.every((id) => listed.has(id))) return;
    }
    if (Date.now() > deadline) assert.fail(`the catalog did not list ${ids.join(', ')} within ${timeoutMs} ms: ${last}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A fetch that records every response the SDK receives (status and
 * headers): the request id of a streamed OpenAI completion is only in its
 * headers, and a test can count the HTTP requests an SDK made.
 */
export function recordingFetch() {
  const responses = [];
  return {
    responses,
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      responses.push({ url: String(input instanceof Request ? input.url : input), status: res.status, headers: res.headers });
      return res;
    },
  };
}

/** An OpenAI client on path ('/v1' or '/api/v1'), SDK retries off. */
export function openaiClient(apiKey, path = '/v1', rec = recordingFetch()) {
  return new openaiSDK.default({ baseURL: STRATA_URL + path, apiKey, maxRetries: 0, timeout: 30_000, fetch: rec.fetch });
}

/** An Anthropic client, SDK retries off. */
export function anthropicClient(apiKey, rec = recordingFetch()) {
  return new anthropicSDK.default({ baseURL: STRATA_URL, apiKey, maxRetries: 0, timeout: 30_000, fetch: rec.fetch });
}

export const WEATHER_SCHEMA = { type: 'object', properties: { city: { type: 'string' } } };

/**
 * The development upstream's one token rule (README, "The development
 * upstream"): a run of letters, digits and underscores, or any other single
 * non-space character. Whitespace is RE2's \s: [\t\n\f\r ].
 */
export function countTokens(text) {
  return (String(text).match(/[\p{L}\p{N}_]+|[^\t\n\f\r \p{L}\p{N}_]/gu) ?? []).length;
}

/** The image tokens of the rule: 85 an image. */
export const IMAGE_TOKENS = 85;

/**
 * The input tokens of scenario s by the rule: the system text, every
 * message part (text, 85 an image, a tool call's name and input JSON, a
 * tool result's text) and every tool's name, description and schema.
 */
export function inputTokens(s) {
  let n = countTokens(s.system ?? '');
  for (const t of s.turns) {
    n += countTokens(t.text ?? '');
    if (t.image) n += IMAGE_TOKENS;
    for (const c of t.calls ?? []) n += countTokens(c.name) + countTokens(c.args);
    for (const r of t.results ?? []) n += countTokens(r.content);
  }
  if (s.tools) n += countTokens('get_weather') + countTokens('weather') + countTokens(JSON.stringify(WEATHER_SCHEMA));
  return n;
}

/** The output tokens by the rule of a text and tool calls. */
export function outputTokens(text, calls = []) {
  return calls.reduce((n, c) => n + countTokens(c.name) + countTokens(c.args), countTokens(text));
}

/** A 1x1 PNG. */
export const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/*
 * A scenario is one request in neutral terms:
 *   { system, turns: [{ role, text, image, calls: [{id, name, args}], results: [{id, content}] }],
 *     tools, forced (a tool name), toolChoiceNone, maxTokens, stop }
 */

/** The OpenAI chat-completions params of scenario s. */
export function openaiParams(model, s) {
  const p = { model, messages: [] };
  if (s.maxTokens) p.max_tokens = s.maxTokens;
  if (s.system) p.messages.push({ role: 'system', content: s.system });
  if (s.stop) p.stop = s.stop;
  if (s.tools) {
    p.tools = [{ type: 'function', function: { name: 'get_weather', description: 'weather', parameters: WEATHER_SCHEMA } }];
  }
  if (s.forced) p.tool_choice = { type: 'function', function: { name: s.forced } };
  if (s.toolChoiceNone) p.tool_choice = 'none';
  for (const t of s.turns) {
    for (const r of t.results ?? []) p.messages.push({ role: 'tool', tool_call_id: r.id, content: r.content });
    if (t.role === 'assistant') {
      const m = { role: 'assistant', content: t.text ?? null };
      if (t.calls) {
        m.tool_calls = t.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } }));
      }
      p.messages.push(m);
    } else if (t.image) {
      p.messages.push({
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: `data:image/png;base64,${t.image}` } },
          { type: 'text', text: t.text },
        ],
      });
    } else if (t.text) {
      p.messages.push({ role: 'user', content: t.text });
    }
  }
  return p;
}

/** The Anthropic messages params of scenario s. */
export function anthropicParams(model, s) {
  const p = { model, max_tokens: s.maxTokens || 1024, messages: [] };
  if (s.system) p.system = s.system;
  if (s.stop) p.stop_sequences = [s.stop];
  if (s.tools) p.tools = [{ name: 'get_weather', description: 'weather', input_schema: WEATHER_SCHEMA }];
  if (s.forced) p.tool_choice = { type: 'tool', name: s.forced };
  if (s.toolChoiceNone) p.tool_choice = { type: 'none' };
  for (const t of s.turns) {
    const blocks = [];
    for (const r of t.results ?? []) blocks.push({ type: 'tool_result', tool_use_id: r.id, content: r.content });
    if (t.image) blocks.push({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: t.image } });
    if (t.text) blocks.push({ type: 'text', text: t.text });
    for (const c of t.calls ?? []) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: JSON.parse(c.args) });
    p.messages.push({ role: t.role, content: blocks });
  }
  return p;
}

/*
 * A result is what the client saw, in neutral terms:
 *   { text, calls: [{id, name, args}], stop (the messages format's stop reason; OpenAI's finish
 *     reasons mapped: stop → end_turn, tool_calls → tool_use, length → max_tokens), stopSequence,
 *     input, output, model, created, id, requestID (as the SDK exposes it), headerID (the
 *     response's request id header, from the recording fetch), deltas (text deltas streamed),
 *     error: { err, status, type, code, message, requestID, retryAfter } }
 * A stream that fails midway has error set and the accumulator's snapshot so far.
 */

const finishReasons = { stop: 'end_turn', tool_calls: 'tool_use', length: 'max_tokens' };

function fromCompletion(r, cc) {
  const ch = cc?.choices?.[0];
  if (ch) {
    r.text = ch.message?.content ?? '';
    r.calls = (ch.message?.tool_calls ?? []).map((tc) => ({ id: tc.id, name: tc.function.name, args: tc.function.arguments }));
    r.stop = finishReasons[ch.finish_reason] ?? ch.finish_reason ?? null;
  }
  r.input = cc?.usage?.prompt_tokens;
  r.output = cc?.usage?.completion_tokens;
  r.model = cc?.model;
  r.created = cc?.created;
  r.id = cc?.id;
}

function fromMessage(r, m) {
  r.text = '';
  r.calls = [];
  for (const b of m?.content ?? []) {
    if (b.type === 'text') r.text += b.text;
    if (b.type === 'tool_use') r.calls.push({ id: b.id, name: b.name, args: JSON.stringify(b.input) });
  }
  r.stop = m?.stop_reason ?? null;
  r.stopSequence = m?.stop_sequence ?? null;
  r.input = m?.usage?.input_tokens;
  r.output = m?.usage?.output_tokens;
  r.model = m?.model;
  r.id = m?.id;
}

function errorOf(err) {
  return {
    err,
    status: err.status,
    type: err.type ?? undefined,
    code: err.code ?? undefined,
    message: err.apiMessage ?? err.error?.message ?? err.message, // the body's message (Anthropic: apiMessage)
    requestID: err.requestID,
    retryAfter: err.headers?.get?.('retry-after') ?? null,
  };
}

/**
 * Sends scenario s to model through the OpenAI SDK (chat.completions.create,
 * or chat.completions.stream and its finalChatCompletion() accumulator, with
 * stream_options.include_usage). opts: { stream, path, signal, onDelta }.
 */
export async function viaOpenAI(key, model, s, { stream = false, path = '/v1', signal, onDelta } = {}) {
  const rec = recordingFetch();
  const client = openaiClient(key, path, rec);
  const params = openaiParams(model, s);
  const r = { text: '', calls: [], deltas: 0, responses: rec.responses };
  try {
    if (stream) {
      const st = client.chat.completions.stream({ ...params, stream_options: { include_usage: true } }, { signal });
      st.on('content', (delta) => {
        r.deltas++;
        onDelta?.(delta, r);
      });
      try {
        fromCompletion(r, await st.finalChatCompletion());
      } catch (err) {
        r.error = errorOf(err);
        // What the accumulator had when the stream failed.
        try {
          fromCompletion(r, st.currentChatCompletionSnapshot);
        } catch {}
      }
    } else {
      const { data, request_id: requestID } = await client.chat.completions.create(params, { signal }).withResponse();
      fromCompletion(r, data);
      r.requestID = requestID;
      r.bodyRequestID = data._request_id;
    }
  } catch (err) {
    r.error = errorOf(err);
  }
  r.headerID = rec.responses.at(-1)?.headers.get('x-request-id') ?? null;
  // ChatCompletionStream does not expose the request id: the header is it.
  if (stream && !r.error) r.requestID = r.headerID;
  if (r.error && !r.requestID) r.requestID = r.error.requestID;
  return r;
}

/**
 * Sends scenario s to model through the Anthropic SDK (messages.create, or
 * messages.stream and its finalMessage() accumulator). opts: { stream,
 * signal, onDelta }.
 */
export async function viaAnthropic(key, model, s, { stream = false, signal, onDelta } = {}) {
  const rec = recordingFetch();
  const client = anthropicClient(key, rec);
  const params = anthropicParams(model, s);
  const r = { text: '', calls: [], deltas: 0, responses: rec.responses };
  try {
    if (stream) {
      const st = client.messages.stream(params, { signal });
      st.on('text', (delta) => {
        r.deltas++;
        onDelta?.(delta, r);
      });
      try {
        fromMessage(r, await st.finalMessage());
      } catch (err) {
        r.error = errorOf(err);
        try {
          fromMessage(r, st.currentMessage);
        } catch {}
      }
      r.requestID = st.request_id;
    } else {
      const { data, request_id: requestID } = await client.messages.create(params, { signal }).withResponse();
      fromMessage(r, data);
      r.requestID = requestID;
      r.bodyRequestID = data._request_id;
    }
  } catch (err) {
    r.error = errorOf(err);
  }
  r.headerID = rec.responses.at(-1)?.headers.get('request-id') ?? null;
  if (r.error && !r.requestID) r.requestID = r.error.requestID;
  return r;
}

/** The client formats of the matrix: the messages SDK, and the OpenAI SDK on both of its paths. */
export const CLIENTS = [
  { name: 'anthropic', format: 'messages', sdk: anthropicSDK, send: (key, model, s, o) => viaAnthropic(key, model, s, o) },
  { name: 'openai /v1', format: 'openai', sdk: openaiSDK, send: (key, model, s, o) => viaOpenAI(key, model, s, { ...o, path: '/v1' }) },
  {
    name: 'openai /api/v1',
    format: 'openai',
    sdk: openaiSDK,
    send: (key, model, s, o) => viaOpenAI(key, model, s, { ...o, path: '/api/v1' }),
  },
];

export { anthropicSDK, openaiSDK };
