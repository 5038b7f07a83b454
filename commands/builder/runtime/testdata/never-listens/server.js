'use strict';
// An app that starts but never listens.
console.log('starting; this app never opens its port');
console.error('waiting for a database that does not exist');
setInterval(() => {}, 1000);
