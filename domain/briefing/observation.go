package briefing

import "time"

// Observation kinds: what the ingestion route and `strata briefing import`
// accept.
const (
	KindIndicator = "indicator"          // a market indicator's value on a date (a FRED series)
	KindMention   = "mention"            // a company mentioned by a source at a time
	KindFiling    = "filing"             // a company's regulatory filing
	KindDocument  = "document"           // a document (article, report) naming companies
	KindActivity  = "developer_activity" // a developer's activity on a repository
)

// Kinds lists the observation kinds.
func Kinds() []string {
	return []string{KindIndicator, KindMention, KindFiling, KindDocument, KindActivity}
}

// Indicator series the market-sentiment algorithm reads, by their FRED ids.
const (
	SeriesVIX          = "VIXCLS"   // CBOE volatility index, daily close
	SeriesSP500        = "SP500"    // S&P 500 index, daily close
	SeriesFedFunds     = "FEDFUNDS" // effective federal funds rate, monthly, percent
	SeriesSpread10y2y  = "T10Y2Y"   // 10-year minus 2-year Treasury yield, daily, percent points
	SeriesTreasury10y  = "DGS10"    // 10-year Treasury yield, daily, percent
	SeriesTreasury2y   = "DGS2"     // 2-year Treasury yield, daily, percent
	SeriesUnemployment = "UNRATE"   // civilian unemployment rate, monthly, percent
)

// Observation is one ingested fact. Kind decides which fields are used;
// (Kind, Source, SourceID) identifies it: a resubmission with the same
// identity is the same observation, counted once.
type Observation struct {
	Kind     string    `json:"kind"`
	Source   string    `json:"source"`    // who published it: fred, sec_edgar, a news feed, github
	SourceID string    `json:"source_id"` // the source's own id for it
	At       time.Time `json:"at"`        // when it happened (an indicator's date at 00:00 UTC)

	// indicator
	Series string   `json:"series,omitempty"`
	Value  *float64 `json:"value,omitempty"`

	// mention, filing, document: the company (mention, filing) or the
	// companies a document names.
	Company   string   `json:"company,omitempty"`
	Companies []string `json:"companies,omitempty"`
	Title     string   `json:"title,omitempty"`
	Text      string   `json:"text,omitempty"`
	URL       string   `json:"url,omitempty"`
	Form      string   `json:"form,omitempty"` // filing form type: 8-K, S-1, SC 13D, 425...

	// developer_activity
	Developer string  `json:"developer,omitempty"`
	Repo      string  `json:"repo,omitempty"`
	Org       string  `json:"org,omitempty"`    // the company or organisation the repo belongs to
	Metric    string  `json:"metric,omitempty"` // commits, reviews, issues, stars, followers
	Count     float64 `json:"count,omitempty"`
}

// Indicator is one value of a series on a date.
type Indicator struct {
	Series string    `json:"series"`
	Date   time.Time `json:"date"`
	Value  float64   `json:"value"`
}

// Mention is a company mentioned by a source at a time.
type Mention struct {
	ID      string    `json:"id"` // the observation's source id
	Company string    `json:"company"`
	Source  string    `json:"source"`
	Title   string    `json:"title,omitempty"`
	Text    string    `json:"text,omitempty"`
	URL     string    `json:"url,omitempty"`
	At      time.Time `json:"at"`
}

// Filing is a company's regulatory filing.
type Filing struct {
	ID      string    `json:"id"` // the source's id (an accession number)
	Company string    `json:"company"`
	Form    string    `json:"form"`
	Title   string    `json:"title,omitempty"`
	Text    string    `json:"text,omitempty"`
	Source  string    `json:"source"`
	URL     string    `json:"url,omitempty"`
	FiledAt time.Time `json:"filed_at"`
}

// Document is an article or report that names companies.
type Document struct {
	ID        string    `json:"id"`
	Title     string    `json:"title,omitempty"`
	Text      string    `json:"text,omitempty"`
	Source    string    `json:"source"`
	URL       string    `json:"url,omitempty"`
	Companies []string  `json:"companies"`
	At        time.Time `json:"at"`
}

// Activity is a developer's activity on a repository: Count of Metric
// on the day of At.
type Activity struct {
	Developer string    `json:"developer"`
	Repo      string    `json:"repo"`
	Org       string    `json:"org,omitempty"`
	Metric    string    `json:"metric"`
	Count     float64   `json:"count"`
	At        time.Time `json:"at"`
}

// Inputs is what the algorithms read for one as-of day: each slice holds
// the observations of its kind inside that algorithm's window (see each
// algorithm's Window), in no particular order; an algorithm sorts what it
// needs, so its output does not depend on the order rows arrive in.
type Inputs struct {
	Indicators []Indicator
	Mentions   []Mention
	Filings    []Filing
	Documents  []Document
	Activities []Activity
}
