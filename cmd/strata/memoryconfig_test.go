package main

import (
	"strings"
	"testing"
)

// Model extraction of memory facts follows STRATA_LLM_URL unless
// STRATA_MEMORY_LLM_EXTRACT turns it off.
func TestMemoryLLMExtractFollowsTheLLMEndpoint(t *testing.T) {
	const url = "http://127.0.0.1:9/v1"
	for _, c := range []struct {
		env     map[string]string
		want    bool
		wantErr string
	}{
		{map[string]string{}, false, ""},
		{map[string]string{"STRATA_MEMORY_LLM_EXTRACT": "on"}, false, ""}, // no endpoint, nothing to ask
		{map[string]string{"STRATA_LLM_URL": url}, true, ""},
		{map[string]string{"STRATA_LLM_URL": url, "STRATA_MEMORY_LLM_EXTRACT": "ON"}, true, ""},
		{map[string]string{"STRATA_LLM_URL": url, "STRATA_MEMORY_LLM_EXTRACT": "off"}, false, ""},
		{map[string]string{"STRATA_LLM_URL": url, "STRATA_MEMORY_LLM_EXTRACT": "false"}, false, ""},
		{map[string]string{"STRATA_LLM_URL": url, "STRATA_MEMORY_LLM_EXTRACT": "sometimes"}, false, "STRATA_MEMORY_LLM_EXTRACT"},
	} {
		cfg, err := loadConfig(c.env)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%v: error %v, want one naming %s", c.env, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", c.env, err)
			continue
		}
		if cfg.MemoryLLMExtract != c.want {
			t.Errorf("%v: MemoryLLMExtract = %v, want %v", c.env, cfg.MemoryLLMExtract, c.want)
		}
	}
}
