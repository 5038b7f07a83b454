package extract

import (
	"math/rand"
	"strings"
	"testing"
	"time"
)

func TestZZRandom(t *testing.T) {
	words := strings.Fields("I i my Alice Bob 's n't : , . ; ? ! and or the a at in on to from of is was works joined left moved Google Acme Labs Inc. University Dr. Ms. Go go Rust likes loves uses stack favourite favorite is my wife manager role title status founded by from to switched migrated I'm she he who that which Berlin Paris Julia team the platform as engineer CTO of head design 🎉 我喜欢 ( ) — & / Smith Chen no longer used had has 've not a fan speak speaks English fluent in studied MIT at")
	r := rand.New(rand.NewSource(1))
	deadline := time.Now().Add(20 * time.Second)
	for n := 0; time.Now().Before(deadline); n++ {
		k := 1 + r.Intn(25)
		parts := make([]string, k)
		for i := range parts {
			parts[i] = words[r.Intn(len(words))]
		}
		sep := " "
		if r.Intn(3) == 0 {
			sep = ""
		}
		s := strings.Join(parts, sep)
		done := make(chan bool)
		go func() { Extract(s, Options{Self: "me"}); Classify(s); close(done) }()
		select {
		case <-done:
		case <-time.After(time.Second):
			t.Fatalf("hang on %q after %d", s, n)
		}
	}
}
