// Package wire groups the inference gateway's codecs, one package per wire
// format: messages (POST /v1/messages) and openai (POST
// /v1/chat/completions and /api/v1/chat/completions). Each translates its
// format to and from the neutral IR of domain/gateway/chat, for clients
// (decode a request, encode a response, a stream and an error) and for
// upstreams (encode a request, decode a response, parse a stream and an
// error). The tests of this package run every scenario through every pair
// of client and upstream formats.
package wire
