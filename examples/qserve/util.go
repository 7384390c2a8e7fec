package main

import (
	"cmp"
	"slices"
)

func sortBy[T any](xs []T, key func(T) string) {
	slices.SortFunc(xs, func(a, b T) int { return cmp.Compare(key(a), key(b)) })
}
