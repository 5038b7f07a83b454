'use strict';
// An app that fails at start.
console.log('reading configuration');
throw new Error('STRIPE_KEY is not set');
