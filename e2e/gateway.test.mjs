// The inference gateway's chat routes through the official npm SDKs,
// `openai` (chat.completions on /v1 and /api/v1) and `@anthropic-ai/sdk`
// (messages): every scenario x client format x upstream format x streaming
// on and off, against the `strata serve` and `strata dev-upstream` that
// e2e/run started. The upstream format is chosen by the model: the test
// imports two catalog models (with the CLI, as an operator would) served by
// the same development upstream through an upstream of each format. Streams
// are read with each SDK's own accumulator (chat.completions.stream() /
// finalChatCompletion(), messages.stream() / finalMessage()); SDK retries
// are off everywhere, so an error status is the gateway's own answer.
// The expectations are the Go matrix's (readapi/gateway/chat_test.go) and
// the development upstream's documented rules (README).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { STRATA_URL, apiCall, registerAccount, unique } from './lib/harness.mjs';
import {
  CLIENTS,
  MODELS,
  PNG_BASE64,
  UPSTREAM_MODEL,
  anthropicClient,
  countTokens,
  importModels,
  inputTokens,
  openaiClient,
  outputTokens,
  recordingFetch,
  strata,
  viaOpenAI,
  waitForModels,
} from './lib/gateway.mjs';

const REQUEST_ID = /^req_[0-9a-f]{24}$/;
// What a 502 or 503 left once the retries are spent says after its reason
// (README: the seed's "model loading").
const LOADING = ' (the model may be loading: retry in 5-10 seconds)';
// What [[tokens:N]] answers with, one token a word, in this order (wrapping).
const VOCABULARY = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa'.split(' ');

/** The account the matrix runs as, its API key and the key's id. */
let account;
let key;
let keyID;

/** What the usage records must say: one entry per request whose id the client learned. */
const expectedRecords = [];
/** Requests aborted before any answer (their client never learned the id): counted per model. */
const anonymousRecords = [];
/** Requests whose scenario check failed (reported there). */
const uncheckedIDs = new Set();

async function createKey(accessToken, name) {
  const res = await apiCall('POST', '/api/v1/api-keys', { token: accessToken, body: { name } });
  assert.equal(res.status, 201, `POST /api/v1/api-keys: ${res.status} ${res.text}`);
  assert.match(res.body.api_key, /^sk_live_/);
  return res.body;
}

async function poll(what, fn, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    last = await fn();
    if (last.done) return last.value;
    if (Date.now() > deadline) assert.fail(`${what} within ${timeoutMs} ms: ${last.why}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

before(async () => {
  account = await registerAccount('gateway');
  const created = await createKey(account.accessToken, 'e2e gateway');
  key = created.api_key;
  keyID = created.id;
  // The matrix sends some 300 requests: more than the starter plan's 60 an
  // hour (every account's default). An operator moves the account up.
  const out = await strata('users', 'set-plan', account.email, 'enterprise', '--line', 'gateway');
  assert.match(out, /gateway plan enterprise/, out);
  await poll('the balance route did not show the enterprise plan', async () => {
    const res = await fetch(new URL('/api/v1/public/credits/balance', STRATA_URL), { headers: { 'x-api-key': key } });
    const body = await res.json();
    return { done: res.status === 200 && body.plan?.id === 'enterprise', why: JSON.stringify(body.plan) };
  });
  const imported = await importModels();
  assert.match(imported, /^imported .*(added|changed): e2e-via-messages, e2e-via-openai|is the catalog already/s, imported);
  await waitForModels(key, MODELS.map((m) => m.id));
});

const userSays = (text) => ({ turns: [{ role: 'user', text }] });

/** A completed answer: no error, the catalog model named, the request id wherever the SDK shows it. */
function completed(r, c) {
  assert.equal(r.error, undefined, `unexpected error: ${r.error?.err?.stack ?? ''}`);
  assert.equal(r.model, c.model.id, 'the answer names the catalog model that served it');
  assert.match(r.requestID ?? '', REQUEST_ID, 'request id');
  assert.equal(r.headerID, r.requestID, 'the request id header');
  if (!c.stream) assert.equal(r.bodyRequestID, r.requestID, "the SDK's _request_id");
  assert.equal(r.responses.length, 1, 'one HTTP request (SDK retries are off)');
}

/**
 * An error answer: the SDK's own error class per client format, the status,
 * the format's error type, the request id, one HTTP request.
 */
function refused(r, c, { status, cls, type, message }) {
  assert.ok(r.error, `expected an error; got ${JSON.stringify({ text: r.text, stop: r.stop })}`);
  const Want = c.client.sdk[cls[c.client.format] ?? cls];
  assert.ok(r.error.err instanceof Want, `${r.error.err?.constructor?.name} is not ${Want.name}: ${r.error.err?.message}`);
  assert.equal(r.error.status, status, 'status');
  assert.equal(r.error.type, type[c.client.format] ?? type, 'error type');
  if (message) assert.equal(r.error.message, message, 'message');
  assert.match(r.error.requestID ?? '', REQUEST_ID, 'request id');
  assert.equal(r.error.requestID, r.headerID, 'the request id header');
  assert.equal(r.responses.length, 1, 'one HTTP request (SDK retries are off)');
}

/** The words of a [[tokens:N]] answer follow the vocabulary's order from some word. */
function vocabularyRun(text, n) {
  const words = text.split(' ');
  assert.equal(words.length, n, `${n} words: ${text}`);
  const start = VOCABULARY.indexOf(words[0]);
  assert.ok(start >= 0, text);
  words.forEach((w, i) => assert.equal(w, VOCABULARY[(start + i) % VOCABULARY.length], text));
}

const weatherCall = (args) => ({ name: 'get_weather', args });

function toolCalls(r, want) {
  assert.deepEqual(
    r.calls.map(({ name, args }) => ({ name, args })),
    want,
    'tool calls',
  );
  for (const call of r.calls) assert.ok(call.id, 'a tool call has an id');
  assert.equal(new Set(r.calls.map((x) => x.id)).size, r.calls.length, `tool call ids are distinct: ${r.calls.map((x) => x.id)}`);
}

// The XML the development upstream adds for [[xml]] (the first offered
// tool's name, or "lookup"): the client never sees it, its tokens count.
const xmlOutput = outputTokens('Checking. <tool_call>{"name": "lookup", "arguments": {"q": "x"}}</tool_call> You said: look');

const upstreamFailures = {
  429: {
    status: 429,
    cls: 'RateLimitError',
    type: 'rate_limit_error',
    message: 'development upstream: scripted Too Many Requests',
  },
  503: {
    status: 503,
    cls: { messages: 'ServiceUnavailableError', openai: 'InternalServerError' },
    type: { messages: 'overloaded_error', openai: 'service_unavailable_error' },
    message: `development upstream: scripted Service Unavailable${LOADING}`,
  },
};

/**
 * The input tokens a stream's record keeps when it ends before the
 * upstream's final usage: the messages format says them at the start
 * (message_start); the OpenAI format only in its last chunk, so for a
 * stream from an openai upstream the gateway counts them by its own token
 * rule, the one the development upstream counts by: the same figure.
 */
const earlyInput = (s) => inputTokens(s);

/*
 * The scenarios. Each runs for every client (anthropic; openai on /v1 and on
 * /api/v1) x model (upstream format) x stream off and on. check(r, c, s)
 * asserts what the client saw; record(r, c, s) is what the usage record must
 * say (default: completed, with the usage the client saw); sameUsage: every
 * combination reported the same usage (streamed = unstreamed, and the same
 * whichever formats carried it).
 */
const SCENARIOS = [
  {
    name: 'plain text',
    s: userSays('Hello, world!'),
    check(r, c) {
      completed(r, c);
      assert.equal(r.text, 'You said: Hello, world!');
      assert.deepEqual(r.calls, []);
      assert.equal(r.stop, 'end_turn');
      assert.equal(r.input, 4);
      assert.equal(r.output, 7);
    },
  },
  {
    name: 'system prompt',
    s: { system: 'Be brief.', ...userSays('Hello, world!') },
    check(r, c) {
      completed(r, c);
      assert.equal(r.text, 'You said: Hello, world!');
      assert.equal(r.stop, 'end_turn');
      assert.equal(r.input, 7, 'the system text counts (3 tokens)');
      assert.equal(r.output, 7);
    },
  },
  {
    name: 'multi-turn',
    s: { turns: [{ role: 'user', text: 'Hi' }, { role: 'assistant', text: 'Hello.' }, { role: 'user', text: 'second' }] },
    check(r, c) {
      completed(r, c);
      assert.equal(r.text, 'You said: second');
      assert.equal(r.stop, 'end_turn');
      assert.equal(r.input, 4, 'every turn counts');
      assert.equal(r.output, 4);
    },
  },
  {
    name: 'system prompt and turns, as the upstream decoded them ([[echo]])',
    s: {
      system: 'Be brief.',
      turns: [{ role: 'user', text: 'Hi' }, { role: 'assistant', text: 'Hello.' }, { role: 'user', text: '[[echo]]' }],
    },
    check(r, c) {
      completed(r, c);
      assert.equal(r.stop, 'end_turn');
      const up = JSON.parse(r.text);
      assert.equal(up.Model, UPSTREAM_MODEL, "the upstream is asked for the catalog entry's upstream model");
      assert.deepEqual(up.System.map((p) => p.Text), ['Be brief.']);
      assert.deepEqual(
        up.Messages.map((m) => [m.Role, m.Content.map((p) => `${p.Type}:${p.Text}`)]),
        [
          ['user', ['text:Hi']],
          ['assistant', ['text:Hello.']],
          ['user', ['text:[[echo]]']],
        ],
      );
      assert.equal(up.Stream, c.stream, 'streamed upstream exactly when the client streams');
      assert.equal(up.IncludeUsage, c.stream && c.model.format === 'openai', 'an openai upstream stream is asked for its usage');
      // The messages SDK always sends max_tokens (1024 here); the OpenAI
      // request sends none: min(4,096, the model's ceiling 8,192).
      assert.equal(up.MaxTokens, c.client.format === 'messages' ? 1024 : 4096);
      assert.equal(r.input, 11);
      assert.equal(r.output, countTokens(r.text));
    },
  },
  {
    name: 'non-ASCII text, streamed one token a delta',
    s: userSays('Grüße, 世界 🌍 — ok'),
    check(r, c) {
      completed(r, c);
      assert.equal(r.text, 'You said: Grüße, 世界 🌍 — ok');
      assert.equal(r.input, 6);
      assert.equal(r.output, 9);
      if (c.stream) assert.equal(r.deltas, 9, 'one text delta a token');
    },
  },
  {
    name: 'an image',
    s: { turns: [{ role: 'user', text: 'What is this?', image: PNG_BASE64 }] },
    check(r, c) {
      completed(r, c);
      assert.equal(r.text, 'You said: What is this?');
      assert.equal(r.input, 85 + 4, 'an image counts 85');
      assert.equal(r.output, 7);
    },
  },
  {
    name: 'one tool call',
    s: { tools: true, ...userSays('[[tool:get_weather {"city":"Paris"}]]') },
    check(r, c, s) {
      completed(r, c);
      toolCalls(r, [weatherCall('{"city":"Paris"}')]);
      assert.equal(r.text, '');
      assert.equal(r.stop, 'tool_use');
      assert.equal(r.input, inputTokens(s));
      assert.equal(r.output, outputTokens('', r.calls));
    },
  },
  {
    name: 'parallel tool calls',
    s: { tools: true, ...userSays('[[tool:get_weather {"city":"Paris"}]] [[tool:get_weather {"city":"Oslo"}]]') },
    check(r, c) {
      completed(r, c);
      toolCalls(r, [weatherCall('{"city":"Paris"}'), weatherCall('{"city":"Oslo"}')]);
      assert.equal(r.stop, 'tool_use');
      assert.equal(r.input, 63);
      assert.equal(r.output, 20);
    },
  },
  {
    name: 'parallel tool calls of the first tool ([[parallel-tools:3]])',
    s: { tools: true, ...userSays('[[parallel-tools:3]]') },
    check(r, c, s) {
      completed(r, c);
      toolCalls(r, [weatherCall('{"n":1}'), weatherCall('{"n":2}'), weatherCall('{"n":3}')]);
      assert.equal(r.stop, 'tool_use');
      assert.equal(r.input, inputTokens(s));
      assert.equal(r.output, outputTokens('', r.calls));
    },
  },
  {
    name: 'tool result round trip',
    s: {
      tools: true,
      turns: [
        { role: 'user', text: 'weather?' },
        { role: 'assistant', calls: [{ id: 'call_1', name: 'get_weather', args: '{"city":"Paris"}' }] },
        { role: 'user', results: [{ id: 'call_1', content: 'sunny' }] },
      ],
    },
    check(r, c, s) {
      completed(r, c);
      assert.equal(r.text, 'The tool returned: sunny');
      assert.deepEqual(r.calls, []);
      assert.equal(r.stop, 'end_turn');
      assert.equal(r.input, inputTokens(s), 'the call and its result count');
      assert.equal(r.input, 44);
      assert.equal(r.output, 5);
    },
  },
  {
    name: 'forced tool',
    s: { tools: true, forced: 'get_weather', ...userSays('anything') },
    check(r, c) {
      completed(r, c);
      toolCalls(r, [weatherCall('{}')]);
      assert.equal(r.text, '');
      assert.equal(r.stop, 'tool_use');
      assert.equal(r.output, 3);
    },
  },
  {
    name: 'tool choice none',
    s: { tools: true, toolChoiceNone: true, ...userSays('[[tool:get_weather {"city":"Paris"}]] weather?') },
    check(r, c) {
      completed(r, c);
      assert.deepEqual(r.calls, [], 'no tool is called');
      assert.equal(r.text, 'You said: weather?');
      assert.equal(r.stop, 'end_turn');
      assert.equal(r.input, 49);
    },
  },
  {
    name: 'max_tokens stop',
    s: { maxTokens: 10, ...userSays('[[tokens:50]]') },
    check(r, c) {
      completed(r, c);
      assert.equal(r.stop, 'max_tokens');
      assert.equal(r.output, 10);
      vocabularyRun(r.text, 10);
    },
  },
  {
    name: 'stop sequence',
    s: { stop: 'END', ...userSays('go [[stop:END]]') },
    check(r, c) {
      completed(r, c);
      assert.equal(r.text, 'You said: go');
      if (c.client.format === 'messages') {
        assert.equal(r.stop, 'stop_sequence');
        assert.equal(r.stopSequence, 'END');
      } else {
        assert.equal(r.stop, 'end_turn', 'finish_reason stop');
      }
      assert.equal(r.output, 4);
    },
  },
  {
    name: 'stray <tool_call> XML stripped',
    s: userSays('[[xml]] look'),
    check(r, c) {
      completed(r, c);
      assert.equal(r.text, 'Checking.  You said: look');
      assert.deepEqual(r.calls, []);
      assert.equal(r.stop, 'end_turn');
      assert.equal(r.output, xmlOutput, "the upstream's tokens, the stripped XML's included");
    },
  },
  {
    name: 'stray <tool_call> XML made a tool call when tools are offered',
    s: { tools: true, ...userSays('[[xml]] look') },
    check(r, c) {
      completed(r, c);
      assert.equal(r.text, 'Checking.  You said: look');
      assert.doesNotMatch(r.text, /tool_call/);
      toolCalls(r, [weatherCall('{"q":"x"}')]);
      assert.equal(r.stop, 'tool_use');
      assert.equal(r.output, xmlOutput);
    },
  },
  {
    name: 'upstream 429',
    s: userSays('[[fail:429 retry-after=0]]'),
    check(r, c) {
      refused(r, c, upstreamFailures[429]);
      assert.equal(r.error.retryAfter, '0', "the upstream's Retry-After");
    },
    record: () => ({ status: 'failed', input: 0, output: 0 }),
    sameUsage: false,
  },
  {
    name: 'upstream 503',
    s: userSays('[[fail:503 retry-after=0]]'),
    check(r, c) {
      refused(r, c, upstreamFailures[503]);
      assert.equal(r.error.retryAfter, '0', "the upstream's Retry-After");
    },
    record: () => ({ status: 'failed', input: 0, output: 0 }),
    sameUsage: false,
  },
  {
    name: 'upstream 429 once: the gateway retries, the client sees one answer',
    make: () => userSays(`[[fail:429 retry-after=0 times=1]] retry-${unique()}`),
    check(r, c, s) {
      completed(r, c);
      assert.equal(r.text, `You said: ${s.turns[0].text.replace(/^\[\[[^\]]*\]\] /, '')}`);
      assert.equal(r.stop, 'end_turn');
    },
  },
  {
    name: 'upstream error mid-stream',
    s: userSays('[[tokens:20]] [[error:after=5]]'),
    check(r, c) {
      if (!c.stream) {
        // A reply: the upstream answers 500.
        refused(r, c, {
          status: 500,
          cls: 'InternalServerError',
          type: { messages: 'api_error', openai: 'server_error' },
          message: 'development upstream: scripted error',
        });
        return;
      }
      // The stream's error event, as the SDK's stream error: a 200 was sent.
      assert.ok(r.error, `the stream ended without an error: ${r.text}`);
      assert.ok(r.error.err instanceof c.client.sdk.APIError, String(r.error.err));
      assert.equal(r.error.status, undefined, 'no status: the error came in the stream');
      assert.equal(r.error.type, { messages: 'overloaded_error', openai: 'service_unavailable_error' }[c.client.format]);
      assert.equal(r.error.message, 'development upstream: scripted error mid-stream');
      assert.equal(r.deltas, 5, 'the five deltas before the error');
      vocabularyRun(r.text, 5);
      assert.equal(r.stop, null, 'no stop reason');
      assert.match(r.headerID ?? '', REQUEST_ID);
    },
    record: (r, c, s) =>
      c.stream ? { status: 'interrupted', input: earlyInput(s), output: 5 } : { status: 'failed', input: 0, output: 0 },
    sameUsage: false,
  },
  {
    name: 'upstream stream cut off',
    s: userSays('[[tokens:20]] [[cut:after=5]]'),
    check(r, c) {
      if (!c.stream) {
        // A reply: the connection closes with no answer, every attempt.
        refused(r, c, {
          status: 502,
          cls: 'InternalServerError',
          type: { messages: 'overloaded_error', openai: 'service_unavailable_error' },
          message: `upstream ${c.model.upstream} could not be reached${LOADING}`,
        });
        if (c.client.format === 'openai') assert.equal(r.error.code, 'upstream_unavailable');
        return;
      }
      assert.ok(r.error, `the stream ended without an error: ${r.text}`);
      assert.ok(r.error.err instanceof c.client.sdk.APIError, String(r.error.err));
      assert.equal(r.error.status, undefined);
      assert.equal(r.error.type, { messages: 'overloaded_error', openai: 'service_unavailable_error' }[c.client.format]);
      assert.equal(r.error.message, "the upstream's stream broke off");
      assert.equal(r.deltas, 5);
      vocabularyRun(r.text, 5);
      assert.equal(r.stop, null, 'no stop reason');
    },
    record: (r, c, s) =>
      c.stream ? { status: 'interrupted', input: earlyInput(s), output: 5 } : { status: 'failed', input: 0, output: 0 },
    sameUsage: false,
  },
  {
    name: 'client disconnect (AbortController)',
    s: userSays('[[tokens:400]] [[slow:10ms]]'), // 4 s in all
    abort: true,
    check(r, c) {
      assert.ok(r.error?.err instanceof c.client.sdk.APIUserAbortError, String(r.error?.err));
      if (c.stream) {
        assert.ok(r.deltas >= 1 && r.deltas < 100, `aborted after the first delta: ${r.deltas} deltas`);
        assert.match(r.headerID ?? '', REQUEST_ID);
      } else {
        assert.equal(r.responses.length, 0, 'aborted before any answer');
      }
    },
    record: (r, c, s) => ({
      // A request whose client left is recorded disconnected, streamed or
      // not (a reply it never got bills nothing).
      status: 'disconnected',
      input: c.stream ? earlyInput(s) : 0,
      output: c.stream ? (n) => n >= r.deltas && n < 400 : 0,
      maxLatencyMs: 3000, // the gateway let go (and cancelled the upstream call) at once, not after the answer's 4 s
    }),
    sameUsage: false,
  },
];

/** Sends s as client c, aborting through an AbortController when the scenario says. */
async function send(sc, c, s) {
  if (!sc.abort) return c.client.send(key, c.model.id, s, { stream: c.stream });
  const ac = new AbortController();
  if (c.stream) {
    return c.client.send(key, c.model.id, s, { stream: true, signal: ac.signal, onDelta: () => ac.abort() });
  }
  const timer = setTimeout(() => ac.abort(), 300);
  try {
    return await c.client.send(key, c.model.id, s, { stream: false, signal: ac.signal });
  } finally {
    clearTimeout(timer);
  }
}

describe('chat: client format x upstream format x stream, through the official SDKs', () => {
  for (const sc of SCENARIOS) {
    test(sc.name, async (t) => {
      const seen = [];
      for (const model of MODELS) {
        for (const client of CLIENTS) {
          for (const stream of [false, true]) {
            const c = { client, model, stream };
            const combo = `${client.name} -> ${model.format} upstream${stream ? ', streamed' : ''}`;
            const label = `${sc.name}: ${combo}`;
            await t.test(combo, async () => {
              const s = sc.make ? sc.make() : sc.s;
              const r = await send(sc, c, s);
              const id = r.requestID ?? r.headerID;
              try {
                sc.check(r, c, s);
              } catch (err) {
                if (id) uncheckedIDs.add(id); // failed here: the usage test leaves it out
                throw err;
              }
              seen.push({ c, r });
              const want = sc.record ? sc.record(r, c, s) : { status: 'completed', input: r.input, output: r.output };
              if (id) expectedRecords.push({ id, label, model, ...want });
              else anonymousRecords.push({ label, model, ...want });
            });
          }
        }
      }
      if (sc.sameUsage !== false && seen.length === MODELS.length * CLIENTS.length * 2) {
        // Usage streamed equals usage unstreamed, whichever formats carried it.
        const usage = seen.map(({ r }) => `${r.input}/${r.output}`);
        const table = seen.map(({ c }, i) => `${usage[i]}: ${c.client.name}, ${c.model.format}${c.stream ? ', streamed' : ''}`);
        assert.equal(new Set(usage).size, 1, `input/output tokens differ:\n${table.join('\n')}`);
      }
    });
  }
});

/** Every usage record of the key (GET /api/v1/public/usage, paged). */
async function usageRecords() {
  const out = [];
  let cursor = '';
  for (;;) {
    const url = new URL('/api/v1/public/usage', STRATA_URL);
    url.searchParams.set('limit', '200');
    if (cursor) url.searchParams.set('cursor', cursor);
    const res = await fetch(url, { headers: { 'x-api-key': key } });
    const text = await res.text();
    assert.equal(res.status, 200, `GET ${url}: ${text}`);
    const body = JSON.parse(text);
    out.push(...body.records);
    if (!body.next_cursor) return out;
    cursor = body.next_cursor;
  }
}

test('usage: every request of the matrix is recorded once, by the upstream that served it, with what it delivered', async (t) => {
  if (expectedRecords.length === 0) {
    t.skip('the matrix did not run');
    return;
  }
  const ids = new Set(expectedRecords.map((e) => e.id));
  assert.equal(ids.size, expectedRecords.length, 'every request has its own id');
  const records = await poll('the usage records did not show every request', async () => {
    const recs = await usageRecords();
    const have = new Set(recs.map((r) => r.request_id));
    const missing = [...ids].filter((id) => !have.has(id));
    const others = recs.filter((r) => !ids.has(r.request_id) && !uncheckedIDs.has(r.request_id)).length;
    return {
      done: missing.length === 0 && others >= anonymousRecords.length,
      value: recs,
      why: `${missing.length} of ${ids.size} missing (${missing.slice(0, 3)}), ${others} of ${anonymousRecords.length} others`,
    };
  });
  assert.equal(new Set(records.map((r) => r.request_id)).size, records.length, 'no request is recorded twice');
  const byID = new Map(records.map((r) => [r.request_id, r]));
  const check = (rec, want, label) => {
    const got = JSON.stringify(rec);
    assert.equal(rec.model, want.model.id, `${label}: model ${got}`);
    assert.equal(rec.upstream, want.model.upstream, `${label}: upstream ${got}`);
    assert.equal(rec.key_id, keyID, `${label}: key ${got}`);
    assert.equal(rec.status, want.status, `${label}: status ${got}`);
    assert.equal(rec.input_tokens, want.input, `${label}: input tokens ${got}`);
    if (typeof want.output === 'function') assert.ok(want.output(rec.output_tokens), `${label}: output tokens ${got}`);
    else assert.equal(rec.output_tokens, want.output, `${label}: output tokens ${got}`);
    assert.equal(rec.cost_micro, 0, `${label}: a free model costs nothing ${got}`);
    if (want.maxLatencyMs) assert.ok(rec.latency_ms < want.maxLatencyMs, `${label}: latency ${got}`);
  };
  for (const want of expectedRecords) check(byID.get(want.id), want, want.label);
  // The requests aborted before their answer: the only other records.
  const others = records.filter((r) => !ids.has(r.request_id) && !uncheckedIDs.has(r.request_id));
  assert.equal(others.length, anonymousRecords.length, `other records: ${JSON.stringify(others)}`);
  for (const model of MODELS) {
    const mine = others.filter((r) => r.model === model.id);
    const wanted = anonymousRecords.filter((w) => w.model.id === model.id);
    assert.equal(mine.length, wanted.length, `${model.id}: ${JSON.stringify(mine)}`);
    mine.forEach((rec, i) => check(rec, wanted[i], `${wanted[i].label} (${rec.request_id})`));
  }
});

describe('chat: credentials and refusals in each format', () => {
  test("a model vendor's key (sk-ant-...) gets 401 naming the Strata key, through both SDKs", async () => {
    const vendorKey = 'sk-ant-api03-e2e-not-a-strata-key';
    const s = userSays('Hello, world!');
    for (const client of CLIENTS) {
      const r = await client.send(vendorKey, 'e2e-via-openai', s, { stream: false });
      const c = { client, model: MODELS[0], stream: false };
      refused(r, c, { status: 401, cls: 'AuthenticationError', type: 'authentication_error' });
      assert.match(r.error.message, /sk_live_/, r.error.message);
      assert.equal(r.error.err.headers.get('www-authenticate'), 'Bearer realm="strata"');
      if (client.format === 'openai') assert.equal(r.error.code, 'sk_key');
    }
  });

  test('the messages route without anthropic-version gets 400 naming the header', async () => {
    // fetch: the SDK always sends the header.
    const res = await fetch(new URL('/v1/messages', STRATA_URL), {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'e2e-via-openai', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const body = await res.json();
    assert.equal(res.status, 400);
    assert.equal(body.type, 'error');
    assert.equal(body.error.type, 'invalid_request_error');
    assert.match(body.error.message, /anthropic-version/);
    assert.match(res.headers.get('request-id') ?? '', REQUEST_ID);
    assert.equal(res.headers.get('x-request-id'), res.headers.get('request-id'));
  });

  test('an unknown member of the request is refused naming it', async () => {
    const res = await fetch(new URL('/v1/chat/completions', STRATA_URL), {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'e2e-via-openai', messages: [{ role: 'user', content: 'hi' }], bogus: 1 }),
    });
    const body = await res.json();
    assert.equal(res.status, 400);
    assert.deepEqual(body.error, { message: 'bogus: unknown field', type: 'invalid_request_error', param: 'bogus', code: 'unknown_field' });
  });

  const catalogRefusals = [
    {
      name: 'a model the catalog does not have',
      model: 'no-such-model',
      want: { status: 404, cls: 'NotFoundError', type: 'not_found_error', code: 'model_not_found', text: /"no-such-model" is not in the catalog/ },
    },
    {
      name: 'a retired alias, naming its replacement',
      model: 'strata-dev-text-legacy',
      want: { status: 400, cls: 'BadRequestError', type: 'invalid_request_error', code: 'model_deprecated', text: /use "strata-dev-7b-text"/ },
    },
    {
      name: 'tools to a model without tool support',
      model: 'strata-dev-7b-text',
      s: { tools: true },
      want: { status: 400, cls: 'BadRequestError', type: 'invalid_request_error', code: 'tools_unsupported', text: /does not support tool calling/ },
    },
    {
      name: "max_tokens above the model's ceiling",
      model: 'e2e-via-messages',
      s: { maxTokens: 9000 },
      want: { status: 400, cls: 'BadRequestError', type: 'invalid_request_error', code: 'max:8192', text: /at most 8192 tokens/ },
    },
  ];
  for (const { name, model, s: extra, want } of catalogRefusals) {
    test(`catalog refusal: ${name}`, async () => {
      const s = { ...userSays('hi'), ...extra };
      for (const client of CLIENTS) {
        const r = await client.send(key, model, s, { stream: true });
        refused(r, { client, model: { id: model }, stream: true }, want);
        assert.match(r.error.message, want.text);
        if (client.format === 'openai') assert.equal(r.error.code, want.code);
      }
    });
  }

  test("a model above the caller's tier: 403 naming the tier", async () => {
    const starter = await registerAccount('gateway-starter');
    const { api_key: starterKey } = await createKey(starter.accessToken, 'e2e starter');
    for (const client of CLIENTS) {
      const r = await client.send(starterKey, 'strata-dev-frontier', userSays('hi'), { stream: false });
      refused(r, { client, model: { id: 'strata-dev-frontier' }, stream: false }, {
        status: 403,
        cls: 'PermissionDeniedError',
        type: 'permission_error',
      });
      assert.match(r.error.message, /needs the basic tier or above; your plans give the free tier/);
      if (client.format === 'openai') assert.equal(r.error.code, 'tier_required');
    }
  });

  test("a session JWT is the OpenAI SDK's API key too", async () => {
    const r = await viaOpenAI(account.accessToken, 'e2e-via-messages', userSays('Hello, world!'), { stream: true });
    completed(r, { client: CLIENTS[1], model: MODELS[1], stream: true });
    assert.equal(r.text, 'You said: Hello, world!');
    assert.equal(r.output, 7);
  });
});

test('request ids: x-request-id and request-id name the same request, as each SDK exposes it', async () => {
  const rec = recordingFetch();
  const { data, response, request_id: oid } = await openaiClient(key, '/v1', rec)
    .chat.completions.create({ model: 'e2e-via-openai', messages: [{ role: 'user', content: 'Hello, world!' }] })
    .withResponse();
  assert.match(oid, REQUEST_ID);
  assert.equal(data._request_id, oid);
  assert.equal(response.headers.get('x-request-id'), oid);
  assert.equal(response.headers.get('request-id'), oid);

  const st = anthropicClient(key).messages.stream({
    model: 'e2e-via-messages',
    max_tokens: 50,
    messages: [{ role: 'user', content: 'Hello, world!' }],
  });
  const { response: aresp, request_id: aid } = await st.withResponse();
  const m = await st.finalMessage();
  assert.match(aid, REQUEST_ID);
  assert.equal(aresp.headers.get('request-id'), aid);
  assert.equal(aresp.headers.get('x-request-id'), aid);
  assert.notEqual(aid, oid);
  assert.equal(m.content[0].text, 'You said: Hello, world!');
});

// `created` is "the Unix timestamp (in seconds) of when the chat completion
// was created". An upstream of the messages format has no such field: the
// gateway sets the time it answered, streamed or not.
test(
  "an OpenAI-format answer's created is the time it was made, whichever upstream served it",
  async () => {
    const problems = [];
    for (const model of MODELS) {
      for (const stream of [false, true]) {
        const before = Math.floor(Date.now() / 1000) - 60;
        const r = await viaOpenAI(key, model.id, userSays('Hello, world!'), { stream });
        completed(r, { client: CLIENTS[1], model, stream });
        if (!(r.created >= before && r.created <= before + 180)) {
          problems.push(`${model.id}${stream ? ' streamed' : ''}: created ${r.created}`);
        }
      }
    }
    assert.deepEqual(problems, []);
  },
);
