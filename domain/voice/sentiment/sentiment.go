// Package sentiment scores the sentiment of a transcript with a word
// list (a lexicon method), so every score can be explained: which words
// counted, how much, and by which rules.
//
// Method "lexicon", version "1":
//   - The text is lower-cased and split into words (letters and
//     apostrophes).
//   - Each word found in the lexicon (Lexicon, about 200 common English
//     words of spoken customer conversations, valence from -3 to +3, made
//     for Strata, in the manner of AFINN and VADER) adds its valence.
//   - A negator ("not", "no", "never", "don't", ...) among the three words
//     before a lexicon word flips and damps it (multiplied by -0.5), as
//     VADER does.
//   - An intensifier ("very", "really", "so", "extremely", ...) right
//     before adds 0.3 in the word's direction; a damper ("slightly",
//     "somewhat", "kind", "bit") takes 0.3 off.
//   - The sum s is normalised to [-1, 1] as s / sqrt(s² + 15) (VADER's
//     normalisation; alpha 15).
//   - Label: positive above 0.05, negative below -0.05, neutral between
//     (VADER's thresholds).
//
// It knows English only; a transcript in another language is scored by
// nothing and says so. It does not read tone of voice, sarcasm or context.
package sentiment

import (
	"math"
	"strings"
	"unicode"
)

// Method and Version name the scoring, stored with every score.
const (
	Method  = "lexicon"
	Version = "1"
)

// Score is a scored text.
type Score struct {
	Method   string  `json:"method"`
	Version  string  `json:"version"`
	Score    float64 `json:"score"` // -1 (negative) to 1 (positive)
	Label    string  `json:"label"` // positive, neutral, negative
	Sum      float64 `json:"sum"`   // the raw sum before normalisation
	Words    int     `json:"words"` // words in the text
	Matched  []Hit   `json:"matched"`
	Language string  `json:"language"`
}

// Hit is one word that counted, with what it added.
type Hit struct {
	Word    string  `json:"word"`
	Valence float64 `json:"valence"`
}

// Of scores text (English).
func Of(text string) Score {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	out := Score{Method: Method, Version: Version, Words: len(words), Matched: []Hit{}, Language: "en"}
	for i, w := range words {
		v, ok := Lexicon[w]
		if !ok {
			continue
		}
		val := float64(v)
		if i > 0 {
			switch prev := words[i-1]; {
			case intensifiers[prev]:
				val += math.Copysign(0.3, val)
			case dampers[prev]:
				val -= math.Copysign(math.Min(0.3, math.Abs(val)), val)
			}
		}
		for j := max(0, i-3); j < i; j++ {
			if negators[words[j]] {
				val *= -0.5
				break
			}
		}
		out.Sum += val
		out.Matched = append(out.Matched, Hit{Word: w, Valence: round(val)})
	}
	out.Sum = round(out.Sum)
	out.Score = round(out.Sum / math.Sqrt(out.Sum*out.Sum+15))
	switch {
	case out.Score > 0.05:
		out.Label = "positive"
	case out.Score < -0.05:
		out.Label = "negative"
	default:
		out.Label = "neutral"
	}
	return out
}

func round(f float64) float64 { return math.Round(f*1000) / 1000 }

var negators = set("not", "no", "never", "don't", "dont", "doesn't", "didn't", "isn't", "wasn't", "aren't", "won't", "can't",
	"cannot", "couldn't", "shouldn't", "wouldn't", "nothing", "nobody", "neither", "nor", "without", "hardly")

var intensifiers = set("very", "really", "so", "extremely", "absolutely", "totally", "incredibly", "super", "truly", "highly", "completely")

var dampers = set("slightly", "somewhat", "kind", "bit", "barely", "marginally", "fairly")

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
