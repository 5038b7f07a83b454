package briefingbench

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/strata-platform/strata/eventstore/storebench"
)

// rss is the process's resident set size in bytes, from /proc (Linux);
// ok is false where it cannot be read.
func rss() (int64, bool) {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				return 0, false
			}
			return kb << 10, true
		}
	}
	return 0, false
}

// rssSampler records the process's peak RSS every 100 ms, and its RSS once
// the server started.
type rssSampler struct {
	mu            sync.Mutex
	peak, atStart int64
	samples       int
	done          chan struct{}
	once          sync.Once
	stopped       chan struct{}
}

func startRSS() *rssSampler {
	s := &rssSampler{done: make(chan struct{}), stopped: make(chan struct{})}
	go func() {
		defer close(s.stopped)
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			if v, ok := rss(); ok {
				s.mu.Lock()
				s.peak = max(s.peak, v)
				s.samples++
				s.mu.Unlock()
			}
			select {
			case <-s.done:
				return
			case <-t.C:
			}
		}
	}()
	return s
}

// started records the RSS once the server runs, before any load.
func (s *rssSampler) started() {
	if v, ok := rss(); ok {
		s.mu.Lock()
		s.atStart = v
		s.mu.Unlock()
	}
}

func (s *rssSampler) stop() {
	s.once.Do(func() { close(s.done) })
	<-s.stopped
}

// figure stops the sampler and reports the peak next to the RSS at start.
func (s *rssSampler) figure(o Options) storebench.Figure {
	s.stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	o.Logf("resident memory: %.0f MB once started, %.0f MB at the peak", float64(s.atStart)/1e6, float64(s.peak)/1e6)
	return storebench.Figure{Name: "resident memory of the process (serve and the load generator): peak (base: once started)",
		Unit: "MB", Ours: float64(s.peak) / 1e6, Baseline: float64(s.atStart) / 1e6, Samples: s.samples}
}
