// Package wordnet reads the noun part of a WordNet 3.0 database in the
// Princeton file format (data.noun, index.noun, noun.exc; Debian's
// wordnet-base installs them in /usr/share/wordnet) and answers which kinds
// a noun belongs to: the lemmas of its synonym set and of every hypernym
// above it ("corgi" is a dog, a domestic animal, a mammal, an animal ...).
// The memory service's recall index uses it so that a question naming a
// kind ("What pets ... animals?") matches memories naming its members.
//
// It is a reader of about a hundred lines rather than a dependency: the Go
// WordNet libraries we found either embed their own copy of the database
// (tens of megabytes in the binary) or read the whole lexicon into
// structures we do not need (verbs, adjectives, frames, glosses).
package wordnet

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// DefaultDir is where Debian's wordnet-base installs the database.
const DefaultDir = "/usr/share/wordnet"

// Senses is how many of a noun's senses, most frequent first, Kinds follows:
// rarer senses ("cat": a whip; "pet": a fit of petulance) add more noise
// than they find.
const Senses = 2

// maxDepth bounds the hypernym levels Kinds climbs (corgi to animal is nine).
const maxDepth = 12

// generic are the lemmas at the top of the noun hierarchy: every noun is one
// of them, so as kinds they only cost index space.
var generic = map[string]bool{"entity": true, "physical_entity": true, "abstraction": true, "abstract_entity": true,
	"object": true, "physical_object": true, "whole": true, "unit": true, "thing": true, "matter": true,
	"psychological_feature": true, "causal_agent": true, "cause": true, "causal_agency": true}

type synset struct {
	words []string // lower-case lemmas, "_" between the words of a compound
	hyper []int64  // hypernym and instance hypernym offsets
}

// DB is an opened noun database. It is safe for concurrent use.
type DB struct {
	synsets map[int64]*synset     // by byte offset in data.noun
	index   map[string][]int64    // lemma → synsets, most frequent sense first
	exc     map[string]string     // irregular form → lemma (noun.exc)
	mu      sync.RWMutex          // guards kinds
	kinds   map[string]kindsEntry // memo of Kinds by word
}

type kindsEntry struct {
	lemma string
	kinds []string
}

// Open reads the noun files in dir.
func Open(dir string) (*DB, error) {
	db := &DB{synsets: map[int64]*synset{}, index: map[string][]int64{}, exc: map[string]string{}, kinds: map[string]kindsEntry{}}
	if err := eachLine(filepath.Join(dir, "data.noun"), db.addSynset); err != nil {
		return nil, err
	}
	if err := eachLine(filepath.Join(dir, "index.noun"), db.addIndex); err != nil {
		return nil, err
	}
	if err := eachLine(filepath.Join(dir, "noun.exc"), func(f []string) error {
		if len(f) >= 2 {
			db.exc[f[0]] = f[1]
		}
		return nil
	}); err != nil {
		return nil, err
	}
	if len(db.synsets) == 0 || len(db.index) == 0 {
		return nil, fmt.Errorf("wordnet: %s holds no noun synsets", dir)
	}
	return db, nil
}

// eachLine calls fn with the fields of every line of path that is not part
// of the licence header (those begin with spaces), before any gloss.
func eachLine(path string, fn func([]string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("wordnet: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || line[0] == ' ' {
			continue
		}
		if i := strings.Index(line, " | "); i >= 0 {
			line = line[:i]
		}
		if err := fn(strings.Fields(line)); err != nil {
			return fmt.Errorf("wordnet: %s line %d: %w", filepath.Base(path), n, err)
		}
	}
	return sc.Err()
}

// addSynset parses "offset lex_filenum n w_cnt(hex) word lex_id ... p_cnt
// (symbol offset pos source/target)...".
func (db *DB) addSynset(f []string) error {
	if len(f) < 4 {
		return fmt.Errorf("short synset line")
	}
	off, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil {
		return err
	}
	nw, err := strconv.ParseInt(f[3], 16, 32)
	if err != nil || len(f) < 5+2*int(nw) {
		return fmt.Errorf("synset %s: bad word count %q", f[0], f[3])
	}
	s := &synset{}
	for i := range int(nw) {
		s.words = append(s.words, strings.ToLower(f[4+2*i]))
	}
	i := 4 + 2*int(nw)
	np, err := strconv.Atoi(f[i])
	if err != nil || len(f) < i+1+4*np {
		return fmt.Errorf("synset %s: bad pointer count %q", f[0], f[i])
	}
	for p := range np {
		sym, target, pos := f[i+1+4*p], f[i+2+4*p], f[i+3+4*p]
		if (sym == "@" || sym == "@i") && pos == "n" {
			h, err := strconv.ParseInt(target, 10, 64)
			if err != nil {
				return err
			}
			s.hyper = append(s.hyper, h)
		}
	}
	db.synsets[off] = s
	return nil
}

// addIndex parses "lemma n synset_cnt p_cnt symbol... sense_cnt tagsense_cnt offset...".
func (db *DB) addIndex(f []string) error {
	if len(f) < 4 {
		return fmt.Errorf("short index line")
	}
	np, err := strconv.Atoi(f[3])
	if err != nil || len(f) < 6+np {
		return fmt.Errorf("index %s: bad pointer count %q", f[0], f[3])
	}
	for _, o := range f[6+np:] {
		off, err := strconv.ParseInt(o, 10, 64)
		if err != nil {
			return err
		}
		db.index[f[0]] = append(db.index[f[0]], off)
	}
	return nil
}
