// The community events calendar export (RFC 5545) read back by an
// independent parser, Mozilla's ical.js: the single-event export
// (GET /api/v1/community-events/{id}/export/ical) with hostile text that must
// survive escaping and line folding exactly, its cancellation (STATUS,
// SEQUENCE, the same UID), and the per-user subscription feed
// (calendar.ics?token=...), fetched like a calendar program does: without
// credentials other than the token in its URL.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import ICAL from 'ical.js';
import { apiCall, registerAccount, unique } from './lib/harness.mjs';

const EVENTS = '/api/v1/community-events';

/** An ISO 8601 UTC time `days` from now, at a whole minute. */
function future(days, hours = 0) {
  const t = new Date(Date.now() + (days * 24 + hours) * 3600_000);
  t.setUTCSeconds(0, 0);
  return t.toISOString();
}

/** Creates an event as token's user; asserts 201 and returns the event. */
async function createEvent(token, fields) {
  const body = { event_type: 'virtual', start_time: future(30), end_time: future(30, 2), ...fields };
  const res = await apiCall('POST', `${EVENTS}/`, { token, body });
  assert.equal(res.status, 201, `create event: ${res.status} ${res.text}`);
  assert.ok(res.body?.id, `create event: no id in ${res.text}`);
  return res.body;
}

/** The single-event export: asserts 200 and returns { ical_content, filename }. */
async function exportICal(token, id) {
  const res = await apiCall('GET', `${EVENTS}/${id}/export/ical`, { token });
  assert.equal(res.status, 200, `export ${id}: ${res.status} ${res.text}`);
  assert.equal(typeof res.body.ical_content, 'string', 'ical_content');
  assert.equal(typeof res.body.filename, 'string', 'filename');
  return res.body;
}

/** Parses iCalendar text with ical.js; returns the VCALENDAR component. */
function parseCalendar(text) {
  const cal = new ICAL.Component(ICAL.parse(text));
  assert.equal(cal.name, 'vcalendar');
  assert.equal(cal.getFirstPropertyValue('version'), '2.0');
  assert.ok(cal.getFirstPropertyValue('prodid'), 'PRODID');
  return cal;
}

/** The only VEVENT of a calendar. */
function onlyEvent(cal) {
  const events = cal.getAllSubcomponents('vevent');
  assert.equal(events.length, 1, 'one VEVENT');
  return events[0];
}

/**
 * RFC 5545 section 3.1 as the writer promises it: CRLF after every line,
 * the last one included, no bare CR or LF, and no physical line longer than
 * 75 octets. Returns the physical lines.
 */
function assertWellFormed(text) {
  assert.ok(text.endsWith('\r\n'), 'the last line ends with CRLF');
  const lines = text.slice(0, -2).split('\r\n');
  for (const [i, line] of lines.entries()) {
    assert.ok(!line.includes('\r') && !line.includes('\n'), `line ${i + 1} holds a bare CR or LF: ${JSON.stringify(line)}`);
    const octets = Buffer.byteLength(line, 'utf8');
    assert.ok(octets <= 75, `line ${i + 1} is ${octets} octets: ${JSON.stringify(line)}`);
    assert.ok(!line.includes('\uFFFD'), `line ${i + 1} holds U+FFFD (a character was cut): ${JSON.stringify(line)}`);
  }
  return lines;
}

describe('community calendar export (ical.js)', () => {
  let owner;
  let event;
  let firstUID;
  let firstSequence;

  // Text that needs every TEXT escape (\\ \; \, \n), plus what must pass
  // through untouched: colons, double quotes, a literal backslash-n, emoji
  // (a ZWJ family sequence and a flag, both several code points), CJK and
  // Arabic. The description is far over 300 bytes, so its line is folded,
  // and folding must not cut multi-byte characters.
  const suffix = unique();
  const title = `Q&A: "Commas, semicolons; backslashes \\ and colons:" 👨‍👩‍👧‍👦 🇯🇵 東京 مرحبا ${suffix}`;
  const description = [
    'Agenda: intro, Q&A; then "drinks" \\ snacks.',
    'A literal backslash-n: \\n is not a newline; neither is \\, or \\; here.',
    '',
    'Family 👨‍👩‍👧‍👦, flags 🇯🇵🇸🇦🇺🇳, faces 😀😃😄😁, keycap 1️⃣, skin tone 👋🏽.',
    '日本語の説明：会議は東京で開催されます。参加者は、事前に登録してください；よろしくお願いします。',
    'العربية: مرحبا بكم في الاجتماع، نراكم قريبا؛ شكرا "جزيلا".',
    'URL-ish text: https://example.org/a,b;c?d=e:f — end.',
  ].join('\n');
  const location = 'Room 4; Building "A", floor 3: 東京都千代田区 \\ بيروت 🇱🇧';
  const url = 'https://events.example/e/2026?tags=a,b;c&q=%22quoted%22#top';

  before(async () => {
    assert.ok(Buffer.byteLength(description, 'utf8') > 300, 'the description is long enough to fold');
    owner = await registerAccount('community');
    event = await createEvent(owner.accessToken, {
      title, description, location, url, event_type: 'hybrid', capacity: 50,
      start_time: future(21), end_time: future(21, 3),
    });
    // What the API stored is what we sent (the export is compared to it).
    assert.equal(event.title, title);
    assert.equal(event.description, description);
    assert.equal(event.location, location);
    assert.equal(event.url, url);
  });

  test('a single-event export round-trips hostile text, times and the UID exactly', async () => {
    const first = await exportICal(owner.accessToken, event.id);
    const lines = assertWellFormed(first.ical_content);
    assert.ok(lines.some((l) => l.startsWith(' ')), 'some content line was folded');
    assert.match(first.filename, /\.ics$/);
    assert.ok(first.filename.includes(event.id), `filename ${first.filename} names the event ${event.id}`);

    const vevent = onlyEvent(parseCalendar(first.ical_content));
    assert.equal(vevent.getFirstPropertyValue('summary'), title);
    assert.equal(vevent.getFirstPropertyValue('description'), description);
    assert.equal(vevent.getFirstPropertyValue('location'), location);
    assert.equal(vevent.getFirstPropertyValue('url'), url);
    assert.equal(vevent.getFirstPropertyValue('status'), 'CONFIRMED');

    const dtstart = vevent.getFirstPropertyValue('dtstart');
    const dtend = vevent.getFirstPropertyValue('dtend');
    assert.ok(dtstart instanceof ICAL.Time && dtend instanceof ICAL.Time, 'DTSTART and DTEND are date-times');
    assert.equal(dtstart.isDate, false);
    assert.equal(dtstart.toJSDate().getTime(), new Date(event.start_time).getTime(), 'DTSTART');
    assert.equal(dtend.toJSDate().getTime(), new Date(event.end_time).getTime(), 'DTEND');

    // ical.js's own event model agrees.
    const ev = new ICAL.Event(vevent);
    assert.equal(ev.summary, title);
    assert.equal(ev.description, description);
    assert.equal(ev.location, location);
    assert.equal(ev.startDate.toJSDate().getTime(), new Date(event.start_time).getTime());
    assert.equal(ev.endDate.toJSDate().getTime(), new Date(event.end_time).getTime());

    firstUID = vevent.getFirstPropertyValue('uid');
    assert.ok(firstUID, 'UID');
    assert.ok(firstUID.includes(event.id), `UID ${firstUID} names the event ${event.id}`);
    firstSequence = vevent.getFirstPropertyValue('sequence');
    assert.equal(typeof firstSequence, 'number', 'SEQUENCE is an integer');
    assert.equal(firstSequence, event.sequence, 'SEQUENCE is the event\'s sequence');

    const second = await exportICal(owner.accessToken, event.id);
    const again = onlyEvent(parseCalendar(second.ical_content));
    assert.equal(again.getFirstPropertyValue('uid'), firstUID, 'the UID is stable across exports');
    assert.equal(again.getFirstPropertyValue('sequence'), firstSequence, 'no change, no new SEQUENCE');
  });

  test('every character RFC 5545 TEXT allows, TAB included, round-trips through ical.js', async () => {
    // TEXT = *(TSAFE-CHAR / ":" / DQUOTE / ESCAPED-CHAR), TSAFE-CHAR includes
    // WSP (SP and HTAB) and all non-ASCII. So: HTAB, every printable ASCII
    // character (backslash, comma and semicolon need escapes), non-ASCII of
    // 2, 3 and 4 UTF-8 octets, and newlines (CRLF and lone CR read back as
    // LF, all the \n escape can say). Tabs sit at every offset of a line, so
    // some land right before and right after a fold. (The API trims white
    // space at the ends of a text, so the texts start and end with a mark.)
    let ascii = '';
    for (let c = 0x20; c <= 0x7e; c++) ascii += String.fromCharCode(c);
    const sample = `<\t${ascii}\tafter tab\t\ttwo tabs\t é ñ ß Ж ע ع e\u0301 \u00a0 日本語 € \u2028 \u200f 🎉 𝄞 👩\u200d👩\u200d👧 🇯🇵 end\t>`;
    const tabbed = Array.from({ length: 80 }, (_, i) => `${'x'.repeat(i)}\t${i % 3 ? 'é' : ''}`).join('');
    const description = `${sample}\n${tabbed}\r\nCRLF\rCR\n\t${sample}`;
    const title = `Tab\tin the title\t${ascii}`;
    const location = 'Tab\tRoom\t4; "A", floor: 3\tend';
    const created = await createEvent(owner.accessToken, { title, description, location });
    assert.equal(created.description, description, 'the API stores the text as sent');

    const { ical_content: text } = await exportICal(owner.accessToken, created.id);
    const lines = assertWellFormed(text);
    assert.ok(lines.some((l) => l.startsWith(' \t')), 'some fold is followed by a tab');
    assert.ok(lines.some((l) => l.endsWith('\t')), 'some fold comes right after a tab');
    const vevent = onlyEvent(parseCalendar(text));
    assert.equal(vevent.getFirstPropertyValue('summary'), title);
    assert.equal(vevent.getFirstPropertyValue('description'), description.replaceAll('\r\n', '\n').replaceAll('\r', '\n'));
    assert.equal(vevent.getFirstPropertyValue('location'), location);
    const ev = new ICAL.Event(vevent);
    assert.equal(ev.description, description.replaceAll('\r\n', '\n').replaceAll('\r', '\n'));
  });

  test('a cancelled event exports STATUS:CANCELLED with the same UID and a higher SEQUENCE', async () => {
    assert.ok(firstUID, 'the export test ran first');
    const del = await apiCall('DELETE', `${EVENTS}/${event.id}`, { token: owner.accessToken });
    assert.equal(del.status, 204, `cancel: ${del.status} ${del.text}`);
    const got = await apiCall('GET', `${EVENTS}/${event.id}`, { token: owner.accessToken });
    assert.equal(got.status, 200, got.text);
    assert.equal(got.body.status, 'cancelled');

    const { ical_content: text } = await exportICal(owner.accessToken, event.id);
    assertWellFormed(text);
    const vevent = onlyEvent(parseCalendar(text));
    assert.equal(vevent.getFirstPropertyValue('status'), 'CANCELLED');
    assert.equal(vevent.getFirstPropertyValue('uid'), firstUID, 'the same calendar entry');
    assert.equal(vevent.getFirstPropertyValue('sequence'), got.body.sequence, 'SEQUENCE is the event\'s sequence');
    assert.ok(vevent.getFirstPropertyValue('sequence') > firstSequence,
      `SEQUENCE ${vevent.getFirstPropertyValue('sequence')} > ${firstSequence}`);
    assert.equal(vevent.getFirstPropertyValue('summary'), title, 'the text is unchanged');
  });

  test('the subscription feed lists exactly the events the user is going to, until revoked', async () => {
    // A user of their own, so no other test's RSVPs reach the feed.
    const user = await registerAccount('feed');
    const token = user.accessToken;
    const tag = unique();
    const going1 = await createEvent(token, { title: `Going one, ${tag}; 🎉`, start_time: future(10), end_time: future(10, 1) });
    const going2 = await createEvent(token, { title: `Going two: 東京 ${tag}`, start_time: future(11), end_time: future(11, 1) });
    const maybe = await createEvent(token, { title: `Only interested ${tag}`, start_time: future(12), end_time: future(12, 1) });
    for (const [e, status] of [[going1, 'going'], [going2, 'going'], [maybe, 'interested']]) {
      const res = await apiCall('POST', `${EVENTS}/${e.id}/rsvp`, { token, body: { status } });
      assert.equal(res.status, 201, `RSVP ${status} to ${e.id}: ${res.status} ${res.text}`);
    }
    // The UIDs the single-event exports give each event.
    const uidOf = async (e) => onlyEvent(parseCalendar((await exportICal(token, e.id)).ical_content)).getFirstPropertyValue('uid');
    const [uid1, uid2, uidMaybe] = [await uidOf(going1), await uidOf(going2), await uidOf(maybe)];

    const issued = await apiCall('POST', `${EVENTS}/calendar-feed`, { token });
    assert.equal(issued.status, 201, `issue feed: ${issued.status} ${issued.text}`);
    assert.equal(issued.body.active, true);
    assert.ok(issued.body.feed_id, 'feed_id');
    assert.ok(issued.body.token, 'token');
    assert.ok(issued.body.url.includes(issued.body.token), 'the URL carries the token');

    // A calendar program's request: no Authorization header, no cookies.
    const res = await fetch(issued.body.url);
    const text = await res.text();
    assert.equal(res.status, 200, `feed: ${res.status} ${text}`);
    assert.match(res.headers.get('content-type') ?? '', /^text\/calendar/);
    assertWellFormed(text);
    const cal = parseCalendar(text);
    const vevents = cal.getAllSubcomponents('vevent');
    const uids = vevents.map((v) => v.getFirstPropertyValue('uid'));
    assert.deepEqual([...uids].sort(), [uid1, uid2].sort(), 'exactly the two going events');
    assert.ok(!uids.includes(uidMaybe), 'not the event the user is only interested in');
    const byUID = new Map(vevents.map((v) => [v.getFirstPropertyValue('uid'), v]));
    for (const [uid, e] of [[uid1, going1], [uid2, going2]]) {
      const v = byUID.get(uid);
      assert.equal(v.getFirstPropertyValue('summary'), e.title);
      assert.equal(v.getFirstPropertyValue('dtstart').toJSDate().getTime(), new Date(e.start_time).getTime());
      assert.equal(v.getFirstPropertyValue('dtend').toJSDate().getTime(), new Date(e.end_time).getTime());
    }

    const revoked = await apiCall('DELETE', `${EVENTS}/calendar-feed`, { token });
    assert.equal(revoked.status, 204, `revoke feed: ${revoked.status} ${revoked.text}`);
    const after = await fetch(issued.body.url);
    const afterText = await after.text();
    assert.equal(after.status, 401, `feed after revocation: ${after.status} ${afterText}`);
  });
});
