// Package chat is the inference gateway's neutral intermediate
// representation (IR) of a chat exchange: the one backend that both wire
// formats (domain/gateway/wire/messages, domain/gateway/wire/openai) decode
// into and encode from, so that a client of either format reaches an
// upstream of either format.
//
// The IR follows the messages format's structure, the richer of the two:
//
//   - Request: a system prompt as text parts; messages of role user or
//     assistant, alternating, whose content is parts (text, image {media
//     type, base64 data}, tool_use {id, name, input JSON object},
//     tool_result {tool_use_id, content parts, is_error}); tools {name,
//     description, input_schema}; tool_choice auto|any|tool(name)|none;
//     max_tokens (nil: unset), temperature, top_p, stop sequences, stream,
//     include_usage, user. Validate checks it (its doc lists each rule).
//   - Response: id, model, created, content parts (text, tool_use), a stop
//     reason in a neutral enum (end_turn, tool_use, max_tokens,
//     stop_sequence with the sequence, refusal, error) and usage
//     {input, output tokens}.
//   - A stream: a sequence of Events: Start {id, model, input tokens},
//     BlockStart (text, or tool_use {id, name}), TextDelta, InputDelta (a
//     fragment of a tool's JSON input), BlockStop, Stop {reason, stop
//     sequence, usage with cumulative output tokens}, Error {kind,
//     message}.
//
// Stream rules (StreamChecker): exactly one Start, first; blocks open with
// indexes 0, 1, 2... in order; deltas go to an open block of their kind;
// blocks close in index order; one Stop after every block is closed; an
// Error may come at any time and ends the stream; nothing follows Stop or
// Error. Both wire encoders check every event against these rules, so what
// they write is always well-formed, and both wire parsers produce streams
// that follow them (one block open at a time).
//
// Ids are kept as the upstream minted them (msg_..., chatcmpl-..., toolu_...,
// call_...). The client encoders give a reply's id their own prefix, and
// never touch tool call ids, so that a tool_result a client sends back
// names the id the upstream gave.
//
// ToolCallFilter strips the stray <tool_call> XML some models write into
// text, across delta boundaries, and turns a well-formed call of an offered
// tool into a real tool_use block. Accumulator folds a stream into a
// Response and EventsOf unfolds a Response into a stream.
//
// The package is pure: it imports the standard library and domain/kernel.
package chat
