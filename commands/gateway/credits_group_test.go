package gateway

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

type groupTestItem struct {
	key  string
	fail bool
	got  int // the statement that carried it
}

// A group runs concurrent items in shared statements: every item gets its
// own outcome, no statement carries two items of one key, a failing
// statement fails its items alone, and a lone item runs at once.
func TestGroupSharesStatementsAndKeepsEachOutcome(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	statements := 0
	var sizes []int
	release := make(chan struct{})
	g := newGroup(func(it *groupTestItem) string { return it.key }, func(_ context.Context, items []*groupTestItem) error {
		mu.Lock()
		statements++
		n := statements
		sizes = append(sizes, len(items))
		mu.Unlock()
		if n == 1 {
			<-release // the first statement holds while the others queue
		}
		keys := map[string]bool{}
		fail := false
		for _, it := range items {
			if keys[it.key] {
				return fmt.Errorf("statement %d carries key %s twice", n, it.key)
			}
			keys[it.key] = true
			it.got = n
			fail = fail || it.fail
		}
		if fail {
			return errors.New("statement failed")
		}
		return nil
	})
	g.parallel = 1

	first := &groupTestItem{key: "k0"}
	firstDone := make(chan error, 1)
	go func() { firstDone <- g.do(context.Background(), first) }()
	for {
		mu.Lock()
		n := statements
		mu.Unlock()
		if n == 1 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	items := make([]*groupTestItem, 40)
	errs := make([]error, len(items))
	var wg sync.WaitGroup
	for i := range items {
		items[i] = &groupTestItem{key: fmt.Sprintf("k%d", i%10), fail: i == 7}
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = g.do(context.Background(), items[i]) }()
	}
	for { // all 40 queued behind the held statement
		g.mu.Lock()
		n := len(g.queue)
		g.mu.Unlock()
		if n == len(items) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	if err := <-firstDone; err != nil || first.got != 1 {
		t.Fatalf("first item: statement %d, %v", first.got, err)
	}
	// 40 items over 10 keys: 4 statements of 10 after the first.
	if statements != 5 || fmt.Sprint(sizes) != "[1 10 10 10 10]" {
		t.Fatalf("%d statements of %v items", statements, sizes)
	}
	failed := items[7].got
	for i, it := range items {
		switch {
		case it.got == failed && errs[i] == nil:
			t.Errorf("item %d shared the failing statement %d but did not fail", i, failed)
		case it.got != failed && errs[i] != nil:
			t.Errorf("item %d failed with another statement's error: %v", i, errs[i])
		}
	}
	if g.active != 0 || len(g.queue) != 0 {
		t.Fatalf("after the run: %d leaders, %d queued", g.active, len(g.queue))
	}
	lone := &groupTestItem{key: "alone"}
	if err := g.do(context.Background(), lone); err != nil || lone.got != 6 {
		t.Fatalf("a lone item: statement %d, %v", lone.got, err)
	}
}
