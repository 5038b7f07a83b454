// Twilio's segment calculator (npm sms-segments-calculator) over JSON lines:
// each line of stdin is a JSON string, the SMS body; each line of stdout is
// {"encoding": "GSM-7" | "UCS-2", "segments": n} for it, in order.
// crosscheck_test.go runs it to compare package sms with the calculator.
//
// The package is loaded from e2e/node_modules (run `cd e2e && npm ci`): the
// e2e directory is the first argument, else the one of this checkout.
import { createRequire } from 'node:module';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const e2e = path.resolve(process.argv[2] ?? path.join(here, '..', '..', '..', '..', 'e2e'));
const { SegmentedMessage } = createRequire(path.join(e2e, 'package.json'))('sms-segments-calculator');

const out = [];
for await (const line of readline.createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (line === '') continue;
  const m = new SegmentedMessage(JSON.parse(line));
  out.push(JSON.stringify({ encoding: m.encodingName, segments: m.segmentsCount }));
}
process.stdout.write(out.length ? `${out.join('\n')}\n` : '');
