package messages

import "github.com/strata-platform/strata/domain/gateway/chat"

// Carried is r as it comes back from a trip through this format (encoded
// by EncodeRequest, read by DecodeRequest): max_tokens is set (to
// chat.DefaultMaxTokens when it was not), include_usage is gone (the
// format's streams always carry usage), and DisableParallelToolUse holds
// only with tools and rides on a tool choice (auto when there was none).
func Carried(r chat.Request) chat.Request {
	if r.MaxTokens == nil {
		n := chat.DefaultMaxTokens
		r.MaxTokens = &n
	}
	r.IncludeUsage = false
	r.DisableParallelToolUse = r.DisableParallelToolUse && len(r.Tools) > 0
	if r.DisableParallelToolUse && r.ToolChoice == nil {
		r.ToolChoice = &chat.ToolChoice{Type: chat.ToolChoiceAuto}
	}
	return r
}

// CarriedResponse is r as it comes back from a trip through this format,
// as a response (EncodeResponse, DecodeResponse) or as a stream
// (StreamEncoder, StreamParser): the id with this format's prefix and no
// created time, which the format does not carry.
func CarriedResponse(r chat.Response) chat.Response {
	r.ID, r.Created = MessageID(r.ID), 0
	return r
}
