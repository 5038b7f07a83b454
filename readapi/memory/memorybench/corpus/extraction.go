package corpus

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
)

// Labelled is one hand-labelled sentence of the extraction set
// (extraction.jsonl; the labelling rules are in extraction.md). The first
// person is SelfSubject.
type Labelled struct {
	Text      string      `json:"text"`
	Entities  [][2]string `json:"entities"`  // name, kind
	Relations [][3]string `json:"relations"` // subject, predicate, object: facts that hold
	Ended     [][3]string `json:"ended"`     // facts the sentence says stopped holding
}

// SelfSubject is the subject of the extraction set's first-person facts.
const SelfSubject = "user"

//go:embed extraction.jsonl
var extractionJSONL []byte

// ExtractionSet returns the labelled extraction sentences, in file order.
// Unlike Generate's corpus it is written by hand, not generated.
func ExtractionSet() ([]Labelled, error) {
	var out []Labelled
	sc := bufio.NewScanner(bytes.NewReader(extractionJSONL))
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var l Labelled
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			return nil, fmt.Errorf("extraction.jsonl:%d: %w", line, err)
		}
		out = append(out, l)
	}
	return out, sc.Err()
}
