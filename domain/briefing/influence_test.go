package briefing

import (
	"fmt"
	"reflect"
	"testing"
	"time"
)

// influenceFixture, by hand. alice over 90 days: commits 120+10 = 130,
// reviews 30, issues 4, repos 3 (acme/api, acme/web, beta/lib), stars
// 5200 (acme/api's latest) + 300 + 50 = 5550, followers 250 (the latest).
// Score terms w·ln(1+S)/ln(1+max(S,T)):
//
//	commits   1·ln 131/ln 1001     = 4.8752/6.9088  = 0.7057
//	reviews   1·ln 31/ln 501       = 3.4340/6.2166  = 0.5524
//	issues  0.5·ln 5/ln 501        = 0.5·1.6094/6.2166 = 0.1294
//	repos     1·ln 4/ln 21         = 1.3863/3.0445  = 0.4553
//	stars     2·ln 5551/ln 100001  = 2·8.6218/11.5129 = 1.4977
//	followers 1·ln 251/ln 10001    = 5.5255/9.2104  = 0.5999
//
// Σ 3.9404 / Σw 6.5 = 0.6062. bob: commits 3 (2.6 rounded), repos 1:
// (ln 4/ln 1001 + ln 2/ln 21)/6.5 = (0.2007+0.2277)/6.5 = 0.0659.
func influenceFixture() Inputs {
	return Inputs{Activities: []Activity{
		{Developer: "alice", Repo: "acme/api", Org: "acme", Metric: "commits", Count: 120, At: ago(1 * day)},
		{Developer: "Alice", Repo: "acme/api", Metric: "reviews", Count: 30, At: ago(2 * day)},
		{Developer: "alice", Repo: "acme/web", Org: "acme", Metric: "Commits", Count: 10, At: ago(3 * day)},
		{Developer: "alice", Repo: "beta/lib", Metric: "issues", Count: 4, At: ago(4 * day)},
		{Repo: "acme/api", Metric: "stars", Count: 5000, At: ago(10 * day)},
		{Developer: "carol", Repo: "acme/api", Metric: "stars", Count: 5200, At: ago(2 * day)}, // the latest
		{Repo: "acme/web", Metric: "stars", Count: 300, At: ago(5 * day)},
		{Repo: "beta/lib", Org: "Beta Labs", Metric: "stars", Count: 50, At: ago(5 * day)},
		{Developer: "alice", Metric: "followers", Count: 250, At: ago(5 * day)},
		{Developer: "alice", Metric: "followers", Count: 240, At: ago(30 * day)},
		{Developer: "bob", Repo: "solo/tool", Metric: "commits", Count: 2.6, At: ago(1 * day)},
		{Developer: "bob", Repo: "solo/tool", Metric: "reviews", Count: -4, At: ago(1 * day)},                   // counts 0
		{Developer: "erin", Metric: "followers", Count: 900, At: ago(1 * day)},                                  // no contribution: no correlation
		{Developer: "alice", Repo: "acme/api", Org: "acme", Metric: "commits", Count: 1000, At: ago(100 * day)}, // outside
		{Developer: "alice", Repo: "acme/api", Org: "acme", Metric: "forks", Count: 7, At: ago(1 * day)},        // not a metric it reads
		{Developer: "dave", Metric: "commits", Count: 5, At: ago(1 * day)},                                      // no repository
	}}
}

func TestDeveloperInfluence(t *testing.T) {
	r := run(t, AlgoInfluence, influenceFixture(), asOf)
	if r.NoInput || r.Inputs != 13 {
		t.Fatalf("inputs %d", r.Inputs)
	}
	alice := InfluenceParams{Commits: 130, Reviews: 30, Issues: 4, Repos: 3, Stars: 5550, Followers: 250}
	bob := InfluenceParams{Commits: 3, Repos: 1}
	meta := func(p InfluenceParams, contributions int64, rank int) map[string]any {
		return map[string]any{"params": p, "weights": influenceWeights, "caps": influenceCaps,
			"contributions": contributions, "rank": rank, "developers": 2}
	}
	want := []Correlation{
		{AlgoInfluence, "alice", "Beta Labs", "contributes_to", 0.6062, meta(alice, 4, 1)},
		{AlgoInfluence, "alice", "acme", "contributes_to", 0.6062, meta(alice, 160, 1)},
		{AlgoInfluence, "bob", "solo/tool", "contributes_to", 0.0659, meta(bob, 3, 2)},
	}
	if !reflect.DeepEqual(r.Correlations, want) {
		t.Errorf("got\n%+v\nwant\n%+v", r.Correlations, want)
	}
	if len(r.Signals)+len(r.Trending) != 0 || r.Regime != nil {
		t.Errorf("%+v", r)
	}
}

func TestInfluenceScore(t *testing.T) {
	for _, c := range []struct {
		p    InfluenceParams
		want float64
	}{
		{InfluenceParams{}, 0},
		{influenceCaps, 1},
		{InfluenceParams{Commits: 5000, Reviews: 900, Issues: 501, Repos: 40, Stars: 1e7, Followers: 1e6}, 1}, // past every cap
		{InfluenceParams{Commits: 1000}, round4(1 / 6.5)},                                                     // one parameter at its cap
		{InfluenceParams{Stars: 100000}, round4(2 / 6.5)},
	} {
		if got := influence(c.p); got != c.want {
			t.Errorf("%+v: %v, want %v", c.p, got, c.want)
		}
	}
}

// Equal scores share a rank (competition ranking); names break the order.
func TestInfluenceRanksTies(t *testing.T) {
	var in Inputs
	for _, d := range []string{"zed", "amy", "kim"} {
		n := 10.0
		if d == "kim" {
			n = 20
		}
		in.Activities = append(in.Activities, Activity{Developer: d, Repo: "r", Metric: "commits", Count: n, At: ago(day)})
	}
	r := run(t, AlgoInfluence, in, asOf)
	rank := map[string]any{}
	for _, c := range r.Correlations {
		rank[c.EntityA] = c.Metadata["rank"]
	}
	if !reflect.DeepEqual(rank, map[string]any{"kim": 1, "amy": 2, "zed": 2}) {
		t.Errorf("%v", rank)
	}
}

func TestInfluenceIgnoresOutsideItsWindow(t *testing.T) {
	in := Inputs{Activities: []Activity{
		{Developer: "a", Repo: "r", Metric: "commits", Count: 5, At: ago(90*day + 1)},
		{Developer: "a", Repo: "r", Metric: "commits", Count: 5, At: dayEnd},
	}}
	wantNoInput(t, run(t, AlgoInfluence, in, asOf), AlgoInfluence)
	in.Activities = append(in.Activities, Activity{Developer: "a", Repo: "r", Metric: "commits", Count: 1, At: ago(90 * day)})
	r := run(t, AlgoInfluence, in, asOf)
	if r.Inputs != 1 || len(r.Correlations) != 1 || r.Correlations[0].Metadata["params"].(InfluenceParams).Commits != 1 {
		t.Errorf("%+v", r)
	}
}

func TestInfluenceIsDeterministic(t *testing.T) {
	sameWhenShuffled(t, AlgoInfluence, influenceFixture(), asOf)
	sameWhenShuffled(t, AlgoInfluence, bigActivities(20_000), asOf)
}

// bigActivities is n activity rows of the last 90 days: 20,000
// developers, 5,000 repositories in 500 organisations.
func bigActivities(n int) Inputs {
	in := Inputs{Activities: make([]Activity, n)}
	metrics := []string{"commits", "reviews", "issues", "stars", "followers"}
	for i := range n {
		repo := i * 7 % 5000
		in.Activities[i] = Activity{Developer: fmt.Sprint("dev", i%20000), Repo: fmt.Sprint("org", repo%500, "/repo", repo),
			Org: fmt.Sprint("org", repo%500), Metric: metrics[i%5], Count: float64(i % 37), At: ago(time.Duration(i%(90*24)) * time.Hour)}
	}
	return in
}

// go test -bench . -run ^$ ./domain/briefing/
func BenchmarkRunInfluence300k(b *testing.B) {
	in := bigActivities(300_000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(AlgoInfluence, in, asOf); err != nil {
			b.Fatal(err)
		}
	}
}
