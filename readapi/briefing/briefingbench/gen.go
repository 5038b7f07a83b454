package briefingbench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"github.com/strata-platform/strata/domain/briefing"
)

// Shape of the synthetic data.
const (
	companies       = 20_000
	developers      = 50_000
	repos           = 20_000
	orgs            = 2_000
	indicatorDays   = 730 // daily series: two years of business days
	indicatorMonths = 24  // monthly series
	minObservations = 5_000

	// Shares of the observations after the indicators.
	shareMention  = 0.40
	shareDocument = 0.20
	shareFiling   = 0.10 // the rest is developer activity

	mentionDays  = 30
	documentDays = 30
	filingDays   = 90
	activityDays = 90
)

var (
	adjectives = []string{"Acme", "Blue", "Cedar", "Delta", "Everest", "First", "Granite", "Harbor", "Iron", "Juniper",
		"Keystone", "Liberty", "Maple", "North", "Orion", "Pacific", "Quantum", "River", "Summit", "Titan",
		"United", "Vertex", "Western", "Apex", "Bright", "Coastal", "Digital", "Eagle", "Falcon", "Global",
		"Horizon", "Insight", "Lunar", "Meridian", "Nova", "Omni", "Pioneer", "Redwood", "Silver", "Terra"}
	nouns = []string{"Analytics", "Bio", "Capital", "Dynamics", "Energy", "Foods", "Genomics", "Health", "Instruments",
		"Logistics", "Materials", "Networks", "Optics", "Pharma", "Robotics", "Semiconductor", "Software", "Telecom",
		"Motors", "Water", "Aerospace", "Brands", "Cloud", "Data", "Electric", "Financial", "Gaming", "Homes",
		"Imaging", "Labs", "Media", "Nutrition", "Oil", "Payments", "Retail", "Security", "Therapeutics", "Utilities",
		"Vision", "Wireless", "Airlines", "Biotech", "Chemicals", "Devices", "Entertainment", "Fintech", "Grid", "Hotels",
		"Insurance", "Mining"}
	suffixes   = []string{"Inc", "Corp", "Holdings", "Group", "Co", "Ltd", "plc", "Partners", "Industries", "Technologies"}
	firstNames = []string{"alex", "sam", "kim", "lee", "jo", "max", "ana", "li", "wei", "raj", "noor", "eva", "tom", "ivy",
		"ben", "mia", "leo", "zoe", "kai", "ida"}

	mentionSources  = weighted{{"reuters", 10}, {"bloomberg", 8}, {"wsj", 6}, {"ft", 4}, {"associated_press", 4}, {"hackernews", 10}, {"reddit", 15}, {"twitter", 15}, {"techcrunch", 8}, {"prnewswire", 10}, {"seekingalpha", 10}}
	documentSources = weighted{{"reuters", 20}, {"bloomberg", 20}, {"ft", 10}, {"wsj", 10}, {"seekingalpha", 20}, {"research_notes", 20}}
	filingForms     = weighted{{"4", 35}, {"8-K", 15}, {"10-Q", 10}, {"424B2", 7}, {"SC 13G", 5}, {"13F-HR", 5}, {"10-K", 4}, {"6-K", 3},
		{"S-8", 3}, {"DEF 14A", 3}, {"D", 2}, {"SC 13D", 2}, {"425", 1.5}, {"8-K/A", 1}, {"S-1", 1}, {"S-4", 0.5}, {"SC TO-T", 0.3},
		{"SC 14D9", 0.3}, {"DEFM14A", 0.3}, {"10-K/A", 0.3}, {"SC 13D/A", 0.8}}
	metrics = weighted{{briefing.MetricCommits, 55}, {briefing.MetricReviews, 20}, {briefing.MetricIssues, 12}, {briefing.MetricStars, 8},
		{briefing.MetricFollowers, 5}}

	plainTitles = []string{"%s shares rise after earnings beat", "%s names new chief financial officer", "%s opens office in Austin",
		"Analysts upgrade %s to buy", "%s to present at investor conference", "%s expands partnership with retailers",
		"%s stock falls on weak guidance", "%s launches new product line", "%s hires 200 engineers", "%s reports record revenue",
		"%s cuts prices in Europe", "%s wins government contract", "Why %s is trending today", "%s CEO interview"}
	acquisitionTitles = []string{"%s explores a sale of the company", "%s in talks to acquire a rival", "%s is exploring strategic alternatives",
		"%s receives unsolicited proposal", "%s said to be an acquisition target", "%s weighs a sale after activist pressure",
		"Merger talks between %s and a peer stall", "%s agrees to acquire a smaller competitor", "%s rejects hostile bid",
		"%s seeks a buyer for its cloud unit"}
	environmentTitles = []string{"Wildfire forces %s to halt operations", "%s plant hit by flooding", "%s fined after chemical spill",
		"%s receives EPA notice of violation", "Hurricane disrupts %s supply chain", "Drought threatens %s water supply",
		"Extreme heat strains %s grid", "%s settles clean water act case with consent decree"}
	plainTexts = []string{"The company said demand remained strong in the quarter.", "Shares traded higher in early trading.",
		"Executives will discuss the results on a call with analysts.", "The move follows a year of steady growth.", ""}
	filingTitles = map[string][]string{
		"8-K": {"Entry into a Material Definitive Agreement (Item 1.01)", "Results of Operations and Financial Condition (Item 2.02)",
			"Departure of Directors or Certain Officers; Appointment of Certain Officers (Item 5.02)", "Regulation FD Disclosure (Item 7.01)",
			"Other Events (Item 8.01)", "Completion of Acquisition or Disposition of Assets (Item 2.01)"},
		"10-Q":    {"Quarterly report for the period ended June 30", "Quarterly report: results of operations"},
		"10-K":    {"Annual report", "Annual report: business, risk factors and results of operations"},
		"S-1":     {"Registration statement for an initial public offering"},
		"SC 13D":  {"Beneficial ownership report by an activist investor"},
		"425":     {"Communication regarding the proposed merger"},
		"S-4":     {"Registration of securities issued in a business combination"},
		"4":       {"Statement of changes in beneficial ownership"},
		"SC TO-T": {"Tender offer statement by a third party"},
		"DEFM14A": {"Definitive merger proxy statement"},
	}
	filingTexts = []string{"", "", "The company announced a restructuring and a workforce reduction.",
		"The company entered into a definitive agreement and plan of merger.", "The board approved a price increase effective next quarter.",
		"Risk factors include wildfires, flooding and hurricanes affecting our facilities.", "The company unveils a new product.",
		"Earnings and results of operations for the quarter are attached."}
)

// weighted picks a name by weight.
type weighted []struct {
	name   string
	weight float64
}

func (w weighted) pick(r *rand.Rand) string {
	total := 0.0
	for _, x := range w {
		total += x.weight
	}
	v := r.Float64() * total
	for _, x := range w {
		if v -= x.weight; v < 0 {
			return x.name
		}
	}
	return w[len(w)-1].name
}

// zipf draws ranks 0..n-1 with probability proportional to 1/(rank+1)^s.
type zipf struct{ cdf []float64 }

func newZipf(n int, s float64) zipf {
	z := zipf{cdf: make([]float64, n)}
	sum := 0.0
	for i := range n {
		sum += 1 / math.Pow(float64(i+1), s)
		z.cdf[i] = sum
	}
	for i := range z.cdf {
		z.cdf[i] /= sum
	}
	return z
}

func (z zipf) draw(r *rand.Rand) int {
	return min(len(z.cdf)-1, sort.SearchFloat64s(z.cdf, r.Float64()))
}

// company is the name of the company of a popularity rank: ranks are
// spread over the name space, so the popular ones do not share a prefix.
func company(rank int) string {
	i := (rank * 7919) % companies
	return adjectives[i%len(adjectives)] + " " + nouns[(i/len(adjectives))%len(nouns)] + " " +
		suffixes[(i/(len(adjectives)*len(nouns)))%len(suffixes)]
}

func developer(i int) string {
	return fmt.Sprintf("%s-%d", firstNames[i%len(firstNames)], i/len(firstNames))
}

func org(i int) string {
	return strings.ToLower(adjectives[i%len(adjectives)]) + "-" + strings.ToLower(nouns[(i/len(adjectives))%len(nouns)])
}

// repo is a repository's name and organisation; one in ten has none.
func repo(i int) (string, string) {
	if i%10 == 9 {
		return fmt.Sprintf("%s/tool-%d", developer(i*7%developers), i), ""
	}
	o := org((i * 31) % orgs)
	return fmt.Sprintf("%s/project-%d", o, i), o
}

// generator makes the synthetic observations, batch by batch: batch i is
// a function of the seed and i alone, so clients make theirs in parallel.
type generator struct {
	seed          uint64
	n, size       int
	end           time.Time // the end of the as-of day
	companyRank   zipf
	developerRank zipf
	repoRank      zipf
	indicators    []briefing.Observation
}

func newGenerator(seed uint64, n, size int, asOf time.Time) *generator {
	g := &generator{seed: seed, n: n, size: size, end: briefing.Day(asOf).Add(24 * time.Hour),
		companyRank: newZipf(companies, 1.05), developerRank: newZipf(developers, 1.1), repoRank: newZipf(repos, 1.2)}
	g.indicators = g.makeIndicators()
	return g
}

// batches is how many requests the observations take.
func (g *generator) batches() int { return (g.n + g.size - 1) / g.size }

// makeIndicators is two years of VIXCLS, SP500 and T10Y2Y on business
// days (random walks) and of UNRATE and FEDFUNDS by month.
func (g *generator) makeIndicators() []briefing.Observation {
	r := rand.New(rand.NewPCG(g.seed, 0xfeed))
	var out []briefing.Observation
	add := func(series string, at time.Time, v float64) {
		v = math.Round(v*100) / 100
		out = append(out, briefing.Observation{Kind: briefing.KindIndicator, Source: "fred",
			SourceID: series + ":" + at.Format(time.DateOnly), At: at, Series: series, Value: &v})
	}
	vix, sp, spread := 16.0, 4500.0, -0.4
	first := g.end.Add(-indicatorDays * 24 * time.Hour)
	for d := first; d.Before(g.end); d = d.Add(24 * time.Hour) {
		if d.Weekday() == time.Saturday || d.Weekday() == time.Sunday {
			continue
		}
		vix = min(45, max(10, vix+r.NormFloat64()*0.9+(17-vix)*0.05))
		sp *= 1 + r.NormFloat64()*0.009 + 0.0003
		spread = min(1.5, max(-1.2, spread+r.NormFloat64()*0.03+0.002))
		add(briefing.SeriesVIX, d, vix)
		add(briefing.SeriesSP500, d, sp)
		add(briefing.SeriesSpread10y2y, d, spread)
	}
	y, m, _ := g.end.Add(-24 * time.Hour).Date()
	unrate, funds := 3.6, 5.33
	for k := indicatorMonths; k >= 1; k-- {
		month := time.Date(y, m-time.Month(k), 1, 0, 0, 0, 0, time.UTC)
		unrate = min(6, max(3.4, unrate+r.NormFloat64()*0.08+0.02))
		if k < 12 && r.IntN(3) == 0 {
			funds -= 0.25
		}
		add(briefing.SeriesUnemployment, month, unrate)
		add(briefing.SeriesFedFunds, month, funds)
	}
	return out
}

// batch is the i-th batch of observations.
func (g *generator) batch(i int) []briefing.Observation {
	from := i * g.size
	count := min(g.size, g.n-from)
	out := make([]briefing.Observation, 0, count)
	if i == 0 {
		out = append(out, g.indicators[:min(len(g.indicators), count)]...)
	}
	r := rand.New(rand.NewPCG(g.seed, uint64(i)+1))
	var last briefing.Observation // the previous mention: an article naming several companies
	for j := len(out); j < count; j++ {
		id := from + j
		switch v := r.Float64(); {
		case v < shareMention:
			o := g.mention(r, id)
			if last.URL != "" && r.IntN(100) < 35 { // the same article names another company
				o.URL, o.At, o.Source = last.URL, last.At, last.Source
			}
			last = o
			out = append(out, o)
		case v < shareMention+shareDocument:
			out = append(out, g.document(r, id))
		case v < shareMention+shareDocument+shareFiling:
			out = append(out, g.filing(r, id))
		default:
			out = append(out, g.activity(r, id))
		}
	}
	return out
}

// ago is a time within the last days of the window, to the second.
func (g *generator) ago(r *rand.Rand, days int) time.Time {
	return g.end.Add(-time.Duration(1+r.Int64N(int64(days)*86400)) * time.Second)
}

// title is a headline about name: now and then one with a phrase of the
// acquisition or environmental lexicon; text likewise.
func title(r *rand.Rand, name string, acq, env int) (string, string) {
	t := plainTitles[r.IntN(len(plainTitles))]
	switch v := r.IntN(1000); {
	case v < acq:
		t = acquisitionTitles[r.IntN(len(acquisitionTitles))]
	case v < acq+env:
		t = environmentTitles[r.IntN(len(environmentTitles))]
	}
	text := plainTexts[r.IntN(len(plainTexts))]
	if r.IntN(1000) < acq/2 {
		text = "People familiar with the matter said the board is considering a sale. " + text
	}
	return fmt.Sprintf(t, name), text
}

func (g *generator) mention(r *rand.Rand, id int) briefing.Observation {
	name := company(g.companyRank.draw(r))
	src := mentionSources.pick(r)
	at := g.ago(r, mentionDays)
	t, text := title(r, name, 40, 30)
	return briefing.Observation{Kind: briefing.KindMention, Source: src, SourceID: fmt.Sprintf("m-%d", id), At: at,
		Company: name, Title: t, Text: text, URL: fmt.Sprintf("https://news.example.com/%s/%s/a%d", src, at.Format("2006/01/02"), id)}
}

func (g *generator) document(r *rand.Rand, id int) briefing.Observation {
	n := 2 + r.IntN(4)
	names := make([]string, 0, n)
	seen := map[string]bool{}
	for len(names) < n {
		if c := company(g.companyRank.draw(r)); !seen[c] {
			seen[c] = true
			names = append(names, c)
		}
	}
	t, text := title(r, names[0], 30, 40)
	src := documentSources.pick(r)
	return briefing.Observation{Kind: briefing.KindDocument, Source: src, SourceID: fmt.Sprintf("d-%d", id), At: g.ago(r, documentDays),
		Companies: names, Title: t + " (sector report)", Text: text + " Also named: " + strings.Join(names[1:], ", ") + ".",
		URL: fmt.Sprintf("https://research.example.com/%s/r%d", src, id)}
}

func (g *generator) filing(r *rand.Rand, id int) briefing.Observation {
	rank := r.IntN(companies) // filers are spread more evenly than news
	if r.IntN(2) == 0 {
		rank = g.companyRank.draw(r)
	}
	form := filingForms.pick(r)
	base := strings.TrimSuffix(form, "/A")
	t := "Filing " + form
	if ts := filingTitles[base]; len(ts) > 0 {
		t = ts[r.IntN(len(ts))]
	}
	// Filed in business hours (UTC), any day of the window.
	day := g.end.Add(-time.Duration(1+r.IntN(filingDays)) * 24 * time.Hour)
	at := day.Add(time.Duration(12*3600+r.IntN(10*3600)) * time.Second)
	cik := 1_000_000 + (rank*7919)%companies
	acc := fmt.Sprintf("%010d-%02d-%06d", cik, at.Year()%100, id%1_000_000)
	return briefing.Observation{Kind: briefing.KindFiling, Source: "sec_edgar", SourceID: acc, At: at, Company: company(rank),
		Form: form, Title: t, Text: filingTexts[r.IntN(len(filingTexts))],
		URL: fmt.Sprintf("https://www.sec.gov/Archives/edgar/data/%d/%s.txt", cik, acc)}
}

func (g *generator) activity(r *rand.Rand, id int) briefing.Observation {
	d := g.developerRank.draw(r)
	ri := (d*13 + r.IntN(3)*101) % repos // one of the developer's own repositories
	if r.IntN(10) < 3 {
		ri = g.repoRank.draw(r) // or a popular one
	}
	name, o := repo(ri)
	m := metrics.pick(r)
	count := float64(1 + r.IntN(12))
	switch m {
	case briefing.MetricStars:
		count = float64(100_000/(ri+1) + r.IntN(50))
	case briefing.MetricFollowers:
		count = float64(1 + 20_000/(d+1) + r.IntN(20))
	}
	// Never 0: a count of 0 is valid, but the event leaves it out
	// (omitempty), the read model then holds NULL, and the loader of
	// commands/briefing scans count into a float64 and fails the run.
	return briefing.Observation{Kind: briefing.KindActivity, Source: "github", SourceID: fmt.Sprintf("a-%d", id),
		At: briefing.Day(g.ago(r, activityDays)), Developer: developer(d), Repo: name, Org: o, Metric: m, Count: count}
}

// ndjson encodes a batch, one observation a line.
func ndjson(obs []briefing.Observation) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for i := range obs {
		if err := enc.Encode(&obs[i]); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}
