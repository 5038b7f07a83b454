package memory

import (
	"context"
	"sync"
	"time"

	"github.com/strata-platform/strata/domain/memory"
)

// modelConcurrency bounds the extraction requests one RememberMany sends
// at a time.
const modelConcurrency = 4

// askModel fills in.Model from the configured extractor, if any and if the
// caller did not: the call runs before the user's lock is taken, bounded by
// ExtractTimeout. A failure is logged and leaves the offline facts; it
// never fails the write.
func (s *Service) askModel(ctx context.Context, in *memory.RememberInput) {
	if s.cfg.Extractor == nil || in.Model != nil {
		return
	}
	mctx, cancel := context.WithTimeout(ctx, s.cfg.ExtractTimeout)
	defer cancel()
	begin := time.Now()
	r, err := s.cfg.Extractor.ExtractFacts(mctx, in.Content)
	if err != nil {
		s.log.Warn("memory: model extraction failed; the offline extractor's facts stand", "err", err.Error(),
			"elapsed_ms", time.Since(begin).Milliseconds())
		return
	}
	in.Model = &r
}

// askModelAll is askModel for each of ins, a few at a time.
func (s *Service) askModelAll(ctx context.Context, ins []memory.RememberInput) {
	if s.cfg.Extractor == nil {
		return
	}
	sem := make(chan struct{}, modelConcurrency)
	var wg sync.WaitGroup
	for i := range ins {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			s.askModel(ctx, &ins[i])
		}()
	}
	wg.Wait()
}
