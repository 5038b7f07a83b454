// Package openai is the codec of the gateway's OpenAI chat-completions
// wire format (POST /v1/chat/completions and /api/v1/chat/completions),
// both ways, over the neutral IR of domain/gateway/chat.
//
// Client side: DecodeRequest reads a client's body into the IR (and
// validates it, naming fields in the client's own terms), EncodeResponse
// writes a reply, StreamEncoder writes a stream's events as SSE,
// EncodeError writes an error. Upstream side: EncodeRequest writes the IR
// as a request, DecodeResponse reads a reply, StreamParser reads an SSE
// stream incrementally, DecodeError reads an error body.
//
// # Requests
//
//	IR                           this format
//	System parts                 one system message each (developer messages read as system,
//	                             wherever they stand; they are hoisted to the front)
//	user turn: text, image       user message: string content, or text and image_url parts;
//	                             an image is a base64 data: URL (data:image/png;base64,...)
//	user turn: tool_result       one tool message per result {tool_call_id, content}, before
//	                             the user message with the turn's other parts; is_error has no
//	                             counterpart: the content starts with ToolErrorPrefix ("Error: "),
//	                             and a tool message reads back with is_error false
//	assistant turn               one assistant message: text parts as content (a string for
//	                             one, null for none), tool_use parts as tool_calls {id, type
//	                             function, function {name, arguments as a JSON string}}
//	Tools                        tools[] {type function, function {name, description, parameters}}
//	                             (no parameters reads as {"type":"object","properties":{}})
//	ToolChoice auto / none       "auto" / "none"
//	ToolChoice any               "required"
//	ToolChoice tool(name)        {"type": "function", "function": {"name": name}}
//	DisableParallelToolUse       parallel_tool_calls: false
//	MaxTokens                    max_tokens (read from max_completion_tokens when present)
//	Stop                         stop (a string or an array)
//	IncludeUsage                 stream_options.include_usage
//	User                         user
//
// Consecutive turns of one role are one IR turn: tool messages and a user
// message after them make one user turn. Text in an assistant turn comes
// before its tool calls (the format has no order between them). Tool inputs
// travel as compact JSON. Validation errors name the client's own fields:
// messages[3].tool_calls[0].function.arguments, tools[0].function.name.
//
// Strictness (decided): the client side refuses members it does not know
// (unknown_field), as the format's API does ("Unrecognized request
// argument"). Accepted but not forwarded (types checked): frequency_penalty,
// presence_penalty, seed, logit_bias, metadata, service_tier,
// prompt_cache_key, safety_identifier, a message's name, a tool's strict, an
// image's detail, stream_options.include_obfuscation. Accepted only as the
// default: n (1), logprobs (false), store (false), response_format
// ({"type": "text"}). Refused: image URLs other than data: URLs (data_url),
// audio and file parts, legacy functions and the function role, custom
// tools. stream_options needs stream (requires_stream). Upstream requests
// always ask a stream for usage (stream_options.include_usage), whatever
// the client asked: the gateway counts every stream's tokens. The upstream
// side reads leniently.
//
// # Replies
//
//	IR                      this format
//	Response.ID             id, prefixed chatcmpl- (CompletionID: msg_X <-> chatcmpl-X)
//	Created                 created (the gateway sets it when the upstream gave none)
//	text parts              choices[0].message.content, joined (null when none)
//	tool_use parts          choices[0].message.tool_calls
//	StopEndTurn             finish_reason stop
//	StopSequence + sequence stop, with stop_reason naming the sequence (vLLM's member); a
//	                        stop without one reads as StopEndTurn
//	StopToolUse             tool_calls (function_call reads as tool_calls)
//	StopMaxTokens           length
//	StopRefusal             content_filter
//	StopError               error (as some OpenAI-compatible providers send it)
//	Usage input/output      usage prompt_tokens / completion_tokens, total_tokens their sum
//
// Tool call ids are never rewritten, so a tool result round trip matches.
//
// # Streams
//
// Data lines only. StreamEncoder writes chat.completion.chunk objects with
// the stream's id, created and model: the first with delta {role
// assistant, content ""}; text as delta.content; each tool call's first
// fragment with its index, id, type function, name and arguments "", the
// next ones with the index and arguments; a chunk with finish_reason; with
// include_usage a chunk with no choices and usage (and "usage": null on the
// others); then data: [DONE]. An Error becomes data: {"error": {...}}
// followed by data: [DONE]. StreamParser reassembles tool-call fragments by
// index and takes usage from the usage chunk.
//
// # Errors
//
// {"error": {"message", "type", "param", "code"}}, param the offending
// field and code the rule it broke (null when unset). Types by kind:
// invalid (and unprocessable, conflict, too large...) invalid_request_error,
// unauthenticated authentication_error, payment required
// insufficient_quota, forbidden permission_error, not found
// not_found_error, rate limited rate_limit_error, timeout timeout_error,
// unavailable service_unavailable_error, internal server_error.
// DecodeError also reads the OpenAI API's requests and tokens types as rate
// limits, and falls back on the HTTP status for a body it does not know.
package openai
