package search

// plist is one posting list: the slots of the documents holding a term or a
// hashed dimension, one entry per occurrence (so a term frequency is a run
// of equal entries), each document's entries adjacent. Removed documents'
// entries stay until the list is compacted.
type plist struct {
	docs []int32
	df   int32 // live documents in the list
	dead int32 // entries of removed documents not yet compacted
}

// lists is a set of posting lists addressed by dense ids, with recycling.
type lists struct {
	pl   []plist
	free []int32
}

// alloc returns the id of a new, empty list.
func (l *lists) alloc() int32 {
	if n := len(l.free); n > 0 {
		id := l.free[n-1]
		l.free = l.free[:n-1]
		l.pl[id] = plist{}
		return id
	}
	l.pl = append(l.pl, plist{})
	return int32(len(l.pl) - 1)
}

// add appends n entries for slot to list id and counts the document.
// Callers hold the write lock.
func (l *lists) add(id int32, n int, slot int32) {
	p := &l.pl[id]
	for range n {
		p.docs = append(p.docs, slot)
	}
	p.df++
}

// drop marks a removed document's n entries in list id dead and compacts
// the list once more than half of it is dead. It returns the list's new
// document frequency and whether the list is now empty (the caller then
// releases the id). Callers hold the write lock.
func (ix *Index) drop(l *lists, id int32, n int) (df int32, empty bool) {
	p := &l.pl[id]
	p.df--
	p.dead += int32(n)
	ix.maybeCompact(p)
	return p.df, p.df == 0 && len(p.docs) == 0
}

// dict interns terms to dense ids with a posting list each. Ids of emptied
// lists are recycled.
type dict struct {
	lists
	ids  map[string]int32
	keys []string
}

// intern returns k's id, creating an empty list for a new key.
func (d *dict) intern(k string) int32 {
	if id, ok := d.ids[k]; ok {
		return id
	}
	id := d.alloc()
	if int(id) == len(d.keys) {
		d.keys = append(d.keys, k)
	} else {
		d.keys[id] = k
	}
	d.ids[k] = id
	return id
}

// lookup returns k's id and whether k is known.
func (d *dict) lookup(k string) (int32, bool) {
	id, ok := d.ids[k]
	return id, ok
}

// release forgets an id whose list is empty.
func (d *dict) release(id int32) {
	delete(d.ids, d.keys[id])
	d.keys[id] = ""
	d.free = append(d.free, id)
}

// dimDict maps hashed dimensions to posting lists through a dense table
// (allocated with the first dimension), cheaper than a map on the write path.
type dimDict struct {
	lists
	ids []int32 // by dimension: list id + 1, 0 for none
}

// intern returns dim's list id, creating an empty list for a new dimension;
// size is the number of dimensions.
func (d *dimDict) intern(dim uint32, size int) int32 {
	if d.ids == nil {
		d.ids = make([]int32, size)
	}
	if id := d.ids[dim]; id > 0 {
		return id - 1
	}
	id := d.alloc()
	d.ids[dim] = id + 1
	return id
}

// lookup returns dim's list id and whether any document has held it.
func (d *dimDict) lookup(dim uint32) (int32, bool) {
	if d.ids == nil || d.ids[dim] == 0 {
		return 0, false
	}
	return d.ids[dim] - 1, true
}

// release forgets the empty list of dim.
func (d *dimDict) release(dim uint32, id int32) {
	d.ids[dim] = 0
	d.free = append(d.free, id)
}

// runs calls fn for each run of equal values in the sorted slice v.
func runs[T comparable](v []T, fn func(x T, n int)) {
	for i := 0; i < len(v); {
		j := i + 1
		for j < len(v) && v[j] == v[i] {
			j++
		}
		fn(v[i], j-i)
		i = j
	}
}

// maybeCompact filters removed documents' entries out of p when more than
// half of it is dead. Every dropped entry releases one reference of its slot;
// a slot without references is free for reuse. Amortised O(1) per removed
// entry; the worst single call is linear in the list.
func (ix *Index) maybeCompact(p *plist) {
	if int(p.dead)*2 <= len(p.docs) {
		return
	}
	kept := p.docs[:0]
	for _, s := range p.docs {
		m := &ix.meta[s]
		if m.alive {
			kept = append(kept, s)
			continue
		}
		m.refs--
		if m.refs == 0 {
			ix.free = append(ix.free, s)
		}
	}
	if len(kept) == 0 {
		p.docs = nil
	} else if cap(kept) > 64 && len(kept) < cap(kept)/4 {
		p.docs = append([]int32(nil), kept...)
	} else {
		p.docs = kept
	}
	p.dead = 0
}
