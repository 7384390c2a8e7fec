package karnak_test

import (
	"testing"

	"github.com/batchq/batchq/qbets/karnak"
	"github.com/batchq/batchq/qbets/karnak/karnaktest"
)

func TestMemStoreConforms(t *testing.T) {
	karnaktest.Store(t, func(*testing.T) karnak.Store { return &karnak.MemStore{} })
}
