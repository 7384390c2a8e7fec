package slurmfeed

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/batchq/batchq/qbets/karnak"
)

// Client is a Service over HTTP: a karnak handler (examples/qserve) at URL,
// such as "http://127.0.0.1:8080". It is safe for concurrent use.
type Client struct {
	URL string
	// Token is the bearer token of the feeding site (karnak.Token), if
	// the service requires one.
	Token string
	// HTTP is the client used (nil: one with a 30 s timeout).
	HTTP *http.Client
}

var defaultHTTP = &http.Client{Timeout: 30 * time.Second}

// maxAnswer bounds what the client reads of an answer.
const maxAnswer = 1 << 20

// IngestBatch posts a batch to /karnak/events. An answer other than 200
// is a *karnak.Error with the answer's status and message, as an
// in-process Service returns it.
func (c *Client) IngestBatch(batch string, evs []karnak.Event) (karnak.Ack, error) {
	body, err := json.Marshal(struct {
		Batch  string         `json:"batch"`
		Events []karnak.Event `json:"events"`
	}{batch, evs})
	if err != nil {
		return karnak.Ack{}, err
	}
	var ack karnak.Ack
	err = c.do("POST", "/karnak/events", body, &ack)
	return ack, err
}

// PredictJob gets /karnak/system/{system}/job/{id}/prediction/waittime.json.
func (c *Client) PredictJob(system string, id int64, quantile, confidence int, within int64) (karnak.Prediction, error) {
	q := url.Values{}
	q.Set("quantile", strconv.Itoa(quantile))
	q.Set("confidence", strconv.Itoa(confidence))
	if within > 0 {
		q.Set("within", fmt.Sprintf("%02d:%02d:%02d", within/3600, within/60%60, within%60))
	}
	var p karnak.Prediction
	err := c.do("GET", "/karnak/system/"+url.PathEscape(system)+"/job/"+strconv.FormatInt(id, 10)+"/prediction/waittime.json?"+q.Encode(), nil, &p)
	return p, err
}

func (c *Client) do(method, path string, body []byte, v any) error {
	req, err := http.NewRequest(method, strings.TrimSuffix(c.URL, "/")+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	hc := c.HTTP
	if hc == nil {
		hc = defaultHTTP
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return err
	}
	switch s := resp.StatusCode; {
	case s == http.StatusOK:
		if err := json.Unmarshal(b, v); err != nil {
			return fmt.Errorf("%s %s: answer: %v", method, path, err)
		}
		return nil
	default:
		msg := strings.TrimSpace(string(b))
		// A JSON resource's error is JSON (karnak's Handler): its
		// message, as an event batch's text error gives it.
		var je struct {
			Error *string `json:"error"`
		}
		if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") && json.Unmarshal(b, &je) == nil && je.Error != nil {
			msg = *je.Error
		}
		return &karnak.Error{Code: s, Message: fmt.Sprintf("%s %s: %s: %s", method, path, resp.Status, text(msg))}
	}
}
