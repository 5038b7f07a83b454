package corpus

import "strings"

// template is one filler-memory shape. Its four texts share slots:
//
//	text  - the memory as first stated
//	dup   - a restructured paraphrase (synonyms, different order) used for
//	        duplicate memories
//	exact - a query reusing the memory's key words
//	para  - a query with different content words; besides entity names it
//	        may share only the cue slot's value with text and dup
//
// Slots are {Name}; {E} is the subject entity's name, {F} its short name,
// {P} another person entity, {Contact} a person who is no entity, {O} an
// organisation, {Org} an organisation entity, {C} a concept, {CE} a concept
// entity, {Writer} a surname, DB/Lang/Framework/Infra/Tool technologies,
// Date/Month/Quarter derived from the memory's time, N/Pct/Days/Version/
// Ticket numbers, anything else a vocabulary; a trailing digit asks for a
// second, different value of the same vocabulary.
type template struct {
	kind  string   // entity kind, or "" for memories about no entity
	topic string   // primary topic
	group string   // key group ("" = topic); (entity, group, cue value) identifies a target
	mtype string   // memory type
	imp   float64  // base importance
	cue   string   // distinctive slot named by queries ("" = none)
	also  []string // further topics the memory answers (entity queries)
	cats  string   // tech templates: allowed technology categories ("" = any)
	text  string
	dup   string
	exact string
	para  string

	slots []string // slot names used by any of the texts (computed)
}

// allTemplates returns every filler template with slots computed.
func allTemplates() []template {
	var ts []template
	ts = append(ts, personTemplatesA()...)
	ts = append(ts, personTemplatesB()...)
	ts = append(ts, orgTemplates()...)
	ts = append(ts, techTemplates()...)
	ts = append(ts, conceptTemplates()...)
	ts = append(ts, noEntityTemplates()...)
	for i := range ts {
		ts[i].slots = slotNames(ts[i].text, ts[i].dup, ts[i].exact, ts[i].para)
	}
	return ts
}

// slotNames lists the distinct {Name} slots of texts in first-seen order.
func slotNames(texts ...string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range texts {
		for {
			i := strings.IndexByte(t, '{')
			if i < 0 {
				break
			}
			j := strings.IndexByte(t[i:], '}')
			if j < 0 {
				break
			}
			name := t[i+1 : i+j]
			if !seen[name] {
				seen[name] = true
				out = append(out, name)
			}
			t = t[i+j+1:]
		}
	}
	return out
}

// fill substitutes slot values into s (names and vals are parallel) and
// fixes the indefinite articles in front of substituted words.
func fill(s string, names, vals []string) string {
	var b strings.Builder
	b.Grow(len(s) + 32)
	for {
		i := strings.IndexByte(s, '{')
		j := -1
		if i >= 0 {
			j = strings.IndexByte(s[i:], '}')
		}
		if j < 0 {
			b.WriteString(s)
			return fixArticles(b.String())
		}
		b.WriteString(s[:i])
		name := s[i+1 : i+j]
		for k, n := range names {
			if n == name {
				b.WriteString(vals[k])
				break
			}
		}
		s = s[i+j+1:]
	}
}

// fixArticles turns "a" into "an" before a vowel sound and "an" into "a"
// before a capitalised consonant (a substituted name).
func fixArticles(s string) string {
	if !strings.Contains(s, "a ") && !strings.Contains(s, "A ") {
		return s
	}
	words := strings.Split(s, " ")
	for i := 0; i+1 < len(words); i++ {
		w, next := words[i], words[i+1]
		if next == "" {
			continue
		}
		switch vowel := vowelSound(next); {
		case (w == "a" || w == "A") && vowel:
			words[i] = w + "n"
		case (w == "an" || w == "An") && !vowel && next[0] >= 'A' && next[0] <= 'Z':
			words[i] = w[:1]
		}
	}
	return strings.Join(words, " ")
}

// vowelSound guesses whether w is pronounced with a leading vowel.
func vowelSound(w string) bool {
	l := strings.ToLower(w)
	for _, p := range []string{"one", "once", "uni", "use", "usu", "eu", "ux"} {
		if strings.HasPrefix(l, p) {
			return false
		}
	}
	if strings.HasPrefix(l, "hour") || strings.HasPrefix(l, "honest") {
		return true
	}
	return strings.IndexByte("aeiou", l[0]) >= 0
}

// slotBase strips a trailing digit: "City2" -> "City".
func slotBase(name string) string {
	return strings.TrimRight(name, "0123456789")
}

// topicQueries are entity-query phrasings per topic; topics missing here get
// no entity queries (their answers would be ambiguous).
func topicQueries() map[string][]string {
	return map[string][]string{
		"food":        {"What should I know about {E}'s food preferences and restrictions?", "Which foods does {E} love or refuse to eat?"},
		"health":      {"What health issues, allergies or injuries does {E} have?", "Any medical concerns I should keep in mind for {E}?"},
		"hobby":       {"What hobbies and sports is {E} into?", "Which hobbies or sports does {E} practise?"},
		"travel":      {"What vacation trips has {E} taken or planned?", "What holidays has {E} been on or planned?"},
		"pets":        {"What pets does {E} have?", "Tell me about {E}'s animals."},
		"family":      {"What is going on with {E}'s relatives?", "Any family events coming up for {E}?"},
		"reading":     {"What books has {E} been reading or lending?", "Which authors is {E} into?"},
		"projects":    {"Which work projects is {E} in charge of?", "What projects does {E} lead or own?"},
		"databases":   {"What database migrations has {E}'s team done?", "Which databases did {E}'s team move services between?"},
		"opinions":    {"What opinions has {E} voiced about databases?", "How does {E} feel about database choices?"},
		"tools":       {"What tools has {E} switched to recently?", "Which software has {E} adopted for daily work?"},
		"learning":    {"What is {E} studying or getting certified in?", "What new skills is {E} learning?"},
		"meetings":    {"When are my recurring one-on-ones with {E}?", "What regular meetings do I have with {E}?"},
		"proposals":   {"What has {E} proposed in meetings?", "Which plans has {E} pitched recently?"},
		"talks":       {"What conference talks is {E} giving?", "Where is {E} speaking?"},
		"mentoring":   {"Who is {E} mentoring?", "Which colleagues does {E} coach?"},
		"incidents":   {"Which production incidents has {E} dealt with?", "What outages was {E} involved in?"},
		"hiring":      {"What roles is {E} hiring for?", "Which openings is {E} interviewing candidates for?"},
		"equipment":   {"What gear has {E} bought for the home office?", "What is in {E}'s home office setup?"},
		"volunteer":   {"Where does {E} volunteer?", "What charity work does {E} do?"},
		"gifts":       {"What gift ideas do I have for {E}?", "What could I give {E} as a present?"},
		"restaurants": {"Which restaurants has {E} recommended?", "Where does {E} suggest eating?"},
		"sideproject": {"What side projects is {E} working on?", "What is {E} building outside work?"},
		"blockers":    {"What is {E} blocked on?", "What is holding {E} up right now?"},
		"contracts":   {"What do we know about our contract renewals with {E}?", "When do our agreements with {E} renew?"},
		"launches":    {"What products is {E} launching?", "What has {E} released recently?"},
		"offices":     {"Where has {E} opened offices?", "Which locations does {E} have?"},
		"partners":    {"Who has {E} partnered with?", "Which partnerships has {E} signed?"},
		"contacts":    {"Who are our contacts at {E}?", "Whom do we talk to at {E}?"},
		"compliance":  {"What compliance reports has {E} shared?", "What did legal find in {E}'s audits?"},
		"outages":     {"What outages has {E} had that affected us?", "When did {E}'s API go down?"},
		"funding":     {"What funding rounds has {E} raised?", "Who invested in {E}?"},
		"pricing":     {"How have {E}'s prices changed?", "What price increases has {E} announced?"},
		"events":      {"What events is {E} hosting?", "Which customer summits does {E} run?"},
		"support":     {"Which support tickets do we have open with {E}?", "What issues have we raised with {E} support?"},
		"staffing":    {"Has {E} frozen hiring anywhere?", "In which departments has {E} stopped hiring?"},
		"upgrades":    {"What {E} upgrades are scheduled?", "When are the scheduled {E} upgrades?"},
		"issues":      {"What known problems does {E} have under load?", "Which {E} bugs should I watch out for?"},
		"config":      {"What {E} settings do we use in production?", "How is {E} configured?"},
		"adoption":    {"Where did we decide to adopt {E}?", "Which services did we choose {E} for?"},
		"benchmarks":  {"How did {E} perform in load tests?", "What benchmark numbers do we have for {E}?"},
		"experts":     {"Who is the go-to person for {E}?", "Which colleagues are {E} specialists?"},
		"costs":       {"Why have our {E} costs changed?", "What is going on with our {E} spending?"},
		"deprecation": {"Which {E} APIs are being deprecated?", "What is {E} removing in the next release?"},
		"licensing":   {"Are there licensing concerns with {E}?", "What did legal say about {E} licensing?"},
		"training":    {"What {E} training sessions are planned?", "Which teams get {E} workshops?"},
		"vulns":       {"Where are we running outdated {E} dependencies?", "What security findings involve {E}?"},
		"debate":      {"Who has opinions about {E}?", "What do people here think of {E}?"},
		"essays":      {"What should I read to learn {E}?", "Which essays explain {E}?"},
		"pilots":      {"Which teams are piloting {E}?", "Who is trialling {E}?"},
		"workshops":   {"Where are there {E} workshops?", "What external {E} courses are available?"},
		"decisions":   {"Where will we apply {E} first?", "What does the decision log say about {E}?"},
		"metrics":     {"What results has {E} produced?", "How have our metrics changed since adopting {E}?"},
	}
}
