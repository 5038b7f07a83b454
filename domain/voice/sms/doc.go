// Package sms counts how an SMS body is sent: its encoding (GSM-7 or
// UCS-2), its size in septets or UTF-16 code units, and the number of
// segments (PDUs) a carrier delivers and bills. It is pure: standard library
// only, no I/O.
//
// # Encoding
//
// A body every character of which is in the GSM 7-bit default alphabet or
// its extension table (3GPP TS 23.038 §6.2.1 and §6.2.1.1) is sent in
// GSM-7. A character of the default alphabet is one septet; one of the
// extension table (^ { } \ [ ~ ] | € and form feed, U+000C) is two: the
// escape 0x1B and its code. Any other character makes the whole body
// UCS-2, where every character, a GSM one included, is one 16-bit unit and
// a character outside the Basic Multilingual Plane (an emoji, say) is two:
// a surrogate pair. (23.038's UCS2 predates surrogates; senders and phones
// send UTF-16.)
//
// National language shift tables (23.038 §6.2.1.2) are not used: a sender
// must opt in to one with a header element that costs septets in every
// segment, and Twilio's calculator does not model them.
// Neither is any "smart encoding" that replaces characters (curly quotes
// and the like) before sending: the body is counted as given.
//
// Some characters, checked against the tables:
//   - 23.038 draws capital Ç at code 0x09, and so do Android's GsmAlphabet
//     and Twilio's calculator: Ç is GSM-7 and small ç forces UCS-2. The
//     Unicode Consortium's obsolete mapping file GSM0338.TXT maps 0x09 to
//     small ç instead ("the language coverage intent is clearly for the
//     lowercase c-cedilla"); the specification wins here.
//   - The Greek capitals with a code of their own (Δ Φ Γ Λ Ω Π Ψ Σ Θ Ξ)
//     are GSM-7. Those that look like Latin letters (Α U+0391, Β, Ε, …) have
//     none: 23.038 writes them with the Latin letters, and a body holding
//     the Greek code points is UCS-2.
//   - CR and LF are one septet each, so CRLF is two.
//
// # Segments
//
// One SMS carries 140 octets of user data (23.040 §9.2.3.16): 160 septets
// or 70 units. A longer body is sent as a concatenated message (23.040
// §9.2.3.24.1) whose every part spends 6 octets on the concatenation
// header, leaving 153 septets or 67 units. Parts are filled in order, and a
// character is never split across two parts: 23.040 says "a character
// represented by an escape-sequence shall not be split in the middle" and
// "a UCS2 character shall not be split in the middle", and a surrogate pair
// is kept whole the same way (Android's splitter notes that many carriers
// cannot handle a part that does not end at a character boundary). So when one septet is left in a part and the
// next character is an escape pair, the pair starts the next part and that
// part holds 152 septets; likewise 66 units when a surrogate pair would
// straddle the boundary. Twilio bills this: 154 × "]" (308 septets) is 3
// segments on Twilio, not 2 (TwilioDevEd/message-segment-calculator issue
// #39), and its calculator counts the same.
//
// The empty body is 1 segment of 0 septets in GSM-7, as Twilio's
// calculator says: an SMS-SUBMIT with no user data (TP-UDL 0) is still one
// PDU. Twilio's API refuses a message with neither body nor media (error
// 21602), so a sender should refuse an empty body before it counts.
//
// # Where Twilio's calculator differs: grapheme clusters in UCS-2
//
// Twilio's open-source calculator (npm sms-segments-calculator, from
// TwilioDevEd/message-segment-calculator), which the tests compare with,
// keeps a whole grapheme cluster in one part, and so does Android when it
// splits a message it sends (SmsMessageBase.findNextUnicodePosition breaks
// at a BreakIterator character boundary). Count splits between code points
// and keeps only surrogate pairs whole. The two differ only for a UCS-2 body
// in which a cluster of several code points (a flag, a skin-tone or ZWJ
// emoji sequence, a keycap, a letter with a combining accent, an emoji with
// a variation selector) straddles a 67-unit boundary; then the calculator
// may count more segments, never fewer. Count follows the specification:
// 23.040 forbids splitting a character, not a cluster; the receiving phone
// reassembles the parts before it shows the message, so the cluster shows
// whole; and where cluster boundaries fall depends on the Unicode version
// of the splitter (the calculator's grapheme-splitter 1.0.4 predates
// Unicode 11), which no count can match everywhere. For a sender that does
// split at clusters, Count is a lower bound in that one case. Characters is
// likewise a count of code points, not of clusters.
//
// Sources: 3GPP TS 23.038 (Alphabets and language-specific information)
// §6.2.1, §6.2.1.1; 3GPP TS 23.040 (Technical realization of SMS)
// §9.2.3.16, §9.2.3.24.1; Twilio's calculator, npm sms-segments-calculator
// 1.3.0.
package sms
