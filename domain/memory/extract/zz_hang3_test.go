package extract

import (
	"math/rand"
	"testing"
	"time"
)

func TestZZBytes(t *testing.T) {
	seeds := []string{benchText, "I'm", "Dr.", "'s", "n't", "Go.", "a16z", ":", "我喜欢Go。", "Alice's", "Inc. Corp.", "University of", "moved from to", "switched from X to", "my wife ,", "C++#", ".NET", "— Alice", "\n\nBob:\nlikes", "O'Brien's", "is the head of", "founded by"}
	r := rand.New(rand.NewSource(2))
	deadline := time.Now().Add(40 * time.Second)
	for n := 0; time.Now().Before(deadline); n++ {
		b := []byte(seeds[r.Intn(len(seeds))])
		for m := r.Intn(8); m >= 0; m-- {
			switch r.Intn(4) {
			case 0:
				if len(b) > 0 {
					b[r.Intn(len(b))] = byte(r.Intn(256))
				}
			case 1:
				p := r.Intn(len(b) + 1)
				b = append(b[:p], append([]byte{byte(r.Intn(256))}, b[p:]...)...)
			case 2:
				if len(b) > 1 {
					p := r.Intn(len(b))
					b = append(b[:p], b[p+1:]...)
				}
			case 3:
				o := seeds[r.Intn(len(seeds))]
				p := r.Intn(len(b) + 1)
				b = append(b[:p], append([]byte(o), b[p:]...)...)
			}
		}
		s := string(b)
		done := make(chan bool)
		go func() { Extract(s, Options{Self: "me"}); Classify(s); close(done) }()
		select {
		case <-done:
		case <-time.After(time.Second):
			t.Fatalf("hang on %q after %d", s, n)
		}
	}
}
