// Package messages is the codec of the gateway's messages wire format
// (POST /v1/messages, Anthropic-style), both ways, over the neutral IR of
// domain/gateway/chat.
//
// Client side: DecodeRequest reads a client's body into the IR (and
// validates it), EncodeResponse writes a reply, StreamEncoder writes a
// stream's events as SSE, EncodeError writes an error. Upstream side:
// EncodeRequest writes the IR as a request, DecodeResponse reads a reply,
// StreamParser reads an SSE stream incrementally, DecodeError reads an
// error body.
//
// # Requests
//
// The IR follows this format, so the request maps member for member: system
// (a string, or text blocks) to Request.System; messages with string or
// block content (text, image with a base64 source, tool_use, tool_result
// with string or block content and is_error) to Messages, consecutive turns
// of one role merged into one as the format's API does; tools {name,
// description, input_schema}; tool_choice {type auto|any|tool|none, name,
// disable_parallel_tool_use}; max_tokens, temperature, top_p,
// stop_sequences, stream; metadata.user_id to User. max_tokens, which the
// format's API requires, may be left out: the gateway applies its default
// (chat.DefaultMaxTokens) and the catalog's ceiling.
//
// Strictness (decided): the client side refuses members it does not know
// (rule unknown_field), as the format's API does ("Extra inputs are not
// permitted"), so that a misspelt member fails loudly instead of being
// ignored. Accepted but not forwarded: top_k and service_tier (their types
// checked), cache_control on blocks and tools, citations on text blocks,
// thinking and redacted_thinking blocks in assistant turns (dropped: the
// gateway never produces them). Accepted only as the default: thinking
// ({"type": "disabled"}). Refused: image sources other than base64 (the
// gateway fetches no URLs; rule image_source), document and other block
// types (block_type), server tools (unsupported). A wrong type is refused
// naming the field and the expected type (rule type:string, type:integer,
// type:string_or_array...). JSON null reads as an absent member. The
// upstream side reads leniently: members and block types it does not know
// are skipped.
//
// # Replies
//
//	IR                      this format
//	Response.ID             id, prefixed msg_ (MessageID: chatcmpl-X <-> msg_X)
//	Content text, tool_use  content[] blocks, in order
//	StopEndTurn             stop_reason end_turn (pause_turn reads as end_turn)
//	StopToolUse             tool_use
//	StopMaxTokens           max_tokens (model_context_window_exceeded reads as max_tokens)
//	StopSequence + sequence stop_sequence + stop_sequence
//	StopRefusal             refusal
//	StopError               none: the gateway sends an error (ErrStoppedWithError)
//	Usage input/output      usage.input_tokens / usage.output_tokens
//	Created                 not carried
//
// Tool call ids are never rewritten: a toolu_ or call_ id reaches the
// client as the upstream minted it, so the tool_result the client sends
// back names the id the upstream knows.
//
// # Streams
//
// StreamEncoder writes message_start (id, model, usage.input_tokens),
// content_block_start/delta/stop (text_delta, input_json_delta; a tool_use
// block starts with input {}), message_delta (stop_reason, stop_sequence,
// usage with input_tokens and the cumulative output_tokens), message_stop;
// an Error becomes an error event, which may follow a 200. Each event's
// bytes are returned as they come, for the caller to write and flush.
//
// # Errors
//
// {"type": "error", "error": {"type", "message"}}, the message naming the
// offending field first. Types by kind: invalid (and unprocessable,
// unsupported media type, method not allowed) invalid_request_error,
// conflict conflict_error, unauthenticated authentication_error, payment
// required billing_error, forbidden permission_error, not found
// not_found_error, too large request_too_large, rate limited
// rate_limit_error, timeout timeout_error, unavailable overloaded_error,
// internal api_error. DecodeError reads them back, and falls back on the
// HTTP status for a body it does not know.
package messages
