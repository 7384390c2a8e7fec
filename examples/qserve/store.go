package main

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	_ "modernc.org/sqlite" // pure-Go SQLite: no cgo needed
)

// Store is the append-only event log in an embedded SQLite database. The
// service state is a function of the log, so the log is all that is
// persisted; predictors are rebuilt from it at start.
type Store struct {
	db *sql.DB
}

// OpenStore opens (creating if needed) the database at path. WAL mode with
// synchronous=FULL makes every committed batch durable before Append
// returns, which is when the service acknowledges it.
func OpenStore(path string) (*Store, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=busy_timeout(5000)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1) // one writer; reads happen only at start
	if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS events (
		seq    INTEGER PRIMARY KEY AUTOINCREMENT,
		system TEXT NOT NULL,
		body   TEXT NOT NULL)`); err != nil {
		db.Close()
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	return &Store{db: db}, nil
}

// Append stores a batch of events in one transaction.
func (s *Store) Append(evs []Event) error {
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // no-op after Commit
	st, err := tx.Prepare(`INSERT INTO events(system, body) VALUES (?, ?)`)
	if err != nil {
		return err
	}
	defer st.Close()
	for i := range evs {
		b, err := json.Marshal(&evs[i])
		if err != nil {
			return err
		}
		if _, err := st.Exec(evs[i].System, string(b)); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Each calls f for every stored event in the order stored.
func (s *Store) Each(f func(*Event) error) error {
	rows, err := s.db.Query(`SELECT seq, body FROM events ORDER BY seq`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var seq int64
		var body string
		if err := rows.Scan(&seq, &body); err != nil {
			return err
		}
		var e Event
		if err := json.Unmarshal([]byte(body), &e); err != nil {
			return fmt.Errorf("stored event %d: %w", seq, err)
		}
		if err := f(&e); err != nil {
			return fmt.Errorf("stored event %d: %w", seq, err)
		}
	}
	return rows.Err()
}

// Count is the number of stored events of one system (a replay resumes
// after them).
func (s *Store) Count(system string) (int, error) {
	var n int
	err := s.db.QueryRow(`SELECT COUNT(*) FROM events WHERE system = ?`, system).Scan(&n)
	return n, err
}

// Last is the last stored event of one system, nil when there is none.
func (s *Store) Last(system string) (*Event, error) {
	var body string
	err := s.db.QueryRow(`SELECT body FROM events WHERE system = ? ORDER BY seq DESC LIMIT 1`, system).Scan(&body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var e Event
	if err := json.Unmarshal([]byte(body), &e); err != nil {
		return nil, fmt.Errorf("last stored event of %q: %w", system, err)
	}
	return &e, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }
