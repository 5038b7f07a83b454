package gateway

import (
	"sort"
	"sync"

	"github.com/strata-platform/strata/domain/gateway/credits"
)

// creditStats counts what this process's gateway billing did, for the
// metrics (cmd/strata exposes them on /metrics).
type creditStats struct {
	mu              sync.Mutex
	requests        map[[3]string]uint64 // model, upstream, status
	debited         map[string]credits.Micro
	rateLimited     map[string]uint64 // plan
	paymentRequired map[string]uint64 // model
	duplicates      uint64
	flushes         map[string]uint64 // ok, failed
	flushedDebits   uint64
}

func newCreditStats() *creditStats {
	return &creditStats{requests: map[[3]string]uint64{}, debited: map[string]credits.Micro{}, rateLimited: map[string]uint64{},
		paymentRequired: map[string]uint64{}, flushes: map[string]uint64{}}
}

func (s *creditStats) recorded(d *credits.Debited) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests[[3]string{d.Model, d.Upstream, d.Status}]++
	s.debited[d.Model] += d.AmountMicro
}

func (s *creditStats) duplicate() {
	s.mu.Lock()
	s.duplicates++
	s.mu.Unlock()
}

func (s *creditStats) limited(plan string) {
	s.mu.Lock()
	s.rateLimited[plan]++
	s.mu.Unlock()
}

func (s *creditStats) refused(model string) {
	s.mu.Lock()
	s.paymentRequired[model]++
	s.mu.Unlock()
}

func (s *creditStats) flushed(f Flushed) {
	s.mu.Lock()
	s.flushes["ok"]++
	s.flushedDebits += uint64(f.Appended)
	s.mu.Unlock()
}

func (s *creditStats) flushFailed() {
	s.mu.Lock()
	s.flushes["failed"]++
	s.mu.Unlock()
}

// Stats is a snapshot of what this process's gateway billing did since it
// started (counters: they only grow).
type Stats struct {
	Requests        []RequestCount // usage records by model, upstream and status
	Debited         []ModelAmount  // credits debited by model
	RateLimited     []Count        // requests refused with 429, by gateway plan
	PaymentRequired []Count        // paid requests refused with 402, by model
	Duplicates      uint64         // usage records dropped as repeats of a recorded request id
	Flushes         []Count        // flushes by outcome: ok, failed
	FlushedDebits   uint64         // debits this process appended to the ledger
}

// RequestCount is a number of usage records.
type RequestCount struct {
	Model, Upstream, Status string
	N                       uint64
}

// ModelAmount is an amount by model.
type ModelAmount struct {
	Model  string
	Amount credits.Micro
}

// Count is a number by label.
type Count struct {
	Label string
	N     uint64
}

func (s *creditStats) snapshot() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := Stats{Duplicates: s.duplicates, FlushedDebits: s.flushedDebits}
	for k, n := range s.requests {
		out.Requests = append(out.Requests, RequestCount{k[0], k[1], k[2], n})
	}
	sort.Slice(out.Requests, func(i, j int) bool {
		a, b := out.Requests[i], out.Requests[j]
		return a.Model+"\x00"+a.Upstream+"\x00"+a.Status < b.Model+"\x00"+b.Upstream+"\x00"+b.Status
	})
	for m, a := range s.debited {
		out.Debited = append(out.Debited, ModelAmount{m, a})
	}
	sort.Slice(out.Debited, func(i, j int) bool { return out.Debited[i].Model < out.Debited[j].Model })
	out.RateLimited, out.PaymentRequired, out.Flushes = counts(s.rateLimited), counts(s.paymentRequired), counts(s.flushes)
	return out
}

func counts(m map[string]uint64) []Count {
	out := make([]Count, 0, len(m))
	for l, n := range m {
		out = append(out, Count{l, n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Label < out[j].Label })
	return out
}
