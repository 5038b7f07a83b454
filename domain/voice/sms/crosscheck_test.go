package sms

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
)

// Character pools of the random bodies. None of them holds a character that
// joins the one before it into a grapheme cluster (combining marks, ZWJ,
// variation selectors, emoji modifiers, regional indicators, Hangul jamo),
// so that every code point of a body is its own cluster, except in the
// clusters pool: bodies with those are the one class where Twilio's
// calculator and Count differ (see the package doc).
var (
	poolGSM       = strings.ReplaceAll(defaultAlphabet, "\x1b", "")
	poolExtension = "\f^{}\\[~]|€"
	poolLatin1    = "`\t\u00a0¨©ª«¬\u00ad®¯°±²³´µ¶·¸¹º»¼½¾ÀÁÂÃÈÊËÌÍÎÏÐÒÓÔÕ×ÙÚÛÝÞáâãçêëíîïðóôõ÷úûýþÿ"
	poolBMP       = "…’‘“”–—•™→←★☎✓ΑΒαβγжЖщ中文日本語한ğŞİłŁœŒ\u2028\ufffd"
	poolAstral    = []string{"😀", "😂", "🎉", "🚀", "🌍", "💬", "🔥", "𝄞", "𠀀", "🀄", "🦄"}
	poolClusters  = []string{"👍🏽", "🇫🇷", "🇩🇪", "👩\u200d👩\u200d👧", "1\ufe0f\u20e3", "❤\ufe0f", "e\u0301", "n\u0303"}
)

// mixes are the weights of the pools (GSM, extension, Latin-1, BMP,
// astral, clusters) a random body draws its characters from.
var mixes = [][6]int{
	{90, 10, 0, 0, 0, 0},     // GSM-7 text
	{40, 60, 0, 0, 0, 0},     // GSM-7, many escapes
	{80, 10, 4, 3, 3, 0},     // mostly GSM-7
	{30, 10, 15, 25, 20, 0},  // mixed
	{10, 5, 0, 25, 60, 0},    // mostly emoji
	{30, 10, 10, 20, 20, 10}, // with clusters
}

// boundaries are sizes around which lengths cluster, to hit the edges.
var boundaries = []int{70, 80, 134, 153, 160, 201, 306, 459}

// randomBody is a body as its clusters, drawn with mixes[mix].
func randomBody(rng *rand.Rand, mix int) []string {
	n := rng.IntN(400)
	if rng.IntN(2) == 0 {
		n = max(1, boundaries[rng.IntN(len(boundaries))]+rng.IntN(9)-4)
	}
	w := mixes[mix]
	total := 0
	for _, x := range w {
		total += x
	}
	pick := func(s string) string { r := []rune(s); return string(r[rng.IntN(len(r))]) }
	body := make([]string, 0, n)
	for range n {
		x := rng.IntN(total)
		switch {
		case x < w[0]:
			body = append(body, pick(poolGSM))
		case x < w[0]+w[1]:
			body = append(body, pick(poolExtension))
		case x < w[0]+w[1]+w[2]:
			body = append(body, pick(poolLatin1))
		case x < w[0]+w[1]+w[2]+w[3]:
			body = append(body, pick(poolBMP))
		case x < w[0]+w[1]+w[2]+w[3]+w[4]:
			body = append(body, poolAstral[rng.IntN(len(poolAstral))])
		default:
			body = append(body, poolClusters[rng.IntN(len(poolClusters))])
		}
	}
	return body
}

// calculatorSegments is the count of a calculator that keeps every cluster
// whole, for a UCS-2 body given as its clusters.
func calculatorSegments(clusters []string) int {
	sizes, units := make([]int, len(clusters)), 0
	for i, c := range clusters {
		sizes[i] = len(utf16.Encode([]rune(c)))
		units += sizes[i]
	}
	if units <= 70 {
		return 1
	}
	segments, used := 1, 0
	for _, n := range sizes {
		if used+n > 67 {
			segments++
			used = 0
		}
		used += n
	}
	return segments
}

// hasCluster tells whether one of clusters has more than one code point.
func hasCluster(clusters []string) bool {
	for _, c := range clusters {
		if len([]rune(c)) > 1 {
			return true
		}
	}
	return false
}

type calculatorAnswer struct {
	Encoding string `json:"encoding"`
	Segments int    `json:"segments"`
}

// repoRoot is the directory of go.mod above the working directory.
func repoRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}

// TestCrossCheckTwilioCalculator compares Count with Twilio's calculator
// (npm sms-segments-calculator in e2e/node_modules, run by node) on the
// known vectors and a few thousand random bodies: the same encoding and
// segment count for every body, except the documented difference for UCS-2
// bodies with clusters of several code points.
func TestCrossCheckTwilioCalculator(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH: install Node.js >= 20, then `cd e2e && npm ci`, to compare with Twilio's calculator")
	}
	root := repoRoot(t)
	module := filepath.Join(root, "e2e", "node_modules", "sms-segments-calculator")
	if _, err := os.Stat(module); err != nil {
		t.Skipf("%s is missing: run `cd e2e && npm ci` to compare with Twilio's calculator", module)
	}

	for _, r := range poolLatin1 + poolBMP {
		if septetsOf(r) != 0 {
			t.Fatalf("%q is in a non-GSM pool but has a GSM-7 code", r)
		}
	}
	var bodies [][]string // each body as its clusters
	for _, v := range knownVectors {
		bodies = append(bodies, strings.Split(v.body, "")) // no clusters
	}
	for _, v := range clusterVectors {
		bodies = append(bodies, splitClusters(v.body))
	}
	const random = 4000
	rng := rand.New(rand.NewPCG(20260923, 38))
	for i := range random {
		bodies = append(bodies, randomBody(rng, i%len(mixes)))
	}

	var in bytes.Buffer
	enc := json.NewEncoder(&in)
	for _, b := range bodies {
		if err := enc.Encode(strings.Join(b, "")); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(node, filepath.Join("testdata", "segments.mjs"), filepath.Join(root, "e2e"))
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			t.Fatalf("node testdata/segments.mjs: %v\n%s", err, exit.Stderr)
		}
		t.Fatalf("node testdata/segments.mjs: %v", err)
	}

	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	mismatches, differ := 0, 0
	i := 0
	for ; sc.Scan(); i++ {
		if i >= len(bodies) {
			t.Fatalf("the calculator answered more lines than the %d bodies", len(bodies))
		}
		var calc calculatorAnswer
		if err := json.Unmarshal(sc.Bytes(), &calc); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		body := strings.Join(bodies[i], "")
		got := Count(body)
		want := calculatorAnswer{got.Encoding, got.Segments}
		if hasCluster(bodies[i]) {
			// The documented difference: the calculator keeps clusters whole.
			want = calculatorAnswer{UCS2, calculatorSegments(bodies[i])}
			if got.Encoding != UCS2 || got.Segments > want.Segments {
				t.Errorf("body %d: Count says %s/%d, more than a count keeping clusters whole (%d)", i, got.Encoding, got.Segments, want.Segments)
			}
			if want.Segments != got.Segments {
				differ++
			}
		}
		if calc != want {
			mismatches++
			if mismatches <= 10 {
				t.Errorf("body %d %q (%d runes): calculator %+v, want %+v (Count %+v)", i, body, len([]rune(body)), calc, want, got)
			}
		}
	}
	if i != len(bodies) {
		t.Fatalf("the calculator answered %d lines for %d bodies", i, len(bodies))
	}
	if mismatches > 0 {
		t.Fatalf("%d of %d bodies differ from Twilio's calculator", mismatches, len(bodies))
	}
	if differ == 0 {
		t.Error("no body showed the documented cluster difference: the cluster bodies do not reach a boundary")
	}
	t.Logf("%d bodies (%d random) agree with Twilio's calculator; %d differ as documented (a cluster across a part boundary)", len(bodies), random, differ)
}

// splitClusters splits a clusterVectors body into its clusters: one of
// poolClusters where it starts, else a single code point.
func splitClusters(body string) []string {
	var out []string
	rest := body
	for rest != "" {
		matched := false
		for _, c := range poolClusters {
			if strings.HasPrefix(rest, c) {
				out, rest, matched = append(out, c), rest[len(c):], true
				break
			}
		}
		if !matched {
			r := []rune(rest)[0]
			out, rest = append(out, string(r)), rest[len(string(r)):]
		}
	}
	return out
}
