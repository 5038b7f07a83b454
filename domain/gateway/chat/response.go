package chat

// Response is one complete (non-streamed) reply of a model.
type Response struct {
	// ID is the upstream's id of the reply, as it gave it (msg_..., chatcmpl-...);
	// each client encoder puts its own format's prefix on it.
	ID    string
	Model string
	// Created is when the reply was made, in Unix seconds: the OpenAI
	// format's created. An upstream of the messages format gives none; the
	// gateway sets it from its clock before encoding for an OpenAI client.
	Created int64
	// Content holds text and tool_use parts, in the order the model produced
	// them.
	Content []Part
	// StopReason says why the model stopped; StopSequence names the stop
	// sequence met when StopReason is StopSequence (when the upstream said).
	StopReason   StopReason
	StopSequence string
	Usage        Usage
}

// StopReason is why a model stopped, in neither format's words. The codecs'
// package docs give each format's mapping.
type StopReason string

// The stop reasons.
const (
	// StopEndTurn: the model finished its turn (messages end_turn, OpenAI stop).
	StopEndTurn StopReason = "end_turn"
	// StopToolUse: the model called tools and waits for their results
	// (messages tool_use, OpenAI tool_calls).
	StopToolUse StopReason = "tool_use"
	// StopMaxTokens: the output budget or the context ran out (messages
	// max_tokens, OpenAI length).
	StopMaxTokens StopReason = "max_tokens"
	// StopSequence: a stop sequence was generated (messages stop_sequence,
	// OpenAI stop).
	StopSequence StopReason = "stop_sequence"
	// StopRefusal: the upstream refused or filtered the output (messages
	// refusal, OpenAI content_filter).
	StopRefusal StopReason = "refusal"
	// StopError: the upstream ended the generation with an error (OpenAI
	// finish_reason "error", as some OpenAI-compatible providers send it).
	StopError StopReason = "error"
)

// Usage counts tokens. In a stream's Stop event both counts are final
// totals for the whole reply.
type Usage struct {
	InputTokens  int
	OutputTokens int
}
