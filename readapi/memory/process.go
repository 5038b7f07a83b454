package memory

import (
	"net/http"
	"strings"

	"github.com/strata-platform/strata/domain/memory"
	"github.com/strata-platform/strata/readapi/httpx"
)

// processBody is POST /process's body.
type processBody struct {
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
	EntityID  *string `json:"entity_id"`
	Namespace *string `json:"namespace"` // beyond the seed: where the memories go (default global)
}

type processedMemory struct {
	MemoryID   string `json:"memory_id"`
	Content    string `json:"content"`
	MemoryType string `json:"memory_type"`
	Merged     bool   `json:"merged"`
}

// process extracts memories from a transcript (memory.ExtractMemories) and
// remembers them all in one append.
func (a *API) process(w http.ResponseWriter, r *http.Request, c caller) {
	var body processBody
	if err := httpx.DecodeJSON(r, &body); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	msgs := make([]memory.Message, len(body.Messages))
	for i, m := range body.Messages {
		msgs[i] = memory.Message{Role: strings.ToLower(strings.TrimSpace(m.Role)), Content: m.Content}
	}
	if err := memory.CheckTranscript(msgs); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	ins := memory.ExtractMemories(msgs)
	for i := range ins {
		ins[i].EntityRef = orDefault(body.EntityID, "")
		ins[i].Namespace = orDefault(body.Namespace, "")
	}
	out := map[string]any{"memories_extracted": 0, "memories": []processedMemory{}}
	if len(ins) == 0 {
		_ = httpx.WriteJSON(w, http.StatusOK, out)
		return
	}
	res, err := a.svc.RememberMany(r.Context(), c.UserID, ins)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	list := make([]processedMemory, len(res))
	for i, m := range res {
		list[i] = processedMemory{MemoryID: m.MemoryID, Content: ins[i].Content, MemoryType: ins[i].MemoryType, Merged: m.Merged}
	}
	out["memories_extracted"], out["memories"] = len(list), list
	_ = httpx.WriteJSON(w, http.StatusOK, out)
}
