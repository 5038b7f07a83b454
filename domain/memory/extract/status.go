package extract

// Employment statuses: a closed class, so "X is part-time" or "X is on
// sabbatical" states a status while "X is happy" states nothing.
var (
	// statusWords are one-word statuses ("part-time", "retired").
	// Where someone works ("remote", "hybrid") and passing states ("on call")
	// are not employment statuses: "Sam is remote until the physio clears
	// him" must not replace Sam's status.
	statusWords = setOf(`full-time part-time fulltime parttime freelance freelancing self-employed retired
unemployed furloughed`)
	// statusNouns follow "a"/"an" ("a contractor").
	statusNouns = setOf(`contractor freelancer volunteer temp`)
	// leaveKinds qualify "leave" ("on parental leave").
	leaveKinds = setOf(`parental maternity paternity medical sick garden unpaid paid family bereavement
administrative extended study compassionate`)
	// statusLeads are adverbs a status may follow ("is currently part-time").
	statusLeads = setOf(`now currently still presently temporarily officially technically listed registered as`)
)

// orgPreps introduce where a role is held.
var orgPreps = setOf("at for with of")

// statusObj reads an employment status at q: "part-time", "on parental
// leave", "on leave", "on sabbatical", "a contractor", "on a four-day
// week", "between jobs".
func (d *doc) statusObj(q, end int) (arg, bool) {
	q = d.skipWords(q, end, statusLeads)
	if q >= end || !d.toks[q].word {
		return arg{}, false
	}
	value := func(j int) (arg, bool) {
		return arg{name: d.span(q, j), kind: Concept, value: true, m: -1, end: j}, true
	}
	w := d.toks[q].low
	switch {
	case statusWords[w]:
		return value(q + 1)
	case (w == "a" || w == "an") && q+1 < end && statusNouns[d.toks[q+1].low]:
		if q+3 < end && orgPreps[d.toks[q+2].low] {
			if _, isOrg := d.orgObj(q+3, end, false); isOrg {
				return arg{}, false // "a contractor at Acme" is a role there
			}
		}
		return value(q + 2)
	case w == "between" && q+1 < end && (d.toks[q+1].low == "jobs" || d.toks[q+1].low == "roles"):
		return value(q + 2)
	case w == "on" && q+1 < end:
		n := d.toks[q+1].low
		switch {
		case n == "leave" || n == "sabbatical" || n == "furlough" || n == "secondment" || n == "probation":
			return value(q + 2)
		case leaveKinds[n] && q+2 < end && d.toks[q+2].low == "leave":
			return value(q + 3)
		case n == "a" && q+3 < end && d.toks[q+3].low == "week" && d.dayWeek(d.toks[q+2].low):
			return value(q + 4) // "on a four-day week"
		}
	}
	return arg{}, false
}

// dayWeek reports whether w is "four-day", "4-day" and the like.
func (d *doc) dayWeek(w string) bool {
	for _, n := range []string{"three", "four", "3", "4", "2", "two", "half"} {
		if w == n+"-day" {
			return true
		}
	}
	return false
}
