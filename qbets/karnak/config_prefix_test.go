package karnak

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// Every setting Validate refuses is named after the package's "karnak: "
// prefix, as the rest of its errors are (Load's, the store's, the limits'
// product): only the limits and the rate said it, so that a program
// printing a Validate error could not tell which library refused
// ("history: -1" against "karnak: Rate NaN ..."). None is a typed error
// (*Error is for requests; a setting is fixed in the code, not branched
// on). One configuration per refusal of withDefaults.
func TestValidateErrorsPrefixed(t *testing.T) {
	long := strings.Repeat("s", 16)
	for _, c := range []struct {
		cfg  Config
		want string // the setting named, after the prefix
	}{
		{Config{History: -1}, "history: -1"},
		{Config{Levels: []Level{}}, "levels: 0"},
		{Config{Levels: []Level{{95, 5}}}, "levels[0].confidence"},
		{Config{Levels: []Level{{95, 90}, {95, 90}}}, "levels[1]: 95/90 is given twice"},
		{Config{MaxForecastJobs: maxForecastJobs + 1}, "MaxForecastJobs"},
		{Config{MaxSkew: -1}, "MaxSkew: -1"},
		{Config{MaxBackstep: maxSpan + 1}, "MaxBackstep"},
		{Config{MaxQueues: -1}, "MaxQueues: -1"},
		{Config{MaxLiveJobs: 1 << 40}, "MaxSystems 256"},
		{Config{Rate: math.NaN()}, "Rate NaN"},
		{Config{TrustedProxies: []string{"x"}}, "TrustedProxies[0]"},
		{Config{ClientHeader: "X-Real-IP"}, "ClientHeader"},
		{Config{TrustedProxies: []string{"10.0.0.1"}, ClientHeader: "X-Client"}, "ClientHeader"},
		{Config{Tokens: []Token{{Secret: long}, {Secret: long}}}, "Tokens[1].Secret: the secret of an earlier token"},
		{Config{Tokens: []Token{{Secret: "short"}}}, "Tokens[0].Secret: 5 bytes"},
		{Config{Tokens: []Token{{Secret: long, Systems: []string{"bad name"}}}}, "Tokens[0].Systems"},
		{Config{Neighbors: map[string]int{"bad name": 1}}, "neighbors: "},
		{Config{Neighbors: map[string]int{"s1": 0}}, "neighbors[s1]: 0"},
	} {
		err := c.cfg.Validate()
		if err == nil || !strings.HasPrefix(err.Error(), "karnak: "+c.want) {
			t.Errorf("%+v: %v, want \"karnak: %s...\"", c.cfg, err, c.want)
		}
		if errors.As(err, new(*Error)) {
			t.Errorf("%+v: %v is an *Error, which is a request's refusal", c.cfg, err)
		}
	}
}
