// The voice service's SMS segment count (Go package domain/voice/sms)
// against Twilio's open-source calculator (npm sms-segments-calculator): the
// same encoding and number of segments for a few thousand random bodies and
// the boundary cases. The Go side runs as
// `go run ./domain/voice/sms/testdata/segcount` (JSON lines in, JSON lines
// out). The one documented difference (the package doc): the calculator
// keeps a grapheme cluster of several code points (a flag, a skin-tone or
// ZWJ emoji, a keycap, a letter with a combining accent) in one part, where
// the Go count splits between code points; for those bodies only, the
// calculator must count as a splitter keeping the clusters whole, and the
// Go count as one splitting code points.
//
// No server: it needs go and this directory's node_modules only. It is the
// same comparison as domain/voice/sms/crosscheck_test.go, which `go test`
// skips when e2e/node_modules is not installed yet.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import calculator from 'sms-segments-calculator';

const { SegmentedMessage } = calculator;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The go command: the one on PATH, else the usual install. */
function goCommand() {
  const onPath = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (!onPath.error) return 'go';
  if (existsSync('/usr/local/go/bin/go')) return '/usr/local/go/bin/go';
  throw new Error('go is not on PATH (nor at /usr/local/go/bin/go)');
}

/** mulberry32: a small seeded generator, so that a failure repeats. */
function rng(seed) {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

// Pools of characters (each its own grapheme cluster, but for CLUSTERS).
const GSM = [...'@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà'];
const EXTENSION = [...'\f^{}\\[~]|€'];
const LATIN1 = [...'`\t\u00a0¨©ª«¬\u00ad®¯°±²³´µ¶·¸¹º»¼½¾ÀÁÂÃÈÊËÌÍÎÏÐÒÓÔÕ×ÙÚÛÝÞáâãçêëíîïðóôõ÷úûýþÿ'];
const BMP = [...'…’‘“”–—•™→←★☎✓ΑΒαβγжЖщ中文日本語한ğŞİłŁœŒ\u2028\ufffd'];
const ASTRAL = ['😀', '😂', '🎉', '🚀', '🌍', '💬', '🔥', '𝄞', '𠀀', '🀄', '🦄'];
const CLUSTERS = ['👍🏽', '🇫🇷', '🇩🇪', '👩\u200d👩\u200d👧', '1\ufe0f\u20e3', '❤\ufe0f', 'e\u0301', 'n\u0303'];
const POOLS = [GSM, EXTENSION, LATIN1, BMP, ASTRAL, CLUSTERS];
// Weights of the pools, one mix per kind of body.
const MIXES = [
  [90, 10, 0, 0, 0, 0], // GSM-7 text
  [40, 60, 0, 0, 0, 0], // GSM-7, many escapes
  [80, 10, 4, 3, 3, 0], // mostly GSM-7
  [30, 10, 15, 25, 20, 0], // mixed
  [10, 5, 0, 25, 60, 0], // mostly emoji
  [30, 10, 10, 20, 20, 10], // with clusters
];
const BOUNDARIES = [70, 80, 134, 153, 160, 201, 306, 459];

/** A random body as its clusters. */
function randomBody(next, mix) {
  let n = next(400);
  if (next(2) === 0) n = Math.max(1, BOUNDARIES[next(BOUNDARIES.length)] + next(9) - 4);
  const weights = MIXES[mix];
  const total = weights.reduce((s, w) => s + w, 0);
  const body = [];
  for (let i = 0; i < n; i++) {
    let x = next(total);
    let p = 0;
    while (x >= weights[p]) x -= weights[p++];
    body.push(POOLS[p][next(POOLS[p].length)]);
  }
  return body;
}

/** Segments of a UCS-2 body split only between the given pieces. */
function ucs2Segments(pieces) {
  const units = pieces.reduce((s, c) => s + c.length, 0);
  if (units <= 70) return 1;
  let segments = 1;
  let used = 0;
  for (const c of pieces) {
    if (used + c.length > 67) {
      segments++;
      used = 0;
    }
    used += c.length;
  }
  return segments;
}

const z = (n) => 'ж'.repeat(n);
// Boundary cases: [clusters, encoding, segments]. A body's clusters are its
// code points unless it lists them.
const KNOWN = [
  ['', 'GSM-7', 1],
  ['a'.repeat(160), 'GSM-7', 1],
  ['a'.repeat(161), 'GSM-7', 2],
  ['a'.repeat(306), 'GSM-7', 2],
  ['a'.repeat(307), 'GSM-7', 3],
  ['a'.repeat(158) + '€', 'GSM-7', 1],
  ['a'.repeat(159) + '€', 'GSM-7', 2],
  ['a'.repeat(152) + '^' + 'a'.repeat(152), 'GSM-7', 3],
  ['a'.repeat(151) + '^' + 'a'.repeat(153), 'GSM-7', 2],
  [']'.repeat(154), 'GSM-7', 3],
  ['ΔΦΓΛΩΠΨΣΘΞ', 'GSM-7', 1],
  ['Ça va', 'GSM-7', 1],
  ['ça va', 'UCS-2', 1],
  ['ΑΒΓ', 'UCS-2', 1],
  [z(70), 'UCS-2', 1],
  [z(71), 'UCS-2', 2],
  [z(134), 'UCS-2', 2],
  [z(135), 'UCS-2', 3],
  ['😀'.repeat(35), 'UCS-2', 1],
  ['😀'.repeat(36), 'UCS-2', 2],
  [z(66) + '😀' + z(66), 'UCS-2', 3],
  [z(65) + '😀' + z(67), 'UCS-2', 2],
  ['a'.repeat(159) + 'ж', 'UCS-2', 3],
  [']'.repeat(69) + 'ж', 'UCS-2', 1],
].map(([body, encoding, segments]) => ({ clusters: [...body], encoding, segments }));
// The documented difference: the Go count is 2, the calculator's 3.
const KNOWN_CLUSTERS = [
  [...z(65), '👍🏽', ...z(65)],
  [...z(65), '🇫🇷', ...z(65)],
  [...z(66), 'e\u0301', ...z(66)],
  [...z(60), '👩\u200d👩\u200d👧', ...z(63)],
  [...z(66), '1\ufe0f\u20e3', ...z(65)],
].map((clusters) => ({ clusters, encoding: 'UCS-2', segments: 2 }));

test('the Go segment count agrees with Twilio\'s calculator (but for the documented grapheme clusters)', (t) => {
  const RANDOM = 4000;
  const next = rng(20260923);
  const bodies = [...KNOWN, ...KNOWN_CLUSTERS];
  for (let i = 0; i < RANDOM; i++) bodies.push({ clusters: randomBody(next, i % MIXES.length) });

  const input = bodies.map((b) => JSON.stringify(b.clusters.join(''))).join('\n') + '\n';
  const go = spawnSync(goCommand(), ['run', './domain/voice/sms/testdata/segcount'], {
    cwd: ROOT,
    input,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    timeout: 300_000,
    env: { ...process.env, GOFLAGS: `${process.env.GOFLAGS ?? ''} -buildvcs=false`.trim() },
  });
  assert.equal(go.error, undefined, `go run: ${go.error}`);
  assert.equal(go.status, 0, `go run ./domain/voice/sms/testdata/segcount exited ${go.status}:\n${go.stderr}`);
  const answers = go.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(answers.length, bodies.length, 'one answer per body');

  const mismatches = [];
  let differ = 0;
  bodies.forEach((b, i) => {
    const body = b.clusters.join('');
    const m = new SegmentedMessage(body);
    const calc = { encoding: m.encodingName, segments: m.segmentsCount };
    const goAnswer = answers[i];
    if (b.encoding !== undefined) {
      assert.deepEqual(goAnswer, { encoding: b.encoding, segments: b.segments }, `known body ${i} (${[...body].length} code points)`);
    }
    let wantCalc = goAnswer;
    if (b.clusters.some((c) => [...c].length > 1)) {
      // The documented class: the calculator keeps the clusters whole, Go
      // splits between code points (keeping surrogate pairs).
      wantCalc = { encoding: 'UCS-2', segments: ucs2Segments(b.clusters) };
      const codePoints = b.clusters.flatMap((c) => [...c]);
      assert.deepEqual(goAnswer, { encoding: 'UCS-2', segments: ucs2Segments(codePoints) }, `body ${i}: Go count`);
      if (wantCalc.segments !== goAnswer.segments) differ++;
    }
    if (calc.encoding !== wantCalc.encoding || calc.segments !== wantCalc.segments) {
      mismatches.push(`body ${i} ${JSON.stringify(body)}: calculator ${JSON.stringify(calc)}, want ${JSON.stringify(wantCalc)} (Go ${JSON.stringify(goAnswer)})`);
    }
  });
  assert.equal(mismatches.length, 0, `${mismatches.length} of ${bodies.length} bodies differ; the first:\n${mismatches.slice(0, 10).join('\n')}`);
  assert.ok(differ >= KNOWN_CLUSTERS.length, `only ${differ} bodies showed the documented cluster difference`);
  t.diagnostic(`${bodies.length} bodies (${RANDOM} random) agree; ${differ} differ as documented (a cluster across a part boundary)`);
});
