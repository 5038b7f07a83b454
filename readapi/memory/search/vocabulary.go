package search

import "strings"

// Vocabulary is founders' vocabulary as kind relations, beside WordNet's
// nouns: a question asking about "hiring", "fundraising", "revenue",
// "churn" or "infrastructure" finds the memories that name a member ("our
// new engineer starts on Monday", "closed the seed round", "MRR crossed
// 40k", "three customers cancelled", "added a read replica"). WordNet
// knows none of these as kinds: "hiring" is no noun there, and its "churn"
// is a butter churn.
//
// A kind has the words a question asks for it with (names) and the words
// and two-word compounds ("new_engineer", "term_sheet") memories name its
// members with (members); a compound may have one word between its two
// ("new backend engineer" is a new_engineer). Unlike WordNet's, a member may be written with a
// capital ("MRR", "AWS", "Series A"): the list holds no personal names. A
// member adds the kind term to a memory's index like a WordNet hypernym;
// a name gives a query word that kind term as its alternative.
type Vocabulary struct {
	members map[string][]string // member word or compound → kinds
	names   map[string]string   // question word → kind
}

// VocabularyEntry is one kind: space-separated names and members.
type VocabularyEntry struct{ Kind, Names, Members string }

// roles are the heads of "new engineer", "new designers" and so on.
const roles = `engineer developer designer marketer salesperson rep pm manager analyst intern cto cfo coo
vp head teammate employee hire scientist researcher recruiter accountant marketer writer
sdr ae founder cofounder`

// BuiltinVocabularyEntries is the documented founders' vocabulary.
func BuiltinVocabularyEntries() []VocabularyEntry {
	newRoles := []string{}
	for _, r := range strings.Fields(roles) {
		newRoles = append(newRoles, "new_"+r, "new_"+r+"s")
	}
	return []VocabularyEntry{
		{"hiring", "hiring hire hires recruiting recruitment recruit headcount",
			`hire hired hires recruit recruits recruited recruiting recruiter recruiters recruitment candidate
candidates interview interviews interviewed interviewing applicant applicants headcount onboarding
onboarded offer_letter job_offer job_opening job_openings job_posting req reqs start_date first_day ` + strings.Join(newRoles, " ")},
		{"fundraising", "fundraising fundraise funding investors investment",
			`fundraise fundraising raise raised raising investor investors vc vcs angel angels term_sheet
seed_round series_a series_b series_c funding_round pre-seed preseed pitch pitched pitching
valuation safes dilution due_diligence cap_table lead_investor bridge_round convertible_note
demo_day investor_update`},
		{"revenue", "revenue revenues income sales earnings",
			`revenue revenues arr mrr sales bookings booking billing billed invoice invoices invoiced income
upsell upsells upsold expansion renewal renewals acv gmv paying_customers price_increase
annual_plans annual_plan`},
		{"churn", "churn churned attrition cancellations retention",
			`churn churned churning cancellation cancellations customers_cancelled customer_cancelled
customers_canceled customer_canceled cancelled_subscription cancelled_subscriptions downgrade downgraded downgrades attrition
unsubscribe unsubscribed lost_customer lost_customers`},
		{"infrastructure", "infrastructure infra devops hosting",
			`server servers database databases db cluster clusters kubernetes k8s aws gcp azure hosting deploy deploys deployed deployment deployments replica replicas read_replica outage outages uptime
latency cdn dns load_balancer terraform docker container containers ci ci_pipeline infra devops
on-call incident incidents postgres postgresql redis kafka backups failover autoscaling`},
		{"pet", "pet pets",
			`dog dogs puppy puppies pup cat cats kitten kittens corgi labrador retriever poodle beagle terrier
dachshund husky spaniel collie bulldog pug chihuahua greyhound parrot budgie rabbit bunny hamster
goldfish tortoise turtle ferret gecko guinea_pig`},
		{"marketing", "marketing",
			`campaign campaigns seo ads newsletter newsletters webinar webinars branding brand influencer
influencers blog_post landing_page press_release product_hunt social_media`},
		{"finances", "runway burn finances spending expenses",
			`runway burn burn_rate payroll expenses expense spend spending budget cash bookkeeping accounting
taxes bank_balance`},
		{"legal", "legal",
			`lawyer lawyers attorney attorneys counsel nda ndas incorporation incorporated trademark patent
patents compliance gdpr lawsuit terms_of_service privacy_policy`},
	}
}

// builtinVocabulary is NewVocabulary(BuiltinVocabularyEntries()).
var builtinVocabulary = NewVocabulary(BuiltinVocabularyEntries())

// NewVocabulary indexes entries.
func NewVocabulary(entries []VocabularyEntry) *Vocabulary {
	v := &Vocabulary{members: map[string][]string{}, names: map[string]string{}}
	for _, e := range entries {
		for _, n := range strings.Fields(e.Names) {
			v.names[n] = e.Kind
		}
		for _, m := range strings.Fields(e.Members) {
			v.members[m] = append(v.members[m], e.Kind)
		}
	}
	return v
}

// kindLexicon is the vocabulary with an optional lexicon (WordNet) under it.
type kindLexicon struct {
	voc  *Vocabulary
	base Lexicon
}

// Kinds is base's lemma and kinds with the vocabulary's: a question word
// the vocabulary names takes its kind as lemma, a member adds its kinds
// (never the lemma itself).
func (k kindLexicon) Kinds(word string) (string, []string) {
	var lemma string
	var kinds []string
	if k.base != nil {
		lemma, kinds = k.base.Kinds(word)
	}
	if lemma == "" {
		lemma = k.voc.names[word] // "hiring" is no noun WordNet knows
	}
	extra := k.voc.members[word]
	if len(extra) == 0 {
		return lemma, kinds
	}
	out := make([]string, 0, len(kinds)+len(extra))
	for _, x := range kinds {
		if x != lemma {
			out = append(out, x)
		}
	}
	for _, x := range extra {
		if x != lemma && !contains(out, x) {
			out = append(out, x)
		}
	}
	return lemma, out
}

// nameKinds are the vocabulary's kinds of a capitalised word or compound
// ("MRR", "Series A"), which WordNet would take for a name.
func (k kindLexicon) nameKinds(word string) []string { return k.voc.members[word] }

// queryName is the kind a question word asks for, whatever its case.
func (k kindLexicon) queryName(word string) string { return k.voc.names[word] }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
