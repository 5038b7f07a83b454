package memory

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/strata-platform/strata/domain/kernel"
	"github.com/strata-platform/strata/domain/memory/extract"
)

// Message is one turn of a transcript.
type Message struct {
	Role    string
	Content string
}

// Transcript limits.
const (
	MaxMessages       = 200
	MaxMessageContent = 16_000
)

// CheckTranscript validates a transcript given to process.
func CheckTranscript(msgs []Message) error {
	if len(msgs) == 0 {
		return kernel.Invalid("messages", "required", "messages must hold at least one message")
	}
	if len(msgs) > MaxMessages {
		return kernel.Invalid("messages", "max_items:200", "at most 200 messages")
	}
	for _, m := range msgs {
		switch m.Role {
		case "user", "assistant", "system":
		default:
			return kernel.Invalid("messages.role", "enum", "role must be one of user, assistant, system")
		}
		if strings.TrimSpace(m.Content) == "" {
			return kernel.Invalid("messages.content", "required", "every message needs content")
		}
		if utf8.RuneCountInString(m.Content) > MaxMessageContent {
			return kernel.Invalid("messages.content", "max_length:16000", "a message must be at most 16000 characters")
		}
	}
	return nil
}

var (
	sentenceEnd = regexp.MustCompile(`([.!?。！？]+)(\s+|$)|\n+`)
	// Cues, matched on lower-case text with word boundaries.
	cueWorking  = regexp.MustCompile(`\b(remind me|todo|to-do|need to|have to|must|should|don't forget|do not forget|deadline|by (monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight))\b`)
	cueEpisodic = regexp.MustCompile(`\b(yesterday|today|tonight|last (week|month|year|night|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|this (morning|week|weekend)|ago|met|visited|went|attended|had (a|an|the)|on (monday|tuesday|wednesday|thursday|friday|saturday|sunday)|(19|20)\d\d)\b`)
	cuePersonal = regexp.MustCompile(`\b(i|i'm|i've|i'd|i'll|my|we|our|me)\b`)
	cueStable   = regexp.MustCompile(`\b(prefer|prefers|like|likes|love|loves|hate|hates|enjoy|enjoys|favou?rite|allergic|always|never|usually|work at|works at|work for|live in|lives in|my name is|i am|i'm a|i'm an|based in|born in|speak|use|uses)\b`)
	cueQuestion = regexp.MustCompile(`^(what|who|where|when|why|how|which|can|could|would|will|do|does|did|is|are|should)\b`)
)

// ExtractMemories picks the statements worth remembering from a transcript:
// the sentences of user turns that state something about the speaker or a
// named entity (a fact, a preference, an event, a task). Questions,
// greetings and sentences under four words are skipped; assistant and
// system turns are context, not sources. The memory type follows the
// sentence's cues: working for tasks and reminders, episodic for dated or
// past events, semantic for lasting facts and preferences; importance rises
// with the facts a sentence states. Deterministic.
func ExtractMemories(msgs []Message) []RememberInput {
	var out []RememberInput
	seen := map[string]bool{}
	for _, m := range msgs {
		if m.Role != "user" {
			continue
		}
		for _, s := range sentences(m.Content) {
			lower := strings.ToLower(s)
			if len(strings.Fields(s)) < 4 || strings.HasSuffix(s, "?") || cueQuestion.MatchString(lower) || seen[lower] {
				continue
			}
			found := extract.Extract(s, extract.Options{Self: SelfName})
			personal := cuePersonal.MatchString(lower)
			if !personal && len(found.Entities) == 0 {
				continue
			}
			seen[lower] = true
			in := RememberInput{Content: s, MemoryType: TypeEpisodic, Importance: 0.5}
			switch {
			case cueWorking.MatchString(lower):
				in.MemoryType, in.Importance = TypeWorking, 0.6
			case len(found.Relations) > 0 || cueStable.MatchString(lower) && !cueEpisodic.MatchString(lower):
				in.MemoryType, in.Importance = TypeSemantic, 0.6
			}
			in.Importance = min(1, in.Importance+0.1*float64(min(len(found.Relations), 3)))
			out = append(out, in)
		}
	}
	return out
}

// sentences splits text into trimmed sentences, keeping their end marks.
func sentences(text string) []string {
	var out []string
	last := 0
	for _, loc := range sentenceEnd.FindAllStringSubmatchIndex(text, -1) {
		end := loc[1]
		if loc[2] >= 0 {
			end = loc[3] // keep the punctuation, drop the space
		}
		if s := clean(text[last:end]); s != "" {
			out = append(out, s)
		}
		last = loc[1]
	}
	if s := clean(text[last:]); s != "" {
		out = append(out, s)
	}
	return out
}

func clean(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '-' || r == '*' || r == '•' })
}
