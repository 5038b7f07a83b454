package sentiment

// Lexicon is version 1's word list: valence from -3 (very negative) to +3
// (very positive). Changing it is a new Version.
var Lexicon = map[string]int{
	// positive
	"good": 2, "great": 3, "excellent": 3, "amazing": 3, "awesome": 3, "wonderful": 3, "fantastic": 3, "perfect": 3,
	"love": 3, "loved": 3, "loving": 2, "like": 1, "liked": 1, "nice": 2, "happy": 3, "glad": 2, "pleased": 2,
	"thank": 2, "thanks": 2, "thankful": 2, "grateful": 3, "appreciate": 2, "appreciated": 2, "helpful": 2,
	"help": 1, "helped": 2, "easy": 1, "simple": 1, "quick": 1, "fast": 1, "clear": 1, "resolved": 2, "solved": 2,
	"fixed": 2, "works": 1, "working": 1, "yes": 1, "sure": 1, "absolutely": 1, "agree": 1, "interested": 2,
	"interesting": 2, "excited": 3, "exciting": 3, "recommend": 2, "satisfied": 2, "fine": 1, "okay": 1, "ok": 1,
	"correct": 1, "right": 1, "friendly": 2, "polite": 2, "welcome": 2, "best": 3, "better": 2,
	"improve": 1, "improved": 2, "success": 2, "successful": 2, "enjoy": 2, "enjoyed": 2, "fun": 2, "beautiful": 3,
	"brilliant": 3, "delighted": 3, "impressed": 3, "impressive": 3, "reliable": 2, "smooth": 1, "worth": 2,
	"valuable": 2, "benefit": 2, "fair": 1, "deal": 1, "wow": 2, "cool": 1, "calm": 1, "confident": 2, "trust": 2,
	"safe": 1, "secure": 1, "pleasure": 3, "lovely": 3, "superb": 3, "outstanding": 3, "affordable": 2,
	// negative
	"bad": -2, "terrible": -3, "awful": -3, "horrible": -3, "worst": -3, "worse": -2, "poor": -2, "hate": -3,
	"hated": -3, "angry": -3, "annoyed": -2, "annoying": -2, "upset": -2, "frustrated": -2, "frustrating": -2,
	"disappointed": -2, "disappointing": -2, "unhappy": -2, "sad": -2, "sorry": -1, "problem": -2, "problems": -2,
	"issue": -1, "issues": -1, "broken": -2, "broke": -2, "fail": -2, "failed": -2, "failure": -2, "error": -2,
	"errors": -2, "wrong": -2, "slow": -2, "late": -1, "delay": -1, "delayed": -1, "waiting": -1, "wait": -1,
	"cancel": -1, "cancelled": -1, "canceled": -1, "refund": -1, "complaint": -2, "complain": -2, "expensive": -2,
	"confusing": -2, "confused": -2, "difficult": -1, "hard": -1, "useless": -3, "waste": -2, "wasted": -2,
	"rude": -3, "unacceptable": -3, "ridiculous": -3, "stupid": -3, "scam": -3, "fraud": -3, "never": -1,
	"stop": -1, "leave": -1, "quit": -1, "lost": -2, "missing": -2, "damaged": -2, "dirty": -2, "noisy": -1,
	"unfortunately": -2, "concern": -1, "concerned": -1, "worried": -2, "worry": -2, "afraid": -2, "scared": -2,
	"pain": -2, "painful": -2, "mess": -2, "disaster": -3, "nightmare": -3, "hopeless": -3, "unreliable": -2,
	"overcharged": -3, "charged": -1, "bug": -2, "bugs": -2, "crash": -2, "crashed": -2, "stuck": -2, "no": -1,
}
