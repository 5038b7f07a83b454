// Helpers of the builder surface's tests (builder.test.mjs): the surface's
// base URL, the generation stream read with eventsource-parser, a fetch for
// the `eventsource` package's EventSource that POSTs and can drop the first
// connection after a given number of events, the generated front end's
// fields filled by their declared types, and a zip read with yauzl. Every
// call goes over HTTP to the `strata serve` that e2e/run started.
import assert from 'node:assert/strict';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import yauzl from 'yauzl';

/** Base URL of the builder surface under test (STRATA_BUILDER_URL). */
export const BUILDER_URL = (() => {
  const v = process.env.STRATA_BUILDER_URL;
  if (!v) throw new Error('STRATA_BUILDER_URL is not set: run the suite with `bash e2e/run`');
  return v.replace(/\/+$/, '');
})();

/** The generation stream's route. */
export const STREAM_URL = `${BUILDER_URL}/api/chat-ws`;

/** How long one generation may take end to end (the template path takes well under a second). */
const STREAM_TIMEOUT_MS = 20_000;

/**
 * POSTs to the generation stream: a JSON body, or with lastEventId the
 * Last-Event-ID header (the server then ignores the body). Asserts a 200
 * text/event-stream answer and returns the fetch Response and the stream's
 * events, as an async iterator of { id, event, data } (data parsed as JSON)
 * read by eventsource-parser.
 */
export async function openStream({ body, lastEventId, signal } = {}) {
  const headers = { accept: 'text/event-stream' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
  const res = await fetch(STREAM_URL, {
    method: 'POST',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: signal ?? AbortSignal.timeout(STREAM_TIMEOUT_MS),
  });
  if (res.status !== 200) {
    assert.fail(`POST /api/chat-ws ${JSON.stringify(body ?? {})} (Last-Event-ID ${lastEventId}): ${res.status} ${await res.text()}`);
  }
  assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/, 'the stream\'s content-type');
  const comments = [];
  const parsed = res.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream({ onComment: (c) => comments.push(c) }));
  async function* events() {
    for await (const e of parsed) {
      yield { id: e.id, event: e.event, data: JSON.parse(e.data) };
    }
  }
  return { res, events: events(), comments };
}

/**
 * Reads a whole generation stream (a new generation, or a resume with
 * lastEventId) to its end: the server closes it after `complete`. Returns
 * the events in order.
 */
export async function readStream(options) {
  const { events } = await openStream(options);
  const out = [];
  for await (const e of events) out.push(e);
  return out;
}

/** Splits an event id `<chatId>:<store version>:<index>`. */
export function parseId(id) {
  const m = /^(chat_[0-9A-Za-z]+):(\d+):(\d+)$/.exec(id ?? '');
  assert.ok(m, `event id ${JSON.stringify(id)} is not <chatId>:<version>:<index>`);
  return { chatId: m[1], version: Number(m[2]), index: Number(m[3]) };
}

/**
 * A fetch for the `eventsource` package's EventSource (its `fetch` option):
 * every connection, the first and the library's own reconnects (which carry
 * Last-Event-ID), is a POST with body as JSON. The first connection's
 * response body is passed through event by event and dropped right after
 * the cutAfter-th event: the real request is aborted, so the server sees the
 * client go away, and the library sees its stream end and reconnects.
 * `connections` records each request's Last-Event-ID; `cut` whether the
 * drop happened.
 */
export function droppingFetch({ body, cutAfter }) {
  const state = { connections: [], cut: false };
  state.fetch = async (url, init) => {
    const headers = new Headers(init.headers);
    headers.set('content-type', 'application/json');
    state.connections.push({ lastEventId: headers.get('last-event-id') });
    const first = state.connections.length === 1;
    const wire = new AbortController();
    init.signal?.addEventListener('abort', () => wire.abort(init.signal.reason), { once: true });
    const res = await fetch(url, { ...init, method: 'POST', headers, body: JSON.stringify(body), signal: wire.signal });
    if (!first || res.status !== 200) return res;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    const encoder = new TextEncoder();
    let pending = '';
    let seen = 0;
    const cut = new ReadableStream({
      async pull(controller) {
        for (;;) {
          // Pass on whole blocks only (the server ends each with a blank line).
          let end;
          while ((end = pending.indexOf('\n\n')) >= 0) {
            const block = pending.slice(0, end + 2);
            pending = pending.slice(end + 2);
            controller.enqueue(encoder.encode(block));
            if (/^(event|data):/m.test(block) && ++seen === cutAfter) {
              state.cut = true;
              wire.abort(new Error('e2e: connection dropped'));
              controller.close();
              return;
            }
          }
          const { done, value } = await reader.read();
          if (done) {
            controller.close();
            return;
          }
          pending += decoder.decode(value, { stream: true });
        }
      },
      cancel(reason) {
        wire.abort(reason);
      },
    });
    return new Response(cut, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  return state;
}

/**
 * A value valid for a generated front end's input of the given data-type
 * (the template generator's field types, README "Builder"); tag makes text
 * values unique.
 */
export function sampleValue(type, tag) {
  switch (type) {
    case 'number':
      return '42';
    case 'money':
      return '12.50';
    case 'date':
      return '2031-05-17';
    case 'time':
      return '18:30';
    case 'email':
      return `ada.${tag}@example.com`;
    case 'url':
      return `https://example.com/${tag}`;
    case 'phone':
      return '+1 555 0100';
    default: // text, longtext
      return `E2E ${tag}`;
  }
}

/**
 * Reads a zip held in memory with yauzl: [{ name, data (Buffer), modified
 * (Date) }] in the archive's order, directory entries left out.
 */
export async function readZip(buffer) {
  const zip = await yauzl.fromBufferPromise(buffer, { lazyEntries: true, strictFileNames: true, validateEntrySizes: true });
  const entries = [];
  for await (const entry of zip.eachEntry()) {
    if (entry.fileName.endsWith('/')) continue;
    const stream = await zip.openReadStreamPromise(entry);
    const chunks = [];
    for await (const c of stream) chunks.push(c);
    entries.push({ name: entry.fileName, data: Buffer.concat(chunks), modified: entry.getLastModDate({ timezone: 'UTC' }) });
  }
  return entries;
}
