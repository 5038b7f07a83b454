'use strict';
// An app that listens but answers /healthz with 500 every time.
const http = require('http');

const server = http.createServer((req, res) => {
  if (req.url === '/healthz') {
    console.error('healthz: database unavailable');
    res.writeHead(500, { 'content-type': 'text/plain' });
    res.end('database unavailable');
    return;
  }
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end(process.env.APP_VERSION || 'unknown');
});

server.listen(Number(process.env.PORT), process.env.HOST, () => {
  console.log('listening on ' + process.env.HOST + ':' + process.env.PORT);
});
