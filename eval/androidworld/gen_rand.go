package androidworld

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
)

// instanceRand is the random source of one instance of a family: seeded with
// sha256(seed, family, instance), as the benchmark seeds each instance from its run seed,
// the task's name and the instance's number. The same three give the same parameters and
// noise rows on every machine.
func instanceRand(seed int64, family string, instance int) *rand.Rand {
	sum := sha256.Sum256(fmt.Appendf(nil, "%d|%s|%d", seed, family, instance))
	return rand.New(rand.NewChaCha8(sum))
}

// pick returns a random element of l.
func pick[T any](r *rand.Rand, l []T) T { return l[r.IntN(len(l))] }

// between returns a random int in [lo, hi].
func between(r *rand.Rand, lo, hi int) int { return lo + r.IntN(hi-lo+1) }

// sample returns n distinct elements of l (n ≤ len(l)) in random order.
func sample[T any](r *rand.Rand, l []T, n int) []T {
	idx := r.Perm(len(l))[:n]
	out := make([]T, n)
	for i, j := range idx {
		out[i] = l[j]
	}
	return out
}
