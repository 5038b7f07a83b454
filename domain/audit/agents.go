package audit

// AgentsListVersion dates the list of AI agents robots.txt is read for. It
// is part of the rubric: changing the list changes it (and RubricVersion).
const AgentsListVersion = "2026-11-27"

// Agent groups.
const (
	// AgentTraining crawlers collect content to train models. Blocking them
	// is the owner's choice and costs no points (an Info finding).
	AgentTraining = "training"
	// AgentSearch crawlers index content for AI search and answers.
	AgentSearch = "search"
	// AgentUser fetchers act for a person who asked an assistant to read a
	// page (vendors say some do not honour robots.txt; the audit reads the
	// owner's stated intent all the same).
	AgentUser = "user-initiated"
)

// Agent is one AI user agent, by the product token it matches robots.txt
// groups with.
type Agent struct {
	Token  string `json:"token"`
	Vendor string `json:"vendor"`
	Group  string `json:"group"`
}

var agents = []Agent{
	// Training.
	{"GPTBot", "OpenAI", AgentTraining},
	{"ClaudeBot", "Anthropic", AgentTraining},
	{"anthropic-ai", "Anthropic (legacy token)", AgentTraining},
	{"Google-Extended", "Google", AgentTraining},
	{"CCBot", "Common Crawl", AgentTraining},
	{"Applebot-Extended", "Apple", AgentTraining},
	{"Bytespider", "ByteDance", AgentTraining},
	{"Meta-ExternalAgent", "Meta", AgentTraining},
	{"cohere-training-data-crawler", "Cohere", AgentTraining},
	{"Amazonbot", "Amazon", AgentTraining},
	{"AI2Bot", "Allen Institute for AI", AgentTraining},
	{"Diffbot", "Diffbot", AgentTraining},
	{"PanguBot", "Huawei", AgentTraining},
	// Search.
	{"OAI-SearchBot", "OpenAI", AgentSearch},
	{"Claude-SearchBot", "Anthropic", AgentSearch},
	{"PerplexityBot", "Perplexity", AgentSearch},
	{"Applebot", "Apple", AgentSearch},
	{"DuckAssistBot", "DuckDuckGo", AgentSearch},
	{"YouBot", "You.com", AgentSearch},
	// User-initiated.
	{"ChatGPT-User", "OpenAI", AgentUser},
	{"Claude-User", "Anthropic", AgentUser},
	{"Perplexity-User", "Perplexity", AgentUser},
	{"MistralAI-User", "Mistral AI", AgentUser},
	{"Meta-ExternalFetcher", "Meta", AgentUser},
}

// Agents is the list, in its fixed order (a copy).
func Agents() []Agent { return append([]Agent(nil), agents...) }

// AgentsIn is the list's agents of one group, in order.
func AgentsIn(group string) []Agent {
	var out []Agent
	for _, a := range agents {
		if a.Group == group {
			out = append(out, a)
		}
	}
	return out
}
