module github.com/batchq/batchq

go 1.26

require (
	github.com/google/btree v1.1.3 // indirect
	gonum.org/v1/gonum v0.17.0 // indirect
	pgregory.net/rapid v1.3.0 // indirect
)
