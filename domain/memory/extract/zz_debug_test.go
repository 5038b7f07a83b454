package extract

import (
	"os"
	"strings"
	"testing"
)

func TestZZDebug(t *testing.T) {
	for _, s := range strings.Split(os.Getenv("X"), "\n") {
		if s == "" {
			continue
		}
		d := newDoc(s, Options{Self: "user"})
		d.recognise()
		for _, c := range d.cands {
			t.Logf("cand %d-%d %q %s prio=%d weak=%v", c.i, c.j, c.name, c.kind, c.prio, c.weak)
		}
		r := Extract(s, Options{Self: "user"})
		t.Logf("%q\n ents=%+v\n rels=%+v\n ended=%+v", s, r.Entities, r.Relations, r.Ended)
	}
}
