package briefing

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"time"
)

// InfluenceParams holds one number per parameter of the developer
// influence score: a developer's values, or the weights, or the caps.
type InfluenceParams struct {
	Commits   float64 `json:"commits"`
	Reviews   float64 `json:"reviews"`
	Issues    float64 `json:"issues"`
	Repos     float64 `json:"repos"`
	Stars     float64 `json:"stars"`
	Followers float64 `json:"followers"`
}

var (
	influenceWeights = InfluenceParams{Commits: 1, Reviews: 1, Issues: 0.5, Repos: 1, Stars: 2, Followers: 1}
	influenceCaps    = InfluenceParams{Commits: 1000, Reviews: 500, Issues: 500, Repos: 20, Stars: 100000, Followers: 10000}
)

func (p InfluenceParams) list() [6]float64 {
	return [6]float64{p.Commits, p.Reviews, p.Issues, p.Repos, p.Stars, p.Followers}
}

// influence is the score of the parameters s.
func influence(s InfluenceParams) float64 {
	v, w, t := s.list(), influenceWeights.list(), influenceCaps.list()
	var sum, wsum float64
	for i := range v {
		sum += w[i] * math.Log1p(v[i]) / math.Log1p(max(v[i], t[i]))
		wsum += w[i]
	}
	return round4(sum / wsum)
}

// metricOf is the metric an activity row names, in lower case, "" for
// one the score does not use.
func metricOf(m string) string {
	m = strings.TrimSpace(m)
	for _, k := range []string{"commits", "reviews", "issues", "stars", "followers"} {
		if strings.EqualFold(m, k) {
			return k
		}
	}
	return ""
}

func wholeCount(c float64) int64 {
	if !(c > 0) || math.IsInf(c, 1) {
		return 0
	}
	return int64(math.Round(min(c, 1<<52)))
}

type devTally struct {
	commits, reviews, issues int64
	followers                latestCount
}

type repoTally struct {
	stars latestCount
	org   int32 // -1 for none
}

type latestCount struct {
	at time.Time
	n  int64
	ok bool
}

func (l *latestCount) see(at time.Time, n int64) {
	if !l.ok || at.After(l.at) || at.Equal(l.at) && n > l.n {
		*l = latestCount{at, n, true}
	}
}

// developerInfluence is developer_influence: how much weight a developer
// carries, in the manner of the OpenSSF criticality score (RULES.md).
// Reads developer activity of the last 90 days.
//
// Per developer: commits, reviews and issues are the sums of those
// metrics; repos counts the distinct repositories with a commit, review or
// issue (a contribution); stars sums, over those repositories, each one's
// latest "stars" count (a repository-level metric, whoever reported it);
// followers is the developer's latest "followers" count. Counts are whole
// numbers: a fraction is rounded, a negative count or a non-number is 0.
// Latest means the latest row; two rows at one time: the larger count.
// A contribution row needs a developer and a repository, a stars row a
// repository, a followers row a developer; other rows and other metrics
// are not read.
//
// The score is Σ w_i·log(1+S_i)/log(1+max(S_i,T_i)) / Σ w_i with the
// weights w (influenceWeights) and caps T (influenceCaps): each parameter
// counts from 0 (none) to 1 (at or past its cap), logarithmically, so the
// score is in [0, 1], rounded to 4 decimals.
//
// Output: one correlation, type contributes_to, for each developer with a
// contribution and each organisation they contributed to (a repository's
// organisation is the lexically smallest org given on its rows; a
// repository without one stands for itself), scored by the developer's
// score; all developers are kept.
func developerInfluence(in Inputs, f frame) Result {
	devs, repos, orgs := newNames(), newNames(), newNames()
	var ds []devTally
	var rs []repoTally
	devAt := func(id int32) *devTally {
		for int(id) >= len(ds) {
			ds = append(ds, devTally{})
		}
		return &ds[id]
	}
	repoAt := func(id int32) *repoTally {
		for int(id) >= len(rs) {
			rs = append(rs, repoTally{org: -1})
		}
		return &rs[id]
	}
	contrib := map[uint64]int64{} // developer<<32 | repository → contributions
	n := 0
	for i := range in.Activities {
		a := &in.Activities[i]
		if !f.act.has(a.At) {
			continue
		}
		metric := metricOf(a.Metric)
		c := wholeCount(a.Count)
		switch metric {
		case "commits", "reviews", "issues":
			if blank(a.Developer) || blank(a.Repo) {
				continue
			}
			d, r := devs.add(a.Developer), repos.add(a.Repo)
			x := devAt(d)
			switch metric {
			case "commits":
				x.commits += c
			case "reviews":
				x.reviews += c
			default:
				x.issues += c
			}
			contrib[uint64(d)<<32|uint64(r)] += c
			repoOrg(repoAt(r), orgs, a.Org)
		case "stars":
			if blank(a.Repo) {
				continue
			}
			x := repoAt(repos.add(a.Repo))
			x.stars.see(a.At, c)
			repoOrg(x, orgs, a.Org)
		case "followers":
			if blank(a.Developer) {
				continue
			}
			devAt(devs.add(a.Developer)).followers.see(a.At, c)
		default:
			continue
		}
		n++
	}
	if n == 0 {
		return Result{}
	}

	// per developer, the repositories and organisations contributed to
	type link struct {
		dev, repo int32
		n         int64
	}
	links := make([]link, 0, len(contrib))
	for k, c := range contrib {
		if c > 0 {
			links = append(links, link{int32(k >> 32), int32(uint32(k)), c})
		}
	}
	slices.SortFunc(links, func(a, b link) int { return cmp.Or(cmp.Compare(a.dev, b.dev), cmp.Compare(a.repo, b.repo)) })

	type ranked struct {
		dev    int32
		name   string
		params InfluenceParams
		score  float64
		to     map[string]int64 // organisation (or repository) shown → contributions
	}
	var rk []ranked
	for i := 0; i < len(links); {
		d := links[i].dev
		x := &ds[d]
		p := InfluenceParams{Commits: float64(x.commits), Reviews: float64(x.reviews), Issues: float64(x.issues), Followers: float64(x.followers.n)}
		to := map[string]int64{}
		for ; i < len(links) && links[i].dev == d; i++ {
			r := links[i].repo
			p.Repos++
			p.Stars += float64(rs[r].stars.n)
			name := repos.display(r)
			if o := rs[r].org; o >= 0 {
				name = orgs.display(o)
			}
			to[name] += links[i].n
		}
		rk = append(rk, ranked{dev: d, name: devs.display(d), params: p, score: influence(p), to: to})
	}
	slices.SortFunc(rk, func(a, b ranked) int { return cmp.Or(-cmpFloat(a.score, b.score), strings.Compare(a.name, b.name)) })

	var weights, caps any = influenceWeights, influenceCaps
	r := Result{Inputs: n}
	rank := 0
	for i, x := range rk {
		if i == 0 || x.score != rk[i-1].score {
			rank = i + 1 // competition ranking: equal scores share a rank
		}
		var params any = x.params
		for org, c := range x.to {
			r.Correlations = append(r.Correlations, Correlation{
				Algo: AlgoInfluence, EntityA: x.name, EntityB: org, Type: "contributes_to", Score: x.score,
				Metadata: map[string]any{"params": params, "weights": weights, "caps": caps,
					"contributions": c, "rank": rank, "developers": len(rk)},
			})
		}
	}
	return r
}

// repoOrg keeps the lexically smallest organisation given for a
// repository.
func repoOrg(r *repoTally, orgs *names, org string) {
	if blank(org) {
		return
	}
	o := orgs.add(org)
	if r.org < 0 || orgs.key(o) < orgs.key(r.org) {
		r.org = o
	}
}
