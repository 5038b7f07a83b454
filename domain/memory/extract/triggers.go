package extract

import (
	"sort"
	"strings"
)

// objKind is what a trigger expects after it.
type objKind uint8

const (
	objOrg         objKind = iota + 1 // an organisation (recognised or capitalised words)
	objPlace                          // a place
	objPerson                         // a person (or "me")
	objTech                           // technologies
	objThing                          // any entity or a short noun phrase (a concept)
	objRole                           // "a senior engineer [at Org]"
	objValue                          // free text to the end of the clause
	objLang                           // human languages
	objFromTo                         // "from X to Y" (uses)
	objTeam                           // an org, or a phrase ending in team/board/...
	objStatus                         // an employment status ("part-time", "on sabbatical")
	objPlaceFromTo                    // "from X to Y" (places: moved, relocated)
)

// tflag qualifies a trigger.
type tflag uint16

const (
	tEnded      tflag = 1 << iota // states that the fact ended ("left", "quit")
	tPassive                      // "founded by": the object is the real subject
	tBare                         // may open a sentence with an implicit first-person subject
	tPoss                         // starts with my/his/her/'s, which names the subject
	tRevSelf                      // "X is my favourite ...": object before, subject Self
	tSkip                         // up to four words may come before the preposition
	tKnownOrg                     // the object must be a recognised organisation
	tTeamOnly                     // the object phrase must end in a team word
	tNoBare                       // never opens a sentence without a subject
	tEventPast                    // the past tense states the outcome that holds now ("was named Director")
	tKnownPlace                   // the object must be a recognised place
)

// trigger is one surface form of a predicate.
type trigger struct {
	words [][]string // alternatives per position; "*" matches any word
	pred  string
	obj   objKind
	flags tflag
}

type triggerSpec struct {
	pat   string
	pred  string
	obj   objKind
	flags tflag
}

const (
	possessor = "my|his|her|'s|our|their"
	be        = "is|am|'m|are|'re|was|were|'s"
	// factAdjectives may qualify a fact's noun: "her current role is".
	factAdjectives = "current?|new?|official?|formal?|actual?|present?"
)

// triggerSpecs maps surface forms to predicates. Patterns are
// space-separated positions of '|'-separated lower-case alternatives.
var triggerSpecs = []triggerSpec{
	{"works|work|working|teaches|teach|teaching at|for", "works_at", objOrg, 0},
	{"joined|rejoined", "works_at", objTeam, 0},
	{"employed by|at", "works_at", objOrg, 0},
	{"started|starts at", "works_at", objOrg, 0},
	{"started|got|landed|accepted a new? job|position|role at|with", "works_at", objOrg, 0},
	{"hired by|at", "works_at", objOrg, 0},
	{"is|'s|am|'m|are|'re still at", "works_at", objOrg, tKnownOrg | tNoBare},
	{"is|'s|am|'m|are|'re now at", "works_at", objOrg, tNoBare}, // "now" says it changed: any organisation
	{"is|'s|am|'m|are|'re at", "works_at", objOrg, tKnownOrg | tNoBare},
	{"is|'s|am|'m|are|'re no longer at", "works_at", objOrg, tKnownOrg | tEnded | tNoBare},
	{possessor + " new?|current? job|employer at|with|is", "works_at", objOrg, tPoss},
	{"works|work|working as", "role", objRole, 0},
	{"serves|serve|serving|functions|function|functioning as", "role", objRole, 0},
	{"has|have|holds|hold|took|taken|taking|takes the role|position of", "role", objRole, tEventPast},
	{"on staff at|with", "works_at", objOrg, 0},
	{be + " listed|registered as", "status", objStatus, tNoBare},
	{"listed|registered as", "status", objStatus, tNoBare},
	{be, "status", objStatus, tNoBare},
	{be, "role", objRole, tNoBare},
	{"promoted to", "role", objRole, 0},
	{"became|becomes", "role", objRole, 0},
	{"left", "lives_in", objPlace, tEnded | tKnownPlace},
	{"left", "works_at", objOrg, tEnded}, // "left Globex [for Initech]": a name not known as a place
	{"quit", "works_at", objOrg, tEnded},
	{"resigned|retired from", "works_at", objOrg, tEnded},
	{"laid off from|by", "works_at", objOrg, tEnded},
	{"worked at|for", "works_at", objOrg, tEnded},
	{"lives|live|living|resides|reside|settled in", "lives_in", objPlace, 0},
	{"moved|relocated|relocates to", "lives_in", objPlace, 0},
	{"moved|moves|relocated|relocates from", "lives_in", objPlaceFromTo, 0},
	{"based in", "lives_in", objPlace, 0},
	{"based out of", "lives_in", objPlace, 0},
	{"lived in", "lives_in", objPlace, tEnded},
	{"born in", "born_in", objPlace, tBare},
	{"born and raised in", "born_in", objPlace, tBare},
	{"headquartered|located in", "located_in", objPlace, 0},
	{possessor + " " + factAdjectives + " role|position|job is|:", "role", objValue, tPoss},
	{possessor + " " + factAdjectives + " role|position|job on|in|within the team|company|group|org|board is|:", "role", objValue, tPoss},
	{possessor + " " + factAdjectives + " title|designation is|:", "title", objValue, tPoss},
	{possessor + " " + factAdjectives + " job title is|:", "title", objValue, tPoss},
	{possessor + " " + factAdjectives + " employment?|work?|job?|hr? status is|:", "status", objValue, tPoss},
	{"got|received|earned|given|holds|hold|held the title|designation|rank of?", "title", objValue, tEventPast},
	{possessor + " email? signature now? reads|says", "title", objValue, tPoss},
	{"named|appointed as?", "title", objValue, tNoBare | tEventPast},
	{be + " named|appointed as?", "title", objValue, tNoBare | tEventPast},
	{"with the title|designation|rank of?", "title", objValue, tNoBare},
	{"reports|report|reporting to", "reports_to", objPerson, 0},
	{possessor + " manager|boss|supervisor is", "reports_to", objPerson, tPoss},
	{possessor + " manager|boss|supervisor ,", "reports_to", objPerson, tPoss},
	{possessor + " manager|boss|supervisor", "reports_to", objPerson, tPoss},
	{"is|'s my manager|boss|supervisor", "reports_to", objPerson, tRevSelf},
	{"manages|manage|managing|leads|lead|leading|oversees|heads", "manages", objThing, 0},
	{"founded|co-founded|cofounded|cofounds|founds", "founded", objOrg, 0},
	{"founder|co-founder|cofounder of", "founded", objOrg, 0},
	{"founded|co-founded|cofounded|started by", "founded", objPerson, tPassive},
	{"studied|studies|studying", "studied_at", objOrg, tSkip},
	{"graduated from", "studied_at", objOrg, 0},
	{"graduate|alumnus|alumna|alum|alumni of", "studied_at", objOrg, 0},
	{"degree|phd|mba|doctorate|masters from", "studied_at", objOrg, 0},
	{"uses|use|using|utilizes|utilises", "uses", objTech, 0},
	{"relies|rely|relying on", "uses", objTech, 0},
	{"switched|migrated|moved|ported", "uses", objFromTo, tSkip},
	{"switched|migrated|moved|ported to", "uses", objTech, 0},
	{"written|writes|write|writing|coded|codes|code|coding|programs|program in", "uses", objTech, 0},
	{"deployed|deploys|deploying|hosted|hosts|hosting", "uses", objTech, tSkip},
	{possessor + " stack is|includes|:", "uses", objTech, tPoss},
	{possessor + " tech stack is|includes|:", "uses", objTech, tPoss},
	{"proficient|experienced|expert in|with", "uses", objTech, 0},
	{"likes|like|loves|love|enjoys|enjoy|prefers|prefer|adores|adore", "likes", objThing, 0},
	{"into", "likes", objThing, tNoBare},
	{"fan of", "likes", objThing, 0},
	{"big|huge|massive fan of", "likes", objThing, 0},
	{"fond of", "likes", objThing, 0},
	{possessor + " favorite|favourite * is", "likes", objThing, tPoss},
	{possessor + " favorite|favourite * * is", "likes", objThing, tPoss},
	{"is|'s my favorite|favourite", "likes", objThing, tRevSelf},
	{"dislikes|dislike|hates|hate|detests|detest|loathes|loathe", "dislikes", objThing, 0},
	{"ca|can n't stand", "dislikes", objThing, tBare},
	{"cannot stand", "dislikes", objThing, tBare},
	{"can not stand", "dislikes", objThing, tBare},
	{"does|do|did n't like|enjoy|love", "dislikes", objThing, tBare},
	{"does|do not like|enjoy|love", "dislikes", objThing, tBare},
	{"not a fan of", "dislikes", objThing, tBare},
	{"not a big fan of", "dislikes", objThing, tBare},
	{"interested in", "interested_in", objThing, 0},
	{"curious|passionate|excited about", "interested_in", objThing, 0},
	{"fascinated by", "interested_in", objThing, 0},
	{"keen on", "interested_in", objThing, 0},
	{"learning|learns", "interested_in", objThing, 0},
	{"wants|want|wanting to learn|study|explore", "interested_in", objThing, 0},
	{"exploring|explores", "interested_in", objThing, 0},
	{"works|work|working on", "works_on", objThing, 0},
	{"building|builds|developing|develops", "works_on", objThing, 0},
	{"knows|know", "knows", objPerson, 0},
	{"met|meets", "knows", objPerson, 0},
	{"met|meets with", "knows", objPerson, 0},
	{"had|having|grabbed lunch|coffee|dinner|drinks|breakfast with", "knows", objPerson, 0},
	{"had|having a call|meeting with", "knows", objPerson, 0},
	{"caught up with", "knows", objPerson, 0},
	{"friends with", "knows", objPerson, 0},
	{"married to", "married_to", objPerson, 0},
	{"married", "married_to", objPerson, 0},
	{possessor + " wife|husband|spouse is", "married_to", objPerson, tPoss},
	{possessor + " wife|husband|spouse ,", "married_to", objPerson, tPoss},
	{possessor + " wife|husband|spouse", "married_to", objPerson, tPoss},
	{"is|'s my wife|husband|spouse", "married_to", objPerson, tRevSelf},
	{"divorced", "married_to", objPerson, tEnded},
	{"divorced from", "married_to", objPerson, tEnded},
	{"owns|own|bought|purchased", "owns", objThing, 0},
	{"member of", "member_of", objTeam, 0},
	{"part of", "member_of", objTeam, tNoBare},
	{"belongs to", "member_of", objTeam, 0},
	{"on", "member_of", objTeam, tTeamOnly | tNoBare},
	{"sits|sit on the board of", "member_of", objOrg, 0},
	{"speaks|speak|speaking", "speaks", objLang, 0},
	{"fluent in", "speaks", objLang, 0},
	{"native speaker of", "speaks", objLang, 0},
}

// triggers indexes triggerSpecs by every alternative of their first
// word; each bucket is ordered longest pattern first.
var triggers = buildTriggers()

func buildTriggers() map[string][]*trigger {
	idx := make(map[string][]*trigger)
	for _, s := range triggerSpecs {
		t := &trigger{pred: s.pred, obj: s.obj, flags: s.flags}
		for _, pos := range strings.Fields(s.pat) {
			t.words = append(t.words, strings.Split(pos, "|"))
		}
		for _, w := range t.words[0] {
			idx[w] = append(idx[w], t)
		}
	}
	for _, b := range idx {
		sort.SliceStable(b, func(i, j int) bool { return len(b[i].words) > len(b[j].words) })
	}
	return idx
}

// matchLen returns the number of tokens trigger t covers from token p,
// or 0. Optional words are spelled "new?" (see below).
func (d *doc) matchLen(t *trigger, p, end int) int {
	k := p
	for _, alts := range t.words {
		if k >= end {
			return 0
		}
		ok := false
		for _, a := range alts {
			a = strings.TrimSuffix(a, "?")
			if a == "*" {
				ok = d.toks[k].word && !determiners[d.toks[k].low] && !common[d.toks[k].low]
			} else {
				ok = d.toks[k].low == a
			}
			if ok {
				break
			}
		}
		if !ok {
			if optional(alts) {
				continue
			}
			return 0
		}
		k++
	}
	return k - p
}

// optional reports whether a pattern position may be absent ("new?").
func optional(alts []string) bool {
	for _, a := range alts {
		if strings.HasSuffix(a, "?") {
			return true
		}
	}
	return false
}

// bareForm reports whether a trigger word may open a note without a
// subject ("Moved to Berlin.", "Loves hiking."): third person, past or
// gerund forms, never the imperative base form ("Use Docker").
func bareForm(w string) bool {
	switch w {
	case "is", "was", "has", "does", "his", "this", "its", "us", "as", "into", "on":
		return false
	case "met", "left", "quit", "had", "built", "taught", "became", "led", "bought", "grabbed":
		return true
	}
	n := len(w)
	return n > 3 && (strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "ing") ||
		(w[n-1] == 's' && w[n-2] != 's'))
}
