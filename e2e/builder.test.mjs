// The builder surface (README "Builder: generation, versions, export and
// preview") from the outside, with clients written by others: the
// generation stream read by eventsource-parser, a reconnect in the middle
// made by the `eventsource` package's own EventSource (Last-Event-ID), the
// export read by yauzl, and the preview driven in headless Chromium
// (playwright-core): a record created, edited and deleted through the
// generated app's own UI and server, and the sandbox checked from inside
// the page, with a founder signed in to the builder in the same browser.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { EventSource } from 'eventsource';
import { PASSWORD, launchBrowser, registerUser, unique } from './lib/harness.mjs';
import { BUILDER_URL, droppingFetch, openStream, parseId, readStream, readZip, sampleValue } from './lib/builder.mjs';

// An idea the template generator turns into a booking app (Services,
// Bookings, Classes: domain/builder/template/testdata/yoga_booking.golden).
const IDEA = 'book yoga classes at my studio';
const SANDBOX = /^sandbox allow-scripts allow-forms allow-modals;/;
const sha256 = (b) => createHash('sha256').update(b).digest('hex');

/** The first generation of the chat most tests share: its events, read once. */
let first;
async function firstGeneration() {
  first ??= readStream({ body: { message: IDEA } });
  return first;
}

/** Checks one whole generation's stream; returns its parts by name. */
function checkGeneration(events, { chatId } = {}) {
  const names = events.map((e) => e.event);
  assert.ok(events.length >= 6, `too few events: ${names.join(' ')}`);
  const start = events[0];
  assert.equal(start.event, 'start', `the first event: ${names.join(' ')}`);
  assert.match(start.data.chatId, /^chat_[0-9A-Za-z]{10,40}$/);
  if (chatId) assert.equal(start.data.chatId, chatId, 'the continued chat');
  assert.equal(start.data.companyId, start.data.chatId, 'the chat id is the company id');
  assert.match(start.data.generationId, /^gen_/);
  assert.equal(start.data.generator, 'template', 'the offline generator, labelled as such');
  assert.equal(typeof start.data.provider, 'string');
  assert.equal(typeof start.data.model, 'string');

  const complete = events.at(-1);
  assert.equal(complete.event, 'complete', `the last event: ${names.join(' ')}`);
  assert.equal(names.filter((n) => n === 'complete').length, 1, 'one complete');
  assert.ok(!names.includes('error'), `an error event: ${JSON.stringify(events.find((e) => e.event === 'error'))}`);
  const previewUrl = `${BUILDER_URL}/api/preview/${start.data.chatId}/`;
  assert.deepEqual(complete.data, { chatId: start.data.chatId, versionId: complete.data.versionId, previewUrl, status: 'completed' });
  assert.match(complete.data.versionId, /^ver_/);

  // start, then steps, the plan and files, then preview, usage, complete.
  const files = events.filter((e) => e.event === 'file');
  assert.ok(files.length > 0, 'file events');
  const iPreview = names.indexOf('preview');
  assert.ok(iPreview > names.lastIndexOf('file'), `preview after every file: ${names.join(' ')}`);
  assert.deepEqual(names.slice(iPreview), ['preview', 'usage', 'complete'], `the stream's end: ${names.join(' ')}`);
  for (const n of names.slice(1, iPreview)) assert.ok(['step', 'plan', 'file'].includes(n), `unexpected event ${n}`);
  assert.ok(names.indexOf('plan') < names.indexOf('file'), 'the plan before the files');
  for (const f of files) {
    assert.equal(typeof f.data.path, 'string');
    assert.match(f.data.sha256, /^[0-9a-f]{64}$/);
    assert.ok(Number.isInteger(f.data.size) && f.data.size > 0, `size of ${f.data.path}`);
  }
  assert.equal(new Set(files.map((f) => f.data.path)).size, files.length, 'one file event a path');
  const preview = events[iPreview];
  assert.deepEqual(preview.data, {
    chatId: start.data.chatId, versionId: complete.data.versionId, version: preview.data.version, url: previewUrl, state: 'ready',
  });
  assert.ok(Number.isInteger(preview.data.version) && preview.data.version >= 1);
  const usage = events[iPreview + 1];
  assert.equal(usage.data.generator, 'template');
  assert.equal(usage.data.provider, start.data.provider);
  assert.equal(usage.data.model, start.data.model);
  assert.equal(usage.data.files, files.length, 'usage counts the files');
  assert.equal(usage.data.bytes, files.reduce((n, f) => n + f.data.size, 0), 'usage counts the bytes');

  // Every event has an id of this chat; ids are unique and in stream order.
  const ids = events.map((e) => e.id);
  for (const id of ids) assert.equal(parseId(id).chatId, start.data.chatId, `id ${id}`);
  assert.equal(new Set(ids).size, ids.length, `duplicate ids: ${ids.join(' ')}`);
  for (let i = 1; i < ids.length; i++) {
    const [a, b] = [parseId(ids[i - 1]), parseId(ids[i])];
    assert.ok(b.version > a.version || (b.version === a.version && b.index > a.index), `ids out of order: ${ids[i - 1]} ${ids[i]}`);
  }
  return { start, complete, preview, usage, files, chatId: start.data.chatId, previewUrl };
}

async function getVersions(chatId) {
  const res = await fetch(`${BUILDER_URL}/api/build/versions?chatId=${chatId}`);
  const text = await res.text();
  assert.equal(res.status, 200, `GET /api/build/versions: ${res.status} ${text}`);
  return JSON.parse(text);
}

describe('builder: the generation stream', () => {
  test('a generation through eventsource-parser: start, plan, files, preview, usage, complete; ids on every event', async () => {
    const events = await firstGeneration();
    const g = checkGeneration(events);
    // The versions route agrees with the stream.
    const v = await getVersions(g.chatId);
    assert.equal(v.current, g.complete.data.versionId);
    assert.equal(v.versions.length, 1);
    const [ver] = v.versions;
    assert.equal(ver.versionId, g.complete.data.versionId);
    assert.equal(ver.number, g.preview.data.version);
    assert.equal(ver.generationId, g.start.data.generationId);
    assert.equal(ver.generator, 'template');
    assert.deepEqual(
      ver.files.map((f) => ({ path: f.path, sha256: f.sha256, size: f.size })).sort((a, b) => a.path.localeCompare(b.path)),
      g.files.map((f) => f.data).sort((a, b) => a.path.localeCompare(b.path)),
      'the version\'s files are the file events',
    );
    for (const p of ['server.js', 'package.json', 'public/index.html', 'public/app.js']) {
      assert.ok(g.files.some((f) => f.data.path === p), `the app has ${p}`);
    }
  });

  test('a reconnect in the middle: the eventsource package drops after the 3rd event and resumes with Last-Event-ID; nothing lost, nothing twice', async () => {
    const reference = checkGeneration(await firstGeneration());
    const chatId = reference.chatId;
    // A second generation of the same chat, same idea (the template path is
    // deterministic: the same files again, in a new version).
    const transport = droppingFetch({ body: { message: IDEA, chatId }, cutAfter: 3 });
    const got = [];
    const connectionErrors = [];
    const es = new EventSource(`${BUILDER_URL}/api/chat-ws`, { fetch: transport.fetch });
    const done = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no complete within 30 s; got ${got.map((e) => e.event).join(' ')}`)), 30_000);
      for (const name of ['start', 'step', 'plan', 'file', 'preview', 'usage', 'complete', 'message']) {
        es.addEventListener(name, (ev) => {
          got.push({ id: ev.lastEventId, event: ev.type, data: JSON.parse(ev.data) });
          if (name === 'complete') {
            clearTimeout(timer);
            resolve();
          }
        });
      }
      es.addEventListener('error', (ev) => {
        if (typeof ev.data === 'string') {
          // The stream's own `error` event (a failed generation).
          got.push({ id: ev.lastEventId, event: 'error', data: JSON.parse(ev.data) });
          return;
        }
        connectionErrors.push(ev.message ?? String(ev));
        if (es.readyState === EventSource.CLOSED) {
          clearTimeout(timer);
          reject(new Error(`the EventSource gave up: ${ev.message} (code ${ev.code})`));
        }
      });
    });
    try {
      await done;
    } finally {
      es.close();
    }

    assert.ok(transport.cut, 'the first connection was dropped after its 3rd event');
    assert.equal(transport.connections.length, 2, `connections: ${JSON.stringify(transport.connections)}`);
    assert.equal(transport.connections[0].lastEventId, null, 'the first connection has no Last-Event-ID');
    assert.equal(transport.connections[1].lastEventId, got[2].id, 'the library resumed after the 3rd event');
    assert.equal(connectionErrors.length, 1, `one dropped connection: ${connectionErrors.join('; ')}`);

    // The union of both connections is one whole generation: no loss, no duplicate.
    const g = checkGeneration(got, { chatId });
    assert.notEqual(g.start.data.generationId, reference.start.data.generationId, 'a new generation');
    assert.notEqual(g.complete.data.versionId, reference.complete.data.versionId, 'a new version');
    assert.deepEqual(got.map((e) => e.event), (await firstGeneration()).map((e) => e.event), 'the same events as the uninterrupted first generation');
    assert.deepEqual(g.files.map((f) => f.data), reference.files.map((f) => f.data), 'the same files');

    // Read again from the start event on, in one connection: the same
    // events, ids and data as the union of the two.
    const replay = await readStream({ lastEventId: got[0].id, body: { message: 'ignored with Last-Event-ID' } });
    assert.deepEqual(replay, got.slice(1), 'the replay after the start event equals the union');
    // Resuming after the last event ends at once with nothing.
    const tail = await readStream({ lastEventId: got.at(-1).id });
    assert.deepEqual(tail, [], 'nothing after complete');

    const v = await getVersions(chatId);
    assert.equal(v.current, g.complete.data.versionId);
    assert.deepEqual(v.versions.map((x) => x.number), [1, 2]);
  });

  test('refusals: no message (400), an unknown chat (404), a malformed Last-Event-ID (400)', async () => {
    const post = (headers, body) => fetch(`${BUILDER_URL}/api/chat-ws`, {
      method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body),
    });
    let res = await post({}, {});
    let text = await res.text();
    assert.equal(res.status, 400, text);
    assert.match(text, /message/);
    res = await post({}, { message: IDEA, chatId: 'chat_00000000000000000000000000' });
    text = await res.text();
    assert.equal(res.status, 404, text);
    res = await post({ 'last-event-id': 'not-an-id' }, {});
    text = await res.text();
    assert.equal(res.status, 400, text);
    assert.match(text, /Last-Event-ID/);
  });
});

describe('builder: export and the preview\'s states', () => {
  test('GET /api/build/export/{chatId}: a zip (read by yauzl) of the version\'s files, the same bytes each time', async () => {
    const g = checkGeneration(await firstGeneration());
    const v = await getVersions(g.chatId);
    for (const ver of v.versions) {
      const url = `${BUILDER_URL}/api/build/export/${g.chatId}?version=${ver.number}`;
      const res = await fetch(url);
      assert.equal(res.status, 200, `GET ${url}: ${res.status}`);
      assert.equal(res.headers.get('content-type'), 'application/zip');
      assert.match(res.headers.get('content-disposition') ?? '', new RegExp(`^attachment; filename="${g.chatId}-v${ver.number}\\.zip"$`));
      const zip = Buffer.from(await res.arrayBuffer());
      const entries = await readZip(zip);
      const dir = `${g.chatId}-v${ver.number}/`;
      assert.deepEqual(entries.map((e) => e.name).sort(), ver.files.map((f) => dir + f.path).sort(), 'one entry a file, under one folder');
      for (const f of ver.files) {
        const e = entries.find((x) => x.name === dir + f.path);
        assert.equal(e.data.length, f.size, `${f.path}: size`);
        assert.equal(sha256(e.data), f.sha256, `${f.path}: content`);
        assert.ok(Math.abs(e.modified - new Date(ver.createdAt)) < 2000, `${f.path}: dated ${e.modified.toISOString()}, the version ${ver.createdAt}`);
      }
      const again = Buffer.from(await (await fetch(url)).arrayBuffer());
      assert.ok(again.equals(zip), 'the same version gives the same bytes');
    }
    // Without ?version=: the current one.
    const res = await fetch(`${BUILDER_URL}/api/build/export/${g.chatId}`);
    const current = v.versions.find((x) => x.current);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-disposition') ?? '', new RegExp(`filename="${g.chatId}-v${current.number}\\.zip"`));
  });

  test('the preview while generating (202 with Retry-After, or 200 once done), an unknown chat (404)', async () => {
    // A new chat: the preview has no version until this generation makes one.
    const { events } = await openStream({ body: { message: 'a directory of vegan restaurants in my city' } });
    const seen = [];
    const { value: start } = await events.next();
    seen.push(start);
    assert.equal(start.event, 'start');
    const url = `${BUILDER_URL}/api/preview/${start.data.chatId}/`;
    const early = await fetch(url);
    const earlyText = await early.text();
    assert.ok([200, 202].includes(early.status), `the preview right after start: ${early.status} ${earlyText}`);
    assert.match(early.headers.get('content-security-policy') ?? '', SANDBOX);
    if (early.status === 202) {
      assert.equal(early.headers.get('retry-after'), '2');
      assert.match(earlyText, /Still generating/);
      assert.match(earlyText, /<meta http-equiv="refresh" content="2">/);
    }
    for await (const e of events) seen.push(e);
    checkGeneration(seen);
    const done = await fetch(url);
    assert.equal(done.status, 200, 'the preview once generated');
    assert.match(await done.text(), /section[^>]*data-entity=/);
    // The folder without its slash redirects to the folder.
    const bare = await fetch(url.slice(0, -1), { redirect: 'manual' });
    assert.equal(bare.status, 301);
    assert.equal(bare.headers.get('location'), new URL(url).pathname);

    for (const id of ['chat_00000000000000000000000000', 'not-a-chat']) {
      const res = await fetch(`${BUILDER_URL}/api/preview/${id}/`);
      assert.equal(res.status, 404, `preview of ${id}`);
      if (id.startsWith('chat_')) {
        assert.match(res.headers.get('content-security-policy') ?? '', SANDBOX);
        assert.match(await res.text(), /Unknown preview/);
      }
    }
  });
});

describe('builder: the preview\'s headers', () => {
  // README: "Every preview response carries Content-Security-Policy:
  // sandbox ...", the answers of the app's own server (api/..., healthz)
  // included: those are the generated server's bytes on the builder's
  // origin, and one that answered text/html there must still run sandboxed.
  test('every preview response carries the sandbox CSP, the app server\'s answers included', async () => {
    const g = checkGeneration(await firstGeneration());
    const index = await (await fetch(g.previewUrl)).text();
    const [, plural] = /<section[^>]* data-plural="([^"]+)"/.exec(index) ?? [];
    assert.ok(plural, 'the front end has an entity section');
    const paths = ['', 'index.html', 'app.js', 'style.css', 'no-such-file', `api/${plural}`, 'api/no-such-entity', 'healthz'];
    const missing = [];
    for (const p of paths) {
      const res = await fetch(g.previewUrl + p, { signal: AbortSignal.timeout(30_000) });
      await res.arrayBuffer();
      if (!SANDBOX.test(res.headers.get('content-security-policy') ?? '')) missing.push(`GET ${p || '(folder)'}: ${res.status}`);
    }
    assert.deepEqual(missing, [], 'preview responses without the sandbox CSP');
  });
});

describe('builder: the preview in headless Chromium', () => {
  let browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  test('create, edit and delete a record through the generated app; the sandbox keeps the founder\'s session out of reach', async () => {
    const g = checkGeneration(await firstGeneration());
    const founder = await registerUser('founder');
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const problems = [];
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    try {
      // A founder signs in to the builder (the platform's OAuth provider,
      // then the builder's callback sets its session cookie).
      await page.goto(`${BUILDER_URL}/auth/login`);
      await page.getByLabel('Email').fill(founder.email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL((u) => u.origin === BUILDER_URL);
      const session = await context.request.get(`${BUILDER_URL}/api/session`);
      assert.equal(session.status(), 200, `the founder is signed in to the builder: ${await session.text()}`);
      assert.equal((await session.json()).user.email, founder.email);
      assert.ok((await context.cookies(BUILDER_URL)).some((c) => c.name === 'strata_founder'), 'the founder session cookie');
      // And a cookie scripts could read, were they on the builder's origin.
      await context.addCookies([{ name: 'e2e_readable', value: 'visible-to-scripts', url: BUILDER_URL }]);

      // The preview. Its first API request starts the app's server (a
      // health-checked deploy): allow some seconds.
      const firstList = page.waitForResponse(
        (r) => r.url().startsWith(`${g.previewUrl}api/`) && r.request().method() === 'GET', { timeout: 30_000 });
      const res = await page.goto(g.previewUrl);
      assert.equal(res.status(), 200);
      assert.match(res.headers()['content-security-policy'] ?? '', SANDBOX);
      assert.doesNotMatch(res.headers()['content-security-policy'], /allow-same-origin/);
      const listed = await firstList;
      assert.equal(listed.status(), 200, `the app's first API answer: ${await listed.text()}`);

      // Inside the page: an opaque origin, no cookies, no way to the builder
      // with the founder's session.
      assert.equal(await page.evaluate(() => self.origin), 'null');
      const cookie = await page.evaluate(() => {
        try {
          return { value: document.cookie };
        } catch (err) {
          return { threw: err.name };
        }
      });
      assert.ok(cookie.threw === 'SecurityError' || cookie.value === '', `document.cookie in the preview: ${JSON.stringify(cookie)}`);
      const probe = await page.evaluate(async () => {
        try {
          const r = await fetch('/api/session', { credentials: 'include' });
          return { status: r.status, body: await r.text() };
        } catch (err) {
          return { threw: String(err) };
        }
      });
      assert.ok(probe.threw || probe.status !== 200, `the page read the founder session: ${JSON.stringify(probe)}`);
      assert.ok(!JSON.stringify(probe).includes(founder.email), `the founder leaked to the page: ${JSON.stringify(probe)}`);
      // A request the page cannot read but could still send: sign-out. It
      // must not carry the session (the founder stays signed in).
      await page.evaluate(() => fetch('/auth/logout', { method: 'POST', mode: 'no-cors', credentials: 'include' }).catch(() => {}));
      const still = await context.request.get(`${BUILDER_URL}/api/session`);
      assert.equal(still.status(), 200, 'a sandboxed page signed the founder out');

      // The UI: the first entity's section, its form and its table.
      const section = page.locator('section[data-entity]').first();
      const plural = await section.getAttribute('data-plural');
      const apiList = `${g.previewUrl}api/${plural}`;
      const form = section.locator('form.record-form');
      const rows = section.locator('tbody tr');
      const fields = await form.locator('[data-type]').evaluateAll((els) =>
        els.map((el) => ({ name: el.name, type: el.dataset.type, tag: el.tagName.toLowerCase() })));
      const columns = await section.locator('th[data-field]').evaluateAll((els) => els.map((el) => el.dataset.field));
      const key = fields.find((f) => f.name === columns[0]);
      assert.ok(key && ['text', 'longtext'].includes(key.type), `the first column is a text field: ${JSON.stringify(fields)}`);
      const fill = async (values) => {
        for (const f of fields) {
          const input = form.locator(`[name="${f.name}"]`);
          if (f.type === 'bool') await input.check();
          else if (f.tag === 'select') await input.selectOption({ index: 1 });
          else await input.fill(values[f.name]);
        }
      };
      const readList = async () => {
        const r = await fetch(apiList);
        assert.equal(r.status, 200, `GET ${apiList}`);
        return r.json();
      };
      await assert.doesNotReject(section.locator('.empty').waitFor({ state: 'visible' }), 'the list starts empty');
      assert.deepEqual(await readList(), []);

      // Create.
      const tag = unique();
      const values = Object.fromEntries(fields.map((f) => [f.name, sampleValue(f.type, tag)]));
      await fill(values);
      await form.getByRole('button', { name: /^Add / }).click();
      await page.locator('#status').filter({ hasText: /added\.$/ }).waitFor();
      await rows.filter({ hasText: values[key.name] }).waitFor();
      assert.equal(await rows.count(), 1);
      assert.ok(await section.locator('.empty').isHidden());
      let records = await readList();
      assert.equal(records.length, 1, JSON.stringify(records));
      const [created] = records;
      assert.equal(created[key.name], values[key.name]);
      for (const f of fields.filter((x) => ['text', 'email', 'url', 'date', 'time', 'money'].includes(x.type))) {
        assert.equal(created[f.name], values[f.name], `created ${f.name}`);
      }

      // Edit: the row's Edit button fills the form; save a new name.
      await rows.first().getByRole('button', { name: 'Edit', exact: false }).first().click();
      assert.equal(await form.locator(`[name="${key.name}"]`).inputValue(), values[key.name], 'the form holds the record');
      const renamed = `${values[key.name]} (edited)`;
      await form.locator(`[name="${key.name}"]`).fill(renamed);
      await form.getByRole('button', { name: 'Save changes' }).click();
      await page.locator('#status').filter({ hasText: /updated\.$/ }).waitFor();
      await rows.filter({ hasText: renamed }).waitFor();
      assert.equal(await rows.count(), 1);
      records = await readList();
      assert.equal(records.length, 1);
      assert.equal(records[0].id, created.id, 'the same record');
      assert.equal(records[0][key.name], renamed);
      // Kept by the app's server: a reload lists the edited record.
      await page.reload();
      await rows.filter({ hasText: renamed }).waitFor();
      assert.equal(await rows.count(), 1);

      // Delete.
      await rows.first().getByRole('button', { name: /^Delete / }).click();
      await page.locator('#status').filter({ hasText: /deleted\.$/ }).waitFor();
      await section.locator('.empty').waitFor({ state: 'visible' });
      assert.equal(await rows.count(), 0);
      assert.deepEqual(await readList(), []);

      assert.deepEqual(problems, [], 'no script errors in the preview');
    } finally {
      await context.close();
    }
  });
});
