'use strict';
// A healthy app that ignores SIGTERM (only SIGKILL stops it).
const http = require('http');

process.on('SIGTERM', () => {
  console.log('SIGTERM received and ignored');
});

const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end(req.url === '/healthz' ? 'ok' : (process.env.APP_VERSION || 'unknown'));
});

server.listen(Number(process.env.PORT), process.env.HOST, () => {
  console.log('listening on ' + process.env.HOST + ':' + process.env.PORT);
});
