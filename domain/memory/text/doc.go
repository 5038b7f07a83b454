// Package text is the memory service's text analysis, shared by the write
// side (near-duplicate detection when memories are added) and the read side
// (recall search). It depends only on the standard library and the Snowball
// English stemmer, and every function is deterministic: the same input always
// gives the same output, independent of locale, time or map iteration order.
//
// # Analysis
//
// [Analyze] splits text into words and turns each into a [Token]:
//
//   - Words are maximal runs of Unicode letters, digits and combining marks,
//     lower-cased. Latin letters with diacritics are folded to their base
//     letters ("café" and "cafe" are the same word; decomposed combining
//     accents U+0300–U+036F are dropped), so accented and unaccented spellings
//     match. Other scripts are kept as they are (no Unicode normalisation).
//   - An apostrophe (' ’ ʼ) between a letter or digit and a letter stays inside
//     the word ("don't", "o'brien"); a possessive "'s" is removed by the
//     stemmer, then remaining apostrophes are deleted ("o'brien" → "obrien").
//   - A hyphen between two word characters joins a compound: each part becomes
//     a token, and when at least two parts survive stop-word removal their
//     concatenation follows as an extra, Joined token ("e-mail" → "e", "mail",
//     "email"; "state-of-the-art" → "state", "art", "stateoftheart").
//   - A '.' between digits is kept and a ',' between digits is dropped, so
//     "3.14" and "1,000" (→ "1000") are single number tokens. Any token holding
//     a digit is a number token and is never stemmed.
//   - Han, Hiragana, Katakana and Hangul characters have no word boundaries to
//     rely on: each such character is its own token (a unigram). [Terms] adds
//     bigrams of adjacent tokens, so adjacent CJK characters also yield
//     character bigrams ("機器" → "機", "器", "機_器").
//   - Emoji, symbols and punctuation separate words and are never tokens.
//     Punctuation and line breaks also end a clause (Token.Segment): bigrams
//     never span a clause boundary.
//   - English stop words (the Snowball English list, contractions included)
//     are dropped; the remaining words written in ASCII letters are stemmed
//     with the Snowball English stemmer ("running" → "run"). [Analyzer]
//     memoises stems for callers analysing a lot of text.
//
// # Similarity
//
// [Trigrams] and [TrigramSimilarity] follow PostgreSQL's pg_trgm exactly
// (for entity-name resolution and typos). [NearDuplicate] decides whether two
// statements say the same thing; see [Fingerprint.NearDuplicate] for the rule
// and [DuplicateThreshold] for its threshold.
package text
