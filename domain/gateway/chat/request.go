package chat

import "encoding/json"

// DefaultMaxTokens is the output budget of a request that names none (the
// seed: "max_tokens 4096, always set explicitly"). The gateway applies it,
// and the per-model ceilings of the catalog, before it calls an upstream; an
// encoder for a format that requires max_tokens falls back to it.
const DefaultMaxTokens = 4096

// Request is one chat request in neither wire format: what a client asked
// for, decoded from the messages format or the OpenAI format, and what is
// encoded for an upstream of either format.
type Request struct {
	Model string
	// System holds the system prompt as text parts, in order. The messages
	// format's system string or blocks and the OpenAI format's system and
	// developer role messages (wherever they stood) all land here.
	System   []Part
	Messages []Message
	Tools    []Tool
	// ToolChoice is nil when the client did not choose; the upstream then
	// applies its own default (auto when tools are offered).
	ToolChoice *ToolChoice
	// DisableParallelToolUse forbids several tool calls in one turn
	// (messages tool_choice.disable_parallel_tool_use, OpenAI
	// parallel_tool_calls: false). Unset, both formats allow them.
	DisableParallelToolUse bool
	MaxTokens              *int     // nil: unset (the gateway applies DefaultMaxTokens)
	Temperature            *float64 // nil: the upstream's default
	TopP                   *float64 // nil: the upstream's default
	Stop                   []string // stop sequences
	Stream                 bool
	// IncludeUsage asks an OpenAI-format stream for its final usage chunk
	// (stream_options.include_usage). Messages-format streams always carry
	// usage.
	IncludeUsage bool
	// User identifies the end user to the upstream (OpenAI user, messages
	// metadata.user_id).
	User string
}

// Role is the author of a message. The IR has two; system prompts live in
// Request.System and tool results in user messages, as in the messages
// format.
type Role string

// The roles.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Message is one turn of the conversation.
type Message struct {
	Role    Role
	Content []Part
}

// PartType names what a Part holds.
type PartType string

// The part types.
const (
	PartText       PartType = "text"
	PartImage      PartType = "image"
	PartToolUse    PartType = "tool_use"
	PartToolResult PartType = "tool_result"
)

// Part is one piece of a message, a system prompt, a tool result or a
// response. Only the fields of its Type are set; use the constructors.
type Part struct {
	Type PartType

	Text string // text

	MediaType string // image: image/jpeg, image/png, image/gif or image/webp
	Data      string // image: the bytes, standard base64

	ID    string          // tool_use: the call's id, kept from whoever minted it
	Name  string          // tool_use: the tool's name
	Input json.RawMessage // tool_use: the arguments, a JSON object

	ToolUseID string // tool_result: the id of the tool_use it answers
	Content   []Part // tool_result: text and image parts
	IsError   bool   // tool_result: the tool failed
}

// Text returns a text part.
func Text(s string) Part { return Part{Type: PartText, Text: s} }

// Image returns an image part holding base64 data of a media type.
func Image(mediaType, base64Data string) Part {
	return Part{Type: PartImage, MediaType: mediaType, Data: base64Data}
}

// ToolUse returns a tool call: id, tool name and a JSON object of arguments.
func ToolUse(id, name string, input json.RawMessage) Part {
	return Part{Type: PartToolUse, ID: id, Name: name, Input: input}
}

// ToolResult returns the result of the tool call toolUseID.
func ToolResult(toolUseID string, content []Part, isError bool) Part {
	return Part{Type: PartToolResult, ToolUseID: toolUseID, Content: content, IsError: isError}
}

// Tool is a tool the model may call.
type Tool struct {
	Name        string
	Description string
	// InputSchema is the JSON Schema of the arguments, an object schema
	// ({"type":"object",...}).
	InputSchema json.RawMessage
}

// ToolChoiceType says how the model must use the tools.
type ToolChoiceType string

// The tool choices: auto (the model decides), any (it must call one of
// them; OpenAI "required"), tool (it must call the named one), none (it must
// not call any).
const (
	ToolChoiceAuto ToolChoiceType = "auto"
	ToolChoiceAny  ToolChoiceType = "any"
	ToolChoiceTool ToolChoiceType = "tool"
	ToolChoiceNone ToolChoiceType = "none"
)

// ToolChoice is a tool choice; Name is set for ToolChoiceTool only.
type ToolChoice struct {
	Type ToolChoiceType
	Name string
}
