'use strict';
// A healthy app: answers /healthz with 200, / with its version (APP_VERSION),
// /slow?ms=N with its version after N ms, /records from DATA_FILE (read on
// every request, replaced atomically), /env with its environment. With
// SPAWN_CHILD=1 it starts a child process sharing its output and prints the
// child's pid.
const http = require('http');
const fs = require('fs');
const { spawn } = require('child_process');

const version = process.env.APP_VERSION || 'unknown';
const dataFile = process.env.DATA_FILE;

function readRecords() {
  try {
    return JSON.parse(fs.readFileSync(dataFile, 'utf8'));
  } catch (e) {
    if (e.code === 'ENOENT') return [];
    throw e;
  }
}

function writeRecords(records) {
  const tmp = dataFile + '.' + process.pid + '.tmp';
  fs.writeFileSync(tmp, JSON.stringify(records));
  fs.renameSync(tmp, dataFile);
}

if (process.env.SPAWN_CHILD === '1') {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  console.log('child pid ' + child.pid);
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://app');
  const text = { 'content-type': 'text/plain' };
  const json = { 'content-type': 'application/json' };
  switch (url.pathname) {
    case '/healthz':
      res.writeHead(200, text);
      res.end('ok');
      return;
    case '/slow':
      setTimeout(() => {
        res.writeHead(200, text);
        res.end(version);
      }, Number(url.searchParams.get('ms') || 100));
      return;
    case '/env':
      res.writeHead(200, json);
      res.end(JSON.stringify(process.env));
      return;
    case '/records':
      if (req.method === 'POST') {
        let body = '';
        req.on('data', (chunk) => { body += chunk; });
        req.on('end', () => {
          const records = readRecords();
          records.push(JSON.parse(body));
          writeRecords(records);
          res.writeHead(201, json);
          res.end(JSON.stringify(records));
        });
        return;
      }
      res.writeHead(200, json);
      res.end(JSON.stringify(readRecords()));
      return;
    default:
      res.writeHead(200, text);
      res.end(version);
  }
});

server.listen(Number(process.env.PORT), process.env.HOST, () => {
  console.log('version ' + version + ' listening on ' + process.env.HOST + ':' + process.env.PORT);
});
