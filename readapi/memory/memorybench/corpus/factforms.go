package corpus

// factForms are the phrasings of one fact-chain predicate. Slots: {S} the
// subject's name, {F} its short name, {V} the value, {W} a period in words.
//
// Every memory form (texts[i], restated as dups[i]) names the predicate in
// the same words whatever the value's position in the chain, so keyword
// overlap cannot tell the current value from a superseded one.
type factForms struct {
	pred   string
	texts  []string // memory statements
	dups   []string // paraphrased duplicates, parallel to texts
	exact  []string // present-tense questions reusing the predicate words
	para   []string // present-tense questions in other words
	past   []string // questions about a period ({W})
	entity []string // history questions (entity queries)
}

// allFactForms returns the forms of every predicate, in a fixed order.
func allFactForms() []factForms {
	return []factForms{
		{pred: PredWorksAt,
			texts: []string{
				"{S} works at {V}, which is worth remembering when we plan introductions or partner meetings with them.",
				"Update from today's call: {S} now works at {V} and is happy to help with anything related to their platform.",
				"{S} mentioned over coffee that {F} works at {V} these days and likes the team a lot.",
				"Noting for later that {S} currently works at {V}; send future invitations to the work email there.",
			},
			dups: []string{
				"Keep in mind that {S} is employed by {V} whenever we set up intros or partner calls with that company.",
				"On today's call {S} shared being employed by {V} at this point, and offered a hand with questions about its platform.",
				"Over coffee, {S} told me about being on staff at {V} now and really enjoying the colleagues there.",
				"For future reference: {S} is employed by {V} right now, so invites should go to that company address.",
			},
			exact:  []string{"Where does {S} work?", "Which company does {S} work at?"},
			para:   []string{"Who is {S}'s employer?", "Which organization is {S} with?"},
			past:   []string{"Where did {S} work {W}?", "Which company was {S} at {W}?"},
			entity: []string{"Where has {S} worked over the years?", "What companies has {S} been at?"},
		},
		{pred: PredLivesIn,
			texts: []string{
				"{S} lives in {V} and is usually free for calls after 3 pm local time.",
				"{S} now lives in {V}, so any in-person meetups need to be planned around that.",
				"{S} said that {F} lives in {V} at the moment and loves the neighbourhood cafes there.",
				"For scheduling purposes, {S} lives in {V} these days, so double-check the time zone before booking.",
			},
			dups: []string{
				"{S} resides in {V}; calls work best for {F} after 3 pm in the local time zone.",
				"Since {S} is based in {V} at present, in-person get-togethers have to fit around that location.",
				"According to {S}, {V} is where {F} resides right now, with a real fondness for the local coffee shops.",
				"Scheduling note: {S} resides in {V} currently; confirm the time zone prior to booking anything.",
			},
			exact:  []string{"Where does {S} live?", "Which city does {S} live in?"},
			para:   []string{"What is {S}'s home city?", "Which town is home for {S}?"},
			past:   []string{"Where was {S} living {W}?", "Which city was {S} based in {W}?"},
			entity: []string{"Which cities has {S} lived in?", "Where has {S} lived over time?"},
		},
		{pred: PredRole,
			texts: []string{
				"{S}'s role is {V}; route questions in that area to {F} first.",
				"{S} now has the role of {V} and is ramping up on the team's backlog this month.",
				"Heads-up that {S}'s current role is {V}, which changes who reviews the quarterly roadmap.",
				"{S} explained that {F}'s role on the team is {V} at the moment.",
			},
			dups: []string{
				"{F} should be the first stop for questions in that area, since {S} serves as {V}.",
				"Having taken on the {V} position, {S} is getting up to speed on the team's backlog this month.",
				"Note: {S} is currently serving as {V}, and that affects who signs off on the quarterly roadmap.",
				"According to {S}, {F} functions as the team's {V} right now.",
			},
			exact:  []string{"What is {S}'s role?", "What role does {S} have on the team?"},
			para:   []string{"What does {S} do for a living?", "What line of work is {S} in?"},
			past:   []string{"What was {S}'s role {W}?", "What job did {S} do {W}?"},
			entity: []string{"What roles has {S} had?", "How has {S}'s job function changed?"},
		},
		{pred: PredTitle,
			texts: []string{
				"{S}'s title is {V} according to the latest org chart we received.",
				"{S} got the title {V} this cycle; congratulate {F} at the next sync.",
				"Per the email signature, {S}'s job title is now {V}.",
				"{S} confirmed that {F}'s official title is {V}; use it on the conference badge.",
			},
			dups: []string{
				"The most recent org chart lists {S} with the designation {V}.",
				"This cycle {S} was named {V}, so remember to send congratulations at our next sync.",
				"{S}'s email signature now reads {V}, which is the official designation.",
				"Put {V} on {S}'s conference badge; {F} confirmed that is the formal designation.",
			},
			exact:  []string{"What is {S}'s title?", "What job title does {S} have?"},
			para:   []string{"How senior is {S}?", "What rank does {S} hold?"},
			past:   []string{"What title did {S} hold {W}?", "What was {S}'s job title {W}?"},
			entity: []string{"What titles has {S} held?", "How has {S}'s seniority progressed?"},
		},
		{pred: PredStatus,
			texts: []string{
				"{S}'s employment status is {V} for now, so plan meeting requests and deadlines accordingly.",
				"HR status note: {S} is {V} at the moment, per the update shared this morning.",
				"Per the staffing sheet, {S}'s status is {V}, so adjust the project plan for {F}.",
				"{S} confirmed that {F}'s work status is {V} for the time being.",
			},
			dups: []string{
				"Plan meetings and due dates with care: {S} is listed as {V} at present.",
				"According to this morning's HR update, {S} is currently {V}.",
				"The staffing spreadsheet shows {S} as {V}; the project plan should reflect that.",
				"{S} let me know that {F} is {V} for the time being.",
			},
			exact:  []string{"What is {S}'s employment status?", "What is {S}'s work status?"},
			para:   []string{"What kind of working arrangement does {S} have?", "On what basis is {S} employed?"},
			past:   []string{"What was {S}'s employment status {W}?", "What working arrangement did {S} have {W}?"},
			entity: []string{"How has {S}'s employment status changed over time?", "What work arrangements has {S} had?"},
		},
	}
}
