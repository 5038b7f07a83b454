'use strict';
// An app whose /healthz answers 503 twice, then 200 from its third probe on.
const http = require('http');

let probes = 0;
const server = http.createServer((req, res) => {
  if (req.url === '/healthz') {
    probes++;
    const ok = probes >= 3;
    console.log('healthz probe ' + probes + ': ' + (ok ? 'ok' : 'warming up'));
    res.writeHead(ok ? 200 : 503, { 'content-type': 'text/plain' });
    res.end(ok ? 'ok' : 'warming up');
    return;
  }
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end(process.env.APP_VERSION || 'unknown');
});

server.listen(Number(process.env.PORT), process.env.HOST, () => {
  console.log('listening on ' + process.env.HOST + ':' + process.env.PORT);
});
