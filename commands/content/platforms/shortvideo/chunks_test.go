package shortvideo

import "testing"

func TestChunks(t *testing.T) {
	cases := []struct{ size, chunk, count int64 }{
		{100, 100, 1},
		{64 << 20, 64 << 20, 1},
		{64<<20 + 1, 10 << 20, 6},
		{100 << 20, 10 << 20, 10},
	}
	for _, c := range cases {
		chunk, count := chunks(c.size)
		if chunk != c.chunk || count != c.count {
			t.Errorf("chunks(%d) = %d, %d; want %d, %d", c.size, chunk, count, c.chunk, c.count)
		}
		if last := c.size - (count-1)*chunk; last < 1 || last >= 128<<20 {
			t.Errorf("chunks(%d): last chunk %d bytes", c.size, last)
		}
	}
}
