package voicebench

import (
	"strings"
	"testing"
	"time"

	"github.com/strata-platform/strata/eventstore/storebench"
)

func msd(v ...float64) []time.Duration {
	out := make([]time.Duration, len(v))
	for i, x := range v {
		out[i] = time.Duration(x * float64(time.Millisecond))
	}
	return out
}

func TestQuantileIsTheNearestRank(t *testing.T) {
	hundred := make([]float64, 100)
	for i := range hundred {
		hundred[99-i] = float64(i + 1) // 100 down to 1: Quantile sorts
	}
	for _, c := range []struct {
		d    []time.Duration
		q    float64
		want float64
	}{
		{nil, 0.99, 0},
		{msd(7), 0.5, 7},
		{msd(7), 0.99, 7},
		{msd(1, 2), 0.5, 1},
		{msd(1, 2, 3, 4), 0.5, 2},
		{msd(1, 2, 3, 4), 0.95, 4},
		{msd(hundred...), 0.5, 50},
		{msd(hundred...), 0.95, 95},
		{msd(hundred...), 0.99, 99},
		{msd(hundred...), 1, 100},
		{msd(hundred...), 0, 1},
	} {
		if got := Quantile(c.d, c.q); got != c.want {
			t.Errorf("Quantile(%d samples, %v) = %v, want %v", len(c.d), c.q, got, c.want)
		}
	}
	d := msd(3, 1, 2)
	Quantile(d, 0.5)
	if d[0] != 3*time.Millisecond {
		t.Error("Quantile sorted its input in place")
	}
}

func TestQuantilesNameTargetAndBaseline(t *testing.T) {
	ours, base := msd(10, 20, 30, 40), msd(1, 2, 3, 4)
	figs := Quantiles("POST /sms/send at 200/s", "minimal INSERT handler at 200/s", ours, base, []float64{0.5, 0.95, 0.999},
		map[float64]float64{0.95: 20})
	want := []struct {
		name       string
		ours, base float64
		target     float64
		result     string
	}{
		{"POST /sms/send at 200/s p50 (base: minimal INSERT handler at 200/s)", 20, 2, 0, "-"},
		{"POST /sms/send at 200/s p95 (base: minimal INSERT handler at 200/s)", 40, 4, 20, "MISS"},
		{"POST /sms/send at 200/s p99.9 (base: minimal INSERT handler at 200/s)", 40, 4, 0, "-"},
	}
	if len(figs) != len(want) {
		t.Fatalf("%d figures: %+v", len(figs), figs)
	}
	for i, w := range want {
		f := figs[i]
		if f.Name != w.name || f.Ours != w.ours || f.Baseline != w.base || f.Target.Max != w.target || f.Result() != w.result ||
			f.Unit != storebench.UnitMs || f.Samples != 4 || f.Ratio() != 10 {
			t.Errorf("figure %d: %+v (result %s), want %+v", i, f, f.Result(), w)
		}
	}
	if f := Quantiles("x", "", msd(5), nil, []float64{0.99}, map[float64]float64{0.99: 20})[0]; f.Name != "x p99" || f.Result() != "PASS" || f.Baseline != 0 {
		t.Errorf("no baseline: %+v", f)
	}
}

func TestCountMustReachItsTarget(t *testing.T) {
	if f := Count("calls ended", "calls", 1000, 1000); f.Result() != "PASS" || f.Samples != 1000 {
		t.Errorf("all: %+v %s", f, f.Result())
	}
	if f := Count("calls ended", "calls", 999, 1000); f.Result() != "MISS" {
		t.Errorf("one lost: %+v %s", f, f.Result())
	}
}

func TestInOrder(t *testing.T) {
	for _, c := range []struct {
		got   []int
		moves int
		want  bool
	}{
		{[]int{1, 2, 3, 4, 5}, 5, true},
		{[]int{1, 2, 3, 4}, 5, false},       // one missing
		{[]int{1, 2, 4, 3, 5}, 5, false},    // out of order
		{[]int{1, 2, 2, 3, 4, 5}, 5, false}, // delivered twice
		{nil, 0, true},
	} {
		if got := InOrder(c.got, c.moves); got != c.want {
			t.Errorf("InOrder(%v, %d) = %v", c.got, c.moves, got)
		}
	}
}

func TestParseScreen(t *testing.T) {
	screen := `------------------------------ Scenario Screen -------- [1-9]: Change Screen --
  Call-rate(length)   Port   Total-time  Total-calls  Remote-host
  50.0(0 ms)/1.000s   5061      20.00 s         1000  127.0.0.1:5060(UDP)
  Successful call        |        3                  |      998                 
  Failed call            |        0                  |        2                 
-------------------------+---------------------------+--------------------------
`
	if st := parseScreen([]byte(screen)); st != (sippStats{Successful: 998, Failed: 2}) {
		t.Errorf("parseScreen: %+v", st)
	}
	if st := parseScreen(nil); st != (sippStats{}) {
		t.Errorf("empty: %+v", st)
	}
}

func TestReportPrintsTargetsBaselinesAndRatios(t *testing.T) {
	rep := storebench.Report{Bench: "voice", Mode: "quick", Server: "loopback", CPUs: 2, Elapsed: 42 * time.Second}
	rep.Figures = append(rep.Figures, Count("outbound: calls ended (of 250 at 50/s)", "calls", 250, 250))
	rep.Figures = append(rep.Figures, Quantiles("outbound: SIP -> event", "raw INSERT at 100/s", msd(2, 4, 30), msd(0.5, 1, 1.5),
		[]float64{0.5, 0.99}, map[float64]float64{0.99: 20})...)
	var b strings.Builder
	if err := rep.Print(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"strata bench voice (quick) on loopback, 2 CPUs, 42s",
		"outbound: calls ended (of 250 at 50/s)",
		"250 calls",
		">= 250 calls  PASS",
		"outbound: SIP -> event p50 (base: raw INSERT at 100/s)",
		"4.00 ms         1.00 ms   4.00",
		"30.00 ms         1.50 ms  20.00  <= 20.00 ms   MISS",
		"3 figures, 1 targets missed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
}

func TestCountsAndAchieved(t *testing.T) {
	if got := counts(map[string]int{"completed remote_hangup": 998, "failed timeout": 1, "busy sip_486": 1}); got != "998 completed remote_hangup, 1 busy sip_486, 1 failed timeout" {
		t.Errorf("counts: %q", got)
	}
	if got := achieved(1001, 20*time.Second); got != 50 {
		t.Errorf("achieved: %v", got)
	}
	if achieved(1, time.Second) != 0 || achieved(5, 0) != 0 {
		t.Error("achieved of too few starts")
	}
}

func TestLagsIsTheTimeUntilTheCheckpointPassedTheHead(t *testing.T) {
	t0 := time.Unix(0, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	samples := []lagSample{
		{at: at(0), head: key{10, 5}, done: key{10, 5}},   // caught up: 0
		{at: at(50), head: key{12, 9}, done: key{10, 5}},  // passed at 150
		{at: at(100), head: key{12, 9}, done: key{11, 1}}, // passed at 150
		{at: at(150), head: key{13, 2}, done: key{12, 9}}, // never passed
	}
	lags, open := Lags(samples)
	if want := msd(0, 100, 50); len(lags) != 3 || lags[0] != want[0] || lags[1] != want[1] || lags[2] != want[2] || open != 1 {
		t.Errorf("Lags = %v, %d open", lags, open)
	}
	if !(key{12, 9}).atLeast(key{12, 9}) || !(key{13, 0}).atLeast(key{12, 9}) || (key{12, 8}).atLeast(key{12, 9}) {
		t.Error("key order")
	}
}
