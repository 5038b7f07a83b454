package main

import (
	"context"
	"path/filepath"
	"time"

	"github.com/gorilla/mux"

	cmdidentity "github.com/strata-platform/strata/commands/identity"
	cmdmemory "github.com/strata-platform/strata/commands/memory"
	"github.com/strata-platform/strata/domain/memory"
	"github.com/strata-platform/strata/eventstore"
	"github.com/strata-platform/strata/eventstore/shred"
	projmemory "github.com/strata-platform/strata/projections/memory"
	readmemory "github.com/strata-platform/strata/readapi/memory"
	"github.com/strata-platform/strata/readapi/memory/embeddings"
	"github.com/strata-platform/strata/readapi/memory/llm"
	"github.com/strata-platform/strata/readapi/memory/mcpserver"
	"github.com/strata-platform/strata/readapi/memory/wordnet"
)

// keyRing builds the key ring that seals personal data in events, its
// wrapping key derived from the master key.
func (c *command) keyRing() (*shred.KeyRing, error) {
	master, err := cmdidentity.LoadMasterKey(c.cfg.MasterKey, filepath.Join(c.cfg.DataDir, "master.key"))
	if err != nil {
		return nil, err
	}
	return shred.New(master.Derive("subject keys"), 0)
}

// startMemory builds the memory service: read-your-writes through its
// projector, bounded by STRATA_READ_WAIT_MS; with STRATA_LLM_URL (and
// STRATA_MEMORY_LLM_EXTRACT not off) the model extracts facts too.
func startMemory(_ context.Context, app *App) error {
	wait := func(ctx context.Context, key eventstore.Key) error {
		wctx, cancel := context.WithTimeout(ctx, time.Duration(app.Config.ReadWaitLimit)*time.Millisecond)
		defer cancel()
		return app.Runner.WaitFor(wctx, key, projmemory.Name)
	}
	cfg := cmdmemory.Config{Wait: wait, Vocabulary: memory.NewVocabulary(app.Config.MemorySingleValued...)}
	if app.Config.MemoryLLMExtract {
		if x, err := llm.New(app.Config.LLM); err == nil { // checked when the configuration was read
			cfg.Extractor = x
			app.Logger.Info("memory facts are extracted by a language model too, merged with the offline extractor's",
				"url", app.Config.LLM.URL, "model", x.Model())
		}
	}
	app.Memory = cmdmemory.New(app.Store, app.Keys, app.Clock, app.Logger, cfg)
	return nil
}

// memoryRoutes serves the memory service on the platform API: its REST
// routes and, at /mcp, its MCP server (streamable HTTP).
func memoryRoutes(surface string, r *mux.Router, app *App) {
	if surface != "api" || app.Memory == nil || app.Auth == nil {
		return
	}
	cfg := readmemory.Config{Service: app.Memory, DB: app.Store.DB(), Auth: app.Auth, Actions: app.actions, Connections: app.Connections}
	if app.Config.Embeddings.URL != "" {
		ec := app.Config.Embeddings
		ec.Logger = app.Logger
		emb, err := embeddings.New(ec) // checked when the configuration was read
		if err == nil {
			cfg.Embedder = emb
			app.Logger.Info("memory recall adds dense vectors from an embeddings endpoint", "url", ec.URL, "model", ec.Model)
		}
	}
	if app.Config.LLM.URL != "" {
		if w, err := llm.New(app.Config.LLM); err == nil { // checked when the configuration was read
			cfg.Writer = w
			app.Logger.Info("memory contexts and reflections are written by a language model", "url", app.Config.LLM.URL,
				"model", w.Model())
		}
	}
	if dir := app.Config.WordNetDir; dir != "" {
		if lex, err := wordnet.Open(dir); err == nil {
			cfg.Lexicon = lex
			app.Logger.Info("memory recall matches nouns by kind with WordNet", "dir", dir)
		} else {
			app.Logger.Info("memory recall runs without WordNet (Debian: apt-get install wordnet-base)", "error", err.Error())
		}
	}
	api := readmemory.Routes(r, cfg)
	mcpserver.Routes(r, api, app.Auth, app.Logger)
}
