package text

// isStop reports whether w (lower-case, apostrophes normalised to ') is an
// English stop word: the Snowball English stop list, including its
// contractions, plus the few extra words of the Go Snowball port's list.
// A switch rather than a map keeps the package free of mutable state.
func isStop(w string) bool {
	switch w {
	case "i", "me", "my", "myself", "we", "our", "ours", "ourselves", "you",
		"your", "yours", "yourself", "yourselves", "he", "him", "his", "himself",
		"she", "her", "hers", "herself", "it", "its", "itself", "they", "them",
		"their", "theirs", "themselves", "what", "which", "who", "whom", "this",
		"that", "these", "those", "am", "is", "are", "was", "were", "be", "been",
		"being", "have", "has", "had", "having", "do", "does", "did", "doing",
		"would", "should", "could", "ought", "i'm", "you're", "he's", "she's",
		"it's", "we're", "they're", "i've", "you've", "we've", "they've", "i'd",
		"you'd", "he'd", "she'd", "we'd", "they'd", "i'll", "you'll", "he'll",
		"she'll", "we'll", "they'll", "isn't", "aren't", "wasn't", "weren't",
		"hasn't", "haven't", "hadn't", "doesn't", "don't", "didn't", "won't",
		"wouldn't", "shan't", "shouldn't", "can't", "cannot", "couldn't",
		"mustn't", "let's", "that's", "who's", "what's", "here's", "there's",
		"when's", "where's", "why's", "how's", "a", "an", "the", "and", "but",
		"if", "or", "because", "as", "until", "while", "of", "at", "by", "for",
		"with", "about", "against", "between", "into", "through", "during",
		"before", "after", "above", "below", "to", "from", "up", "down", "in",
		"out", "on", "off", "over", "under", "again", "further", "then", "once",
		"here", "there", "when", "where", "why", "how", "all", "any", "both",
		"each", "few", "more", "most", "other", "some", "such", "no", "nor",
		"not", "only", "own", "same", "so", "than", "too", "very",
		// The Go Snowball port's list adds these.
		"can", "will", "just", "don", "s", "t", "now":
		return true
	}
	return false
}

// isNegation reports whether w (lower-case, apostrophes normalised) negates
// its clause. Used by near-duplicate detection, where "likes tea" and "does
// not like tea" must differ although "not" is a stop word.
func isNegation(w string) bool {
	switch w {
	case "not", "no", "never", "nor", "none", "nobody", "nothing", "neither",
		"nowhere", "cannot", "without":
		return true
	}
	return len(w) > 3 && w[len(w)-3:] == "n't"
}
