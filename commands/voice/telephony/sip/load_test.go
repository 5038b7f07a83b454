package sip

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/strata-platform/strata/commands/voice/telephony"
	"github.com/strata-platform/strata/commands/voice/telephony/sipptest"
)

// TestLoad places SIP_LOAD_CPS calls a second for SIP_LOAD_SECONDS (the
// benchmark's 50 for 20) against one SIPp UAS that answers and hangs up
// each after 200 ms. It runs only when SIP_LOAD is set.
func TestLoad(t *testing.T) {
	if os.Getenv("SIP_LOAD") == "" {
		t.Skip("set SIP_LOAD=1 (and SIP_LOAD_CPS, SIP_LOAD_SECONDS) to run the load test")
	}
	cps, secs := envInt("SIP_LOAD_CPS", 50), envInt("SIP_LOAD_SECONDS", 20)
	n := cps * secs
	before := runtime.NumGoroutine()
	s := sipptest.Start(t, "uas_answer_bye.xml", "", sipptest.Options{Calls: n, Vars: with(outboundVars, "call_id", "call-answer-bye")})
	p := newTestProvider(t, s.Addr)
	var wg sync.WaitGroup
	var mu sync.Mutex
	outcomes := map[string]int{}
	tick := time.NewTicker(time.Second / time.Duration(cps))
	defer tick.Stop()
	start := time.Now()
	for i := range n {
		<-tick.C
		wg.Add(1)
		done := sync.OnceFunc(wg.Done)
		_, err := p.Dial(context.Background(), telephony.CallRequest{CallID: "call-answer-bye", From: "15550001111", To: "15550002222"},
			func(pr telephony.Progress) {
				if pr.Kind == telephony.Ended {
					mu.Lock()
					outcomes[string(pr.Outcome)+" "+pr.Reason]++
					mu.Unlock()
					done()
				}
			})
		if err != nil {
			t.Fatalf("Dial %d: %v", i, err)
		}
	}
	wg.Wait()
	t.Logf("%d calls in %v: %v; goroutines at the peak of the end: %d", n, time.Since(start), outcomes, runtime.NumGoroutine())
	if outcomes["completed remote_hangup"] != n {
		t.Errorf("outcomes %v, want %d completed remote_hangup", outcomes, n)
	}
	s.Wait(30 * time.Second)
	p.Close()
	time.Sleep(500 * time.Millisecond)
	t.Logf("goroutines: %d before, %d after Close", before, runtime.NumGoroutine())
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}
